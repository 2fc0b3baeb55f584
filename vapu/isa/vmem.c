/*
 * vmem.c - vector memory: FLAT, GLOBAL, SCRATCH (Vega ISA ch. 9 "Flat
 * Memory Instructions", 12.11) and MUBUF (ch. 8 "Vector Memory Operations",
 * 12.9) loads, stores and atomics, one lane at a time in lane order.
 *
 * Where a lane's bytes live:
 *  - GLOBAL: VADDR pair + offset, or SADDR pair + VADDR (32-bit) + offset.
 *  - FLAT: VADDR pair + offset, then by aperture (dispatch.h): bits 63:48
 *    equal to the shared base's go to LDS at (address - base), to the
 *    private base's go to the wave's scratch, anything else to memory.
 *  - SCRATCH and flat-private: an offset into the wave's scratch, which is
 *    swizzled per lane in 4-byte elements (the layout of ROCr's scratch V#:
 *    element size 4, index stride 64, AMDGPUUsage "Private Segment Buffer"):
 *    byte o of lane l is at FLAT_SCRATCH + (o / 4) * 256 + l * 4 + o % 4.
 *  - MUBUF: V# base + SOFFSET + buffer offset (index * stride + offset, or
 *    the swizzled form when the V# says so), range checked against
 *    NUM_RECORDS: out-of-range loads read 0, stores and atomics do nothing.
 * An unmapped or forbidden address is a memory fault that stops the wave.
 * Global atomics are host atomics on the mapped bytes (naturally aligned:
 * the low address bits are ignored, as for the dword forms of the ISA).
 */
#include "vapu/isa/fp.h"
#include "vapu/isa/wave.h"

#define LANES WAVE_LANES

enum loc_kind { LOC_MEM, LOC_LDS, LOC_NONE, LOC_VIOLATION };
struct loc {
  enum loc_kind kind;
  uint64_t addr; /* GPU VA, or LDS byte offset */
};

/* Per-instruction context. */
struct vctx {
  uint64_t scratch_base; /* FLAT_SCRATCH: the wave's scratch */
  /* MUBUF V# */
  uint64_t base;
  uint32_t stride, records, soffset, elem, index_stride;
  bool swizzle, add_tid;
};

/* Where a FLAT address goes (Linux kfd_flat_memory.c, HSA64 and "GFXv9"):
 * the LDS and scratch apertures are 4 GiB each from the bases SH_MEM_BASES
 * gives (bits 63:48); every other address is memory if it is canonical
 * (bits 63:47 all equal, as a CPU's); the rest is the "hole", where a
 * vector FLAT op reports a memory violation to the SQ, as it does for a
 * payload that straddles two of these regions. */
#define APERTURE_BYTES (1ull << 32)
enum flat_region { FLAT_MEMORY, FLAT_LDS, FLAT_SCRATCH, FLAT_HOLE };
static enum flat_region flat_region(const struct vapu_apertures *ap, uint64_t va) {
  if (ap->shared_base && va - ap->shared_base < APERTURE_BYTES) return FLAT_LDS;
  if (ap->private_base && va - ap->private_base < APERTURE_BYTES) return FLAT_SCRATCH;
  uint64_t top = va >> 47;
  return top == 0 || top == 0x1ffff ? FLAT_MEMORY : FLAT_HOLE;
}

static inline uint64_t scratch_swizzle(uint64_t base, uint32_t o, unsigned l) {
  return base + (uint64_t)(o / 4) * (4 * LANES) + l * 4u + (o % 4);
}

/* Location of byte i of lane l's access, and how many bytes from there are
 * contiguous (*run). */
