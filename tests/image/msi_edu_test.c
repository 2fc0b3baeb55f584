/* An MSI delivered from a device: QEMU's edu raises its interrupt when
 * its "raise interrupt" register (0x60) is written, as an MSI when MSI is
 * enabled (hw/misc/edu.c: edu_raise_irq -> msi_notify); the status is at
 * 0x24 and is acknowledged through 0x64. edu's MSI has no per-vector mask
 * bits, so masking is done by holding the interrupt (kernel/msi.h). */
#include <errno.h>

#include "kernel/cpu.h"
#include "kernel/irq.h"
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
