/*
 * vint.c - vector integer and bit operations of VOP2, VOP1 and VOP3
 * (Vega ISA ch. 6 and 12.7-12.8 opcode lists; semantics per instruction in
 * the Vega ISA "VOP2/VOP1/VOP3 Instructions" sections). Opcodes are in the
 * VOP3 space: VOP2 0x100 + n, VOP1 0x140 + n.
 *
 * A VOP3 "clamp" on integer add/sub saturates instead of wrapping (Vega ISA
 * 6.2, used by LLVM for uadd.sat/sadd.sat).
 */
#include "vapu/isa/valu.h"

static inline uint32_t sext24(uint32_t v) { return (uint32_t)((int32_t)(v << 8) >> 8); }
static inline int32_t i16(uint32_t v) { return (int16_t)(uint16_t)v; }
static inline uint32_t u16(uint32_t v) { return v & 0xffffu; }

/* ---- Moves and selects ------------------------------------------------------ */
VOP_U32_1(v_mov_b32, a)
static void v_nop(struct wave *w, const struct inst *in) {}

static void v_cndmask_b32(struct wave *w, const struct inst *in) {
  uint32_t b0[LANES], b1[LANES], r[LANES];
  const uint32_t *a = vsrc32(w, in, 0, b0), *b = vsrc32(w, in, 1, b1);
  uint64_t m = vcc_src(w, in);
  FOR_LANES(l) r[l] = ((m >> l) & 1) ? b[l] : a[l];
  vdst32(w, in, r);
}

/* v_swap_b32 vdst, vsrc0: exchanges two VGPRs in the active lanes. */
static void v_swap_b32(struct wave *w, const struct inst *in) {
  uint64_t m = exec_mask(w);
  uint32_t *a = w->v[in->vdst], *b = w->v[in->src[0].index];
  FOR_LANES(l) {
    if ((m >> l) & 1) {
      uint32_t t = a[l];
      a[l] = b[l];
      b[l] = t;
    }
  }
}

/* ---- 32-bit arithmetic ------------------------------------------------------ */
VOP_U32_2(v_mul_i32_i24, sext24(a) * sext24(b))
VOP_U32_2(v_mul_hi_i32_i24, (uint32_t)((uint64_t)((int64_t)(int32_t)sext24(a) * (int32_t)sext24(b)) >> 32))
VOP_U32_2(v_mul_u32_u24, (a & 0xffffffu) * (b & 0xffffffu))
VOP_U32_2(v_mul_hi_u32_u24, (uint32_t)(((uint64_t)(a & 0xffffffu) * (b & 0xffffffu)) >> 32))
VOP_U32_2(v_min_i32, (int32_t)a < (int32_t)b ? a : b)
VOP_U32_2(v_max_i32, (int32_t)a > (int32_t)b ? a : b)
VOP_U32_2(v_min_u32, a < b ? a : b)
VOP_U32_2(v_max_u32, a > b ? a : b)
VOP_U32_2(v_lshrrev_b32, b >> (a & 31))
VOP_U32_2(v_ashrrev_i32, (uint32_t)((int32_t)b >> (a & 31)))
VOP_U32_2(v_lshlrev_b32, b << (a & 31))
VOP_U32_2(v_and_b32, a & b)
VOP_U32_2(v_or_b32, a | b)
VOP_U32_2(v_xor_b32, a ^ b)
VOP_U32_2(v_mul_lo_u32, a * b)
VOP_U32_2(v_mul_hi_u32, (uint32_t)(((uint64_t)a * b) >> 32))
VOP_U32_2(v_mul_hi_i32, (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int32_t)b) >> 32))
VOP_U32_2(v_bcnt_u32_b32, (uint32_t)__builtin_popcount(a) + b)
VOP_U32_2(v_bfm_b32, ((1u << (a & 31)) - 1) << (b & 31))

