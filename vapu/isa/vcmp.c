/*
 * vcmp.c - vector compares (VOPC, and their VOP3 forms): one bit per lane
 * into VCC (e32) or an SGPR pair (e64 SDST, SDWA sd); the v_cmpx forms also
 * write the result to EXEC (gfx9 writes both). Inactive lanes read as 0.
 *
 * Opcodes (Vega ISA 12.8 VOPC): class 0x10-0x15; f16 0x20, f32 0x40,
 * f64 0x60 (+0x10 for cmpx), condition in bits 3:0: F LT EQ LE GT LG GE O U
 * NGE NLG NGT NLE NEQ NLT TRU (the N* forms are true on unordered); i16 0xa0,
 * i32 0xc0, i64 0xe0 (+0x8 unsigned, +0x10 cmpx), condition in bits 2:0:
 * F LT EQ LE GT NE GE T.
 */
#include "vapu/isa/valu.h"

/* A compare's result from the lane masks of its three outcomes (less,
 * equal, greater; none of them: unordered). Float conditions (bits 3:0):
 * F LT EQ LE GT LG GE O U NGE NLG NGT NLE NEQ NLT TRU; the N* forms are the
 * complements of GE, LG, GT, LE, EQ, LT, so code c >= 9 is ~cond(15 - c).
 * Integer conditions (bits 2:0): F LT EQ LE GT NE GE T. */
static uint64_t fcond(unsigned c, uint64_t lt, uint64_t eq, uint64_t gt) {
  uint64_t un = ~(lt | eq | gt);
  switch (c) {
  case 0: return 0;
  case 1: return lt;
  case 2: return eq;
  case 3: return lt | eq;
  case 4: return gt;
  case 5: return lt | gt;
  case 6: return gt | eq;
  case 7: return ~un;
  case 8: return un;
  case 15: return ~0ull;
  default: return ~fcond(15 - c, lt, eq, gt);
  }
}
static uint64_t icond(unsigned c, uint64_t lt, uint64_t eq) {
  switch (c & 7) {
  case 0: return 0;
  case 1: return lt;
  case 2: return eq;
  case 3: return lt | eq;
  case 4: return ~(lt | eq);
  case 5: return ~eq;
  case 6: return ~lt;
  default: return ~0ull;
  }
}

static void write_cmp(struct wave *w, const struct inst *in, uint64_t bits) {
  uint64_t m = vwrite_mask(w, in);
  bits &= m;
  write_sdst64(w, in->sdst, bits);
  if (in->op->flags & OPF_CMPX) set_sreg64(w, SREG_EXEC_LO, bits);
}

static void cmp_f32(struct wave *w, const struct inst *in) {
  uint32_t b0[LANES], b1[LANES], f0[LANES], f1[LANES];
  const uint32_t *s0 = vflush_in_f32(w, vsrc32(w, in, 0, b0), f0);
  const uint32_t *s1 = vflush_in_f32(w, vsrc32(w, in, 1, b1), f1);
  uint8_t lt[LANES], eq[LANES], gt[LANES];
  FOR_LANES(l) {
    float a = f32_from_bits(s0[l]), b = f32_from_bits(s1[l]);
    lt[l] = a < b, eq[l] = a == b, gt[l] = a > b;
  }
  write_cmp(w, in, fcond(in->opcode & 15, pack_lane_bits(lt), pack_lane_bits(eq), pack_lane_bits(gt)));
}
static void cmp_f64(struct wave *w, const struct inst *in) {
  uint64_t s0[LANES], s1[LANES];
  vsrc64(w, in, 0, s0);
  vsrc64(w, in, 1, s1);
  vflush_in_f64(w, s0);
  vflush_in_f64(w, s1);
  uint8_t lt[LANES], eq[LANES], gt[LANES];
  FOR_LANES(l) {
    double a = f64_from_bits(s0[l]), b = f64_from_bits(s1[l]);
    lt[l] = a < b, eq[l] = a == b, gt[l] = a > b;
  }
  write_cmp(w, in, fcond(in->opcode & 15, pack_lane_bits(lt), pack_lane_bits(eq), pack_lane_bits(gt)));
}
static void cmp_f16(struct wave *w, const struct inst *in) {
  uint32_t b0[LANES], b1[LANES], f0[LANES], f1[LANES];
  const uint32_t *s0 = vflush_in_f16(w, vsrc32(w, in, 0, b0), f0);
  const uint32_t *s1 = vflush_in_f16(w, vsrc32(w, in, 1, b1), f1);
  uint8_t lt[LANES], eq[LANES], gt[LANES];
  FOR_LANES(l) {
    float a = fp_f16_to_f32((uint16_t)s0[l]), b = fp_f16_to_f32((uint16_t)s1[l]);
    lt[l] = a < b, eq[l] = a == b, gt[l] = a > b;
  }
  write_cmp(w, in, fcond(in->opcode & 15, pack_lane_bits(lt), pack_lane_bits(eq), pack_lane_bits(gt)));
}

