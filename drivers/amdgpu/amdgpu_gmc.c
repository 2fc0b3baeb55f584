/* amdgpu_gmc.c - the GPU memory controller (GMC v9) of both hubs: frame
 * buffer location from the BIOS's registers, the system aperture, L1 TLB and
 * VM L2 set-up, VMID 0 with a flat page table for the driver's own
 * structures (the GART), the compute VMIDs 8..15 with a four-level page
 * table mapping the single address space, TLB invalidation through an
 * invalidation engine with acknowledge polling.
 *
 * Sequences: Linux gmc_v9_0.c (mc_init, vram_gtt_location, gart_enable,
 * flush_gpu_tlb, use_invalidate_semaphore, vm_fault_interrupt_state),
 * gfxhub_v1_0.c and mmhub_v1_0.c (init_gart_aperture_regs,
 * init_system_aperture_regs incl. the Raven2 high-address erratum,
 * init_tlb_regs, init_cache_regs, enable_system_domain,
 * disable_identity_aperture, setup_vmid_config, program_invalidation).
 * Offsets: regs/gc_9_1.h and regs/mmhub_9_1.h. */
#define LOG_TAG "gmc"
#include <errno.h>
#include <string.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "drivers/amdgpu/amdgpu_gmc_hub.h"
#include "drivers/amdgpu/regs/gc_9_1.h"
#include "drivers/amdgpu/regs/gmc_v9_pte.h"
#include "drivers/amdgpu/regs/mmhub_9_1.h"
#include "drivers/amdgpu/regs/nbio_7_0.h"
#include "lib/plat.h"
#include "lib/lock.h"
#include "lib/util.h"

#define LOCAL_RESERVED_TOP (1ull << 20) /* firmware area at the top of the carve-out (discovery table) */
#define GART_SIZE (32ull << 20)           /* VMID 0 range for driver structures */
#define INVALIDATION_ENGINES 18
#define FLUSH_ENGINE 17                   /* Linux gmc_v9_0: engine 17 for the driver's flushes */
#define FLUSH_TIMEOUT_US 100000
#define COMPUTE_MAX_PFN (1ull << (GMC_VM_VA_BITS - GMC_PAGE_SHIFT))
#define SEMAPHORE_TRIES 100000

/* One hub's registers (amdgpu_gmc_hub.h), each carrying its IP and
 * segment. The per-context and per-engine arrays are named by their first
 * register (context or engine 0; reg_at). */
struct gmc_hub_regs {
  const char *name;
#define HUB_FIELD(P, field, reg, count) struct amdgpu_reg field;
  GMC_HUB_REGISTERS(HUB_FIELD, )
#undef HUB_FIELD
};

#define HUB_REG(P, field, reg, count) .field = REG_##P##_##reg,
#define HUB_REGS(P, name_) {.name = name_, GMC_HUB_REGISTERS(HUB_REG, P)}

static const struct gmc_hub_regs hubs[2] = {
    [GMC_GFXHUB] = HUB_REGS(GC, "gfxhub"),
    [GMC_MMHUB] = HUB_REGS(MMHUB, "mmhub"),
};

/* A 64-bit value into a LO32/HI32 register pair. */
static void wreg_lo_hi(struct amdgpu_device *dev, struct amdgpu_reg lo, uint64_t value) {
  WREG(dev, lo, (uint32_t)value);
  WREG(dev, reg_at(lo, 1), (uint32_t)(value >> 32));
}

/* ---- Software state ---- */

