/*
 * decode.c - gfx9 instruction words to struct inst, and the decoded
 * instruction cache.
 *
 * Encodings and field positions: AMD "Vega Instruction Set Architecture"
 * ch. 12 "Microcode Formats" (SOP2 12.1.1 ... MUBUF 12.9.1); checked against
 * LLVM's AMDGPU disassembler by the llvm-objdump cross-check suite
 * (tests/host/vapu_isa_objdump_test.c, mk/vapu-isa.mk). An encoding or
 * opcode we have no table entry for, or an operand the hardware does not
 * define, is an illegal instruction.
 */
#include <stdio.h>

#include "vapu/isa/wave.h"

#define LOG_TAG "vapu-isa"
#include "lib/plat.h"
#include "lib/util.h"

static inline uint32_t bits(uint32_t w, unsigned lo, unsigned n) { return (w >> lo) & ((1u << n) - 1); }

/* Inline constants (Vega ISA 12.x "Scalar/vector source operands"): 128-192
 * are 0..64, 193-208 are -1..-16, 240-248 are 0.5, -0.5, 1, -1, 2, -2, 4, -4
 * and 1/(2*pi), formed in the operand's own float format. */
uint64_t inline_constant(unsigned code, enum optype t) {
  if (code >= 128 && code <= 208) {
    int64_t v = code <= 192 ? (int64_t)code - 128 : 192 - (int64_t)code;
    if (t == T_B16 || t == T_F16 || t == T_PK16 || t == T_PKF16) return (uint64_t)v & 0xffff;
    if (optype_is64(t)) return (uint64_t)v;
    return (uint32_t)v;
  }
  static const uint32_t f32[9] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
                                  0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};
  static const uint64_t f64[9] = {0x3fe0000000000000ull, 0xbfe0000000000000ull,
                                  0x3ff0000000000000ull, 0xbff0000000000000ull,
                                  0x4000000000000000ull, 0xc000000000000000ull,
                                  0x4010000000000000ull, 0xc010000000000000ull,
                                  0x3fc45f306dc9c882ull};
  static const uint16_t f16[9] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000,
                                  0xc000, 0x4400, 0xc400, 0x3118};
  unsigned i = code - 240;
  if (t == T_F64) return f64[i];
  if (t == T_F16 || t == T_PKF16 || t == T_B16 || t == T_PK16) return f16[i];
  if (t == T_B64 || t == T_I64) return f64[i]; /* 64-bit integer operands: the f64 pattern */
  return f32[i];
}

/* Decodes a 9-bit VALU source operand. False for operand numbers the
 * hardware does not define for a VALU source. */
static bool decode_src(unsigned code, enum optype t, uint32_t literal, struct src *s) {
  s->index = (uint16_t)code;
  s->value = 0;
  if (code >= SRC_VGPR0) {
    if (t == T_MASK) return false;
    s->kind = SRC_KIND_VGPR;
    s->index = (uint16_t)(code - SRC_VGPR0);
    return !optype_is64(t) || s->index < NUM_VGPRS - 1;
  }
  if (code < 128) {
    if (code == 125) return false;
    s->kind = SRC_KIND_SGPR;
    return !optype_is64(t) || code < 127;
  }
  if (code <= 208 || (code >= 240 && code <= 248)) {
    s->kind = SRC_KIND_CONST;
    s->value = inline_constant(code, t);
    return true;
  }
  if (code == SRC_LITERAL) {
    s->kind = SRC_KIND_CONST;
    s->value = literal_for_type(literal, t);
    return true;
  }
  if ((code >= SRC_SHARED_BASE && code <= SRC_POPS_EXITING_WAVE_ID) ||
      (code >= SRC_VCCZ && code <= SRC_SCC)) {
    s->kind = SRC_KIND_LIVE;
    return true;
  }
  return false;
}

const struct opinfo *optable_find(const struct optable *t, unsigned opcode) {
  for (unsigned i = 0; i < t->count; i++)
    if (t->ops[i].opcode == opcode) return &t->ops[i];
  return NULL;
}

