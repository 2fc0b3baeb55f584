/*
 * vfloat.c - vector floating-point arithmetic: add/sub/mul, fused and
 * unfused multiply-add, min/max/med3, ldexp and the division helpers
 * (div_scale, div_fmas, div_fixup) for f32, f64 and f16.
 *
 * Semantics: Vega ISA ch. 6 and the per-instruction descriptions;
 * IEEE-754-2008 for the arithmetic, with MODE rounding and denormal controls
 * (fp.h). Facts beyond IEEE, each at its instruction:
 *  - min/max (Vega ISA V_MIN_F32; LLVM SIModeRegisterDefaults "IEEE"): with
 *    MODE.IEEE a signaling NaN input gives a quiet NaN, a quiet NaN loses to
 *    a number (IEEE-754-2008 minNum/maxNum); without it any NaN loses; -0 is
 *    below +0.
 *  - v_mad_f32/v_mac_f32/v_madmk/v_madak round the product, then the sum,
 *    and do not support denormals (LLVM SIISelLowering: mad is only formed
 *    when f32 denormals are flushed): inputs and result are flushed.
 *  - *_legacy: DX9 rule, 0 * anything (inf and NaN too) is +0.
 */
#include "vapu/isa/valu.h"

/* ---- Fetch helpers ----------------------------------------------------------
 * Sources as float lanes with input denormals flushed per MODE. */
static const uint32_t *src_f32(struct wave *w, const struct inst *in, unsigned i, uint32_t *buf,
                               uint32_t *fbuf) {
  return vflush_in_f32(w, vsrc32(w, in, i, buf), fbuf);
}
static const uint32_t *src_f16(struct wave *w, const struct inst *in, unsigned i, uint32_t *buf,
                               uint32_t *fbuf) {
  return vflush_in_f16(w, vsrc32(w, in, i, buf), fbuf);
}
static void src_f64(struct wave *w, const struct inst *in, unsigned i, uint64_t *out) {
  vsrc64(w, in, i, out);
  vflush_in_f64(w, out);
}
#define F(x) f32_from_bits(x)
#define D(x) f64_from_bits(x)
#define H(x) ((double)fp_f16_to_f32((uint16_t)(x)))

/* Exact-then-round building blocks for any rounding mode. */
static inline float add32(float a, float b, int m) {
  return m == FP_RNE ? a + b : fp_f64_to_f32(fp_fma64(a, 1.0, b, 0, fp_odd_for(m)), m);
}
static inline float mul32(float a, float b, int m) {
  return m == FP_RNE ? a * b : fp_f64_to_f32((double)a * (double)b, m); /* exact in double */
}
static inline float fma32(float a, float b, float c, int m) {
  return m == FP_RNE ? fp_fma32_rne(a, b, c) : fp_f64_to_f32(fp_fma64(a, b, c, 0, fp_odd_for(m)), m);
}
static inline double add64(double a, double b, int m) {
  return m == FP_RNE ? a + b : fp_fma64(a, 1.0, b, 0, m);
}
static inline double mul64(double a, double b, int m) {
  if (m == FP_RNE || a == 0 || b == 0 || !__builtin_isfinite(a) || !__builtin_isfinite(b)) return a * b;
  return fp_fma64(a, b, 0.0, 0, m);
}
/* f16 values are exact in double, so are their sums and products. */
static inline uint32_t f16_round(double d, int m) { return fp_f64_to_f16(d, m); }

/* ---- f32 ----------------------------------------------------------------------- */
#define F32_OP2(fn, EXPR)                                                            \
  static void fn(struct wave *w, const struct inst *in) {                            \
    uint32_t b0[LANES], b1[LANES], f0[LANES], f1[LANES], r[LANES];                   \
    const uint32_t *s0 = src_f32(w, in, 0, b0, f0), *s1 = src_f32(w, in, 1, b1, f1); \
    int m = (int)mode_round32(w);                                                    \
    if (m == FP_RNE) {                                                               \
      const int mm = FP_RNE;                                                         \
      FOR_LANES(l) { float a = F(s0[l]), b = F(s1[l]); r[l] = f32_bits(EXPR); }      \
    } else {                                                                         \
      const int mm = m;                                                              \
      FOR_LANES(l) { float a = F(s0[l]), b = F(s1[l]); r[l] = f32_bits(EXPR); }      \
    }                                                                                \
    vfinish_f32(w, in, r);                                                           \
    vdst32(w, in, r);                                                                \
  }
F32_OP2(v_add_f32, add32(a, b, mm))
F32_OP2(v_sub_f32, add32(a, -b, mm))
F32_OP2(v_subrev_f32, add32(b, -a, mm))
F32_OP2(v_mul_f32, mul32(a, b, mm))

static inline float mul_legacy32(float a, float b, int m) {
  return (a == 0 || b == 0) ? 0.0f : mul32(a, b, m);
}
F32_OP2(v_mul_legacy_f32, mul_legacy32(a, b, mm))

static void v_ldexp_f32(struct wave *w, const struct inst *in) {
  uint32_t b0[LANES], b1[LANES], f0[LANES], r[LANES];
  const uint32_t *s0 = src_f32(w, in, 0, b0, f0), *s1 = vsrc32(w, in, 1, b1);
  int m = (int)mode_round32(w);
  FOR_LANES(l) {
    int32_t e = (int32_t)s1[l];
    e = e > 400 ? 400 : e < -400 ? -400 : e; /* beyond this the result is inf or 0 anyway */
    r[l] = f32_bits(fp_f64_to_f32(__builtin_ldexp((double)F(s0[l]), e), m));
  }
  vfinish_f32(w, in, r);
  vdst32(w, in, r);
}

