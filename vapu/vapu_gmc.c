/* vapu_gmc.c - the GPU memory controller of both hubs (GFX hub = UTCL2 in
 * GC, MM hub): MC apertures as the BIOS and driver program them, the gfx9
 * multi-level page-table walk per VMID context, a TLB per requester kept
 * coherent by the invalidation engines, and protection faults latched in the
 * fault status registers and reported into the IH ring.
 *
 * Register offsets: Linux include/asic_reg/gc/gc_9_1_offset.h (GFX hub,
 * GC segment 0) and mmhub/mmhub_9_1_offset.h (MM hub, MMHUB segment 0);
 * fields: gc_9_1_sh_mask.h. Page-table formats: Linux amdgpu_vm.h
 * (AMDGPU_PTE_*, AMDGPU_PDE_PTE) and gmc_v9_0.c. Fault reporting: Linux
 * gmc_v9_0_process_interrupt (src_data layout, client IDs VMC 0x12 and
 * UTCL2 0x1b from soc15_ih_clientid.h).
 *
 * Coherence (what silicon does silently, the model reports: vapu.h
 * vapu_stats): the walker and every access snoop the CPU's caches only
 * through a system PTE/PDE with SNOOPED (Linux amdgpu_ttm_tt_pde_flags
 * sets it for cached system memory; local memory is never snooped), so
 * one that is not snooped must find memory the CPU does not cache
 * write-back (plat_cpu_cache_mode); coherent requesters need MTYPE_UC.
 * PTE fields: AMDGPU_PTE_SNOOPED bit 2, AMDGPU_PTE_MTYPE_VG10 bits 58:57
 * (amdgpu_vm.h), MTYPE values vega10_enum.h.
 *
 * How the model reports each fault in VM_L2_PROTECTION_FAULT_STATUS (the
 * field names are Linux's; what sets which field is this model's reading):
 * address outside the context's range or outside every aperture =
 * MAPPING_ERROR; invalid PDE = WALKER_ERROR 1; then PERMISSION_FAULTS bit 0
 * invalid PTE, bit 1 read, bit 2 write, bit 3 execute denied (the order of
 * the *_PROTECTION_FAULT_ENABLE bits in VM_CONTEXT*_CNTL). */
#define LOG_TAG "vapu"
#include <errno.h>
#include <string.h>

#include "vapu/vapu_internal.h"
#include "lib/util.h"

struct vapu_hub_layout {
  uint16_t hw_id;
  uint32_t l2_cntl, fault_cntl, fault_status, fault_addr_lo, fault_addr_hi;
  uint32_t ctx0_cntl, inv_sem0, inv_req0, inv_ack0;
  uint32_t pt_base0, pt_start0, pt_end0;
  uint32_t fb_offset, fb_base, fb_top, agp_top, agp_bot, agp_base, sys_low, sys_high, l1_tlb_cntl;
};

static const struct vapu_hub_layout hub_layouts[2] = {
    [VAPU_GFXHUB] = {HWID_GC, 0x0840, 0x0847, 0x084b, 0x084c, 0x084d, 0x0880, 0x0891, 0x08a3,
                     0x08b5, 0x08eb, 0x090b, 0x092b, 0x096b, 0x0980, 0x0981, 0x0982, 0x0983,
                     0x0984, 0x0985, 0x0986, 0x0987},
    [VAPU_MMHUB] = {HWID_MMHUB, 0x0680, 0x0687, 0x068b, 0x068c, 0x068d, 0x06c0, 0x06d1, 0x06e3,
                    0x06f5, 0x072b, 0x074b, 0x076b, 0x0817, 0x082c, 0x082d, 0x082e, 0x082f,
                    0x0830, 0x0831, 0x0832, 0x0833},
};

#define INVALIDATION_ENGINES 18
#define FB_MC_BASE 0x000000F400000000ull /* where Raven's BIOS puts the frame buffer in MC space */

#define L2_CNTL_ENABLE_L2_CACHE 0x1u
#define L1_TLB_CNTL_ENABLE 0x1u
#define L1_TLB_CNTL_MTYPE_SHIFT 11 /* MC_VM_MX_L1_TLB_CNTL.MTYPE [12:11] (gc_9_1_sh_mask.h) */
#define CTX_ENABLE 0x1u
#define CTX_RETRY_FAULT 0x00000080u /* RETRY_PERMISSION_OR_INVALID_PAGE_FAULT (gc_9_1_sh_mask.h) */
#define CTX_DEPTH(c) (((c) >> 1) & 0x3u)
#define CTX_BLOCK_SIZE(c) (((c) >> 3) & 0xfu)
#define CTX_INT_RANGE 0x00000200u
#define CTX_INT_PDE0 0x00002000u
#define CTX_INT_VALID 0x00008000u
#define CTX_INT_READ 0x00020000u
#define CTX_INT_WRITE 0x00080000u
#define CTX_INT_EXECUTE 0x00200000u

