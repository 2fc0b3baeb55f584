/*
 * fp.h - floating point as the gfx9 VALU does it, in portable C: IEEE-754
 * binary16/32/64 with the MODE register's rounding and denormal controls.
 *
 * MODE fields (Vega ISA 3.x "MODE register"; LLVM SIDefines.h FP_ROUND_*,
 * FP_DENORM_*): FP_ROUND [1:0] f32, [3:2] f64/f16, each 0 nearest-even,
 * 1 toward +inf, 2 toward -inf, 3 toward zero; FP_DENORM [5:4] f32, [7:6]
 * f64/f16, each bit 0 = keep input denormals, bit 1 = keep output denormals;
 * DX10_CLAMP [8] (clamp turns NaN into 0); IEEE [9] (sNaN inputs are quieted,
 * min/max follow IEEE-754-2008 minNum/maxNum).
 *
 * The host's own arithmetic is IEEE round-to-nearest-even with denormals, so
 * the fast paths use it; every other rounding mode and every fused operation
 * goes through fp_fma64(), an exact software FMA (newlib's fma() is not
 * fused, and the result must not depend on the platform).
 */
#ifndef VAPU_ISA_FP_H
#define VAPU_ISA_FP_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum fp_round {
  FP_RNE = 0, FP_RUP = 1, FP_RDN = 2, FP_RTZ = 3,
  /* Internal: round to odd, for a value rounded again later; FP_ODD_DOWN
   * also gives an exact zero sum the sign rounding toward -inf gives. */
  FP_ODD = 4, FP_ODD_DOWN = 5
};

/* The FP_ODD flavour for a result that will be rounded again with `mode`. */
static inline int fp_odd_for(int mode) { return mode == 2 ? 5 : 4; }

#define MODE_ROUND32(m) ((m)&3u)
#define MODE_ROUND64(m) (((m) >> 2) & 3u)
#define MODE_DENORM32(m) (((m) >> 4) & 3u)
#define MODE_DENORM64(m) (((m) >> 6) & 3u)
#define MODE_DX10_CLAMP (1u << 8)
#define MODE_IEEE (1u << 9)
#define DENORM_KEEP_IN 1u
#define DENORM_KEEP_OUT 2u

static inline float f32_from_bits(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double f64_from_bits(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static inline uint64_t f64_bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* Denormal (or zero) test and flush to a signed zero, on raw bits. */
static inline uint32_t f32_flush(uint32_t x) { return (x & 0x7f800000u) ? x : (x & 0x80000000u); }
static inline uint64_t f64_flush(uint64_t x) {
  return (x & 0x7ff0000000000000ull) ? x : (x & 0x8000000000000000ull);
}
static inline uint16_t f16_flush(uint16_t x) { return (x & 0x7c00u) ? x : (x & 0x8000u); }

static inline bool f32_is_nan(uint32_t x) { return (x & 0x7fffffffu) > 0x7f800000u; }
static inline bool f64_is_nan(uint64_t x) { return (x & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }
static inline bool f16_is_nan(uint16_t x) { return (x & 0x7fffu) > 0x7c00u; }
static inline bool f32_is_snan(uint32_t x) { return f32_is_nan(x) && !(x & 0x00400000u); }
static inline bool f64_is_snan(uint64_t x) { return f64_is_nan(x) && !(x & 0x0008000000000000ull); }
static inline bool f16_is_snan(uint16_t x) { return f16_is_nan(x) && !(x & 0x0200u); }

/* The NaN the VALU writes for an invalid operation (0 * inf, inf - inf, ...):
 * the default quiet NaN with the sign bit set, as x86 SSE also produces. */
#define F32_DEFAULT_NAN 0xffc00000u
#define F64_DEFAULT_NAN 0xfff8000000000000ull
#define F16_DEFAULT_NAN 0xfe00u

/* Exact a * b + c, rounded once with `mode` (enum fp_round, including
 * FP_ODD). `scale` multiplies the exact result by 2^scale before the
 * rounding (v_div_fmas). NaN and infinity rules of IEEE-754 fusedMultiplyAdd. */
double fp_fma64(double a, double b, double c, int scale, int mode);

/* Rounds a double to float / half with `mode` (denormal results kept; the
 * caller flushes per MODE). Exact when the value is representable. Correct
 * for any operation first computed in double with FP_ODD (53 >= 24 + 2). */
float fp_f64_to_f32(double d, int mode);
uint16_t fp_f64_to_f16(double d, int mode);
uint16_t fp_f32_to_f16(float f, int mode);
float fp_f16_to_f32(uint16_t h); /* exact */

/* Fused f32 multiply-add rounded to nearest-even. The product is exact in
 * double; the double sum s rounds once more than an FMA would, which only
 * matters when s lands exactly on a midpoint between two floats (its low 29
 * bits 1000...0) or in the float denormal range (fewer bits): then the
 * TwoSum error moves s one double ulp toward the exact value (round to
 * odd), so the final rounding to float is the single rounding of p + c. */
float fp_fma32_rne_slow(double p, double c, double s);
static inline float fp_fma32_rne(float a, float b, float c) {
  double p = (double)a * (double)b; /* exact: 24 + 24 bits */
  double s = p + (double)c;
  uint64_t sb = f64_bits(s);
  if (__builtin_expect((sb & 0x1fffffffull) == 0x10000000ull || (sb & 0x7ff0000000000000ull) < 0x3810000000000000ull, 0))
    return fp_fma32_rne_slow(p, c, s);
  return (float)s;
}

/* Exponent helpers for div_scale/div_fixup: unbiased exponent field. */
static inline int f32_exp_field(uint32_t x) { return (int)((x >> 23) & 0xff); }
static inline int f64_exp_field(uint64_t x) { return (int)((x >> 52) & 0x7ff); }

/* v_cmp_class masks (Vega ISA V_CMP_CLASS_F32): bit 0 signaling NaN, 1 quiet
 * NaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal,
 * 9 +inf. */
unsigned fp_class32(uint32_t x);
unsigned fp_class64(uint64_t x);
unsigned fp_class16(uint16_t x);

/* Quiets a NaN (sets the quiet bit), leaves other values alone. */
static inline uint32_t f32_quiet(uint32_t x) { return f32_is_nan(x) ? (x | 0x00400000u) : x; }
static inline uint64_t f64_quiet(uint64_t x) { return f64_is_nan(x) ? (x | 0x0008000000000000ull) : x; }
static inline uint16_t f16_quiet(uint16_t x) { return f16_is_nan(x) ? (uint16_t)(x | 0x0200u) : x; }

#endif