/* min/max with the MODE.IEEE NaN rules (see the file comment). Operates on
 * raw bits of one format, given its NaN tests and quieting. */
#define MINMAX(name, T, is_nan, is_snan, quiet, lt)                                  \
  static inline T name(T a, T b, bool ieee, bool want_max) {                         \
    if (ieee && (is_snan(a) || is_snan(b))) return quiet(is_snan(a) ? a : b);        \
    if (is_nan(a)) return is_nan(b) ? quiet(a) : b;                                  \
    if (is_nan(b)) return a;                                                         \
    return (lt(a, b) != want_max) ? a : b;                                           \
  }
/* Ordering on bits with -0 < +0: flip to a signed-integer order. */
static inline bool lt32(uint32_t a, uint32_t b) {
  int32_t x = a >> 31 ? ~(int32_t)(a & 0x7fffffffu) : (int32_t)a;
  int32_t y = b >> 31 ? ~(int32_t)(b & 0x7fffffffu) : (int32_t)b;
  return x < y;
}
static inline bool lt64(uint64_t a, uint64_t b) {
  int64_t x = a >> 63 ? ~(int64_t)(a & 0x7fffffffffffffffull) : (int64_t)a;
  int64_t y = b >> 63 ? ~(int64_t)(b & 0x7fffffffffffffffull) : (int64_t)b;
  return x < y;
}
static inline bool lt16(uint16_t a, uint16_t b) {
  int32_t x = a >> 15 ? ~(int32_t)(a & 0x7fff) : (int32_t)a;
  int32_t y = b >> 15 ? ~(int32_t)(b & 0x7fff) : (int32_t)b;
  return x < y;
}
MINMAX(minmax32, uint32_t, f32_is_nan, f32_is_snan, f32_quiet, lt32)
MINMAX(minmax64, uint64_t, f64_is_nan, f64_is_snan, f64_quiet, lt64)
MINMAX(minmax16, uint16_t, f16_is_nan, f16_is_snan, f16_quiet, lt16)

static void minmax_f32(struct wave *w, const struct inst *in, bool want_max) {
  uint32_t b0[LANES], b1[LANES], f0[LANES], f1[LANES], r[LANES];
  const uint32_t *s0 = src_f32(w, in, 0, b0, f0), *s1 = src_f32(w, in, 1, b1, f1);
  bool ieee = w->mode & MODE_IEEE;
  FOR_LANES(l) r[l] = minmax32(s0[l], s1[l], ieee, want_max);
  vfinish_f32(w, in, r);
  vdst32(w, in, r);
}
static void v_min_f32(struct wave *w, const struct inst *in) { minmax_f32(w, in, false); }
static void v_max_f32(struct wave *w, const struct inst *in) { minmax_f32(w, in, true); }

/* min3/max3/med3 (Vega ISA V_MED3_F32: with a NaN input, med3 is min3). */
static inline uint32_t med3_32(uint32_t a, uint32_t b, uint32_t c, bool ieee) {
  if (f32_is_nan(a) || f32_is_nan(b) || f32_is_nan(c))
    return minmax32(minmax32(a, b, ieee, false), c, ieee, false);
  uint32_t mx = minmax32(minmax32(a, b, ieee, true), c, ieee, true);
  if (mx == a) return minmax32(b, c, ieee, true);
  if (mx == b) return minmax32(a, c, ieee, true);
  return minmax32(a, b, ieee, true);
}
static void three_f32(struct wave *w, const struct inst *in, int kind) {
  uint32_t b0[LANES], b1[LANES], b2[LANES], f0[LANES], f1[LANES], f2[LANES], r[LANES];
  const uint32_t *s0 = src_f32(w, in, 0, b0, f0), *s1 = src_f32(w, in, 1, b1, f1);
  const uint32_t *s2 = src_f32(w, in, 2, b2, f2);
  bool ieee = w->mode & MODE_IEEE;
  FOR_LANES(l) {
    if (kind == 2) r[l] = med3_32(s0[l], s1[l], s2[l], ieee);
    else r[l] = minmax32(minmax32(s0[l], s1[l], ieee, kind), s2[l], ieee, kind);
  }
  vfinish_f32(w, in, r);
  vdst32(w, in, r);
}
static void v_min3_f32(struct wave *w, const struct inst *in) { three_f32(w, in, 0); }
static void v_max3_f32(struct wave *w, const struct inst *in) { three_f32(w, in, 1); }
static void v_med3_f32(struct wave *w, const struct inst *in) { three_f32(w, in, 2); }

/* fp_fma32_rne for 64 lanes: the double product and sum of every lane first
 * (they vectorise), then the rare lanes where the sum needs the exact
 * rounding of fp_fma32_rne_slow (a midpoint, or the denormal range) again
 * one by one. The same result as fp_fma32_rne lane by lane. */
