/*
 * ds.c - LDS (local data share) instructions (Vega ISA ch. 10 "Data Share
 * Operations", 12.10 DS opcodes): reads, writes, two-address forms, atomics
 * with and without return, and the lane swizzle/permute.
 *
 * Address = VGPR addr + offset (offset1:offset0 as 16 bits; the two-address
 * forms use offset0 and offset1 in units of the data size, *64 for st64).
 * LDS is the work-group's allocation (group_segment_size); an access past it
 * reads 0 and writes nothing (Vega ISA 10.x "out of range"). The waves of a
 * work-group run one at a time, so every LDS operation is atomic.
 */
#include "vapu/isa/fp.h"
#include "vapu/isa/wave.h"

#define LANES WAVE_LANES
#define FOR_ACTIVE(w, l)                                                          \
  for (uint64_t m_ = exec_mask(w); m_; m_ &= m_ - 1)                            \
    for (unsigned l = (unsigned)__builtin_ctzll(m_), once_ = 1; once_; once_ = 0)


static inline uint8_t *lds_at(struct wave *w, uint32_t addr, unsigned size) {
  struct vapu_exec *x = w->x;
  if ((uint64_t)addr + size > x->ds.lds_bytes) return NULL;
  return x->lds + addr;
}
static inline uint64_t lds_load(struct wave *w, uint32_t addr, unsigned size) {
  uint8_t *p = lds_at(w, addr, size);
  uint64_t v = 0;
  if (p) memcpy(&v, p, size);
  return v;
}
/* The dword load of the two-address forms, most of the LDS traffic. */
static inline uint32_t lds_load32(struct wave *w, uint32_t addr) {
  const struct vapu_exec *x = w->x;
  uint32_t v = 0;
  if ((uint64_t)addr + 4 <= x->ds.lds_bytes) memcpy(&v, x->lds + addr, 4);
  return v;
}
static inline void lds_store(struct wave *w, uint32_t addr, unsigned size, uint64_t v) {
  uint8_t *p = lds_at(w, addr, size);
  if (p) memcpy(p, &v, size);
}
static inline uint32_t ds_addr(struct wave *w, const struct inst *in, unsigned l) {
  return w->v[in->vaddr][l] + (uint32_t)in->offset;
}
static inline uint64_t vreg64(struct wave *w, unsigned r, unsigned l) {
  return (uint64_t)w->v[(r + 1) & 255][l] << 32 | w->v[r][l];
}
static inline void set_vreg64(struct wave *w, unsigned r, unsigned l, uint64_t v) {
  w->v[r][l] = (uint32_t)v;
  w->v[(r + 1) & 255][l] = (uint32_t)(v >> 32);
}

/* ---- Reads and writes ------------------------------------------------------- */
/* Read `size` bytes, extend (sign if `sext`), into vdst (dwords > 1: vdst..). */
/* The dword forms, most of the LDS traffic, with what stays the same across
 * lanes in locals: a store into LDS (bytes) or a VGPR could alias the
 * wave's and the instruction's fields, which the compiler would then read
 * again for every lane. */
struct lds_view {
  uint8_t *bytes;
  uint64_t size;
};
static inline struct lds_view lds_view(const struct wave *w) {
  return (struct lds_view){w->x->lds, w->x->ds.lds_bytes};
}
static inline uint32_t view_load32(struct lds_view v, uint32_t addr) {
  uint32_t x = 0;
  if ((uint64_t)addr + 4 <= v.size) memcpy(&x, v.bytes + addr, 4);
  return x;
}
static inline void view_store32(struct lds_view v, uint32_t addr, uint32_t x) {
  if ((uint64_t)addr + 4 <= v.size) memcpy(v.bytes + addr, &x, 4);
}

/* Whether the dword at addr[l] + offset (the 32-bit sum, as each lane's
 * check takes it) is inside LDS for every active lane: then the lanes need
 * no check of their own. */