#define PTE_VALID (1ull << 0)
#define PTE_SYSTEM (1ull << 1)
#define PTE_SNOOPED (1ull << 2)
#define PTE_MTYPE(p) (((p) >> 57) & 3u)
#define MTYPE_UC 3u
#define PTE_EXECUTABLE (1ull << 4)
#define PTE_READABLE (1ull << 5)
#define PTE_WRITEABLE (1ull << 6)
#define PTE_FRAG(p) (((p) >> 7) & 0x1fu)
#define PDE_PTE (1ull << 54)
#define PDE_ADDR_MASK 0x0000FFFFFFFFFFC0ull
#define PTE_ADDR_MASK 0x0000FFFFFFFFF000ull

#define STATUS_MORE_FAULTS 0x1u
#define STATUS_WALKER_PDE 0x2u /* WALKER_ERROR = 1 */
#define STATUS_PERM_VALID 0x10u
#define STATUS_PERM_READ 0x20u
#define STATUS_PERM_WRITE 0x40u
#define STATUS_PERM_EXECUTE 0x80u
#define STATUS_MAPPING_ERROR 0x100u
#define STATUS_CID_SHIFT 9
#define STATUS_RW 0x40000u
#define STATUS_VMID_SHIFT 20

#define IH_CLIENT_VMC 0x12
/* IV src_data[1] of a page fault: address [47:44] in [3:0], write 0x20,
 * retry 0x80 (Linux gmc_v9_0.c gmc_v9_0_process_interrupt). */
#define IV_FAULT_WRITE 0x20u
#define IV_FAULT_RETRY 0x80u
/* How long a retry fault waits for the driver's answer before it becomes an
 * ordinary fault. On the chip the wave replays for as long as it takes; the
 * bound only keeps a driver that never answers from hanging the model, and
 * must not fire for a driver that is merely slow (a loaded host, the
 * interrupt thread not scheduled for a while). */
#define RETRY_WAIT_NS 5000000000ull
#define RETRY_POLL_NS 100000ull    /* how often a waiting retry looks at IH_RB_RPTR */
#define IH_CLIENT_UTCL2 0x1b

static uint32_t hub_reg(struct vapu *v, int hub, uint32_t offset) {
  return vapu_reg_get(v, v->hubs[hub].base + offset);
}

static uint64_t reg_pair(struct vapu *v, int hub, uint32_t lo_offset) {
  return hub_reg(v, hub, lo_offset) | (uint64_t)hub_reg(v, hub, lo_offset + 1) << 32;
}

/* ---- Invalidation engines ---- */

static int engine_of(struct vapu *v, uint32_t index, int hub, uint32_t first) {
  return (int)(index - v->hubs[hub].base - first);
}

static void invalidate_vmid(struct vapu *v, int hub, int vmid) {
  __atomic_add_fetch(&v->hubs[hub].tlb_generation[vmid], 1, __ATOMIC_ACQ_REL);
  plat_wake(&v->hubs[hub].tlb_generation[vmid]); /* requesters waiting on a retry fault */
}

static void invalidate_request(struct vapu *v, uint32_t index, uint32_t value, void *arg) {
  int hub = (int)(uintptr_t)arg;
  const struct vapu_hub_layout *l = hub_layouts + hub;
  int engine = engine_of(v, index, hub, l->inv_req0);
  vapu_reg_set(v, index, value);
  uint32_t vmids = value & 0xffffu;
  /* Drop every cached translation of the named VMIDs: TLB entries carry the
   * generation they were filled in. */
  for (int vmid = 0; vmid < 16; vmid++)
    if (vmids & (1u << vmid)) invalidate_vmid(v, hub, vmid);
  vapu_stat_add(&v->stats.invalidations);
  vapu_reg_set(v, v->hubs[hub].base + l->inv_ack0 + engine, vmids);
}

/* Reading the semaphore register acquires it: 1 = acquired. */
static uint32_t semaphore_read(struct vapu *v, uint32_t index, void *arg) {
  int hub = (int)(uintptr_t)arg;
  uint32_t bit = 1u << engine_of(v, index, hub, hub_layouts[hub].inv_sem0);
  uint32_t old = __atomic_fetch_or(&v->hubs[hub].semaphore_owner_mask, bit, __ATOMIC_ACQ_REL);
  return (old & bit) ? 0 : 1;
}