static int map_ram_range(void *ctx, uint64_t start, uint64_t size) {
  struct amdgpu_device *dev = ctx;
  uint64_t fb = dev->gmc.fb_physical, fb_end = fb + dev->gmc.vram_size;
  uint64_t end = start + size;
  /* The carve-out is local memory, mapped separately: never as system RAM. */
  if (start < fb_end && end > fb) {
    if (start < fb) {
      int r = map_ram_range(ctx, start, fb - start);
      if (r) return r;
    }
    return end > fb_end ? map_ram_range(ctx, fb_end, end - fb_end) : 0;
  }
  /* System RAM is fine-grained memory (a FULL profile agent: any pointer
   * the CPU has, the GPU uses, and the CPU may read or write it while a
   * kernel runs: signals, rings, amd_queue_t, program data): snooped and
   * MTYPE_UC, as Linux maps coherent memory on GC 9.1-9.3
   * (gmc_v9_0_get_coherence_flags). The GPU's L2 caches none of it;
   * coarse-grained data belongs in the local pool. */
  return gmc_vm_map(dev, &dev->gmc.compute_vm, start, start, size,
                    GMC_PTE_VALID | GMC_PTE_SYSTEM | GMC_PTE_SNOOPED | GMC_PTE_READABLE |
                        GMC_PTE_WRITEABLE | GMC_PTE_EXECUTABLE | GMC_PTE_MTYPE(GMC_MTYPE_UC));
}

/* RAM ranges of the platform at bring-up, counted for the boot log. */
struct ram_count { struct amdgpu_device *dev; uint32_t ranges; uint64_t bytes; };
static int map_boot_ram_range(void *ctx, uint64_t start, uint64_t size) {
  struct ram_count *c = ctx;
  c->ranges++;
  c->bytes += size;
  return map_ram_range(c->dev, start, size);
}

static int gmc_init_sw(struct amdgpu_device *dev) {
  struct amdgpu_gmc *g = &dev->gmc;
  /* Where the BIOS placed the frame buffer (Linux mmhub_v1_0_get_fb_location,
   * gfxhub_v1_0_get_mc_fb_offset): MC range and system physical base. */
  uint32_t base = RREG(dev, REG_MMHUB_MC_VM_FB_LOCATION_BASE) & MC_VM_FB_LOCATION__MASK;
  uint32_t top = RREG(dev, REG_MMHUB_MC_VM_FB_LOCATION_TOP) & MC_VM_FB_LOCATION__MASK;
  g->fb_start = (uint64_t)base << 24;
  g->fb_end = (uint64_t)top << 24 | 0xffffff;
  g->fb_physical = (uint64_t)(RREG(dev, REG_GC_MC_VM_FB_OFFSET) & MC_VM_FB_LOCATION__MASK) << 24;
  g->vram_size = (uint64_t)RREG(dev, REG_NBIO_RCC_CONFIG_MEMSIZE) << 20;
  if (!g->vram_size || g->fb_end - g->fb_start + 1 < g->vram_size || !g->fb_physical || (g->fb_physical & 0xfff)) {
    log_error("frame buffer registers inconsistent: MC 0x%llx-0x%llx, %llu MiB (RCC_CONFIG_MEMSIZE), physical 0x%llx",
              (unsigned long long)g->fb_start, (unsigned long long)g->fb_end,
              (unsigned long long)(g->vram_size >> 20), (unsigned long long)g->fb_physical);
    return -EINVAL;
  }
  /* The CPU reaches the carve-out at its physical address, as Linux does on
   * x86-64 APUs (gmc_v9_0_mc_init: aper_base = MC_VM_FB_OFFSET, aper_size =
   * the whole carve-out), not through BAR0, which covers only its start on
   * most boards. The GPU reads it without snooping the CPU's caches, so the
   * CPU maps it write-combining (amdgpu_ttm_init: ioremap_wc). */
  g->cpu_cache_before = plat_cpu_cache_mode(g->fb_physical);
  if (plat_set_cpu_cache_mode(g->fb_physical, g->vram_size, PLAT_CACHE_WRITE_COMBINING)) {
    log_error("cannot map the carve-out at 0x%llx write-combining", (unsigned long long)g->fb_physical);
    return -EINVAL;
  }
  g->cpu_cache_set = true;
  /* GART below the frame buffer at MC address 0 (Linux
   * amdgpu_gmc_gart_location picks the larger hole; below the FB at
   * 0xF4_0000_0000 there is room). */
  g->gart_start = 0;
  g->gart_size = GART_SIZE;
  if (g->fb_start < g->gart_size) {
    log_error("no room for the GART below the frame buffer at 0x%llx", (unsigned long long)g->fb_start);
    return -EINVAL;
  }
  if (amdgpu_local_init(dev, LOCAL_RESERVED_TOP)) return -ENOMEM;
  g->gart_table = plat_dma_alloc((g->gart_size >> GMC_PAGE_SHIFT) * 8, 4096);
  g->dummy_page = plat_dma_alloc(4096, 4096);
  if (!g->gart_table || !g->dummy_page) return -ENOMEM;

  /* The single address space: every RAM page at its CPU address, the
   * carve-out at its physical address as local memory. */
  struct ram_count ram = {dev, 0, 0};
  int r = amdgpu_for_each_ram_range(map_boot_ram_range, &ram);
  if (!r)
    r = gmc_vm_map(dev, &g->compute_vm, g->fb_physical, g->fb_physical, g->vram_size,
                   GMC_PTE_VALID | GMC_PTE_READABLE | GMC_PTE_WRITEABLE | GMC_PTE_EXECUTABLE |
                       GMC_PTE_MTYPE(GMC_MTYPE_NC));
  if (r) {
    log_error("cannot build the compute page tables (%d)", r);
    return r;
  }
  log_info("VRAM %llu MiB at MC 0x%llx (physical 0x%llx), GART %llu MiB at MC 0x%llx",
           (unsigned long long)(g->vram_size >> 20), (unsigned long long)g->fb_start,
           (unsigned long long)g->fb_physical, (unsigned long long)(g->gart_size >> 20),
           (unsigned long long)g->gart_start);
  log_info("compute VMIDs %d-%d: %d page-table pages map RAM at CPU addresses (%u ranges, %llu MiB), "
           "carve-out at 0x%llx",
           AMDGPU_COMPUTE_VMID_FIRST, AMDGPU_COMPUTE_VMID_FIRST + AMDGPU_COMPUTE_VMID_COUNT - 1,
           g->compute_vm.table_pages, ram.ranges, (unsigned long long)(ram.bytes >> 20),
           (unsigned long long)g->fb_physical);
  return 0;
}