static bool all_in_lds(struct lds_view v, const uint32_t *addr, uint64_t exec, uint32_t offset) {
  if (v.size < 4) return false;
  uint32_t limit = (uint32_t)(v.size - 4), bad = 0; /* LDS is 64 KiB at most */
  if (exec == ~0ull) {
    for (unsigned l = 0; l < LANES; l++) bad |= addr[l] + offset > limit;
  } else {
    for (uint64_t m = exec; m; m &= m - 1) bad |= addr[__builtin_ctzll(m)] + offset > limit;
  }
  return !bad;
}

static void ds_read(struct wave *w, const struct inst *in, unsigned size, bool sext) {
  if (size == 4 && !sext) {
    struct lds_view v = lds_view(w);
    const uint32_t *addr = w->v[in->vaddr];
    uint32_t *d = w->v[in->vdst], offset = (uint32_t)in->offset;
    uint64_t exec = exec_mask(w);
    if (all_in_lds(v, addr, exec, offset))
      FOR_EACH_LANE(exec, l, memcpy(&d[l], v.bytes + (uint32_t)(addr[l] + offset), 4));
    else
      FOR_ACTIVE(w, l) d[l] = view_load32(v, addr[l] + offset);
    return;
  }
  FOR_ACTIVE(w, l) {
    uint32_t a = ds_addr(w, in, l);
    if (size <= 4) {
      uint32_t v = (uint32_t)lds_load(w, a, size);
      if (sext) v = size == 1 ? (uint32_t)(int8_t)v : (uint32_t)(int16_t)v;
      w->v[in->vdst][l] = v;
    } else {
      for (unsigned i = 0; i < size / 4; i++)
        w->v[(in->vdst + i) & 255][l] = (uint32_t)lds_load(w, a + 4 * i, 4);
    }
  }
}
static void ds_read_b32(struct wave *w, const struct inst *in) { ds_read(w, in, 4, false); }
static void ds_read_b64(struct wave *w, const struct inst *in) { ds_read(w, in, 8, false); }
static void ds_read_b96(struct wave *w, const struct inst *in) { ds_read(w, in, 12, false); }
static void ds_read_b128(struct wave *w, const struct inst *in) { ds_read(w, in, 16, false); }
static void ds_read_u8(struct wave *w, const struct inst *in) { ds_read(w, in, 1, false); }
static void ds_read_i8(struct wave *w, const struct inst *in) { ds_read(w, in, 1, true); }
static void ds_read_u16(struct wave *w, const struct inst *in) { ds_read(w, in, 2, false); }
static void ds_read_i16(struct wave *w, const struct inst *in) { ds_read(w, in, 2, true); }

/* d16 reads: into one half of vdst, the other half kept. */
static void ds_read_d16(struct wave *w, const struct inst *in, unsigned size, bool sext, bool hi) {
  FOR_ACTIVE(w, l) {
    uint32_t v = (uint32_t)lds_load(w, ds_addr(w, in, l), size);
    if (sext) v = (uint32_t)(int8_t)v;
    v &= 0xffff;
    uint32_t *d = &w->v[in->vdst][l];
    *d = hi ? (*d & 0xffffu) | v << 16 : (*d & 0xffff0000u) | v;
  }
}
static void ds_read_u8_d16(struct wave *w, const struct inst *in) { ds_read_d16(w, in, 1, false, false); }
static void ds_read_u8_d16_hi(struct wave *w, const struct inst *in) { ds_read_d16(w, in, 1, false, true); }
static void ds_read_i8_d16(struct wave *w, const struct inst *in) { ds_read_d16(w, in, 1, true, false); }
static void ds_read_i8_d16_hi(struct wave *w, const struct inst *in) { ds_read_d16(w, in, 1, true, true); }
static void ds_read_u16_d16(struct wave *w, const struct inst *in) { ds_read_d16(w, in, 2, false, false); }
static void ds_read_u16_d16_hi(struct wave *w, const struct inst *in) { ds_read_d16(w, in, 2, false, true); }