/* Unsigned add/sub without carry out; clamp saturates at 0 / 0xffffffff. */
static void add_sub_u32(struct wave *w, const struct inst *in, bool sub, bool rev) {
  uint32_t b0[LANES], b1[LANES], r[LANES];
  const uint32_t *s0 = vsrc32(w, in, 0, b0), *s1 = vsrc32(w, in, 1, b1);
  if (rev) {
    const uint32_t *t = s0;
    s0 = s1;
    s1 = t;
  }
  if (!sub) FOR_LANES(l) {
      uint64_t x = (uint64_t)s0[l] + s1[l];
      r[l] = (in->clamp && (x >> 32)) ? ~0u : (uint32_t)x;
    }
  else FOR_LANES(l) r[l] = (in->clamp && s1[l] > s0[l]) ? 0 : s0[l] - s1[l];
  vdst32(w, in, r);
}
static void v_add_u32(struct wave *w, const struct inst *in) { add_sub_u32(w, in, false, false); }
static void v_sub_u32(struct wave *w, const struct inst *in) { add_sub_u32(w, in, true, false); }
static void v_subrev_u32(struct wave *w, const struct inst *in) { add_sub_u32(w, in, true, true); }

/* Signed add/sub (VOP3 only); clamp saturates at INT32_MIN/MAX. */
static void add_sub_i32(struct wave *w, const struct inst *in, bool sub) {
  uint32_t b0[LANES], b1[LANES], r[LANES];
  const uint32_t *s0 = vsrc32(w, in, 0, b0), *s1 = vsrc32(w, in, 1, b1);
  FOR_LANES(l) {
    int64_t x = sub ? (int64_t)(int32_t)s0[l] - (int32_t)s1[l] : (int64_t)(int32_t)s0[l] + (int32_t)s1[l];
    if (in->clamp) x = x > INT32_MAX ? INT32_MAX : x < INT32_MIN ? INT32_MIN : x;
    r[l] = (uint32_t)x;
  }
  vdst32(w, in, r);
}
static void v_add_i32(struct wave *w, const struct inst *in) { add_sub_i32(w, in, false); }
static void v_sub_i32(struct wave *w, const struct inst *in) { add_sub_i32(w, in, true); }

/* Carry-out forms: VCC (e32) or the VOP3B SDST gets one bit per lane;
 * carry-in forms read VCC (e32) or SRC2. Subtraction's carry is the borrow. */
static void carry_op(struct wave *w, const struct inst *in, bool sub, bool rev, bool cin) {
  uint32_t b0[LANES], b1[LANES], r[LANES];
  const uint32_t *s0 = vsrc32(w, in, 0, b0), *s1 = vsrc32(w, in, 1, b1);
  if (rev) {
    const uint32_t *t = s0;
    s0 = s1;
    s1 = t;
  }
  uint32_t ci[LANES], co[LANES];
  if (cin) unpack_lane_bits(vcc_src(w, in), ci);
  else memset(ci, 0, sizeof ci);
  /* The carry (borrow) out of bit 31 from the operands and the result's bit
   * 31, as a full adder (subtractor) forms it: 32-bit operations only. */
  if (!sub) {
    FOR_LANES(l) {
      uint32_t a = s0[l], b = s1[l], x = a + b + ci[l];
      r[l] = x;
      co[l] = (a & b) | ((a | b) & ~x);
    }
  } else {
    FOR_LANES(l) {
      uint32_t a = s0[l], b = s1[l], x = a - b - ci[l];
      r[l] = x;
      co[l] = (~a & b) | (~(a ^ b) & x);
    }
  }
  if (in->clamp) FOR_LANES(l) r[l] = (co[l] >> 31) ? (sub ? 0 : ~0u) : r[l];
  vdst32(w, in, r);
  vsdst_mask(w, vcc_dst(in), pack_lane_msbs(co) & vwrite_mask(w, in));
}
static void v_add_co_u32(struct wave *w, const struct inst *in) { carry_op(w, in, false, false, false); }
static void v_sub_co_u32(struct wave *w, const struct inst *in) { carry_op(w, in, true, false, false); }
static void v_subrev_co_u32(struct wave *w, const struct inst *in) { carry_op(w, in, true, true, false); }
static void v_addc_co_u32(struct wave *w, const struct inst *in) { carry_op(w, in, false, false, true); }
static void v_subb_co_u32(struct wave *w, const struct inst *in) { carry_op(w, in, true, false, true); }
static void v_subbrev_co_u32(struct wave *w, const struct inst *in) { carry_op(w, in, true, true, true); }

