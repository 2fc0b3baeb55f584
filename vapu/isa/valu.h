/*
 * valu.h - what every vector ALU instruction does around its arithmetic:
 * read its sources for all 64 lanes (VGPR, SGPR, constant; DPP lane moves,
 * SDWA selects, VOP3 op_sel, abs/neg), and write its result under EXEC (SDWA
 * dst_sel, 16-bit halves, omod/clamp for floats).
 *
 * An operation computes every lane into a local array (cheap, vectorises)
 * and the write keeps inactive lanes; nothing in a lane computation has a
 * side effect, so inactive lanes computing garbage is harmless.
 *
 * Facts: Vega ISA ch. 6 "Vector ALU Operations" (6.2 input/output modifiers,
 * 6.3 16-bit operations, 6.5 SDWA, 6.6 DPP), ch. 12 field layouts.
 */
#ifndef VAPU_ISA_VALU_H
#define VAPU_ISA_VALU_H

#include "vapu/isa/fp.h"
#include "vapu/isa/wave.h"

#define LANES WAVE_LANES
#define FOR_LANES(l) for (unsigned l = 0; l < LANES; l++)

/* A source as 64 lanes of 32 bits (16-bit sources: the selected half in bits
 * 15:0, upper bits zero or per SDWA sext). `buf` holds the values when they
 * are not one VGPR as is; the returned pointer is read-only. */
const uint32_t *vsrc32_general(struct wave *w, const struct inst *in, unsigned i, uint32_t *buf);
static inline const uint32_t *vsrc32(struct wave *w, const struct inst *in, unsigned i,
                                     uint32_t *buf) {
  if (in->src[i].plain) return w->v[in->src[i].index]; /* the common case, decided at decode */
  return vsrc32_general(w, in, i, buf);
}
/* A 64-bit source (register pair or 64-bit constant), modifiers applied. */
void vsrc64(struct wave *w, const struct inst *in, unsigned i, uint64_t *out);

/* Lanes the instruction writes: EXEC, narrowed by DPP row/bank masks and
 * invalid source lanes. */
uint64_t vwrite_mask_dpp(struct wave *w, const struct inst *in);
static inline uint64_t vwrite_mask(struct wave *w, const struct inst *in) {
  return in->dpp ? vwrite_mask_dpp(w, in) : exec_mask(w);
}

/* Whether source i is the same in every lane: a scalar or constant (their
 * modifiers act alike on every lane; DPP takes a VGPR). */
static inline bool vsrc_uniform(const struct inst *in, unsigned i) {
  return in->src[i].kind != SRC_KIND_VGPR;
}

/* Writes 32-bit results `r` to vdst under the write mask, honouring SDWA
 * dst_sel/dst_unused and the 16-bit destination rules of the opcode. */
void vdst32(struct wave *w, const struct inst *in, const uint32_t *r);
void vdst64(struct wave *w, const struct inst *in, const uint64_t *r);

/* Float output modifiers (omod, clamp) and output denormal flush on
 * results in place, per the destination type and MODE. */
void vfinish_f32(struct wave *w, const struct inst *in, uint32_t *r);
void vfinish_f64(struct wave *w, const struct inst *in, uint64_t *r);
void vfinish_f16(struct wave *w, const struct inst *in, uint32_t *r);

/* Flushes input denormals of float sources when MODE says so (copies into
 * buf when the source is a VGPR). Returns the (possibly new) pointer. */
const uint32_t *vflush_in_f32(struct wave *w, const uint32_t *src, uint32_t *buf);
const uint32_t *vflush_in_f16(struct wave *w, const uint32_t *src, uint32_t *buf);
void vflush_in_f64(struct wave *w, uint64_t *src);

/* Writes a lane mask to a scalar destination pair (VCC or SGPRs) as the
 * VOPC/carry-out results do: inactive lanes read as 0. */
void vsdst_mask(struct wave *w, unsigned sdst, uint64_t mask);
/* Scalar destination of a VOPC or carry result: VCC for e32, the SDST
 * field for VOP3B/e64 and SDWA with sd. */
unsigned vcc_dst(const struct inst *in);
/* Carry-in / mask source: VCC for e32, src2 (an SGPR pair) for e64. */
uint64_t vcc_src(struct wave *w, const struct inst *in);

/* Lane mask from per-lane 0/1 bytes; and from bit 31 of per-lane words.
 * On x86-64 (SSE2 is part of it) sixteen or four lanes a step with the
 * move-mask instructions, which take the top bit of each element. */