static struct loc vmem_loc(struct wave *w, const struct inst *in, const struct vctx *c, unsigned l,
                           uint32_t i, uint32_t size, uint32_t *run) {
  struct loc loc = {LOC_MEM, 0};
  *run = size - i;
  if (in->enc == ENC_MUBUF) {
    uint32_t index = in->idxen ? w->v[in->vaddr][l] : 0;
    if (c->add_tid) index += l;
    uint32_t off = (uint32_t)in->offset + i;
    if (in->offen) off += w->v[(in->vaddr + in->idxen) & 255][l];
    uint64_t boff;
    if (c->swizzle) {
      uint32_t elem_i = off % c->elem;
      boff = ((uint64_t)(index / c->index_stride) * c->stride + (off / c->elem) * c->elem) * c->index_stride +
             (index % c->index_stride) * c->elem + elem_i;
      if (*run > c->elem - elem_i) *run = c->elem - elem_i;
    } else {
      boff = (uint64_t)index * c->stride + off;
    }
    /* Range check (Vega ISA 8.1.8 "Range checking"): structured buffers
     * (stride, and an index from VADDR or the lane) by index and offset;
     * raw and swizzled ones by byte offset against NUM_RECORDS - SOFFSET. */
    bool oob;
    if (c->stride && !c->swizzle && (in->idxen || c->add_tid))
      oob = index >= c->records || off + *run > c->stride;
    else
      oob = c->soffset > c->records || boff + *run > (uint64_t)c->records - c->soffset;
    if (oob) {
      loc.kind = LOC_NONE;
      return loc;
    }
    loc.addr = c->base + c->soffset + boff;
    return loc;
  }
  if (in->seg == 1) { /* SCRATCH */
    uint32_t o = (in->saddr != 0x7f ? w->s[in->saddr] : w->v[in->vaddr][l]) + (uint32_t)in->offset + i;
    if (*run > 4 - o % 4) *run = 4 - o % 4;
    loc.addr = scratch_swizzle(c->scratch_base, o, l);
    return loc;
  }
  uint64_t va;
  if (in->seg == 2 && in->saddr != 0x7f) /* GLOBAL with SADDR */
    va = sreg64(w, in->saddr) + w->v[in->vaddr][l];
  else
    va = (uint64_t)w->v[(in->vaddr + 1) & 255][l] << 32 | w->v[in->vaddr][l];
  va += (uint64_t)(int64_t)in->offset + i;
  if (in->seg == 0) { /* FLAT: apertures */
    const struct vapu_apertures *ap = &w->x->ds.d.apertures;
    uint64_t first = va - i;
    enum flat_region region = flat_region(ap, first);
    if (region == FLAT_HOLE || flat_region(ap, first + size - 1) != region) {
      loc.kind = LOC_VIOLATION;
      loc.addr = first;
      return loc;
    }
    if (region == FLAT_LDS) {
      loc.kind = LOC_LDS;
      loc.addr = va - ap->shared_base;
      return loc;
    }
    if (region == FLAT_SCRATCH) {
      uint32_t o = (uint32_t)(va - ap->private_base);
      if (*run > 4 - o % 4) *run = 4 - o % 4;
      loc.addr = scratch_swizzle(c->scratch_base, o, l);
      return loc;
    }
  }
  loc.addr = va;
  return loc;
}

static bool vctx_init(struct wave *w, const struct inst *in, struct vctx *c) {
  tlb_check(w->x);
  c->scratch_base = sreg64(w, SREG_FLAT_SCRATCH_LO);
  if (in->enc != ENC_MUBUF) return true;
  /* V# (Vega ISA 8.1.5; field positions also in Linux gc_9_0_sh_mask.h
   * SQ_BUF_RSRC_WORD1/3): base [47:0], stride [61:48], swizzle_en [63],
   * NUM_RECORDS dword 2, ELEMENT_SIZE [116:115] (2 << n bytes),
   * INDEX_STRIDE [118:117] (8 << n), ADD_TID_ENABLE [119]. */
  const uint32_t *d = &w->s[in->srsrc];
  c->base = d[0] | (uint64_t)(d[1] & 0xffff) << 32;
  c->stride = (d[1] >> 16) & 0x3fff;
  c->swizzle = (d[1] >> 31) & 1;
  c->records = d[2];
  c->elem = 2u << ((d[3] >> 19) & 3);
  c->index_stride = 8u << ((d[3] >> 21) & 3);
  c->add_tid = (d[3] >> 23) & 1;
  c->soffset = scalar_src32(w, in->soffset, 0);
  return true;
}

/* The global-memory address of lane l when the instruction is GLOBAL, or
 * FLAT outside both apertures; 0 when it must take the general path. */