/* ---- 16-bit integer (bits 15:0; the write rules are in the table flags) --- */
static void add_sub_u16(struct wave *w, const struct inst *in, int kind) {
  uint32_t b0[LANES], b1[LANES], r[LANES];
  const uint32_t *s0 = vsrc32(w, in, 0, b0), *s1 = vsrc32(w, in, 1, b1);
  FOR_LANES(l) {
    int32_t a = (int32_t)u16(s0[l]), b = (int32_t)u16(s1[l]);
    int32_t x = kind == 0 ? a + b : kind == 1 ? a - b : b - a;
    if (in->clamp) x = x < 0 ? 0 : x > 0xffff ? 0xffff : x;
    r[l] = (uint32_t)x & 0xffffu;
  }
  vdst32(w, in, r);
}
static void v_add_u16(struct wave *w, const struct inst *in) { add_sub_u16(w, in, 0); }
static void v_sub_u16(struct wave *w, const struct inst *in) { add_sub_u16(w, in, 1); }
static void v_subrev_u16(struct wave *w, const struct inst *in) { add_sub_u16(w, in, 2); }
static void add_sub_i16(struct wave *w, const struct inst *in, bool sub) {
  uint32_t b0[LANES], b1[LANES], r[LANES];
  const uint32_t *s0 = vsrc32(w, in, 0, b0), *s1 = vsrc32(w, in, 1, b1);
  FOR_LANES(l) {
    int32_t x = sub ? i16(s0[l]) - i16(s1[l]) : i16(s0[l]) + i16(s1[l]);
    if (in->clamp) x = x < INT16_MIN ? INT16_MIN : x > INT16_MAX ? INT16_MAX : x;
    r[l] = (uint32_t)x & 0xffffu;
  }
  vdst32(w, in, r);
}
static void v_add_i16(struct wave *w, const struct inst *in) { add_sub_i16(w, in, false); }
static void v_sub_i16(struct wave *w, const struct inst *in) { add_sub_i16(w, in, true); }
VOP_U32_2(v_mul_lo_u16, u16(a * b))
VOP_U32_2(v_lshlrev_b16, u16(b << (a & 15)))
VOP_U32_2(v_lshrrev_b16, u16(b) >> (a & 15))
VOP_U32_2(v_ashrrev_i16, u16((uint32_t)(i16(b) >> (a & 15))))
VOP_U32_2(v_max_u16, u16(a) > u16(b) ? u16(a) : u16(b))
VOP_U32_2(v_max_i16, u16(i16(a) > i16(b) ? a : b))
VOP_U32_2(v_min_u16, u16(a) < u16(b) ? u16(a) : u16(b))
VOP_U32_2(v_min_i16, u16(i16(a) < i16(b) ? a : b))
VOP_U32_3(v_mad_u16, u16(u16(a) * u16(b) + u16(c)))
VOP_U32_3(v_mad_i16, u16((uint32_t)(i16(a) * i16(b) + i16(c))))
VOP_U32_3(v_mad_u32_u16, u16(a) * u16(b) + c)
VOP_U32_3(v_mad_i32_i16, (uint32_t)(i16(a) * i16(b)) + c)

static inline uint32_t min3u(uint32_t a, uint32_t b, uint32_t c) { uint32_t m = a < b ? a : b; return m < c ? m : c; }
static inline uint32_t max3u(uint32_t a, uint32_t b, uint32_t c) { uint32_t m = a > b ? a : b; return m > c ? m : c; }
static inline int32_t min3i(int32_t a, int32_t b, int32_t c) { int32_t m = a < b ? a : b; return m < c ? m : c; }
static inline int32_t max3i(int32_t a, int32_t b, int32_t c) { int32_t m = a > b ? a : b; return m > c ? m : c; }
/* Median of three: the one that is neither the smallest nor the largest. */
static inline uint32_t med3u(uint32_t a, uint32_t b, uint32_t c) { return max3u(a < b ? a : b, a < c ? a : c, b < c ? b : c); }
static inline int32_t med3i(int32_t a, int32_t b, int32_t c) { return max3i(a < b ? a : b, a < c ? a : c, b < c ? b : c); }
VOP_U32_3(v_min3_i32, (uint32_t)min3i((int32_t)a, (int32_t)b, (int32_t)c))
VOP_U32_3(v_min3_u32, min3u(a, b, c))
VOP_U32_3(v_max3_i32, (uint32_t)max3i((int32_t)a, (int32_t)b, (int32_t)c))
VOP_U32_3(v_max3_u32, max3u(a, b, c))
VOP_U32_3(v_med3_i32, (uint32_t)med3i((int32_t)a, (int32_t)b, (int32_t)c))
VOP_U32_3(v_med3_u32, med3u(a, b, c))
VOP_U32_3(v_min3_i16, u16((uint32_t)min3i(i16(a), i16(b), i16(c))))
VOP_U32_3(v_min3_u16, min3u(u16(a), u16(b), u16(c)))
VOP_U32_3(v_max3_i16, u16((uint32_t)max3i(i16(a), i16(b), i16(c))))
VOP_U32_3(v_max3_u16, max3u(u16(a), u16(b), u16(c)))
VOP_U32_3(v_med3_i16, u16((uint32_t)med3i(i16(a), i16(b), i16(c))))
VOP_U32_3(v_med3_u16, med3u(u16(a), u16(b), u16(c)))