static void fma32_rne_lanes(const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *r) {
  double p[LANES], s[LANES];
  FOR_LANES(l) {
    p[l] = (double)F(a[l]) * (double)F(b[l]); /* exact: 24 + 24 bits */
    s[l] = p[l] + (double)F(c[l]);
  }
  uint32_t words[2 * LANES]; /* each sum's low and high word (little-endian) */
  memcpy(words, s, sizeof words);
  uint8_t slow[LANES];
  FOR_LANES(l) {
    uint32_t low = words[2 * l], high = words[2 * l + 1];
    slow[l] = ((low & 0x1fffffffu) == 0x10000000u) | ((high & 0x7ff00000u) < 0x38100000u);
  }
  FOR_LANES(l) r[l] = f32_bits((float)s[l]);
  for (uint64_t m = pack_lane_bits(slow); m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctzll(m);
    r[l] = f32_bits(fp_fma32_rne_slow(p[l], (double)F(c[l]), s[l]));
  }
}

static void v_fma_f32(struct wave *w, const struct inst *in) {
  uint32_t b0[LANES], b1[LANES], b2[LANES], f0[LANES], f1[LANES], f2[LANES], r[LANES];
  const uint32_t *s0 = src_f32(w, in, 0, b0, f0), *s1 = src_f32(w, in, 1, b1, f1);
  const uint32_t *s2 = src_f32(w, in, 2, b2, f2);
  int m = (int)mode_round32(w);
  if (m == FP_RNE) fma32_rne_lanes(s0, s1, s2, r);
  else FOR_LANES(l) r[l] = f32_bits(fma32(F(s0[l]), F(s1[l]), F(s2[l]), m));
  vfinish_f32(w, in, r);
  vdst32(w, in, r);
}

/* Unfused mad (also mac, madmk, madak after decode's operand order): two
 * roundings, denormals flushed on input and output whatever the MODE. */
static void mad_f32(struct wave *w, const struct inst *in, bool legacy) {
  uint32_t b0[LANES], b1[LANES], b2[LANES], r[LANES];
  const uint32_t *s0 = vsrc32(w, in, 0, b0), *s1 = vsrc32(w, in, 1, b1), *s2 = vsrc32(w, in, 2, b2);
  int m = (int)mode_round32(w);
  FOR_LANES(l) {
    float a = F(f32_flush(s0[l])), b = F(f32_flush(s1[l])), c = F(f32_flush(s2[l]));
    float p = legacy ? mul_legacy32(a, b, m) : mul32(a, b, m);
    r[l] = f32_flush(f32_bits(add32(F(f32_flush(f32_bits(p))), c, m)));
  }
  vfinish_f32(w, in, r);
  FOR_LANES(l) r[l] = f32_flush(r[l]);
  vdst32(w, in, r);
}
static void v_mad_f32(struct wave *w, const struct inst *in) { mad_f32(w, in, false); }
static void v_mad_legacy_f32(struct wave *w, const struct inst *in) { mad_f32(w, in, true); }

/* ---- Division helpers (Vega ISA V_DIV_SCALE/FMAS/FIXUP; the compiler's
 * f32/f64 division: LLVM SITargetLowering::LowerFDIV32/64) -------------------
 * div_scale S0, S1 (denominator), S2 (numerator), S0 being one of the two:
 * scales S0 by a power of two where the Newton-Raphson steps of a division
 * would meet denormals or overflow, and sets VCC when the quotient comes out
 * scaled and div_fmas must scale it back:
 *   - denominator denormal, or numerator tiny: both scaled up (quotient kept);
 *   - 1/denominator denormal: both scaled down (quotient kept);
 *   - that, and a denormal quotient: only the denominator scaled down (VCC);
 *   - a denormal quotient: only the numerator scaled up (VCC);
 *   - a quotient near overflow: only the denominator scaled up (VCC).
 * Scale 2^64 (f64: 2^128); tests run LLVM's expansion over operands in every
 * one of these ranges and compare with IEEE division. */
struct div_case { bool vcc; int scale_num, scale_den; };

/* enum_/eden: exponent fields; tiny: the smallest normal; max_diff: the
 * exponent difference near overflow; tiny_exp: the "tiny numerator"
 * exponent; k: the scale. Quotients are compared in long double so that
 * they do not underflow before the test. */
static struct div_case div_scale_case(int enum_, int eden, long double num, long double den,
                                      long double tiny, int max_diff, int tiny_exp, int k) {
  struct div_case c = {false, 0, 0};
  long double rcp = 1.0L / den, q = num / den;
  bool rcp_den = __builtin_fabsl(rcp) < tiny, q_den = __builtin_fabsl(q) < tiny;
  if (enum_ - eden >= max_diff) c = (struct div_case){true, 0, k};
  else if (eden == 0) c = (struct div_case){false, k, k};
  else if (rcp_den && q_den) c = (struct div_case){true, 0, -k};
  else if (rcp_den) c = (struct div_case){false, -k, -k};
  else if (q_den) c = (struct div_case){true, k, 0};
  else if (enum_ <= tiny_exp) c = (struct div_case){false, k, k};
  return c;
}

static void div_scale_f32(struct wave *w, const struct inst *in) {
  uint32_t b0[LANES], b1[LANES], b2[LANES], f0[LANES], f1[LANES], f2[LANES], r[LANES];
  const uint32_t *s0 = src_f32(w, in, 0, b0, f0), *s1 = src_f32(w, in, 1, b1, f1);
  const uint32_t *s2 = src_f32(w, in, 2, b2, f2);
  uint64_t vcc = 0;
  FOR_LANES(l) {
    float x = F(s0[l]), den = F(s1[l]), num = F(s2[l]);
    if (den == 0 || num == 0) {
      r[l] = F32_DEFAULT_NAN;
      continue;
    }
    struct div_case c = div_scale_case(f32_exp_field(s2[l]), f32_exp_field(s1[l]), num, den, 0x1p-126L,
                                       96, 23, 64);
    int k = s0[l] == s1[l] ? c.scale_den : c.scale_num;
    vcc |= (uint64_t)c.vcc << l;
    r[l] = f32_bits(__builtin_ldexpf(x, k));
  }
  vdst32(w, in, r);
  vsdst_mask(w, in->sdst, vcc);
}