static inline uint64_t global_va(struct wave *w, const struct inst *in, unsigned l) {
  if (in->enc != ENC_FLAT || in->seg == 1) return 0;
  uint64_t va;
  if (in->seg == 2 && in->saddr != 0x7f) va = sreg64(w, in->saddr) + w->v[in->vaddr][l];
  else va = (uint64_t)w->v[(in->vaddr + 1) & 255][l] << 32 | w->v[in->vaddr][l];
  va += (uint64_t)(int64_t)in->offset;
  /* FLAT: plain memory only, its payload (16 bytes at most) included. */
  if (in->seg == 0 && ((va >> 47) != 0 || ((va + 15) >> 47) != 0)) return 0;
  return va;
}

/* Reads `size` bytes of lane l; false after stopping the wave on a fault. */
static bool lane_read(struct wave *w, const struct inst *in, const struct vctx *c, unsigned l,
                      uint8_t *buf, uint32_t size) {
  struct vapu_exec *x = w->x;
  uint64_t va = global_va(w, in, l);
  uint8_t *p = va ? mem_ptr_cached(x, va, size, VAPU_ACCESS_READ) : NULL;
  if (p) {
    memcpy(buf, p, size);
    return true;
  }
  for (uint32_t i = 0; i < size;) {
    uint32_t run;
    struct loc loc = vmem_loc(w, in, c, l, i, size, &run);
    if (loc.kind == LOC_VIOLATION) {
      wave_fault(w, in, VAPU_APERTURE_VIOLATION, loc.addr, VAPU_ACCESS_READ);
      return false;
    } else if (loc.kind == LOC_NONE) {
      memset(buf + i, 0, run);
    } else if (loc.kind == LOC_LDS) {
      if (loc.addr + run <= x->ds.lds_bytes) memcpy(buf + i, x->lds + loc.addr, run);
      else memset(buf + i, 0, run);
    } else {
      uint64_t fault;
      if (!mem_read(x, loc.addr, buf + i, run, &fault)) {
        wave_fault(w, in, VAPU_MEMORY_FAULT, fault, VAPU_ACCESS_READ);
        return false;
      }
    }
    i += run;
  }
  return true;
}

static bool lane_write(struct wave *w, const struct inst *in, const struct vctx *c, unsigned l,
                       const uint8_t *buf, uint32_t size) {
  struct vapu_exec *x = w->x;
  uint64_t va = global_va(w, in, l);
  uint8_t *p = va ? mem_ptr_cached(x, va, size, VAPU_ACCESS_WRITE) : NULL;
  if (p) {
    memcpy(p, buf, size);
    return true;
  }
  for (uint32_t i = 0; i < size;) {
    uint32_t run;
    struct loc loc = vmem_loc(w, in, c, l, i, size, &run);
    if (loc.kind == LOC_VIOLATION) {
      wave_fault(w, in, VAPU_APERTURE_VIOLATION, loc.addr, VAPU_ACCESS_WRITE);
      return false;
    } else if (loc.kind == LOC_LDS) {
      if (loc.addr + run <= x->ds.lds_bytes) memcpy(x->lds + loc.addr, buf + i, run);
    } else if (loc.kind == LOC_MEM) {
      uint64_t fault;
      if (!mem_write(x, loc.addr, buf + i, run, &fault)) {
        wave_fault(w, in, VAPU_MEMORY_FAULT, fault, VAPU_ACCESS_WRITE);
        return false;
      }
    }
    i += run;
  }
  return true;
}

/* ---- One page for every lane ----------------------------------------------------
 * Most GLOBAL and FLAT accesses of a wave fall in one page the TLB holds
 * already: then no lane can fault or leave plain memory, and the lanes are
 * done in one pass with the same result (lane order kept) as lane by lane.
 * Lane l's address is then *base + lo[l] (lo: the VADDR dword; base: SADDR
 * + offset, or VADDR's high dword, the same in every active lane, + offset).
 * Returns the page, or NULL when the instruction must take the lane-by-lane
 * path (which also fills the TLB). */