const struct opinfo *valu_opinfo(unsigned op) {
  if (op < 256) return optable_find(&vop_cmp_ops, op);
  if (op >= 1024) return NULL;
  const struct optable *tables[] = {&vop_int_ops, &vop_float_ops, &vop_conv_ops, &vop_lane_ops};
  for (unsigned i = 0; i < countof(tables); i++) {
    const struct opinfo *o = optable_find(tables[i], op);
    if (o) return o;
  }
  return NULL;
}

static unsigned count_srcs(const struct opinfo *op) {
  unsigned n = 0;
  while (n < 3 && op->src[n] != T_NONE) n++;
  return n;
}

/* True if any of the first n 9-bit source fields is the literal code. */
static bool uses_literal(const unsigned *codes, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    if (codes[i] == SRC_LITERAL) return true;
  return false;
}

/* Common tail of VOP1/VOP2/VOPC (e32, SDWA, DPP) decoding. */
static bool decode_vop_e32(const uint32_t *w, unsigned avail, struct inst *in, unsigned src0,
                           unsigned vsrc1, bool has_vsrc1) {
  const struct opinfo *op = in->op;
  unsigned n = count_srcs(op);
  unsigned codes[3] = {src0, has_vsrc1 ? vsrc1 + SRC_VGPR0 : 0, 0};
  in->size = 4;
  if (src0 == SRC_SDWA || src0 == SRC_DPP) {
    if (avail < 2 || (op->flags & OPF_KIMM)) return false;
    uint32_t x = w[1];
    in->size = 8;
    in->words[1] = x;
    if (src0 == SRC_DPP) {
      /* DPP dword (Vega ISA 12.x DPP): src0 VGPR, dpp_ctrl, bound_ctrl,
       * neg/abs of src0 and src1, bank_mask, row_mask. */
      in->dpp = 1;
      codes[0] = bits(x, 0, 8) + SRC_VGPR0;
      in->dpp_ctrl = (uint16_t)bits(x, 8, 9);
      in->bound_ctrl = (uint8_t)bits(x, 19, 1);
      in->neg = (uint8_t)(bits(x, 20, 1) | bits(x, 22, 1) << 1);
      in->abs = (uint8_t)(bits(x, 21, 1) | bits(x, 23, 1) << 1);
      in->bank_mask = (uint8_t)bits(x, 24, 4);
      in->row_mask = (uint8_t)bits(x, 28, 4);
    } else {
      /* SDWA dword (gfx9): src0, dst_sel, dst_unused, clamp, omod, src0
       * sel/sext/neg/abs, s0, src1 sel/sext/neg/abs, s1; VOPC: sdst, sd. */
      in->sdwa = 1;
      codes[0] = bits(x, 0, 8) + (bits(x, 23, 1) ? 0 : SRC_VGPR0);
      if (has_vsrc1 && bits(x, 31, 1)) codes[1] = vsrc1; /* s1: src1 is a scalar operand */
      in->dst_sel = (uint8_t)bits(x, 8, 3);
      in->dst_unused = (uint8_t)bits(x, 11, 2);
      in->clamp = (uint8_t)bits(x, 13, 1);
      in->omod = (uint8_t)bits(x, 14, 2);
      in->src_sel[0] = (uint8_t)bits(x, 16, 3);
      in->src_sel[1] = (uint8_t)bits(x, 24, 3);
      in->src_sext = (uint8_t)(bits(x, 19, 1) | bits(x, 27, 1) << 1);
      in->neg = (uint8_t)(bits(x, 20, 1) | bits(x, 28, 1) << 1);
      in->abs = (uint8_t)(bits(x, 21, 1) | bits(x, 29, 1) << 1);
      if (in->enc == ENC_VOPC) {
        in->clamp = 0;
        in->omod = 0;
        if (bits(x, 15, 1)) in->sdst = (uint16_t)bits(x, 8, 7);
        in->dst_sel = 6;
      }
    }
  } else if (uses_literal(codes, 2) || (op->flags & OPF_KIMM)) {
    if (avail < 2) return false;
    in->literal = w[1];
    in->words[1] = w[1];
    in->size = 8;
  }
  /* Operand order of the special VOP2 forms. */
  if (op->flags & OPF_KIMM) {
    /* v_madmk: D = S0 * K + S1; v_madak: D = S0 * S1 + K (K = literal). */
    bool madmk = in->opcode == 0x117 || in->opcode == 0x124;
    codes[2] = madmk ? codes[1] : SRC_LITERAL;
    if (madmk) codes[1] = SRC_LITERAL;
    n = 3;
  }
  in->nsrc = (uint8_t)n;
  for (unsigned i = 0; i < n; i++) {
    unsigned code = codes[i];
    if (i == 2 && !(op->flags & OPF_KIMM)) {
      if (op->src[2] == T_MASK) { /* e32 reads VCC (vcc_src) */
        in->src[2].kind = SRC_KIND_SGPR;
        in->src[2].index = SREG_VCC_LO;
        continue;
      }
      code = in->vdst + SRC_VGPR0; /* v_mac: S2 = D */
    }
    if (!decode_src(code, (enum optype)op->src[i], in->literal, &in->src[i])) return false;
  }
  if (in->dpp && in->src[0].kind != SRC_KIND_VGPR) return false;
  return true;
}