static void gmc_fini_sw(struct amdgpu_device *dev) {
  struct amdgpu_gmc *g = &dev->gmc;
  if (g->cpu_cache_set) plat_set_cpu_cache_mode(g->fb_physical, g->vram_size, g->cpu_cache_before);
  g->cpu_cache_set = false;
  gmc_vm_free(&g->compute_vm);
  amdgpu_local_fini(dev);
  if (g->gart_table) plat_dma_free(g->gart_table, (g->gart_size >> GMC_PAGE_SHIFT) * 8);
  if (g->dummy_page) plat_dma_free(g->dummy_page, 4096);
  g->gart_table = NULL;
  g->dummy_page = NULL;
}

/* ---- Hardware set-up of one hub ---- */

static bool aperture_high_erratum(const struct amdgpu_device *dev) {
  /* Raven2 cannot reach frame buffer beyond SYSTEM_APERTURE_HIGH_ADDR; Linux
   * adds one unit (gfxhub_v1_0.c) and later kernels do the same for Renoir. */
  return dev->chip->aperture_high_erratum;
}

static uint32_t context_cntl(unsigned depth, bool retry) {
  /* Every protection fault lands on the default page and interrupts. An
   * invalid page of a context that retries first asks the driver (a retry
   * fault, gmc_handle_retry_fault; Linux gfxhub_v1_0.c sets the bit unless
   * noretry). */
  return VM_CONTEXT_CNTL__ENABLE_CONTEXT | REG_FIELD(VM_CONTEXT_CNTL__PAGE_TABLE_DEPTH, depth) |
         (retry ? VM_CONTEXT_CNTL__RETRY_PERMISSION_OR_INVALID_PAGE_FAULT : 0) |
         REG_FIELD(VM_CONTEXT_CNTL__PAGE_TABLE_BLOCK_SIZE, GMC_PAGE_TABLE_BLOCK_SIZE) |
         VM_CONTEXT_CNTL__RANGE_PROTECTION_FAULT_ENABLE_DEFAULT |
         VM_CONTEXT_CNTL__RANGE_PROTECTION_FAULT_ENABLE_INTERRUPT |
         VM_CONTEXT_CNTL__DUMMY_PAGE_PROTECTION_FAULT_ENABLE_DEFAULT |
         VM_CONTEXT_CNTL__DUMMY_PAGE_PROTECTION_FAULT_ENABLE_INTERRUPT |
         VM_CONTEXT_CNTL__PDE0_PROTECTION_FAULT_ENABLE_DEFAULT |
         VM_CONTEXT_CNTL__PDE0_PROTECTION_FAULT_ENABLE_INTERRUPT |
         VM_CONTEXT_CNTL__VALID_PROTECTION_FAULT_ENABLE_DEFAULT |
         VM_CONTEXT_CNTL__VALID_PROTECTION_FAULT_ENABLE_INTERRUPT |
         VM_CONTEXT_CNTL__READ_PROTECTION_FAULT_ENABLE_DEFAULT |
         VM_CONTEXT_CNTL__READ_PROTECTION_FAULT_ENABLE_INTERRUPT |
         VM_CONTEXT_CNTL__WRITE_PROTECTION_FAULT_ENABLE_DEFAULT |
         VM_CONTEXT_CNTL__WRITE_PROTECTION_FAULT_ENABLE_INTERRUPT |
         VM_CONTEXT_CNTL__EXECUTE_PROTECTION_FAULT_ENABLE_DEFAULT |
         VM_CONTEXT_CNTL__EXECUTE_PROTECTION_FAULT_ENABLE_INTERRUPT;
}

