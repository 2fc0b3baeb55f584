/*
 * iommu_system_test.c - the driver as a whole (iommu.h) on the register
 * model of tests/host/iommu_fake_hw.c, with the IVRS QEMU 7.2 gives a q35
 * machine with a PCIe root port and a conventional PCI bridge
 * (tests/data/iommu/qemu72_q35_bridges_ivrs.bin): what each device's DMA
 * reaches, before and after attach, map, unmap, flush, protect, detach.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/iommu/amd_iommu_regs.h"
#include "drivers/iommu/iommu.h"
#include "drivers/iommu/iommu_system.h"
#include "lib/plat.h"
#include "lib/test.h"
#include "tests/host/iommu_fake_hw.h"

static struct ivrs_info ivrs;
static struct fake_iommu fake;
static struct iommu_system sys;

#define EDU             IOMMU_BDF(0, 3, 0)
#define ROOT_PORT_DEV   IOMMU_BDF(1, 0, 0) /* behind the PCIe root port */
#define BRIDGE          IOMMU_BDF(0, 5, 0) /* the conventional PCI bridge */
#define BEHIND_BRIDGE_A IOMMU_BDF(2, 3, 0)
#define BEHIND_BRIDGE_B IOMMU_BDF(2, 5, 0)

static void load_ivrs(void) {
  size_t size;
  void *t = plat_file_load("tests/data/iommu/qemu72_q35_bridges_ivrs.bin", &size);
  if (!t)
    FAIL("cannot read the recorded IVRS (run from the repository root)");
  int rc = ivrs_parse(t, size, &ivrs);
  free(t);
  ASSERT_EQ(rc, 0);
}

static void start(enum iommu_mode mode, uint64_t efr) {
  fake_iommu_init(&fake, efr);
  struct iommu_hw hw = {&fake_iommu_ops, &fake, IOMMU_CAP_EFR_SUP | IOMMU_CAP_NP_CACHE};
  ASSERT_EQ(iommu_system_start(&sys, mode, &ivrs, &hw, 1ull << 48), 0);
  fake.interrupt = iommu_event_interrupt;
  fake.interrupt_ctx = &sys.units[0];
  iommu_unit_enable_event_interrupt(&sys.units[0]);
}

static bool dma(uint16_t requester, uint64_t addr, bool write) {
  uint64_t phys = 0;
  bool ok = fake_iommu_dma(&fake, requester, addr, write, &phys);
  if (ok && phys != addr)
    FAIL("DMA to 0x%llx landed at 0x%llx", (unsigned long long)addr,
              (unsigned long long)phys);
  return ok;
}

/* Memory for "buffers": only its addresses matter to the model. */
static uint8_t *buffer(size_t size) {
  uint8_t *p = plat_dma_alloc(size, 1 << 21);
  ASSERT_NOT_NULL(p);
  return p;
}

TEST(iommu_system_blocks_devices_without_domain) {
  load_ivrs();
  start(IOMMU_MODE_ON, IOMMU_EFR_IA_SUP | 2ull << IOMMU_EFR_HATS_SHIFT);
  ASSERT_EQ(iommu_mode(), IOMMU_MODE_ON);
  uint8_t *buf = buffer(1 << 16);
  uint64_t a = (uint64_t)(uintptr_t)buf;
  ASSERT_FALSE(dma(EDU, a, true));
  ASSERT_FALSE(dma(EDU, a, false));
  ASSERT_FALSE(dma(ROOT_PORT_DEV, a, false));
  ASSERT_FALSE(dma(BRIDGE, a, true));
  /* Every device ID of the table is blocked, listed in the IVRS or not. */
  const struct iommu_unit *u = &sys.units[0];
  ASSERT_EQ(u->dev_entries, 0x300);
  for (unsigned id = 0; id < u->dev_entries; id++) {
    const uint64_t *dte = iommu_dte(u, (uint16_t)id);
    ASSERT_EQ_U(dte[0], DTE0_V | DTE0_TV);
    ASSERT_EQ_U(dte[3], 0);
  }
  /* The refusals were logged; the events were decoded and counted. */
  ASSERT_EQ(u->counts.by_code[EVENT_IO_PAGE_FAULT], 4);
  ASSERT_EQ(u->counts.interrupts, 4);
  /* The bring-up: device table, command buffer, event log programmed as
   * 48882 3.4 lays the registers out. */
  ASSERT_EQ_U(fake.regs[IOMMU_MMIO_DEV_TABLE_BASE / 8],
              (uint64_t)(uintptr_t)u->dev_table | (u->dev_table_bytes / 4096 - 1));
  ASSERT_EQ(u->dev_table_bytes, 0x8000); /* 0x300 entries of 32 bytes, rounded to a power of two */
  ASSERT_EQ_U(fake.regs[IOMMU_MMIO_CMD_BUF_BASE / 8], (uint64_t)(uintptr_t)u->cmd_buf | 9ull << 56);
  ASSERT_EQ_U(fake.regs[IOMMU_MMIO_EVENT_LOG_BASE / 8],
              (uint64_t)(uintptr_t)u->event_log | 9ull << 56);
  uint64_t ctrl = fake.regs[IOMMU_MMIO_CONTROL / 8];
  ASSERT_TRUE(ctrl & IOMMU_CTRL_IOMMU_EN);
  ASSERT_TRUE(ctrl & IOMMU_CTRL_CMD_BUF_EN);
  ASSERT_TRUE(ctrl & IOMMU_CTRL_EVENT_LOG_EN);
  ASSERT_TRUE(ctrl & IOMMU_CTRL_COHERENT);
  ASSERT_TRUE(ctrl & IOMMU_CTRL_HT_TUN_EN); /* IVHD flags 0xd1 ask for it */
  ASSERT_EQ_U((ctrl & IOMMU_CTRL_INV_TIMEOUT_MASK) >> IOMMU_CTRL_INV_TIMEOUT_SHIFT, 4);
  ASSERT_EQ(fake.executed[CMD_INV_IOMMU_ALL], 1);
  ASSERT_GE(fake.executed[CMD_COMPLETION_WAIT], 1);
  plat_dma_free(buf, 1 << 16);
  iommu_system_stop(&sys);
}