static bool decode_valu(const uint32_t *w, unsigned avail, struct inst *in) {
  uint32_t w0 = w[0];
  unsigned src0 = bits(w0, 0, 9);
  if (in->enc == ENC_VOP2) {
    in->opcode = (uint16_t)(0x100 + bits(w0, 25, 6));
    in->vdst = (uint16_t)bits(w0, 17, 8);
    in->op = valu_opinfo(in->opcode);
    if (!in->op || (in->op->flags & OPF_VOP3_ONLY)) return false;
    in->sdst = SREG_VCC_LO;
    return decode_vop_e32(w, avail, in, src0, bits(w0, 9, 8), true);
  }
  if (in->enc == ENC_VOP1) {
    in->opcode = (uint16_t)(0x140 + bits(w0, 9, 8));
    in->vdst = (uint16_t)bits(w0, 17, 8);
    in->op = valu_opinfo(in->opcode);
    if (!in->op || (in->op->flags & OPF_VOP3_ONLY)) return false;
    in->sdst = in->vdst; /* v_readfirstlane: the destination is an SGPR */
    if ((in->op->flags & OPF_SDST_SGPR) && in->sdst >= 128) return false;
    return decode_vop_e32(w, avail, in, src0, 0, false);
  }
  /* VOPC */
  in->opcode = (uint16_t)bits(w0, 17, 8);
  in->op = valu_opinfo(in->opcode);
  if (!in->op) return false;
  in->sdst = SREG_VCC_LO;
  return decode_vop_e32(w, avail, in, src0, bits(w0, 9, 8), true);
}

static bool decode_vop3(const uint32_t *w, unsigned avail, struct inst *in) {
  if (avail < 2) return false;
  uint32_t w0 = w[0], w1 = w[1];
  in->size = 8;
  in->words[1] = w1;
  in->opcode = (uint16_t)bits(w0, 16, 10);
  in->op = valu_opinfo(in->opcode);
  if (!in->op) return false;
  const struct opinfo *op = in->op;
  in->vdst = (uint16_t)bits(w0, 0, 8);
  in->clamp = (uint8_t)bits(w0, 15, 1);
  if (op->flags & OPF_SDST) { /* VOP3B */
    in->sdst = (uint16_t)bits(w0, 8, 7);
  } else {
    in->abs = (uint8_t)bits(w0, 8, 3);
    in->op_sel = (uint8_t)bits(w0, 11, 4);
  }
  if (in->opcode < 0x100) in->sdst = in->vdst; /* VOPC: the destination is an SGPR pair */
  if (op->flags & OPF_SDST_SGPR) in->sdst = in->vdst; /* v_readlane, v_readfirstlane */
  in->omod = (uint8_t)bits(w1, 27, 2);
  in->neg = (uint8_t)bits(w1, 29, 3);
  unsigned codes[3] = {bits(w1, 0, 9), bits(w1, 9, 9), bits(w1, 18, 9)};
  unsigned n = count_srcs(op);
  in->nsrc = (uint8_t)n;
  if (op->flags & OPF_KIMM) return false; /* madmk/madak have no VOP3 form */
  for (unsigned i = 0; i < n; i++) {
    unsigned code = codes[i];
    if (code == SRC_LITERAL || code == SRC_SDWA || code == SRC_DPP) return false; /* no literal in gfx9 VOP3 */
    if (i == 2 && (in->opcode == 0x116 || in->opcode == 0x123)) code = in->vdst + SRC_VGPR0; /* v_mac */
    if (!decode_src(code, (enum optype)op->src[i], 0, &in->src[i])) return false;
  }
  return true;
}

