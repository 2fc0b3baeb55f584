/*
 * half.cl - IEEE 754 binary16 conversions on bit patterns (IEEE 754-2008
 * section 3.4: 1 sign, 5 exponent bits biased by 15, 10 fraction bits), in
 * the four rounding modes of OpenCL C 2.0 section 6.2.3.2, and the run-time
 * functions clang's x86-64 code calls for half <-> float/double conversions
 * (__extendhfsf2, __truncsfhf2, __truncdfhf2: compiler-rt's names, the half
 * value passed in an SSE register as the System V x86-64 psABI 1.0 says for
 * _Float16), since x86-64 without F16C has no instruction for them.
 */
#include "clb.h"

/* sign, and the value m * 2^e (m != 0), rounded to binary16 in `mode`. */
static ushort clb_round_to_half(uint sign, ulong m, int e, int mode) {
  int lz = __builtin_clzl(m);
  m <<= lz;
  e -= lz;
  int exponent = e + 63; /* value in [2^exponent, 2^(exponent+1)) */
  ushort s = (ushort)(sign << 15);
  ushort largest = (ushort)(s | 0x7bff), infinity = (ushort)(s | 0x7c00);
  bool away_from_zero_on_overflow =
      mode == CLB_RTE || (mode == CLB_RTP && !sign) || (mode == CLB_RTN && sign);
  if (exponent > 15) return away_from_zero_on_overflow ? infinity : largest;
  /* Bits kept, the implicit one included: 11 when normal, fewer below
   * 2^-14 (subnormals are multiples of 2^-24). */
  int keep = exponent >= -14 ? 11 : exponent + 25;
  ulong q;
  bool half_bit, sticky;
  if (keep > 0) {
    q = m >> (64 - keep);
    ulong rest = m << keep;
    half_bit = rest >> 63;
    sticky = (rest << 1) != 0;
  } else {
    q = 0;
    half_bit = keep == 0;
    sticky = keep == 0 ? (m << 1) != 0 : true;
  }
  bool inexact = half_bit || sticky;
  bool up = mode == CLB_RTE   ? half_bit && (sticky || (q & 1))
            : mode == CLB_RTP ? inexact && !sign
            : mode == CLB_RTN ? inexact && sign
                              : false;
  q += up;
  if (keep == 11) {
    if (q == 2048) {
      q = 1024;
      exponent++;
      if (exponent > 15) return away_from_zero_on_overflow ? infinity : largest;
    }
    return (ushort)(s | ((exponent + 15) << 10) | (q & 0x3ff));
  }
  return (ushort)(s | q); /* subnormal; q == 1024 is the smallest normal */
}

ushort clb_float_to_half_bits(float f, int mode) {
  uint b = as_uint(f), sign = b >> 31, exp = (b >> 23) & 0xff, frac = b & 0x7fffff;
  if (exp == 0xff) /* inf, or NaN kept quiet with its top payload bits */
    return (ushort)((sign << 15) | 0x7c00 | (frac ? 0x200 | (frac >> 13) : 0));
  if (exp == 0 && frac == 0) return (ushort)(sign << 15);
  if (exp == 0) return clb_round_to_half(sign, frac, -149, mode);
  return clb_round_to_half(sign, frac | 0x800000, (int)exp - 150, mode);
}

ushort clb_double_to_half_bits(double d, int mode) {
  ulong b = as_ulong(d), frac = b & 0xfffffffffffffUL;
  uint sign = (uint)(b >> 63), exp = (uint)(b >> 52) & 0x7ff;
  if (exp == 0x7ff)
    return (ushort)((sign << 15) | 0x7c00 | (frac ? 0x200 | (frac >> 42) : 0));
  if (exp == 0 && frac == 0) return (ushort)(sign << 15);
  if (exp == 0) return clb_round_to_half(sign, frac, -1074, mode);
  return clb_round_to_half(sign, frac | 0x10000000000000UL, (int)exp - 1075, mode);
}

float clb_half_bits_to_float(ushort h) {
  uint sign = (uint)(h >> 15) << 31, exp = (h >> 10) & 0x1f, frac = h & 0x3ff;
  if (exp == 0x1f) return as_float(sign | 0x7f800000 | (frac << 13));
  if (exp == 0) return as_float(sign | as_uint((float)frac * 0x1p-24f));
  return as_float(sign | ((exp + 112) << 23) | (frac << 13));
}

float __extendhfsf2(half h) { return clb_half_bits_to_float(as_ushort(h)); }
half __truncsfhf2(float f) { return as_half(clb_float_to_half_bits(f, CLB_RTE)); }
half __truncdfhf2(double d) { return as_half(clb_double_to_half_bits(d, CLB_RTE)); }
