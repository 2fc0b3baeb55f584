/* amdgpu_device.c - one GPU from PCI function to running blocks: the probe
 * (IDs, BARs, decode and bus mastering), the bring-up sequence in hardware
 * order, and the narrow interface of amdgpu.h. */
#define LOG_TAG "amdgpu"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/amdgpu/amdgpu_lifecycle.h"
#include "drivers/amdgpu/regs/nbio_7_0.h"
#include "lib/plat.h"
#include "lib/util.h"

#define PCI_COMMAND 0x04
#define PCI_COMMAND_MEMORY 0x2
#define PCI_COMMAND_MASTER 0x4
#define PCI_BAR0 0x10
#define PCI_BAR_MEM64 0x4
#define PCI_BAR_IO 0x1

static struct amdgpu_device *devices[AMDGPU_MAX_DEVICES];
static int device_count = -1; /* -1: amdgpu_init not run */

/* ---- PCI function ---- */

static const char *const bar_names[6] = {"frame buffer", "", "doorbells", "", "", "registers"};

/* Sizes a memory BAR the standard way (write all ones, read the mask back,
 * restore). Returns 0, or -ENODEV if the BAR is not implemented. */
static int size_bar(struct amdgpu_device *dev, int bar) {
  uint16_t off = (uint16_t)(PCI_BAR0 + 4 * bar);
  uint32_t lo = dev->bus->config_read(dev, off);
  dev->bus->config_write(dev, off, 0xffffffff);
  uint32_t mask_lo = dev->bus->config_read(dev, off);
  dev->bus->config_write(dev, off, lo);
  uint64_t address = lo & ~0xfu, mask = mask_lo & ~0xfu;
  if ((lo & PCI_BAR_MEM64) && bar < 5) {
    uint32_t hi = dev->bus->config_read(dev, (uint16_t)(off + 4));
    dev->bus->config_write(dev, (uint16_t)(off + 4), 0xffffffff);
    uint32_t mask_hi = dev->bus->config_read(dev, (uint16_t)(off + 4));
    dev->bus->config_write(dev, (uint16_t)(off + 4), hi);
    address |= (uint64_t)hi << 32;
    mask |= (uint64_t)mask_hi << 32;
  } else {
    mask |= 0xffffffff00000000ull;
  }
  if (!mask_lo || (lo & PCI_BAR_IO) || !address) {
    log_error("%04x:%04x: BAR%d (%s) is not implemented or not assigned (0x%08x)", dev->vendor_id,
              dev->device_id, bar, bar_names[bar], lo);
    return -ENODEV;
  }
  dev->bar_address[bar] = address;
  dev->bar_size[bar] = ~mask + 1;
  return 0;
}

