/*
 * salu.c - scalar ALU, branches and program control: SOP2, SOPK, SOP1,
 * SOPC and SOPP (Vega ISA ch. 5 "Scalar ALU Operations", ch. 4 "Program
 * Flow Control"; opcode numbers ch. 12.1-12.5, checked against LLVM
 * SOPInstructions.td by the objdump cross-check).
 *
 * SCC conventions (Vega ISA 5.x): arithmetic sets SCC to the carry, borrow
 * or signed overflow; bitwise operations to (result != 0); compares to the
 * comparison.
 */
#include "vapu/isa/wave.h"

#define S0 scalar_src32(w, in->ssrc[0], in->literal)
#define S1 scalar_src32(w, in->ssrc[1], in->literal)
#define S0_64 scalar_src64(w, in->ssrc[0], in->literal, (enum optype)in->op->src[0])
#define S1_64 scalar_src64(w, in->ssrc[1], in->literal, (enum optype)in->op->src[1])

static inline void d32(struct wave *w, const struct inst *in, uint32_t v) { write_sdst(w, in->sdst, v); }
static inline void d64(struct wave *w, const struct inst *in, uint64_t v) { write_sdst64(w, in->sdst, v); }
static inline void scc_nz(struct wave *w, uint64_t v) { w->scc = v != 0; }

/* ---- SOP2 ------------------------------------------------------------------ */
static void s_add_u32(struct wave *w, const struct inst *in) {
  uint64_t r = (uint64_t)S0 + S1;
  d32(w, in, (uint32_t)r);
  w->scc = (uint32_t)(r >> 32);
}
static void s_sub_u32(struct wave *w, const struct inst *in) {
  uint32_t a = S0, b = S1;
  d32(w, in, a - b);
  w->scc = b > a;
}
static void s_add_i32(struct wave *w, const struct inst *in) {
  uint32_t a = S0, b = S1, r = a + b;
  d32(w, in, r);
  w->scc = ((~(a ^ b) & (a ^ r)) >> 31) & 1; /* operands agree in sign, result does not */
}
static void s_sub_i32(struct wave *w, const struct inst *in) {
  uint32_t a = S0, b = S1, r = a - b;
  d32(w, in, r);
  w->scc = (((a ^ b) & (a ^ r)) >> 31) & 1;
}
static void s_addc_u32(struct wave *w, const struct inst *in) {
  uint64_t r = (uint64_t)S0 + S1 + w->scc;
  d32(w, in, (uint32_t)r);
  w->scc = (uint32_t)(r >> 32);
}
static void s_subb_u32(struct wave *w, const struct inst *in) {
  uint32_t a = S0, b = S1, c = w->scc;
  d32(w, in, a - b - c);
  w->scc = (uint64_t)b + c > a;
}
static void s_min_i32(struct wave *w, const struct inst *in) {
  int32_t a = (int32_t)S0, b = (int32_t)S1;
  w->scc = a < b;
  d32(w, in, (uint32_t)(a < b ? a : b));
}
static void s_min_u32(struct wave *w, const struct inst *in) {
  uint32_t a = S0, b = S1;
  w->scc = a < b;
  d32(w, in, a < b ? a : b);
}
static void s_max_i32(struct wave *w, const struct inst *in) {
  int32_t a = (int32_t)S0, b = (int32_t)S1;
  w->scc = a > b;
  d32(w, in, (uint32_t)(a > b ? a : b));
}
static void s_max_u32(struct wave *w, const struct inst *in) {
  uint32_t a = S0, b = S1;
  w->scc = a > b;
  d32(w, in, a > b ? a : b);
}
static void s_cselect_b32(struct wave *w, const struct inst *in) { d32(w, in, w->scc ? S0 : S1); }
static void s_cselect_b64(struct wave *w, const struct inst *in) { d64(w, in, w->scc ? S0_64 : S1_64); }

#define SOP2_BITWISE(name, EXPR)                                              \
  static void name##_b32(struct wave *w, const struct inst *in) {             \
    uint32_t a = S0, b = S1, r = (EXPR);                                      \
    d32(w, in, r);                                                            \
    scc_nz(w, r);                                                             \
  }                                                                           \
  static void name##_b64(struct wave *w, const struct inst *in) {             \
    uint64_t a = S0_64, b = S1_64, r = (EXPR);                                \
    d64(w, in, r);                                                            \
    scc_nz(w, r);                                                             \
  }
SOP2_BITWISE(s_and, a & b)
SOP2_BITWISE(s_or, a | b)
SOP2_BITWISE(s_xor, a ^ b)
SOP2_BITWISE(s_andn2, a & ~b)
SOP2_BITWISE(s_orn2, a | ~b)
SOP2_BITWISE(s_nand, ~(a & b))
SOP2_BITWISE(s_nor, ~(a | b))
SOP2_BITWISE(s_xnor, ~(a ^ b))

static void s_lshl_b32(struct wave *w, const struct inst *in) {
  uint32_t r = S0 << (S1 & 31);
  d32(w, in, r);
  scc_nz(w, r);
}
static void s_lshl_b64(struct wave *w, const struct inst *in) {
  uint64_t r = S0_64 << (S1 & 63);
  d64(w, in, r);
  scc_nz(w, r);
}
static void s_lshr_b32(struct wave *w, const struct inst *in) {
  uint32_t r = S0 >> (S1 & 31);
  d32(w, in, r);
  scc_nz(w, r);
}
static void s_lshr_b64(struct wave *w, const struct inst *in) {
  uint64_t r = S0_64 >> (S1 & 63);
  d64(w, in, r);
  scc_nz(w, r);
}
static void s_ashr_i32(struct wave *w, const struct inst *in) {
  uint32_t r = (uint32_t)((int32_t)S0 >> (S1 & 31));
  d32(w, in, r);
  scc_nz(w, r);
}
static void s_ashr_i64(struct wave *w, const struct inst *in) {
  uint64_t r = (uint64_t)((int64_t)S0_64 >> (S1 & 63));
  d64(w, in, r);
  scc_nz(w, r);
}
static void s_bfm_b32(struct wave *w, const struct inst *in) {
  d32(w, in, ((1u << (S0 & 31)) - 1) << (S1 & 31));
}
static void s_bfm_b64(struct wave *w, const struct inst *in) {
  d64(w, in, ((1ull << (S0 & 63)) - 1) << (S1 & 63));
}
static void s_mul_i32(struct wave *w, const struct inst *in) { d32(w, in, S0 * S1); }
static void s_mul_hi_u32(struct wave *w, const struct inst *in) {
  d32(w, in, (uint32_t)(((uint64_t)S0 * S1) >> 32));
}
static void s_mul_hi_i32(struct wave *w, const struct inst *in) {
  d32(w, in, (uint32_t)((uint64_t)((int64_t)(int32_t)S0 * (int32_t)S1) >> 32));
}

