/*
 * vconv.c - vector conversions, rounding, frexp/fract and the
 * transcendental unit (rcp, rsq, sqrt, exp, log, sin, cos).
 *
 * Facts (Vega ISA per-instruction descriptions, VOP1 12.8 / VOP3 12.7):
 *  - float to integer truncates toward zero, saturates at the integer
 *    range, and a NaN becomes 0 (V_CVT_I32_F32, V_CVT_U32_F32, ...);
 *    v_cvt_rpi rounds half up (floor(x + 0.5)), v_cvt_flr floors.
 *  - integer and double to float round with the destination's MODE round
 *    mode; v_cvt_pkrtz_f16_f32 always rounds toward zero.
 *  - the f32 transcendental unit does not support denormals: inputs and
 *    results are flushed whatever the MODE (ROCm device-libs ocml scales
 *    denormal arguments of sqrt/log/rsq around these instructions; LLVM
 *    AMDGPUISelLowering does the same for log/exp). Results here are
 *    correctly rounded (computed in double), within the instructions'
 *    documented 1 ulp.
 *  - v_sin/v_cos take revolutions: sin(2*pi*x).
 */
#include <math.h>

#include "vapu/isa/valu.h"

#define F(x) f32_from_bits(x)
#define D(x) f64_from_bits(x)
#define H(x) ((double)fp_f16_to_f32((uint16_t)(x)))

static inline int32_t sat_i32(double x) {
  if (x != x) return 0;
  if (x >= 2147483647.0) return INT32_MAX;
  if (x <= -2147483648.0) return INT32_MIN;
  return (int32_t)x;
}
static inline uint32_t sat_u32(double x) {
  if (x != x || x <= 0) return 0;
  if (x >= 4294967295.0) return UINT32_MAX;
  return (uint32_t)x;
}
static inline int32_t sat_i16(double x) {
  if (x != x) return 0;
  return x >= 32767.0 ? 32767 : x <= -32768.0 ? -32768 : (int32_t)x;
}
static inline uint32_t sat_u16(double x) {
  if (x != x || x <= 0) return 0;
  return x >= 65535.0 ? 65535 : (uint32_t)x;
}

/* Source lanes with input denormals flushed per MODE. */
static const uint32_t *in_f32(struct wave *w, const struct inst *in, uint32_t *b, uint32_t *f) {
  return vflush_in_f32(w, vsrc32(w, in, 0, b), f);
}
static const uint32_t *in_f16(struct wave *w, const struct inst *in, uint32_t *b, uint32_t *f) {
  return vflush_in_f16(w, vsrc32(w, in, 0, b), f);
}

/* Result kinds: RES_I (integer bits, no float finish), RES_F32, RES_F16. */
#define FROM_F32(fn, RES_FINISH, EXPR)                                            \
  static void fn(struct wave *w, const struct inst *in) {                         \
    uint32_t b[LANES], f[LANES], r[LANES];                                        \
    const uint32_t *s = in_f32(w, in, b, f);                                      \
    int m32 = (int)mode_round32(w), m16 = (int)mode_round64(w);                   \
    (void)m32, (void)m16;                                                         \
    FOR_LANES(l) { float x = F(s[l]); r[l] = (uint32_t)(EXPR); }                  \
    RES_FINISH;                                                                   \
    vdst32(w, in, r);                                                             \
  }
#define FROM_F16(fn, RES_FINISH, EXPR)                                            \
  static void fn(struct wave *w, const struct inst *in) {                         \
    uint32_t b[LANES], f[LANES], r[LANES];                                        \
    const uint32_t *s = in_f16(w, in, b, f);                                      \
    int m32 = (int)mode_round32(w), m16 = (int)mode_round64(w);                   \
    (void)m32, (void)m16;                                                         \
    FOR_LANES(l) { double x = H(s[l]); uint16_t xb = (uint16_t)s[l]; (void)xb;    \
                   r[l] = (uint32_t)(EXPR); }                                     \
    RES_FINISH;                                                                   \
    vdst32(w, in, r);                                                             \
  }
#define FROM_U32(fn, RES_FINISH, EXPR)                                            \
  static void fn(struct wave *w, const struct inst *in) {                         \
    uint32_t b[LANES], r[LANES];                                                  \
    const uint32_t *s = vsrc32(w, in, 0, b);                                      \
    int m32 = (int)mode_round32(w), m16 = (int)mode_round64(w);                   \
    (void)m32, (void)m16;                                                         \
    FOR_LANES(l) { uint32_t a = s[l]; r[l] = (uint32_t)(EXPR); }                  \
    RES_FINISH;                                                                   \
    vdst32(w, in, r);                                                             \
  }
