/*
 * iommu_edu_test.c - the IOMMU against real DMA in QEMU, with the edu
 * device as the DMA master (tests/image/edu_dma.h): a refused DMA leaves
 * memory unchanged, which is what these tests look at. Every RAM buffer
 * here lies below the edu's 256 MiB DMA limit.
 *
 * The same tests run with iommu=passthrough (suite image-iommu-passthrough):
 * there every DMA lands.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/iommu/amd_iommu_regs.h"
#include "drivers/iommu/iommu.h"
#include "drivers/iommu/iommu_system.h"
#include "drivers/iommu/ivrs.h"
#include "kernel/acpi.h"
#include "kernel/frames.h"
#include "kernel/pci.h"
#include "lib/plat.h"
#include "lib/test.h"
#include "tests/image/edu_dma.h"
#include "lib/util.h"

/* The mode each suite's boot asks for, stated by the suite itself (its
 * make rule, every image suite's), not read back from the iommu= option
 * this test checks, nor guessed when the suite does not say. */
PLAT_OPTION(test_expect_iommu, "test_expect_iommu",
            "tests: the IOMMU mode the boot's iommu= option must give (off|passthrough|on)");

TEST(iommu_mode_follows_boot_option) {
  const char *expect = plat_option("test_expect_iommu");
  static const char *const names[] = {[IOMMU_MODE_OFF] = "off", [IOMMU_MODE_PASSTHROUGH] = "passthrough",
                                      [IOMMU_MODE_ON] = "on"};
  enum iommu_mode mode = iommu_mode();
  ASSERT_MSG((unsigned)mode < countof(names) && names[mode], "unknown mode %d", (int)mode);
  ASSERT_MSG(expect, "test_expect_iommu is not set: the suite's boot options must state the mode");
  ASSERT_STR_EQ(names[mode], expect);
}

TEST(iommu_ivrs_matches_the_qemu_machine) {
  const struct acpi_table *t = acpi_machine_table("IVRS", 0);
  ASSERT_NOT_NULL(t);
  static struct ivrs_info info;
  ASSERT_EQ(ivrs_parse(t->data, t->length, &info), 0);
  ASSERT_EQ(info.iommu_count, 1);
  const struct ivrs_iommu *m = &info.iommus[0];
  ASSERT_EQ(m->ivhd_type, 0x10);            /* QEMU 7.2 writes type 10h only */
  ASSERT_EQ_U(m->mmio_base, 0xfed80000ull); /* QEMU's AMDVI_BASE_ADDR */
  /* The IVHD's device is PCI's IOMMU function: AMD, class 0806. */
  struct pci_function *f = pci_find_address(0, (uint8_t)(m->devid >> 8),
                                            (uint8_t)((m->devid >> 3) & 0x1f), m->devid & 7);
  ASSERT_NOT_NULL(f);
  ASSERT_EQ(f->vendor_id, 0x1022);
  ASSERT_EQ(pci_class24(f) >> 8, 0x0806);
  /* Every function on bus 0 is a select entry, and every select entry is
   * a function (QEMU's insert_ivhd walks the bus). */
  unsigned on_bus0 = 0;
  for (unsigned i = 0; i < pci_function_count(); i++) {
    struct pci_function *g = pci_function_at(i);
    if (g->segment != 0 || g->bus != 0) continue;
    on_bus0++;
    uint16_t id = IOMMU_BDF(g->bus, g->device, g->function);
    const struct ivrs_devices *r = ivrs_run_for(m, id);
    if (!r)
      FAIL("00:%02x.%u missing from the IVRS", g->device, g->function);
    ASSERT_EQ(r->first, id);
  }
  ASSERT_EQ(m->run_count, on_bus0);
  /* The south bridge IOAPIC: the MADT's first IOAPIC, at 00:14.0. */
  ASSERT_EQ(m->special_count, 1);
  ASSERT_EQ(m->specials[0].kind, IVRS_SPECIAL_IOAPIC);
  ASSERT_EQ(m->specials[0].devid, IOMMU_BDF(0, 0x14, 0));
  ASSERT_EQ(m->specials[0].handle, acpi_machine()->madt.ioapics[0].id);
  /* And the edu is translated by it. */
  struct pci_function *e = pci_find_device(EDU_VENDOR, EDU_DEVICE, 0);
  ASSERT_NOT_NULL(e);
  ASSERT_TRUE(ivrs_iommu_for(&info, 0, IOMMU_BDF(e->bus, e->device, e->function)) == m);
}