/* Bit-field extract: offset S1[4:0] (b64: [5:0]), width S1[22:16]. */
static uint64_t bfe64(uint64_t v, uint32_t ctl, unsigned size, bool sign) {
  unsigned off = ctl & (size - 1), width = (ctl >> 16) & 0x7f;
  if (width == 0) return 0;
  if (width > size - off) width = size - off;
  uint64_t f = (v >> off) & (width == 64 ? ~0ull : ((1ull << width) - 1));
  if (sign && width < 64 && ((f >> (width - 1)) & 1)) f |= ~0ull << width;
  return f;
}
static void s_bfe_u32(struct wave *w, const struct inst *in) {
  uint32_t r = (uint32_t)bfe64(S0, S1, 32, false);
  d32(w, in, r);
  scc_nz(w, r);
}
static void s_bfe_i32(struct wave *w, const struct inst *in) {
  uint32_t r = (uint32_t)bfe64(S0, S1, 32, true);
  d32(w, in, r);
  scc_nz(w, r);
}
static void s_bfe_u64(struct wave *w, const struct inst *in) {
  uint64_t r = bfe64(S0_64, S1, 64, false);
  d64(w, in, r);
  scc_nz(w, r);
}
static void s_bfe_i64(struct wave *w, const struct inst *in) {
  uint64_t r = bfe64(S0_64, S1, 64, true);
  d64(w, in, r);
  scc_nz(w, r);
}
static void s_absdiff_i32(struct wave *w, const struct inst *in) {
  int64_t d = (int64_t)(int32_t)S0 - (int32_t)S1;
  uint32_t r = (uint32_t)(d < 0 ? -d : d);
  d32(w, in, r);
  scc_nz(w, r);
}
/* s_lshlN_add_u32: D = (S0 << N) + S1, SCC = carry out of 32 bits. */
static void lshl_add(struct wave *w, const struct inst *in, unsigned n) {
  uint64_t r = ((uint64_t)S0 << n) + S1;
  d32(w, in, (uint32_t)r);
  w->scc = r >> 32 != 0;
}
static void s_lshl1_add_u32(struct wave *w, const struct inst *in) { lshl_add(w, in, 1); }
static void s_lshl2_add_u32(struct wave *w, const struct inst *in) { lshl_add(w, in, 2); }
static void s_lshl3_add_u32(struct wave *w, const struct inst *in) { lshl_add(w, in, 3); }
static void s_lshl4_add_u32(struct wave *w, const struct inst *in) { lshl_add(w, in, 4); }
static void s_pack_ll_b32_b16(struct wave *w, const struct inst *in) {
  d32(w, in, (S0 & 0xffff) | S1 << 16);
}
static void s_pack_lh_b32_b16(struct wave *w, const struct inst *in) {
  d32(w, in, (S0 & 0xffff) | (S1 & 0xffff0000u));
}
static void s_pack_hh_b32_b16(struct wave *w, const struct inst *in) {
  d32(w, in, S0 >> 16 | (S1 & 0xffff0000u));
}

#define SOP(code, name, fn, d, s0, s1, fl) {name, fn, d, {s0, s1, T_NONE}, fl, code}
static const struct opinfo optab_sop2_entries[] = {
    SOP(0x00, "s_add_u32", s_add_u32, T_B32, T_B32, T_B32, 0),
    SOP(0x01, "s_sub_u32", s_sub_u32, T_B32, T_B32, T_B32, 0),
    SOP(0x02, "s_add_i32", s_add_i32, T_B32, T_B32, T_B32, 0),
    SOP(0x03, "s_sub_i32", s_sub_i32, T_B32, T_B32, T_B32, 0),
    SOP(0x04, "s_addc_u32", s_addc_u32, T_B32, T_B32, T_B32, 0),
    SOP(0x05, "s_subb_u32", s_subb_u32, T_B32, T_B32, T_B32, 0),
    SOP(0x06, "s_min_i32", s_min_i32, T_B32, T_B32, T_B32, 0),
    SOP(0x07, "s_min_u32", s_min_u32, T_B32, T_B32, T_B32, 0),
    SOP(0x08, "s_max_i32", s_max_i32, T_B32, T_B32, T_B32, 0),
    SOP(0x09, "s_max_u32", s_max_u32, T_B32, T_B32, T_B32, 0),
    SOP(0x0a, "s_cselect_b32", s_cselect_b32, T_B32, T_B32, T_B32, 0),
    SOP(0x0b, "s_cselect_b64", s_cselect_b64, T_B64, T_B64, T_B64, 0),
    SOP(0x0c, "s_and_b32", s_and_b32, T_B32, T_B32, T_B32, 0),
    SOP(0x0d, "s_and_b64", s_and_b64, T_B64, T_B64, T_B64, 0),
    SOP(0x0e, "s_or_b32", s_or_b32, T_B32, T_B32, T_B32, 0),
    SOP(0x0f, "s_or_b64", s_or_b64, T_B64, T_B64, T_B64, 0),
    SOP(0x10, "s_xor_b32", s_xor_b32, T_B32, T_B32, T_B32, 0),
    SOP(0x11, "s_xor_b64", s_xor_b64, T_B64, T_B64, T_B64, 0),
    SOP(0x12, "s_andn2_b32", s_andn2_b32, T_B32, T_B32, T_B32, 0),
    SOP(0x13, "s_andn2_b64", s_andn2_b64, T_B64, T_B64, T_B64, 0),
    SOP(0x14, "s_orn2_b32", s_orn2_b32, T_B32, T_B32, T_B32, 0),
    SOP(0x15, "s_orn2_b64", s_orn2_b64, T_B64, T_B64, T_B64, 0),
    SOP(0x16, "s_nand_b32", s_nand_b32, T_B32, T_B32, T_B32, 0),
    SOP(0x17, "s_nand_b64", s_nand_b64, T_B64, T_B64, T_B64, 0),
    SOP(0x18, "s_nor_b32", s_nor_b32, T_B32, T_B32, T_B32, 0),
    SOP(0x19, "s_nor_b64", s_nor_b64, T_B64, T_B64, T_B64, 0),
    SOP(0x1a, "s_xnor_b32", s_xnor_b32, T_B32, T_B32, T_B32, 0),
    SOP(0x1b, "s_xnor_b64", s_xnor_b64, T_B64, T_B64, T_B64, 0),
    SOP(0x1c, "s_lshl_b32", s_lshl_b32, T_B32, T_B32, T_B32, 0),
    SOP(0x1d, "s_lshl_b64", s_lshl_b64, T_B64, T_B64, T_B32, 0),
    SOP(0x1e, "s_lshr_b32", s_lshr_b32, T_B32, T_B32, T_B32, 0),
    SOP(0x1f, "s_lshr_b64", s_lshr_b64, T_B64, T_B64, T_B32, 0),
    SOP(0x20, "s_ashr_i32", s_ashr_i32, T_B32, T_B32, T_B32, 0),
    SOP(0x21, "s_ashr_i64", s_ashr_i64, T_I64, T_I64, T_B32, 0),
    SOP(0x22, "s_bfm_b32", s_bfm_b32, T_B32, T_B32, T_B32, 0),
    SOP(0x23, "s_bfm_b64", s_bfm_b64, T_B64, T_B32, T_B32, 0),
    SOP(0x24, "s_mul_i32", s_mul_i32, T_B32, T_B32, T_B32, 0),
    SOP(0x25, "s_bfe_u32", s_bfe_u32, T_B32, T_B32, T_B32, 0),
    SOP(0x26, "s_bfe_i32", s_bfe_i32, T_B32, T_B32, T_B32, 0),
    SOP(0x27, "s_bfe_u64", s_bfe_u64, T_B64, T_B64, T_B32, 0),
    SOP(0x28, "s_bfe_i64", s_bfe_i64, T_I64, T_I64, T_B32, 0),
    SOP(0x2a, "s_absdiff_i32", s_absdiff_i32, T_B32, T_B32, T_B32, 0),
    SOP(0x2c, "s_mul_hi_u32", s_mul_hi_u32, T_B32, T_B32, T_B32, 0),
    SOP(0x2d, "s_mul_hi_i32", s_mul_hi_i32, T_B32, T_B32, T_B32, 0),
    SOP(0x2e, "s_lshl1_add_u32", s_lshl1_add_u32, T_B32, T_B32, T_B32, 0),
    SOP(0x2f, "s_lshl2_add_u32", s_lshl2_add_u32, T_B32, T_B32, T_B32, 0),
    SOP(0x30, "s_lshl3_add_u32", s_lshl3_add_u32, T_B32, T_B32, T_B32, 0),
    SOP(0x31, "s_lshl4_add_u32", s_lshl4_add_u32, T_B32, T_B32, T_B32, 0),
    SOP(0x32, "s_pack_ll_b32_b16", s_pack_ll_b32_b16, T_B32, T_B32, T_B32, 0),
    SOP(0x33, "s_pack_lh_b32_b16", s_pack_lh_b32_b16, T_B32, T_B32, T_B32, 0),
    SOP(0x34, "s_pack_hh_b32_b16", s_pack_hh_b32_b16, T_B32, T_B32, T_B32, 0),
};
const struct optable optab_sop2 = OPTABLE(optab_sop2_entries);

