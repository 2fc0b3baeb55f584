/*
 * vop3p.c - packed 16-bit math (VOP3P, v_pk_*) and the mixed-precision
 * v_mad_mix* (Vega ISA 12.x VOP3P; ch. 6 "Packed math").
 *
 * For the low half of the result each source supplies its half op_sel[i]
 * (0 low, 1 high), for the high half op_sel_hi[i]; neg_lo/neg_hi negate the
 * halves of float sources. v_mad_mix*: op_sel_hi[i] = 1 makes source i an
 * f16 (its half chosen by op_sel[i]), else an f32; neg is a negate and
 * neg_hi an absolute value there. Clamp saturates integers and clamps
 * floats to [0, 1].
 */
#include "vapu/isa/valu.h"

/* Raw source lanes, no modifiers (VOP3P has its own). */
static const uint32_t *raw_src(struct wave *w, const struct inst *in, unsigned i, uint32_t *buf) {
  const struct src *s = &in->src[i];
  if (s->kind == SRC_KIND_VGPR) return w->v[s->index];
  uint32_t v = s->kind == SRC_KIND_SGPR ? w->s[s->index]
               : s->kind == SRC_KIND_CONST ? (uint32_t)s->value
                                           : scalar_src32(w, s->index, 0);
  FOR_LANES(l) buf[l] = v;
  return buf;
}

/* Half `hi` (0 low, 1 high result half) of source i, as 16 bits. */
static inline uint16_t half_of(const struct inst *in, unsigned i, unsigned hi, uint32_t v, bool fl) {
  unsigned sel = hi ? (in->op_sel_hi >> i) & 1 : (in->op_sel >> i) & 1;
  uint16_t h = (uint16_t)(sel ? v >> 16 : v);
  if (fl && (((hi ? in->neg_hi : in->neg) >> i) & 1)) h ^= 0x8000;
  return h;
}

enum pk_op { PK_MAD_I16, PK_MUL_LO_U16, PK_ADD_I16, PK_SUB_I16, PK_LSHLREV, PK_LSHRREV,
             PK_ASHRREV, PK_MAX_I16, PK_MIN_I16, PK_MAD_U16, PK_ADD_U16, PK_SUB_U16,
             PK_MAX_U16, PK_MIN_U16, PK_FMA_F16, PK_ADD_F16, PK_MUL_F16, PK_MIN_F16, PK_MAX_F16 };

static inline int32_t clampi(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : v > hi ? hi : v; }

static uint16_t pk_int(enum pk_op op, uint16_t a, uint16_t b, uint16_t c, bool clamp) {
  int32_t sa = (int16_t)a, sb = (int16_t)b, r;
  switch (op) {
  case PK_MAD_I16: r = sa * sb + (int16_t)c; return (uint16_t)(clamp ? clampi(r, INT16_MIN, INT16_MAX) : r);
  case PK_MUL_LO_U16: return (uint16_t)(a * b);
  case PK_ADD_I16: r = sa + sb; return (uint16_t)(clamp ? clampi(r, INT16_MIN, INT16_MAX) : r);
  case PK_SUB_I16: r = sa - sb; return (uint16_t)(clamp ? clampi(r, INT16_MIN, INT16_MAX) : r);
  case PK_LSHLREV: return (uint16_t)(b << (a & 15));
  case PK_LSHRREV: return (uint16_t)(b >> (a & 15));
  case PK_ASHRREV: return (uint16_t)(sb >> (a & 15));
  case PK_MAX_I16: return sa > sb ? a : b;
  case PK_MIN_I16: return sa < sb ? a : b;
  case PK_MAD_U16: r = a * b + c; return (uint16_t)(clamp ? clampi(r, 0, 0xffff) : r);
  case PK_ADD_U16: r = a + b; return (uint16_t)(clamp ? clampi(r, 0, 0xffff) : r);
  case PK_SUB_U16: r = a - b; return (uint16_t)(clamp ? clampi(r, 0, 0xffff) : r);
  case PK_MAX_U16: return a > b ? a : b;
  case PK_MIN_U16: return a < b ? a : b;
  default: return 0;
  }
}