/* ---- Three-operand integer -------------------------------------------------- */
VOP_U32_3(v_mad_i32_i24, sext24(a) * sext24(b) + c)
VOP_U32_3(v_mad_u32_u24, (a & 0xffffffu) * (b & 0xffffffu) + c)
static inline uint32_t bfe32(uint32_t v, uint32_t off, uint32_t width, bool sign) {
  off &= 31;
  width &= 31;
  if (!width) return 0;
  uint32_t f = (uint32_t)(sign ? (uint32_t)((int32_t)v >> off) : v >> off) & ((1u << width) - 1);
  if (sign && ((f >> (width - 1)) & 1)) f |= ~0u << width;
  return f;
}
VOP_U32_3(v_bfe_u32, bfe32(a, b, c, false))
VOP_U32_3(v_bfe_i32, bfe32(a, b, c, true))
VOP_U32_3(v_bfi_b32, (a & b) | (~a & c))
VOP_U32_3(v_alignbit_b32, (uint32_t)((((uint64_t)a << 32) | b) >> (c & 31)))
VOP_U32_3(v_alignbyte_b32, (uint32_t)((((uint64_t)a << 32) | b) >> (8 * (c & 3))))
VOP_U32_3(v_xad_u32, (a ^ b) + c)
VOP_U32_3(v_lshl_add_u32, (a << (b & 31)) + c)
VOP_U32_3(v_add_lshl_u32, (a + b) << (c & 31))
VOP_U32_3(v_add3_u32, a + b + c)
VOP_U32_3(v_lshl_or_b32, (a << (b & 31)) | c)
VOP_U32_3(v_and_or_b32, (a & b) | c)
VOP_U32_3(v_or3_b32, a | b | c)

/* Per byte: (S0.b + S1.b + S2.b[0]) >> 1. */
static inline uint32_t lerp_u8(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t r = 0;
  for (unsigned i = 0; i < 32; i += 8)
    r |= ((((a >> i) & 0xff) + ((b >> i) & 0xff) + ((c >> i) & 1)) >> 1) << i;
  return r;
}
VOP_U32_3(v_lerp_u8, lerp_u8(a, b, c))

/* Sums of absolute differences. v_msad_u8 skips bytes where S1 is 0. */
static inline uint32_t sad_bytes(uint32_t a, uint32_t b, bool masked) {
  uint32_t s = 0;
  for (unsigned i = 0; i < 32; i += 8) {
    int32_t x = (int32_t)((a >> i) & 0xff), y = (int32_t)((b >> i) & 0xff);
    if (masked && !y) continue;
    s += (uint32_t)(x > y ? x - y : y - x);
  }
  return s;
}
static inline uint32_t sad_u16(uint32_t a, uint32_t b) {
  int32_t a0 = (int32_t)(a & 0xffff), b0 = (int32_t)(b & 0xffff), a1 = (int32_t)(a >> 16), b1 = (int32_t)(b >> 16);
  return (uint32_t)((a0 > b0 ? a0 - b0 : b0 - a0) + (a1 > b1 ? a1 - b1 : b1 - a1));
}
VOP_U32_3(v_sad_u8, sad_bytes(a, b, false) + c)
VOP_U32_3(v_sad_hi_u8, (sad_bytes(a, b, false) << 16) + c)
VOP_U32_3(v_sad_u16, sad_u16(a, b) + c)
VOP_U32_3(v_sad_u32, (a > b ? a - b : b - a) + c)
VOP_U32_3(v_msad_u8, sad_bytes(a, b, true) + c)

/* Byte permute (Vega ISA V_PERM_B32): selector per result byte picks a byte
 * of {S0, S1} (0-3 from S1, 4-7 from S0), a sign fill (8-11: bits 15, 31,
 * 47, 63 of {S0, S1}), 0x00 (12) or 0xff (13-255). */
