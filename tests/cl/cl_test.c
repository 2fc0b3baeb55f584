/* cl_test.c - see cl_test.h. */
#include "tests/cl/cl_test.h"

#include <math.h>

long double cl_half_to_ld(uint16_t h) {
  int e = (h >> 10) & 0x1f, f = h & 0x3ff;
  long double v;
  if (e == 0x1f) v = f ? NAN : INFINITY;
  else if (e == 0) v = ldexpl(f, -24);
  else v = ldexpl(f | 0x400, e - 25);
  return (h & 0x8000) ? -v : v;
}

uint16_t cl_ld_to_half(long double x) {
  uint16_t sign = signbit(x) ? 0x8000 : 0;
  if (isnan(x)) return 0x7e00;
  long double a = fabsl(x);
  if (a == 0) return sign;
  if (isinf(a)) return sign | 0x7c00;
  /* the multiple of the spacing at a (2^-24 below 2^-14), to nearest even */
  int e = ilogbl(a);
  if (e < -14) e = -14;
  long double q = nearbyintl(ldexpl(a, 10 - e)); /* 2^10 <= q <= 2^11 if normal */
  if (q >= 2048) { q /= 2; e++; }
  if (e > 15) return sign | 0x7c00;
  if (q < 1024) return sign | (uint16_t)q; /* subnormal */
  return sign | (uint16_t)((e + 15) << 10) | ((uint16_t)q & 0x3ff);
}

long double cl_round_to(long double x, enum cl_type t) {
  if (t == CL_FLOAT) return (float)x;
  if (t == CL_DOUBLE) return (double)x;
  return cl_half_to_ld(cl_ld_to_half(x));
}

double cl_ulp_error(long double ref, long double got, enum cl_type t) {
  int prec = t == CL_FLOAT ? 24 : t == CL_DOUBLE ? 53 : 11;
  int emin = t == CL_FLOAT ? -126 : t == CL_DOUBLE ? -1022 : -14;
  int emax = t == CL_FLOAT ? 127 : t == CL_DOUBLE ? 1023 : 15;
  if (isnan(ref) || isnan(got)) return isnan(ref) && isnan(got) ? 0 : INFINITY;
  if (isinf(ref)) return got == ref ? 0 : INFINITY;
  /* beyond the largest finite value (2^(emax+1) - one ulp) rounds to
   * infinity; an infinity counts as 2^(emax+1) otherwise */
  long double largest = ldexpl(1, emax + 1) - ldexpl(1, emax + 1 - prec);
  if (isinf(got) && fabsl(ref) > largest && signbit(got) == signbit(ref)) return 0;
  if (isinf(got)) got = copysignl(ldexpl(1, emax + 1), got);
  int e = ref == 0 ? emin : ilogbl(ref);
  if (e < emin) e = emin;
  return (double)(fabsl(got - ref) / ldexpl(1, e - prec + 1));
}