#define FROM_F64(fn, RES_FINISH, EXPR)                                            \
  static void fn(struct wave *w, const struct inst *in) {                         \
    uint64_t s[LANES];                                                            \
    uint32_t r[LANES];                                                            \
    vsrc64(w, in, 0, s);                                                          \
    vflush_in_f64(w, s);                                                          \
    int m32 = (int)mode_round32(w);                                               \
    (void)m32;                                                                    \
    FOR_LANES(l) { double x = D(s[l]); r[l] = (uint32_t)(EXPR); }                 \
    RES_FINISH;                                                                   \
    vdst32(w, in, r);                                                             \
  }
#define TO_F64(fn, SRC_FETCH, EXPR)                                               \
  static void fn(struct wave *w, const struct inst *in) {                         \
    uint64_t r[LANES];                                                            \
    SRC_FETCH;                                                                    \
    int m64 = (int)mode_round64(w);                                               \
    (void)m64;                                                                    \
    FOR_LANES(l) { r[l] = f64_bits(EXPR); }                                       \
    vfinish_f64(w, in, r);                                                        \
    vdst64(w, in, r);                                                             \
  }
#define RES_I (void)0
#define RES_F32 vfinish_f32(w, in, r)
#define RES_F16 vfinish_f16(w, in, r)
#define SRC_D uint64_t s[LANES]; vsrc64(w, in, 0, s); vflush_in_f64(w, s)
#define SRC_U uint32_t b[LANES]; const uint32_t *s = vsrc32(w, in, 0, b)
#define SRC_F uint32_t b[LANES], fb[LANES]; const uint32_t *s = in_f32(w, in, b, fb)

/* ---- Float <-> integer ---------------------------------------------------------- */
FROM_F32(v_cvt_i32_f32, RES_I, sat_i32(x))
FROM_F32(v_cvt_u32_f32, RES_I, sat_u32(x))
FROM_F32(v_cvt_rpi_i32_f32, RES_I, sat_i32(floor((double)x + 0.5)))
FROM_F32(v_cvt_flr_i32_f32, RES_I, sat_i32(floor((double)x)))
FROM_F64(v_cvt_i32_f64, RES_I, sat_i32(x))
FROM_F64(v_cvt_u32_f64, RES_I, sat_u32(x))
FROM_U32(v_cvt_f32_i32, RES_F32, f32_bits(fp_f64_to_f32((double)(int32_t)a, m32)))
FROM_U32(v_cvt_f32_u32, RES_F32, f32_bits(fp_f64_to_f32((double)a, m32)))
TO_F64(v_cvt_f64_i32, SRC_U, (double)(int32_t)s[l])
TO_F64(v_cvt_f64_u32, SRC_U, (double)s[l])
FROM_U32(v_cvt_f32_ubyte0, RES_F32, f32_bits((float)(a & 0xff)))
FROM_U32(v_cvt_f32_ubyte1, RES_F32, f32_bits((float)((a >> 8) & 0xff)))
FROM_U32(v_cvt_f32_ubyte2, RES_F32, f32_bits((float)((a >> 16) & 0xff)))
FROM_U32(v_cvt_f32_ubyte3, RES_F32, f32_bits((float)(a >> 24)))
/* S0[3:0] as a signed 4-bit value scaled by 1/16. */
FROM_U32(v_cvt_off_f32_i4, RES_F32, f32_bits((float)((int32_t)(a << 28) >> 28) / 16.0f))
FROM_U32(v_cvt_f16_u16, RES_F16, fp_f64_to_f16((double)(a & 0xffff), m16))
FROM_U32(v_cvt_f16_i16, RES_F16, fp_f64_to_f16((double)(int16_t)(uint16_t)a, m16))
FROM_F16(v_cvt_u16_f16, RES_I, sat_u16(x))
FROM_F16(v_cvt_i16_f16, RES_I, (uint32_t)sat_i16(x) & 0xffff)
/* Normalized: [-1, 1] to [-32767, 32767], [0, 1] to [0, 65535], nearest. */
FROM_F16(v_cvt_norm_i16_f16, RES_I, (uint32_t)sat_i16(rint(fmax(fmin(x, 1.0), -1.0) * 32767.0)) & 0xffff)
FROM_F16(v_cvt_norm_u16_f16, RES_I, sat_u16(rint(fmax(fmin(x, 1.0), 0.0) * 65535.0)))