static inline uint32_t perm_b32(uint32_t s0, uint32_t s1, uint32_t sel) {
  uint64_t data = (uint64_t)s0 << 32 | s1;
  uint32_t r = 0;
  for (unsigned i = 0; i < 4; i++) {
    unsigned k = (sel >> (8 * i)) & 0xff;
    uint32_t byte;
    if (k < 8) byte = (uint32_t)(data >> (8 * k)) & 0xff;
    else if (k < 12) byte = ((data >> (16 * (k - 8) + 15)) & 1) ? 0xff : 0;
    else byte = k == 12 ? 0 : 0xff;
    r |= byte << (8 * i);
  }
  return r;
}
VOP_U32_3(v_perm_b32, perm_b32(a, b, c))

/* ---- VOP1 bit operations ---------------------------------------------------- */
static inline uint32_t brev32(uint32_t v) {
  v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
  v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
  v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
  v = ((v >> 8) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8);
  return (v >> 16) | (v << 16);
}
static inline uint32_t ffbh_i32(uint32_t v) {
  uint32_t x = (v >> 31) ? ~v : v;
  return x ? (uint32_t)__builtin_clz(x) : ~0u;
}
VOP_U32_1(v_not_b32, ~a)
VOP_U32_1(v_bfrev_b32, brev32(a))
VOP_U32_1(v_ffbh_u32, a ? (uint32_t)__builtin_clz(a) : ~0u)
VOP_U32_1(v_ffbl_b32, a ? (uint32_t)__builtin_ctz(a) : ~0u)
VOP_U32_1(v_ffbh_i32, ffbh_i32(a))
/* Saturate two signed 16-bit halves to unsigned bytes in D[15:0]. */
static inline uint32_t sat_u8(int32_t v) { return v < 0 ? 0 : v > 255 ? 255 : (uint32_t)v; }
VOP_U32_1(v_sat_pk_u8_i16, sat_u8(i16(a)) | sat_u8(i16(a >> 16)) << 8)

/* Pack two 32-bit integers into 16-bit halves with saturation. */
static inline uint32_t sat_u16(uint32_t v) { return v > 0xffff ? 0xffff : v; }
static inline uint32_t sat_i16(int32_t v) { return (uint32_t)(v < INT16_MIN ? INT16_MIN : v > INT16_MAX ? INT16_MAX : v) & 0xffff; }
VOP_U32_2(v_cvt_pk_u16_u32, sat_u16(a) | sat_u16(b) << 16)
VOP_U32_2(v_cvt_pk_i16_i32, sat_i16((int32_t)a) | sat_i16((int32_t)b) << 16)

/* ---- 64-bit shifts and multiply-add ---------------------------------------- */
static void shift64(struct wave *w, const struct inst *in, int kind) {
  uint32_t b0[LANES];
  uint64_t v[LANES], r[LANES];
  const uint32_t *s0 = vsrc32(w, in, 0, b0);
  vsrc64(w, in, 1, v);
  if (vsrc_uniform(in, 0)) { /* one shift count: the loops vectorise */
    unsigned n = s0[0] & 63;
    if (kind == 0) FOR_LANES(l) r[l] = v[l] << n;
    else if (kind == 1) FOR_LANES(l) r[l] = v[l] >> n;
    else FOR_LANES(l) r[l] = (uint64_t)((int64_t)v[l] >> n);
  } else {
    FOR_LANES(l) {
      unsigned n = s0[l] & 63;
      r[l] = kind == 0 ? v[l] << n : kind == 1 ? v[l] >> n : (uint64_t)((int64_t)v[l] >> n);
    }
  }
  vdst64(w, in, r);
}
static void v_lshlrev_b64(struct wave *w, const struct inst *in) { shift64(w, in, 0); }
static void v_lshrrev_b64(struct wave *w, const struct inst *in) { shift64(w, in, 1); }
static void v_ashrrev_i64(struct wave *w, const struct inst *in) { shift64(w, in, 2); }