static void hub_enable(struct amdgpu_device *dev, enum gmc_hub hub) {
  struct amdgpu_gmc *g = &dev->gmc;
  const struct gmc_hub_regs *r = &hubs[hub];
  uint64_t dummy = (uint64_t)(uintptr_t)g->dummy_page;

  /* VMID 0: the GART, a flat table (depth 0) over [gart_start, gart_end],
   * in write-back system memory: read snooped. */
  wreg_lo_hi(dev, r->ctx0_pt_base_lo,
          (uint64_t)(uintptr_t)g->gart_table | GMC_PTE_VALID | GMC_PTE_SYSTEM | GMC_PTE_SNOOPED);
  wreg_lo_hi(dev, r->ctx0_pt_start_lo, g->gart_start >> GMC_PAGE_SHIFT);
  wreg_lo_hi(dev, r->ctx0_pt_end_lo, (g->gart_start + g->gart_size - 1) >> GMC_PAGE_SHIFT);

  /* System aperture = the frame buffer; no AGP aperture (BOT above TOP). */
  WREG(dev, r->agp_base, 0);
  WREG(dev, r->agp_bot, 0x00ffffff);
  WREG(dev, r->agp_top, 0);
  WREG(dev, r->sys_low, (uint32_t)(g->fb_start >> 18));
  WREG(dev, r->sys_high, (uint32_t)(g->fb_end >> 18) + (aperture_high_erratum(dev) ? 1 : 0));
  WREG(dev, r->sys_default_lsb, (uint32_t)(dummy >> 12));
  WREG(dev, r->sys_default_msb, (uint32_t)(dummy >> 44));
  WREG(dev, r->fault_default_lo, (uint32_t)(dummy >> 12));
  WREG(dev, r->fault_default_hi, (uint32_t)(dummy >> 44));
  WREG(dev, r->fault_cntl2, RREG(dev, r->fault_cntl2) | VM_L2_PROTECTION_FAULT_CNTL2__ACTIVE_PAGE_MIGRATION_PTE_READ_RETRY);

  /* L1 TLB: on, advanced driver model, system accesses through the apertures. */
  uint32_t tlb = RREG(dev, r->l1_tlb_cntl);
  tlb &= ~(MC_VM_MX_L1_TLB_CNTL__SYSTEM_ACCESS_MODE_MASK | MC_VM_MX_L1_TLB_CNTL__MTYPE_MASK |
           MC_VM_MX_L1_TLB_CNTL__SYSTEM_APERTURE_UNMAPPED_ACCESS);
  tlb |= MC_VM_MX_L1_TLB_CNTL__ENABLE_L1_TLB | REG_FIELD(MC_VM_MX_L1_TLB_CNTL__SYSTEM_ACCESS_MODE, 3u) |
         MC_VM_MX_L1_TLB_CNTL__ENABLE_ADVANCED_DRIVER_MODEL |
         REG_FIELD(MC_VM_MX_L1_TLB_CNTL__MTYPE, MTYPE_UC) |
         MC_VM_MX_L1_TLB_CNTL__ATC_EN;
  WREG(dev, r->l1_tlb_cntl, tlb);

  /* VM L2: on, fragments, identity mode off. */
  uint32_t l2 = RREG(dev, r->l2_cntl);
  l2 &= ~(VM_L2_CNTL__L2_PDE0_CACHE_TAG_GENERATION_MODE | VM_L2_CNTL__PDE_FAULT_CLASSIFICATION |
          VM_L2_CNTL__CONTEXT1_IDENTITY_ACCESS_MODE_MASK | VM_L2_CNTL__IDENTITY_MODE_FRAGMENT_SIZE_MASK);
  l2 |= VM_L2_CNTL__ENABLE_L2_CACHE | VM_L2_CNTL__ENABLE_L2_FRAGMENT_PROCESSING |
        REG_FIELD(VM_L2_CNTL__CONTEXT1_IDENTITY_ACCESS_MODE, 1u);
  WREG(dev, r->l2_cntl, l2);
  WREG(dev, r->l2_cntl2, RREG(dev, r->l2_cntl2) | VM_L2_CNTL2__INVALIDATE_ALL_L1_TLBS | VM_L2_CNTL2__INVALIDATE_L2_CACHE);
  uint32_t l2c3 = VM_L2_CNTL3_DEFAULT & ~(VM_L2_CNTL3__BANK_SELECT_MASK | VM_L2_CNTL3__L2_CACHE_BIGK_FRAGMENT_SIZE_MASK);
  WREG(dev, r->l2_cntl3, l2c3 | 9u | REG_FIELD(VM_L2_CNTL3__L2_CACHE_BIGK_FRAGMENT_SIZE, 6u));
  WREG(dev, r->l2_cntl4, VM_L2_CNTL4_DEFAULT & ~(VM_L2_CNTL4__VMC_TAP_PDE_REQUEST_PHYSICAL | VM_L2_CNTL4__VMC_TAP_PTE_REQUEST_PHYSICAL));

  /* VMID 0 on (flat table), identity aperture off. */
  WREG(dev, r->ctx0_cntl, context_cntl(0, false));
  WREG(dev, r->identity_low_lo, 0xffffffff);
  WREG(dev, r->identity_low_hi, 0x0000000f);
  WREG(dev, r->identity_high_lo, 0);
  WREG(dev, r->identity_high_hi, 0);
  WREG(dev, r->identity_offset_lo, 0);
  WREG(dev, r->identity_offset_hi, 0);

  /* Compute VMIDs: one four-level table for the whole 48-bit space; the
   * graphics VMIDs 1..7 stay off. Linux does the same on Raven and Picasso
   * of ATI revision 0-1 and on Renoir, but gives parts of revision 2 and up
   * (every Raven2) two levels with translate_further (gmc_v9_0_sw_init:
   * "legacy 3-level page support"; depth 1, block size 9). Whether those
   * parts walk four levels is not documented; this driver keeps one page
   * table format for all chips and says so in README's list of what is
   * not yet proven on silicon. */
  uint64_t root = (uint64_t)(uintptr_t)g->compute_vm.root | GMC_PTE_VALID | GMC_PTE_SYSTEM | GMC_PTE_SNOOPED;
  for (uint32_t vmid = 1; vmid < 16; vmid++) {
    bool compute = vmid >= AMDGPU_COMPUTE_VMID_FIRST;
    WREG(dev, reg_at(r->ctx0_cntl, vmid),
          compute ? context_cntl(GMC_PAGE_TABLE_DEPTH, amdgpu_ram_grows()) : 0);
    wreg_lo_hi(dev, reg_at(r->ctx0_pt_start_lo, 2 * vmid), 0);
    wreg_lo_hi(dev, reg_at(r->ctx0_pt_end_lo, 2 * vmid), compute ? COMPUTE_MAX_PFN - 1 : 0);
    wreg_lo_hi(dev, reg_at(r->ctx0_pt_base_lo, 2 * vmid), compute ? root : 0);
  }
  /* Invalidation engines cover the whole address range. */
  for (uint32_t e = 0; e < INVALIDATION_ENGINES; e++) {
    WREG(dev, reg_at(r->inv_range0_lo, 2 * e), 0xffffffff);
    WREG(dev, reg_at(r->inv_range0_lo, 2 * e + 1), 0x1f);
  }
}