static void semaphore_write(struct vapu *v, uint32_t index, uint32_t value, void *arg) {
  int hub = (int)(uintptr_t)arg;
  uint32_t bit = 1u << engine_of(v, index, hub, hub_layouts[hub].inv_sem0);
  if (!(value & 1)) __atomic_and_fetch(&v->hubs[hub].semaphore_owner_mask, ~bit, __ATOMIC_ACQ_REL);
}

/* ---- Fault status ---- */

static void fault_cntl_write(struct vapu *v, uint32_t index, uint32_t value, void *arg) {
  int hub = (int)(uintptr_t)arg;
  const struct vapu_hub_layout *l = hub_layouts + hub;
  uint64_t irq = spin_lock_irqsave(&v->hubs[hub].fault_lock);
  if (value & 1) { /* CLEAR_PROTECTION_FAULT_STATUS_ADDR */
    vapu_reg_set(v, v->hubs[hub].base + l->fault_status, 0);
    vapu_reg_set(v, v->hubs[hub].base + l->fault_addr_lo, 0);
    vapu_reg_set(v, v->hubs[hub].base + l->fault_addr_hi, 0);
  }
  vapu_reg_set(v, index, value & ~1u);
  spin_unlock_irqrestore(&v->hubs[hub].fault_lock, irq);
}

static void read_only_write(struct vapu *v, uint32_t index, uint32_t value, void *arg) {}

static uint32_t fault_interrupt_bit(uint32_t status) {
  if (status & STATUS_MAPPING_ERROR) return CTX_INT_RANGE;
  if (status & STATUS_WALKER_PDE) return CTX_INT_PDE0;
  if (status & STATUS_PERM_VALID) return CTX_INT_VALID;
  if (status & STATUS_PERM_WRITE) return CTX_INT_WRITE;
  if (status & STATUS_PERM_EXECUTE) return CTX_INT_EXECUTE;
  return CTX_INT_READ;
}

static void raise_fault(struct vapu *v, const struct vapu_requester *rq, uint64_t va,
                        unsigned access, uint32_t reason) {
  int hub = rq->hub;
  const struct vapu_hub_layout *l = hub_layouts + hub;
  uint32_t base = v->hubs[hub].base;
  bool write = access & VAPU_GMC_WRITE;
  uint64_t irq = spin_lock_irqsave(&v->hubs[hub].fault_lock);
  uint32_t latched = vapu_reg_get(v, base + l->fault_status);
  if (latched) {
    vapu_reg_set(v, base + l->fault_status, latched | STATUS_MORE_FAULTS);
  } else {
    uint32_t status = reason | (uint32_t)(rq->client & 0x1ff) << STATUS_CID_SHIFT |
                      (write ? STATUS_RW : 0) | (uint32_t)(rq->vmid & 0xf) << STATUS_VMID_SHIFT;
    vapu_reg_set(v, base + l->fault_addr_lo, (uint32_t)(va >> 12));
    vapu_reg_set(v, base + l->fault_addr_hi, (uint32_t)(va >> 44) & 0xf);
    vapu_reg_set(v, base + l->fault_status, status);
  }
  spin_unlock_irqrestore(&v->hubs[hub].fault_lock, irq);
  log_debug("%s fault: vmid %u address 0x%llx %s, reason 0x%x",
            hub == VAPU_GFXHUB ? "gfxhub" : "mmhub", rq->vmid, (unsigned long long)va,
            write ? "write" : "read", reason);

  uint32_t cntl = hub_reg(v, hub, l->ctx0_cntl + rq->vmid);
  if (!(cntl & fault_interrupt_bit(reason))) return;
  uint32_t src_data[4] = {(uint32_t)(va >> 12), ((uint32_t)(va >> 44) & 0xfu) | (write ? 0x20u : 0), 0,
                          0};
  vapu_ih_post(v, hub == VAPU_GFXHUB ? IH_CLIENT_UTCL2 : IH_CLIENT_VMC, 0, 0, rq->vmid,
               hub == VAPU_MMHUB, src_data);
}

/* ---- Translation ---- */

struct translation {
  uint64_t va, pa, size; /* the whole fragment */
  unsigned allowed;
  unsigned mtype;
};

/* ---- Coherence ---- */

static uint64_t incoherence_total;

uint64_t vapu_incoherence_count(void) { return __atomic_load_n(&incoherence_total, __ATOMIC_RELAXED); }