/* ---- Hardware registers (s_getreg/s_setreg) --------------------------------
 * hwreg(id, offset, size): simm16 [5:0] id, [10:6] offset, [15:11] size-1
 * (Vega ISA 12.2 SOPK; ids from LLVM SIDefines.h Hwreg::Id for gfx9). */
enum { HW_REG_MODE = 1, HW_REG_STATUS = 2, HW_REG_TRAPSTS = 3, HW_REG_HW_ID = 4,
       HW_REG_GPR_ALLOC = 5, HW_REG_LDS_ALLOC = 6, HW_REG_IB_STS = 7, HW_REG_SH_MEM_BASES = 15 };

/* STATUS bits the model keeps (Vega ISA 3.x STATUS): SCC 0, EXECZ 9,
 * VCCZ 10, IN_TG 11, VALID 16. */
static uint32_t hwreg_read(struct wave *w, unsigned id) {
  const struct vapu_apertures *ap = &w->x->ds.d.apertures;
  switch (id) {
  case HW_REG_MODE: return w->mode;
  case HW_REG_STATUS:
    return w->scc | (uint32_t)(exec_mask(w) == 0) << 9 | (uint32_t)(vcc_mask(w) == 0) << 10 |
           1u << 11 | 1u << 16;
  case HW_REG_TRAPSTS: return w->trapsts;
  case HW_REG_HW_ID: return w->hw_id;
  case HW_REG_GPR_ALLOC: return w->gpr_alloc;
  case HW_REG_LDS_ALLOC: return w->lds_alloc;
  case HW_REG_IB_STS: return w->ib_sts;
  case HW_REG_SH_MEM_BASES: /* private_base [15:0], shared_base [31:16]: bits 63:48 */
    return (uint32_t)(ap->private_base >> 48) | (uint32_t)(ap->shared_base >> 48) << 16;
  default: return 0;
  }
}

/* Writable fields: MODE (all the model uses), TRAPSTS; others ignore writes
 * as read-only registers do. */
static void hwreg_write(struct wave *w, unsigned id, uint32_t value, uint32_t mask) {
  if (id == HW_REG_MODE) w->mode = (w->mode & ~mask) | (value & mask);
  else if (id == HW_REG_TRAPSTS) w->trapsts = (w->trapsts & ~mask) | (value & mask);
}

static void hwreg_field(int32_t simm, unsigned *id, unsigned *off, uint32_t *mask) {
  *id = (unsigned)simm & 0x3f;
  *off = ((unsigned)simm >> 6) & 0x1f;
  unsigned size = (((unsigned)simm >> 11) & 0x1f) + 1;
  *mask = (size >= 32 ? ~0u : ((1u << size) - 1)) << *off;
}

static void s_getreg_b32(struct wave *w, const struct inst *in) {
  unsigned id, off;
  uint32_t mask;
  hwreg_field(in->simm, &id, &off, &mask);
  d32(w, in, (hwreg_read(w, id) & mask) >> off);
}
static void s_setreg_b32(struct wave *w, const struct inst *in) {
  unsigned id, off;
  uint32_t mask;
  hwreg_field(in->simm, &id, &off, &mask);
  hwreg_write(w, id, scalar_src32(w, in->sdst, 0) << off, mask); /* SDST field names the source */
}
static void s_setreg_imm32_b32(struct wave *w, const struct inst *in) {
  unsigned id, off;
  uint32_t mask;
  hwreg_field(in->simm, &id, &off, &mask);
  hwreg_write(w, id, in->literal << off, mask);
}

