/*
 * math.cl - the math built-ins, OpenCL C 2.0 specification section 6.13.2,
 * at the full profile's error bounds (OpenCL 2.0 API specification section
 * 7.4, and section 9.4.2 of the OpenCL 2.0 extension specification for half).
 *
 * How each is computed:
 * - float and half: from the double result, rounded once to the narrower
 *   type. The double functions used are the C library's (glibc's libm on the
 *   host, newlib's, i.e. fdlibm's, in the image), whose errors are below
 *   1 ulp of double for these (fdlibm's e_*.c and s_*.c headers; glibc
 *   manual "Errors in Math Functions"): the float result is then within
 *   0.5 ulp + 2^-29 ulp of float, inside every bound of section 7.4.
 * - double: the C library's double function where its error is below the
 *   bound (acos asin atan atan2 acosh asinh atanh cbrt cos cosh erf erfc exp
 *   exp2 expm1 hypot lgamma_r log log2 log10 log1p pow sin sinh tan tanh,
 *   bounds 2 to 16 ulp; the exact ones ceil floor trunc round rint fmod
 *   remainder remquo frexp ldexp), and our own code where a C library
 *   falls short: cbrt (glibc's, up to 3 ulp against a bound of 2), fma (newlib's s_fma.c is the plain x*y+z, its BUGS section
 *   says so), tgamma (newlib computes exp(lgamma(x)), whose error grows with
 *   x far past 16 ulp), pow's and modf's special values (newlib's differ
 *   from C99's), and the OpenCL-only functions (sinpi, cospi, tanpi,
 *   asinpi, acospi, atanpi, atan2pi, exp10, rootn, pown, powr, rsqrt,
 *   maxmag, minmag, fract, nan, ilogb, logb, nextafter).
 * - The exact functions (fabs copysign fmin fmax fdim nextafter ceil floor
 *   trunc round rint fmod remainder remquo frexp ldexp modf fract ilogb logb
 *   nan maxmag minmag) are exact in every type.
 * - half_* and native_* are the full-precision functions (their bounds are
 *   looser); mad is a*b+c with two roundings (section 6.13.2.1 allows it).
 */
#include "clb.h"

/* ---- Double-double helpers (Dekker, "A floating-point technique for
 * extending the available precision", Numer. Math. 18, 1971), exact without
 * fused multiply-add (-ffp-contract=off keeps them so). */
CLB_INL void clb_two_sum(double a, double b, double *s, double *e) {
  double x = a + b, bv = x - a, av = x - bv;
  *s = x;
  *e = (a - av) + (b - bv);
}
CLB_INL void clb_split(double a, double *hi, double *lo) {
  double t = 134217729.0 * a; /* 2^27 + 1 */
  *hi = t - (t - a);
  *lo = a - *hi;
}
CLB_INL void clb_two_prod(double a, double b, double *p, double *e) {
  double ah, al, bh, bl;
  *p = a * b;
  clb_split(a, &ah, &al);
  clb_split(b, &bh, &bl);
  *e = ((ah * bh - *p) + ah * bl + al * bh) + al * bl;
}
/* x rounded to odd: if e (what x misses of the exact value) is not zero and
 * x is even, the neighbour of x on e's side (Boldo and Melquiond, "Emulation
 * of FMA and correctly rounded sums: proved algorithms using rounding to
 * odd", IEEE Trans. Computers 57(4), 2008). */
CLB_INL double clb_make_odd(double x, double e) {
  if (e == 0.0 || !__builtin_isfinite(x)) return x;
  long b = as_long(x);
  if ((b & 1) == 0) b += ((e > 0.0) == (x > 0.0)) ? 1 : -1;
  return as_double(b);
}

double clb_fma_to_odd(double a, double b, double c) {
  double p = a * b; /* exact for float or half a and b */
  double s, e;
  if (!__builtin_isfinite(p) || !__builtin_isfinite(c)) return p + c;
  clb_two_sum(p, c, &s, &e);
  return clb_make_odd(s, e);
}

/* Correctly rounded double a*b+c (Boldo and Melquiond, above: the exact
 * product as two doubles, the sum of the three with one rounding to odd
 * then one to nearest). Operands are scaled by powers of two so that
 * splitting and the error terms neither overflow nor underflow; a result
 * in the subnormal range is rounded twice (at most 1 subnormal ulp off). */