static void incoherence(struct vapu *v, uint64_t *counter, const char *what, uint64_t va, uint64_t pa, uint8_t vmid) {
  __atomic_add_fetch(&incoherence_total, 1, __ATOMIC_RELAXED);
  if (__atomic_add_fetch(counter, 1, __ATOMIC_RELAXED) == 1)
    log_warn("incoherent on silicon: %s (VMID %u, address 0x%llx, memory 0x%llx)", what, vmid,
             (unsigned long long)va, (unsigned long long)pa);
}

/* An access to `pa` that snoops (or not) the CPU's caches: stale data on
 * silicon when it does not and the CPU caches that memory write-back. */
static bool unsnooped_cached(uint64_t pa, bool snooped) {
  return !snooped && plat_cpu_cache_mode(pa) == PLAT_CACHE_WRITE_BACK;
}

/* Physical memory the GPU may touch through a local (non-system) PTE: the
 * carve-out at its system physical address (MC_VM_FB_OFFSET). */
static bool local_physical_ok(struct vapu *v, uint64_t pa, uint64_t size) {
  uint64_t fb = (uint64_t)(uintptr_t)v->carveout;
  return pa >= fb && pa + size <= fb + v->carveout_bytes;
}

static uint64_t read_entry(uint64_t table, uint64_t index) {
  return __atomic_load_n((const uint64_t *)(uintptr_t)(table + index * 8), __ATOMIC_ACQUIRE);
}

/* Walks the context's page table. Returns 0 and fills *t, or the fault
 * status reason. */
static uint32_t walk(struct vapu *v, int hub, uint8_t vmid, uint64_t va, struct translation *t) {
  const struct vapu_hub_layout *l = hub_layouts + hub;
  uint32_t cntl = hub_reg(v, hub, l->ctx0_cntl + vmid);
  uint64_t start = reg_pair(v, hub, l->pt_start0 + 2u * vmid) << 12;
  uint64_t end = reg_pair(v, hub, l->pt_end0 + 2u * vmid) << 12 | 0xfff;
  uint64_t base = reg_pair(v, hub, l->pt_base0 + 2u * vmid);
  if (va < start || va > end) return STATUS_MAPPING_ERROR;
  if (!(hub_reg(v, hub, l->l2_cntl) & L2_CNTL_ENABLE_L2_CACHE)) {
    log_warn("page walk with the VM L2 disabled (VM_L2_CNTL.ENABLE_L2_CACHE = 0)");
    return STATUS_WALKER_PDE;
  }
  if (!(base & PTE_VALID)) return STATUS_WALKER_PDE;
  vapu_stat_add(&v->stats.page_walks);

  unsigned depth = CTX_DEPTH(cntl);
  unsigned block = 9 + CTX_BLOCK_SIZE(cntl); /* bits of VA resolved by the last level */
  uint64_t offset = va - start;
  uint64_t table = base & PDE_ADDR_MASK;
  /* Each table is read as the entry pointing at it says: snooped only
   * from system memory with SNOOPED. */
  uint64_t pointer = base;
  uint64_t entry = 0, page = 1ull << 12;
  bool leaf_from_pde = false;
  for (unsigned level = 0; level < depth; level++) {
    unsigned shift = 12 + block + 9 * (depth - 1 - level);
    uint64_t index = (offset >> shift) & 0x1ff;
    if (level == 0) index = offset >> shift; /* the root covers what is left */
    if (level == 0 && index >= 512) return STATUS_MAPPING_ERROR;
    if (unsnooped_cached(table, (pointer & PTE_SYSTEM) && (pointer & PTE_SNOOPED)))
      incoherence(v, &v->stats.unsnooped_walks, "page table read without snooping write-back memory", va,
                  table, vmid);
    entry = read_entry(table, index);
    if (!(entry & PTE_VALID)) return STATUS_WALKER_PDE;
    if (level == depth - 1 && (entry & PDE_PTE)) { /* PDB0 entry used as a PTE */
      page = 1ull << shift;
      leaf_from_pde = true;
      break;
    }
    table = entry & PDE_ADDR_MASK;
    pointer = entry;
    if (!(entry & PTE_SYSTEM) && !local_physical_ok(v, table, 4096)) return STATUS_WALKER_PDE;
  }
  if (!leaf_from_pde) {
    uint64_t index = (offset >> 12) & ((1ull << block) - 1);
    if (depth == 0) index = offset >> 12; /* flat table: one PTE per page of the range */
    if (unsnooped_cached(table, (pointer & PTE_SYSTEM) && (pointer & PTE_SNOOPED)))
      incoherence(v, &v->stats.unsnooped_walks, "page table read without snooping write-back memory", va,
                  table, vmid);
    entry = read_entry(table, index);
  }
  if (!(entry & PTE_VALID)) return STATUS_PERM_VALID;
  unsigned allowed = (entry & PTE_READABLE ? VAPU_GMC_READ : 0) |
                     (entry & PTE_WRITEABLE ? VAPU_GMC_WRITE : 0) |
                     (entry & PTE_EXECUTABLE ? VAPU_GMC_EXECUTE : 0);
  /* The fragment field says 2^frag pages around this one are contiguous:
   * the TLB may keep them as one translation. */
  uint64_t size = 4096ull << PTE_FRAG(entry);
  if (size < page) size = page;
  uint64_t pa_page = (entry & PTE_ADDR_MASK) + (va & (page - 1) & ~0xfffull);
  t->va = va & ~(size - 1);
  t->pa = pa_page - ((va & (size - 1)) & ~0xfffull);
  t->size = size;
  t->allowed = allowed;
  t->mtype = PTE_MTYPE(entry);
  if (!(entry & PTE_SYSTEM) && !local_physical_ok(v, t->pa, size)) return STATUS_MAPPING_ERROR;
  if (unsnooped_cached(t->pa, (entry & PTE_SYSTEM) && (entry & PTE_SNOOPED)))
    incoherence(v, &v->stats.unsnooped_accesses, "access without snooping write-back memory", va, t->pa, vmid);
  return 0;
}