/* ---- SOPK (imm16 sign-extended for signed forms) -------------------------- */
static inline uint32_t sdst_val(struct wave *w, const struct inst *in) { return scalar_src32(w, in->sdst, 0); }
static void s_movk_i32(struct wave *w, const struct inst *in) { d32(w, in, (uint32_t)in->simm); }
static void s_cmovk_i32(struct wave *w, const struct inst *in) {
  if (w->scc) d32(w, in, (uint32_t)in->simm);
}
#define SOPK_CMP(name, type, op)                                               \
  static void name(struct wave *w, const struct inst *in) {                    \
    w->scc = (type)sdst_val(w, in) op (type)in->simm;                          \
  }
SOPK_CMP(s_cmpk_eq_i32, int32_t, ==)
SOPK_CMP(s_cmpk_lg_i32, int32_t, !=)
SOPK_CMP(s_cmpk_gt_i32, int32_t, >)
SOPK_CMP(s_cmpk_ge_i32, int32_t, >=)
SOPK_CMP(s_cmpk_lt_i32, int32_t, <)
SOPK_CMP(s_cmpk_le_i32, int32_t, <=)
SOPK_CMP(s_cmpk_eq_u32, uint32_t, ==)
SOPK_CMP(s_cmpk_lg_u32, uint32_t, !=)
SOPK_CMP(s_cmpk_gt_u32, uint32_t, >)
SOPK_CMP(s_cmpk_ge_u32, uint32_t, >=)
SOPK_CMP(s_cmpk_lt_u32, uint32_t, <)
SOPK_CMP(s_cmpk_le_u32, uint32_t, <=)
static void s_addk_i32(struct wave *w, const struct inst *in) {
  uint32_t a = sdst_val(w, in), b = (uint32_t)in->simm, r = a + b;
  d32(w, in, r);
  w->scc = ((~(a ^ b) & (a ^ r)) >> 31) & 1;
}
static void s_mulk_i32(struct wave *w, const struct inst *in) {
  d32(w, in, sdst_val(w, in) * (uint32_t)in->simm);
}
/* s_call_b64: D = address of the next instruction; PC += simm16 * 4. */
static void s_call_b64(struct wave *w, const struct inst *in) {
  d64(w, in, w->pc);
  w->pc += (uint64_t)(int64_t)in->simm * 4;
}

#define SS OPF_SCALAR_SIMM
static const struct opinfo optab_sopk_entries[] = {
    SOP(0x00, "s_movk_i32", s_movk_i32, T_B32, T_NONE, T_NONE, SS),
    SOP(0x01, "s_cmovk_i32", s_cmovk_i32, T_B32, T_NONE, T_NONE, SS),
    SOP(0x02, "s_cmpk_eq_i32", s_cmpk_eq_i32, T_NONE, T_B32, T_NONE, SS),
    SOP(0x03, "s_cmpk_lg_i32", s_cmpk_lg_i32, T_NONE, T_B32, T_NONE, SS),
    SOP(0x04, "s_cmpk_gt_i32", s_cmpk_gt_i32, T_NONE, T_B32, T_NONE, SS),
    SOP(0x05, "s_cmpk_ge_i32", s_cmpk_ge_i32, T_NONE, T_B32, T_NONE, SS),
    SOP(0x06, "s_cmpk_lt_i32", s_cmpk_lt_i32, T_NONE, T_B32, T_NONE, SS),
    SOP(0x07, "s_cmpk_le_i32", s_cmpk_le_i32, T_NONE, T_B32, T_NONE, SS),
    SOP(0x08, "s_cmpk_eq_u32", s_cmpk_eq_u32, T_NONE, T_B32, T_NONE, 0),
    SOP(0x09, "s_cmpk_lg_u32", s_cmpk_lg_u32, T_NONE, T_B32, T_NONE, 0),
    SOP(0x0a, "s_cmpk_gt_u32", s_cmpk_gt_u32, T_NONE, T_B32, T_NONE, 0),
    SOP(0x0b, "s_cmpk_ge_u32", s_cmpk_ge_u32, T_NONE, T_B32, T_NONE, 0),
    SOP(0x0c, "s_cmpk_lt_u32", s_cmpk_lt_u32, T_NONE, T_B32, T_NONE, 0),
    SOP(0x0d, "s_cmpk_le_u32", s_cmpk_le_u32, T_NONE, T_B32, T_NONE, 0),
    SOP(0x0e, "s_addk_i32", s_addk_i32, T_B32, T_NONE, T_NONE, SS),
    SOP(0x0f, "s_mulk_i32", s_mulk_i32, T_B32, T_NONE, T_NONE, SS),
    SOP(0x11, "s_getreg_b32", s_getreg_b32, T_B32, T_NONE, T_NONE, 0),
    SOP(0x12, "s_setreg_b32", s_setreg_b32, T_NONE, T_B32, T_NONE, 0),
    SOP(0x14, "s_setreg_imm32_b32", s_setreg_imm32_b32, T_NONE, T_NONE, T_NONE, OPF_KIMM),
    SOP(0x15, "s_call_b64", s_call_b64, T_B64, T_NONE, T_NONE, SS),
};
const struct optable optab_sopk = OPTABLE(optab_sopk_entries);

