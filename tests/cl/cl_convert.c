/* cl_convert.c - convert_<type>[_sat][_<mode>] (cl/builtins/convert.cl)
 * for every pair of types against a reference that rounds the exact value
 * (every source value is exact in x87 long double, 64-bit significand) by
 * scaling it to an integer and rounding that with the C library's
 * nearbyintl/truncl/ceill/floorl. Inputs: each type's edges, values at the
 * float/double/half precision limits, ties, NaN, infinities, -0, random
 * bit patterns. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/test.h"
#include "lib/util.h"
#include "tests/cl/cl_test.h"

enum { MODE_DEFAULT, MODE_RTE, MODE_RTZ, MODE_RTP, MODE_RTN };

struct type_info {
  const char *name;
  int size;          /* bytes */
  int is_fp, is_signed;
  int bits;          /* integer width, or significand bits */
  int emin, emax;    /* floating types */
};
static const struct type_info types[] = {
    {"char", 1, 0, 1, 8, 0, 0},       {"uchar", 1, 0, 0, 8, 0, 0},
    {"short", 2, 0, 1, 16, 0, 0},     {"ushort", 2, 0, 0, 16, 0, 0},
    {"int", 4, 0, 1, 32, 0, 0},       {"uint", 4, 0, 0, 32, 0, 0},
    {"long", 8, 0, 1, 64, 0, 0},      {"ulong", 8, 0, 0, 64, 0, 0},
    {"float", 4, 1, 1, 24, -126, 127}, {"double", 8, 1, 1, 53, -1022, 1023},
    {"half", 2, 1, 1, 11, -14, 15}};
#define NTYPES 11

static long double round_int(long double v, int mode) {
  return mode == MODE_RTE ? nearbyintl(v) : mode == MODE_RTP ? ceill(v)
       : mode == MODE_RTN ? floorl(v) : truncl(v); /* default to integer: rtz */
}
/* v rounded to the floating type t in mode (default: rte). */
static long double round_fp(long double v, const struct type_info *t, int mode) {
  if (isnan(v) || isinf(v) || v == 0) return v;
  int e = ilogbl(v);
  if (e < t->emin) e = t->emin;
  long double q = ldexpl(v, t->bits - 1 - e);
  q = mode == MODE_DEFAULT || mode == MODE_RTE ? nearbyintl(q) : round_int(q, mode);
  long double r = ldexpl(q, e - (t->bits - 1));
  long double largest = ldexpl(1, t->emax + 1) - ldexpl(1, t->emax + 1 - t->bits);
  if (fabsl(r) > largest) {
    bool to_inf = mode == MODE_DEFAULT || mode == MODE_RTE || (mode == MODE_RTP && r > 0) ||
                  (mode == MODE_RTN && r < 0);
    r = to_inf ? copysignl(INFINITY, r) : copysignl(largest, r);
  }
  return r;
}
static long double int_min(const struct type_info *t) {
  return t->is_signed ? -ldexpl(1, t->bits - 1) : 0;
}
static long double int_max(const struct type_info *t) {
  return t->is_signed ? ldexpl(1, t->bits - 1) - 1 : ldexpl(1, t->bits) - 1;
}
/* The reference, as a long double value of the destination. */
static long double ref(long double v, const struct type_info *s, const struct type_info *d,
                       int mode, bool saturate) {
  if (d->is_fp) return round_fp(v, d, mode);
  if (s->is_fp) { /* saturating either way (convert.cl's choice without _sat) */
    if (isnan(v)) return 0;
    long double r = round_int(v, mode == MODE_DEFAULT ? MODE_RTZ : mode);
    return r < int_min(d) ? int_min(d) : r > int_max(d) ? int_max(d) : r;
  }
  if (saturate) return v < int_min(d) ? int_min(d) : v > int_max(d) ? int_max(d) : v;
  /* wrap modulo 2^bits */
  long double m = ldexpl(1, d->bits), r = fmodl(v, m);
  if (r < 0) r += m;
  if (d->is_signed && r > int_max(d)) r -= m;
  return r;
}

static long double load(const void *p, const struct type_info *t) {
  switch (t - types) {
  case 0: return *(const int8_t *)p;
  case 1: return *(const uint8_t *)p;
  case 2: return *(const int16_t *)p;
  case 3: return *(const uint16_t *)p;
  case 4: return *(const int32_t *)p;
  case 5: return *(const uint32_t *)p;
  case 6: return *(const int64_t *)p;
  case 7: return *(const uint64_t *)p;
  case 8: return *(const float *)p;
  case 9: return *(const double *)p;
  default: return cl_half_to_ld(*(const uint16_t *)p);
  }
}