static void hub_disable(struct amdgpu_device *dev, enum gmc_hub hub) {
  const struct gmc_hub_regs *r = &hubs[hub];
  for (uint32_t vmid = 0; vmid < 16; vmid++) WREG(dev, reg_at(r->ctx0_cntl, vmid), 0);
  WREG(dev, r->l1_tlb_cntl, RREG(dev, r->l1_tlb_cntl) & ~MC_VM_MX_L1_TLB_CNTL__ENABLE_L1_TLB);
  WREG(dev, r->l2_cntl, RREG(dev, r->l2_cntl) & ~VM_L2_CNTL__ENABLE_L2_CACHE);
}

/* ---- TLB invalidation ---- */

static bool use_semaphore(const struct amdgpu_device *dev, enum gmc_hub hub) {
  /* Linux gmc_v9_0_use_invalidate_semaphore: the MM hub, except on Picasso. */
  return hub == GMC_MMHUB && dev->chip->mmhub_invalidate_semaphore;
}

static int flush_tlb_locked(struct amdgpu_device *dev, enum gmc_hub hub, uint32_t vmid);

/* The GMC's locks are held with interrupts off (spin_lock_irqsave): the
 * retry-fault path maps and flushes from the interrupt handler, which must
 * not spin on a lock its own core holds. */