static const struct tlb_entry *one_page(struct wave *w, const struct inst *in, uint64_t exec,
                                        uint32_t size, uint32_t access, uint64_t *base) {
  if (in->enc != ENC_FLAT || in->seg == 1 || !exec) return NULL;
  const uint32_t *lo = w->v[in->vaddr];
  uint64_t offset = (uint64_t)(int64_t)in->offset;
  unsigned first = (unsigned)__builtin_ctzll(exec);
  uint32_t lo_min = lo[first], lo_max = lo[first];
  if (in->seg == 2 && in->saddr != 0x7f) {
    *base = sreg64(w, in->saddr) + offset;
  } else {
    const uint32_t *hi = w->v[(in->vaddr + 1) & 255];
    uint32_t h = hi[first], differs = 0;
    if (exec == ~0ull) {
      for (unsigned l = 0; l < LANES; l++) differs |= hi[l] ^ h;
    } else {
      for (uint64_t m = exec; m; m &= m - 1) differs |= hi[__builtin_ctzll(m)] ^ h;
    }
    if (differs) return NULL;
    *base = ((uint64_t)h << 32) + offset;
  }
  if (exec == ~0ull) {
    for (unsigned l = 0; l < LANES; l++) {
      lo_min = lo[l] < lo_min ? lo[l] : lo_min;
      lo_max = lo[l] > lo_max ? lo[l] : lo_max;
    }
  } else {
    for (uint64_t m = exec; m; m &= m - 1) {
      uint32_t a = lo[__builtin_ctzll(m)];
      lo_min = a < lo_min ? a : lo_min;
      lo_max = a > lo_max ? a : lo_max;
    }
  }
  uint64_t low = *base + lo_min, high = *base + lo_max; /* lane addresses grow with lo */
  const struct tlb_entry *e = &w->x->tlb[(low >> 12) & (TLB_ENTRIES - 1)];
  if (!e->size || (e->allowed & access) != access || e->size < size ||
      low - e->va > e->size - size || high - e->va > e->size - size)
    return NULL;
  /* FLAT: the whole page is plain memory, no aperture nor hole in it. */
  if (in->seg == 0) {
    const struct vapu_apertures *ap = &w->x->ds.d.apertures;
    uint64_t page_first = e->va, page_last = e->va + e->size - 1;
    if (page_last < page_first || (page_first >> 47) != (page_last >> 47) ||
        flat_region(ap, page_first) != FLAT_MEMORY ||
        (ap->shared_base && ap->shared_base - page_first <= page_last - page_first) ||
        (ap->private_base && ap->private_base - page_first <= page_last - page_first))
      return NULL;
  }
  return e;
}

/* ---- Loads and stores ---------------------------------------------------------
 * kind: how the loaded bytes land in the VGPRs. */
enum ld_kind { LD_U, LD_S, LD_D16_LO, LD_D16_HI, LD_D16S_LO, LD_D16S_HI };

static inline void land(struct wave *w, unsigned dst, unsigned l, const uint32_t *buf,
                        uint32_t size, enum ld_kind kind) {
  uint32_t v = buf[0];
  uint32_t *d = &w->v[dst][l];
  switch (kind) {
  case LD_U:
    if (size <= 4) *d = v;
    else for (unsigned i = 0; i < size / 4; i++) w->v[(dst + i) & 255][l] = buf[i];
    break;
  case LD_S: *d = size == 1 ? (uint32_t)(int8_t)v : (uint32_t)(int16_t)v; break;
  case LD_D16_LO: *d = (*d & 0xffff0000u) | (v & 0xffff); break;
  case LD_D16_HI: *d = (*d & 0xffffu) | v << 16; break;
  case LD_D16S_LO: *d = (*d & 0xffff0000u) | ((uint32_t)(int8_t)v & 0xffff); break;
  case LD_D16S_HI: *d = (*d & 0xffffu) | (uint32_t)(int8_t)v << 16; break;
  }
}

/* Inlined into each load and store below, so that size and kind are
 * constants there (the copies become single moves). */