TEST(iommu_system_mapped_dma_lands_and_unmap_revokes) {
  load_ivrs();
  start(IOMMU_MODE_ON, IOMMU_EFR_IA_SUP);
  uint8_t *buf = buffer(1 << 20);
  uint64_t a = (uint64_t)(uintptr_t)buf;
  struct iommu_device *edu;
  ASSERT_EQ(iommu_attach(0, EDU, "edu", &edu), 0);
  ASSERT_FALSE(dma(EDU, a, false)); /* attached: still nothing mapped */
  ASSERT_EQ(iommu_map(edu, a, 0x10000, IOMMU_READ | IOMMU_WRITE), 0);
  ASSERT_EQ(iommu_map(edu, a + 0x20000, 0x1000, IOMMU_READ), 0);
  ASSERT_EQ(iommu_flush(edu), 0);
  ASSERT_TRUE(dma(EDU, a, true));
  ASSERT_TRUE(dma(EDU, a + 0xfff8, false));
  ASSERT_FALSE(dma(EDU, a + 0x10000, true)); /* one page past the buffer */
  ASSERT_FALSE(dma(EDU, a - 0x1000, false));
  ASSERT_TRUE(dma(EDU, a + 0x20000, false));
  ASSERT_FALSE(dma(EDU, a + 0x20000, true)); /* read only */
  ASSERT_TRUE(iommu_can_reach(edu, a + 0x8000, IOMMU_WRITE));
  ASSERT_FALSE(iommu_can_reach(edu, a + 0x20000, IOMMU_WRITE));
  iommu_log_state(); /* (shown with HSAR_OPTIONS=loglevel=info) */
  /* Other devices stay blocked. */
  ASSERT_FALSE(dma(ROOT_PORT_DEV, a, false));
  /* The DTE: page table root and levels, both rights, its domain. */
  const uint64_t *dte = iommu_dte(&sys.units[0], EDU);
  ASSERT_EQ_U(dte[0] & (DTE0_V | DTE0_TV | DTE0_IR | DTE0_IW),
              DTE0_V | DTE0_TV | DTE0_IR | DTE0_IW);
  ASSERT_EQ((dte[0] & DTE0_MODE_MASK) >> DTE0_MODE_SHIFT, 4);
  ASSERT_EQ(dte[1] & DTE1_DOMAIN_MASK, 1);
  /* Unmap: gone once flushed (the model caches the translation it used
   * until INVALIDATE_IOMMU_PAGES reaches it). */
  unsigned inv_before = fake.executed[CMD_INV_IOMMU_PAGES];
  ASSERT_EQ(iommu_unmap(edu, a, 0x4000), 0);
  ASSERT_EQ(fake.executed[CMD_INV_IOMMU_PAGES], inv_before + 1);
  ASSERT_EQ(iommu_flush(edu), 0);
  ASSERT_FALSE(dma(EDU, a, true));
  ASSERT_FALSE(dma(EDU, a + 0x3ff8, false));
  ASSERT_TRUE(dma(EDU, a + 0x4000, true));
  /* Errors. */
  ASSERT_EQ(iommu_map(edu, a + 0x8000, 0x1000, IOMMU_READ), -EEXIST);
  ASSERT_EQ(iommu_map(edu, a + 1, 0x1000, IOMMU_READ), -EINVAL);
  ASSERT_EQ(iommu_map(edu, a, 0x1000, 0), -EINVAL);
  ASSERT_EQ(iommu_map(edu, a, 0, IOMMU_READ), -EINVAL);
  ASSERT_EQ(iommu_unmap(edu, a, 0x800), -EINVAL);
  ASSERT_EQ(iommu_detach(edu), 0);
  ASSERT_FALSE(dma(EDU, a + 0x8000, false));
  ASSERT_EQ_U(iommu_dte(&sys.units[0], EDU)[0], DTE0_V | DTE0_TV);
  ASSERT_EQ(iommu_map(edu, a, 0x1000, IOMMU_READ), -EINVAL); /* detached handle */
  plat_dma_free(buf, 1 << 20);
  iommu_system_stop(&sys);
}