/* The 32-bit compares as bit 31 of words from 32-bit operations (they
 * vectorise and pack with pack_lane_msbs): a < b is the borrow out of
 * a - b (unsigned) or the sign of a - b corrected for overflow (signed);
 * a == b is a ^ b == 0, whose x | -x has bit 31 clear. */
static void cmp_i32(struct wave *w, const struct inst *in) {
  uint32_t b0[LANES], b1[LANES], lt[LANES], ne[LANES];
  const uint32_t *s0 = vsrc32(w, in, 0, b0), *s1 = vsrc32(w, in, 1, b1);
  if (in->opcode & 8) {
    FOR_LANES(l) {
      uint32_t a = s0[l], b = s1[l], d = a - b;
      lt[l] = (~a & b) | (~(a ^ b) & d);
    }
  } else {
    FOR_LANES(l) {
      uint32_t a = s0[l], b = s1[l], d = a - b;
      lt[l] = d ^ ((a ^ b) & (d ^ a));
    }
  }
  FOR_LANES(l) {
    uint32_t x = s0[l] ^ s1[l];
    ne[l] = x | (0u - x);
  }
  write_cmp(w, in, icond(in->opcode, pack_lane_msbs(lt), ~pack_lane_msbs(ne)));
}
static void cmp_i16(struct wave *w, const struct inst *in) {
  uint32_t b0[LANES], b1[LANES];
  const uint32_t *s0 = vsrc32(w, in, 0, b0), *s1 = vsrc32(w, in, 1, b1);
  uint8_t lt[LANES], eq[LANES];
  bool u = in->opcode & 8;
  FOR_LANES(l) {
    uint16_t a = (uint16_t)s0[l], b = (uint16_t)s1[l];
    lt[l] = u ? a < b : (int16_t)a < (int16_t)b;
    eq[l] = a == b;
  }
  write_cmp(w, in, icond(in->opcode, pack_lane_bits(lt), pack_lane_bits(eq)));
}
static void cmp_i64(struct wave *w, const struct inst *in) {
  uint64_t s0[LANES], s1[LANES];
  vsrc64(w, in, 0, s0);
  vsrc64(w, in, 1, s1);
  uint8_t lt[LANES], eq[LANES];
  if (in->opcode & 8) FOR_LANES(l) lt[l] = s0[l] < s1[l];
  else FOR_LANES(l) lt[l] = (int64_t)s0[l] < (int64_t)s1[l];
  FOR_LANES(l) eq[l] = s0[l] == s1[l];
  write_cmp(w, in, icond(in->opcode, pack_lane_bits(lt), pack_lane_bits(eq)));
}

/* v_cmp_class: true if S0's class (fp.h fp_class*) is in the mask S1. */
static void cmp_class32(struct wave *w, const struct inst *in) {
  uint32_t b0[LANES], b1[LANES];
  const uint32_t *s0 = vsrc32(w, in, 0, b0), *s1 = vsrc32(w, in, 1, b1);
  uint64_t bits = 0;
  FOR_LANES(l) bits |= (uint64_t)((fp_class32(s0[l]) & s1[l]) != 0) << l;
  write_cmp(w, in, bits);
}
static void cmp_class64(struct wave *w, const struct inst *in) {
  uint64_t s0[LANES];
  uint32_t b1[LANES];
  vsrc64(w, in, 0, s0);
  const uint32_t *s1 = vsrc32(w, in, 1, b1);
  uint64_t bits = 0;
  FOR_LANES(l) bits |= (uint64_t)((fp_class64(s0[l]) & s1[l]) != 0) << l;
  write_cmp(w, in, bits);
}
static void cmp_class16(struct wave *w, const struct inst *in) {
  uint32_t b0[LANES], b1[LANES];
  const uint32_t *s0 = vsrc32(w, in, 0, b0), *s1 = vsrc32(w, in, 1, b1);
  uint64_t bits = 0;
  FOR_LANES(l) bits |= (uint64_t)((fp_class16((uint16_t)s0[l]) & s1[l]) != 0) << l;
  write_cmp(w, in, bits);
}