/* One request at a time on the engine (Linux gmc_v9_0_flush_gpu_tlb holds
 * gmc.invalidate_lock across semaphore, request and acknowledgement: two
 * requests at once would take each other's acknowledgement). */
int gmc_flush_tlb(struct amdgpu_device *dev, enum gmc_hub hub, uint32_t vmid) {
  uint64_t flags = spin_lock_irqsave(&dev->gmc.invalidate_lock);
  int r = flush_tlb_locked(dev, hub, vmid);
  spin_unlock_irqrestore(&dev->gmc.invalidate_lock, flags);
  return r;
}

static int flush_tlb_locked(struct amdgpu_device *dev, enum gmc_hub hub, uint32_t vmid) {
  const struct gmc_hub_regs *r = &hubs[hub];
  uint32_t req = (1u << vmid) | VM_INVALIDATE_ENG_REQ__INVALIDATE_L2_PTES |
                 VM_INVALIDATE_ENG_REQ__INVALIDATE_L2_PDE0 | VM_INVALIDATE_ENG_REQ__INVALIDATE_L2_PDE1 |
                 VM_INVALIDATE_ENG_REQ__INVALIDATE_L2_PDE2 | VM_INVALIDATE_ENG_REQ__INVALIDATE_L1_PTES;
  bool sem = use_semaphore(dev, hub);
  if (sem) {
    int tries = 0;
    while (!(RREG(dev, reg_at(r->inv_sem0, FLUSH_ENGINE)) & VM_INVALIDATE_ENG_SEM__SEMAPHORE)) {
      if (++tries > SEMAPHORE_TRIES) {
        log_error("%s: invalidation engine %d semaphore not acquired", r->name, FLUSH_ENGINE);
        return -ETIMEDOUT;
      }
      plat_cpu_relax();
    }
  }
  WREG(dev, reg_at(r->inv_req0, FLUSH_ENGINE), req);
  /* Dummy read so the ACK is not read before the request landed (Linux
   * does it for the GFX hub of GC before 9.4). */
  if (hub == GMC_GFXHUB) (void)RREG(dev, reg_at(r->inv_req0, FLUSH_ENGINE));
  int result = amdgpu_wait_reg(dev, amdgpu_reg_index(dev, reg_at(r->inv_ack0, FLUSH_ENGINE)), 1u << vmid,
                               1u << vmid, FLUSH_TIMEOUT_US);
  if (sem) WREG(dev, reg_at(r->inv_sem0, FLUSH_ENGINE), 0);
  if (result) log_error("%s: TLB invalidation of VMID %u not acknowledged within %u us", r->name, vmid, FLUSH_TIMEOUT_US);
  return result;
}