/* ---- Float <-> float ------------------------------------------------------------ */
FROM_F64(v_cvt_f32_f64, RES_F32, f32_bits(fp_f64_to_f32(x, m32)))
TO_F64(v_cvt_f64_f32, SRC_F, (double)F(s[l]))
FROM_F32(v_cvt_f16_f32, RES_F16, fp_f32_to_f16(x, m16))
FROM_F16(v_cvt_f32_f16, RES_F32, f32_bits((float)x))

/* Two f32 to a pair of halves rounded toward zero: D = {S1, S0}. */
static void v_cvt_pkrtz_f16_f32(struct wave *w, const struct inst *in) {
  uint32_t b0[LANES], b1[LANES], f0[LANES], f1[LANES], r[LANES];
  const uint32_t *s0 = vflush_in_f32(w, vsrc32(w, in, 0, b0), f0);
  const uint32_t *s1 = vflush_in_f32(w, vsrc32(w, in, 1, b1), f1);
  bool flush = !(MODE_DENORM64(w->mode) & DENORM_KEEP_OUT);
  FOR_LANES(l) {
    uint16_t lo = fp_f32_to_f16(F(s0[l]), FP_RTZ), hi = fp_f32_to_f16(F(s1[l]), FP_RTZ);
    if (flush) lo = f16_flush(lo), hi = f16_flush(hi);
    r[l] = lo | (uint32_t)hi << 16;
  }
  vdst32(w, in, r);
}

/* Normalized packs: D = {norm(S1), norm(S0)}, round to nearest. */
static inline uint32_t norm_i16(double x) { return (uint32_t)sat_i16(rint(fmax(fmin(x, 1.0), -1.0) * 32767.0)) & 0xffff; }
static inline uint32_t norm_u16(double x) { return sat_u16(rint(fmax(fmin(x, 1.0), 0.0) * 65535.0)); }
static void pknorm(struct wave *w, const struct inst *in, bool half, bool sign) {
  uint32_t b0[LANES], b1[LANES], r[LANES];
  const uint32_t *s0 = vsrc32(w, in, 0, b0), *s1 = vsrc32(w, in, 1, b1);
  FOR_LANES(l) {
    double x = half ? H(s0[l]) : (double)F(s0[l]), y = half ? H(s1[l]) : (double)F(s1[l]);
    r[l] = sign ? norm_i16(x) | norm_i16(y) << 16 : norm_u16(x) | norm_u16(y) << 16;
  }
  vdst32(w, in, r);
}
static void v_cvt_pknorm_i16_f32(struct wave *w, const struct inst *in) { pknorm(w, in, false, true); }
static void v_cvt_pknorm_u16_f32(struct wave *w, const struct inst *in) { pknorm(w, in, false, false); }
static void v_cvt_pknorm_i16_f16(struct wave *w, const struct inst *in) { pknorm(w, in, true, true); }
static void v_cvt_pknorm_u16_f16(struct wave *w, const struct inst *in) { pknorm(w, in, true, false); }

/* v_pack_b32_f16: D = {S1.f16, S0.f16} (op_sel picks the halves). */
static void v_pack_b32_f16(struct wave *w, const struct inst *in) {
  uint32_t b0[LANES], b1[LANES], r[LANES];
  const uint32_t *s0 = vsrc32(w, in, 0, b0), *s1 = vsrc32(w, in, 1, b1);
  FOR_LANES(l) r[l] = (s0[l] & 0xffff) | s1[l] << 16;
  vdst32(w, in, r);
}

/* Float to an unsigned byte placed at byte S1[1:0] of S2 (v_cvt_pk_u8_f32). */
static inline uint32_t to_u8(float x) {
  if (x != x || x <= 0) return 0;
  return x >= 255.0f ? 255 : (uint32_t)rint((double)x);
}
static void v_cvt_pk_u8_f32(struct wave *w, const struct inst *in) {
  uint32_t b0[LANES], b1[LANES], b2[LANES], r[LANES];
  const uint32_t *s0 = vsrc32(w, in, 0, b0), *s1 = vsrc32(w, in, 1, b1), *s2 = vsrc32(w, in, 2, b2);
  FOR_LANES(l) {
    unsigned sh = 8 * (s1[l] & 3);
    r[l] = (s2[l] & ~(0xffu << sh)) | to_u8(F(s0[l])) << sh;
  }
  vdst32(w, in, r);
}