static inline __attribute__((always_inline)) void vmem_load(struct wave *w, const struct inst *in,
                                                           uint32_t size, enum ld_kind kind) {
  struct vctx c;
  vctx_init(w, in, &c);
  unsigned dst = in->enc == ENC_MUBUF ? in->vdata : in->vdst;
  uint64_t exec = exec_mask(w), base;
  const struct tlb_entry *e = one_page(w, in, exec, size, VAPU_ACCESS_READ, &base);
  if (e) {
    const uint32_t *lo = w->v[in->vaddr];
    /* + lo[l]: lane l's bytes (integer arithmetic: base may lie below the
     * page, only base + lo[l] is inside it) */
    uintptr_t host = (uintptr_t)e->host + (uintptr_t)(base - e->va);
    if (size == 4 && kind == LD_U) { /* the common case: one move a lane */
      uint32_t *d = w->v[dst];
      FOR_EACH_LANE(exec, l, memcpy(&d[l], (const uint8_t *)(host + lo[l]), 4));
      return;
    }
    for (uint64_t m = exec; m; m &= m - 1) {
      unsigned l = (unsigned)__builtin_ctzll(m);
      uint32_t buf[4] = {0, 0, 0, 0};
      memcpy(buf, (const uint8_t *)(host + lo[l]), size);
      land(w, dst, l, buf, size, kind);
    }
    return;
  }
  for (uint64_t m = exec; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctzll(m);
    uint32_t buf[4] = {0, 0, 0, 0};
    if (!lane_read(w, in, &c, l, (uint8_t *)buf, size)) return;
    land(w, dst, l, buf, size, kind);
  }
}

static inline __attribute__((always_inline)) void vmem_store(struct wave *w, const struct inst *in,
                                                            uint32_t size, unsigned shift) {
  struct vctx c;
  vctx_init(w, in, &c);
  uint64_t exec = exec_mask(w), base;
  const struct tlb_entry *e = one_page(w, in, exec, size, VAPU_ACCESS_WRITE, &base);
  const uint32_t *lo = w->v[in->vaddr];
  for (uint64_t m = exec; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctzll(m);
    uint32_t buf[4];
    for (unsigned i = 0; i < (size + 3) / 4; i++) buf[i] = w->v[(in->vdata + i) & 255][l];
    if (shift) buf[0] >>= shift;
    if (e) memcpy((uint8_t *)((uintptr_t)e->host + (uintptr_t)(base - e->va) + lo[l]), buf, size);
    else if (!lane_write(w, in, &c, l, (const uint8_t *)buf, size)) return;
  }
}

#define LOAD(name, size, kind) static void name(struct wave *w, const struct inst *in) { vmem_load(w, in, size, kind); }
#define STORE(name, size, shift) static void name(struct wave *w, const struct inst *in) { vmem_store(w, in, size, shift); }
LOAD(load_ubyte, 1, LD_U)
LOAD(load_sbyte, 1, LD_S)
LOAD(load_ushort, 2, LD_U)
LOAD(load_sshort, 2, LD_S)
LOAD(load_dword, 4, LD_U)
LOAD(load_dwordx2, 8, LD_U)
LOAD(load_dwordx3, 12, LD_U)
LOAD(load_dwordx4, 16, LD_U)
LOAD(load_ubyte_d16, 1, LD_D16_LO)
LOAD(load_ubyte_d16_hi, 1, LD_D16_HI)
LOAD(load_sbyte_d16, 1, LD_D16S_LO)
LOAD(load_sbyte_d16_hi, 1, LD_D16S_HI)
LOAD(load_short_d16, 2, LD_D16_LO)
LOAD(load_short_d16_hi, 2, LD_D16_HI)
STORE(store_byte, 1, 0)
STORE(store_byte_d16_hi, 1, 16)
STORE(store_short, 2, 0)
STORE(store_short_d16_hi, 2, 16)
STORE(store_dword, 4, 0)
STORE(store_dwordx2, 8, 0)
STORE(store_dwordx3, 12, 0)
STORE(store_dwordx4, 16, 0)

/* ---- Atomics ----------------------------------------------------------------------
 * Data: VDATA (cmpswap: VDATA = new value, VDATA+1 (x2: +2) = compare).
 * GLC returns the old value to VDST (MUBUF: to VDATA). */
