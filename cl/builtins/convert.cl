/*
 * convert.cl - the explicit conversions convert_<type>[N][_sat][_<mode>],
 * OpenCL C 2.0 specification section 6.2.3, between every pair of scalar
 * types and vector width, with the rounding modes of section 6.2.3.2 (the
 * default is _rtz to an integer type, _rte to a floating type) and
 * saturation of section 6.2.3.3 (NaN gives 0). A float to integer
 * conversion without _sat out of range is implementation-defined (6.2.3.3):
 * here it saturates too. as_<type> (section 6.2.4.2) is clang's
 * __builtin_astype, a macro of opencl-c-base.h: nothing to define.
 */
#include "clb.h"

/* ---- Scalar cores. x rounded to an integral double in `mode`. */
CLB_INL double clb_round_integral(double x, int mode) {
  return mode == CLB_RTE ? clb_libm_rint(x) : mode == CLB_RTZ ? clb_libm_trunc(x)
       : mode == CLB_RTP ? clb_libm_ceil(x) : clb_libm_floor(x);
}

/* Saturation to an integer type D, from an integral double or any integer
 * (every integer value is exact in __int128). HI is 2^bits or 2^(bits-1). */
#define CLB_INT_DST_INFO(M)                                                    \
  M(char, CHAR_MIN, CHAR_MAX, 0x1p7) M(uchar, 0, UCHAR_MAX, 0x1p8)             \
  M(short, SHRT_MIN, SHRT_MAX, 0x1p15) M(ushort, 0, USHRT_MAX, 0x1p16)         \
  M(int, INT_MIN, INT_MAX, 0x1p31) M(uint, 0, UINT_MAX, 0x1p32)                \
  M(long, LONG_MIN, LONG_MAX, 0x1p63) M(ulong, 0, ULONG_MAX, 0x1p64)
#define CLB_SAT_HELPERS(D, MIN, MAX, HI)                                       \
  CLB_INL D clb_sat_##D##_fp(double r) {                                       \
    if (r != r) return (D)0;                                                   \
    if (r >= HI) return (D)MAX;                                                \
    if (r < (double)(MIN)) return (D)MIN; /* r integral: r <= MIN - 1 */       \
    return (D)r;                                                               \
  }                                                                            \
  CLB_INL D clb_sat_##D##_int(__int128 v) {                                    \
    return v > (__int128)(MAX) ? (D)MAX : v < (__int128)(MIN) ? (D)MIN : (D)v; \
  }
CLB_INT_DST_INFO(CLB_SAT_HELPERS)

/* sign of d - x, for d = the double nearest the 64-bit integer x. */
CLB_OVL int clb_cmp_double(double d, long x) {
  if (d >= 0x1p63) return 1;
  long b = (long)d;
  return b > x ? 1 : b < x ? -1 : 0;
}
CLB_OVL int clb_cmp_double(double d, ulong x) {
  if (d >= 0x1p64) return 1;
  ulong b = (ulong)d;
  return b > x ? 1 : b < x ? -1 : 0;
}
/* d, the nearest value, moved to the neighbour that `mode` asks for; c is
 * the sign of d - exact. */
CLB_INL double clb_adjust_double(double d, int c, int mode) {
  if (c == 0 || mode == CLB_RTE) return d;
  if (mode == CLB_RTZ && ((c > 0) == (d > 0.0))) return nextafter(d, 0.0);
  if (mode == CLB_RTP && c < 0) return nextafter(d, (double)INFINITY);
  if (mode == CLB_RTN && c > 0) return nextafter(d, -(double)INFINITY);
  return d;
}
/* A 64-bit integer as double rounded to odd (exact if it fits): a later
 * rounding to float or half in any mode is then the direct one (Boldo and
 * Melquiond, IEEE Trans. Computers 57(4), 2008). */
#define CLB_TO_ODD(S)                                                          \
  CLB_OVL double clb_int_to_double_odd(S x) {                                  \
    double d = (double)x;                                                      \
    int c = clb_cmp_double(d, x);                                              \
    if (c != 0 && (as_ulong(d) & 1) == 0) d = nextafter(d, c > 0 ? -(double)INFINITY : (double)INFINITY); \
    return d;                                                                  \
  }
CLB_TO_ODD(long) CLB_TO_ODD(ulong)

/* double to float in `mode`. */
CLB_INL float clb_narrow_float(double d, int mode) {
  float f = (float)d;
  if (mode == CLB_RTE || f != f) return f;
  double back = (double)f;
  if (back == d) return f;
  if (mode == CLB_RTZ && __builtin_fabs(back) > __builtin_fabs(d)) return nextafter(f, 0.0f);
  if (mode == CLB_RTP && back < d) return nextafter(f, INFINITY);
  if (mode == CLB_RTN && back > d) return nextafter(f, -INFINITY);
  return f;
}

/* clb_to_<floating type>(x, mode) for every source type. */
#define CLB_TO_FP_SMALL(S) /* integers of up to 32 bits: exact in double */    \
  CLB_OVL double clb_to_double(S x, int mode) { return (double)x; }            \
  CLB_OVL float clb_to_float(S x, int mode) { return clb_narrow_float((double)x, mode); } \
  CLB_OVL half clb_to_half(S x, int mode) { return as_half(clb_double_to_half_bits((double)x, mode)); }