/* v_mad_{u64_u32,i64_i32}: D.64 = S0 * S1 + S2.64, SDST = carry/overflow. */
static void mad64(struct wave *w, const struct inst *in, bool sign) {
  uint32_t b0[LANES], b1[LANES];
  uint64_t c[LANES], r[LANES], carry = 0;
  const uint32_t *s0 = vsrc32(w, in, 0, b0), *s1 = vsrc32(w, in, 1, b1);
  vsrc64(w, in, 2, c);
  FOR_LANES(l) {
    if (sign) {
      __int128 x = (__int128)((int64_t)(int32_t)s0[l] * (int32_t)s1[l]) + (int64_t)c[l];
      r[l] = (uint64_t)x;
      carry |= (uint64_t)(x > INT64_MAX || x < INT64_MIN) << l;
    } else {
      unsigned __int128 x = (unsigned __int128)((uint64_t)s0[l] * s1[l]) + c[l];
      r[l] = (uint64_t)x;
      carry |= (uint64_t)(x >> 64) << l;
    }
  }
  vdst64(w, in, r);
  vsdst_mask(w, in->sdst, carry);
}
static void v_mad_u64_u32(struct wave *w, const struct inst *in) { mad64(w, in, false); }
static void v_mad_i64_i32(struct wave *w, const struct inst *in) { mad64(w, in, true); }