static bool decode_vop3p(const uint32_t *w, unsigned avail, struct inst *in) {
  if (avail < 2) return false;
  uint32_t w0 = w[0], w1 = w[1];
  in->size = 8;
  in->words[1] = w1;
  in->opcode = (uint16_t)bits(w0, 16, 7);
  in->op = optable_find(&optab_vop3p, in->opcode);
  if (!in->op) return false;
  in->vdst = (uint16_t)bits(w0, 0, 8);
  in->neg_hi = (uint8_t)bits(w0, 8, 3);
  in->op_sel = (uint8_t)bits(w0, 11, 3);
  in->op_sel_hi = (uint8_t)(bits(w1, 27, 2) | bits(w0, 14, 1) << 2);
  in->clamp = (uint8_t)bits(w0, 15, 1);
  in->neg = (uint8_t)bits(w1, 29, 3);
  unsigned codes[3] = {bits(w1, 0, 9), bits(w1, 9, 9), bits(w1, 18, 9)};
  unsigned n = count_srcs(in->op);
  in->nsrc = (uint8_t)n;
  for (unsigned i = 0; i < n; i++) {
    if (codes[i] == SRC_LITERAL || codes[i] == SRC_SDWA || codes[i] == SRC_DPP) return false;
    if (!decode_src(codes[i], (enum optype)in->op->src[i], 0, &in->src[i])) return false;
  }
  return true;
}

/* Scalar source fields may name a literal: then one dword follows. */
static bool scalar_literal(const uint32_t *w, unsigned avail, struct inst *in, unsigned n) {
  for (unsigned i = 0; i < n; i++) {
    unsigned c = in->ssrc[i];
    if (c == SRC_LITERAL) {
      if (avail < 2) return false;
      in->literal = w[1];
      in->words[1] = w[1];
      in->size = 8;
    } else if (c == 125 || (c > 208 && c < 235) || (c > 248 && c < 251) || c == SRC_LDS_DIRECT ||
               c == 239) {
      return false;
    }
  }
  return true;
}

static bool decode_scalar(const uint32_t *w, unsigned avail, struct inst *in) {
  uint32_t w0 = w[0];
  in->size = 4;
  switch (in->enc) {
  case ENC_SOP2:
    in->opcode = (uint16_t)bits(w0, 23, 7);
    in->op = optable_find(&optab_sop2, in->opcode);
    in->sdst = (uint16_t)bits(w0, 16, 7);
    in->ssrc[0] = (uint16_t)bits(w0, 0, 8);
    in->ssrc[1] = (uint16_t)bits(w0, 8, 8);
    if (!in->op) return false;
    return scalar_literal(w, avail, in, 2);
  case ENC_SOPK:
    in->opcode = (uint16_t)bits(w0, 23, 5);
    in->op = optable_find(&optab_sopk, in->opcode);
    in->sdst = (uint16_t)bits(w0, 16, 7);
    if (!in->op) return false;
    in->simm = (in->op->flags & OPF_SCALAR_SIMM) ? (int16_t)bits(w0, 0, 16) : (int32_t)bits(w0, 0, 16);
    if (in->op->flags & OPF_KIMM) { /* s_setreg_imm32_b32: a literal follows */
      if (avail < 2) return false;
      in->literal = w[1];
      in->words[1] = w[1];
      in->size = 8;
    }
    return true;
  case ENC_SOP1:
    in->opcode = (uint16_t)bits(w0, 8, 8);
    in->op = optable_find(&optab_sop1, in->opcode);
    in->sdst = (uint16_t)bits(w0, 16, 7);
    in->ssrc[0] = (uint16_t)bits(w0, 0, 8);
    if (!in->op) return false;
    return scalar_literal(w, avail, in, 1);
  case ENC_SOPC:
    in->opcode = (uint16_t)bits(w0, 16, 7);
    in->op = optable_find(&optab_sopc, in->opcode);
    in->ssrc[0] = (uint16_t)bits(w0, 0, 8);
    in->ssrc[1] = (uint16_t)bits(w0, 8, 8);
    if (!in->op) return false;
    return scalar_literal(w, avail, in, 2);
  default: /* SOPP */
    in->opcode = (uint16_t)bits(w0, 16, 7);
    in->op = optable_find(&optab_sopp, in->opcode);
    in->simm = (int16_t)bits(w0, 0, 16);
    return in->op != NULL;
  }
}

