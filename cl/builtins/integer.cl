/*
 * integer.cl - the integer built-ins, OpenCL C 2.0 specification section
 * 6.13.3 (abs, abs_diff, add_sat, hadd, rhadd, clamp, clz, ctz, mad_hi,
 * mad_sat, max, min, mul_hi, rotate, sub_sat, upsample, popcount, mad24,
 * mul24), for every integer type and vector width, exact. 64-bit products
 * use clang's 128-bit integers (one MUL/IMUL on x86-64, no library call).
 */
#include "clb.h"

/* Per type: the unsigned type of its size, its width in bits, its limits,
 * a type wide enough for sums and products of two values (for 64 bits
 * the 128-bit one). */
#define CLB_INT_INFO(M)                                                        \
  M(char, uchar, 8, CHAR_MIN, CHAR_MAX, long)                                  \
  M(uchar, uchar, 8, 0, UCHAR_MAX, long)                                       \
  M(short, ushort, 16, SHRT_MIN, SHRT_MAX, long)                               \
  M(ushort, ushort, 16, 0, USHRT_MAX, long)                                    \
  M(int, uint, 32, INT_MIN, INT_MAX, long)                                     \
  M(uint, uint, 32, 0, UINT_MAX, long)                                         \
  M(long, ulong, 64, LONG_MIN, LONG_MAX, __int128)                             \
  M(ulong, ulong, 64, 0, ULONG_MAX, __int128)

#define CLB_INT_SCALAR(T, UT, BITS, MIN, MAX, WIDE)                            \
  CLB_OVL UT abs(T x) { return x < 0 ? (UT)(0 - (UT)x) : (UT)x; }              \
  CLB_OVL UT abs_diff(T x, T y) { return x > y ? (UT)((UT)x - (UT)y) : (UT)((UT)y - (UT)x); } \
  CLB_OVL T add_sat(T x, T y) {                                                \
    T r;                                                                       \
    if (__builtin_add_overflow(x, y, &r)) r = x > 0 || (T)MIN == 0 ? (T)MAX : (T)MIN; \
    return r;                                                                  \
  }                                                                            \
  CLB_OVL T sub_sat(T x, T y) {                                                \
    T r;                                                                       \
    if (__builtin_sub_overflow(x, y, &r)) r = (T)MIN == 0 || x < 0 ? (T)MIN : (T)MAX; \
    return r;                                                                  \
  }                                                                            \
  CLB_OVL T hadd(T x, T y) { return (T)((x >> 1) + (y >> 1) + (x & y & 1)); }   \
  CLB_OVL T rhadd(T x, T y) { return (T)((x >> 1) + (y >> 1) + ((x | y) & 1)); } \
  CLB_OVL T max(T x, T y) { return x > y ? x : y; }                            \
  CLB_OVL T min(T x, T y) { return x < y ? x : y; }                            \
  CLB_OVL T clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }              \
  CLB_OVL T clz(T x) {                                                         \
    UT u = (UT)x;                                                              \
    return u == 0 ? (T)BITS : (T)(__builtin_clzl((ulong)u) - (64 - BITS));     \
  }                                                                            \
  CLB_OVL T ctz(T x) {                                                         \
    UT u = (UT)x;                                                              \
    return u == 0 ? (T)BITS : (T)__builtin_ctzl((ulong)u);                     \
  }                                                                            \
  CLB_OVL T popcount(T x) { return (T)__builtin_popcountl((ulong)(UT)x); }     \
  CLB_OVL T mul_hi(T x, T y) { return (T)(((WIDE)x * (WIDE)y) >> BITS); }      \
  CLB_OVL T mad_hi(T x, T y, T z) { return (T)((UT)mul_hi(x, y) + (UT)z); }    \
  CLB_OVL T mad_sat(T x, T y, T z) {                                           \
    /* |x*y + z| < 2^(2*BITS): fits WIDE, except 64 x 64 unsigned + 64 */     \
    WIDE p = (WIDE)x * (WIDE)y;                                                \
    if ((T)MIN == 0) {                                                         \
      unsigned __int128 up = (unsigned __int128)(ulong)(UT)x * (ulong)(UT)y + (ulong)(UT)z; \
      return up > (unsigned __int128)(UT)MAX ? (T)MAX : (T)up;                 \
    }                                                                          \
    WIDE s;                                                                    \
    if (__builtin_add_overflow(p, (WIDE)z, &s)) return p > 0 ? (T)MAX : (T)MIN; \
    return s > (WIDE)MAX ? (T)MAX : s < (WIDE)MIN ? (T)MIN : (T)s;            \
  }                                                                            \
  CLB_OVL T rotate(T v, T i) {                                                 \
    UT u = (UT)v, n = (UT)((UT)i & (BITS - 1));                                \
    return (T)(UT)((u << n) | (u >> ((BITS - n) & (BITS - 1))));               \
  }
CLB_INT_INFO(CLB_INT_SCALAR)

#define CLB_INT_VECTORS(T, UT, BITS, MIN, MAX, WIDE)                           \
  CLB_V1(UT, abs, T) CLB_V2(UT, abs_diff, T, T) CLB_V2(T, add_sat, T, T)       \
  CLB_V2(T, sub_sat, T, T) CLB_V2(T, hadd, T, T) CLB_V2(T, rhadd, T, T)        \
  CLB_V2(T, max, T, T) CLB_V2S(T, max, T, T) CLB_V2(T, min, T, T)              \
  CLB_V2S(T, min, T, T) CLB_V3(T, clamp, T, T, T) CLB_V3SS(T, clamp, T, T, T)  \
  CLB_V1(T, clz, T) CLB_V1(T, ctz, T) CLB_V1(T, popcount, T)                   \
  CLB_V2(T, mul_hi, T, T) CLB_V3(T, mad_hi, T, T, T) CLB_V3(T, mad_sat, T, T, T) \
  CLB_V2(T, rotate, T, T)
CLB_INT_INFO(CLB_INT_VECTORS)

/* upsample(hi, lo) = hi << bits(lo) | lo. */
#define CLB_UPSAMPLE(RT, HI, LO, BITS)                                         \
  CLB_OVL RT upsample(HI hi, LO lo) { return (RT)(((RT)hi << BITS) | (RT)lo); } \
  CLB_V2(RT, upsample, HI, LO)
CLB_UPSAMPLE(short, char, uchar, 8) CLB_UPSAMPLE(ushort, uchar, uchar, 8)
CLB_UPSAMPLE(int, short, ushort, 16) CLB_UPSAMPLE(uint, ushort, ushort, 16)
CLB_UPSAMPLE(long, int, uint, 32) CLB_UPSAMPLE(ulong, uint, uint, 32)

/* mul24/mad24: defined for operands of 24 bits (section 6.13.3); computed
 * as the full 32-bit product, wrapping. */
#define CLB_MUL24(T)                                                           \
  CLB_OVL T mul24(T x, T y) { return (T)((uint)x * (uint)y); }                 \
  CLB_OVL T mad24(T x, T y, T z) { return (T)((uint)x * (uint)y + (uint)z); }  \
  CLB_V2(T, mul24, T, T) CLB_V3(T, mad24, T, T, T)
CLB_MUL24(int) CLB_MUL24(uint)