/* ---- Rounding, fract, frexp ----------------------------------------------------- */
FROM_F32(v_trunc_f32, RES_F32, f32_bits(truncf(x)))
FROM_F32(v_ceil_f32, RES_F32, f32_bits(ceilf(x)))
FROM_F32(v_floor_f32, RES_F32, f32_bits(floorf(x)))
FROM_F32(v_rndne_f32, RES_F32, f32_bits(rintf(x)))
FROM_F16(v_trunc_f16, RES_F16, fp_f64_to_f16(trunc(x), FP_RNE))
FROM_F16(v_ceil_f16, RES_F16, fp_f64_to_f16(ceil(x), FP_RNE))
FROM_F16(v_floor_f16, RES_F16, fp_f64_to_f16(floor(x), FP_RNE))
FROM_F16(v_rndne_f16, RES_F16, fp_f64_to_f16(rint(x), FP_RNE))
TO_F64(v_trunc_f64, SRC_D, trunc(D(s[l])))
TO_F64(v_ceil_f64, SRC_D, ceil(D(s[l])))
TO_F64(v_floor_f64, SRC_D, floor(D(s[l])))
TO_F64(v_rndne_f64, SRC_D, rint(D(s[l])))

/* fract(x) = x - floor(x), kept below 1.0; inf gives NaN (inf - inf). */
static inline float fract32(float x) {
  float r = x - floorf(x);
  return r < 0x1.fffffep-1f ? r : (r == r ? 0x1.fffffep-1f : r);
}
static inline double fract64(double x) {
  double r = x - floor(x);
  return r < 0x1.fffffffffffffp-1 ? r : (r == r ? 0x1.fffffffffffffp-1 : r);
}
FROM_F32(v_fract_f32, RES_F32, f32_bits(fract32(x)))
TO_F64(v_fract_f64, SRC_D, fract64(D(s[l])))
FROM_F16(v_fract_f16, RES_F16, fp_f64_to_f16(fmin(x - floor(x), 0x1.ffcp-1), FP_RNE))

/* frexp: mantissa in [0.5, 1) with the sign; exponent as an integer. NaN
 * and inf give themselves (mantissa) and 0 (exponent). */
static inline float frexp_mant32(float x) {
  int e;
  return (x != x || isinf(x)) ? x : frexpf(x, &e);
}
static inline int32_t frexp_exp32(double x) {
  int e = 0;
  if (x != x || isinf(x)) return 0;
  frexp(x, &e);
  return e;
}
FROM_F32(v_frexp_mant_f32, RES_F32, f32_bits(frexp_mant32(x)))
FROM_F32(v_frexp_exp_i32_f32, RES_I, frexp_exp32(x))
FROM_F16(v_frexp_mant_f16, RES_F16, (x != x || isinf(x)) ? xb : fp_f64_to_f16(frexp(x, &(int){0}), FP_RNE))
FROM_F16(v_frexp_exp_i16_f16, RES_I, (uint32_t)frexp_exp32(x) & 0xffff)
FROM_F64(v_frexp_exp_i32_f64, RES_I, frexp_exp32(x))
TO_F64(v_frexp_mant_f64, SRC_D, (D(s[l]) != D(s[l]) || isinf(D(s[l]))) ? D(s[l]) : frexp(D(s[l]), &(int){0}))

/* ---- Transcendental unit -------------------------------------------------------
 * f32: denormal inputs and results flushed (file comment). */
#define TRANS_F32(fn, EXPR)                                                        \
  static void fn(struct wave *w, const struct inst *in) {                          \
    uint32_t b[LANES], r[LANES];                                                   \
    const uint32_t *s = vsrc32(w, in, 0, b);                                       \
    FOR_LANES(l) { double x = (double)F(f32_flush(s[l])); r[l] = f32_flush(f32_bits((float)(EXPR))); } \
    vfinish_f32(w, in, r);                                                         \
    vdst32(w, in, r);                                                              \
  }