static bool decode_smem(const uint32_t *w, unsigned avail, struct inst *in) {
  if (avail < 2) return false;
  uint32_t w0 = w[0], w1 = w[1];
  in->size = 8;
  in->words[1] = w1;
  in->opcode = (uint16_t)bits(w0, 18, 8);
  in->op = optable_find(&optab_smem, in->opcode);
  if (!in->op) return false;
  in->ssrc[0] = (uint16_t)(bits(w0, 0, 6) * 2); /* sbase: SGPR pair (quad for buffers) */
  in->sdst = (uint16_t)bits(w0, 6, 7);            /* sdata */
  in->glc = (uint8_t)bits(w0, 16, 1);
  in->smem_imm = (uint8_t)bits(w0, 17, 1);
  bool soe = bits(w0, 14, 1);
  if (in->smem_imm) {
    in->offset = (int32_t)(w1 << 11) >> 11; /* 21-bit signed (gfx9) */
    in->soffset = soe ? (uint16_t)bits(w1, 25, 7) : 0xffff;
  } else {
    in->offset = 0;
    in->soffset = (uint16_t)bits(w1, 0, 8); /* the offset is this SGPR's value */
  }
  return true;
}

static bool decode_ds(const uint32_t *w, unsigned avail, struct inst *in) {
  if (avail < 2) return false;
  uint32_t w0 = w[0], w1 = w[1];
  in->size = 8;
  in->words[1] = w1;
  in->opcode = (uint16_t)bits(w0, 17, 8);
  in->op = optable_find(&optab_ds, in->opcode);
  if (!in->op) return false;
  in->offset = (int32_t)bits(w0, 0, 16); /* offset0 | offset1 << 8 */
  in->gds = (uint8_t)bits(w0, 16, 1);
  in->vaddr = (uint16_t)bits(w1, 0, 8);
  in->vdata = (uint16_t)bits(w1, 8, 8);  /* data0 */
  in->saddr = (uint16_t)bits(w1, 16, 8); /* data1 */
  in->vdst = (uint16_t)bits(w1, 24, 8);
  return !in->gds; /* GDS is not part of the model */
}

static bool decode_flat(const uint32_t *w, unsigned avail, struct inst *in) {
  if (avail < 2) return false;
  uint32_t w0 = w[0], w1 = w[1];
  in->size = 8;
  in->words[1] = w1;
  in->opcode = (uint16_t)bits(w0, 18, 7);
  in->seg = (uint8_t)bits(w0, 14, 2);
  if (in->seg == 3) return false;
  const struct opinfo *op = optable_find(&optab_flat, in->opcode);
  /* Scratch has no atomics (Vega ISA 9.x "Scratch" opcode list). */
  if (!op || (in->seg == 1 && in->opcode >= 64)) return false;
  in->op = op;
  /* Offset: 12-bit unsigned for FLAT, 13-bit signed for GLOBAL/SCRATCH. */
  in->offset = in->seg == 0 ? (int32_t)bits(w0, 0, 12) : (int32_t)(w0 << 19) >> 19;
  in->lds = (uint8_t)bits(w0, 13, 1);
  in->glc = (uint8_t)bits(w0, 16, 1);
  in->slc = (uint8_t)bits(w0, 17, 1);
  in->vaddr = (uint16_t)bits(w1, 0, 8);
  in->vdata = (uint16_t)bits(w1, 8, 8);
  in->saddr = (uint16_t)bits(w1, 16, 7);
  in->vdst = (uint16_t)bits(w1, 24, 8);
  if (in->lds) return false;
  if (in->seg != 0 && in->saddr != 0x7f && (in->saddr >= 126 || in->saddr == 125)) return false;
  return true;
}