static uint16_t pk_float(struct wave *w, enum pk_op op, uint16_t a, uint16_t b, uint16_t c) {
  int m = (int)mode_round64(w);
  bool keep_in = MODE_DENORM64(w->mode) & DENORM_KEEP_IN, ieee = w->mode & MODE_IEEE;
  if (!keep_in) a = f16_flush(a), b = f16_flush(b), c = f16_flush(c);
  double x = fp_f16_to_f32(a), y = fp_f16_to_f32(b), z = fp_f16_to_f32(c);
  switch (op) {
  case PK_FMA_F16: return fp_f64_to_f16(fp_fma64(x, y, z, 0, fp_odd_for(m)), m);
  case PK_ADD_F16: return fp_f64_to_f16(x + y, m);
  case PK_MUL_F16: return fp_f64_to_f16(x * y, m);
  default: { /* min/max with the MODE.IEEE NaN rules of v_min_f16 */
    bool want_max = op == PK_MAX_F16;
    if (ieee && (f16_is_snan(a) || f16_is_snan(b))) return f16_quiet(f16_is_snan(a) ? a : b);
    if (f16_is_nan(a)) return f16_is_nan(b) ? f16_quiet(a) : b;
    if (f16_is_nan(b)) return a;
    if (x == y) return (uint16_t)(want_max ? (a & b) : (a | b)); /* -0 below +0 */
    return (x < y) != want_max ? a : b;
  }
  }
}

static uint16_t clamp_f16(struct wave *w, uint16_t x) {
  if (f16_is_nan(x)) return (w->mode & MODE_DX10_CLAMP) ? 0 : x;
  if (x >> 15) return 0;
  return x > 0x3c00 ? 0x3c00 : x;
}

static void pk_exec(struct wave *w, const struct inst *in, enum pk_op op) {
  uint32_t b[3][LANES], r[LANES];
  const uint32_t *s[3] = {NULL, NULL, NULL};
  for (unsigned i = 0; i < in->nsrc; i++) s[i] = raw_src(w, in, i, b[i]);
  bool fl = op >= PK_FMA_F16;
  bool flush_out = !(MODE_DENORM64(w->mode) & DENORM_KEEP_OUT);
  FOR_LANES(l) {
    uint32_t out = 0;
    for (unsigned hi = 0; hi < 2; hi++) {
      uint16_t x = half_of(in, 0, hi, s[0][l], fl), y = half_of(in, 1, hi, s[1][l], fl);
      uint16_t z = s[2] ? half_of(in, 2, hi, s[2][l], fl) : 0;
      uint16_t v;
      if (fl) {
        v = pk_float(w, op, x, y, z);
        if (in->clamp) v = clamp_f16(w, v);
        if (flush_out) v = f16_flush(v);
      } else {
        v = pk_int(op, x, y, z, in->clamp);
      }
      out |= (uint32_t)v << (16 * hi);
    }
    r[l] = out;
  }
  vdst32(w, in, r);
}

#define PK(name, op) static void name(struct wave *w, const struct inst *in) { pk_exec(w, in, op); }
PK(v_pk_mad_i16, PK_MAD_I16)
PK(v_pk_mul_lo_u16, PK_MUL_LO_U16)
PK(v_pk_add_i16, PK_ADD_I16)
PK(v_pk_sub_i16, PK_SUB_I16)
PK(v_pk_lshlrev_b16, PK_LSHLREV)
PK(v_pk_lshrrev_b16, PK_LSHRREV)
PK(v_pk_ashrrev_i16, PK_ASHRREV)
PK(v_pk_max_i16, PK_MAX_I16)
PK(v_pk_min_i16, PK_MIN_I16)
PK(v_pk_mad_u16, PK_MAD_U16)
PK(v_pk_add_u16, PK_ADD_U16)
PK(v_pk_sub_u16, PK_SUB_U16)
PK(v_pk_max_u16, PK_MAX_U16)
PK(v_pk_min_u16, PK_MIN_U16)
PK(v_pk_fma_f16, PK_FMA_F16)
PK(v_pk_add_f16, PK_ADD_F16)
PK(v_pk_mul_f16, PK_MUL_F16)
PK(v_pk_min_f16, PK_MIN_F16)
PK(v_pk_max_f16, PK_MAX_F16)

/* v_mad_mix*: an unfused f32 multiply-add of f32-or-f16 sources; the f32
 * arithmetic flushes denormals as v_mad_f32 does. */