#define N 512
/* Inputs of type s: raw bits of `size` bytes. */
static void make_inputs(const struct type_info *s, unsigned char *buf, uint64_t seed) {
  static const long double fp_values[] = {
      0.0L, -0.0L, 0.5L, -0.5L, 1.5L, 2.5L, -2.5L, 0.49999997L, 127.5L, 128.0L, -128.5L,
      255.5L, 256.0L, 32767.5L, 65535.5L, 65536.0L, 2147483647.5L, 2147483648.0L,
      -2147483648.5L, 4294967295.5L, 4294967296.0L, 9.2233720368547758e18L, 1.8446744073709552e19L,
      -9.2233720368547758e18L, 65504.0L, 65520.0L, 65519.0L, 16777217.0L, 1e30L, 1e300L,
      0x1p-24L, 0x1p-25L, 0x1.8p-25L, 0x1p-149L, 0x1p-1074L, 3.4028235e38L, INFINITY,
      -INFINITY, NAN, 0x1.fffffep127L, 0x1.ffffffep127L, 0x1.000001p0L, 0x1.0000018p0L,
      0x1.00000000000008p0L, 0x1.0000000000000cp0L};
  static const uint64_t int_values[] = {0, 1, ~0ull, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff,
                                        0x7fffffff, 0x80000000, 0xffffffff, 0x1000001, 0x1000003,
                                        0x7fffffffffffffff, 0x8000000000000000, 0x20000000000001,
                                        0x20000000000003, 0x7ffffffffffffdff, 0xfffffffffffff800,
                                        0xffffffffffffffff, 0x0800800000000001, 0xffe, 0x1001};
  int nfp = (int)countof(fp_values), nint = (int)countof(int_values);
  for (int i = 0; i < N; i++) {
    uint64_t r = cl_rand(&seed);
    unsigned char *p = buf + i * s->size;
    if (!s->is_fp) {
      uint64_t v = i < nint ? int_values[i] : i < 2 * nint ? -int_values[i - nint] : r >> (r & 63);
      memcpy(p, &v, s->size); /* little endian: the low bytes */
      continue;
    }
    long double v = i < nfp ? fp_values[i] : i < 2 * nfp ? -fp_values[i - nfp] : NAN;
    if (i >= 2 * nfp) { /* random: raw bits, or in integer range with fractions */
      if (i % 2) { memcpy(p, &r, s->size); continue; }
      v = ldexpl((long double)(int64_t)r, -(int)(r % 60)) * 0.25L;
    }
    if (s - types == 8) { float f = (float)v; memcpy(p, &f, 4); }
    else if (s - types == 9) { double d = (double)v; memcpy(p, &d, 8); }
    else { uint16_t h = cl_ld_to_half(v); memcpy(p, &h, 2); }
  }
}

#define CL_DECL_SRC(D, S) void cl_cvt_##D##_##S(const void *, void *, int);
#define CL_DECL(D)                                                             \
  CL_DECL_SRC(D, char) CL_DECL_SRC(D, uchar) CL_DECL_SRC(D, short) CL_DECL_SRC(D, ushort) \
  CL_DECL_SRC(D, int) CL_DECL_SRC(D, uint) CL_DECL_SRC(D, long) CL_DECL_SRC(D, ulong)    \
  CL_DECL_SRC(D, float) CL_DECL_SRC(D, double) CL_DECL_SRC(D, half)
CL_DECL(char) CL_DECL(uchar) CL_DECL(short) CL_DECL(ushort) CL_DECL(int) CL_DECL(uint)
CL_DECL(long) CL_DECL(ulong) CL_DECL(float) CL_DECL(double) CL_DECL(half)
#define CL_ROW(D)                                                              \
  {cl_cvt_##D##_char, cl_cvt_##D##_uchar, cl_cvt_##D##_short, cl_cvt_##D##_ushort,   \
   cl_cvt_##D##_int, cl_cvt_##D##_uint, cl_cvt_##D##_long, cl_cvt_##D##_ulong,       \
   cl_cvt_##D##_float, cl_cvt_##D##_double, cl_cvt_##D##_half}
static void (*const cvt[NTYPES][NTYPES])(const void *, void *, int) = {
    CL_ROW(char), CL_ROW(uchar), CL_ROW(short), CL_ROW(ushort), CL_ROW(int), CL_ROW(uint),
    CL_ROW(long), CL_ROW(ulong), CL_ROW(float), CL_ROW(double), CL_ROW(half)};

static const char *mode_names[5] = {"", "_rte", "_rtz", "_rtp", "_rtn"};

TEST(CL_TEST_NAME(cl_convert_every_pair_mode_and_saturation)) {
  static unsigned char in[N * 8], out[10 * N * 8];
  for (int si = 0; si < NTYPES; si++) {
    const struct type_info *s = &types[si];
    make_inputs(s, in, 100 + si);
    for (int di = 0; di < NTYPES; di++) {
      const struct type_info *d = &types[di];
      cvt[di][si](in, out, N);
      int variants = d->is_fp ? 5 : 10;
      for (int k = 0; k < variants; k++)
        for (int i = 0; i < N; i++) {
          long double v = load(in + i * s->size, s);
          long double want = ref(v, s, d, k % 5, k >= 5);
          long double got = load(out + (k * N + i) * d->size, d);
          bool ok = isnan(want) ? isnan(got) : got == want && (want != 0 || !d->is_fp ||
                                                               signbit(got) == signbit(want));
          ASSERT_MSG(ok, "convert_%s%s%s((%s)%La) = %La, want %La", d->name, k >= 5 ? "_sat" : "",
                     mode_names[k % 5], s->name, v, got, want);
        }
    }
  }
}