static void div_scale_f64(struct wave *w, const struct inst *in) {
  uint64_t s0[LANES], s1[LANES], s2[LANES], r[LANES];
  src_f64(w, in, 0, s0);
  src_f64(w, in, 1, s1);
  src_f64(w, in, 2, s2);
  uint64_t vcc = 0;
  FOR_LANES(l) {
    double x = D(s0[l]), den = D(s1[l]), num = D(s2[l]);
    if (den == 0 || num == 0) {
      r[l] = F64_DEFAULT_NAN;
      continue;
    }
    struct div_case c = div_scale_case(f64_exp_field(s2[l]), f64_exp_field(s1[l]), num, den, 0x1p-1022L,
                                       768, 53, 128);
    int k = s0[l] == s1[l] ? c.scale_den : c.scale_num;
    vcc |= (uint64_t)c.vcc << l;
    r[l] = f64_bits(__builtin_ldexp(x, k));
  }
  vdst64(w, in, r);
  vsdst_mask(w, in->sdst, vcc);
}

/* div_fmas: fma(S0, S1, S2), and where VCC is set the result is scaled back
 * by 2^64 (f64: 2^128) if the quotient S2 is large, else by 2^-64 (2^-128),
 * undoing div_scale; the scaling is exact, before the single rounding. */
static void div_fmas_f32(struct wave *w, const struct inst *in) {
  uint32_t b0[LANES], b1[LANES], b2[LANES], f0[LANES], f1[LANES], f2[LANES], r[LANES];
  const uint32_t *s0 = src_f32(w, in, 0, b0, f0), *s1 = src_f32(w, in, 1, b1, f1);
  const uint32_t *s2 = src_f32(w, in, 2, b2, f2);
  uint64_t vcc = vcc_mask(w);
  int m = (int)mode_round32(w);
  FOR_LANES(l) {
    int scale = ((vcc >> l) & 1) ? (f32_exp_field(s2[l]) >= 127 ? 64 : -64) : 0;
    r[l] = f32_bits(fp_f64_to_f32(fp_fma64(F(s0[l]), F(s1[l]), F(s2[l]), scale, fp_odd_for(m)), m));
  }
  vfinish_f32(w, in, r);
  vdst32(w, in, r);
}

static void div_fmas_f64(struct wave *w, const struct inst *in) {
  uint64_t s0[LANES], s1[LANES], s2[LANES], r[LANES];
  src_f64(w, in, 0, s0);
  src_f64(w, in, 1, s1);
  src_f64(w, in, 2, s2);
  uint64_t vcc = vcc_mask(w);
  int m = (int)mode_round64(w);
  FOR_LANES(l) {
    int scale = ((vcc >> l) & 1) ? (f64_exp_field(s2[l]) >= 1023 ? 128 : -128) : 0;
    r[l] = f64_bits(fp_fma64(D(s0[l]), D(s1[l]), D(s2[l]), scale, m));
  }
  vfinish_f64(w, in, r);
  vdst64(w, in, r);
}

/* div_fixup S0 (quotient), S1 (denominator), S2 (numerator): the IEEE
 * special cases of S2 / S1, a quotient far below the smallest denormal as
 * 0, a NaN quotient from finite operands (the Newton-Raphson steps met
 * infinity: the quotient overflowed) as infinity, else S0 with the
 * quotient's sign. */