/* ---- Table ------------------------------------------------------------------- */
#define OP(code, name, fn, d, s0, s1, s2, fl) {name, fn, d, {s0, s1, s2}, fl, code}
#define V3 OPF_VOP3_ONLY
#define Z16 OPF_ZERO_HI16
#define P16 OPF_OPSEL_PRESERVE
static const struct opinfo vop_int_ops_entries[] = {
    /* The VOP3 form takes f32 input modifiers (LLVM VOP2e_I32_I32_I32_I1 profile). */
    OP(0x100, "v_cndmask_b32", v_cndmask_b32, T_B32, T_F32, T_F32, T_MASK, OPF_FLOAT),
    OP(0x106, "v_mul_i32_i24", v_mul_i32_i24, T_B32, T_B32, T_B32, T_NONE, 0),
    OP(0x107, "v_mul_hi_i32_i24", v_mul_hi_i32_i24, T_B32, T_B32, T_B32, T_NONE, 0),
    OP(0x108, "v_mul_u32_u24", v_mul_u32_u24, T_B32, T_B32, T_B32, T_NONE, 0),
    OP(0x109, "v_mul_hi_u32_u24", v_mul_hi_u32_u24, T_B32, T_B32, T_B32, T_NONE, 0),
    OP(0x10c, "v_min_i32", v_min_i32, T_B32, T_B32, T_B32, T_NONE, 0),
    OP(0x10d, "v_max_i32", v_max_i32, T_B32, T_B32, T_B32, T_NONE, 0),
    OP(0x10e, "v_min_u32", v_min_u32, T_B32, T_B32, T_B32, T_NONE, 0),
    OP(0x10f, "v_max_u32", v_max_u32, T_B32, T_B32, T_B32, T_NONE, 0),
    OP(0x110, "v_lshrrev_b32", v_lshrrev_b32, T_B32, T_B32, T_B32, T_NONE, 0),
    OP(0x111, "v_ashrrev_i32", v_ashrrev_i32, T_B32, T_B32, T_B32, T_NONE, 0),
    OP(0x112, "v_lshlrev_b32", v_lshlrev_b32, T_B32, T_B32, T_B32, T_NONE, 0),
    OP(0x113, "v_and_b32", v_and_b32, T_B32, T_B32, T_B32, T_NONE, 0),
    OP(0x114, "v_or_b32", v_or_b32, T_B32, T_B32, T_B32, T_NONE, 0),
    OP(0x115, "v_xor_b32", v_xor_b32, T_B32, T_B32, T_B32, T_NONE, 0),
    OP(0x119, "v_add_co_u32", v_add_co_u32, T_B32, T_B32, T_B32, T_NONE, OPF_SDST),
    OP(0x11a, "v_sub_co_u32", v_sub_co_u32, T_B32, T_B32, T_B32, T_NONE, OPF_SDST),
    OP(0x11b, "v_subrev_co_u32", v_subrev_co_u32, T_B32, T_B32, T_B32, T_NONE, OPF_SDST),
    OP(0x11c, "v_addc_co_u32", v_addc_co_u32, T_B32, T_B32, T_B32, T_MASK, OPF_SDST),
    OP(0x11d, "v_subb_co_u32", v_subb_co_u32, T_B32, T_B32, T_B32, T_MASK, OPF_SDST),
    OP(0x11e, "v_subbrev_co_u32", v_subbrev_co_u32, T_B32, T_B32, T_B32, T_MASK, OPF_SDST),
    OP(0x126, "v_add_u16", v_add_u16, T_B16, T_B16, T_B16, T_NONE, Z16),
    OP(0x127, "v_sub_u16", v_sub_u16, T_B16, T_B16, T_B16, T_NONE, Z16),
    OP(0x128, "v_subrev_u16", v_subrev_u16, T_B16, T_B16, T_B16, T_NONE, Z16),
    OP(0x129, "v_mul_lo_u16", v_mul_lo_u16, T_B16, T_B16, T_B16, T_NONE, Z16),
    OP(0x12a, "v_lshlrev_b16", v_lshlrev_b16, T_B16, T_B16, T_B16, T_NONE, Z16),
    OP(0x12b, "v_lshrrev_b16", v_lshrrev_b16, T_B16, T_B16, T_B16, T_NONE, Z16),
    OP(0x12c, "v_ashrrev_i16", v_ashrrev_i16, T_B16, T_B16, T_B16, T_NONE, Z16),
    OP(0x12f, "v_max_u16", v_max_u16, T_B16, T_B16, T_B16, T_NONE, Z16),
    OP(0x130, "v_max_i16", v_max_i16, T_B16, T_B16, T_B16, T_NONE, Z16),
    OP(0x131, "v_min_u16", v_min_u16, T_B16, T_B16, T_B16, T_NONE, Z16),
    OP(0x132, "v_min_i16", v_min_i16, T_B16, T_B16, T_B16, T_NONE, Z16),
    OP(0x134, "v_add_u32", v_add_u32, T_B32, T_B32, T_B32, T_NONE, 0),
    OP(0x135, "v_sub_u32", v_sub_u32, T_B32, T_B32, T_B32, T_NONE, 0),
    OP(0x136, "v_subrev_u32", v_subrev_u32, T_B32, T_B32, T_B32, T_NONE, 0),
    OP(0x140, "v_nop", v_nop, T_NONE, T_NONE, T_NONE, T_NONE, OPF_NO_DST),
    OP(0x141, "v_mov_b32", v_mov_b32, T_B32, T_B32, T_NONE, T_NONE, 0),
    OP(0x16b, "v_not_b32", v_not_b32, T_B32, T_B32, T_NONE, T_NONE, 0),
    OP(0x16c, "v_bfrev_b32", v_bfrev_b32, T_B32, T_B32, T_NONE, T_NONE, 0),
    OP(0x16d, "v_ffbh_u32", v_ffbh_u32, T_B32, T_B32, T_NONE, T_NONE, 0),
    OP(0x16e, "v_ffbl_b32", v_ffbl_b32, T_B32, T_B32, T_NONE, T_NONE, 0),
    OP(0x16f, "v_ffbh_i32", v_ffbh_i32, T_B32, T_B32, T_NONE, T_NONE, 0),
    OP(0x18f, "v_sat_pk_u8_i16", v_sat_pk_u8_i16, T_B32, T_B32, T_NONE, T_NONE, 0),
    OP(0x191, "v_swap_b32", v_swap_b32, T_B32, T_B32, T_NONE, T_NONE, 0),
    OP(0x1c2, "v_mad_i32_i24", v_mad_i32_i24, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x1c3, "v_mad_u32_u24", v_mad_u32_u24, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x1c8, "v_bfe_u32", v_bfe_u32, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x1c9, "v_bfe_i32", v_bfe_i32, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x1ca, "v_bfi_b32", v_bfi_b32, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x1cd, "v_lerp_u8", v_lerp_u8, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x1ce, "v_alignbit_b32", v_alignbit_b32, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x1cf, "v_alignbyte_b32", v_alignbyte_b32, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x1d1, "v_min3_i32", v_min3_i32, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x1d2, "v_min3_u32", v_min3_u32, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x1d4, "v_max3_i32", v_max3_i32, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x1d5, "v_max3_u32", v_max3_u32, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x1d7, "v_med3_i32", v_med3_i32, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x1d8, "v_med3_u32", v_med3_u32, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x1d9, "v_sad_u8", v_sad_u8, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x1da, "v_sad_hi_u8", v_sad_hi_u8, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x1db, "v_sad_u16", v_sad_u16, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x1dc, "v_sad_u32", v_sad_u32, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x1e4, "v_msad_u8", v_msad_u8, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x1e8, "v_mad_u64_u32", v_mad_u64_u32, T_B64, T_B32, T_B32, T_B64, V3 | OPF_SDST),
    OP(0x1e9, "v_mad_i64_i32", v_mad_i64_i32, T_I64, T_B32, T_B32, T_I64, V3 | OPF_SDST),
    OP(0x1eb, "v_mad_legacy_u16", v_mad_u16, T_B16, T_B16, T_B16, T_B16, V3 | Z16),
    OP(0x1ec, "v_mad_legacy_i16", v_mad_i16, T_B16, T_B16, T_B16, T_B16, V3 | Z16),
    OP(0x1ed, "v_perm_b32", v_perm_b32, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x1f1, "v_mad_u32_u16", v_mad_u32_u16, T_B32, T_B16, T_B16, T_B32, V3),
    OP(0x1f2, "v_mad_i32_i16", v_mad_i32_i16, T_B32, T_B16, T_B16, T_B32, V3),
    OP(0x1f3, "v_xad_u32", v_xad_u32, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x1f5, "v_min3_i16", v_min3_i16, T_B16, T_B16, T_B16, T_B16, V3 | P16),
    OP(0x1f6, "v_min3_u16", v_min3_u16, T_B16, T_B16, T_B16, T_B16, V3 | P16),
    OP(0x1f8, "v_max3_i16", v_max3_i16, T_B16, T_B16, T_B16, T_B16, V3 | P16),
    OP(0x1f9, "v_max3_u16", v_max3_u16, T_B16, T_B16, T_B16, T_B16, V3 | P16),
    OP(0x1fb, "v_med3_i16", v_med3_i16, T_B16, T_B16, T_B16, T_B16, V3 | P16),
    OP(0x1fc, "v_med3_u16", v_med3_u16, T_B16, T_B16, T_B16, T_B16, V3 | P16),
    OP(0x1fd, "v_lshl_add_u32", v_lshl_add_u32, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x1fe, "v_add_lshl_u32", v_add_lshl_u32, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x1ff, "v_add3_u32", v_add3_u32, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x200, "v_lshl_or_b32", v_lshl_or_b32, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x201, "v_and_or_b32", v_and_or_b32, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x202, "v_or3_b32", v_or3_b32, T_B32, T_B32, T_B32, T_B32, V3),
    OP(0x204, "v_mad_u16", v_mad_u16, T_B16, T_B16, T_B16, T_B16, V3 | P16),
    OP(0x205, "v_mad_i16", v_mad_i16, T_B16, T_B16, T_B16, T_B16, V3 | P16),
    OP(0x285, "v_mul_lo_u32", v_mul_lo_u32, T_B32, T_B32, T_B32, T_NONE, V3),
    OP(0x286, "v_mul_hi_u32", v_mul_hi_u32, T_B32, T_B32, T_B32, T_NONE, V3),
    OP(0x287, "v_mul_hi_i32", v_mul_hi_i32, T_B32, T_B32, T_B32, T_NONE, V3),
    OP(0x28b, "v_bcnt_u32_b32", v_bcnt_u32_b32, T_B32, T_B32, T_B32, T_NONE, V3),
    OP(0x28f, "v_lshlrev_b64", v_lshlrev_b64, T_B64, T_B32, T_B64, T_NONE, V3),
    OP(0x290, "v_lshrrev_b64", v_lshrrev_b64, T_B64, T_B32, T_B64, T_NONE, V3),
    OP(0x291, "v_ashrrev_i64", v_ashrrev_i64, T_I64, T_B32, T_I64, T_NONE, V3),
    OP(0x293, "v_bfm_b32", v_bfm_b32, T_B32, T_B32, T_B32, T_NONE, V3),
    OP(0x297, "v_cvt_pk_u16_u32", v_cvt_pk_u16_u32, T_B32, T_B32, T_B32, T_NONE, V3),
    OP(0x298, "v_cvt_pk_i16_i32", v_cvt_pk_i16_i32, T_B32, T_B32, T_B32, T_NONE, V3),
    OP(0x29c, "v_add_i32", v_add_i32, T_B32, T_B32, T_B32, T_NONE, V3),
    OP(0x29d, "v_sub_i32", v_sub_i32, T_B32, T_B32, T_B32, T_NONE, V3),
    OP(0x29e, "v_add_i16", v_add_i16, T_B16, T_B16, T_B16, T_NONE, V3 | P16),
    OP(0x29f, "v_sub_i16", v_sub_i16, T_B16, T_B16, T_B16, T_NONE, V3 | P16),
};
const struct optable vop_int_ops = OPTABLE(vop_int_ops_entries);