static void ds_write(struct wave *w, const struct inst *in, unsigned size, unsigned shift) {
  if (size == 4) {
    struct lds_view v = lds_view(w);
    const uint32_t *addr = w->v[in->vaddr], *data = w->v[in->vdata];
    uint32_t offset = (uint32_t)in->offset;
    uint64_t exec = exec_mask(w);
    if (all_in_lds(v, addr, exec, offset))
      FOR_EACH_LANE(exec, l, memcpy(v.bytes + (uint32_t)(addr[l] + offset), &data[l], 4));
    else
      FOR_ACTIVE(w, l) view_store32(v, addr[l] + offset, data[l]);
    return;
  }
  FOR_ACTIVE(w, l) {
    uint32_t a = ds_addr(w, in, l);
    if (size <= 4) {
      lds_store(w, a, size, w->v[in->vdata][l] >> shift);
    } else {
      for (unsigned i = 0; i < size / 4; i++) lds_store(w, a + 4 * i, 4, w->v[(in->vdata + i) & 255][l]);
    }
  }
}
static void ds_write_b32(struct wave *w, const struct inst *in) { ds_write(w, in, 4, 0); }
static void ds_write_b64(struct wave *w, const struct inst *in) { ds_write(w, in, 8, 0); }
static void ds_write_b96(struct wave *w, const struct inst *in) { ds_write(w, in, 12, 0); }
static void ds_write_b128(struct wave *w, const struct inst *in) { ds_write(w, in, 16, 0); }
static void ds_write_b8(struct wave *w, const struct inst *in) { ds_write(w, in, 1, 0); }
static void ds_write_b16(struct wave *w, const struct inst *in) { ds_write(w, in, 2, 0); }
static void ds_write_b8_d16_hi(struct wave *w, const struct inst *in) { ds_write(w, in, 1, 16); }
static void ds_write_b16_d16_hi(struct wave *w, const struct inst *in) { ds_write(w, in, 2, 16); }

/* Two-address forms: addr + offset0 * stride and addr + offset1 * stride. */
static void ds_read2(struct wave *w, const struct inst *in, unsigned size, unsigned stride) {
  unsigned o0 = (unsigned)in->offset & 0xff, o1 = ((unsigned)in->offset >> 8) & 0xff;
  unsigned dw = size / 4;
  if (dw == 1) {
    struct lds_view v = lds_view(w);
    const uint32_t *addr = w->v[in->vaddr];
    uint32_t *d0 = w->v[in->vdst], *d1 = w->v[(in->vdst + 1) & 255];
    uint32_t off0 = o0 * stride, off1 = o1 * stride;
    uint64_t exec = exec_mask(w);
    if (all_in_lds(v, addr, exec, off0) && all_in_lds(v, addr, exec, off1)) {
      FOR_EACH_LANE(exec, l, {
        uint32_t a = addr[l], x0, x1;
        memcpy(&x0, v.bytes + (uint32_t)(a + off0), 4);
        memcpy(&x1, v.bytes + (uint32_t)(a + off1), 4);
        d0[l] = x0;
        d1[l] = x1;
      });
      return;
    }
    FOR_ACTIVE(w, l) {
      uint32_t a = addr[l]; /* before the writes: vdst may be vaddr */
      uint32_t x0 = view_load32(v, a + off0), x1 = view_load32(v, a + off1);
      d0[l] = x0;
      d1[l] = x1;
    }
    return;
  }
  FOR_ACTIVE(w, l) {
    uint32_t a = w->v[in->vaddr][l];
    uint32_t a0 = a + o0 * stride, a1 = a + o1 * stride;
    for (unsigned i = 0; i < dw; i++) {
      w->v[(in->vdst + i) & 255][l] = lds_load32(w, a0 + 4 * i);
      w->v[(in->vdst + dw + i) & 255][l] = lds_load32(w, a1 + 4 * i);
    }
  }
}
static void ds_write2(struct wave *w, const struct inst *in, unsigned size, unsigned stride) {
  unsigned o0 = (unsigned)in->offset & 0xff, o1 = ((unsigned)in->offset >> 8) & 0xff;
  unsigned dw = size / 4;
  FOR_ACTIVE(w, l) {
    uint32_t a = w->v[in->vaddr][l];
    for (unsigned i = 0; i < dw; i++) {
      lds_store(w, a + o0 * stride + 4 * i, 4, w->v[(in->vdata + i) & 255][l]);
      lds_store(w, a + o1 * stride + 4 * i, 4, w->v[(in->saddr + i) & 255][l]); /* data1 */
    }
  }
}
static void ds_read2_b32(struct wave *w, const struct inst *in) { ds_read2(w, in, 4, 4); }
static void ds_read2st64_b32(struct wave *w, const struct inst *in) { ds_read2(w, in, 4, 256); }
static void ds_read2_b64(struct wave *w, const struct inst *in) { ds_read2(w, in, 8, 8); }
static void ds_read2st64_b64(struct wave *w, const struct inst *in) { ds_read2(w, in, 8, 512); }
static void ds_write2_b32(struct wave *w, const struct inst *in) { ds_write2(w, in, 4, 4); }
static void ds_write2st64_b32(struct wave *w, const struct inst *in) { ds_write2(w, in, 4, 256); }
static void ds_write2_b64(struct wave *w, const struct inst *in) { ds_write2(w, in, 8, 8); }
static void ds_write2st64_b64(struct wave *w, const struct inst *in) { ds_write2(w, in, 8, 512); }