/* ---- SOP1 ------------------------------------------------------------------ */
static void s_mov_b32(struct wave *w, const struct inst *in) { d32(w, in, S0); }
static void s_mov_b64(struct wave *w, const struct inst *in) { d64(w, in, S0_64); }
static void s_cmov_b32(struct wave *w, const struct inst *in) {
  if (w->scc) d32(w, in, S0);
}
static void s_cmov_b64(struct wave *w, const struct inst *in) {
  if (w->scc) d64(w, in, S0_64);
}
static void s_not_b32(struct wave *w, const struct inst *in) {
  uint32_t r = ~S0;
  d32(w, in, r);
  scc_nz(w, r);
}
static void s_not_b64(struct wave *w, const struct inst *in) {
  uint64_t r = ~S0_64;
  d64(w, in, r);
  scc_nz(w, r);
}
/* Whole quad mode: a quad's 4 bits all set if any is. */
static uint64_t wqm(uint64_t v) {
  uint64_t r = 0;
  for (unsigned q = 0; q < 64; q += 4)
    if ((v >> q) & 0xf) r |= 0xfull << q;
  return r;
}
static void s_wqm_b32(struct wave *w, const struct inst *in) {
  uint32_t r = (uint32_t)wqm(S0);
  d32(w, in, r);
  scc_nz(w, r);
}
static void s_wqm_b64(struct wave *w, const struct inst *in) {
  uint64_t r = wqm(S0_64);
  d64(w, in, r);
  scc_nz(w, r);
}
static uint64_t brev64(uint64_t v) {
  uint64_t r = 0;
  for (unsigned i = 0; i < 64; i++) r |= ((v >> i) & 1) << (63 - i);
  return r;
}
static void s_brev_b32(struct wave *w, const struct inst *in) { d32(w, in, (uint32_t)(brev64(S0) >> 32)); }
static void s_brev_b64(struct wave *w, const struct inst *in) { d64(w, in, brev64(S0_64)); }
static void s_bcnt0_i32_b32(struct wave *w, const struct inst *in) {
  uint32_t r = 32 - (uint32_t)__builtin_popcount(S0);
  d32(w, in, r);
  scc_nz(w, r);
}
static void s_bcnt0_i32_b64(struct wave *w, const struct inst *in) {
  uint32_t r = 64 - (uint32_t)__builtin_popcountll(S0_64);
  d32(w, in, r);
  scc_nz(w, r);
}
static void s_bcnt1_i32_b32(struct wave *w, const struct inst *in) {
  uint32_t r = (uint32_t)__builtin_popcount(S0);
  d32(w, in, r);
  scc_nz(w, r);
}
static void s_bcnt1_i32_b64(struct wave *w, const struct inst *in) {
  uint32_t r = (uint32_t)__builtin_popcountll(S0_64);
  d32(w, in, r);
  scc_nz(w, r);
}
/* Find first 0/1 from the LSB; -1 (0xffffffff) when there is none. */
static void s_ff0_i32_b32(struct wave *w, const struct inst *in) {
  uint32_t v = ~S0;
  d32(w, in, v ? (uint32_t)__builtin_ctz(v) : ~0u);
}
static void s_ff0_i32_b64(struct wave *w, const struct inst *in) {
  uint64_t v = ~S0_64;
  d32(w, in, v ? (uint32_t)__builtin_ctzll(v) : ~0u);
}
static void s_ff1_i32_b32(struct wave *w, const struct inst *in) {
  uint32_t v = S0;
  d32(w, in, v ? (uint32_t)__builtin_ctz(v) : ~0u);
}
static void s_ff1_i32_b64(struct wave *w, const struct inst *in) {
  uint64_t v = S0_64;
  d32(w, in, v ? (uint32_t)__builtin_ctzll(v) : ~0u);
}
/* Find first 1 from the MSB (count of leading zeros); -1 when none. */
static void s_flbit_i32_b32(struct wave *w, const struct inst *in) {
  uint32_t v = S0;
  d32(w, in, v ? (uint32_t)__builtin_clz(v) : ~0u);
}
static void s_flbit_i32_b64(struct wave *w, const struct inst *in) {
  uint64_t v = S0_64;
  d32(w, in, v ? (uint32_t)__builtin_clzll(v) : ~0u);
}
/* Signed: first bit from the MSB that differs from the sign; -1 if none. */
static void s_flbit_i32(struct wave *w, const struct inst *in) {
  uint32_t v = S0;
  v = (v >> 31) ? ~v : v;
  d32(w, in, v ? (uint32_t)__builtin_clz(v) : ~0u);
}
static void s_flbit_i32_i64(struct wave *w, const struct inst *in) {
  uint64_t v = S0_64;
  v = (v >> 63) ? ~v : v;
  d32(w, in, v ? (uint32_t)__builtin_clzll(v) : ~0u);
}
static void s_sext_i32_i8(struct wave *w, const struct inst *in) { d32(w, in, (uint32_t)(int32_t)(int8_t)S0); }
static void s_sext_i32_i16(struct wave *w, const struct inst *in) { d32(w, in, (uint32_t)(int32_t)(int16_t)S0); }
static void s_bitset0_b32(struct wave *w, const struct inst *in) {
  d32(w, in, scalar_src32(w, in->sdst, 0) & ~(1u << (S0 & 31)));
}
static void s_bitset0_b64(struct wave *w, const struct inst *in) {
  d64(w, in, scalar_src64(w, in->sdst, 0, T_B64) & ~(1ull << (S0 & 63)));
}
static void s_bitset1_b32(struct wave *w, const struct inst *in) {
  d32(w, in, scalar_src32(w, in->sdst, 0) | 1u << (S0 & 31));
}
static void s_bitset1_b64(struct wave *w, const struct inst *in) {
  d64(w, in, scalar_src64(w, in->sdst, 0, T_B64) | 1ull << (S0 & 63));
}
/* PC-relative control: w->pc already holds the next instruction's address. */
static void s_getpc_b64(struct wave *w, const struct inst *in) { d64(w, in, w->pc); }
static void s_setpc_b64(struct wave *w, const struct inst *in) { w->pc = S0_64; }
static void s_swappc_b64(struct wave *w, const struct inst *in) {
  uint64_t target = S0_64;
  d64(w, in, w->pc);
  w->pc = target;
}

/* s_<op>_saveexec_b64: D = EXEC; EXEC = op(S0, EXEC); SCC = EXEC != 0. */
#define SAVEEXEC(name, EXPR)                                                   \
  static void name(struct wave *w, const struct inst *in) {                    \
    uint64_t s = S0_64, e = exec_mask(w);                                      \
    d64(w, in, e);                                                             \
    uint64_t r = (EXPR);                                                       \
    set_sreg64(w, SREG_EXEC_LO, r);                                            \
    scc_nz(w, r);                                                              \
  }
SAVEEXEC(s_and_saveexec_b64, s & e)
SAVEEXEC(s_or_saveexec_b64, s | e)
SAVEEXEC(s_xor_saveexec_b64, s ^ e)
SAVEEXEC(s_andn2_saveexec_b64, s & ~e)
SAVEEXEC(s_orn2_saveexec_b64, s | ~e)
SAVEEXEC(s_nand_saveexec_b64, ~(s & e))
SAVEEXEC(s_nor_saveexec_b64, ~(s | e))
SAVEEXEC(s_xnor_saveexec_b64, ~(s ^ e))
SAVEEXEC(s_andn1_saveexec_b64, ~s & e)
SAVEEXEC(s_orn1_saveexec_b64, ~s | e)
/* s_andn{1,2}_wrexec_b64: EXEC = the result, and D = the result too. */
static void s_andn1_wrexec_b64(struct wave *w, const struct inst *in) {
  uint64_t r = ~S0_64 & exec_mask(w);
  set_sreg64(w, SREG_EXEC_LO, r);
  d64(w, in, r);
  scc_nz(w, r);
}
static void s_andn2_wrexec_b64(struct wave *w, const struct inst *in) {
  uint64_t r = S0_64 & ~exec_mask(w);
  set_sreg64(w, SREG_EXEC_LO, r);
  d64(w, in, r);
  scc_nz(w, r);
}
static uint64_t quadmask(uint64_t v, unsigned quads) {
  uint64_t r = 0;
  for (unsigned q = 0; q < quads; q++)
    if ((v >> (4 * q)) & 0xf) r |= 1ull << q;
  return r;
}
static void s_quadmask_b32(struct wave *w, const struct inst *in) {
  uint32_t r = (uint32_t)quadmask(S0, 8);
  d32(w, in, r);
  scc_nz(w, r);
}
static void s_quadmask_b64(struct wave *w, const struct inst *in) {
  uint64_t r = quadmask(S0_64, 16);
  d64(w, in, r);
  scc_nz(w, r);
}
/* Relative SGPR addressing: the register number plus M0. An index past the
 * SGPR file reads 0 / drops the write. */