/* The frame buffer's MC range as the MM hub's MC_VM_FB_LOCATION_BASE/TOP
 * say now (the BIOS's values unless a driver moved it). */
void vapu_gmc_frame_buffer(struct vapu *v, uint64_t *mc_base, uint64_t *size) {
  const struct vapu_hub_layout *l = hub_layouts + VAPU_MMHUB;
  uint64_t base = (uint64_t)(hub_reg(v, VAPU_MMHUB, l->fb_base) & 0xffffff) << 24;
  uint64_t top = (uint64_t)(hub_reg(v, VAPU_MMHUB, l->fb_top) & 0xffffff) << 24 | 0xffffff;
  *mc_base = base;
  *size = top >= base ? top - base + 1 : 0;
}

const char *vapu_gmc_context_problem(struct vapu *v, enum vapu_hub hub, unsigned vmid, uint64_t va,
                                     uint64_t size) {
  const struct vapu_hub_layout *l = hub_layouts + hub;
  if (vmid > 15) return "VMID out of range";
  if (!(hub_reg(v, hub, l->ctx0_cntl + vmid) & CTX_ENABLE)) return "its VM context is not enabled";
  if (!(reg_pair(v, hub, l->pt_base0 + 2u * vmid) & PTE_VALID)) return "its page table base is not valid";
  uint64_t start = reg_pair(v, hub, l->pt_start0 + 2u * vmid) << 12;
  uint64_t end = reg_pair(v, hub, l->pt_end0 + 2u * vmid) << 12 | 0xfff;
  if (va < start || va + size - 1 > end || va + size < va) return "the range is outside its page table";
  return NULL;
}

/* VMID 0 addresses outside its page table: the MC apertures. */
static uint32_t aperture(struct vapu *v, int hub, uint64_t va, struct translation *t) {
  const struct vapu_hub_layout *l = hub_layouts + hub;
  uint64_t low = (uint64_t)hub_reg(v, hub, l->sys_low) << 18;
  uint64_t high = (uint64_t)hub_reg(v, hub, l->sys_high) << 18;
  high = v->chip->aperture_high_exclusive ? high - 1 : high | 0x3ffff;
  uint64_t fb_base = (uint64_t)(hub_reg(v, hub, l->fb_base) & 0xffffff) << 24;
  uint64_t fb_top = (uint64_t)(hub_reg(v, hub, l->fb_top) & 0xffffff) << 24 | 0xffffff;
  uint64_t fb_offset = (uint64_t)(hub_reg(v, hub, l->fb_offset) & 0xffffff) << 24;
  uint64_t agp_bot = (uint64_t)(hub_reg(v, hub, l->agp_bot) & 0xffffff) << 24;
  uint64_t agp_top = (uint64_t)(hub_reg(v, hub, l->agp_top) & 0xffffff) << 24 | 0xffffff;
  if (va < low || va > high) return STATUS_MAPPING_ERROR;
  uint64_t page = va & ~0xfffull;
  if (va >= fb_base && va <= fb_top) {
    t->pa = page - fb_base + fb_offset;
    if (!local_physical_ok(v, t->pa, 4096)) return STATUS_MAPPING_ERROR;
    if (unsnooped_cached(t->pa, false))
      incoherence(v, &v->stats.unsnooped_accesses, "frame buffer access the CPU caches write-back", va, t->pa, 0);
  } else if (agp_bot <= agp_top && va >= agp_bot && va <= agp_top) {
    t->pa = page - agp_bot + ((uint64_t)hub_reg(v, hub, l->agp_base) << 24);
  } else {
    return STATUS_MAPPING_ERROR;
  }
  t->va = page;
  t->size = 4096;
  t->allowed = VAPU_GMC_READ | VAPU_GMC_WRITE | VAPU_GMC_EXECUTE;
  t->mtype = (hub_reg(v, hub, l->l1_tlb_cntl) >> L1_TLB_CNTL_MTYPE_SHIFT) & 3u; /* apertures' MTYPE */
  return 0;
}