TEST(iommu_system_attach_errors) {
  load_ivrs();
  start(IOMMU_MODE_ON, IOMMU_EFR_IA_SUP);
  struct iommu_device *d, *e;
  ASSERT_EQ(iommu_attach(0, EDU, "edu", &d), 0);
  ASSERT_EQ(iommu_attach(0, EDU, "again", &e), -EBUSY);
  ASSERT_NULL(e);
  ASSERT_EQ(iommu_attach(0, IOMMU_BDF(0, 2, 0), "iommu", &e), -EINVAL); /* the IOMMU itself */
  ASSERT_EQ(iommu_attach(1, EDU, "other segment", &e), -ENODEV);
  ASSERT_EQ(iommu_attach(0, IOMMU_BDF(3, 0, 0), "unlisted", &e), -ENODEV);
  ASSERT_EQ(iommu_attach(0, EDU, NULL, &e), -EINVAL);
  ASSERT_EQ(iommu_detach(d), 0);
  ASSERT_EQ(iommu_detach(d), -EINVAL);
  ASSERT_EQ(iommu_map(NULL, 0x1000, 0x1000, IOMMU_READ), -EINVAL);
  /* Domain IDs never use bit 8: QEMU 7.2 would call such a DTE illegal
   * (the model checks the same reserved bits). */
  uint8_t *buf = buffer(1 << 12);
  for (int i = 0; i < 0x120; i++) {
    ASSERT_EQ(iommu_attach(0, EDU, "edu", &d), 0);
    ASSERT_EQ(iommu_map(d, (uint64_t)(uintptr_t)buf, 0x1000, IOMMU_WRITE), 0);
    ASSERT_EQ(iommu_flush(d), 0);
    ASSERT_EQ(iommu_dte(&sys.units[0], EDU)[1] & 0x100, 0);
    ASSERT_TRUE(dma(EDU, (uint64_t)(uintptr_t)buf, true));
    ASSERT_EQ(iommu_detach(d), 0);
  }
  ASSERT_EQ(sys.units[0].counts.by_code[EVENT_ILLEGAL_DEV_TABLE_ENTRY], 0);
  plat_dma_free(buf, 1 << 12);
  iommu_system_stop(&sys);
}

TEST(iommu_system_protected_memory_is_never_mapped) {
  load_ivrs();
  start(IOMMU_MODE_ON, IOMMU_EFR_IA_SUP);
  uint8_t *buf = buffer(1 << 21);
  uint64_t a = (uint64_t)(uintptr_t)buf;
  struct iommu_device *edu;
  ASSERT_EQ(iommu_attach(0, EDU, "edu", &edu), 0);
  ASSERT_EQ(iommu_protect(a + 0x3000, 0x800, "kernel stack"), 0);
  ASSERT_EQ(iommu_map(edu, a, 0x10000, IOMMU_READ | IOMMU_WRITE), -EPERM);
  ASSERT_FALSE(iommu_can_reach(edu, a, IOMMU_READ)); /* nothing mapped at all */
  ASSERT_EQ(iommu_map_allowed(edu, a, 0x10000, IOMMU_READ | IOMMU_WRITE), 0);
  ASSERT_EQ(iommu_flush(edu), 0);
  ASSERT_TRUE(dma(EDU, a + 0x2ff8, true));
  ASSERT_FALSE(dma(EDU, a + 0x3000, true));
  ASSERT_FALSE(dma(EDU, a + 0x3ff8, false));
  ASSERT_TRUE(dma(EDU, a + 0x4000, true));
  /* Protecting memory a device can reach takes it away at once. */
  ASSERT_TRUE(dma(EDU, a + 0x8000, true));
  ASSERT_EQ(iommu_protect(a + 0x8000, 0x2000, "page tables"), 0);
  ASSERT_FALSE(dma(EDU, a + 0x8000, true));
  ASSERT_FALSE(dma(EDU, a + 0x9000, false));
  ASSERT_TRUE(dma(EDU, a + 0xa000, false));
  /* The IOMMU's own tables and rings are protected without being asked. */
  const struct iommu_unit *u = &sys.units[0];
  ASSERT_EQ(iommu_map(edu, (uint64_t)(uintptr_t)u->dev_table, 0x1000, IOMMU_READ), -EPERM);
  ASSERT_EQ(iommu_map(edu, (uint64_t)(uintptr_t)u->cmd_buf, 0x1000, IOMMU_READ), -EPERM);
  ASSERT_EQ(iommu_map(edu, (uint64_t)(uintptr_t)u->event_log, 0x1000, IOMMU_WRITE), -EPERM);
  ASSERT_EQ(
      iommu_map(edu, (uint64_t)(uintptr_t)sys.devices[0].domain->pt.root, 0x1000, IOMMU_WRITE),
      -EPERM);
  ASSERT_EQ(iommu_protect(0, 0, "nothing"), -EINVAL);
  plat_dma_free(buf, 1 << 21);
  iommu_system_stop(&sys);
}

struct fault_log {
  unsigned count;
  struct iommu_fault last;
};

static void on_fault(void *ctx, const struct iommu_fault *f) {
  struct fault_log *log = ctx;
  log->count++;
  log->last = *f;
}