static unsigned rel_sgpr(struct wave *w, unsigned base) { return base + w->s[SREG_M0]; }
static void s_movrels_b32(struct wave *w, const struct inst *in) {
  unsigned n = rel_sgpr(w, in->ssrc[0]);
  d32(w, in, n < 128 ? w->s[n] : 0);
}
static void s_movrels_b64(struct wave *w, const struct inst *in) {
  unsigned n = rel_sgpr(w, in->ssrc[0]);
  d64(w, in, n < 127 ? sreg64(w, n) : 0);
}
static void s_movreld_b32(struct wave *w, const struct inst *in) {
  unsigned n = rel_sgpr(w, in->sdst);
  if (n < 128) write_sdst(w, n, S0);
}
static void s_movreld_b64(struct wave *w, const struct inst *in) {
  unsigned n = rel_sgpr(w, in->sdst);
  if (n < 127) write_sdst64(w, n, S0_64);
}
static void s_abs_i32(struct wave *w, const struct inst *in) {
  uint32_t v = S0, r = (v >> 31) ? 0u - v : v;
  d32(w, in, r);
  scc_nz(w, r);
}
/* VGPR indexing (Vega ISA 4.x "GPR indexing"): M0[7:0] is the index,
 * M0[15:12] the enabled operands (SRC0, SRC1, SRC2, DST), MODE bit 27
 * (GPR_IDX_EN) turns it on. */
static void s_set_gpr_idx_idx(struct wave *w, const struct inst *in) {
  w->s[SREG_M0] = (w->s[SREG_M0] & ~0xffu) | (S0 & 0xff);
}
static void s_bitreplicate_b64_b32(struct wave *w, const struct inst *in) {
  uint32_t v = S0;
  uint64_t r = 0;
  for (unsigned i = 0; i < 32; i++) r |= (uint64_t)((v >> i) & 1) * 3u << (2 * i);
  d64(w, in, r);
}

static const struct opinfo optab_sop1_entries[] = {
    SOP(0x00, "s_mov_b32", s_mov_b32, T_B32, T_B32, T_NONE, 0),
    SOP(0x01, "s_mov_b64", s_mov_b64, T_B64, T_B64, T_NONE, 0),
    SOP(0x02, "s_cmov_b32", s_cmov_b32, T_B32, T_B32, T_NONE, 0),
    SOP(0x03, "s_cmov_b64", s_cmov_b64, T_B64, T_B64, T_NONE, 0),
    SOP(0x04, "s_not_b32", s_not_b32, T_B32, T_B32, T_NONE, 0),
    SOP(0x05, "s_not_b64", s_not_b64, T_B64, T_B64, T_NONE, 0),
    SOP(0x06, "s_wqm_b32", s_wqm_b32, T_B32, T_B32, T_NONE, 0),
    SOP(0x07, "s_wqm_b64", s_wqm_b64, T_B64, T_B64, T_NONE, 0),
    SOP(0x08, "s_brev_b32", s_brev_b32, T_B32, T_B32, T_NONE, 0),
    SOP(0x09, "s_brev_b64", s_brev_b64, T_B64, T_B64, T_NONE, 0),
    SOP(0x0a, "s_bcnt0_i32_b32", s_bcnt0_i32_b32, T_B32, T_B32, T_NONE, 0),
    SOP(0x0b, "s_bcnt0_i32_b64", s_bcnt0_i32_b64, T_B32, T_B64, T_NONE, 0),
    SOP(0x0c, "s_bcnt1_i32_b32", s_bcnt1_i32_b32, T_B32, T_B32, T_NONE, 0),
    SOP(0x0d, "s_bcnt1_i32_b64", s_bcnt1_i32_b64, T_B32, T_B64, T_NONE, 0),
    SOP(0x0e, "s_ff0_i32_b32", s_ff0_i32_b32, T_B32, T_B32, T_NONE, 0),
    SOP(0x0f, "s_ff0_i32_b64", s_ff0_i32_b64, T_B32, T_B64, T_NONE, 0),
    SOP(0x10, "s_ff1_i32_b32", s_ff1_i32_b32, T_B32, T_B32, T_NONE, 0),
    SOP(0x11, "s_ff1_i32_b64", s_ff1_i32_b64, T_B32, T_B64, T_NONE, 0),
    SOP(0x12, "s_flbit_i32_b32", s_flbit_i32_b32, T_B32, T_B32, T_NONE, 0),
    SOP(0x13, "s_flbit_i32_b64", s_flbit_i32_b64, T_B32, T_B64, T_NONE, 0),
    SOP(0x14, "s_flbit_i32", s_flbit_i32, T_B32, T_B32, T_NONE, 0),
    SOP(0x15, "s_flbit_i32_i64", s_flbit_i32_i64, T_B32, T_I64, T_NONE, 0),
    SOP(0x16, "s_sext_i32_i8", s_sext_i32_i8, T_B32, T_B32, T_NONE, 0),
    SOP(0x17, "s_sext_i32_i16", s_sext_i32_i16, T_B32, T_B32, T_NONE, 0),
    SOP(0x18, "s_bitset0_b32", s_bitset0_b32, T_B32, T_B32, T_NONE, 0),
    SOP(0x19, "s_bitset0_b64", s_bitset0_b64, T_B64, T_B32, T_NONE, 0),
    SOP(0x1a, "s_bitset1_b32", s_bitset1_b32, T_B32, T_B32, T_NONE, 0),
    SOP(0x1b, "s_bitset1_b64", s_bitset1_b64, T_B64, T_B32, T_NONE, 0),
    SOP(0x1c, "s_getpc_b64", s_getpc_b64, T_B64, T_NONE, T_NONE, 0),
    SOP(0x1d, "s_setpc_b64", s_setpc_b64, T_NONE, T_B64, T_NONE, 0),
    SOP(0x1e, "s_swappc_b64", s_swappc_b64, T_B64, T_B64, T_NONE, 0),
    SOP(0x20, "s_and_saveexec_b64", s_and_saveexec_b64, T_B64, T_B64, T_NONE, 0),
    SOP(0x21, "s_or_saveexec_b64", s_or_saveexec_b64, T_B64, T_B64, T_NONE, 0),
    SOP(0x22, "s_xor_saveexec_b64", s_xor_saveexec_b64, T_B64, T_B64, T_NONE, 0),
    SOP(0x23, "s_andn2_saveexec_b64", s_andn2_saveexec_b64, T_B64, T_B64, T_NONE, 0),
    SOP(0x24, "s_orn2_saveexec_b64", s_orn2_saveexec_b64, T_B64, T_B64, T_NONE, 0),
    SOP(0x25, "s_nand_saveexec_b64", s_nand_saveexec_b64, T_B64, T_B64, T_NONE, 0),
    SOP(0x26, "s_nor_saveexec_b64", s_nor_saveexec_b64, T_B64, T_B64, T_NONE, 0),
    SOP(0x27, "s_xnor_saveexec_b64", s_xnor_saveexec_b64, T_B64, T_B64, T_NONE, 0),
    SOP(0x28, "s_quadmask_b32", s_quadmask_b32, T_B32, T_B32, T_NONE, 0),
    SOP(0x29, "s_quadmask_b64", s_quadmask_b64, T_B64, T_B64, T_NONE, 0),
    SOP(0x2a, "s_movrels_b32", s_movrels_b32, T_B32, T_B32, T_NONE, 0),
    SOP(0x2b, "s_movrels_b64", s_movrels_b64, T_B64, T_B64, T_NONE, 0),
    SOP(0x2c, "s_movreld_b32", s_movreld_b32, T_B32, T_B32, T_NONE, 0),
    SOP(0x2d, "s_movreld_b64", s_movreld_b64, T_B64, T_B64, T_NONE, 0),
    SOP(0x30, "s_abs_i32", s_abs_i32, T_B32, T_B32, T_NONE, 0),
    SOP(0x32, "s_set_gpr_idx_idx", s_set_gpr_idx_idx, T_NONE, T_B32, T_NONE, 0),
    SOP(0x33, "s_andn1_saveexec_b64", s_andn1_saveexec_b64, T_B64, T_B64, T_NONE, 0),
    SOP(0x34, "s_orn1_saveexec_b64", s_orn1_saveexec_b64, T_B64, T_B64, T_NONE, 0),
    SOP(0x35, "s_andn1_wrexec_b64", s_andn1_wrexec_b64, T_B64, T_B64, T_NONE, 0),
    SOP(0x36, "s_andn2_wrexec_b64", s_andn2_wrexec_b64, T_B64, T_B64, T_NONE, 0),
    SOP(0x37, "s_bitreplicate_b64_b32", s_bitreplicate_b64_b32, T_B64, T_B32, T_NONE, 0),
};
const struct optable optab_sop1 = OPTABLE(optab_sop1_entries);