static struct vapu_tlb_entry *tlb_find(struct vapu *v, struct vapu_tlb *tlb,
                                       const struct vapu_requester *rq, uint64_t va) {
  uint32_t generation = __atomic_load_n(&v->hubs[rq->hub].tlb_generation[rq->vmid], __ATOMIC_ACQUIRE);
  for (int i = 0; i < VAPU_TLB_ENTRIES; i++) {
    struct vapu_tlb_entry *e = &tlb->e[i];
    if (e->size && e->vmid == rq->vmid && e->hub == rq->hub && va - e->va < e->size &&
        e->generation == generation)
      return e;
  }
  return NULL;
}

/* A retry fault (XNACK replay): the page is not valid and the context
 * retries, so the UTCL2 tells the driver through the IH ring (retry bit,
 * no status latched) and the request waits until the driver has consumed
 * that entry (IH_RB_RPTR past it), having mapped the page or not; the
 * driver invalidates the VMID before it moves the read pointer. Waiting
 * for any invalidation instead would take another one (another queue's
 * fault answered, a remap of other memory) for the answer and fault before
 * the driver mapped the page. True if the walk is worth trying again;
 * false when the IH ring is off or the driver never answered (then it is
 * an ordinary fault). */
static bool retry_fault(struct vapu *v, const struct vapu_requester *rq, uint64_t va,
                        unsigned access) {
  int hub = rq->hub;
  const uint32_t src_data[4] = {(uint32_t)(va >> 12),
                                ((uint32_t)(va >> 44) & 0xfu) | IV_FAULT_RETRY |
                                    (access & VAPU_GMC_WRITE ? IV_FAULT_WRITE : 0),
                                0, 0};
  uint32_t entry;
  if (!vapu_ih_post_entry(v, hub == VAPU_GFXHUB ? IH_CLIENT_UTCL2 : IH_CLIENT_VMC, 0, 0, rq->vmid,
                          hub == VAPU_MMHUB, src_data, &entry))
    return false;
  if (v->config.faults.invalidation_during_retry) invalidate_vmid(v, hub, rq->vmid);
  const volatile uint32_t *gen = &v->hubs[hub].tlb_generation[rq->vmid];
  uint64_t until = plat_now_ns() + RETRY_WAIT_NS;
  while (!vapu_ih_entry_consumed(v, entry)) {
    uint64_t now = plat_now_ns();
    if (now >= until) {
      log_warn("retry fault at 0x%llx (VMID %u): the driver did not take the interrupt",
               (unsigned long long)va, rq->vmid);
      return false;
    }
    /* Woken by the driver's invalidation, which comes just before it moves
     * the read pointer; the nap bounds the wait for that move. */
    uint32_t seen = __atomic_load_n(gen, __ATOMIC_ACQUIRE);
    if (!vapu_ih_entry_consumed(v, entry))
      plat_wait(gen, seen, until - now < RETRY_POLL_NS ? until - now : RETRY_POLL_NS);
  }
  return true;
}

/* The translation of `va` (from the TLB or a walk that fills it): 0, or the
 * fault status reason. Raises no fault (a retry fault, which the driver
 * answers by mapping the page, may be posted for `access`). */