TEST(iommu_system_faults_reach_the_driver) {
  load_ivrs();
  start(IOMMU_MODE_ON, IOMMU_EFR_IA_SUP);
  struct iommu_device *edu, *other;
  struct fault_log log = {0}, other_log = {0};
  ASSERT_EQ(iommu_attach(0, EDU, "edu", &edu), 0);
  ASSERT_EQ(iommu_attach(0, ROOT_PORT_DEV, "nic", &other), 0);
  ASSERT_EQ(iommu_set_fault_handler(edu, on_fault, &log), 0);
  ASSERT_EQ(iommu_set_fault_handler(other, on_fault, &other_log), 0);
  ASSERT_FALSE(dma(EDU, 0x12345000, true));
  ASSERT_EQ(log.count, 1);
  ASSERT_EQ(log.last.requester, EDU);
  ASSERT_EQ_U(log.last.address, 0x12345000);
  ASSERT_TRUE(log.last.write);
  ASSERT_FALSE(log.last.present);
  ASSERT_EQ(log.last.domain, sys.devices[0].domain->id);
  ASSERT_EQ(other_log.count, 0);
  ASSERT_EQ(iommu_fault_count(edu), 1);
  /* A permission fault on a mapped page says so. */
  uint8_t *buf = buffer(1 << 12);
  ASSERT_EQ(iommu_map(edu, (uint64_t)(uintptr_t)buf, 0x1000, IOMMU_READ), 0);
  ASSERT_EQ(iommu_flush(edu), 0);
  ASSERT_FALSE(dma(EDU, (uint64_t)(uintptr_t)buf, true));
  ASSERT_EQ(log.count, 2);
  ASSERT_TRUE(log.last.present);
  /* Without a handler the fault is still counted. */
  ASSERT_EQ(iommu_set_fault_handler(edu, NULL, NULL), 0);
  ASSERT_FALSE(dma(EDU, 0x5000, false));
  ASSERT_EQ(log.count, 2);
  ASSERT_EQ(iommu_fault_count(edu), 3);
  plat_dma_free(buf, 1 << 12);
  iommu_system_stop(&sys);
}

TEST(iommu_system_aliased_devices_share_a_domain) {
  load_ivrs();
  start(IOMMU_MODE_ON, IOMMU_EFR_IA_SUP);
  uint8_t *buf = buffer(1 << 12);
  uint64_t a = (uint64_t)(uintptr_t)buf;
  struct iommu_device *x, *y;
  ASSERT_EQ(iommu_attach(0, BEHIND_BRIDGE_A, "a", &x), 0);
  ASSERT_EQ(iommu_attach(0, BEHIND_BRIDGE_B, "b", &y), 0);
  ASSERT_TRUE(x->domain == y->domain);
  ASSERT_EQ(x->requester, BRIDGE);
  ASSERT_EQ(iommu_map(x, a, 0x1000, IOMMU_WRITE), 0);
  ASSERT_EQ(iommu_flush(x), 0);
  /* Their requests carry the bridge's ID. */
  ASSERT_TRUE(dma(BRIDGE, a, true));
  ASSERT_TRUE(iommu_can_reach(y, a, IOMMU_WRITE));
  ASSERT_EQ(iommu_detach(x), 0);
  ASSERT_TRUE(dma(BRIDGE, a, true)); /* b still uses the domain */
  ASSERT_EQ(iommu_detach(y), 0);
  ASSERT_FALSE(dma(BRIDGE, a, true));
  plat_dma_free(buf, 1 << 12);
  iommu_system_stop(&sys);
}

TEST(iommu_system_ivmd_unity_ranges_are_honoured) {
  load_ivrs();
  /* Firmware asks that the edu keep 0x1000000-0x100ffff (read-write) and
   * every device the page at 0x2000000 (read only). */
  ivrs.ivmds[0] = (struct ivrs_ivmd){
      IVMD_ONE, IVMD_FLAG_UNITY | IVMD_FLAG_IR | IVMD_FLAG_IW, 0, EDU, EDU, 0x1000000, 0x10000};
  ivrs.ivmds[1] =
      (struct ivrs_ivmd){IVMD_ALL, IVMD_FLAG_UNITY | IVMD_FLAG_IR, 0, 0, 0xffff, 0x2000000, 0x800};
  /* An exclusion range for the devices behind the PCIe root port (bus 1),
   * unaligned: it becomes a read-write unity range of whole pages. */
  ivrs.ivmds[2] =
      (struct ivrs_ivmd){IVMD_RANGE, IVMD_FLAG_EXCL, 0, 0x0100, 0x01ff, 0x3000800, 0x1000};
  ivrs.ivmd_count = 3;
  start(IOMMU_MODE_ON, IOMMU_EFR_IA_SUP);
  ASSERT_TRUE(dma(ROOT_PORT_DEV, 0x3000000, true));
  ASSERT_TRUE(dma(ROOT_PORT_DEV, 0x3001ff8, true));
  ASSERT_FALSE(dma(ROOT_PORT_DEV, 0x3002000, true));
  ASSERT_FALSE(dma(EDU, 0x3000000, false));
  ASSERT_TRUE(dma(EDU, 0x1000000, true));
  ASSERT_TRUE(dma(EDU, 0x100fff8, false));
  ASSERT_FALSE(dma(EDU, 0x1010000, false));
  ASSERT_TRUE(dma(EDU, 0x2000000, false));
  ASSERT_TRUE(dma(ROOT_PORT_DEV, 0x2000000, false));
  ASSERT_FALSE(dma(ROOT_PORT_DEV, 0x2000000, true));
  ASSERT_FALSE(dma(ROOT_PORT_DEV, 0x1000000, false));
  ASSERT_EQ(sys.unity_count, 3); /* {edu's + all}, {all}, {all + bus 1's} */
  struct iommu_device *edu;
  ASSERT_EQ(iommu_attach(0, EDU, "edu", &edu), 0);
  ASSERT_TRUE(dma(EDU, 0x1000000, true));
  ASSERT_TRUE(dma(EDU, 0x2000000, false));
  /* A driver cannot map over them twice. */
  ASSERT_EQ(iommu_map(edu, 0x1000000, 0x1000, IOMMU_READ), -EEXIST);
  ASSERT_EQ(iommu_detach(edu), 0);
  ASSERT_TRUE(dma(EDU, 0x1000000, true)); /* back in its unity domain */
  iommu_system_stop(&sys);
  ivrs.ivmd_count = 0;
}