static uint32_t fixup32(uint32_t q, uint32_t den, uint32_t num) {
  uint32_t sign = (den ^ num) & 0x80000000u;
  uint32_t aden = den & 0x7fffffffu, anum = num & 0x7fffffffu;
  if (f32_is_nan(num)) return f32_quiet(num);
  if (f32_is_nan(den)) return f32_quiet(den);
  if ((aden == 0 && anum == 0) || (aden == 0x7f800000u && anum == 0x7f800000u)) return F32_DEFAULT_NAN;
  if (aden == 0 || anum == 0x7f800000u) return sign | 0x7f800000u;
  if (aden == 0x7f800000u || anum == 0) return sign;
  if (f32_exp_field(num) - f32_exp_field(den) < -150) return sign; /* underflows to 0 */
  if (f32_is_nan(q)) return sign | 0x7f800000u;                   /* overflow */
  return sign | (q & 0x7fffffffu);
}
static uint64_t fixup64(uint64_t q, uint64_t den, uint64_t num) {
  uint64_t sign = (den ^ num) & 0x8000000000000000ull;
  uint64_t aden = den & 0x7fffffffffffffffull, anum = num & 0x7fffffffffffffffull;
  const uint64_t inf = 0x7ff0000000000000ull;
  if (f64_is_nan(num)) return f64_quiet(num);
  if (f64_is_nan(den)) return f64_quiet(den);
  if ((aden == 0 && anum == 0) || (aden == inf && anum == inf)) return F64_DEFAULT_NAN;
  if (aden == 0 || anum == inf) return sign | inf;
  if (aden == inf || anum == 0) return sign;
  if (f64_exp_field(num) - f64_exp_field(den) < -1075) return sign;
  if (f64_is_nan(q)) return sign | inf;
  return sign | (q & 0x7fffffffffffffffull);
}
static uint16_t fixup16(uint16_t q, uint16_t den, uint16_t num) {
  uint16_t sign = (den ^ num) & 0x8000u;
  uint16_t aden = den & 0x7fffu, anum = num & 0x7fffu;
  if (f16_is_nan(num)) return f16_quiet(num);
  if (f16_is_nan(den)) return f16_quiet(den);
  if ((aden == 0 && anum == 0) || (aden == 0x7c00u && anum == 0x7c00u)) return F16_DEFAULT_NAN;
  if (aden == 0 || anum == 0x7c00u) return sign | 0x7c00u;
  if (aden == 0x7c00u || anum == 0) return sign;
  if (f16_is_nan(q)) return sign | 0x7c00u;
  return sign | (q & 0x7fffu);
}
static void div_fixup_f32(struct wave *w, const struct inst *in) {
  uint32_t b0[LANES], b1[LANES], b2[LANES], f0[LANES], f1[LANES], f2[LANES], r[LANES];
  const uint32_t *s0 = src_f32(w, in, 0, b0, f0), *s1 = src_f32(w, in, 1, b1, f1);
  const uint32_t *s2 = src_f32(w, in, 2, b2, f2);
  FOR_LANES(l) r[l] = fixup32(s0[l], s1[l], s2[l]);
  vfinish_f32(w, in, r);
  vdst32(w, in, r);
}
static void div_fixup_f64(struct wave *w, const struct inst *in) {
  uint64_t s0[LANES], s1[LANES], s2[LANES], r[LANES];
  src_f64(w, in, 0, s0);
  src_f64(w, in, 1, s1);
  src_f64(w, in, 2, s2);
  FOR_LANES(l) r[l] = fixup64(s0[l], s1[l], s2[l]);
  vfinish_f64(w, in, r);
  vdst64(w, in, r);
}
static void div_fixup_f16(struct wave *w, const struct inst *in) {
  uint32_t b0[LANES], b1[LANES], b2[LANES], f0[LANES], f1[LANES], f2[LANES], r[LANES];
  const uint32_t *s0 = src_f16(w, in, 0, b0, f0), *s1 = src_f16(w, in, 1, b1, f1);
  const uint32_t *s2 = src_f16(w, in, 2, b2, f2);
  FOR_LANES(l) r[l] = fixup16((uint16_t)s0[l], (uint16_t)s1[l], (uint16_t)s2[l]);
  vfinish_f16(w, in, r);
  vdst32(w, in, r);
}

/* ---- f64 ----------------------------------------------------------------------- */
#define F64_OP2(fn, EXPR)                                                            \
  static void fn(struct wave *w, const struct inst *in) {                            \
    uint64_t s0[LANES], s1[LANES], r[LANES];                                         \
    src_f64(w, in, 0, s0);                                                           \
    src_f64(w, in, 1, s1);                                                           \
    int mm = (int)mode_round64(w);                                                   \
    FOR_LANES(l) { double a = D(s0[l]), b = D(s1[l]); r[l] = f64_bits(EXPR); }       \
    vfinish_f64(w, in, r);                                                           \
    vdst64(w, in, r);                                                                \
  }
F64_OP2(v_add_f64, add64(a, b, mm))
F64_OP2(v_mul_f64, mul64(a, b, mm))

static void minmax_f64(struct wave *w, const struct inst *in, bool want_max) {
  uint64_t s0[LANES], s1[LANES], r[LANES];
  src_f64(w, in, 0, s0);
  src_f64(w, in, 1, s1);
  bool ieee = w->mode & MODE_IEEE;
  FOR_LANES(l) r[l] = minmax64(s0[l], s1[l], ieee, want_max);
  vfinish_f64(w, in, r);
  vdst64(w, in, r);
}
static void v_min_f64(struct wave *w, const struct inst *in) { minmax_f64(w, in, false); }
static void v_max_f64(struct wave *w, const struct inst *in) { minmax_f64(w, in, true); }

static void v_fma_f64(struct wave *w, const struct inst *in) {
  uint64_t s0[LANES], s1[LANES], s2[LANES], r[LANES];
  src_f64(w, in, 0, s0);
  src_f64(w, in, 1, s1);
  src_f64(w, in, 2, s2);
  int m = (int)mode_round64(w);
  FOR_LANES(l) r[l] = f64_bits(fp_fma64(D(s0[l]), D(s1[l]), D(s2[l]), 0, m));
  vfinish_f64(w, in, r);
  vdst64(w, in, r);
}

/* ldexp: exact scaling, one rounding (of a denormal result). */
static double ldexp64(double a, int32_t e, int m) {
  if (a == 0 || !__builtin_isfinite(a)) return a;
  e = e > 2200 ? 2200 : e < -2200 ? -2200 : e;
  return fp_fma64(a, 1.0, 0.0, e, m);
}
static void v_ldexp_f64(struct wave *w, const struct inst *in) {
  uint64_t s0[LANES], r[LANES];
  uint32_t b1[LANES];
  src_f64(w, in, 0, s0);
  const uint32_t *s1 = vsrc32(w, in, 1, b1);
  int m = (int)mode_round64(w);
  FOR_LANES(l) r[l] = f64_bits(ldexp64(D(s0[l]), (int32_t)s1[l], m));
  vfinish_f64(w, in, r);
  vdst64(w, in, r);
}