static double clb_fma_double(double a, double b, double c) {
  if (!__builtin_isfinite(a) || !__builtin_isfinite(b) || !__builtin_isfinite(c) ||
      a == 0.0 || b == 0.0)
    return a * b + c;
  if (c == 0.0) return a * b;
  int ea, eb;
  a = clb_libm_frexp(a, &ea);
  b = clb_libm_frexp(b, &eb);
  int scale = ea + eb;
  int ec;
  double cm = clb_libm_frexp(c, &ec);
  if (ec - scale > 200) return c; /* |a*b| below half an ulp of c... */
  if (ec - scale < -200)          /* ...or c below the product's last bit */
    c = __builtin_copysign(0x1p-200, c);
  else
    c = clb_libm_ldexp(cm, ec - scale);
  double ph, pl, th, tl, v, ve;
  clb_two_prod(a, b, &ph, &pl);
  clb_two_sum(c, ph, &th, &tl);
  clb_two_sum(tl, pl, &v, &ve);
  v = clb_make_odd(v, ve);
  double r = th + v;
  if (scale > 0 && r != 0.0) { /* r * 2^scale, in steps that stay exact */
    double er;
    int k;
    er = clb_libm_frexp(r, &k);
    return clb_libm_ldexp(er, k + scale);
  }
  return clb_libm_ldexp(r, scale);
}
/* Ulp edge: with c dropped to 2^-200 relative, ties of the product are still
 * broken on the right side, since only the sign of what is left matters. */

CLB_OVL float fma(float a, float b, float c) { return (float)clb_fma_to_odd(a, b, c); }
CLB_OVL double fma(double a, double b, double c) { return clb_fma_double(a, b, c); }
CLB_OVL half fma(half a, half b, half c) {
  return as_half(clb_double_to_half_bits(clb_fma_to_odd((float)a, (float)b, (float)c), CLB_RTE));
}