CLB_TO_FP_SMALL(char) CLB_TO_FP_SMALL(uchar) CLB_TO_FP_SMALL(short)
CLB_TO_FP_SMALL(ushort) CLB_TO_FP_SMALL(int) CLB_TO_FP_SMALL(uint)
#define CLB_TO_FP_64(S)                                                        \
  CLB_OVL double clb_to_double(S x, int mode) {                                \
    double d = (double)x;                                                      \
    return clb_adjust_double(d, clb_cmp_double(d, x), mode);                   \
  }                                                                            \
  CLB_OVL float clb_to_float(S x, int mode) { return clb_narrow_float(clb_int_to_double_odd(x), mode); } \
  CLB_OVL half clb_to_half(S x, int mode) {                                    \
    return as_half(clb_double_to_half_bits(clb_int_to_double_odd(x), mode));   \
  }
CLB_TO_FP_64(long) CLB_TO_FP_64(ulong)
CLB_OVL double clb_to_double(float x, int mode) { return (double)x; }
CLB_OVL float clb_to_float(float x, int mode) { return x; }
CLB_OVL half clb_to_half(float x, int mode) { return as_half(clb_float_to_half_bits(x, mode)); }
CLB_OVL double clb_to_double(double x, int mode) { return x; }
CLB_OVL float clb_to_float(double x, int mode) { return clb_narrow_float(x, mode); }
CLB_OVL half clb_to_half(double x, int mode) { return as_half(clb_double_to_half_bits(x, mode)); }
CLB_OVL double clb_to_double(half x, int mode) { return (double)(float)x; }
CLB_OVL float clb_to_float(half x, int mode) { return (float)x; }
CLB_OVL half clb_to_half(half x, int mode) { return x; }

/* ---- The built-ins: scalar, then the vector widths from the scalar. */
#define CLB_CVT_VEC_N(N, D, S, SUF)                                            \
  CLB_OVL D##N convert_##D##N##SUF(S##N x) {                                   \
    D##N r;                                                                    \
    for (int i = 0; i < N; i++) r[i] = convert_##D##SUF(x[i]);                 \
    return r;                                                                  \
  }
#define CLB_MODES(M, DEFAULT, ...)                                             \
  M(, DEFAULT, __VA_ARGS__) M(_rte, CLB_RTE, __VA_ARGS__) M(_rtz, CLB_RTZ, __VA_ARGS__) \
  M(_rtp, CLB_RTP, __VA_ARGS__) M(_rtn, CLB_RTN, __VA_ARGS__)

/* integer <- integer (modes change nothing) */
#define CLB_CVT_I_I(R, MODE, D, S)                                             \
  CLB_OVL D convert_##D##R(S x) { return (D)x; }                               \
  CLB_OVL D convert_##D##_sat##R(S x) { return clb_sat_##D##_int((__int128)x); } \
  CLB_WIDTHS(CLB_CVT_VEC_N, D, S, R) CLB_WIDTHS(CLB_CVT_VEC_N, D, S, _sat##R)
/* integer <- floating */
#define CLB_CVT_I_F(R, MODE, D, S)                                             \
  CLB_OVL D convert_##D##R(S x) { return clb_sat_##D##_fp(clb_round_integral(clb_to_double(x, CLB_RTE), MODE)); } \
  CLB_OVL D convert_##D##_sat##R(S x) { return convert_##D##R(x); }           \
  CLB_WIDTHS(CLB_CVT_VEC_N, D, S, R) CLB_WIDTHS(CLB_CVT_VEC_N, D, S, _sat##R)
/* floating <- anything */
#define CLB_CVT_F(R, MODE, D, S)                                               \
  CLB_OVL D convert_##D##R(S x) { return clb_to_##D(x, MODE); }               \
  CLB_WIDTHS(CLB_CVT_VEC_N, D, S, R)

#define CLB_CVT_TO_INT_FROM_INT(S, D) CLB_MODES(CLB_CVT_I_I, CLB_RTZ, D, S)
#define CLB_CVT_TO_INT_FROM_FP(S, D) CLB_MODES(CLB_CVT_I_F, CLB_RTZ, D, S)
#define CLB_CVT_TO_FP(S, D) CLB_MODES(CLB_CVT_F, CLB_RTE, D, S)
#define CLB_SRC_INTS(M, D)                                                     \
  M(char, D) M(uchar, D) M(short, D) M(ushort, D) M(int, D) M(uint, D) M(long, D) M(ulong, D)
#define CLB_SRC_FLOATS(M, D) M(float, D) M(double, D) M(half, D)

#define CLB_CVT_TO_INT(D, MIN, MAX, HI)                                        \
  CLB_SRC_INTS(CLB_CVT_TO_INT_FROM_INT, D) CLB_SRC_FLOATS(CLB_CVT_TO_INT_FROM_FP, D)
CLB_INT_DST_INFO(CLB_CVT_TO_INT)
#define CLB_CVT_TO_FLOATING(D) CLB_SRC_INTS(CLB_CVT_TO_FP, D) CLB_SRC_FLOATS(CLB_CVT_TO_FP, D)
CLB_FLOATS(CLB_CVT_TO_FLOATING)
