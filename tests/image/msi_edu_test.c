/* An MSI delivered from a device: QEMU's edu raises its interrupt when
 * its "raise interrupt" register (0x60) is written, as an MSI when MSI is
 * enabled (hw/misc/edu.c: edu_raise_irq -> msi_notify); the status is at
 * 0x24 and is acknowledged through 0x64. edu's MSI has no per-vector mask
 * bits, so masking is done by holding the interrupt (kernel/msi.h). */
#include <errno.h>

#include "kernel/cpu.h"
#include "kernel/irq.h"
#include "kernel/lapic.h"
#include "kernel/msi.h"
#include "kernel/pci.h"
#include "lib/plat.h"
#include "lib/test.h"

#define EDU_IRQ_STATUS 0x24
#define EDU_IRQ_RAISE  0x60
#define EDU_IRQ_ACK    0x64

struct edu_irq {
  volatile uint32_t *regs;
  uint32_t count;  /* interrupts handled */
  uint32_t status; /* the status register the handler saw */
  unsigned core;   /* where it ran */
};

static void edu_interrupt(void *ctx) {
  struct edu_irq *e = ctx;
  e->status = e->regs[EDU_IRQ_STATUS / 4];
  e->regs[EDU_IRQ_ACK / 4] = e->status; /* lower it, or it stays asserted */
  e->core = cpu_index();
  __atomic_fetch_add(&e->count, 1, __ATOMIC_RELEASE);
  plat_wake(&e->count);
}

/* Waits (bounded) until the handler has run `n` times. */
static bool wait_count(struct edu_irq *e, uint32_t n, uint64_t timeout_ns) {
  uint64_t end = plat_now_ns() + timeout_ns;
  for (uint32_t c; (c = __atomic_load_n(&e->count, __ATOMIC_ACQUIRE)) < n;) {
    uint64_t now = plat_now_ns();
    if (now >= end) return false;
    plat_wait(&e->count, c, end - now);
  }
  return true;
}

TEST(msi_edu_interrupt_delivered) {
  struct pci_function *f = pci_find_device(0x1234, 0x11e8, 0);
  ASSERT_NOT_NULL(f);
  ASSERT_EQ(pci_function_bars(f), 0);
  static struct edu_irq e;
  e = (struct edu_irq){.regs = (volatile uint32_t *)(uintptr_t)f->bars[0].base};
  pci_enable_memory(f);
  pci_enable_bus_master(f); /* an MSI is a memory write by the device */
  ASSERT_EQ(msi_alloc(f, 4, MSI_ALLOW_MSIX | MSI_ALLOW_MSI), 1); /* edu has one vector */
  ASSERT_EQ(msi_mode(f), MSI_MODE_MSI);
  int vector = msi_vector(f, 0);
  ASSERT_GE(vector, IRQ_VECTOR_FIRST);
  uint64_t arrived_before = irq_count((unsigned)vector);
  ASSERT_EQ(msi_set_handler(f, 0, edu_interrupt, &e), 0);

  e.regs[EDU_IRQ_RAISE / 4] = 0x5a;
  bool delivered = wait_count(&e, 1, 1000000000ull);
  if (!delivered) msi_free(f);
  ASSERT_TRUE(delivered);
  ASSERT_EQ_U(e.status, 0x5a);
  ASSERT_EQ(e.core, 0); /* messages go to the boot core */
  ASSERT_EQ_U(e.regs[EDU_IRQ_STATUS / 4], 0);
  ASSERT_EQ_U(irq_count((unsigned)vector), arrived_before + 1);

  /* Masked: the interrupt is held, then delivered once on unmask. */
  msi_mask(f, 0);
  e.regs[EDU_IRQ_RAISE / 4] = 0x3;
  delivered = wait_count(&e, 2, 50000000ull);
  msi_unmask(f, 0);
  bool after_unmask = wait_count(&e, 2, 1000000000ull);
  uint32_t status = e.status;
  msi_free(f);
  ASSERT_FALSE(delivered);
  ASSERT_TRUE(after_unmask);
  ASSERT_EQ_U(status, 0x3);
  ASSERT_EQ(msi_mode(f), MSI_MODE_NONE);
  ASSERT_EQ(pci_read16(f, f->msi_cap + 2) & 1, 0); /* MSI enable bit cleared */
}

TEST(msi_device_without_msi_refused) {
  /* The q35 host bridge has neither MSI nor MSI-X. */
  struct pci_function *f = pci_find_address(0, 0, 0, 0);
  ASSERT_NOT_NULL(f);
  ASSERT_EQ(msi_alloc(f, 1, MSI_ALLOW_MSI | MSI_ALLOW_MSIX), -ENODEV);
}

/* MSI-X on a real implementation (QEMU's hw/pci/msix.c behind the boot
 * disk's virtio-blk function): the table lives in a BAR and reads back what
 * msi_alloc wrote (PCI 3.0, 6.8.2.6-6.8.2.9). */
TEST(msi_msix_table_programmed_in_device_memory) {
  struct pci_function *f = pci_find_device(0x1af4, 0x1001, 0);
  ASSERT_NOT_NULL(f);
  ASSERT_EQ(pci_function_bars(f), 0);
  ASSERT_NE(f->msix_cap, 0);
  uint32_t table = pci_read32(f, f->msix_cap + 4);
  volatile uint32_t *entries =
      (volatile uint32_t *)(uintptr_t)(f->bars[table & 7].base + (table & ~7u));
  ASSERT_EQ(msi_alloc(f, 2, MSI_ALLOW_MSIX), 2);
  ASSERT_EQ(msi_mode(f), MSI_MODE_MSIX);
  uint16_t ctl = pci_read16(f, f->msix_cap + 2);
  bool enabled = ctl & 0x8000, function_masked = ctl & 0x4000;
  uint32_t e0[4], e1[4];
  for (int i = 0; i < 4; i++) e0[i] = entries[i], e1[i] = entries[4 + i];
  int v0 = msi_vector(f, 0), v1 = msi_vector(f, 1);
  static uint32_t dummy;
  msi_set_handler(f, 1, (irq_handler_fn)plat_wake, &dummy);
  uint32_t e1_control_unmasked = entries[4 + 3];
  msi_free(f);
  uint16_t ctl_after = pci_read16(f, f->msix_cap + 2);
  ASSERT_TRUE(enabled);
  ASSERT_FALSE(function_masked);
  ASSERT_EQ_U(e0[0], 0xfee00000u | lapic_id() << 12);
  ASSERT_EQ_U(e0[1], 0);
  ASSERT_EQ_U(e0[2], (unsigned)v0);
  ASSERT_EQ_U(e0[3] & 1, 1); /* no handler: masked */
  ASSERT_EQ_U(e1[2], (unsigned)v1);
  ASSERT_EQ_U(e1_control_unmasked & 1, 0);
  ASSERT_FALSE(ctl_after & 0x8000);
}