/* v_trig_preop_f64 (Vega ISA V_TRIG_PREOP_F64): segment S1[4:0] of 2/pi for
 * the range reduction of S0: the 53 fraction bits of 2/pi that start at bit
 * 53 * segment (plus exponent(S0) - 1077 for large S0), as a double scaled
 * to their place (2^(-53 - start), 2^128 more when exponent(S0) >= 1968),
 * rounded toward zero. 2/pi to 1216 fraction bits, most significant first;
 * computed with Machin's formula (pi/4 = 4 atan(1/5) - atan(1/239)) in
 * integer arithmetic. */
static const uint32_t two_over_pi[38] = {
    0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041, 0xfe5163ab, 0xdebbc561,
    0xb7246e3a, 0x424dd2e0, 0x06492eea, 0x09d1921c, 0xfe1deb1c, 0xb129a73e, 0xe88235f5, 0x2ebb4484,
    0xe99c7026, 0xb45f7e41, 0x3991d639, 0x835339f4, 0x9c845f8b, 0xbdf9283b, 0x1ff897ff, 0xde05980f,
    0xef2f118b, 0x5a0a6d1f, 0x6d367ecf, 0x27cb09b7, 0x4f463f66, 0x9e5fea2d, 0x7527bac7, 0xebe5f17b,
    0x3d0739f7, 0x8a5292ea, 0x6bfb5fb1, 0x1f8d5d08, 0x56033046, 0xfc7b6bab};
static uint64_t two_over_pi_bits(unsigned start) { /* 53 bits from fraction bit `start` (0 = 2^-1) */
  uint64_t v = 0;
  for (unsigned i = start; i < start + 53; i++) {
    unsigned bit = i < 38 * 32 ? (two_over_pi[i / 32] >> (31 - i % 32)) & 1 : 0;
    v = v << 1 | bit;
  }
  return v;
}
static void v_trig_preop_f64(struct wave *w, const struct inst *in) {
  uint64_t s0[LANES], r[LANES];
  uint32_t b1[LANES];
  vsrc64(w, in, 0, s0);
  const uint32_t *s1 = vsrc32(w, in, 1, b1);
  FOR_LANES(l) {
    int e = f64_exp_field(s0[l]);
    unsigned shift = (s1[l] & 31) * 53 + (e > 1077 ? (unsigned)(e - 1077) : 0);
    int scale = -53 - (int)shift + (e >= 1968 ? 128 : 0);
    r[l] = f64_bits(fp_fma64((double)two_over_pi_bits(shift), 1.0, 0.0, scale, FP_RTZ));
  }
  vdst64(w, in, r);
}

/* ---- f16 (computed exactly in double, rounded once to half) --------------------- */
#define F16_OP2(fn, EXPR)                                                            \
  static void fn(struct wave *w, const struct inst *in) {                            \
    uint32_t b0[LANES], b1[LANES], f0[LANES], f1[LANES], r[LANES];                   \
    const uint32_t *s0 = src_f16(w, in, 0, b0, f0), *s1 = src_f16(w, in, 1, b1, f1); \
    int mm = (int)mode_round64(w);                                                   \
    FOR_LANES(l) { double a = H(s0[l]), b = H(s1[l]); r[l] = (EXPR); }               \
    vfinish_f16(w, in, r);                                                           \
    vdst32(w, in, r);                                                                \
  }
F16_OP2(v_add_f16, f16_round(a + b, mm))
F16_OP2(v_sub_f16, f16_round(a - b, mm))
F16_OP2(v_subrev_f16, f16_round(b - a, mm))
F16_OP2(v_mul_f16, f16_round(a * b, mm))

static void v_ldexp_f16(struct wave *w, const struct inst *in) {
  uint32_t b0[LANES], b1[LANES], f0[LANES], r[LANES];
  const uint32_t *s0 = src_f16(w, in, 0, b0, f0), *s1 = vsrc32(w, in, 1, b1);
  int m = (int)mode_round64(w);
  FOR_LANES(l) {
    int32_t e = (int16_t)(uint16_t)s1[l];
    e = e > 100 ? 100 : e < -100 ? -100 : e;
    r[l] = f16_round(__builtin_ldexp(H(s0[l]), e), m);
  }
  vfinish_f16(w, in, r);
  vdst32(w, in, r);
}

static void minmax_f16(struct wave *w, const struct inst *in, bool want_max) {
  uint32_t b0[LANES], b1[LANES], f0[LANES], f1[LANES], r[LANES];
  const uint32_t *s0 = src_f16(w, in, 0, b0, f0), *s1 = src_f16(w, in, 1, b1, f1);
  bool ieee = w->mode & MODE_IEEE;
  FOR_LANES(l) r[l] = minmax16((uint16_t)s0[l], (uint16_t)s1[l], ieee, want_max);
  vfinish_f16(w, in, r);
  vdst32(w, in, r);
}
static void v_min_f16(struct wave *w, const struct inst *in) { minmax_f16(w, in, false); }
static void v_max_f16(struct wave *w, const struct inst *in) { minmax_f16(w, in, true); }