/* ---- Atomics -------------------------------------------------------------------
 * tmp = MEM; MEM = f(tmp, data0, data1); RETURN tmp (the _rtn forms). The
 * operations are shared with the global atomics (vmem.c). */
uint64_t atomic_apply(enum atomic_op op, uint64_t t, uint64_t a, uint64_t b, bool wide, uint32_t mode) {
  uint64_t mask = wide ? ~0ull : 0xffffffffull;
  int64_t st = wide ? (int64_t)t : (int32_t)t, sa = wide ? (int64_t)a : (int32_t)a;
  switch (op) {
  case A_ADD: return (t + a) & mask;
  case A_SUB: return (t - a) & mask;
  case A_RSUB: return (a - t) & mask;
  case A_INC: return t >= a ? 0 : t + 1;
  case A_DEC: return (t == 0 || t > a) ? a : t - 1;
  case A_MIN_I: return (uint64_t)(st < sa ? st : sa) & mask;
  case A_MAX_I: return (uint64_t)(st > sa ? st : sa) & mask;
  case A_MIN_U: return t < a ? t : a;
  case A_MAX_U: return t > a ? t : a;
  case A_AND: return t & a;
  case A_OR: return t | a;
  case A_XOR: return t ^ a;
  case A_MSKOR: return (t & ~a) | b;
  case A_XCHG: return a;
  case A_CMPST: return t == a ? b : t;
  case A_CMPST_F:
    if (wide) return f64_from_bits(t) == f64_from_bits(a) ? b : t;
    return f32_from_bits((uint32_t)t) == f32_from_bits((uint32_t)a) ? b : t;
  case A_MIN_F: case A_MAX_F: {
    bool mx = op == A_MAX_F;
    if (wide) {
      double x = f64_from_bits(t), y = f64_from_bits(a);
      if (x != x) return a;
      if (y != y) return t;
      return (mx ? y > x : y < x) ? a : t;
    }
    float x = f32_from_bits((uint32_t)t), y = f32_from_bits((uint32_t)a);
    if (x != x) return a;
    if (y != y) return t;
    return (mx ? y > x : y < x) ? a : t;
  }
  case A_ADD_F: {
    uint32_t r = f32_bits(f32_from_bits((uint32_t)t) + f32_from_bits((uint32_t)a));
    return (MODE_DENORM32(mode) & DENORM_KEEP_OUT) ? r : f32_flush(r);
  }
  case A_WRAP: return t >= a ? t - a : t + b;
  }
  return t;
}