TEST(iommu_system_passthrough_and_dte_settings) {
  load_ivrs();
  start(IOMMU_MODE_PASSTHROUGH, IOMMU_EFR_IA_SUP);
  ASSERT_EQ(iommu_mode(), IOMMU_MODE_PASSTHROUGH);
  ASSERT_TRUE(dma(EDU, 0x12345000, true));
  ASSERT_TRUE(dma(ROOT_PORT_DEV, 0x1000, false));
  ASSERT_EQ_U(iommu_dte(&sys.units[0], EDU)[0], DTE0_V | DTE0_TV | DTE0_IR | DTE0_IW);
  struct iommu_device *edu;
  ASSERT_EQ(iommu_attach(0, EDU, "edu", &edu), 0);
  ASSERT_EQ(iommu_map(edu, 0x1000, 0x1000, IOMMU_READ), 0);
  ASSERT_EQ(iommu_flush(edu), 0);
  ASSERT_TRUE(iommu_can_reach(edu, 0x7000, IOMMU_WRITE));
  iommu_system_stop(&sys);

  /* DTE settings from the IVHD: interrupt pass-through bits, SysMgt, and
   * erratum 63 (SysMgt 01b needs IW: then an empty page table blocks). */
  ivrs.iommus[0].runs[3].dte_setting = 0x10; /* 00:03.0: SysMgt 01b */
  ivrs.iommus[0].runs[1].dte_setting = 0xc7; /* 00:01.0: INIT, EINT, NMI, LINT0, LINT1 */
  start(IOMMU_MODE_ON, IOMMU_EFR_IA_SUP);
  const uint64_t *dte = iommu_dte(&sys.units[0], EDU);
  ASSERT_EQ_U(dte[0] & (DTE0_V | DTE0_TV | DTE0_IR | DTE0_IW),
              DTE0_V | DTE0_TV | DTE0_IR | DTE0_IW);
  ASSERT_EQ((dte[0] & DTE0_MODE_MASK) >> DTE0_MODE_SHIFT, 1);
  ASSERT_EQ_U(dte[0] & IOMMU_ADDR_MASK, (uint64_t)(uintptr_t)sys.units[0].empty_root);
  ASSERT_EQ_U(dte[1], 1ull << 40);
  ASSERT_FALSE(dma(EDU, 0x1000, true));
  dte = iommu_dte(&sys.units[0], IOMMU_BDF(0, 1, 0));
  ASSERT_EQ_U(dte[2],
              DTE2_INIT_PASS | DTE2_EINT_PASS | DTE2_NMI_PASS | DTE2_LINT0_PASS | DTE2_LINT1_PASS);
  ASSERT_EQ_U(dte[0], DTE0_V | DTE0_TV);
  iommu_system_stop(&sys);
}

TEST(iommu_system_without_invalidate_all) {
  load_ivrs();
  start(IOMMU_MODE_ON, 0); /* EFR.IA clear: Linux's one-by-one flush */
  ASSERT_EQ(fake.executed[CMD_INV_IOMMU_ALL], 0);
  ASSERT_GE(fake.executed[CMD_INV_DEVTAB_ENTRY], 0x300);
  ASSERT_GE(fake.executed[CMD_INV_INTR_TABLE], 0x300);
  ASSERT_GE(fake.executed[CMD_INV_IOMMU_PAGES], 0x300);
  iommu_system_stop(&sys);
}