static bool decode_mubuf(const uint32_t *w, unsigned avail, struct inst *in) {
  if (avail < 2) return false;
  uint32_t w0 = w[0], w1 = w[1];
  in->size = 8;
  in->words[1] = w1;
  in->opcode = (uint16_t)bits(w0, 18, 7);
  in->op = optable_find(&optab_mubuf, in->opcode);
  if (!in->op) return false;
  in->offset = (int32_t)bits(w0, 0, 12);
  in->offen = (uint8_t)bits(w0, 12, 1);
  in->idxen = (uint8_t)bits(w0, 13, 1);
  in->glc = (uint8_t)bits(w0, 14, 1);
  in->lds = (uint8_t)bits(w0, 16, 1);
  in->slc = (uint8_t)bits(w0, 17, 1);
  in->vaddr = (uint16_t)bits(w1, 0, 8);
  in->vdata = (uint16_t)bits(w1, 8, 8);
  in->srsrc = (uint8_t)(bits(w1, 16, 5) * 4);
  in->tfe = (uint8_t)bits(w1, 23, 1);
  in->soffset = (uint16_t)bits(w1, 24, 8);
  if (in->lds || in->tfe || in->srsrc > 124) return false;
  unsigned so = in->soffset;
  return so < 125 || so == 126 || so == 127 || (so >= 128 && so <= 208);
}

/* Sources that vsrc32 (valu.c) reads as they are: a VGPR without a DPP
 * lane move (source 0), an SDWA select (sources 0-1), a VOP3 op_sel half
 * (16-bit operands) or an abs/neg modifier (float operands). */
static void mark_plain_sources(struct inst *in) {
  for (unsigned i = 0; i < 3; i++) {
    struct src *s = &in->src[i];
    enum optype t = (enum optype)in->op->src[i];
    bool f16 = t == T_F16 || t == T_B16;
    bool float_mods = (in->op->flags & OPF_FLOAT) && (t == T_F32 || t == T_F16) &&
                      (((in->abs | in->neg) >> i) & 1);
    s->plain = s->kind == SRC_KIND_VGPR && !(i == 0 && in->dpp) && !(in->sdwa && i < 2) &&
               !(in->enc == ENC_VOP3 && f16 && ((in->op_sel >> i) & 1)) && !float_mods;
  }
}

bool decode_words(const uint32_t *words, unsigned avail, struct inst *in) {
  memset(in, 0, sizeof *in);
  if (avail < 1) return false;
  uint32_t w0 = words[0];
  in->words[0] = w0;
  if ((w0 >> 31) == 0) {
    unsigned hi7 = w0 >> 25;
    in->enc = hi7 == 0x3f ? ENC_VOP1 : hi7 == 0x3e ? ENC_VOPC : ENC_VOP2;
    if (!decode_valu(words, avail, in)) return false;
  } else if ((w0 >> 30) == 2) {
    unsigned hi9 = w0 >> 23;
    if (hi9 == 0x17d) in->enc = ENC_SOP1;
    else if (hi9 == 0x17e) in->enc = ENC_SOPC;
    else if (hi9 == 0x17f) in->enc = ENC_SOPP;
    else if ((w0 >> 28) == 0xb) in->enc = ENC_SOPK;
    else in->enc = ENC_SOP2;
    if (!decode_scalar(words, avail, in)) return false;
  } else {
    switch (w0 >> 26) {
    case 0x30: in->enc = ENC_SMEM; if (!decode_smem(words, avail, in)) return false; break;
    case 0x34:
      if ((w0 >> 23) == 0x1a7) {
        in->enc = ENC_VOP3P;
        if (!decode_vop3p(words, avail, in)) return false;
      } else {
        in->enc = ENC_VOP3;
        if (!decode_vop3(words, avail, in)) return false;
      }
      break;
    case 0x36: in->enc = ENC_DS; if (!decode_ds(words, avail, in)) return false; break;
    case 0x37: in->enc = ENC_FLAT; if (!decode_flat(words, avail, in)) return false; break;
    case 0x38: in->enc = ENC_MUBUF; if (!decode_mubuf(words, avail, in)) return false; break;
    default: return false; /* MTBUF, MIMG, EXP, VINTRP: not used by compute kernels */
    }
  }
  in->fn = in->op->fn;
  if (in->enc >= ENC_VOP2 && in->enc <= ENC_VOP3) mark_plain_sources(in);
  return in->fn != NULL;
}

