/*
 * iommu_unit.c - bringing one AMD IOMMU up: features, device table, command
 * ring, event log, enable (see iommu_unit.h).
 *
 * The sequence follows Linux drivers/iommu/amd/init.c (early_enable_iommu,
 * iommu_init_flags, iommu_set_device_table, iommu_enable_command_buffer,
 * iommu_enable_event_buffer, init_device_table_dma) and the register
 * descriptions of the AMD IOMMU specification (48882, 3.4).
 */
#define LOG_TAG "iommu"

#include "drivers/iommu/iommu_unit.h"

#include <errno.h>
#include <string.h>

#include "drivers/iommu/amd_iommu_regs.h"
#include "drivers/iommu/iommu_memory.h"
#include "lib/plat.h"

static uint64_t mmio_read(void *ctx, unsigned offset) {
  return *(volatile uint64_t *)((volatile uint8_t *)ctx + offset);
}
static void mmio_write(void *ctx, unsigned offset, uint64_t value) {
  *(volatile uint64_t *)((volatile uint8_t *)ctx + offset) = value;
}
const struct iommu_reg_ops iommu_mmio_ops = {mmio_read, mmio_write};

static uint64_t reg_read(struct iommu_unit *u, unsigned off) {
  return u->regs->read(u->regs_ctx, off);
}
static void reg_write(struct iommu_unit *u, unsigned off, uint64_t v) {
  u->regs->write(u->regs_ctx, off, v);
}

static void control_update(struct iommu_unit *u, uint64_t clear, uint64_t set) {
  reg_write(u, IOMMU_MMIO_CONTROL, (reg_read(u, IOMMU_MMIO_CONTROL) & ~clear) | set);
}

/* ---- Device table entries ------------------------------------------------ */

/* The IVHD's DTE setting byte for a device ID: the narrowest entry naming
 * it, or the entry that aliases other devices to it, or its special / ACPI
 * device entry (Linux init_iommu_from_acpi applies the same byte). */
static uint8_t dte_setting_for(const struct ivrs_iommu *ivhd, uint16_t devid) {
  const struct ivrs_devices *run = ivrs_run_for(ivhd, devid);
  if (run) return run->dte_setting;
  for (unsigned i = 0; i < ivhd->run_count; i++)
    if (ivhd->runs[i].alias && ivhd->runs[i].alias_id == devid) return ivhd->runs[i].dte_setting;
  for (unsigned i = 0; i < ivhd->special_count; i++)
    if (ivhd->specials[i].devid == devid) return ivhd->specials[i].dte_setting;
  for (unsigned i = 0; i < ivhd->acpi_count; i++)
    if (ivhd->acpi_devices[i].devid == devid) return ivhd->acpi_devices[i].dte_setting;
  return 0;
}

static unsigned sysmgt_of(uint8_t setting) { return (setting >> IVRS_DTE_SYSMGT_SHIFT) & 3; }

/* Quadword 2: the interrupt pass-through bits firmware asked for (Linux
 * set_dev_entry_from_acpi_range maps ACPI_DEVFLAG_* to DEV_ENTRY_*_PASS). */
static uint64_t dte_q2_for(uint8_t setting) {
  return (setting & IVRS_DTE_INIT_PASS ? DTE2_INIT_PASS : 0) |
         (setting & IVRS_DTE_EINT_PASS ? DTE2_EINT_PASS : 0) |
         (setting & IVRS_DTE_NMI_PASS ? DTE2_NMI_PASS : 0) |
         (setting & IVRS_DTE_LINT0_PASS ? DTE2_LINT0_PASS : 0) |
         (setting & IVRS_DTE_LINT1_PASS ? DTE2_LINT1_PASS : 0);
}

static void dte_write(struct iommu_unit *u, uint16_t devid, uint64_t q0, uint64_t q1, uint64_t q2) {
  volatile uint64_t *dte = &u->dev_table[(size_t)devid * 4];
  /* Valid bits last: an IOMMU that fetches the entry meanwhile sees the old
   * quadword 0, whose domain's caches the caller flushes afterwards. */
  dte[3] = 0;
  dte[2] = q2;
  dte[1] = q1;
  __atomic_store_n((uint64_t *)&dte[0], q0, __ATOMIC_RELEASE);
}

void iommu_dte_set_translated(struct iommu_unit *u, uint16_t devid, uint16_t domain_id,
                              uint64_t root_and_mode) {
  uint8_t setting = dte_setting_for(u->ivhd, devid);
  dte_write(u, devid, DTE0_V | DTE0_TV | DTE0_IR | DTE0_IW | root_and_mode,
            domain_id | (uint64_t)sysmgt_of(setting) << DTE1_SYSMGT_SHIFT, dte_q2_for(setting));
}