TEST(iommu_system_iommu_that_does_not_answer) {
  load_ivrs();
  fake_iommu_init(&fake, IOMMU_EFR_IA_SUP);
  fake.responsive = false;
  struct iommu_hw hw = {&fake_iommu_ops, &fake, IOMMU_CAP_EFR_SUP};
  uint64_t t0 = plat_now_ns();
  ASSERT_EQ(iommu_system_start(&sys, IOMMU_MODE_ON, &ivrs, &hw, 1ull << 48), -ETIMEDOUT);
  ASSERT_LT(plat_now_ns() - t0, 5000000000ull);
  ASSERT_EQ_U(fake.regs[IOMMU_MMIO_CONTROL / 8] & IOMMU_CTRL_IOMMU_EN, 0);
  iommu_memory_release(&sys.memory);

  /* One that stops answering later: the flush says so, then every call
   * fails at once instead of waiting again. */
  start(IOMMU_MODE_ON, IOMMU_EFR_IA_SUP);
  sys.units[0].timeout_ns = 50000000;
  struct iommu_device *edu;
  ASSERT_EQ(iommu_attach(0, EDU, "edu", &edu), 0);
  fake.halted = true;
  ASSERT_EQ(iommu_map(edu, 0x100000, 0x1000, IOMMU_READ), 0);
  ASSERT_EQ(iommu_flush(edu), -ETIMEDOUT);
  t0 = plat_now_ns();
  ASSERT_EQ(iommu_unmap(edu, 0x100000, 0x1000), -EIO);
  ASSERT_EQ(iommu_flush(edu), -EIO);
  ASSERT_LT(plat_now_ns() - t0, 40000000ull);
  iommu_system_stop(&sys);

  /* One that stops fetching commands: the ring fills, and the command that
   * finds it full after the timeout fails. */
  start(IOMMU_MODE_ON, IOMMU_EFR_IA_SUP);
  sys.units[0].timeout_ns = 50000000;
  fake.responsive = false;
  int err = 0;
  unsigned queued = 0;
  while (!err && queued < 1000) {
    err = iommu_inv_dte(&sys.units[0], (uint16_t)queued);
    if (!err) queued++;
  }
  ASSERT_EQ(err, -ETIMEDOUT);
  /* The ring holds 512 entries, one always free; some were used already. */
  ASSERT_LE(queued, IOMMU_CMD_ENTRIES - 1);
  ASSERT_GE(queued, IOMMU_CMD_ENTRIES - 16);
  ASSERT_EQ(iommu_inv_dte(&sys.units[0], 0), -EIO);
  iommu_system_stop(&sys);
}

/* An IOMMU that stops answering while a device is attached: the attach
 * fails and leaves nothing attached (the slot free, the device's DTE the
 * default one that blocks it), so the caller, who got no device to
 * detach, owes nothing, and the next attach is refused as broken, not as
 * a second attach of the same device. */
TEST(iommu_system_failed_attach_leaves_the_device_unattached) {
  load_ivrs();
  start(IOMMU_MODE_ON, IOMMU_EFR_IA_SUP);
  sys.units[0].timeout_ns = 50000000;
  fake.halted = true;
  struct iommu_device *edu = &sys.devices[0];
  ASSERT_EQ(iommu_attach(0, EDU, "edu", &edu), -ETIMEDOUT);
  ASSERT_NULL(edu);
  for (unsigned i = 0; i < IOMMU_MAX_DEVICES; i++) ASSERT_FALSE(sys.devices[i].in_use);
  const uint64_t *dte = iommu_dte(&sys.units[0], EDU);
  ASSERT_EQ_U(dte[0], DTE0_V | DTE0_TV);
  uint8_t *buf = buffer(1 << 12);
  ASSERT_FALSE(dma(EDU, (uint64_t)(uintptr_t)buf, true));
  ASSERT_EQ(iommu_attach(0, EDU, "edu", &edu), -EIO);
  ASSERT_NULL(edu);
  for (unsigned i = 0; i < IOMMU_MAX_DEVICES; i++) ASSERT_FALSE(sys.devices[i].in_use);
  plat_dma_free(buf, 1 << 12);
  iommu_system_stop(&sys);
}

TEST(iommu_system_command_encodings) {
  /* [48882 2.4] layouts, checked bit by bit. */
  struct iommu_cmd c = iommu_cmd_completion_wait(0x12345678, 0xabcdef);
  ASSERT_EQ_U(c.q[0], 0x1000000012345679ull); /* opcode 1, address 51:3, s = 1 */
  ASSERT_EQ_U(c.q[1], 0xabcdef);
  c = iommu_cmd_inv_dte(0x0218);
  ASSERT_EQ_U(c.q[0], 0x2000000000000218ull);
  ASSERT_EQ_U(c.q[1], 0);
  c = iommu_cmd_inv_irt(0x00a0);
  ASSERT_EQ_U(c.q[0], 0x50000000000000a0ull);
  c = iommu_cmd_inv_all();
  ASSERT_EQ_U(c.q[0], 0x8000000000000000ull);
  /* One page: S = 0. */
  c = iommu_cmd_inv_pages(7, 0x12345000, 0x1000);
  ASSERT_EQ_U(c.q[0], 0x3000000700000000ull);
  ASSERT_EQ_U(c.q[1], 0x12345000ull | CMD_INV_PAGES_PDE);
  /* 0x10000-0x12fff: the 16 KiB block at 0x10000, S = 1 and address bit
   * 12 set: the first zero bit (13) says 2^14 bytes. */
  c = iommu_cmd_inv_pages(7, 0x10000, 0x3000);
  ASSERT_EQ_U(c.q[1], 0x11000ull | CMD_INV_PAGES_S | CMD_INV_PAGES_PDE);
  /* Crossing a 1 MiB boundary: the 2 MiB block at 0 that holds both ends
   * (bits 12-19 set, bit 20 clear). */
  c = iommu_cmd_inv_pages(7, 0xff000, 0x2000);
  ASSERT_EQ_U(c.q[1], 0xff000ull | CMD_INV_PAGES_S | CMD_INV_PAGES_PDE);
  /* Everything. */
  c = iommu_cmd_inv_pages(0xffff, 0, 0);
  ASSERT_EQ_U(c.q[0], 0x3000ffff00000000ull);
  ASSERT_EQ_U(c.q[1], 0x7ffffffffffff000ull | CMD_INV_PAGES_S | CMD_INV_PAGES_PDE);
}

