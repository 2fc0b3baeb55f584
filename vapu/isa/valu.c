/*
 * valu.c - source fetch and result write shared by every VALU instruction:
 * DPP, SDWA, VOP3 op_sel, input/output modifiers, EXEC (see valu.h).
 */
#include "vapu/isa/valu.h"

const uint32_t lane_bit32[32] = {
    1u << 0,  1u << 1,  1u << 2,  1u << 3,  1u << 4,  1u << 5,  1u << 6,  1u << 7,
    1u << 8,  1u << 9,  1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15,
    1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20, 1u << 21, 1u << 22, 1u << 23,
    1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, 1u << 31};

/* ---- DPP (Vega ISA 6.6; dpp_ctrl values: LLVM SIDefines.h DppCtrl) -------
 * For each lane, the lane whose src0 it reads, or -1 when there is none. */
static int dpp_source_lane(unsigned ctrl, int l) {
  int row = l & ~15, in_row = l & 15;
  if (ctrl <= 0xff) /* quad_perm */
    return (l & ~3) | ((ctrl >> ((l & 3) * 2)) & 3);
  if (ctrl >= 0x101 && ctrl <= 0x10f) { /* row_shl:n - lane reads lane + n */
    int s = in_row + (int)(ctrl & 15);
    return s < 16 ? row + s : -1;
  }
  if (ctrl >= 0x111 && ctrl <= 0x11f) { /* row_shr:n - lane reads lane - n */
    int s = in_row - (int)(ctrl & 15);
    return s >= 0 ? row + s : -1;
  }
  if (ctrl >= 0x121 && ctrl <= 0x12f) /* row_ror:n */
    return row + ((in_row - (int)(ctrl & 15)) & 15);
  switch (ctrl) {
  case 0x130: return l + 1 < LANES ? l + 1 : -1;     /* wave_shl:1 */
  case 0x134: return (l + 1) & (LANES - 1);          /* wave_rol:1 */
  case 0x138: return l >= 1 ? l - 1 : -1;            /* wave_shr:1 */
  case 0x13c: return (l - 1) & (LANES - 1);          /* wave_ror:1 */
  case 0x140: return row + (15 - in_row);            /* row_mirror */
  case 0x141: return row + ((in_row & 8) | (7 - (in_row & 7))); /* row_half_mirror */
  case 0x142: return l >= 16 ? row - 1 : -1;         /* row_bcast:15 */
  case 0x143: return l >= 32 ? 31 : -1;              /* row_bcast:31 */
  default: return -1;
  }
}

/* A source lane is usable if it exists and is active (reading an inactive
 * lane behaves as an out-of-range one). */
static bool dpp_valid(uint64_t exec, int s) { return s >= 0 && ((exec >> s) & 1); }

uint64_t vwrite_mask_dpp(struct wave *w, const struct inst *in) {
  uint64_t m = exec_mask(w);
  uint64_t exec = m;
  FOR_LANES(l) {
    unsigned row = l >> 4, bank = (l >> 2) & 3;
    bool on = ((in->row_mask >> row) & 1) && ((in->bank_mask >> bank) & 1);
    /* bound_ctrl set: an invalid source reads 0; clear: the lane is not written. */
    if (!in->bound_ctrl && !dpp_valid(exec, dpp_source_lane(in->dpp_ctrl, (int)l))) on = false;
    if (!on) m &= ~(1ull << l);
  }
  return m;
}

/* ---- SDWA selects (Vega ISA 6.5: SEL BYTE_0..3 = 0..3, WORD_0/1 = 4/5,
 * DWORD = 6; sext sign-extends the selected field). */
static uint32_t sdwa_select(uint32_t v, unsigned sel, bool sext) {
  switch (sel) {
  case 0: case 1: case 2: case 3: {
    uint32_t b = (v >> (8 * sel)) & 0xff;
    return sext ? (uint32_t)(int32_t)(int8_t)b : b;
  }
  case 4: case 5: {
    uint32_t h = (v >> (16 * (sel - 4))) & 0xffff;
    return sext ? (uint32_t)(int32_t)(int16_t)h : h;
  }
  default: return v;
  }
}

static uint32_t src_scalar_value(struct wave *w, const struct src *s) {
  switch (s->kind) {
  case SRC_KIND_SGPR: return w->s[s->index];
  case SRC_KIND_CONST: return (uint32_t)s->value;
  default: return scalar_src32(w, s->index, 0);
  }
}