/* A device without a domain (passthrough mode: V, TV, IR, IW with Mode 0,
 * every access untranslated). Otherwise V and TV with Mode 0 and neither IR nor IW,
 * so every request is refused [48882 2.2.2.1: Mode 000b, access controlled
 * by IR/IW]; Linux init_device_table_dma blocks the same way. Erratum 63:
 * SysMgt = 01b needs IW = 1 (Linux set_dev_entry_from_acpi_range), which
 * with Mode 0 would let writes through untranslated, so those devices get
 * an empty page table instead: every access misses. */
void iommu_dte_set_default(struct iommu_unit *u, uint16_t devid) {
  uint8_t setting = dte_setting_for(u->ivhd, devid);
  uint64_t q0 = DTE0_V | DTE0_TV;
  if (u->passthrough)
    q0 |= DTE0_IR | DTE0_IW;
  else if (sysmgt_of(setting) == 1)
    q0 |= DTE0_IR | DTE0_IW | ((uint64_t)(uintptr_t)u->empty_root & IOMMU_ADDR_MASK) |
          (1ull << DTE0_MODE_SHIFT);
  dte_write(u, devid, q0, (uint64_t)sysmgt_of(setting) << DTE1_SYSMGT_SHIFT, dte_q2_for(setting));
}

const uint64_t *iommu_dte(const struct iommu_unit *u, uint16_t devid) {
  return devid < u->dev_entries ? &u->dev_table[(size_t)devid * 4] : NULL;
}

/* ---- Bring-up ------------------------------------------------------------ */