/* Revolutions: reduce exactly to [-0.5, 0.5] first. */
static inline double turns(double x) { return x - rint(x); }
static const double two_pi = 6.283185307179586476925286766559;
TRANS_F32(v_exp_f32, exp2(x))
TRANS_F32(v_log_f32, log2(x))
TRANS_F32(v_rcp_f32, 1.0 / x)
TRANS_F32(v_rsq_f32, 1.0 / sqrt(x))
TRANS_F32(v_sqrt_f32, sqrt(x))
TRANS_F32(v_sin_f32, isinf(x) ? NAN : sin(two_pi * turns(x)))
TRANS_F32(v_cos_f32, isinf(x) ? NAN : cos(two_pi * turns(x)))

/* f16: computed in double, rounded to half; denormals per MODE. */
FROM_F16(v_rcp_f16, RES_F16, fp_f64_to_f16(1.0 / x, FP_RNE))
FROM_F16(v_sqrt_f16, RES_F16, fp_f64_to_f16(sqrt(x), FP_RNE))
FROM_F16(v_rsq_f16, RES_F16, fp_f64_to_f16(1.0 / sqrt(x), FP_RNE))
FROM_F16(v_log_f16, RES_F16, fp_f64_to_f16(log2(x), FP_RNE))
FROM_F16(v_exp_f16, RES_F16, fp_f64_to_f16(exp2(x), FP_RNE))
FROM_F16(v_sin_f16, RES_F16, fp_f64_to_f16(isinf(x) ? NAN : sin(two_pi * turns(x)), FP_RNE))
FROM_F16(v_cos_f16, RES_F16, fp_f64_to_f16(isinf(x) ? NAN : cos(two_pi * turns(x)), FP_RNE))

/* f64: 1/x and sqrt(x) correctly rounded; rsq within 1 ulp. */
TO_F64(v_rcp_f64, SRC_D, 1.0 / D(s[l]))
TO_F64(v_rsq_f64, SRC_D, 1.0 / sqrt(D(s[l])))
TO_F64(v_sqrt_f64, SRC_D, sqrt(D(s[l])))

static void v_clrexcp(struct wave *w, const struct inst *in) {}