static uint32_t lookup(struct vapu *v, const struct vapu_requester *rq, struct vapu_tlb *tlb, uint64_t va,
                       unsigned access, struct translation *out) {
  struct vapu_tlb_entry *hit = tlb ? tlb_find(v, tlb, rq, va) : NULL;
  struct translation t;
  if (hit) {
    vapu_stat_add(&v->stats.tlb_hits);
    t = (struct translation){hit->va, hit->pa, hit->size, hit->access, hit->mtype};
  } else {
    int hub = rq->hub;
    const struct vapu_hub_layout *l = hub_layouts + hub;
    uint32_t generation = __atomic_load_n(&v->hubs[hub].tlb_generation[rq->vmid], __ATOMIC_ACQUIRE);
    uint32_t reason;
    if (!(hub_reg(v, hub, l->l1_tlb_cntl) & L1_TLB_CNTL_ENABLE)) {
      log_warn("GPU access with the L1 TLB disabled (MC_VM_MX_L1_TLB_CNTL)");
      reason = STATUS_MAPPING_ERROR;
    } else if (hub_reg(v, hub, l->ctx0_cntl + rq->vmid) & CTX_ENABLE) {
      reason = walk(v, hub, rq->vmid, va, &t);
      if (reason == STATUS_MAPPING_ERROR && rq->vmid == 0) reason = aperture(v, hub, va, &t);
      /* An invalid PDE or PTE in a context that retries: ask the driver,
       * once (a second failure is its answer: nothing to map there). */
      if (rq->vmid != 0 && !(access & VAPU_GMC_NO_FAULT) &&
          (reason == STATUS_PERM_VALID || reason == STATUS_WALKER_PDE) &&
          (hub_reg(v, hub, l->ctx0_cntl + rq->vmid) & CTX_RETRY_FAULT) &&
          retry_fault(v, rq, va, access)) {
        generation = __atomic_load_n(&v->hubs[hub].tlb_generation[rq->vmid], __ATOMIC_ACQUIRE);
        reason = walk(v, hub, rq->vmid, va, &t);
      }
    } else {
      reason = rq->vmid == 0 ? aperture(v, hub, va, &t) : STATUS_MAPPING_ERROR;
    }
    if (reason) return reason;
    if (tlb) {
      struct vapu_tlb_entry *e = &tlb->e[(va >> 12) % VAPU_TLB_ENTRIES];
      *e = (struct vapu_tlb_entry){t.va, t.pa, t.size, generation, rq->vmid, (uint8_t)hub,
                                   (uint8_t)t.allowed, (uint8_t)t.mtype};
    }
  }
  *out = t;
  return 0;
}

bool vapu_translate_page(struct vapu *v, const struct vapu_requester *rq, struct vapu_tlb *tlb,
                         uint64_t va, unsigned access, struct vapu_gmc_page *page) {
  if (rq->vmid > 15 || (rq->hub != VAPU_GFXHUB && rq->hub != VAPU_MMHUB)) return false;
  if (!vapu_pci_bus_master(v)) {
    log_warn("GPU access to 0x%llx dropped: bus mastering is off", (unsigned long long)va);
    return false;
  }
  struct translation t;
  bool quiet = access & VAPU_GMC_NO_FAULT;
  access &= ~(unsigned)VAPU_GMC_NO_FAULT;
  uint32_t reason = lookup(v, rq, tlb, va, access | (quiet ? VAPU_GMC_NO_FAULT : 0), &t);
  if (reason) {
    if (!quiet) raise_fault(v, rq, va, access, reason);
    return false;
  }
  if (rq->coherent && t.mtype != MTYPE_UC)
    incoherence(v, &v->stats.cached_coherent_accesses,
                "CPU-shared (AQL) memory through a PTE the GPU's L2 may cache (MTYPE not UC)", va, t.pa, rq->vmid);
  unsigned denied = access & ~t.allowed;
  if (denied) {
    if (!quiet)
      raise_fault(v, rq, va, access,
                  denied & VAPU_GMC_WRITE     ? STATUS_PERM_WRITE
                  : denied & VAPU_GMC_EXECUTE ? STATUS_PERM_EXECUTE
                                                 : STATUS_PERM_READ);
    return false;
  }
  *page = (struct vapu_gmc_page){t.va, t.size, (uint8_t *)(uintptr_t)t.pa, t.allowed};
  return true;
}

void *vapu_translate(struct vapu *v, const struct vapu_requester *rq, struct vapu_tlb *tlb,
                     uint64_t va, unsigned access, size_t *contiguous) {
  struct vapu_gmc_page page;
  if (!vapu_translate_page(v, rq, tlb, va, access, &page)) return NULL;
  uint64_t within = va - page.va;
  if (contiguous) *contiguous = (size_t)(page.size - within);
  return page.host + within;
}

static int copy(struct vapu *v, const struct vapu_requester *rq, struct vapu_tlb *tlb, uint64_t va,
                uint8_t *host, size_t n, unsigned access) {
  while (n) {
    size_t run;
    uint8_t *p = vapu_translate(v, rq, tlb, va, access, &run);
    if (!p) return -EFAULT;
    if (run > n) run = n;
    if (access == VAPU_GMC_WRITE)
      memcpy(p, host, run);
    else
      memcpy(host, p, run);
    va += run;
    host += run;
    n -= run;
  }
  return 0;
}