TEST(iommu_system_two_iommus) {
  /* Two IOMMUs on one segment, each translating its own buses, as on
   * multi-die parts: every request goes through the one that owns it. */
  static struct ivrs_info two;
  memset(&two, 0, sizeof two);
  two.iommu_count = 2;
  two.iommus[0] = (struct ivrs_iommu){.ivhd_type = 0x11,
                                      .devid = IOMMU_BDF(0, 0, 2),
                                      .mmio_base = 0xfeb80000,
                                      .last_devid = 0x3fff,
                                      .run_count = 1};
  two.iommus[0].runs[0] = (struct ivrs_devices){.first = 0x0000, .last = 0x3fff, .entry_type = 3};
  two.iommus[1] = (struct ivrs_iommu){.ivhd_type = 0x11,
                                      .devid = IOMMU_BDF(0x40, 0, 2),
                                      .mmio_base = 0xfeb90000,
                                      .last_devid = 0x7fff,
                                      .run_count = 1};
  two.iommus[1].runs[0] = (struct ivrs_devices){.first = 0x4000, .last = 0x7fff, .entry_type = 3};
  static struct fake_iommu a, b;
  fake_iommu_init(&a, IOMMU_EFR_IA_SUP);
  fake_iommu_init(&b, IOMMU_EFR_IA_SUP);
  struct iommu_hw hw[2] = {{&fake_iommu_ops, &a, IOMMU_CAP_EFR_SUP},
                           {&fake_iommu_ops, &b, IOMMU_CAP_EFR_SUP}};
  ASSERT_EQ(iommu_system_start(&sys, IOMMU_MODE_ON, &two, hw, 1ull << 40), 0);
  ASSERT_EQ(sys.unit_count, 2);
  ASSERT_EQ(sys.units[1].dev_entries, 0x8000);
  uint8_t *buf = buffer(1 << 12);
  uint64_t addr = (uint64_t)(uintptr_t)buf;
  struct iommu_device *near, *far;
  ASSERT_EQ(iommu_attach(0, IOMMU_BDF(0x10, 0, 0), "near", &near), 0);
  ASSERT_EQ(iommu_attach(0, IOMMU_BDF(0x50, 0, 0), "far", &far), 0);
  ASSERT_TRUE(near->unit == &sys.units[0]);
  ASSERT_TRUE(far->unit == &sys.units[1]);
  ASSERT_EQ(iommu_map(far, addr, 0x1000, IOMMU_READ), 0);
  ASSERT_EQ(iommu_flush(far), 0);
  uint64_t phys;
  ASSERT_TRUE(fake_iommu_dma(&b, IOMMU_BDF(0x50, 0, 0), addr, false, &phys));
  ASSERT_FALSE(fake_iommu_dma(&a, IOMMU_BDF(0x10, 0, 0), addr, false, &phys));
  ASSERT_EQ(iommu_map(near, addr, 0x1000, IOMMU_WRITE), 0);
  ASSERT_EQ(iommu_flush(near), 0);
  ASSERT_TRUE(fake_iommu_dma(&a, IOMMU_BDF(0x10, 0, 0), addr, true, &phys));
  ASSERT_FALSE(fake_iommu_dma(&b, IOMMU_BDF(0x50, 0, 0), addr, true, &phys));
  /* Each got its own commands. */
  ASSERT_GE(a.executed[CMD_INV_DEVTAB_ENTRY], 1);
  ASSERT_GE(b.executed[CMD_INV_DEVTAB_ENTRY], 1);
  plat_dma_free(buf, 1 << 12);
  iommu_system_stop(&sys);
}

TEST(iommu_system_takes_over_from_firmware) {
  /* Firmware left the IOMMU translating, with an exclusion range that
   * would let every device reach 0-1 GiB untranslated. */
  load_ivrs();
  fake_iommu_init(&fake, IOMMU_EFR_IA_SUP);
  fake.regs[IOMMU_MMIO_CONTROL / 8] =
      IOMMU_CTRL_IOMMU_EN | IOMMU_CTRL_CMD_BUF_EN | IOMMU_CTRL_PPR_EN;
  fake.regs[IOMMU_MMIO_EXCL_BASE / 8] = 0 | 1; /* base 0, ExEn */
  fake.regs[IOMMU_MMIO_EXCL_LIMIT / 8] = 0x3ffff000;
  struct iommu_hw hw = {&fake_iommu_ops, &fake, IOMMU_CAP_EFR_SUP};
  ASSERT_EQ(iommu_system_start(&sys, IOMMU_MODE_ON, &ivrs, &hw, 1ull << 48), 0);
  ASSERT_EQ_U(fake.regs[IOMMU_MMIO_EXCL_BASE / 8], 0);
  ASSERT_EQ_U(fake.regs[IOMMU_MMIO_CONTROL / 8] & IOMMU_CTRL_PPR_EN, 0);
  ASSERT_TRUE(fake.regs[IOMMU_MMIO_CONTROL / 8] & IOMMU_CTRL_IOMMU_EN);
  ASSERT_FALSE(dma(EDU, 0x1000, true));
  iommu_system_stop(&sys);
}