TEST(iommu_edu_without_domain_is_blocked) {
  edu_fresh();
  load_edu_buffer(0x11);
  ASSERT_EQ(iommu_detach(edu_dev), 0);
  edu_dev = NULL;
  uint8_t *dst = low_buffer(4096);
  memset(dst, 0xa5, 4096);
  edu_dma((uint64_t)(uintptr_t)dst, true, EDU_DMA_LEN);
  if (confined())
    ASSERT_TRUE(all(dst, 4096, 0xa5));
  else
    ASSERT_TRUE(filled(dst, EDU_DMA_LEN, 0x11));
  frames_free((uint64_t)(uintptr_t)dst, 4096);
}

TEST(iommu_edu_dma_into_mapped_buffer_lands) {
  edu_fresh();
  load_edu_buffer(0x22);
  uint8_t *dst = low_buffer(2 * 4096);
  memset(dst, 0xa5, 2 * 4096);
  ASSERT_EQ(iommu_map(edu_dev, (uint64_t)(uintptr_t)dst, 4096, IOMMU_READ | IOMMU_WRITE), 0);
  ASSERT_EQ(iommu_flush(edu_dev), 0);
  ASSERT_TRUE(iommu_can_reach(edu_dev, (uint64_t)(uintptr_t)dst, IOMMU_WRITE));
  iommu_log_state(); /* the log shows what the edu may reach now */
  edu_dma((uint64_t)(uintptr_t)dst, true, EDU_DMA_LEN);
  ASSERT_TRUE(filled(dst, EDU_DMA_LEN, 0x22));
  /* The page after it is not mapped. */
  edu_dma((uint64_t)(uintptr_t)dst + 4096, true, EDU_DMA_LEN);
  if (confined()) ASSERT_TRUE(all(dst + 4096, 4096, 0xa5));
  ASSERT_EQ(iommu_unmap(edu_dev, (uint64_t)(uintptr_t)dst, 4096), 0);
  ASSERT_EQ(iommu_flush(edu_dev), 0);
  frames_free((uint64_t)(uintptr_t)dst, 2 * 4096);
}

TEST(iommu_edu_read_only_mapping_refuses_writes) {
  edu_fresh();
  load_edu_buffer(0x33);
  uint8_t *dst = low_buffer(4096);
  memset(dst, 0xa5, 4096);
  ASSERT_EQ(iommu_map(edu_dev, (uint64_t)(uintptr_t)dst, 4096, IOMMU_READ), 0);
  ASSERT_EQ(iommu_flush(edu_dev), 0);
  edu_dma((uint64_t)(uintptr_t)dst, true, EDU_DMA_LEN);
  if (confined())
    ASSERT_TRUE(all(dst, 4096, 0xa5));
  else
    ASSERT_TRUE(filled(dst, EDU_DMA_LEN, 0x33));
  /* Reading it works: the edu gets the page and hands it to another one. */
  edu_dma((uint64_t)(uintptr_t)dst, false, EDU_DMA_LEN);
  uint8_t *check = low_buffer(4096);
  ASSERT_EQ(iommu_map(edu_dev, (uint64_t)(uintptr_t)check, 4096, IOMMU_WRITE), 0);
  ASSERT_EQ(iommu_flush(edu_dev), 0);
  edu_dma((uint64_t)(uintptr_t)check, true, EDU_DMA_LEN);
  ASSERT_MEM_EQ(check, dst, EDU_DMA_LEN);
  ASSERT_EQ(iommu_unmap(edu_dev, (uint64_t)(uintptr_t)dst, 4096), 0);
  ASSERT_EQ(iommu_unmap(edu_dev, (uint64_t)(uintptr_t)check, 4096), 0);
  ASSERT_EQ(iommu_flush(edu_dev), 0);
  frames_free((uint64_t)(uintptr_t)dst, 4096);
  frames_free((uint64_t)(uintptr_t)check, 4096);
}