/* ---- SOPC ------------------------------------------------------------------ */
#define SOPC_CMP(name, type, op)                                               \
  static void name(struct wave *w, const struct inst *in) { w->scc = (type)S0 op (type)S1; }
SOPC_CMP(s_cmp_eq_i32, int32_t, ==)
SOPC_CMP(s_cmp_lg_i32, int32_t, !=)
SOPC_CMP(s_cmp_gt_i32, int32_t, >)
SOPC_CMP(s_cmp_ge_i32, int32_t, >=)
SOPC_CMP(s_cmp_lt_i32, int32_t, <)
SOPC_CMP(s_cmp_le_i32, int32_t, <=)
SOPC_CMP(s_cmp_eq_u32, uint32_t, ==)
SOPC_CMP(s_cmp_lg_u32, uint32_t, !=)
SOPC_CMP(s_cmp_gt_u32, uint32_t, >)
SOPC_CMP(s_cmp_ge_u32, uint32_t, >=)
SOPC_CMP(s_cmp_lt_u32, uint32_t, <)
SOPC_CMP(s_cmp_le_u32, uint32_t, <=)
static void s_bitcmp0_b32(struct wave *w, const struct inst *in) { w->scc = !((S0 >> (S1 & 31)) & 1); }
static void s_bitcmp1_b32(struct wave *w, const struct inst *in) { w->scc = (S0 >> (S1 & 31)) & 1; }
static void s_bitcmp0_b64(struct wave *w, const struct inst *in) { w->scc = !((S0_64 >> (S1 & 63)) & 1); }
static void s_bitcmp1_b64(struct wave *w, const struct inst *in) { w->scc = (S0_64 >> (S1 & 63)) & 1; }
static void s_cmp_eq_u64(struct wave *w, const struct inst *in) { w->scc = S0_64 == S1_64; }
static void s_cmp_lg_u64(struct wave *w, const struct inst *in) { w->scc = S0_64 != S1_64; }
/* s_set_gpr_idx_on S0, mode: M0[7:0] = S0[7:0], M0[15:12] = mode (the SSRC1
 * field), GPR indexing on. */
static void s_set_gpr_idx_on(struct wave *w, const struct inst *in) {
  uint32_t m0 = w->s[SREG_M0] & ~0xf0ffu;
  w->s[SREG_M0] = m0 | (S0 & 0xff) | (in->ssrc[1] & 0xfu) << 12;
  w->mode |= MODE_GPR_IDX_EN;
}