TEST(iommu_system_page_tables_never_reachable) {
  /* A GPU-like device given "all memory" (minus the protected parts), then
   * another device that needs far more page tables than the boot reserve:
   * every new chunk of table memory was reachable by the first device
   * when it was taken, and is taken out of its domain before any table of
   * it is used. */
  load_ivrs();
  start(IOMMU_MODE_ON, IOMMU_EFR_IA_SUP);
  struct iommu_device *gpu, *other;
  ASSERT_EQ(iommu_attach(0, EDU, "gpu-like", &gpu), 0);
  ASSERT_EQ(iommu_map_allowed(gpu, 0x1000, (1ull << 47) - 0x1000, IOMMU_READ | IOMMU_WRITE), 0);
  ASSERT_EQ(iommu_flush(gpu), 0);
  ASSERT_EQ(iommu_attach(0, ROOT_PORT_DEV, "other", &other), 0);
  unsigned reserve = IOMMU_TABLE_RESERVE_CHUNKS * (IOMMU_TABLE_CHUNK / 4096);
  unsigned mapped = 0;
  for (uint64_t a = 1ull << 40; mapped < reserve + reserve / 2; a += 1ull << 21, mapped++)
    ASSERT_EQ(iommu_map(other, a, 0x1000, IOMMU_READ), 0); /* a table each */
  ASSERT_GE(iommu_memory_free_tables(&sys.memory), IOMMU_TABLE_LOW_WATER);
  ASSERT_TRUE(dma(ROOT_PORT_DEV, (1ull << 40) + (1ull << 21) * (mapped - 1), false));
  /* Nothing the IOMMU reads is reachable by the device that maps all memory. */
  struct iommu_extent ext[IOMMU_MEM_MAX_EXTENTS];
  unsigned n = iommu_memory_extents(&sys.memory, ext, IOMMU_MEM_MAX_EXTENTS);
  uint64_t table_bytes = 0;
  for (unsigned i = 0; i < n; i++) {
    if (strcmp(ext[i].what, "page tables") == 0) table_bytes += ext[i].size;
    for (uint64_t p = ext[i].base; p < ext[i].base + ext[i].size; p += 4096) {
      ASSERT_FALSE(iommu_can_reach(gpu, p, IOMMU_READ));
      ASSERT_FALSE(dma(EDU, p, true));
    }
  }
  ASSERT_GT(table_bytes, (uint64_t)IOMMU_TABLE_RESERVE_CHUNKS * IOMMU_TABLE_CHUNK);
  ASSERT_TRUE(iommu_can_reach(gpu, 0x12345000, IOMMU_WRITE));
  ASSERT_TRUE(dma(EDU, 0x12345000, true));
  iommu_system_stop(&sys);
}

TEST(iommu_system_protect_revokes_and_merges_neighbours) {
  /* What the kernel takes for itself after the IOMMU started (kmem.h's
   * hook is iommu_protect): each block leaves every domain at once, and
   * neighbouring blocks of one kind stay one protected range. */
  load_ivrs();
  start(IOMMU_MODE_ON, IOMMU_EFR_IA_SUP);
  struct iommu_device *gpu;
  ASSERT_EQ(iommu_attach(0, EDU, "gpu-like", &gpu), 0);
  ASSERT_EQ(iommu_map_allowed(gpu, 0, 1ull << 32, IOMMU_READ | IOMMU_WRITE), 0);
  ASSERT_EQ(iommu_flush(gpu), 0);
  ASSERT_TRUE(dma(EDU, 0x40003000, true));
  unsigned before = sys.protected_count;
  ASSERT_EQ(iommu_protect(0x40003000, 0x5000, "stacks"), 0);
  ASSERT_FALSE(dma(EDU, 0x40003000, true));
  ASSERT_FALSE(dma(EDU, 0x40007000, false));
  ASSERT_TRUE(dma(EDU, 0x40002000, true));
  ASSERT_TRUE(dma(EDU, 0x40008000, true));
  ASSERT_EQ(iommu_protect(0x40008000, 0x1000, "stacks"), 0); /* after it */
  ASSERT_EQ(iommu_protect(0x40001000, 0x2000, "stacks"), 0); /* before it */
  ASSERT_EQ(iommu_protect(0x40009000, 0x1000, "page tables"), 0);
  ASSERT_EQ(sys.protected_count, before + 2);
  for (uint64_t a = 0x40001000; a < 0x4000a000; a += 0x1000) ASSERT_FALSE(dma(EDU, a, false));
  ASSERT_TRUE(dma(EDU, 0x40000000, true));
  ASSERT_TRUE(dma(EDU, 0x4000a000, true));
  /* A driver cannot map it back. */
  ASSERT_EQ(iommu_map(gpu, 0x40004000, 0x1000, IOMMU_READ), -EPERM);
  iommu_system_stop(&sys);
}