/* ---- Table ------------------------------------------------------------------- */
#define OP(code, name, fn, d, s0, s1, s2, fl) {name, fn, d, {s0, s1, s2}, fl, code}
#define FL OPF_FLOAT
#define Z16 (OPF_ZERO_HI16 | OPF_FLOAT)
#define V3 (OPF_VOP3_ONLY | OPF_FLOAT)
static const struct opinfo vop_conv_ops_entries[] = {
    OP(0x143, "v_cvt_i32_f64", v_cvt_i32_f64, T_B32, T_F64, T_NONE, T_NONE, FL),
    OP(0x144, "v_cvt_f64_i32", v_cvt_f64_i32, T_F64, T_B32, T_NONE, T_NONE, FL),
    OP(0x145, "v_cvt_f32_i32", v_cvt_f32_i32, T_F32, T_B32, T_NONE, T_NONE, FL),
    OP(0x146, "v_cvt_f32_u32", v_cvt_f32_u32, T_F32, T_B32, T_NONE, T_NONE, FL),
    OP(0x147, "v_cvt_u32_f32", v_cvt_u32_f32, T_B32, T_F32, T_NONE, T_NONE, FL),
    OP(0x148, "v_cvt_i32_f32", v_cvt_i32_f32, T_B32, T_F32, T_NONE, T_NONE, FL),
    OP(0x14a, "v_cvt_f16_f32", v_cvt_f16_f32, T_F16, T_F32, T_NONE, T_NONE, Z16),
    OP(0x14b, "v_cvt_f32_f16", v_cvt_f32_f16, T_F32, T_F16, T_NONE, T_NONE, FL),
    OP(0x14c, "v_cvt_rpi_i32_f32", v_cvt_rpi_i32_f32, T_B32, T_F32, T_NONE, T_NONE, FL),
    OP(0x14d, "v_cvt_flr_i32_f32", v_cvt_flr_i32_f32, T_B32, T_F32, T_NONE, T_NONE, FL),
    OP(0x14e, "v_cvt_off_f32_i4", v_cvt_off_f32_i4, T_F32, T_B32, T_NONE, T_NONE, FL),
    OP(0x14f, "v_cvt_f32_f64", v_cvt_f32_f64, T_F32, T_F64, T_NONE, T_NONE, FL),
    OP(0x150, "v_cvt_f64_f32", v_cvt_f64_f32, T_F64, T_F32, T_NONE, T_NONE, FL),
    OP(0x151, "v_cvt_f32_ubyte0", v_cvt_f32_ubyte0, T_F32, T_B32, T_NONE, T_NONE, FL),
    OP(0x152, "v_cvt_f32_ubyte1", v_cvt_f32_ubyte1, T_F32, T_B32, T_NONE, T_NONE, FL),
    OP(0x153, "v_cvt_f32_ubyte2", v_cvt_f32_ubyte2, T_F32, T_B32, T_NONE, T_NONE, FL),
    OP(0x154, "v_cvt_f32_ubyte3", v_cvt_f32_ubyte3, T_F32, T_B32, T_NONE, T_NONE, FL),
    OP(0x155, "v_cvt_u32_f64", v_cvt_u32_f64, T_B32, T_F64, T_NONE, T_NONE, FL),
    OP(0x156, "v_cvt_f64_u32", v_cvt_f64_u32, T_F64, T_B32, T_NONE, T_NONE, FL),
    OP(0x157, "v_trunc_f64", v_trunc_f64, T_F64, T_F64, T_NONE, T_NONE, FL),
    OP(0x158, "v_ceil_f64", v_ceil_f64, T_F64, T_F64, T_NONE, T_NONE, FL),
    OP(0x159, "v_rndne_f64", v_rndne_f64, T_F64, T_F64, T_NONE, T_NONE, FL),
    OP(0x15a, "v_floor_f64", v_floor_f64, T_F64, T_F64, T_NONE, T_NONE, FL),
    OP(0x15b, "v_fract_f32", v_fract_f32, T_F32, T_F32, T_NONE, T_NONE, FL),
    OP(0x15c, "v_trunc_f32", v_trunc_f32, T_F32, T_F32, T_NONE, T_NONE, FL),
    OP(0x15d, "v_ceil_f32", v_ceil_f32, T_F32, T_F32, T_NONE, T_NONE, FL),
    OP(0x15e, "v_rndne_f32", v_rndne_f32, T_F32, T_F32, T_NONE, T_NONE, FL),
    OP(0x15f, "v_floor_f32", v_floor_f32, T_F32, T_F32, T_NONE, T_NONE, FL),
    OP(0x160, "v_exp_f32", v_exp_f32, T_F32, T_F32, T_NONE, T_NONE, FL),
    OP(0x161, "v_log_f32", v_log_f32, T_F32, T_F32, T_NONE, T_NONE, FL),
    OP(0x162, "v_rcp_f32", v_rcp_f32, T_F32, T_F32, T_NONE, T_NONE, FL),
    OP(0x163, "v_rcp_iflag_f32", v_rcp_f32, T_F32, T_F32, T_NONE, T_NONE, FL),
    OP(0x164, "v_rsq_f32", v_rsq_f32, T_F32, T_F32, T_NONE, T_NONE, FL),
    OP(0x165, "v_rcp_f64", v_rcp_f64, T_F64, T_F64, T_NONE, T_NONE, FL),
    OP(0x166, "v_rsq_f64", v_rsq_f64, T_F64, T_F64, T_NONE, T_NONE, FL),
    OP(0x167, "v_sqrt_f32", v_sqrt_f32, T_F32, T_F32, T_NONE, T_NONE, FL),
    OP(0x168, "v_sqrt_f64", v_sqrt_f64, T_F64, T_F64, T_NONE, T_NONE, FL),
    OP(0x169, "v_sin_f32", v_sin_f32, T_F32, T_F32, T_NONE, T_NONE, FL),
    OP(0x16a, "v_cos_f32", v_cos_f32, T_F32, T_F32, T_NONE, T_NONE, FL),
    OP(0x170, "v_frexp_exp_i32_f64", v_frexp_exp_i32_f64, T_B32, T_F64, T_NONE, T_NONE, FL),
    OP(0x171, "v_frexp_mant_f64", v_frexp_mant_f64, T_F64, T_F64, T_NONE, T_NONE, FL),
    OP(0x172, "v_fract_f64", v_fract_f64, T_F64, T_F64, T_NONE, T_NONE, FL),
    OP(0x173, "v_frexp_exp_i32_f32", v_frexp_exp_i32_f32, T_B32, T_F32, T_NONE, T_NONE, FL),
    OP(0x174, "v_frexp_mant_f32", v_frexp_mant_f32, T_F32, T_F32, T_NONE, T_NONE, FL),
    OP(0x175, "v_clrexcp", v_clrexcp, T_NONE, T_NONE, T_NONE, T_NONE, OPF_NO_DST),
    OP(0x179, "v_cvt_f16_u16", v_cvt_f16_u16, T_F16, T_B16, T_NONE, T_NONE, Z16),
    OP(0x17a, "v_cvt_f16_i16", v_cvt_f16_i16, T_F16, T_B16, T_NONE, T_NONE, Z16),
    OP(0x17b, "v_cvt_u16_f16", v_cvt_u16_f16, T_B16, T_F16, T_NONE, T_NONE, Z16),
    OP(0x17c, "v_cvt_i16_f16", v_cvt_i16_f16, T_B16, T_F16, T_NONE, T_NONE, Z16),
    OP(0x17d, "v_rcp_f16", v_rcp_f16, T_F16, T_F16, T_NONE, T_NONE, Z16),
    OP(0x17e, "v_sqrt_f16", v_sqrt_f16, T_F16, T_F16, T_NONE, T_NONE, Z16),
    OP(0x17f, "v_rsq_f16", v_rsq_f16, T_F16, T_F16, T_NONE, T_NONE, Z16),
    OP(0x180, "v_log_f16", v_log_f16, T_F16, T_F16, T_NONE, T_NONE, Z16),
    OP(0x181, "v_exp_f16", v_exp_f16, T_F16, T_F16, T_NONE, T_NONE, Z16),
    OP(0x182, "v_frexp_mant_f16", v_frexp_mant_f16, T_F16, T_F16, T_NONE, T_NONE, Z16),
    OP(0x183, "v_frexp_exp_i16_f16", v_frexp_exp_i16_f16, T_B16, T_F16, T_NONE, T_NONE, Z16),
    OP(0x184, "v_floor_f16", v_floor_f16, T_F16, T_F16, T_NONE, T_NONE, Z16),
    OP(0x185, "v_ceil_f16", v_ceil_f16, T_F16, T_F16, T_NONE, T_NONE, Z16),
    OP(0x186, "v_trunc_f16", v_trunc_f16, T_F16, T_F16, T_NONE, T_NONE, Z16),
    OP(0x187, "v_rndne_f16", v_rndne_f16, T_F16, T_F16, T_NONE, T_NONE, Z16),
    OP(0x188, "v_fract_f16", v_fract_f16, T_F16, T_F16, T_NONE, T_NONE, Z16),
    OP(0x189, "v_sin_f16", v_sin_f16, T_F16, T_F16, T_NONE, T_NONE, Z16),
    OP(0x18a, "v_cos_f16", v_cos_f16, T_F16, T_F16, T_NONE, T_NONE, Z16),
    OP(0x18b, "v_exp_legacy_f32", v_exp_f32, T_F32, T_F32, T_NONE, T_NONE, FL),
    OP(0x18c, "v_log_legacy_f32", v_log_f32, T_F32, T_F32, T_NONE, T_NONE, FL),
    OP(0x18d, "v_cvt_norm_i16_f16", v_cvt_norm_i16_f16, T_B16, T_F16, T_NONE, T_NONE, Z16),
    OP(0x18e, "v_cvt_norm_u16_f16", v_cvt_norm_u16_f16, T_B16, T_F16, T_NONE, T_NONE, Z16),
    OP(0x1dd, "v_cvt_pk_u8_f32", v_cvt_pk_u8_f32, T_B32, T_F32, T_B32, T_B32, V3),
    OP(0x294, "v_cvt_pknorm_i16_f32", v_cvt_pknorm_i16_f32, T_B32, T_F32, T_F32, T_NONE, V3),
    OP(0x295, "v_cvt_pknorm_u16_f32", v_cvt_pknorm_u16_f32, T_B32, T_F32, T_F32, T_NONE, V3),
    OP(0x296, "v_cvt_pkrtz_f16_f32", v_cvt_pkrtz_f16_f32, T_B32, T_F32, T_F32, T_NONE, V3),
    OP(0x299, "v_cvt_pknorm_i16_f16", v_cvt_pknorm_i16_f16, T_B32, T_F16, T_F16, T_NONE, V3),
    OP(0x29a, "v_cvt_pknorm_u16_f16", v_cvt_pknorm_u16_f16, T_B32, T_F16, T_F16, T_NONE, V3),
    OP(0x2a0, "v_pack_b32_f16", v_pack_b32_f16, T_B32, T_F16, T_F16, T_NONE, V3),
};
const struct optable vop_conv_ops = OPTABLE(vop_conv_ops_entries);