int vapu_gpu_read(struct vapu *v, const struct vapu_requester *rq, struct vapu_tlb *tlb,
                  uint64_t va, void *dst, size_t n) {
  return copy(v, rq, tlb, va, dst, n, VAPU_GMC_READ);
}

int vapu_gpu_write(struct vapu *v, const struct vapu_requester *rq, struct vapu_tlb *tlb,
                   uint64_t va, const void *src, size_t n) {
  return copy(v, rq, tlb, va, (uint8_t *)src, n, VAPU_GMC_WRITE);
}

/* ---- Reset state ----
 * gc_9_0_default.h (the GFX hub) and mmhub_1_0_default.h (the MM hub) give
 * the same values for the registers both have; offsets from the hub's
 * VM_L2_CNTL (gc_9_1_offset.h 0x0840, mmhub_9_1_offset.h 0x0680): CNTL2 +1,
 * CNTL3 +2, PROTECTION_FAULT_CNTL2 +8, CNTL4 +0x17. Everything else of
 * the hubs resets to 0. */
#define L2_CNTL2_FROM_L2 1
#define L2_CNTL3_FROM_L2 2
#define FAULT_CNTL2_FROM_L2 8
#define L2_CNTL4_FROM_L2 0x17

static void hub_reset(struct vapu *v, const struct vapu_hub_layout *l, uint32_t base) {
  const struct vapu_reg_reset resets[] = {
      {l->l1_tlb_cntl, 0x00002501u}, {l->l2_cntl, 0x00080602u},
      {l->l2_cntl + L2_CNTL3_FROM_L2, 0x80100007u}, {l->l2_cntl + L2_CNTL4_FROM_L2, 0x000000c1u},
      {l->fault_cntl, 0x3ffffffcu}, {l->l2_cntl + FAULT_CNTL2_FROM_L2, 0x000a0000u},
  };
  vapu_regs_reset(v, base, resets, countof(resets));
  for (uint32_t vmid = 0; vmid < 16; vmid++) vapu_reg_set(v, base + l->ctx0_cntl + vmid, 0x007ffe80u);
  for (uint32_t e = 0; e < INVALIDATION_ENGINES; e++) vapu_reg_set(v, base + l->inv_req0 + e, 0x017c0000u);
}

void vapu_gmc_init(struct vapu *v) {
  uint64_t fb_physical = (uint64_t)(uintptr_t)v->carveout;
  for (int hub = 0; hub < 2; hub++) {
    const struct vapu_hub_layout *l = hub_layouts + hub;
    struct vapu_hub_state *h = &v->hubs[hub];
    h->layout = l;
    h->base = vapu_reg_index(v, l->hw_id, 0, 0);
    hub_reset(v, l, h->base);
    void *arg = (void *)(uintptr_t)hub;
    /* What the BIOS programs: where the frame buffer sits in the MC address
     * space and in system memory. Plain registers: a driver may move it
     * (Linux writes them under SR-IOV, mmhub_v1_0 / gfxhub_v1_0
     * init_system_aperture_regs), and the hubs use whatever they hold. */
    vapu_reg_set(v, h->base + l->fb_base, (uint32_t)(FB_MC_BASE >> 24));
    vapu_reg_set(v, h->base + l->fb_top, (uint32_t)((FB_MC_BASE + v->carveout_bytes - 1) >> 24));
    vapu_reg_set(v, h->base + l->fb_offset, (uint32_t)(fb_physical >> 24));
    vapu_reg_hook(v, h->base + l->fault_cntl, NULL, fault_cntl_write, arg);
    vapu_reg_hook(v, h->base + l->fault_status, NULL, read_only_write, NULL);
    vapu_reg_hook(v, h->base + l->fault_addr_lo, NULL, read_only_write, NULL);
    vapu_reg_hook(v, h->base + l->fault_addr_hi, NULL, read_only_write, NULL);
    for (int e = 0; e < INVALIDATION_ENGINES; e++) {
      vapu_reg_hook(v, h->base + l->inv_req0 + e, NULL, invalidate_request, arg);
      vapu_reg_hook(v, h->base + l->inv_sem0 + e, semaphore_read, semaphore_write, arg);
      vapu_reg_hook(v, h->base + l->inv_ack0 + e, NULL, read_only_write, NULL);
    }
  }
}