int gmc_flush_compute_vmids(struct amdgpu_device *dev) {
  for (uint32_t vmid = AMDGPU_COMPUTE_VMID_FIRST; vmid < 16; vmid++)
    for (int hub = 0; hub < 2; hub++) {
      int r = gmc_flush_tlb(dev, hub, vmid);
      if (r) return r;
    }
  return 0;
}

static int gmc_init_hw(struct amdgpu_device *dev) {
  for (int hub = 0; hub < 2; hub++) hub_enable(dev, hub);
  dev->gmc.hw_up = true;
  hdp_flush(dev);
  for (int hub = 0; hub < 2; hub++) {
    int r = gmc_flush_tlb(dev, hub, 0);
    if (r) return r;
  }
  int r = gmc_flush_compute_vmids(dev);
  if (r) return r;
  log_info("gfxhub and mmhub on: VMID 0 GART, VMIDs %d-15 4-level tables, system aperture 0x%llx-0x%llx%s",
           AMDGPU_COMPUTE_VMID_FIRST, (unsigned long long)dev->gmc.fb_start,
           (unsigned long long)dev->gmc.fb_end, aperture_high_erratum(dev) ? " (+1 erratum)" : "");
  return 0;
}

static void gmc_fini_hw(struct amdgpu_device *dev) {
  if (!dev->gmc.hw_up) return;
  for (int hub = 0; hub < 2; hub++) hub_disable(dev, hub);
  dev->gmc.hw_up = false;
}

/* ---- GART ---- */

static int gart_map_locked(struct amdgpu_device *dev, const void *cpu, size_t size, uint64_t *mc_address);

int gmc_gart_map(struct amdgpu_device *dev, const void *cpu, size_t size, uint64_t *mc_address) {
  uint64_t flags = spin_lock_irqsave(&dev->gmc.gart_lock);
  int r = gart_map_locked(dev, cpu, size, mc_address);
  spin_unlock_irqrestore(&dev->gmc.gart_lock, flags);
  return r;
}