static inline uint16_t med3_16(uint16_t a, uint16_t b, uint16_t c, bool ieee) {
  if (f16_is_nan(a) || f16_is_nan(b) || f16_is_nan(c))
    return minmax16(minmax16(a, b, ieee, false), c, ieee, false);
  uint16_t mx = minmax16(minmax16(a, b, ieee, true), c, ieee, true);
  if (mx == a) return minmax16(b, c, ieee, true);
  if (mx == b) return minmax16(a, c, ieee, true);
  return minmax16(a, b, ieee, true);
}
static void three_f16(struct wave *w, const struct inst *in, int kind) {
  uint32_t b0[LANES], b1[LANES], b2[LANES], f0[LANES], f1[LANES], f2[LANES], r[LANES];
  const uint32_t *s0 = src_f16(w, in, 0, b0, f0), *s1 = src_f16(w, in, 1, b1, f1);
  const uint32_t *s2 = src_f16(w, in, 2, b2, f2);
  bool ieee = w->mode & MODE_IEEE;
  FOR_LANES(l) {
    uint16_t a = (uint16_t)s0[l], b = (uint16_t)s1[l], c = (uint16_t)s2[l];
    r[l] = kind == 2 ? med3_16(a, b, c, ieee) : minmax16(minmax16(a, b, ieee, kind), c, ieee, kind);
  }
  vfinish_f16(w, in, r);
  vdst32(w, in, r);
}
static void v_min3_f16(struct wave *w, const struct inst *in) { three_f16(w, in, 0); }
static void v_max3_f16(struct wave *w, const struct inst *in) { three_f16(w, in, 1); }
static void v_med3_f16(struct wave *w, const struct inst *in) { three_f16(w, in, 2); }

static void v_fma_f16(struct wave *w, const struct inst *in) {
  uint32_t b0[LANES], b1[LANES], b2[LANES], f0[LANES], f1[LANES], f2[LANES], r[LANES];
  const uint32_t *s0 = src_f16(w, in, 0, b0, f0), *s1 = src_f16(w, in, 1, b1, f1);
  const uint32_t *s2 = src_f16(w, in, 2, b2, f2);
  int m = (int)mode_round64(w);
  FOR_LANES(l) r[l] = f16_round(fp_fma64(H(s0[l]), H(s1[l]), H(s2[l]), 0, fp_odd_for(m)), m);
  vfinish_f16(w, in, r);
  vdst32(w, in, r);
}

/* Unfused f16 mad (mad, mac, madmk, madak): product rounded to half, then
 * the sum; denormals flushed as for v_mad_f32. */
static void mad_f16(struct wave *w, const struct inst *in, bool legacy) {
  uint32_t b0[LANES], b1[LANES], b2[LANES], r[LANES];
  const uint32_t *s0 = vsrc32(w, in, 0, b0), *s1 = vsrc32(w, in, 1, b1), *s2 = vsrc32(w, in, 2, b2);
  int m = (int)mode_round64(w);
  FOR_LANES(l) {
    double a = H(f16_flush((uint16_t)s0[l])), b = H(f16_flush((uint16_t)s1[l]));
    double c = H(f16_flush((uint16_t)s2[l]));
    double p = (legacy && (a == 0 || b == 0)) ? 0.0 : H(f16_flush((uint16_t)f16_round(a * b, m)));
    r[l] = f16_flush((uint16_t)f16_round(p + c, m));
  }
  vfinish_f16(w, in, r);
  FOR_LANES(l) r[l] = f16_flush((uint16_t)r[l]);
  vdst32(w, in, r);
}
static void v_mad_f16(struct wave *w, const struct inst *in) { mad_f16(w, in, false); }
static void v_mad_legacy_f16(struct wave *w, const struct inst *in) { mad_f16(w, in, true); }