static size_t round_up_pow2(size_t v) {
  size_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

/* Features: the register when the capability header says it exists, else
 * the copy in IVHD types 11h/40h (Linux early_iommu_features_init and
 * late_iommu_features_init). */
static uint64_t read_features(struct iommu_unit *u) {
  if (u->cap_header & IOMMU_CAP_EFR_SUP) return reg_read(u, IOMMU_MMIO_EXT_FEATURES);
  return u->ivhd->efr_image;
}

/* Control bits the IVHD flags ask for, coherent table walks, and a 1 s
 * IOTLB invalidation timeout (Linux iommu_init_flags). */
static void set_control_flags(struct iommu_unit *u) {
  uint8_t f = u->ivhd->flags;
  uint64_t set = IOMMU_CTRL_COHERENT | IOMMU_CTRL_INV_TIMEOUT_1S << IOMMU_CTRL_INV_TIMEOUT_SHIFT;
  if (f & IVHD_FLAG_HT_TUN_EN) set |= IOMMU_CTRL_HT_TUN_EN;
  if (f & IVHD_FLAG_PASS_PW) set |= IOMMU_CTRL_PASS_PW;
  if (f & IVHD_FLAG_RES_PASS_PW) set |= IOMMU_CTRL_RES_PASS_PW;
  if (f & IVHD_FLAG_ISOC) set |= IOMMU_CTRL_ISOC;
  control_update(u,
                 IOMMU_CTRL_HT_TUN_EN | IOMMU_CTRL_PASS_PW | IOMMU_CTRL_RES_PASS_PW |
                     IOMMU_CTRL_ISOC | IOMMU_CTRL_INV_TIMEOUT_MASK,
                 set);
}

void iommu_unit_disable(struct iommu_unit *u) {
  control_update(u,
                 IOMMU_CTRL_IOMMU_EN | IOMMU_CTRL_CMD_BUF_EN | IOMMU_CTRL_EVENT_LOG_EN |
                     IOMMU_CTRL_EVENT_INT_EN | IOMMU_CTRL_COMWAIT_INT_EN | IOMMU_CTRL_PPR_LOG_EN |
                     IOMMU_CTRL_PPR_INT_EN | IOMMU_CTRL_PPR_EN | IOMMU_CTRL_GT_EN |
                     IOMMU_CTRL_GA_EN,
                 0);
  u->enabled = false;
}

static int alloc_structures(struct iommu_unit *u, struct iommu_memory *mem) {
  u->dev_entries = (unsigned)u->ivhd->last_devid + 1;
  /* At least 4 KiB, a power of two, aligned to its size (Linux
   * alloc_pci_segment / alloc_dev_table). */
  u->dev_table_bytes = round_up_pow2((size_t)u->dev_entries * DTE_SIZE);
  if (u->dev_table_bytes < 4096) u->dev_table_bytes = 4096;
  u->dev_table = iommu_memory_alloc(mem, u->dev_table_bytes, u->dev_table_bytes, "device table");
  u->cmd_buf = iommu_memory_alloc(mem, IOMMU_CMD_ENTRIES * CMD_SIZE, IOMMU_CMD_ENTRIES * CMD_SIZE,
                                  "command buffer");
  u->event_log = iommu_memory_alloc(mem, IOMMU_EVENT_ENTRIES * EVENT_SIZE,
                                    IOMMU_EVENT_ENTRIES * EVENT_SIZE, "event log");
  u->semaphore = iommu_memory_alloc(mem, 4096, 4096, "completion semaphore");
  u->empty_root = iommu_memory_alloc(mem, 4096, 4096, "empty page table");
  if (!u->dev_table || !u->cmd_buf || !u->event_log || !u->semaphore || !u->empty_root)
    return -ENOMEM;
  return 0;
}

/* log2 of a ring's entry count, in bits 59:56 of its base register
 * (ComLen / EventLen; Linux MMIO_CMD_SIZE_512 = 9 << 56). */
static uint64_t ring_length_field(unsigned entries) {
  unsigned log2 = 0;
  while ((1u << log2) < entries) log2++;
  return (uint64_t)log2 << IOMMU_RING_LEN_SHIFT;
}

int iommu_unit_init(struct iommu_unit *u, unsigned index, const struct ivrs_iommu *ivhd,
                    const struct iommu_reg_ops *regs, void *regs_ctx, uint32_t cap_header,
                    bool passthrough, struct iommu_memory *mem) {
  memset(u, 0, sizeof *u);
  u->index = index;
  u->ivhd = ivhd;
  u->regs = regs;
  u->regs_ctx = regs_ctx;
  u->cap_header = cap_header;
  u->passthrough = passthrough;
  u->timeout_ns = IOMMU_CMD_TIMEOUT_NS;
  u->cmd_lock = (struct spinlock)SPINLOCK_INIT;
  u->event_lock = (struct spinlock)SPINLOCK_INIT;
  u->efr = read_features(u);

  /* Firmware may have left it translating: stop everything first (Linux
   * init_iommu_one_late, iommu_disable). */
  if (reg_read(u, IOMMU_MMIO_CONTROL) & IOMMU_CTRL_IOMMU_EN)
    log_warn("IOMMU %u was left enabled by firmware: disabling it first", index);
  iommu_unit_disable(u);

  int err = alloc_structures(u, mem);
  if (err) return err;
  for (unsigned devid = 0; devid < u->dev_entries; devid++)
    iommu_dte_set_default(u, (uint16_t)devid);

  set_control_flags(u);
  /* No exclusion range: addresses in it would bypass translation for every
   * device [48882 3.4 "IOMMU Exclusion Base Register", ExEn bit 0]. IVMD
   * exclusion ranges become read-write unity mappings instead, as Linux
   * init_unity_map_range treats them. */
  reg_write(u, IOMMU_MMIO_EXCL_BASE, 0);
  reg_write(u, IOMMU_MMIO_EXCL_LIMIT, 0);
  /* Device table base | size in 4 KiB pages - 1 [48882 3.4], Linux
   * iommu_set_device_table. */
  reg_write(
      u, IOMMU_MMIO_DEV_TABLE_BASE,
      ((uint64_t)(uintptr_t)u->dev_table & IOMMU_ADDR_MASK) | (u->dev_table_bytes / 4096 - 1));
  /* Command ring: base | length, head = tail = 0, then enable (Linux
   * iommu_enable_command_buffer, amd_iommu_reset_cmd_buffer). */
  reg_write(
      u, IOMMU_MMIO_CMD_BUF_BASE,
      ((uint64_t)(uintptr_t)u->cmd_buf & IOMMU_ADDR_MASK) | ring_length_field(IOMMU_CMD_ENTRIES));
  reg_write(u, IOMMU_MMIO_CMD_HEAD, 0);
  reg_write(u, IOMMU_MMIO_CMD_TAIL, 0);
  control_update(u, 0, IOMMU_CTRL_CMD_BUF_EN);
  /* Event log likewise (Linux iommu_enable_event_buffer). */
  reg_write(u, IOMMU_MMIO_EVENT_LOG_BASE,
            ((uint64_t)(uintptr_t)u->event_log & IOMMU_ADDR_MASK) |
                ring_length_field(IOMMU_EVENT_ENTRIES));
  reg_write(u, IOMMU_MMIO_EVENT_HEAD, 0);
  reg_write(u, IOMMU_MMIO_EVENT_TAIL, 0);
  control_update(u, 0, IOMMU_CTRL_EVENT_LOG_EN);

  control_update(u, 0, IOMMU_CTRL_IOMMU_EN);
  u->enabled = true;
  /* Nothing cached from before may survive: the first commands also prove
   * that the IOMMU answers. */
  err = iommu_inv_all(u);
  if (err) {
    log_error("IOMMU %u does not execute commands (%d): disabling it", index, err);
    iommu_unit_disable(u);
    return err;
  }
  return 0;
}

void iommu_unit_enable_event_interrupt(struct iommu_unit *u) {
  control_update(u, 0, IOMMU_CTRL_EVENT_INT_EN);
}