static int gart_map_locked(struct amdgpu_device *dev, const void *cpu, size_t size, uint64_t *mc_address) {
  struct amdgpu_gmc *g = &dev->gmc;
  uint64_t pa = (uint64_t)(uintptr_t)cpu;
  if ((pa & 0xfff) || !size) return -EINVAL;
  uint64_t pages = (size + 4095) >> GMC_PAGE_SHIFT, total = g->gart_size >> GMC_PAGE_SHIFT;
  for (uint64_t first = 0; first + pages <= total; first++) {
    uint64_t n = 0;
    while (n < pages && !(g->gart_table[first + n] & GMC_PTE_VALID)) n++;
    if (n < pages) {
      first += n;
      continue;
    }
    for (n = 0; n < pages; n++)
      /* Linux gmc_v9_0_gart_init: gart_pte_flags = MTYPE_UC | EXECUTABLE. */
      g->gart_table[first + n] = ((pa + (n << GMC_PAGE_SHIFT)) & GMC_PTE_ADDR_MASK) | GMC_PTE_VALID |
                                 GMC_PTE_SYSTEM | GMC_PTE_SNOOPED | GMC_PTE_READABLE |
                                 GMC_PTE_WRITEABLE | GMC_PTE_EXECUTABLE | GMC_PTE_MTYPE(GMC_MTYPE_UC);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    for (int hub = 0; hub < 2; hub++) {
      int r = gmc_flush_tlb(dev, hub, 0);
      if (r) return r;
    }
    *mc_address = g->gart_start + (first << GMC_PAGE_SHIFT);
    return 0;
  }
  log_error("GART full: no %llu free pages", (unsigned long long)pages);
  return -ENOSPC;
}

void gmc_gart_unmap(struct amdgpu_device *dev, uint64_t mc_address, size_t size) {
  struct amdgpu_gmc *g = &dev->gmc;
  uint64_t first = (mc_address - g->gart_start) >> GMC_PAGE_SHIFT;
  uint64_t pages = (size + 4095) >> GMC_PAGE_SHIFT;
  uint64_t flags = spin_lock_irqsave(&g->gart_lock);
  for (uint64_t n = 0; n < pages && first + n < (g->gart_size >> GMC_PAGE_SHIFT); n++) g->gart_table[first + n] = 0;
  spin_unlock_irqrestore(&g->gart_lock, flags);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  for (int hub = 0; hub < 2; hub++) gmc_flush_tlb(dev, hub, 0);
}


int amdgpu_map_system_range(struct amdgpu_device *dev, const void *start, size_t size) {
  if (!dev || !start || !size) return -EINVAL;
  uint64_t s = ALIGN_DOWN((uint64_t)(uintptr_t)start, 0x1000);
  uint64_t e = ALIGN_UP((uint64_t)(uintptr_t)start + size, 0x1000);
  uint64_t flags = spin_lock_irqsave(&dev->gmc.map_lock);
  int r = map_ram_range(dev, s, e - s);
  if (!r && dev->gmc.hw_up) r = gmc_flush_compute_vmids(dev);
  spin_unlock_irqrestore(&dev->gmc.map_lock, flags);
  return r;
}

/* Linux amdgpu_vm_handle_fault fills the page tables for a recoverable
 * fault; here that is memory the program mapped after bring-up. Whatever
 * happens the VMID is invalidated: the waiting request walks again and, if
 * nothing was mapped, faults for good. */
void gmc_handle_retry_fault(struct amdgpu_device *dev, uint32_t vmid, uint64_t address) {
  uint64_t start, size;
  uint64_t flags = spin_lock_irqsave(&dev->gmc.map_lock);
  if (vmid >= AMDGPU_COMPUTE_VMID_FIRST && amdgpu_ram_range_of(address, &start, &size) == 0) {
    int r = map_ram_range(dev, start, size);
    if (r) log_error("retry fault at 0x%llx: mapping 0x%llx+0x%llx failed (%d)", (unsigned long long)address,
                     (unsigned long long)start, (unsigned long long)size, r);
    else log_debug("retry fault at 0x%llx: mapped 0x%llx+0x%llx", (unsigned long long)address,
                   (unsigned long long)start, (unsigned long long)size);
  } else {
    log_debug("retry fault at 0x%llx (VMID %u): no memory there", (unsigned long long)address, vmid);
  }
  for (int hub = 0; hub < 2; hub++) gmc_flush_tlb(dev, hub, vmid);
  spin_unlock_irqrestore(&dev->gmc.map_lock, flags);
}

/* apertures, VMIDs, TLBs */
const struct amdgpu_ip_funcs gmc_block = {
    .name = "gmc", .init_sw = gmc_init_sw, .init_hw = gmc_init_hw,
    .fini_hw = gmc_fini_hw, .fini_sw = gmc_fini_sw,
};