#if defined(__SSE2__)
#include <emmintrin.h>
static inline uint64_t pack_lane_bits(const uint8_t *v) {
  uint64_t m = 0;
  for (unsigned l = 0; l < LANES; l += 16) {
    __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(v + l));
    b = _mm_sub_epi8(_mm_setzero_si128(), b); /* 1 -> 0xff */
    m |= (uint64_t)(uint32_t)_mm_movemask_epi8(b) << l;
  }
  return m;
}
static inline uint64_t pack_lane_msbs(const uint32_t *v) {
  uint64_t m = 0;
  for (unsigned l = 0; l < LANES; l += 4)
    m |= (uint64_t)(uint32_t)_mm_movemask_ps(
             _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(const void *)(v + l))))
         << l;
  return m;
}
#else
static inline uint64_t pack_lane_bits(const uint8_t *v) {
  uint64_t m = 0;
  for (unsigned l = 0; l < LANES; l++) m |= (uint64_t)v[l] << l;
  return m;
}
static inline uint64_t pack_lane_msbs(const uint32_t *v) {
  uint64_t m = 0;
  for (unsigned l = 0; l < LANES; l++) m |= (uint64_t)(v[l] >> 31) << l;
  return m;
}
#endif

/* Lane mask bits as 0/1 words: lane l's bit of `mask` (an AND with each
 * lane's bit, which vectorises where a shift by the lane number does not). */
extern const uint32_t lane_bit32[32];
static inline void unpack_lane_bits(uint64_t mask, uint32_t *out) {
  uint32_t lo = (uint32_t)mask, hi = (uint32_t)(mask >> 32);
  for (unsigned l = 0; l < 32; l++) out[l] = (lo & lane_bit32[l]) != 0;
  for (unsigned l = 0; l < 32; l++) out[32 + l] = (hi & lane_bit32[l]) != 0;
}

static inline unsigned mode_round32(const struct wave *w) { return MODE_ROUND32(w->mode); }
static inline unsigned mode_round64(const struct wave *w) { return MODE_ROUND64(w->mode); }

/* ---- Operation helpers ----------------------------------------------------
 * Each defines the handler `fn` from a per-lane expression over the sources
 * as named values. Declared static in the file that uses them. */

/* 32-bit integer/bit operations: a, b, c are uint32_t. */
#define VOP_U32_1(fn, EXPR)                                                         \
  static void fn(struct wave *w, const struct inst *in) {                           \
    uint32_t b0_[LANES], r_[LANES];                                                 \
    const uint32_t *s0_ = vsrc32(w, in, 0, b0_);                                    \
    FOR_LANES(l) { uint32_t a = s0_[l]; r_[l] = (EXPR); }                           \
    vdst32(w, in, r_);                                                              \
  }
/* With a uniform operand (vsrc_uniform) the expression is computed with
 * that operand as one value: a shift by it, for one, then vectorises. */
#define VOP_U32_2(fn, EXPR)                                                         \
  static void fn(struct wave *w, const struct inst *in) {                           \
    uint32_t b0_[LANES], b1_[LANES], r_[LANES];                                     \
    const uint32_t *s0_ = vsrc32(w, in, 0, b0_), *s1_ = vsrc32(w, in, 1, b1_);      \
    if (vsrc_uniform(in, 0)) {                                                      \
      uint32_t a = s0_[0];                                                          \
      FOR_LANES(l) { uint32_t b = s1_[l]; r_[l] = (EXPR); }                         \
    } else if (vsrc_uniform(in, 1)) {                                               \
      uint32_t b = s1_[0];                                                          \
      FOR_LANES(l) { uint32_t a = s0_[l]; r_[l] = (EXPR); }                         \
    } else {                                                                        \
      FOR_LANES(l) { uint32_t a = s0_[l], b = s1_[l]; r_[l] = (EXPR); }             \
    }                                                                               \
    vdst32(w, in, r_);                                                              \
  }
#define VOP_U32_3(fn, EXPR)                                                         \
  static void fn(struct wave *w, const struct inst *in) {                           \
    uint32_t b0_[LANES], b1_[LANES], b2_[LANES], r_[LANES];                         \
    const uint32_t *s0_ = vsrc32(w, in, 0, b0_), *s1_ = vsrc32(w, in, 1, b1_);      \
    const uint32_t *s2_ = vsrc32(w, in, 2, b2_);                                    \
    if (vsrc_uniform(in, 1)) {                                                      \
      uint32_t b = s1_[0];                                                          \
      FOR_LANES(l) { uint32_t a = s0_[l], c = s2_[l]; r_[l] = (EXPR); }             \
    } else {                                                                        \
      FOR_LANES(l) { uint32_t a = s0_[l], b = s1_[l], c = s2_[l]; r_[l] = (EXPR); } \
    }                                                                               \
    vdst32(w, in, r_);                                                              \
  }

#endif
