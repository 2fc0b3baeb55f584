/* vapu_core.c - the virtual APU as a whole: creation in hardware order,
 * register file dispatch, the firmware worker. */
#define LOG_TAG "vapu"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vapu/cp.h"
#include "vapu/vapu_internal.h"

#define DEFAULT_CARVEOUT_BYTES (64ull << 20)
#define CARVEOUT_ALIGN (16ull << 20) /* MC_VM_FB_OFFSET holds the address >> 24 */
#define DOORBELL_BAR_BYTES (2ull << 20) /* Raven's doorbell BAR2 */
#define WORKER_IDLE_NS 1000000ull
/* After its last work the worker polls this long before it sleeps, so that
 * the next packet of a busy queue finds it awake, as the MEC's firmware,
 * which never sleeps, would be (a sleeping worker costs a wake-up: tens of
 * microseconds on a loaded host). */
#define WORKER_POLL_NS 200000ull

/* ---- Registers ---- */

uint32_t vapu_reg_index(const struct vapu *v, uint16_t hw_id, int segment, uint32_t offset) {
  const struct vapu_ip *ip = vapu_chip_ip(v->chip, hw_id);
  if (!ip || segment >= ip->segments) {
    log_error("chip %s has no IP %u segment %d", v->chip->name, hw_id, segment);
    abort(); /* a model bug, not a driver error */
  }
  return ip->base[segment] + offset;
}

void vapu_regs_reset(struct vapu *v, uint32_t base, const struct vapu_reg_reset *table, size_t count) {
  for (size_t i = 0; i < count; i++) vapu_reg_set(v, base + table[i].offset, table[i].value);
}

void vapu_reg_hook(struct vapu *v, uint32_t index, vapu_reg_read_fn read, vapu_reg_write_fn write,
                   void *arg) {
  if (index >= VAPU_REG_DWORDS || v->hook_count >= VAPU_MAX_HOOKS || v->hook_of[index]) {
    log_error("register hook 0x%x cannot be installed", index);
    abort();
  }
  v->hooks[v->hook_count] = (struct vapu_reg_hook){read, write, arg};
  v->hook_of[index] = (uint16_t)++v->hook_count;
}

/* While the graphics core is in GFXOFF its registers do not answer: reads
 * give 0, writes are lost (why Linux turns GFXOFF off around GC register
 * accesses, amdgpu_gfx_off_ctrl in amdgpu_debugfs.c). GC's registers: its
 * segment 0 (offsets below 0x2000) and segment 1 (below 0x6000),
 * gc_9_1_offset.h. */
static bool gc_register_lost(struct vapu *v, uint32_t index) {
  uint32_t gc0 = v->gfx.gc_base, gc1 = v->gfx.gc_seg1_base;
  if (!((index >= gc0 && index < gc0 + 0x2000) || (index >= gc1 && index < gc1 + 0x6000))) return false;
  if (vapu_gfx_powered(v)) return false;
  if (__atomic_add_fetch(&v->stats.gc_accesses_while_off, 1, __ATOMIC_RELAXED) == 1)
    log_warn("GC register 0x%x accessed while the graphics core is off (GFXOFF): lost", index);
  return true;
}

uint32_t vapu_reg_access_read(struct vapu *v, uint32_t index) {
  if (index >= VAPU_REG_DWORDS) return 0;
  if (gc_register_lost(v, index)) return 0;
  uint16_t h = v->hook_of[index];
  if (h && v->hooks[h - 1].read) return v->hooks[h - 1].read(v, index, v->hooks[h - 1].arg);
  return vapu_reg_get(v, index);
}

void vapu_reg_access_write(struct vapu *v, uint32_t index, uint32_t value) {
  if (index >= VAPU_REG_DWORDS) return;
  if (gc_register_lost(v, index)) return;
  uint16_t h = v->hook_of[index];
  if (h && v->hooks[h - 1].write)
    v->hooks[h - 1].write(v, index, value, v->hooks[h - 1].arg);
  else
    vapu_reg_set(v, index, value);
}

uint32_t vapu_mmio_read(struct vapu *v, uint32_t byte_offset) {
  /* A read the function does not claim completes with all ones (PCIe
   * unsupported request / master abort). */
  if (!vapu_pci_memory_decode(v) || (v->config.faults.missing_bars & (1u << 5))) return 0xffffffffu;
  if ((byte_offset & 3) || byte_offset >= VAPU_MMIO_BAR_BYTES) return 0xffffffffu;
  return vapu_reg_access_read(v, byte_offset / 4);
}