static uint64_t host_atomic(uint8_t *p, bool wide, enum atomic_op op, uint64_t a, uint64_t b,
                            uint32_t mode) {
  if (wide) {
    uint64_t *q = (uint64_t *)(void *)p, old = __atomic_load_n(q, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(q, &old, atomic_apply(op, old, a, b, true, mode), false,
                                        __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
    }
    return old;
  }
  uint32_t *q = (uint32_t *)(void *)p, old = __atomic_load_n(q, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(q, &old, (uint32_t)atomic_apply(op, old, a, b, false, mode),
                                      false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
  }
  return old;
}

static void vmem_atomic(struct wave *w, const struct inst *in, enum atomic_op op, bool wide) {
  struct vctx c;
  vctx_init(w, in, &c);
  unsigned size = wide ? 8 : 4, dw = wide ? 2 : 1;
  bool cmp = op == A_CMPST;
  unsigned ret = in->enc == ENC_MUBUF ? in->vdata : in->vdst;
  for (uint64_t m = exec_mask(w); m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctzll(m);
    uint64_t data = w->v[in->vdata][l], other = 0;
    if (wide) data |= (uint64_t)w->v[(in->vdata + 1) & 255][l] << 32;
    if (cmp) {
      other = w->v[(in->vdata + dw) & 255][l];
      if (wide) other |= (uint64_t)w->v[(in->vdata + dw + 1) & 255][l] << 32;
    }
    /* cmpswap compares with the second operand and stores the first. */
    uint64_t a = cmp ? other : data, b = cmp ? data : 0;
    uint32_t run;
    struct loc loc = vmem_loc(w, in, &c, l, 0, size, &run);
    uint64_t old = 0;
    if (loc.kind == LOC_VIOLATION) {
      wave_fault(w, in, VAPU_APERTURE_VIOLATION, loc.addr, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
      return;
    } else if (loc.kind == LOC_LDS) {
      if (loc.addr + size <= w->x->ds.lds_bytes) {
        memcpy(&old, w->x->lds + loc.addr, size);
        uint64_t r = atomic_apply(op, old, a, b, wide, w->mode);
        memcpy(w->x->lds + loc.addr, &r, size);
      }
    } else if (loc.kind == LOC_MEM) {
      uint64_t fault, va = loc.addr & ~(uint64_t)(size - 1);
      uint8_t *p = mem_ptr(w->x, va, size, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE, &fault);
      if (!p) {
        wave_fault(w, in, VAPU_MEMORY_FAULT, fault, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
        return;
      }
      old = host_atomic(p, wide, op, a, b, w->mode);
    }
    if (in->glc) {
      w->v[ret][l] = (uint32_t)old;
      if (wide) w->v[(ret + 1) & 255][l] = (uint32_t)(old >> 32);
    }
  }
}
#define ATOMIC(name, op, wide) static void name(struct wave *w, const struct inst *in) { vmem_atomic(w, in, op, wide); }
ATOMIC(atomic_swap, A_XCHG, false)
ATOMIC(atomic_cmpswap, A_CMPST, false)
ATOMIC(atomic_add, A_ADD, false)
ATOMIC(atomic_sub, A_SUB, false)
ATOMIC(atomic_smin, A_MIN_I, false)
ATOMIC(atomic_umin, A_MIN_U, false)
ATOMIC(atomic_smax, A_MAX_I, false)
ATOMIC(atomic_umax, A_MAX_U, false)
ATOMIC(atomic_and, A_AND, false)
ATOMIC(atomic_or, A_OR, false)
ATOMIC(atomic_xor, A_XOR, false)
ATOMIC(atomic_inc, A_INC, false)
ATOMIC(atomic_dec, A_DEC, false)
ATOMIC(atomic_swap_x2, A_XCHG, true)
ATOMIC(atomic_cmpswap_x2, A_CMPST, true)
ATOMIC(atomic_add_x2, A_ADD, true)
ATOMIC(atomic_sub_x2, A_SUB, true)
ATOMIC(atomic_smin_x2, A_MIN_I, true)
ATOMIC(atomic_umin_x2, A_MIN_U, true)
ATOMIC(atomic_smax_x2, A_MAX_I, true)
ATOMIC(atomic_umax_x2, A_MAX_U, true)
ATOMIC(atomic_and_x2, A_AND, true)
ATOMIC(atomic_or_x2, A_OR, true)
ATOMIC(atomic_xor_x2, A_XOR, true)
ATOMIC(atomic_inc_x2, A_INC, true)
ATOMIC(atomic_dec_x2, A_DEC, true)

/* L1 cache write-back/invalidate: memory is coherent in the model. */
static void buffer_wbinvl1(struct wave *w, const struct inst *in) {}

/* ---- Tables ------------------------------------------------------------------------
 * FLAT, GLOBAL and SCRATCH share opcodes (the segment picks the name;
 * inst_mnemonic writes the prefix); MUBUF has its own numbering. */
#define OP(code, name, fn) {name, fn, T_NONE, {T_NONE, T_NONE, T_NONE}, 0, code}
#define MEM_OPS(P)                                                                        \
  OP(16, P "load_ubyte", load_ubyte), OP(17, P "load_sbyte", load_sbyte),                 \
  OP(18, P "load_ushort", load_ushort), OP(19, P "load_sshort", load_sshort),             \
  OP(20, P "load_dword", load_dword), OP(21, P "load_dwordx2", load_dwordx2),             \
  OP(22, P "load_dwordx3", load_dwordx3), OP(23, P "load_dwordx4", load_dwordx4),         \
  OP(24, P "store_byte", store_byte), OP(25, P "store_byte_d16_hi", store_byte_d16_hi),   \
  OP(26, P "store_short", store_short), OP(27, P "store_short_d16_hi", store_short_d16_hi), \
  OP(28, P "store_dword", store_dword), OP(29, P "store_dwordx2", store_dwordx2),         \
  OP(30, P "store_dwordx3", store_dwordx3), OP(31, P "store_dwordx4", store_dwordx4),     \
  OP(32, P "load_ubyte_d16", load_ubyte_d16), OP(33, P "load_ubyte_d16_hi", load_ubyte_d16_hi), \
  OP(34, P "load_sbyte_d16", load_sbyte_d16), OP(35, P "load_sbyte_d16_hi", load_sbyte_d16_hi), \
  OP(36, P "load_short_d16", load_short_d16), OP(37, P "load_short_d16_hi", load_short_d16_hi), \
  OP(64, P "atomic_swap", atomic_swap), OP(65, P "atomic_cmpswap", atomic_cmpswap),       \
  OP(66, P "atomic_add", atomic_add), OP(67, P "atomic_sub", atomic_sub),                 \
  OP(68, P "atomic_smin", atomic_smin), OP(69, P "atomic_umin", atomic_umin),             \
  OP(70, P "atomic_smax", atomic_smax), OP(71, P "atomic_umax", atomic_umax),             \
  OP(72, P "atomic_and", atomic_and), OP(73, P "atomic_or", atomic_or),                   \
  OP(74, P "atomic_xor", atomic_xor), OP(75, P "atomic_inc", atomic_inc),                 \
  OP(76, P "atomic_dec", atomic_dec), OP(96, P "atomic_swap_x2", atomic_swap_x2),         \
  OP(97, P "atomic_cmpswap_x2", atomic_cmpswap_x2), OP(98, P "atomic_add_x2", atomic_add_x2), \
  OP(99, P "atomic_sub_x2", atomic_sub_x2), OP(100, P "atomic_smin_x2", atomic_smin_x2),  \
  OP(101, P "atomic_umin_x2", atomic_umin_x2), OP(102, P "atomic_smax_x2", atomic_smax_x2), \
  OP(103, P "atomic_umax_x2", atomic_umax_x2), OP(104, P "atomic_and_x2", atomic_and_x2), \
  OP(105, P "atomic_or_x2", atomic_or_x2), OP(106, P "atomic_xor_x2", atomic_xor_x2),     \
  OP(107, P "atomic_inc_x2", atomic_inc_x2), OP(108, P "atomic_dec_x2", atomic_dec_x2)

/* Names without the segment prefix: "load_dword" -> flat_/global_/scratch_. */
static const struct opinfo optab_flat_entries[] = {MEM_OPS("")};
const struct optable optab_flat = OPTABLE(optab_flat_entries);
static const struct opinfo optab_mubuf_entries[] = {
    MEM_OPS("buffer_"),
    OP(0x3e, "buffer_wbinvl1", buffer_wbinvl1),
    OP(0x3f, "buffer_wbinvl1_vol", buffer_wbinvl1),
};
const struct optable optab_mubuf = OPTABLE(optab_mubuf_entries);