static const struct opinfo optab_sopc_entries[] = {
    SOP(0x00, "s_cmp_eq_i32", s_cmp_eq_i32, T_NONE, T_B32, T_B32, 0),
    SOP(0x01, "s_cmp_lg_i32", s_cmp_lg_i32, T_NONE, T_B32, T_B32, 0),
    SOP(0x02, "s_cmp_gt_i32", s_cmp_gt_i32, T_NONE, T_B32, T_B32, 0),
    SOP(0x03, "s_cmp_ge_i32", s_cmp_ge_i32, T_NONE, T_B32, T_B32, 0),
    SOP(0x04, "s_cmp_lt_i32", s_cmp_lt_i32, T_NONE, T_B32, T_B32, 0),
    SOP(0x05, "s_cmp_le_i32", s_cmp_le_i32, T_NONE, T_B32, T_B32, 0),
    SOP(0x06, "s_cmp_eq_u32", s_cmp_eq_u32, T_NONE, T_B32, T_B32, 0),
    SOP(0x07, "s_cmp_lg_u32", s_cmp_lg_u32, T_NONE, T_B32, T_B32, 0),
    SOP(0x08, "s_cmp_gt_u32", s_cmp_gt_u32, T_NONE, T_B32, T_B32, 0),
    SOP(0x09, "s_cmp_ge_u32", s_cmp_ge_u32, T_NONE, T_B32, T_B32, 0),
    SOP(0x0a, "s_cmp_lt_u32", s_cmp_lt_u32, T_NONE, T_B32, T_B32, 0),
    SOP(0x0b, "s_cmp_le_u32", s_cmp_le_u32, T_NONE, T_B32, T_B32, 0),
    SOP(0x0c, "s_bitcmp0_b32", s_bitcmp0_b32, T_NONE, T_B32, T_B32, 0),
    SOP(0x0d, "s_bitcmp1_b32", s_bitcmp1_b32, T_NONE, T_B32, T_B32, 0),
    SOP(0x0e, "s_bitcmp0_b64", s_bitcmp0_b64, T_NONE, T_B64, T_B32, 0),
    SOP(0x0f, "s_bitcmp1_b64", s_bitcmp1_b64, T_NONE, T_B64, T_B32, 0),
    SOP(0x11, "s_set_gpr_idx_on", s_set_gpr_idx_on, T_NONE, T_B32, T_NONE, 0),
    SOP(0x12, "s_cmp_eq_u64", s_cmp_eq_u64, T_NONE, T_B64, T_B64, 0),
    SOP(0x13, "s_cmp_lg_u64", s_cmp_lg_u64, T_NONE, T_B64, T_B64, 0),
};
const struct optable optab_sopc = OPTABLE(optab_sopc_entries);

/* ---- SOPP ------------------------------------------------------------------
 * Branch targets: PC of the next instruction + simm16 * 4 (Vega ISA 4.x). */
static void branch_if(struct wave *w, const struct inst *in, bool cond) {
  if (cond) w->pc += (uint64_t)(int64_t)in->simm * 4;
}
static void s_nop(struct wave *w, const struct inst *in) {}
static void s_endpgm(struct wave *w, const struct inst *in) { w->state = WAVE_DONE; }
static void s_branch(struct wave *w, const struct inst *in) { branch_if(w, in, true); }
static void s_cbranch_scc0(struct wave *w, const struct inst *in) { branch_if(w, in, !w->scc); }
static void s_cbranch_scc1(struct wave *w, const struct inst *in) { branch_if(w, in, w->scc); }
static void s_cbranch_vccz(struct wave *w, const struct inst *in) { branch_if(w, in, vcc_mask(w) == 0); }
static void s_cbranch_vccnz(struct wave *w, const struct inst *in) { branch_if(w, in, vcc_mask(w) != 0); }
static void s_cbranch_execz(struct wave *w, const struct inst *in) { branch_if(w, in, exec_mask(w) == 0); }
static void s_cbranch_execnz(struct wave *w, const struct inst *in) { branch_if(w, in, exec_mask(w) != 0); }
static void s_barrier(struct wave *w, const struct inst *in) { w->state = WAVE_AT_BARRIER; }
/* s_sleep N: about 64 * N clocks; the wave gives its time slice up. */
static void s_sleep(struct wave *w, const struct inst *in) { w->sleep = (uint16_t)((in->simm & 0x7f) ? 1 : 0); }
static void s_sethalt(struct wave *w, const struct inst *in) {
  if (in->simm & 1) wave_stop(w, in, VAPU_HALTED, "s_sethalt: wave halted");
}
static void s_sendmsghalt(struct wave *w, const struct inst *in) {
  wave_stop(w, in, VAPU_HALTED, "s_sendmsghalt %d: wave halted", in->simm);
}
/* s_trap (AMDGPUUsage "Trap Handler ABI"): 2 is llvm.trap and puts the
 * queue in error; 3 is llvm.debugtrap, a no-op without a debugger; any
 * other id reaches the (absent) trap handler and also stops the queue. */
static void s_trap(struct wave *w, const struct inst *in) {
  unsigned id = (unsigned)in->simm & 0xff;
  if (id == 3) return;
  wave_stop(w, in, VAPU_TRAP, "s_trap %u", id);
  w->x->stop.trap_id = id;
}
static void s_icache_inv(struct wave *w, const struct inst *in) { icache_invalidate(w->x); }
static void s_set_gpr_idx_off(struct wave *w, const struct inst *in) { w->mode &= ~MODE_GPR_IDX_EN; }
static void s_set_gpr_idx_mode(struct wave *w, const struct inst *in) {
  w->s[SREG_M0] = (w->s[SREG_M0] & ~0xf000u) | ((uint32_t)in->simm & 0xfu) << 12;
}

/* Instructions with no effect in the model: scheduling hints, waits on
 * memory (synchronous here), performance and debug controls, messages to
 * the graphics pipeline. */
#define NOP s_nop
static const struct opinfo optab_sopp_entries[] = {
    SOP(0x00, "s_nop", s_nop, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x01, "s_endpgm", s_endpgm, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x02, "s_branch", s_branch, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x03, "s_wakeup", NOP, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x04, "s_cbranch_scc0", s_cbranch_scc0, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x05, "s_cbranch_scc1", s_cbranch_scc1, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x06, "s_cbranch_vccz", s_cbranch_vccz, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x07, "s_cbranch_vccnz", s_cbranch_vccnz, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x08, "s_cbranch_execz", s_cbranch_execz, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x09, "s_cbranch_execnz", s_cbranch_execnz, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x0a, "s_barrier", s_barrier, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x0b, "s_setkill", NOP, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x0c, "s_waitcnt", NOP, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x0d, "s_sethalt", s_sethalt, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x0e, "s_sleep", s_sleep, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x0f, "s_setprio", NOP, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x10, "s_sendmsg", NOP, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x11, "s_sendmsghalt", s_sendmsghalt, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x12, "s_trap", s_trap, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x13, "s_icache_inv", s_icache_inv, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x14, "s_incperflevel", NOP, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x15, "s_decperflevel", NOP, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x16, "s_ttracedata", NOP, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x17, "s_cbranch_cdbgsys", NOP, T_NONE, T_NONE, T_NONE, 0),      /* no debugger: not taken */
    SOP(0x18, "s_cbranch_cdbguser", NOP, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x19, "s_cbranch_cdbgsys_or_user", NOP, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x1a, "s_cbranch_cdbgsys_and_user", NOP, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x1b, "s_endpgm_saved", s_endpgm, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x1c, "s_set_gpr_idx_off", s_set_gpr_idx_off, T_NONE, T_NONE, T_NONE, 0),
    SOP(0x1d, "s_set_gpr_idx_mode", s_set_gpr_idx_mode, T_NONE, T_NONE, T_NONE, 0),
};
const struct optable optab_sopp = OPTABLE(optab_sopp_entries);