/* ---- The decoded-instruction cache ---------------------------------------
 * Direct-mapped on the dword address; an entry is valid while its tag (the
 * PC) matches and it was decoded in the cache's epoch. vapu_dispatch_begin
 * empties it (new code may sit at old addresses between dispatches) by
 * starting a new epoch, which costs nothing a dispatch, where writing all
 * 4096 tags cost microseconds (every entry a cache line). */
void icache_invalidate(struct vapu_exec *x) {
  if (++x->icache_epoch != 0) return;
  for (unsigned i = 0; i < ICACHE_ENTRIES; i++) x->icache[i].epoch = 0;
  x->icache_epoch = 1;
}

const struct inst *fetch_decode(struct wave *w) {
  struct vapu_exec *x = w->x;
  uint64_t pc = w->pc;
  struct inst *slot = &x->icache[(pc >> 2) & (ICACHE_ENTRIES - 1)];
  if (slot->pc == pc && slot->fn && slot->epoch == x->icache_epoch) return slot;

  uint32_t words[3] = {0, 0, 0};
  uint64_t fault = 0, span = 0;
  const uint8_t *p = (pc & 3) ? NULL : mem_span(x, pc, VAPU_ACCESS_EXEC, &span, &fault);
  if (!p || (span < 4 && !mem_fetch(x, pc, words, 4, &fault))) {
    struct inst dummy = {.pc = pc};
    wave_fault(w, &dummy, VAPU_MEMORY_FAULT, (pc & 3) ? pc : fault, VAPU_ACCESS_EXEC);
    return NULL;
  }
  /* An entry of an earlier epoch for this PC serves again when the words
   * just fetched are still those it was decoded from: new code at an old
   * address is decoded anew, the same code is not. */
  if (slot->pc == pc && slot->fn && span >= slot->size && memcmp(p, slot->words, slot->size) == 0) {
    slot->epoch = x->icache_epoch;
    return slot;
  }
  /* An instruction is one to three dwords. Those in the page of its first
   * dword come at once. When the page ends first, the words it lacks are
   * fetched (and may fault) only if its encoding says it has them: the
   * size comes from decoding it with zeros in their place (a literal or an
   * SDWA/DPP word never changes the size). So code that ends just before
   * an unmapped page runs, and an unknown word there stays illegal. */
  unsigned avail = span >= sizeof words ? 3 : (unsigned)(span / 4);
  if (avail) memcpy(words, p, avail * 4);
  else avail = 1;
  x->stats.decoded++;
  struct inst sized;
  if (avail < 3 && decode_words(words, 3, &sized))
    for (; avail * 4 < sized.size; avail++)
      if (!mem_fetch(x, pc + 4 * avail, &words[avail], 4, &fault)) {
        struct inst dummy = {.pc = pc};
        wave_fault(w, &dummy, VAPU_MEMORY_FAULT, fault, VAPU_ACCESS_EXEC);
        return NULL;
      }
  bool decoded = decode_words(words, avail, slot);
  if (!decoded) {
    struct inst bad;
    memset(&bad, 0, sizeof bad);
    bad.pc = pc;
    memcpy(bad.words, words, sizeof words);
    bad.size = (uint8_t)(avail * 4);
    slot->pc = 0;
    slot->fn = NULL;
    wave_stop(w, &bad, VAPU_ILLEGAL_INSTRUCTION, "illegal instruction %08x %08x at 0x%llx",
              words[0], words[1], (unsigned long long)pc);
    return NULL;
  }
  slot->pc = pc;
  slot->epoch = x->icache_epoch;
  return slot;
}