/* ---- Table ------------------------------------------------------------------- */
#define OP(code, name, fn, d, s0, s1, s2, fl) {name, fn, d, {s0, s1, s2}, fl, code}
#define FL OPF_FLOAT
#define V3 (OPF_VOP3_ONLY | OPF_FLOAT)
#define Z16 (OPF_ZERO_HI16 | OPF_FLOAT)
#define P16 (OPF_OPSEL_PRESERVE | OPF_FLOAT)
static const struct opinfo vop_float_ops_entries[] = {
    OP(0x101, "v_add_f32", v_add_f32, T_F32, T_F32, T_F32, T_NONE, FL),
    OP(0x102, "v_sub_f32", v_sub_f32, T_F32, T_F32, T_F32, T_NONE, FL),
    OP(0x103, "v_subrev_f32", v_subrev_f32, T_F32, T_F32, T_F32, T_NONE, FL),
    OP(0x104, "v_mul_legacy_f32", v_mul_legacy_f32, T_F32, T_F32, T_F32, T_NONE, FL),
    OP(0x105, "v_mul_f32", v_mul_f32, T_F32, T_F32, T_F32, T_NONE, FL),
    OP(0x10a, "v_min_f32", v_min_f32, T_F32, T_F32, T_F32, T_NONE, FL),
    OP(0x10b, "v_max_f32", v_max_f32, T_F32, T_F32, T_F32, T_NONE, FL),
    OP(0x116, "v_mac_f32", v_mad_f32, T_F32, T_F32, T_F32, T_F32, FL),
    OP(0x117, "v_madmk_f32", v_mad_f32, T_F32, T_F32, T_F32, T_F32, FL | OPF_KIMM),
    OP(0x118, "v_madak_f32", v_mad_f32, T_F32, T_F32, T_F32, T_F32, FL | OPF_KIMM),
    OP(0x11f, "v_add_f16", v_add_f16, T_F16, T_F16, T_F16, T_NONE, Z16),
    OP(0x120, "v_sub_f16", v_sub_f16, T_F16, T_F16, T_F16, T_NONE, Z16),
    OP(0x121, "v_subrev_f16", v_subrev_f16, T_F16, T_F16, T_F16, T_NONE, Z16),
    OP(0x122, "v_mul_f16", v_mul_f16, T_F16, T_F16, T_F16, T_NONE, Z16),
    OP(0x123, "v_mac_f16", v_mad_f16, T_F16, T_F16, T_F16, T_F16, P16),
    OP(0x124, "v_madmk_f16", v_mad_f16, T_F16, T_F16, T_F16, T_F16, P16 | OPF_KIMM),
    OP(0x125, "v_madak_f16", v_mad_f16, T_F16, T_F16, T_F16, T_F16, P16 | OPF_KIMM),
    OP(0x12d, "v_max_f16", v_max_f16, T_F16, T_F16, T_F16, T_NONE, Z16),
    OP(0x12e, "v_min_f16", v_min_f16, T_F16, T_F16, T_F16, T_NONE, Z16),
    OP(0x133, "v_ldexp_f16", v_ldexp_f16, T_F16, T_F16, T_B16, T_NONE, Z16),
    OP(0x1c0, "v_mad_legacy_f32", v_mad_legacy_f32, T_F32, T_F32, T_F32, T_F32, V3),
    OP(0x1c1, "v_mad_f32", v_mad_f32, T_F32, T_F32, T_F32, T_F32, V3),
    OP(0x1cb, "v_fma_f32", v_fma_f32, T_F32, T_F32, T_F32, T_F32, V3),
    OP(0x1cc, "v_fma_f64", v_fma_f64, T_F64, T_F64, T_F64, T_F64, V3),
    OP(0x1d0, "v_min3_f32", v_min3_f32, T_F32, T_F32, T_F32, T_F32, V3),
    OP(0x1d3, "v_max3_f32", v_max3_f32, T_F32, T_F32, T_F32, T_F32, V3),
    OP(0x1d6, "v_med3_f32", v_med3_f32, T_F32, T_F32, T_F32, T_F32, V3),
    OP(0x1de, "v_div_fixup_f32", div_fixup_f32, T_F32, T_F32, T_F32, T_F32, V3),
    OP(0x1df, "v_div_fixup_f64", div_fixup_f64, T_F64, T_F64, T_F64, T_F64, V3),
    OP(0x1e0, "v_div_scale_f32", div_scale_f32, T_F32, T_F32, T_F32, T_F32, V3 | OPF_SDST),
    OP(0x1e1, "v_div_scale_f64", div_scale_f64, T_F64, T_F64, T_F64, T_F64, V3 | OPF_SDST),
    OP(0x1e2, "v_div_fmas_f32", div_fmas_f32, T_F32, T_F32, T_F32, T_F32, V3),
    OP(0x1e3, "v_div_fmas_f64", div_fmas_f64, T_F64, T_F64, T_F64, T_F64, V3),
    OP(0x1ea, "v_mad_legacy_f16", v_mad_legacy_f16, T_F16, T_F16, T_F16, T_F16, V3 | OPF_ZERO_HI16),
    OP(0x1ee, "v_fma_legacy_f16", v_fma_f16, T_F16, T_F16, T_F16, T_F16, V3 | OPF_ZERO_HI16),
    OP(0x1ef, "v_div_fixup_legacy_f16", div_fixup_f16, T_F16, T_F16, T_F16, T_F16, V3 | OPF_ZERO_HI16),
    OP(0x1f4, "v_min3_f16", v_min3_f16, T_F16, T_F16, T_F16, T_F16, V3 | P16),
    OP(0x1f7, "v_max3_f16", v_max3_f16, T_F16, T_F16, T_F16, T_F16, V3 | P16),
    OP(0x1fa, "v_med3_f16", v_med3_f16, T_F16, T_F16, T_F16, T_F16, V3 | P16),
    OP(0x203, "v_mad_f16", v_mad_f16, T_F16, T_F16, T_F16, T_F16, V3 | P16),
    OP(0x206, "v_fma_f16", v_fma_f16, T_F16, T_F16, T_F16, T_F16, V3 | P16),
    OP(0x207, "v_div_fixup_f16", div_fixup_f16, T_F16, T_F16, T_F16, T_F16, V3 | P16),
    OP(0x280, "v_add_f64", v_add_f64, T_F64, T_F64, T_F64, T_NONE, V3),
    OP(0x281, "v_mul_f64", v_mul_f64, T_F64, T_F64, T_F64, T_NONE, V3),
    OP(0x282, "v_min_f64", v_min_f64, T_F64, T_F64, T_F64, T_NONE, V3),
    OP(0x283, "v_max_f64", v_max_f64, T_F64, T_F64, T_F64, T_NONE, V3),
    OP(0x284, "v_ldexp_f64", v_ldexp_f64, T_F64, T_F64, T_B32, T_NONE, V3),
    OP(0x288, "v_ldexp_f32", v_ldexp_f32, T_F32, T_F32, T_B32, T_NONE, V3),
    OP(0x292, "v_trig_preop_f64", v_trig_preop_f64, T_F64, T_F64, T_B32, T_NONE, V3),
};
const struct optable vop_float_ops = OPTABLE(vop_float_ops_entries);