/* ---- Table --------------------------------------------------------------------
 * One row per compare and its cmpx twin 0x10 above it. */
#define ROW(code, name, fn, t0, t1, fl) {name, fn, T_NONE, {t0, t1, T_NONE}, fl, code}
#define FROW(base, i, cond, sfx, fn, T)                                            \
  ROW(base + i, "v_cmp_" cond "_" sfx, fn, T, T, OPF_FLOAT),                     \
  ROW(base + 16 + i, "v_cmpx_" cond "_" sfx, fn, T, T, OPF_FLOAT | OPF_CMPX)
#define FFAMILY(base, sfx, fn, T)                                                  \
  FROW(base, 0, "f", sfx, fn, T), FROW(base, 1, "lt", sfx, fn, T),               \
  FROW(base, 2, "eq", sfx, fn, T), FROW(base, 3, "le", sfx, fn, T),              \
  FROW(base, 4, "gt", sfx, fn, T), FROW(base, 5, "lg", sfx, fn, T),              \
  FROW(base, 6, "ge", sfx, fn, T), FROW(base, 7, "o", sfx, fn, T),               \
  FROW(base, 8, "u", sfx, fn, T), FROW(base, 9, "nge", sfx, fn, T),              \
  FROW(base, 10, "nlg", sfx, fn, T), FROW(base, 11, "ngt", sfx, fn, T),          \
  FROW(base, 12, "nle", sfx, fn, T), FROW(base, 13, "neq", sfx, fn, T),          \
  FROW(base, 14, "nlt", sfx, fn, T), FROW(base, 15, "tru", sfx, fn, T)
#define IROW(base, i, cond, sfx, fn, T)                                            \
  ROW(base + i, "v_cmp_" cond "_" sfx, fn, T, T, 0),                             \
  ROW(base + 16 + i, "v_cmpx_" cond "_" sfx, fn, T, T, OPF_CMPX)
#define IHALF(base, sfx, fn, T)                                                    \
  IROW(base, 0, "f", sfx, fn, T), IROW(base, 1, "lt", sfx, fn, T),               \
  IROW(base, 2, "eq", sfx, fn, T), IROW(base, 3, "le", sfx, fn, T),              \
  IROW(base, 4, "gt", sfx, fn, T), IROW(base, 5, "ne", sfx, fn, T),              \
  IROW(base, 6, "ge", sfx, fn, T), IROW(base, 7, "t", sfx, fn, T)
#define IFAMILY(base, bits, fn, TS, TU)                                            \
  IHALF(base, "i" bits, fn, TS), IHALF(base + 8, "u" bits, fn, TU)

static const struct opinfo vop_cmp_ops_entries[] = {
    ROW(0x10, "v_cmp_class_f32", cmp_class32, T_F32, T_B32, OPF_FLOAT),
    ROW(0x11, "v_cmpx_class_f32", cmp_class32, T_F32, T_B32, OPF_FLOAT | OPF_CMPX),
    ROW(0x12, "v_cmp_class_f64", cmp_class64, T_F64, T_B32, OPF_FLOAT),
    ROW(0x13, "v_cmpx_class_f64", cmp_class64, T_F64, T_B32, OPF_FLOAT | OPF_CMPX),
    ROW(0x14, "v_cmp_class_f16", cmp_class16, T_F16, T_B16, OPF_FLOAT),
    ROW(0x15, "v_cmpx_class_f16", cmp_class16, T_F16, T_B16, OPF_FLOAT | OPF_CMPX),
    FFAMILY(0x20, "f16", cmp_f16, T_F16),
    FFAMILY(0x40, "f32", cmp_f32, T_F32),
    FFAMILY(0x60, "f64", cmp_f64, T_F64),
    IFAMILY(0xa0, "16", cmp_i16, T_B16, T_B16),
    IFAMILY(0xc0, "32", cmp_i32, T_B32, T_B32),
    IFAMILY(0xe0, "64", cmp_i64, T_I64, T_B64),
};
const struct optable vop_cmp_ops = OPTABLE(vop_cmp_ops_entries);