void vapu_mmio_write(struct vapu *v, uint32_t byte_offset, uint32_t value) {
  if (!vapu_pci_memory_decode(v) || (v->config.faults.missing_bars & (1u << 5))) return;
  if ((byte_offset & 3) || byte_offset >= VAPU_MMIO_BAR_BYTES) return;
  vapu_reg_access_write(v, byte_offset / 4, value);
}

volatile uint32_t *vapu_mmio_word(struct vapu *v, uint32_t byte_offset) {
  if ((v->config.faults.missing_bars & (1u << 5)) || (byte_offset & 3) ||
      byte_offset >= VAPU_MMIO_BAR_BYTES)
    return NULL;
  return &v->regs[byte_offset / 4];
}

/* ---- Worker: the microcontrollers' firmware (SMU, later PSP and CP) ---- */

int vapu_add_service(struct vapu *v, vapu_service_fn fn, void *ctx) {
  if (v->service_count >= VAPU_MAX_SERVICES) return -ENOSPC;
  v->services[v->service_count].ctx = ctx;
  __atomic_store_n(&v->services[v->service_count].fn, fn, __ATOMIC_RELEASE);
  __atomic_add_fetch(&v->service_count, 1, __ATOMIC_RELEASE);
  vapu_kick(v);
  return 0;
}

/* The attention count first, then whether the worker sleeps; the worker
 * says it sleeps, then reads the count (worker_main): with both orders
 * sequentially consistent one of the two sees the other, so a kick never
 * goes unnoticed, and an awake worker costs the kicker no wake-up call. */
void vapu_kick(struct vapu *v) {
  __atomic_add_fetch(&v->attention, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&v->worker_asleep, __ATOMIC_SEQ_CST)) plat_wake(&v->attention);
}

static void worker_main(void *arg) {
  struct vapu *v = arg;
  uint64_t last_work_ns = 0;
  while (!__atomic_load_n(&v->stopping, __ATOMIC_ACQUIRE)) {
    uint32_t seen = __atomic_load_n(&v->attention, __ATOMIC_ACQUIRE);
    bool busy = vapu_mp_service(v, NULL);
    int n = __atomic_load_n(&v->service_count, __ATOMIC_ACQUIRE);
    for (int i = 0; i < n; i++) busy |= v->services[i].fn(v, v->services[i].ctx);
    if (busy) {
      last_work_ns = plat_now_ns();
      continue;
    }
    /* Idle: poll for a kick a while after the last work, then sleep. */
    while (__atomic_load_n(&v->attention, __ATOMIC_ACQUIRE) == seen &&
           plat_now_ns() - last_work_ns < WORKER_POLL_NS && !__atomic_load_n(&v->stopping, __ATOMIC_ACQUIRE))
      plat_cpu_relax();
    if (__atomic_load_n(&v->attention, __ATOMIC_ACQUIRE) != seen) continue;
    __atomic_store_n(&v->worker_asleep, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&v->attention, __ATOMIC_SEQ_CST) == seen)
      plat_wait(&v->attention, seen, WORKER_IDLE_NS);
    __atomic_store_n(&v->worker_asleep, 0, __ATOMIC_RELAXED);
  }
}

/* ---- Creation ---- */

