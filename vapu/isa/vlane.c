/*
 * vlane.c - operations across lanes: moving values between VGPR lanes and
 * SGPRs (v_readfirstlane, v_readlane, v_writelane) and counting lanes below
 * the current one (v_mbcnt), per the Vega ISA VOP1/VOP3 descriptions.
 */
#include "vapu/isa/valu.h"

/* SGPR D = S0 of the first active lane (lane 0 if none is active). */
static void v_readfirstlane_b32(struct wave *w, const struct inst *in) {
  uint32_t b[LANES];
  const uint32_t *s = vsrc32(w, in, 0, b);
  uint64_t e = exec_mask(w);
  write_sdst(w, in->sdst, s[e ? __builtin_ctzll(e) : 0]);
}

/* SGPR D = VGPR S0 of lane S1[5:0], whatever EXEC says. */
static void v_readlane_b32(struct wave *w, const struct inst *in) {
  uint32_t b[LANES], bl[LANES];
  const uint32_t *s = vsrc32(w, in, 0, b), *lane = vsrc32(w, in, 1, bl);
  write_sdst(w, in->sdst, s[lane[0] & 63]);
}

/* VGPR D lane S1[5:0] = scalar S0, whatever EXEC says. */
static void v_writelane_b32(struct wave *w, const struct inst *in) {
  uint32_t b[LANES], bl[LANES];
  const uint32_t *s = vsrc32(w, in, 0, b), *lane = vsrc32(w, in, 1, bl);
  w->v[in->vdst][lane[0] & 63] = s[0];
}

/* v_mbcnt_lo: bits of S0 set below this lane (lanes 0-31), plus S1;
 * v_mbcnt_hi: the same for lanes 32-63 against S0 as mask bits 63:32. */
static void v_mbcnt_lo_u32_b32(struct wave *w, const struct inst *in) {
  uint32_t b0[LANES], b1[LANES], r[LANES];
  const uint32_t *s0 = vsrc32(w, in, 0, b0), *s1 = vsrc32(w, in, 1, b1);
  FOR_LANES(l) {
    uint32_t below = l >= 32 ? ~0u : (1u << l) - 1;
    r[l] = (uint32_t)__builtin_popcount(s0[l] & below) + s1[l];
  }
  vdst32(w, in, r);
}
static void v_mbcnt_hi_u32_b32(struct wave *w, const struct inst *in) {
  uint32_t b0[LANES], b1[LANES], r[LANES];
  const uint32_t *s0 = vsrc32(w, in, 0, b0), *s1 = vsrc32(w, in, 1, b1);
  FOR_LANES(l) {
    uint32_t below = l < 32 ? 0 : (1u << (l - 32)) - 1;
    r[l] = (uint32_t)__builtin_popcount(s0[l] & below) + s1[l];
  }
  vdst32(w, in, r);
}

#define OP(code, name, fn, d, s0, s1, fl) {name, fn, d, {s0, s1, T_NONE}, fl, code}
static const struct opinfo vop_lane_ops_entries[] = {
    OP(0x142, "v_readfirstlane_b32", v_readfirstlane_b32, T_B32, T_B32, T_NONE, OPF_SDST_SGPR),
    OP(0x289, "v_readlane_b32", v_readlane_b32, T_B32, T_B32, T_B32, OPF_VOP3_ONLY | OPF_SDST_SGPR),
    OP(0x28a, "v_writelane_b32", v_writelane_b32, T_B32, T_B32, T_B32, OPF_VOP3_ONLY),
    OP(0x28c, "v_mbcnt_lo_u32_b32", v_mbcnt_lo_u32_b32, T_B32, T_B32, T_B32, OPF_VOP3_ONLY),
    OP(0x28d, "v_mbcnt_hi_u32_b32", v_mbcnt_hi_u32_b32, T_B32, T_B32, T_B32, OPF_VOP3_ONLY),
};
const struct optable vop_lane_ops = OPTABLE(vop_lane_ops_entries);