const uint32_t *vsrc32_general(struct wave *w, const struct inst *in, unsigned i, uint32_t *buf) {
  const struct src *s = &in->src[i];
  const uint32_t *p;
  if (s->kind == SRC_KIND_VGPR) {
    p = w->v[s->index];
  } else {
    uint32_t v = src_scalar_value(w, s);
    FOR_LANES(l) buf[l] = v;
    p = buf;
  }
  if (i == 0 && in->dpp) {
    uint64_t exec = exec_mask(w);
    uint32_t tmp[LANES];
    FOR_LANES(l) {
      int sl = dpp_source_lane(in->dpp_ctrl, (int)l);
      tmp[l] = dpp_valid(exec, sl) ? p[sl] : 0;
    }
    memcpy(buf, tmp, sizeof tmp);
    p = buf;
  }
  enum optype t = (enum optype)in->op->src[i];
  bool f16 = t == T_F16 || t == T_B16;
  bool hi = in->enc == ENC_VOP3 && f16 && ((in->op_sel >> i) & 1);
  bool sdwa = in->sdwa && i < 2;
  uint32_t mod_mask = 0, abs_clear = ~0u, neg_flip = 0;
  if ((in->op->flags & OPF_FLOAT) && (t == T_F32 || t == T_F16)) {
    mod_mask = t == T_F16 ? 0x8000u : 0x80000000u;
    if ((in->abs >> i) & 1) abs_clear = ~mod_mask;
    if ((in->neg >> i) & 1) neg_flip = mod_mask;
  }
  if (!hi && !sdwa && abs_clear == ~0u && !neg_flip) return p;
  unsigned sel = sdwa ? in->src_sel[i] : 6;
  bool sext = sdwa && ((in->src_sext >> i) & 1);
  FOR_LANES(l) {
    uint32_t v = p[l];
    if (hi) v >>= 16;
    if (sdwa) v = sdwa_select(v, sel, sext);
    buf[l] = (v & abs_clear) ^ neg_flip;
  }
  return buf;
}

void vsrc64(struct wave *w, const struct inst *in, unsigned i, uint64_t *out) {
  const struct src *s = &in->src[i];
  if (s->kind == SRC_KIND_VGPR) {
    const uint32_t *lo = w->v[s->index], *hi = w->v[(s->index + 1) & (NUM_VGPRS - 1)];
    FOR_LANES(l) out[l] = (uint64_t)hi[l] << 32 | lo[l];
  } else {
    uint64_t v;
    if (s->kind == SRC_KIND_SGPR) v = sreg64(w, s->index);
    else if (s->kind == SRC_KIND_CONST) v = s->value;
    else v = scalar_src64(w, s->index, 0, (enum optype)in->op->src[i]);
    FOR_LANES(l) out[l] = v;
  }
  if ((in->op->flags & OPF_FLOAT) && in->op->src[i] == T_F64) {
    uint64_t clear = ((in->abs >> i) & 1) ? ~(1ull << 63) : ~0ull;
    uint64_t flip = ((in->neg >> i) & 1) ? 1ull << 63 : 0;
    if (clear != ~0ull || flip) FOR_LANES(l) out[l] = (out[l] & clear) ^ flip;
  }
}

/* Merges `r` into `d` for the lanes in `m`: all of them, a few one by one,
 * or a blend through per-lane select words (it vectorises). */
static void merge32(uint32_t *d, const uint32_t *r, uint64_t m) {
  if (m == ~0ull) {
    memcpy(d, r, LANES * sizeof *d);
    return;
  }
  if (lane_count(m) < 8) {
    for (; m; m &= m - 1) d[__builtin_ctzll(m)] = r[__builtin_ctzll(m)];
    return;
  }
  uint32_t sel[LANES];
  unpack_lane_bits(m, sel);
  FOR_LANES(l) d[l] = (r[l] & (0u - sel[l])) | (d[l] & (sel[l] - 1u));
}

void vdst32(struct wave *w, const struct inst *in, const uint32_t *r) {
  uint64_t m = vwrite_mask(w, in);
  uint32_t *d = w->v[in->vdst];
  uint32_t tmp[LANES];
  enum optype t = (enum optype)in->op->dst;
  if (in->sdwa) {
    /* dst_sel places the result's low bits; dst_unused says what the rest
     * of the register becomes: 0 pad with zeros, 1 sign-extend, 2 keep. */
    unsigned sel = in->dst_sel;
    if (sel >= 6) {
      merge32(d, r, m);
      return;
    }
    unsigned shift = sel < 4 ? 8 * sel : 16 * (sel - 4), width = sel < 4 ? 8 : 16;
    uint32_t field = ((1u << width) - 1) << shift;
    FOR_LANES(l) {
      uint32_t v = (r[l] << shift) & field;
      if (in->dst_unused == 2) {
        v |= d[l] & ~field;
      } else if (in->dst_unused == 1 && ((v >> (shift + width - 1)) & 1)) {
        v |= shift + width >= 32 ? 0 : ~0u << (shift + width);
      }
      tmp[l] = v;
    }
    merge32(d, tmp, m);
    return;
  }
  if (t == T_F16 || t == T_B16) {
    if (in->op->flags & OPF_OPSEL_PRESERVE) {
      bool hi = in->enc == ENC_VOP3 && ((in->op_sel >> 3) & 1);
      FOR_LANES(l) tmp[l] = hi ? ((d[l] & 0xffffu) | r[l] << 16) : ((d[l] & 0xffff0000u) | (r[l] & 0xffffu));
    } else {
      FOR_LANES(l) tmp[l] = r[l] & 0xffffu;
    }
    merge32(d, tmp, m);
    return;
  }
  merge32(d, r, m);
}