struct vapu *vapu_create(const struct vapu_config *config) {
  if (!config || (unsigned)config->chip >= VAPU_CHIP_COUNT) {
    log_error("vapu_create: unknown chip");
    return NULL;
  }
  uint64_t carveout = config->carveout_bytes ? config->carveout_bytes : DEFAULT_CARVEOUT_BYTES;
  if (carveout < CARVEOUT_ALIGN || carveout % CARVEOUT_ALIGN) {
    log_error("vapu_create: carve-out of %llu bytes is not a multiple of 16 MiB",
              (unsigned long long)carveout);
    return NULL;
  }
  uint64_t bar0 = config->bar0_bytes;
  if (!bar0)
    for (bar0 = 1ull << 63; bar0 > carveout / 4; bar0 >>= 1) {
    }
  if (bar0 < 4096 || (bar0 & (bar0 - 1)) || bar0 > carveout) {
    log_error("vapu_create: BAR0 of %llu bytes is not a power of two of at most the carve-out",
              (unsigned long long)bar0);
    return NULL;
  }
  struct vapu *v = plat_protected_alloc(sizeof *v);
  if (!v) return NULL;
  v->chip = &vapu_chips[config->chip];
  v->config = *config;
  v->config.carveout_bytes = carveout;
  v->config.bar0_bytes = bar0;
  v->carveout_bytes = carveout;
  v->bar0_bytes = bar0;
  v->doorbell_bytes = DOORBELL_BAR_BYTES;
  v->worker = -1;
  v->regs = plat_protected_alloc(VAPU_REG_DWORDS * sizeof *v->regs);
  v->hook_of = plat_protected_alloc(VAPU_REG_DWORDS * sizeof *v->hook_of);
  v->carveout = plat_dma_alloc(carveout, CARVEOUT_ALIGN);
  v->bar0 = plat_dma_alloc(bar0, bar0);
  v->bar0_synced = plat_dma_alloc(bar0, 4096);
  v->doorbells = plat_dma_alloc(DOORBELL_BAR_BYTES, 4096);
  if (!v->regs || !v->hook_of || !v->carveout || !v->bar0 || !v->bar0_synced || !v->doorbells) {
    log_error("vapu_create: out of memory for a %llu MiB carve-out",
              (unsigned long long)(carveout >> 20));
    vapu_destroy(v);
    return NULL;
  }
  /* Power-on state of each block, then what the BIOS and the PSP/SMU
   * firmware leave behind before any driver runs. */
  vapu_pci_init(v);
  vapu_regs_init(v);
  vapu_gmc_init(v);
  vapu_ih_init(v);
  vapu_gfx_init(v);
  vapu_hqd_init(v);
  vapu_mp_init(v);
  if (v->chip->discovery_table) vapu_discovery_write(v);
  vapu_hdp_power_on(v);
  if (vapu_cp_init(v)) {
    log_error("vapu_create: no memory for the command processor");
    vapu_destroy(v);
    return NULL;
  }

  v->worker = plat_worker_start("vapu", worker_main, v);
  if (v->worker < 0) {
    log_error("vapu_create: no core/thread for the firmware worker (%d)", v->worker);
    vapu_destroy(v);
    return NULL;
  }
  log_info("virtual %s: device %04x rev %02x, %llu MiB carve-out at %p, BAR0 %llu MiB", v->chip->name,
           v->chip->pci_device_id, v->chip->pci_revision, (unsigned long long)(carveout >> 20),
           (void *)v->carveout, (unsigned long long)(bar0 >> 20));
  return v;
}

void vapu_destroy(struct vapu *v) {
  if (!v) return;
  if (v->worker >= 0) {
    __atomic_store_n(&v->stopping, true, __ATOMIC_RELEASE);
    vapu_kick(v);
    plat_worker_join(v->worker);
  }
  vapu_cp_fini(v);
  if (v->carveout) plat_dma_free(v->carveout, v->carveout_bytes);
  if (v->bar0) plat_dma_free(v->bar0, v->bar0_bytes);
  if (v->bar0_synced) plat_dma_free(v->bar0_synced, v->bar0_bytes);
  if (v->doorbells) plat_dma_free((void *)v->doorbells, v->doorbell_bytes);
  plat_protected_free(v->regs);
  plat_protected_free(v->hook_of);
  plat_protected_free(v);
}

void vapu_inject_faults(struct vapu *v, const struct vapu_faults *faults) {
  uint64_t irq = spin_lock_irqsave(&v->pci_lock); /* any lock: the faults are read without one */
  v->config.faults = *faults;
  spin_unlock_irqrestore(&v->pci_lock, irq);
}

enum vapu_chip_id vapu_chip(const struct vapu *v) { return (enum vapu_chip_id)(v->chip - vapu_chips); }

void *vapu_carveout(struct vapu *v, uint64_t *size) {
  if (size) *size = v->carveout_bytes;
  return v->carveout;
}

void *vapu_bar0(struct vapu *v, uint64_t *size) {
  if (size) *size = v->bar0_bytes;
  return v->bar0;
}

volatile uint32_t *vapu_doorbells(struct vapu *v, uint64_t *size) {
  if (size) *size = v->doorbell_bytes;
  return v->doorbells;
}

void vapu_get_stats(struct vapu *v, struct vapu_stats *out) {
  uint64_t *src = (uint64_t *)&v->stats, *dst = (uint64_t *)out;
  for (size_t i = 0; i < sizeof *out / sizeof(uint64_t); i++)
    dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
}