static int probe_pci(struct amdgpu_device *dev) {
  uint32_t id = dev->bus->config_read(dev, 0x00);
  dev->vendor_id = (uint16_t)id;
  dev->device_id = (uint16_t)(id >> 16);
  dev->revision = (uint8_t)dev->bus->config_read(dev, 0x08);
  if (!amdgpu_pci_id_supported(dev->vendor_id, dev->device_id)) {
    log_error("PCI device %04x:%04x is not a supported APU GPU", dev->vendor_id, dev->device_id);
    return -ENODEV;
  }
  /* BAR0 frame buffer, BAR2 doorbells, BAR5 registers (Linux
   * amdgpu_device_init: rmmio from BAR5 on SOC15, doorbells BAR2). Sized
   * with memory decoding off, so that the all-ones probe value never
   * claims addresses (PCI Local Bus Spec 3.0, 6.2.5.1 implementation note). */
  static const int bars[] = {0, 2, 5};
  uint32_t cmd = dev->bus->config_read(dev, PCI_COMMAND) & 0xffff;
  dev->bus->config_write(dev, PCI_COMMAND, cmd & ~(uint32_t)PCI_COMMAND_MEMORY);
  for (int i = 0; i < 3; i++) {
    int r = size_bar(dev, bars[i]);
    if (r) {
      dev->bus->config_write(dev, PCI_COMMAND, cmd);
      return r;
    }
  }
  dev->bus->config_write(dev, PCI_COMMAND, cmd | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
  /* The ATI revision strap, before the IP bases are known. */
  uint32_t strap = RREG(dev, REG_NBIO_RCC_DEV0_EPF0_STRAP0_FIXED);
  if (strap == 0xffffffffu) {
    log_error("%04x:%04x: registers do not answer (BAR5 reads all ones)", dev->vendor_id, dev->device_id);
    return -EIO;
  }
  dev->ati_rev_id = (uint8_t)((strap & RCC_DEV0_EPF0_STRAP0__STRAP_ATI_REV_ID_DEV0_F0_MASK) >>
                              RCC_DEV0_EPF0_STRAP0__STRAP_ATI_REV_ID_DEV0_F0_SHIFT);
  dev->chip = amdgpu_chip_lookup(dev->device_id, dev->ati_rev_id);
  log_info("%s (%04x:%04x rev %02x, ATI rev %u) on %s: FB %llu MiB at 0x%llx, doorbells %llu KiB, "
           "registers %llu KiB",
           dev->chip->name, dev->vendor_id, dev->device_id, dev->revision, dev->ati_rev_id,
           dev->bus->name, (unsigned long long)(dev->bar_size[0] >> 20),
           (unsigned long long)dev->bar_address[0], (unsigned long long)(dev->bar_size[2] >> 10),
           (unsigned long long)(dev->bar_size[5] >> 10));
  return 0;
}

static void release_pci(struct amdgpu_device *dev) {
  uint32_t cmd = dev->bus->config_read(dev, PCI_COMMAND);
  dev->bus->config_write(dev, PCI_COMMAND, cmd & 0xffff & ~(uint32_t)PCI_COMMAND_MASTER);
}

/* ---- Bring-up ----
 * Software state of every block first, then the hardware in order: IP
 * bases (fixed table or discovery) and the graphics core out of GFXOFF
 * before anything reads a GC register, the firmware that must already run
 * (PSP, SMU), the firmware files we hand the PSP, the bus interface and
 * HDP, the memory controller with its page tables, the interrupt ring, the
 * PSP's ring loading SDMA/MEC/RLC firmware into its TMR, SDMA power, the
 * graphics core's settings, the RLC, the compute side of the CP.
 * (Linux soc15 order for these APUs: common, gmc, ih, psp, smu, gfx, sdma.) */
static const struct amdgpu_ip_funcs *const blocks[] = {
    &soc15_block, &psp_block, &smu_block, &ucode_block, &nbio_block, &gmc_block,
    &ih_block,    &psp_ring_block, &sdma_block, &gfx_block, &rlc_block, &cp_block,
};
#define BLOCK_COUNT ((int)(countof(blocks)))

static void undo(struct amdgpu_device *dev, int sw_done, int hw_done) {
  for (int i = hw_done - 1; i >= 0; i--)
    if (blocks[i]->fini_hw) blocks[i]->fini_hw(dev);
  for (int i = sw_done - 1; i >= 0; i--)
    if (blocks[i]->fini_sw) blocks[i]->fini_sw(dev);
}

static int run_step(struct amdgpu_device *dev, const struct amdgpu_ip_funcs *b,
                    int (*fn)(struct amdgpu_device *), const char *phase) {
  char step[32];
  snprintf(step, sizeof step, "%s/%s", b->name, phase);
  dev->trace_step = step;
  uint64_t t0 = plat_now_ns();
  int r = fn(dev);
  uint64_t us = (plat_now_ns() - t0) / 1000;
  dev->trace_step = NULL;
  if (r)
    log_error("%s %s failed (%d) after %llu us", b->name, phase, r, (unsigned long long)us);
  else
    log_info("%s %s done in %llu us", b->name, phase, (unsigned long long)us);
  return r;
}

int amdgpu_device_bring_up(struct amdgpu_device *dev) {
  uint64_t t0 = plat_now_ns();
  dev->tracing = amdgpu_trace_enabled();
  int r = probe_pci(dev);
  if (r) {
    dev->tracing = false;
    return r;
  }
  int sw = 0, hw = 0;
  for (; sw < BLOCK_COUNT; sw++)
    if (blocks[sw]->init_sw && (r = run_step(dev, blocks[sw], blocks[sw]->init_sw, "init_sw"))) break;
  if (!r)
    for (; hw < BLOCK_COUNT; hw++)
      if (blocks[hw]->init_hw && (r = run_step(dev, blocks[hw], blocks[hw]->init_hw, "init_hw"))) break;
  if (r) {
    /* Undo includes the failed block: fini_hw and fini_sw tolerate a
     * half-done init. */
    if (sw < BLOCK_COUNT)
      undo(dev, sw + 1, 0);
    else
      undo(dev, BLOCK_COUNT, hw + 1);
    release_pci(dev);
    dev->tracing = false;
    log_error("%s: bring-up stopped, device left off", dev->chip ? dev->chip->name : "GPU");
    return r;
  }
  dev->tracing = false;
  dev->blocks_up = BLOCK_COUNT;
  log_info("%s up in %llu ms", dev->chip->name, (unsigned long long)((plat_now_ns() - t0) / 1000000));
  return 0;
}

void amdgpu_device_remove(struct amdgpu_device *dev) {
  if (!dev) return;
  if (dev->blocks_up) {
    undo(dev, BLOCK_COUNT, BLOCK_COUNT);
    release_pci(dev);
    dev->blocks_up = 0;
  }
  if (dev->bus->release) dev->bus->release(dev);
  plat_protected_free(dev);
}

int amdgpu_device_register(struct amdgpu_device *dev) {
  if (device_count < 0) device_count = 0;
  if (device_count >= AMDGPU_MAX_DEVICES) {
    log_error("more than %d GPUs: ignoring %s", AMDGPU_MAX_DEVICES, dev->chip->name);
    return -ENOSPC;
  }
  dev->index = device_count;
  devices[device_count++] = dev;
  return 0;
}

/* ---- The narrow interface ---- */

int amdgpu_init(void) {
  if (device_count >= 0) return device_count;
  device_count = 0;
  int r = amdgpu_platform_probe();
  if (r < 0) {
    amdgpu_fini();
    return r;
  }
  return device_count;
}

void amdgpu_fini(void) {
  for (int i = 0; i < device_count; i++) amdgpu_device_remove(devices[i]);
  device_count = -1;
}

int amdgpu_device_count(void) { return device_count < 0 ? 0 : device_count; }

struct amdgpu_device *amdgpu_device_get(int index) {
  return index >= 0 && index < amdgpu_device_count() ? devices[index] : NULL;
}

int amdgpu_device_query(const struct amdgpu_device *dev, struct amdgpu_device_info *info) {
  if (!dev || !info) return -EINVAL;
  memset(info, 0, sizeof *info);
  snprintf(info->chip_name, sizeof info->chip_name, "%s", dev->chip->name);
  snprintf(info->gfx_target, sizeof info->gfx_target, "%s", dev->chip->gfx_target);
  info->gfx_version = dev->chip->gfx_version;
  info->pci_vendor_id = dev->vendor_id;
  info->pci_device_id = dev->device_id;
  info->pci_revision = dev->revision;
  info->virtual_apu = dev->bus->virtual_apu;
  info->shader_engines = dev->shader_engines;
  info->compute_units = dev->active_cus;
  info->sh_per_se = dev->sh_per_se;
  info->queues_max = AMDGPU_QUEUES_MAX;
  info->simd_per_cu = 4;
  info->waves_per_simd = dev->waves_per_simd;
  info->wave_size = dev->wave_size;
  info->lds_bytes_per_workgroup = dev->lds_bytes;
  info->local_memory_base = dev->gmc.fb_physical;
  info->local_memory_size = dev->gmc.vram_size;
  info->max_engine_clock_mhz = dev->max_gfxclk_mhz;
  info->smu_firmware_version = dev->smu_version;
  info->lds_aperture_base = AMDGPU_LDS_APERTURE_BASE;
  info->scratch_aperture_base = AMDGPU_SCRATCH_APERTURE_BASE;
  return 0;
}

void amdgpu_set_fault_handler(struct amdgpu_device *dev, amdgpu_fault_handler fn, void *ctx) {
  if (!dev) return;
  __atomic_store_n(&dev->fault_fn, NULL, __ATOMIC_RELEASE);
  dev->fault_ctx = ctx;
  __atomic_store_n(&dev->fault_fn, fn, __ATOMIC_RELEASE);
}

void amdgpu_set_schedule_handler(struct amdgpu_device *dev, amdgpu_schedule_handler fn, void *ctx) {
  if (!dev) return;
  __atomic_store_n(&dev->schedule_fn, NULL, __ATOMIC_RELEASE);
  dev->schedule_ctx = ctx;
  __atomic_store_n(&dev->schedule_fn, fn, __ATOMIC_RELEASE);
}

void amdgpu_set_eop_handler(struct amdgpu_device *dev, amdgpu_eop_handler fn, void *ctx) {
  if (!dev) return;
  __atomic_store_n(&dev->eop_fn, NULL, __ATOMIC_RELEASE);
  dev->eop_ctx = ctx;
  __atomic_store_n(&dev->eop_fn, fn, __ATOMIC_RELEASE);
}