static float mix_src(const struct inst *in, unsigned i, uint32_t v) {
  float f;
  if ((in->op_sel_hi >> i) & 1) f = fp_f16_to_f32((uint16_t)(((in->op_sel >> i) & 1) ? v >> 16 : v));
  else f = f32_from_bits(f32_flush(v));
  if ((in->neg_hi >> i) & 1) f = __builtin_fabsf(f);
  if ((in->neg >> i) & 1) f = -f;
  return f;
}
static void mad_mix(struct wave *w, const struct inst *in, int kind) {
  uint32_t b[3][LANES], r[LANES];
  const uint32_t *s[3];
  for (unsigned i = 0; i < 3; i++) s[i] = raw_src(w, in, i, b[i]);
  int m32 = (int)mode_round32(w), m16 = (int)mode_round64(w);
  bool dx10 = w->mode & MODE_DX10_CLAMP;
  uint32_t *d = w->v[in->vdst];
  FOR_LANES(l) {
    float x = mix_src(in, 0, s[0][l]), y = mix_src(in, 1, s[1][l]), z = mix_src(in, 2, s[2][l]);
    float p = f32_from_bits(f32_flush(f32_bits(fp_f64_to_f32((double)x * y, m32))));
    float v = f32_from_bits(f32_flush(f32_bits(fp_f64_to_f32((double)p + z, m32))));
    if (in->clamp) v = v != v ? (dx10 ? 0.0f : v) : v < 0 ? 0.0f : v > 1 ? 1.0f : v;
    if (kind == 0) {
      r[l] = f32_bits(v);
    } else { /* mixlo / mixhi: a half into one half, the other kept */
      uint32_t h = fp_f32_to_f16(v, m16);
      r[l] = kind == 1 ? (d[l] & 0xffff0000u) | h : (d[l] & 0xffffu) | h << 16;
    }
  }
  vdst32(w, in, r);
}
static void v_mad_mix_f32(struct wave *w, const struct inst *in) { mad_mix(w, in, 0); }
static void v_mad_mixlo_f16(struct wave *w, const struct inst *in) { mad_mix(w, in, 1); }
static void v_mad_mixhi_f16(struct wave *w, const struct inst *in) { mad_mix(w, in, 2); }

#define OP(code, name, fn, t, n) {name, fn, T_B32, {t, n >= 2 ? t : T_NONE, n >= 3 ? t : T_NONE}, 0, code}
static const struct opinfo optab_vop3p_entries[] = {
    OP(0x00, "v_pk_mad_i16", v_pk_mad_i16, T_PK16, 3),
    OP(0x01, "v_pk_mul_lo_u16", v_pk_mul_lo_u16, T_PK16, 2),
    OP(0x02, "v_pk_add_i16", v_pk_add_i16, T_PK16, 2),
    OP(0x03, "v_pk_sub_i16", v_pk_sub_i16, T_PK16, 2),
    OP(0x04, "v_pk_lshlrev_b16", v_pk_lshlrev_b16, T_PK16, 2),
    OP(0x05, "v_pk_lshrrev_b16", v_pk_lshrrev_b16, T_PK16, 2),
    OP(0x06, "v_pk_ashrrev_i16", v_pk_ashrrev_i16, T_PK16, 2),
    OP(0x07, "v_pk_max_i16", v_pk_max_i16, T_PK16, 2),
    OP(0x08, "v_pk_min_i16", v_pk_min_i16, T_PK16, 2),
    OP(0x09, "v_pk_mad_u16", v_pk_mad_u16, T_PK16, 3),
    OP(0x0a, "v_pk_add_u16", v_pk_add_u16, T_PK16, 2),
    OP(0x0b, "v_pk_sub_u16", v_pk_sub_u16, T_PK16, 2),
    OP(0x0c, "v_pk_max_u16", v_pk_max_u16, T_PK16, 2),
    OP(0x0d, "v_pk_min_u16", v_pk_min_u16, T_PK16, 2),
    OP(0x0e, "v_pk_fma_f16", v_pk_fma_f16, T_PKF16, 3),
    OP(0x0f, "v_pk_add_f16", v_pk_add_f16, T_PKF16, 2),
    OP(0x10, "v_pk_mul_f16", v_pk_mul_f16, T_PKF16, 2),
    OP(0x11, "v_pk_min_f16", v_pk_min_f16, T_PKF16, 2),
    OP(0x12, "v_pk_max_f16", v_pk_max_f16, T_PKF16, 2),
    OP(0x20, "v_mad_mix_f32", v_mad_mix_f32, T_F32, 3),
    OP(0x21, "v_mad_mixlo_f16", v_mad_mixlo_f16, T_F32, 3),
    OP(0x22, "v_mad_mixhi_f16", v_mad_mixhi_f16, T_F32, 3),
};
const struct optable optab_vop3p = OPTABLE(optab_vop3p_entries);