void vdst64(struct wave *w, const struct inst *in, const uint64_t *r) {
  uint64_t m = vwrite_mask(w, in);
  uint32_t *lo = w->v[in->vdst], *hi = w->v[(in->vdst + 1) & (NUM_VGPRS - 1)];
  if (m == ~0ull) {
    FOR_LANES(l) lo[l] = (uint32_t)r[l];
    FOR_LANES(l) hi[l] = (uint32_t)(r[l] >> 32);
    return;
  }
  FOR_LANES(l) {
    if ((m >> l) & 1) {
      lo[l] = (uint32_t)r[l];
      hi[l] = (uint32_t)(r[l] >> 32);
    }
  }
}

/* ---- Output modifiers (Vega ISA 6.2: OMOD 1 = *2, 2 = *4, 3 = /2, then
 * CLAMP to [0, 1]; with MODE.DX10_CLAMP a NaN clamps to 0). */
void vfinish_f32(struct wave *w, const struct inst *in, uint32_t *r) {
  static const float omod_scale[4] = {1.0f, 2.0f, 4.0f, 0.5f};
  unsigned omod = in->omod;
  if (omod) FOR_LANES(l) r[l] = f32_bits(f32_from_bits(r[l]) * omod_scale[omod]);
  if (in->clamp) {
    bool dx10 = w->mode & MODE_DX10_CLAMP;
    FOR_LANES(l) {
      uint32_t x = r[l];
      if (f32_is_nan(x)) r[l] = dx10 ? 0 : x;
      else if (x >> 31) r[l] = 0;                 /* negative, -0 included */
      else if (x > 0x3f800000u) r[l] = 0x3f800000u; /* above 1.0 */
    }
  }
  if (!(MODE_DENORM32(w->mode) & DENORM_KEEP_OUT)) FOR_LANES(l) r[l] = f32_flush(r[l]);
}

void vfinish_f64(struct wave *w, const struct inst *in, uint64_t *r) {
  static const double omod_scale[4] = {1.0, 2.0, 4.0, 0.5};
  unsigned omod = in->omod;
  if (omod) FOR_LANES(l) r[l] = f64_bits(f64_from_bits(r[l]) * omod_scale[omod]);
  if (in->clamp) {
    bool dx10 = w->mode & MODE_DX10_CLAMP;
    FOR_LANES(l) {
      uint64_t x = r[l];
      if (f64_is_nan(x)) r[l] = dx10 ? 0 : x;
      else if (x >> 63) r[l] = 0;
      else if (x > 0x3ff0000000000000ull) r[l] = 0x3ff0000000000000ull;
    }
  }
  if (!(MODE_DENORM64(w->mode) & DENORM_KEEP_OUT)) FOR_LANES(l) r[l] = f64_flush(r[l]);
}

void vfinish_f16(struct wave *w, const struct inst *in, uint32_t *r) {
  unsigned omod = in->omod;
  if (omod) {
    static const float omod_scale[4] = {1.0f, 2.0f, 4.0f, 0.5f};
    unsigned rnd = mode_round64(w);
    FOR_LANES(l) r[l] = fp_f32_to_f16(fp_f16_to_f32((uint16_t)r[l]) * omod_scale[omod], (int)rnd);
  }
  if (in->clamp) {
    bool dx10 = w->mode & MODE_DX10_CLAMP;
    FOR_LANES(l) {
      uint16_t x = (uint16_t)r[l];
      if (f16_is_nan(x)) r[l] = dx10 ? 0 : x;
      else if (x >> 15) r[l] = 0;
      else if (x > 0x3c00u) r[l] = 0x3c00u;
    }
  }
  if (!(MODE_DENORM64(w->mode) & DENORM_KEEP_OUT)) FOR_LANES(l) r[l] = f16_flush((uint16_t)r[l]);
}

const uint32_t *vflush_in_f32(struct wave *w, const uint32_t *src, uint32_t *buf) {
  if (MODE_DENORM32(w->mode) & DENORM_KEEP_IN) return src;
  FOR_LANES(l) buf[l] = f32_flush(src[l]);
  return buf;
}

const uint32_t *vflush_in_f16(struct wave *w, const uint32_t *src, uint32_t *buf) {
  if (MODE_DENORM64(w->mode) & DENORM_KEEP_IN) return src;
  FOR_LANES(l) buf[l] = f16_flush((uint16_t)src[l]) | (src[l] & 0xffff0000u);
  return buf;
}

void vflush_in_f64(struct wave *w, uint64_t *src) {
  if (MODE_DENORM64(w->mode) & DENORM_KEEP_IN) return;
  FOR_LANES(l) src[l] = f64_flush(src[l]);
}

void vsdst_mask(struct wave *w, unsigned sdst, uint64_t mask) {
  write_sdst64(w, sdst, mask & exec_mask(w));
}

unsigned vcc_dst(const struct inst *in) { return in->sdst; }

uint64_t vcc_src(struct wave *w, const struct inst *in) {
  if (in->enc != ENC_VOP3) return vcc_mask(w);
  const struct src *s = &in->src[2];
  if (s->kind == SRC_KIND_SGPR) return sreg64(w, s->index);
  if (s->kind == SRC_KIND_CONST) return s->value;
  return scalar_src64(w, s->index, 0, T_B64);
}