static void ds_atomic(struct wave *w, const struct inst *in, enum atomic_op op, bool wide, bool rtn) {
  unsigned size = wide ? 8 : 4;
  FOR_ACTIVE(w, l) {
    uint32_t a = ds_addr(w, in, l);
    uint64_t d0 = wide ? vreg64(w, in->vdata, l) : w->v[in->vdata][l];
    uint64_t d1 = wide ? vreg64(w, in->saddr, l) : w->v[in->saddr][l];
    uint8_t *p = lds_at(w, a, size);
    uint64_t t = 0;
    if (p) {
      memcpy(&t, p, size);
      uint64_t r = atomic_apply(op, t, d0, d1, wide, w->mode);
      memcpy(p, &r, size);
    }
    if (rtn) {
      if (wide) set_vreg64(w, in->vdst, l, t);
      else w->v[in->vdst][l] = (uint32_t)t;
    }
  }
}
#define DS_ATOMIC(name, op, wide, rtn) \
  static void name(struct wave *w, const struct inst *in) { ds_atomic(w, in, op, wide, rtn); }
#define DS_ATOMIC4(base, op)                         \
  DS_ATOMIC(ds_##base##_b32, op, false, false)       \
  DS_ATOMIC(ds_##base##_rtn_b32, op, false, true)    \
  DS_ATOMIC(ds_##base##_b64, op, true, false)        \
  DS_ATOMIC(ds_##base##_rtn_b64, op, true, true)
DS_ATOMIC4(add, A_ADD)
DS_ATOMIC4(sub, A_SUB)
DS_ATOMIC4(rsub, A_RSUB)
DS_ATOMIC4(inc, A_INC)
DS_ATOMIC4(dec, A_DEC)
DS_ATOMIC4(min_i, A_MIN_I)
DS_ATOMIC4(max_i, A_MAX_I)
DS_ATOMIC4(min_u, A_MIN_U)
DS_ATOMIC4(max_u, A_MAX_U)
DS_ATOMIC4(and, A_AND)
DS_ATOMIC4(or, A_OR)
DS_ATOMIC4(xor, A_XOR)
DS_ATOMIC4(mskor, A_MSKOR)
DS_ATOMIC4(cmpst, A_CMPST)
DS_ATOMIC4(cmpst_f, A_CMPST_F)
DS_ATOMIC4(min_f, A_MIN_F)
DS_ATOMIC4(max_f, A_MAX_F)
DS_ATOMIC(ds_wrxchg_rtn_b32, A_XCHG, false, true)
DS_ATOMIC(ds_wrxchg_rtn_b64, A_XCHG, true, true)
DS_ATOMIC(ds_add_f32, A_ADD_F, false, false)
DS_ATOMIC(ds_add_rtn_f32, A_ADD_F, false, true)
DS_ATOMIC(ds_wrap_rtn_b32, A_WRAP, false, true)

/* Exchange at two addresses: old values to vdst (and vdst + dwords). */
static void ds_wrxchg2(struct wave *w, const struct inst *in, unsigned size, unsigned stride) {
  unsigned o0 = (unsigned)in->offset & 0xff, o1 = ((unsigned)in->offset >> 8) & 0xff;
  unsigned dw = size / 4;
  FOR_ACTIVE(w, l) {
    uint32_t a = w->v[in->vaddr][l];
    for (unsigned i = 0; i < dw; i++) {
      uint32_t a0 = a + o0 * stride + 4 * i, a1 = a + o1 * stride + 4 * i;
      uint32_t old0 = (uint32_t)lds_load(w, a0, 4), old1 = (uint32_t)lds_load(w, a1, 4);
      lds_store(w, a0, 4, w->v[(in->vdata + i) & 255][l]);
      lds_store(w, a1, 4, w->v[(in->saddr + i) & 255][l]);
      w->v[(in->vdst + i) & 255][l] = old0;
      w->v[(in->vdst + dw + i) & 255][l] = old1;
    }
  }
}
static void ds_wrxchg2_rtn_b32(struct wave *w, const struct inst *in) { ds_wrxchg2(w, in, 4, 4); }
static void ds_wrxchg2st64_rtn_b32(struct wave *w, const struct inst *in) { ds_wrxchg2(w, in, 4, 256); }
static void ds_wrxchg2_rtn_b64(struct wave *w, const struct inst *in) { ds_wrxchg2(w, in, 8, 8); }
static void ds_wrxchg2st64_rtn_b64(struct wave *w, const struct inst *in) { ds_wrxchg2(w, in, 8, 512); }

/* ---- Lane exchange without LDS memory (Vega ISA 10.x) -------------------------
 * ds_swizzle_b32: offset[15] = 1: quad permute, offset[7:0] = four 2-bit
 * lane selectors; offset[15] = 0: within each 32 lanes, the source lane is
 * ((lane & and_mask) | or_mask) ^ xor_mask with masks offset[4:0],
 * offset[9:5], offset[14:10]. Inactive source lanes read as 0. */
static void ds_swizzle_b32(struct wave *w, const struct inst *in) {
  uint32_t src[LANES], r[LANES];
  uint64_t e = exec_mask(w);
  unsigned off = (unsigned)in->offset & 0xffff;
  memcpy(src, w->v[in->vaddr], sizeof src); /* the source is the ADDR operand */
  for (unsigned l = 0; l < LANES; l++) {
    unsigned s;
    if (off & 0x8000) s = (l & ~3u) | ((off >> ((l & 3) * 2)) & 3);
    else s = (l & 32) | ((((l & 31) & (off & 31)) | ((off >> 5) & 31)) ^ ((off >> 10) & 31));
    r[l] = ((e >> s) & 1) ? src[s] : 0;
  }
  FOR_ACTIVE(w, l) w->v[in->vdst][l] = r[l];
}

/* ds_permute_b32: lane l's data goes to lane (addr[l] + offset) / 4;
 * ds_bpermute_b32: lane l reads lane (addr[l] + offset) / 4's data (0 from
 * an inactive lane). Lane numbers wrap at 64. */
static void ds_permute_b32(struct wave *w, const struct inst *in) {
  uint32_t r[LANES] = {0};
  FOR_ACTIVE(w, l) r[(ds_addr(w, in, l) / 4) & 63] = w->v[in->vdata][l];
  FOR_ACTIVE(w, l) w->v[in->vdst][l] = r[l];
}
static void ds_bpermute_b32(struct wave *w, const struct inst *in) {
  uint32_t r[LANES];
  uint64_t e = exec_mask(w);
  FOR_ACTIVE(w, l) {
    unsigned s = (ds_addr(w, in, l) / 4) & 63;
    r[l] = ((e >> s) & 1) ? w->v[in->vdata][s] : 0;
  }
  FOR_ACTIVE(w, l) w->v[in->vdst][l] = r[l];
}

static void ds_nop(struct wave *w, const struct inst *in) {}

#define OP(code, name, fn) {name, fn, T_NONE, {T_NONE, T_NONE, T_NONE}, 0, code}
static const struct opinfo optab_ds_entries[] = {
    OP(0, "ds_add_u32", ds_add_b32), OP(1, "ds_sub_u32", ds_sub_b32),
    OP(2, "ds_rsub_u32", ds_rsub_b32), OP(3, "ds_inc_u32", ds_inc_b32),
    OP(4, "ds_dec_u32", ds_dec_b32), OP(5, "ds_min_i32", ds_min_i_b32),
    OP(6, "ds_max_i32", ds_max_i_b32), OP(7, "ds_min_u32", ds_min_u_b32),
    OP(8, "ds_max_u32", ds_max_u_b32), OP(9, "ds_and_b32", ds_and_b32),
    OP(10, "ds_or_b32", ds_or_b32), OP(11, "ds_xor_b32", ds_xor_b32),
    OP(12, "ds_mskor_b32", ds_mskor_b32), OP(13, "ds_write_b32", ds_write_b32),
    OP(14, "ds_write2_b32", ds_write2_b32), OP(15, "ds_write2st64_b32", ds_write2st64_b32),
    OP(16, "ds_cmpst_b32", ds_cmpst_b32), OP(17, "ds_cmpst_f32", ds_cmpst_f_b32),
    OP(18, "ds_min_f32", ds_min_f_b32), OP(19, "ds_max_f32", ds_max_f_b32),
    OP(20, "ds_nop", ds_nop), OP(21, "ds_add_f32", ds_add_f32),
    OP(30, "ds_write_b8", ds_write_b8), OP(31, "ds_write_b16", ds_write_b16),
    OP(32, "ds_add_rtn_u32", ds_add_rtn_b32), OP(33, "ds_sub_rtn_u32", ds_sub_rtn_b32),
    OP(34, "ds_rsub_rtn_u32", ds_rsub_rtn_b32), OP(35, "ds_inc_rtn_u32", ds_inc_rtn_b32),
    OP(36, "ds_dec_rtn_u32", ds_dec_rtn_b32), OP(37, "ds_min_rtn_i32", ds_min_i_rtn_b32),
    OP(38, "ds_max_rtn_i32", ds_max_i_rtn_b32), OP(39, "ds_min_rtn_u32", ds_min_u_rtn_b32),
    OP(40, "ds_max_rtn_u32", ds_max_u_rtn_b32), OP(41, "ds_and_rtn_b32", ds_and_rtn_b32),
    OP(42, "ds_or_rtn_b32", ds_or_rtn_b32), OP(43, "ds_xor_rtn_b32", ds_xor_rtn_b32),
    OP(44, "ds_mskor_rtn_b32", ds_mskor_rtn_b32), OP(45, "ds_wrxchg_rtn_b32", ds_wrxchg_rtn_b32),
    OP(46, "ds_wrxchg2_rtn_b32", ds_wrxchg2_rtn_b32),
    OP(47, "ds_wrxchg2st64_rtn_b32", ds_wrxchg2st64_rtn_b32),
    OP(48, "ds_cmpst_rtn_b32", ds_cmpst_rtn_b32), OP(49, "ds_cmpst_rtn_f32", ds_cmpst_f_rtn_b32),
    OP(50, "ds_min_rtn_f32", ds_min_f_rtn_b32), OP(51, "ds_max_rtn_f32", ds_max_f_rtn_b32),
    OP(52, "ds_wrap_rtn_b32", ds_wrap_rtn_b32), OP(53, "ds_add_rtn_f32", ds_add_rtn_f32),
    OP(54, "ds_read_b32", ds_read_b32), OP(55, "ds_read2_b32", ds_read2_b32),
    OP(56, "ds_read2st64_b32", ds_read2st64_b32), OP(57, "ds_read_i8", ds_read_i8),
    OP(58, "ds_read_u8", ds_read_u8), OP(59, "ds_read_i16", ds_read_i16),
    OP(60, "ds_read_u16", ds_read_u16), OP(61, "ds_swizzle_b32", ds_swizzle_b32),
    OP(62, "ds_permute_b32", ds_permute_b32), OP(63, "ds_bpermute_b32", ds_bpermute_b32),
    OP(64, "ds_add_u64", ds_add_b64), OP(65, "ds_sub_u64", ds_sub_b64),
    OP(66, "ds_rsub_u64", ds_rsub_b64), OP(67, "ds_inc_u64", ds_inc_b64),
    OP(68, "ds_dec_u64", ds_dec_b64), OP(69, "ds_min_i64", ds_min_i_b64),
    OP(70, "ds_max_i64", ds_max_i_b64), OP(71, "ds_min_u64", ds_min_u_b64),
    OP(72, "ds_max_u64", ds_max_u_b64), OP(73, "ds_and_b64", ds_and_b64),
    OP(74, "ds_or_b64", ds_or_b64), OP(75, "ds_xor_b64", ds_xor_b64),
    OP(76, "ds_mskor_b64", ds_mskor_b64), OP(77, "ds_write_b64", ds_write_b64),
    OP(78, "ds_write2_b64", ds_write2_b64), OP(79, "ds_write2st64_b64", ds_write2st64_b64),
    OP(80, "ds_cmpst_b64", ds_cmpst_b64), OP(81, "ds_cmpst_f64", ds_cmpst_f_b64),
    OP(82, "ds_min_f64", ds_min_f_b64), OP(83, "ds_max_f64", ds_max_f_b64),
    OP(84, "ds_write_b8_d16_hi", ds_write_b8_d16_hi), OP(85, "ds_write_b16_d16_hi", ds_write_b16_d16_hi),
    OP(86, "ds_read_u8_d16", ds_read_u8_d16), OP(87, "ds_read_u8_d16_hi", ds_read_u8_d16_hi),
    OP(88, "ds_read_i8_d16", ds_read_i8_d16), OP(89, "ds_read_i8_d16_hi", ds_read_i8_d16_hi),
    OP(90, "ds_read_u16_d16", ds_read_u16_d16), OP(91, "ds_read_u16_d16_hi", ds_read_u16_d16_hi),
    OP(96, "ds_add_rtn_u64", ds_add_rtn_b64), OP(97, "ds_sub_rtn_u64", ds_sub_rtn_b64),
    OP(98, "ds_rsub_rtn_u64", ds_rsub_rtn_b64), OP(99, "ds_inc_rtn_u64", ds_inc_rtn_b64),
    OP(100, "ds_dec_rtn_u64", ds_dec_rtn_b64), OP(101, "ds_min_rtn_i64", ds_min_i_rtn_b64),
    OP(102, "ds_max_rtn_i64", ds_max_i_rtn_b64), OP(103, "ds_min_rtn_u64", ds_min_u_rtn_b64),
    OP(104, "ds_max_rtn_u64", ds_max_u_rtn_b64), OP(105, "ds_and_rtn_b64", ds_and_rtn_b64),
    OP(106, "ds_or_rtn_b64", ds_or_rtn_b64), OP(107, "ds_xor_rtn_b64", ds_xor_rtn_b64),
    OP(108, "ds_mskor_rtn_b64", ds_mskor_rtn_b64), OP(109, "ds_wrxchg_rtn_b64", ds_wrxchg_rtn_b64),
    OP(110, "ds_wrxchg2_rtn_b64", ds_wrxchg2_rtn_b64),
    OP(111, "ds_wrxchg2st64_rtn_b64", ds_wrxchg2st64_rtn_b64),
    OP(112, "ds_cmpst_rtn_b64", ds_cmpst_rtn_b64), OP(113, "ds_cmpst_rtn_f64", ds_cmpst_f_rtn_b64),
    OP(114, "ds_min_rtn_f64", ds_min_f_rtn_b64), OP(115, "ds_max_rtn_f64", ds_max_f_rtn_b64),
    OP(118, "ds_read_b64", ds_read_b64), OP(119, "ds_read2_b64", ds_read2_b64),
    OP(120, "ds_read2st64_b64", ds_read2st64_b64),
    OP(222, "ds_write_b96", ds_write_b96), OP(223, "ds_write_b128", ds_write_b128),
    OP(254, "ds_read_b96", ds_read_b96), OP(255, "ds_read_b128", ds_read_b128),
};
const struct optable optab_ds = OPTABLE(optab_ds_entries);