/* ---- Functions of one argument taken from the C library's double one. */
#define CLB_FROM_LIBM1(F, L)                                              \
  CLB_OVL double F(double x) { return clb_libm_##L(x); }                  \
  CLB_OVL float F(float x) { return (float)clb_libm_##L(x); }             \
  CLB_OVL half F(half x) { return (half)F((float)x); }
#define CLB_FROM_LIBM2(F, L)                                              \
  CLB_OVL double F(double x, double y) { return clb_libm_##L(x, y); }     \
  CLB_OVL float F(float x, float y) { return (float)clb_libm_##L(x, y); } \
  CLB_OVL half F(half x, half y) { return (half)F((float)x, (float)y); }
/* Functions whose double version is our own (below): float and half. */
#define CLB_FROM_DOUBLE1(F)                                               \
  CLB_OVL float F(float x) { return (float)F((double)x); }                \
  CLB_OVL half F(half x) { return (half)F((float)x); }
#define CLB_FROM_DOUBLE2(F)                                               \
  CLB_OVL float F(float x, float y) { return (float)F((double)x, (double)y); } \
  CLB_OVL half F(half x, half y) { return (half)F((float)x, (float)y); }

CLB_FROM_LIBM1(acos, acos) CLB_FROM_LIBM1(acosh, acosh) CLB_FROM_LIBM1(asin, asin)
CLB_FROM_LIBM1(asinh, asinh) CLB_FROM_LIBM1(atan, atan) CLB_FROM_LIBM1(atanh, atanh)
CLB_FROM_LIBM1(cos, cos) CLB_FROM_LIBM1(cosh, cosh)
CLB_FROM_LIBM1(erf, erf) CLB_FROM_LIBM1(erfc, erfc) CLB_FROM_LIBM1(exp, exp)
CLB_FROM_LIBM1(exp2, exp2) CLB_FROM_LIBM1(expm1, expm1) CLB_FROM_LIBM1(log, log)
CLB_FROM_LIBM1(log2, log2) CLB_FROM_LIBM1(log10, log10) CLB_FROM_LIBM1(log1p, log1p)
CLB_FROM_LIBM1(sin, sin) CLB_FROM_LIBM1(sinh, sinh) CLB_FROM_LIBM1(tan, tan)
CLB_FROM_LIBM1(tanh, tanh) CLB_FROM_LIBM1(ceil, ceil) CLB_FROM_LIBM1(floor, floor)
CLB_FROM_LIBM1(trunc, trunc) CLB_FROM_LIBM1(round, round) CLB_FROM_LIBM1(rint, rint)
CLB_FROM_LIBM2(atan2, atan2) CLB_FROM_LIBM2(fmod, fmod) CLB_FROM_LIBM2(hypot, hypot)
CLB_FROM_LIBM2(remainder, remainder)

/* pow: a NaN argument gives NaN except pow(+1, y) and pow(x, +-0), which
 * are 1 (C99 F.9.4.4, OpenCL 2.0 section 7.5.1); newlib's pow returns 1
 * for pow(-1, NaN) as well (tests/cl/cl_math.c finds it). */
CLB_OVL double pow(double x, double y) {
  if ((x != x || y != y) && x != 1.0 && y != 0.0) return x + y;
  return clb_libm_pow(x, y);
}
CLB_FROM_DOUBLE2(pow)

/* cbrt (bound 2 ulp): glibc's cbrt is off by up to 3 ulp (measured by
 * tests/cl/cl_math.c), so the C library's value y gets one Newton step
 * y -= (y^3 - x) / (3 y^2), with y^3 - x from an exact double-double y^3
 * (its high part is within a few ulp of x: the subtraction is exact). */
CLB_OVL double cbrt(double x) {
  if (!__builtin_isfinite(x) || x == 0.0) return x + x;
  if (__builtin_fabs(x) < 0x1p-900) /* keep y^3 and its error terms normal */
    return clb_libm_ldexp(cbrt(clb_libm_ldexp(x, 999)), -333);
  if (__builtin_fabs(x) > 0x1p900)
    return clb_libm_ldexp(cbrt(clb_libm_ldexp(x, -999)), 333);
  double y = clb_libm_cbrt(x), h, l, ch, cl;
  clb_two_prod(y, y, &h, &l);
  clb_two_prod(h, y, &ch, &cl);
  cl += l * y;
  double r = (ch - x) + cl;
  return y - r / (3.0 * h);
}
CLB_FROM_DOUBLE1(cbrt)

/* sqrt: the SSE2 square root instruction, correctly rounded (Intel SDM
 * vol. 2, SQRTSS/SQRTSD). */
CLB_OVL double sqrt(double x) { return __builtin_sqrt(x); }
CLB_OVL float sqrt(float x) { return __builtin_sqrtf(x); }
CLB_OVL half sqrt(half x) { return (half)__builtin_sqrtf((float)x); }
CLB_OVL double rsqrt(double x) { return 1.0 / __builtin_sqrt(x); } /* <= 1.5 ulp */
CLB_FROM_DOUBLE1(rsqrt)

/* The bits of each floating type: the unsigned integer of its size, its
 * sign bit, and the largest value below 1 (fract's upper bound). */
#define CLB_BITS_float uint
#define CLB_BITS_double ulong
#define CLB_BITS_half ushort
#define CLB_SIGN_float 0x80000000u
#define CLB_SIGN_double 0x8000000000000000ul
#define CLB_SIGN_half ((ushort)0x8000)
#define CLB_BELOW_ONE_float 0x1.fffffep-1f
#define CLB_BELOW_ONE_double 0x1.fffffffffffffp-1
#define CLB_BELOW_ONE_half as_half((ushort)0x3bff)
#define CLB_AS_BITS(T, x) __builtin_astype((x), CLB_BITS_##T)

/* The exact ones, in each type's own arithmetic or bits. */
#define CLB_EXACT(T)                                                          \
  CLB_OVL T fabs(T x) { return __builtin_astype((CLB_BITS_##T)(CLB_AS_BITS(T, x) & ~CLB_SIGN_##T), T); } \
  CLB_OVL T copysign(T x, T y) {                                              \
    return __builtin_astype((CLB_BITS_##T)((CLB_AS_BITS(T, x) & ~CLB_SIGN_##T) | \
                                           (CLB_AS_BITS(T, y) & CLB_SIGN_##T)), T); \
  }                                                                           \
  CLB_OVL T fmin(T x, T y) { return y != y ? x : x != x ? y : y < x ? y : x; } \
  CLB_OVL T fmax(T x, T y) { return y != y ? x : x != x ? y : x < y ? y : x; } \
  CLB_OVL T fdim(T x, T y) { return x != x || y != y ? x + y : x > y ? x - y : (T)0.0f; } \
  CLB_OVL T maxmag(T x, T y) {                                                \
    T ax = fabs(x), ay = fabs(y);                                             \
    return ax > ay ? x : ay > ax ? y : fmax(x, y);                            \
  }                                                                           \
  CLB_OVL T minmag(T x, T y) {                                                \
    T ax = fabs(x), ay = fabs(y);                                             \
    return ax < ay ? x : ay < ax ? y : fmin(x, y);                            \
  }                                                                           \
  CLB_OVL T mad(T a, T b, T c) { return a * b + c; }                          \
  CLB_OVL T fract(T x, T *iptr) {                                             \
    T f = floor(x);                                                           \
    *iptr = f;                                                                \
    if (x != x) return x;                                                     \
    if (__builtin_isinf(x)) return copysign((T)0.0f, x);                      \
    return fmin(x - f, CLB_BELOW_ONE_##T); /* x - f is exact */               \
  }                                                                           \
  CLB_OVL T nextafter(T x, T y) {                                             \
    if (x != x || y != y) return x + y;                                       \
    if (x == y) return y;                                                     \
    CLB_BITS_##T b = CLB_AS_BITS(T, x);                                       \
    if (x == (T)0.0f) /* the smallest subnormal toward y */                   \
      b = (CLB_BITS_##T)((CLB_AS_BITS(T, y) & CLB_SIGN_##T) | 1);            \
    else if ((x < y) == (x > (T)0.0f))                                        \
      b++;                                                                    \
    else                                                                      \
      b--;                                                                    \
    return __builtin_astype(b, T);                                            \
  }                                                                           \
  CLB_OVL int ilogb(T x) {                                                    \
    if (x != x) return FP_ILOGBNAN;                                           \
    if (__builtin_isinf(x)) return INT_MAX;                                   \
    if (x == (T)0.0f) return FP_ILOGB0;                                       \
    int e;                                                                    \
    clb_libm_frexp((double)x, &e);                                            \
    return e - 1;                                                             \
  }                                                                           \
  CLB_OVL T logb(T x) {                                                       \
    if (x != x) return x;                                                     \
    if (__builtin_isinf(x)) return fabs(x);                                   \
    if (x == (T)0.0f) return (T)(-INFINITY);                                  \
    return (T)(float)ilogb(x);                                                \
  }
CLB_EXACT(float) CLB_EXACT(double) CLB_EXACT(half)

/* Exact through double (float and half values are exact in double, and so
 * are these results). */
CLB_OVL double frexp(double x, int *e) {
  if (!__builtin_isfinite(x) || x == 0.0) { *e = 0; return x + x; }
  return clb_libm_frexp(x, e);
}
CLB_OVL float frexp(float x, int *e) { return (float)frexp((double)x, e); }
CLB_OVL half frexp(half x, int *e) { return (half)frexp((double)(float)x, e); }
CLB_OVL double ldexp(double x, int n) { return clb_libm_ldexp(x, n); }
/* One rounding: the double result is exact unless it is a float/half
 * subnormal, where the conversion rounds it once. */
CLB_OVL float ldexp(float x, int n) {
  return (float)clb_libm_ldexp(x, clamp(n, -400, 400));
}
CLB_OVL half ldexp(half x, int n) {
  return as_half(clb_double_to_half_bits(clb_libm_ldexp((float)x, clamp(n, -100, 100)), CLB_RTE));
}
/* modf: the fraction has the sign of x, also when it is zero (C99
 * F.9.3.12; newlib's modf gives +0 for negative integers); x - trunc(x)
 * is exact. */
CLB_OVL double modf(double x, double *ip) {
  double i = clb_libm_trunc(x);
  *ip = i;
  if (x != x) return x;
  return __builtin_copysign(__builtin_isinf(x) ? 0.0 : x - i, x);
}
CLB_OVL float modf(float x, float *ip) {
  double i, f = modf((double)x, &i);
  *ip = (float)i;
  return (float)f;
}
CLB_OVL half modf(half x, half *ip) {
  float i, f = modf((float)x, &i);
  *ip = (half)i;
  return (half)f;
}
CLB_OVL double remquo(double x, double y, int *q) { return clb_libm_remquo(x, y, q); }
CLB_OVL float remquo(float x, float y, int *q) { return (float)clb_libm_remquo(x, y, q); }
CLB_OVL half remquo(half x, half y, int *q) { return (half)remquo((float)x, (float)y, q); }
CLB_OVL double lgamma_r(double x, int *s) { return clb_libm_lgamma_r(x, s); }
CLB_OVL float lgamma_r(float x, int *s) { return (float)clb_libm_lgamma_r(x, s); }
CLB_OVL half lgamma_r(half x, int *s) { return (half)lgamma_r((float)x, s); }
CLB_OVL double lgamma(double x) { int s; return clb_libm_lgamma_r(x, &s); }
CLB_FROM_DOUBLE1(lgamma)
CLB_OVL double sincos(double x, double *c) { *c = clb_libm_cos(x); return clb_libm_sin(x); }
CLB_OVL float sincos(float x, float *c) { *c = cos(x); return sin(x); }
CLB_OVL half sincos(half x, half *c) { *c = cos(x); return sin(x); }

/* nan(code): a quiet NaN carrying `code` in its fraction. */
CLB_OVL float nan(uint c) { return as_float(0x7fc00000u | (c & 0x3fffffu)); }
CLB_OVL double nan(ulong c) { return as_double(0x7ff8000000000000ul | (c & 0x7fffffffffffful)); }
CLB_OVL half nan(ushort c) { return as_half((ushort)(0x7e00u | (c & 0x1ffu))); }

/* ---- The pi functions: exact reduction of x to r in [-1/4, 1/4] (fmod
 * and subtraction of halves are exact), then sin or cos of pi*r, where
 * pi*r has a relative error below 2^-52 and sin/cos there a condition
 * number near 1: under 3 ulp for double (bound 4), and exact signs of
 * zero as section 7.5 lists. */
#define CLB_PI 3.141592653589793238462643383279502884
static double clb_sinpi_reduced(double r) { return clb_libm_sin(CLB_PI * r); }
static double clb_cospi_reduced(double r) { return clb_libm_cos(CLB_PI * r); }
CLB_OVL double sinpi(double x) {
  if (!__builtin_isfinite(x)) return x - x;
  double r = clb_libm_fmod(__builtin_fabs(x), 2.0); /* [0, 2) */
  double s;
  if (r <= 0.25) s = clb_sinpi_reduced(r);
  else if (r <= 0.75) s = clb_cospi_reduced(r - 0.5);
  else if (r <= 1.25) s = clb_sinpi_reduced(1.0 - r);
  else if (r <= 1.75) s = -clb_cospi_reduced(r - 1.5);
  else s = clb_sinpi_reduced(r - 2.0);
  if (s == 0.0) s = 0.0; /* sinpi(n) is +0 for n > 0, -0 for n < 0 and -0 */
  return __builtin_signbit(x) ? -s : s;
}
CLB_OVL double cospi(double x) {
  if (!__builtin_isfinite(x)) return x - x;
  double r = clb_libm_fmod(__builtin_fabs(x), 2.0);
  double c;
  if (r <= 0.25) c = clb_cospi_reduced(r);
  else if (r <= 0.75) c = -clb_sinpi_reduced(r - 0.5);
  else if (r <= 1.25) c = -clb_cospi_reduced(r - 1.0);
  else if (r <= 1.75) c = clb_sinpi_reduced(r - 1.5);
  else c = clb_cospi_reduced(r - 2.0);
  return c == 0.0 ? 0.0 : c; /* cospi(n + 1/2) is +0 */
}
CLB_OVL double tanpi(double x) {
  if (!__builtin_isfinite(x)) return x - x;
  double r = clb_libm_fmod(x, 1.0); /* (-1, 1), sign of x */
  if (r > 0.5) r -= 1.0;
  else if (r < -0.5) r += 1.0; /* [-1/2, 1/2] */
  double t;
  double ar = __builtin_fabs(r);
  if (ar == 0.5) {
    /* tanpi(n + 1/2): +inf for even n, -inf for odd n (section 7.5) */
    double n = clb_libm_floor(x);
    return clb_libm_fmod(__builtin_fabs(n), 2.0) == 0.0 ? INFINITY : -INFINITY;
  }
  if (ar <= 0.25) t = clb_libm_tan(CLB_PI * ar);
  else t = 1.0 / clb_libm_tan(CLB_PI * (0.5 - ar));
  if (r == 0.0) {
    /* tanpi(n): +0 or -0, by the sign of x and the parity of n */
    double n = clb_libm_trunc(x);
    bool odd = clb_libm_fmod(__builtin_fabs(n), 2.0) == 1.0;
    return __builtin_copysign(0.0, odd ? -x : x);
  }
  return r < 0 ? -t : t;
}
CLB_OVL double asinpi(double x) { return clb_libm_asin(x) / CLB_PI; }
CLB_OVL double acospi(double x) { return clb_libm_acos(x) / CLB_PI; }
CLB_OVL double atanpi(double x) { return clb_libm_atan(x) / CLB_PI; }
CLB_OVL double atan2pi(double y, double x) { return clb_libm_atan2(y, x) / CLB_PI; }
CLB_FROM_DOUBLE1(sinpi) CLB_FROM_DOUBLE1(cospi) CLB_FROM_DOUBLE1(tanpi)
CLB_FROM_DOUBLE1(asinpi) CLB_FROM_DOUBLE1(acospi) CLB_FROM_DOUBLE1(atanpi)
CLB_FROM_DOUBLE2(atan2pi)

/* exp10: 10^x by pow (glibc and newlib both have exp10, but newlib's is
 * pow(10, x) itself, so nothing is lost). Bound 3 ulp; pow is below 1. */
CLB_OVL double exp10(double x) { return clb_libm_pow(10.0, x); }
CLB_FROM_DOUBLE1(exp10)

/* powr: pow for x >= 0 only (section 7.5 lists its special values). */
CLB_OVL double powr(double x, double y) {
  if (x < 0.0 || x != x || y != y) return NAN;
  if (x == 0.0) {
    if (y == 0.0) return NAN;
    return y < 0.0 ? INFINITY : 0.0;
  }
  if (x == 1.0) return __builtin_isinf(y) ? NAN : 1.0;
  if (__builtin_isinf(x) && y == 0.0) return NAN;
  return clb_libm_pow(x, y);
}
CLB_FROM_DOUBLE2(powr)
CLB_OVL double pown(double x, int n) { return clb_libm_pow(x, (double)n); }
CLB_OVL float pown(float x, int n) { return (float)clb_libm_pow(x, (double)n); }
CLB_OVL half pown(half x, int n) { return (half)pown((float)x, n); }

/* rootn: pow(|x|, 1/n) has a relative error up to |ln x / n| * 2^-53 from
 * rounding 1/n. For 4 <= n <= 1023, x = m 2^(q n + rem) with m 2^rem in
 * [1/2, 2^n): the root of that (in [0.8, 2)) by pow, one Newton step
 * y -= y * (y^n / s - 1) / n (y^n / s - 1 is small and computed with two
 * roundings, nothing under- or overflows), times 2^q. n = 2, 3: sqrt and
 * cbrt; n > 1023: pow alone (|ln x / n| < 0.73); n < 0: 1 / rootn(x, -n)
 * (one more rounding). */
static double clb_rootn_positive(double ax, int n) {
  if (n == 1) return ax;
  if (n == 2) return __builtin_sqrt(ax);
  if (n == 3) return cbrt(ax);
  if (n > 1023) return clb_libm_pow(ax, 1.0 / (double)n);
  int e;
  double m = clb_libm_frexp(ax, &e);
  int q = e / n, rem = e - q * n;
  if (rem < 0) {
    rem += n;
    q--;
  }
  double s = clb_libm_ldexp(m, rem);
  double y = clb_libm_pow(s, 1.0 / (double)n);
  double ratio = clb_libm_pow(y, (double)n) / s;
  y -= y * (ratio - 1.0) / (double)n;
  return clb_libm_ldexp(y, q);
}
CLB_OVL double rootn(double x, int n) {
  if (n == 0 || x != x) return NAN;
  bool odd = (n & 1) != 0;
  if (x < 0.0 && !odd) return NAN;
  if (x == 0.0) {
    if (n > 0) return odd ? x : 0.0;
    return odd ? __builtin_copysign(INFINITY, x) : INFINITY;
  }
  if (__builtin_isinf(x)) {
    if (n > 0) return x;
    return odd ? __builtin_copysign(0.0, x) : 0.0;
  }
  double ax = __builtin_fabs(x);
  double y = n > 0        ? clb_rootn_positive(ax, n)
             : n == INT_MIN ? clb_libm_pow(ax, 1.0 / (double)n)
                            : 1.0 / clb_rootn_positive(ax, -n);
  return x < 0.0 ? -y : y;
}
CLB_OVL float rootn(float x, int n) { return (float)rootn((double)x, n); }
CLB_OVL half rootn(half x, int n) { return (half)rootn((float)x, n); }

/* ---- tgamma(x), bound 16 ulp. With b = x - floor(x) + 1 in [1, 2):
 * Gamma(x) = Gamma(b) * prod_{t = b .. x-1} t for x >= 1, and
 * Gamma(x) = Gamma(b) / prod_{t = x .. b-1} t for x < 1 (the recurrence
 * Gamma(t + 1) = t Gamma(t)). For |x| >= 1 every t and b are exact (their
 * magnitude is at most |x|, or they lie in [0, 2) with ulp(x) >= 2^-52);
 * for |x| < 1 b is rounded but Gamma is flat on [1, 2] (|psi| < 0.6).
 * The product is a double-double, rescaled by 2^-+512 to stay in range;
 * Gamma(b) = exp(lgamma(b)) with lgamma(b) in [-0.13, 0], where the result
 * keeps exp's error (below 1 ulp). Total: a few ulp. */
static double clb_product_scaled(double t, int count, double *lo_out, int *scale) {
  double hi = 1.0, lo = 0.0;
  *scale = 0;
  for (int k = 0; k < count; k++, t += 1.0) {
    double p, e;
    clb_two_prod(hi, t, &p, &e);
    e += lo * t;
    clb_two_sum(p, e, &hi, &lo);
    double a = __builtin_fabs(hi);
    if (a > 0x1p512 || a < 0x1p-512) {
      double f = a > 0x1p512 ? 0x1p-512 : 0x1p512;
      hi *= f;
      lo *= f;
      *scale += a > 0x1p512 ? 512 : -512;
    }
  }
  *lo_out = lo;
  return hi;
}
CLB_OVL double tgamma(double x) {
  if (x != x) return x;
  if (x == 0.0) return __builtin_copysign(INFINITY, x);
  if (__builtin_isinf(x)) return x > 0 ? x : NAN;
  double fl = clb_libm_floor(x);
  if (x < 0.0 && fl == x) return NAN;
  if (x > 171.7) return INFINITY;
  if (x < -200.0) return __builtin_copysign(0.0, sinpi(x)); /* |Gamma| < 2^-1200 */
  double b = (x - fl) + 1.0;
  int sign, scale;
  double gb = clb_libm_exp(clb_libm_lgamma_r(b, &sign)), lo;
  if (x >= 1.0) {
    double hi = clb_product_scaled(b, (int)(x - b + 0.5), &lo, &scale);
    return clb_libm_ldexp(gb * hi + gb * lo, scale);
  }
  double hi = clb_product_scaled(x, (int)(b - x + 0.5), &lo, &scale);
  double q = gb / hi;
  q -= q * (lo / hi);
  return clb_libm_ldexp(q, -scale);
}
CLB_FROM_DOUBLE1(tgamma)

/* ---- half_ and native_ functions: the full-precision ones. */
#define CLB_RELAXED1(P, F) CLB_OVL float P##_##F(float x) { return F(x); } CLB_V1(float, P##_##F, float)
#define CLB_RELAXED_ALL(P)                                                   \
  CLB_RELAXED1(P, cos) CLB_RELAXED1(P, exp) CLB_RELAXED1(P, exp2)           \
  CLB_RELAXED1(P, exp10) CLB_RELAXED1(P, log) CLB_RELAXED1(P, log2)         \
  CLB_RELAXED1(P, log10) CLB_RELAXED1(P, rsqrt) CLB_RELAXED1(P, sin)        \
  CLB_RELAXED1(P, sqrt) CLB_RELAXED1(P, tan)                                \
  CLB_OVL float P##_recip(float x) { return 1.0f / x; }                     \
  CLB_V1(float, P##_recip, float)                                           \
  CLB_OVL float P##_divide(float x, float y) { return x / y; }              \
  CLB_V2(float, P##_divide, float, float)                                   \
  CLB_OVL float P##_powr(float x, float y) { return powr(x, y); }           \
  CLB_V2(float, P##_powr, float, float)
CLB_RELAXED_ALL(half)
CLB_RELAXED_ALL(native)

/* ---- Vector forms of everything above. */
#define CLB_MATH_VECTORS(T)                                                    \
  CLB_V1(T, acos, T) CLB_V1(T, acosh, T) CLB_V1(T, acospi, T) CLB_V1(T, asin, T) \
  CLB_V1(T, asinh, T) CLB_V1(T, asinpi, T) CLB_V1(T, atan, T) CLB_V1(T, atanh, T) \
  CLB_V1(T, atanpi, T) CLB_V1(T, cbrt, T) CLB_V1(T, ceil, T) CLB_V1(T, cos, T) \
  CLB_V1(T, cosh, T) CLB_V1(T, cospi, T) CLB_V1(T, erf, T) CLB_V1(T, erfc, T)  \
  CLB_V1(T, exp, T) CLB_V1(T, exp2, T) CLB_V1(T, exp10, T) CLB_V1(T, expm1, T) \
  CLB_V1(T, fabs, T) CLB_V1(T, floor, T) CLB_V1(T, lgamma, T) CLB_V1(T, log, T) \
  CLB_V1(T, log2, T) CLB_V1(T, log10, T) CLB_V1(T, log1p, T) CLB_V1(T, logb, T) \
  CLB_V1(T, rint, T) CLB_V1(T, round, T) CLB_V1(T, rsqrt, T) CLB_V1(T, sin, T) \
  CLB_V1(T, sinh, T) CLB_V1(T, sinpi, T) CLB_V1(T, sqrt, T) CLB_V1(T, tan, T)  \
  CLB_V1(T, tanh, T) CLB_V1(T, tanpi, T) CLB_V1(T, tgamma, T) CLB_V1(T, trunc, T) \
  CLB_V1(int, ilogb, T)                                                        \
  CLB_V2(T, atan2, T, T) CLB_V2(T, atan2pi, T, T) CLB_V2(T, copysign, T, T)    \
  CLB_V2(T, fdim, T, T) CLB_V2(T, fmax, T, T) CLB_V2(T, fmin, T, T)            \
  CLB_V2S(T, fmax, T, T) CLB_V2S(T, fmin, T, T) CLB_V2(T, fmod, T, T)          \
  CLB_V2(T, hypot, T, T) CLB_V2(T, maxmag, T, T) CLB_V2(T, minmag, T, T)       \
  CLB_V2(T, nextafter, T, T) CLB_V2(T, pow, T, T) CLB_V2(T, powr, T, T)        \
  CLB_V2(T, remainder, T, T) CLB_V2(T, pown, T, int) CLB_V2(T, rootn, T, int)  \
  CLB_V2(T, ldexp, T, int) CLB_V2S(T, ldexp, T, int)                           \
  CLB_V3(T, fma, T, T, T) CLB_V3(T, mad, T, T, T)                              \
  CLB_V1P(T, fract, T, T) CLB_V1P(T, frexp, T, int) CLB_V1P(T, lgamma_r, T, int) \
  CLB_V1P(T, modf, T, T) CLB_V1P(T, sincos, T, T) CLB_V2P(T, remquo, T, T, int)
CLB_FLOATS(CLB_MATH_VECTORS)
CLB_V1(float, nan, uint) CLB_V1(double, nan, ulong) CLB_V1(half, nan, ushort)