TEST(iommu_edu_unmap_revokes_once_flushed) {
  edu_fresh();
  load_edu_buffer(0x44);
  uint8_t *dst = low_buffer(4096);
  uint64_t a = (uint64_t)(uintptr_t)dst;
  ASSERT_EQ(iommu_map(edu_dev, a, 4096, IOMMU_WRITE), 0);
  ASSERT_EQ(iommu_flush(edu_dev), 0);
  memset(dst, 0, 4096);
  edu_dma(a, true, EDU_DMA_LEN); /* the IOMMU now holds this translation in its cache */
  ASSERT_TRUE(filled(dst, EDU_DMA_LEN, 0x44));
  ASSERT_EQ(iommu_unmap(edu_dev, a, 4096), 0);
  ASSERT_EQ(iommu_flush(edu_dev), 0);
  ASSERT_FALSE(confined() && iommu_can_reach(edu_dev, a, IOMMU_WRITE));
  memset(dst, 0xa5, 4096);
  edu_dma(a, true, EDU_DMA_LEN);
  if (confined())
    ASSERT_TRUE(all(dst, 4096, 0xa5));
  else
    ASSERT_TRUE(filled(dst, EDU_DMA_LEN, 0x44));
  frames_free(a, 4096);
}

TEST(iommu_edu_heap_memory_can_be_given_to_a_device) {
  /* The heap is the application's memory (kernel/kmem.h): a driver may map
   * a malloc'ed buffer for its device, and the device's DMA lands there. */
  edu_fresh();
  load_edu_buffer(0x55);
  uint8_t *block = malloc(3 * 4096);
  ASSERT_NOT_NULL(block);
  uint8_t *page = (uint8_t *)(((uintptr_t)block + 4095) & ~(uintptr_t)4095);
  uint64_t a = (uint64_t)(uintptr_t)page;
  if (a + 4096 > EDU_DMA_LIMIT) {
    free(block);
    test_skip("the heap lies above the edu's 256 MiB DMA limit");
  }
  ASSERT_EQ(iommu_map(edu_dev, a, 4096, IOMMU_READ | IOMMU_WRITE), 0);
  ASSERT_EQ(iommu_flush(edu_dev), 0);
  memset(page, 0xa5, 4096);
  edu_dma(a, true, EDU_DMA_LEN);
  ASSERT_TRUE(filled(page, EDU_DMA_LEN, 0x55));
  ASSERT_EQ(iommu_unmap(edu_dev, a, 4096), 0);
  ASSERT_EQ(iommu_flush(edu_dev), 0);
  free(block);
}

/* The IOMMU's own interrupt (its MSI capability, through kernel/msi.c):
 * QEMU 7.2 logs no events, but it does signal a COMPLETION_WAIT whose
 * i bit is set with the IOMMU's MSI (hw/i386/amd_iommu.c
 * amdvi_completion_wait), which reaches the event interrupt handler. */
TEST(iommu_msi_reaches_the_event_handler) {
  struct iommu_system *s = iommu_current();
  if (!s || s->unit_count == 0) test_skip("no IOMMU brought up (iommu=off)");
  struct iommu_unit *u = &s->units[0];
  uint64_t before = __atomic_load_n(&u->counts.interrupts, __ATOMIC_ACQUIRE);
  static volatile uint64_t word;
  word = 0;
  struct iommu_cmd wait = iommu_cmd_completion_wait((uint64_t)(uintptr_t)&word, 0x5a);
  wait.q[0] |= CMD_COMPL_WAIT_INT;
  ASSERT_EQ(iommu_cmd_queue(u, wait), 0);
  ASSERT_EQ(iommu_sync(u), 0);
  ASSERT_EQ_U(word, 0x5a); /* the store happened */
  uint64_t end = plat_now_ns() + 1000000000ull;
  while (__atomic_load_n(&u->counts.interrupts, __ATOMIC_ACQUIRE) == before) {
    if (plat_now_ns() > end) FAIL("no IOMMU interrupt within 1 s");
    plat_sleep_ns(1000000);
  }
  /* Acknowledge it: ComWaitInt is write-1-to-clear (48882 3.4). */
  u->regs->write(u->regs_ctx, IOMMU_MMIO_STATUS, IOMMU_STATUS_COMWAIT_INT);
}
