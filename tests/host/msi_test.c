/* Tests of MSI / MSI-X programming on a configuration space and an MSI-X
 * table in memory, and of interrupt delivery through the vector table
 * (irq_handle stands in for the CPU taking the vector). */
#include <errno.h>

#include "kernel/irq.h"
#include "kernel/msi.h"
#include "lib/test.h"
#include "tests/host/pci_test_config.h"

static uint32_t get32(const volatile void *p, unsigned off) {
  uint32_t v;
  memcpy(&v, (const uint8_t *)p + off, 4);
  return v;
}

static int handled[4];
static void count_handler(void *ctx) { (*(int *)ctx)++; }

TEST(msi_compose_message_format) {
  uint64_t address;
  uint32_t data;
  ASSERT_EQ(msi_compose(3, 0x41, &address, &data), 0);
  ASSERT_EQ_U(address, 0xfee03000u);
  ASSERT_EQ_U(data, 0x41);
  ASSERT_EQ(msi_compose(0xff, 0xdf, &address, &data), 0);
  ASSERT_EQ_U(address, 0xfeeff000u);
  ASSERT_EQ(msi_compose(0x100, 0x41, &address, &data), -ERANGE);
}

/* A function with a 64-bit MSI capability at 0x50 that can do 4 messages
 * (MMC = 2) and has per-vector mask bits when `masking`. */
static struct pci_function msi_function(struct fake_ecam *e, bool masking) {
  uint8_t *c = fake_function(e, 0, 1, 0, 0x1234, 0x11e8, 0xff0000, false);
  fake_add_capability(c, PCI_CAP_MSI, 0x50);
  put16(c, 0x52, (uint16_t)(2u << 1 | 1u << 7 | (masking ? 1u << 8 : 0)));
  struct pci_function f;
  pci_function_probe(&f, c, 0, 0, 1, 0);
  return f;
}

TEST(msi_alloc_programs_msi_capability) {
  struct fake_ecam e = fake_ecam_new(1);
  struct pci_function f = msi_function(&e, true);
  msi_set_destination(2);
  ASSERT_EQ(msi_alloc(&f, 3, MSI_ALLOW_MSI | MSI_ALLOW_MSIX), 2); /* power of two <= 3 */
  ASSERT_EQ(msi_mode(&f), MSI_MODE_MSI);
  int v0 = msi_vector(&f, 0);
  ASSERT_EQ(v0 % 2, 0); /* the device ORs the message number into the data */
  ASSERT_EQ(msi_vector(&f, 1), v0 + 1);
  ASSERT_EQ(msi_vector(&f, 2), -EINVAL);
  ASSERT_GE(v0, IRQ_VECTOR_FIRST);
  ASSERT_LE(v0, IRQ_VECTOR_ALLOC_LAST);
  uint16_t ctl = pci_read16(&f, 0x52);
  ASSERT_EQ(ctl & 1, 1);            /* enabled */
  ASSERT_EQ((ctl >> 4) & 7, 1);     /* 2 messages */
  ASSERT_EQ_U(get32(f.config, 0x54), 0xfee02000u);
  ASSERT_EQ_U(get32(f.config, 0x58), 0);
  ASSERT_EQ(pci_read16(&f, 0x5c), v0);
  ASSERT_EQ_U(get32(f.config, 0x60), 0xffffffffu); /* every vector masked */
  ASSERT_TRUE(pci_read16(&f, PCI_COMMAND) & PCI_COMMAND_INTX_DISABLE);

  handled[0] = handled[1] = 0;
  ASSERT_EQ(msi_set_handler(&f, 0, count_handler, &handled[0]), 0);
  ASSERT_EQ_U(get32(f.config, 0x60), 0xfffffffeu); /* vector 0 unmasked */
  ASSERT_TRUE(irq_handle((unsigned)v0));
  ASSERT_EQ(handled[0], 1);
  /* Masked in the device: the bit is set again. */
  msi_mask(&f, 0);
  ASSERT_EQ_U(get32(f.config, 0x60), 0xffffffffu);
  msi_free(&f);
  ASSERT_EQ(pci_read16(&f, 0x52) & 1, 0);
  ASSERT_EQ(msi_mode(&f), MSI_MODE_NONE);
  ASSERT_EQ(irq_set_handler((unsigned)v0, count_handler, NULL), -EINVAL); /* vector returned */
  msi_set_destination(0);
  fake_ecam_free(&e);
}

TEST(msi_without_mask_bits_holds_interrupts_while_masked) {
  struct fake_ecam e = fake_ecam_new(1);
  struct pci_function f = msi_function(&e, false);
  ASSERT_EQ(msi_alloc(&f, 1, MSI_ALLOW_MSI), 1);
  int v = msi_vector(&f, 0);
  handled[0] = 0;
  /* Allocated but no handler yet: masked, the interrupt is held. */
  ASSERT_TRUE(irq_handle((unsigned)v));
  ASSERT_EQ(handled[0], 0);
  /* Setting the handler unmasks and delivers what was held. */
  ASSERT_EQ(msi_set_handler(&f, 0, count_handler, &handled[0]), 0);
  ASSERT_EQ(handled[0], 1);
  ASSERT_TRUE(irq_handle((unsigned)v));
  ASSERT_EQ(handled[0], 2);
  msi_mask(&f, 0);
  irq_handle((unsigned)v);
  irq_handle((unsigned)v);
  ASSERT_EQ(handled[0], 2);
  msi_unmask(&f, 0); /* one pending message, as a device holds one */
  ASSERT_EQ(handled[0], 3);
  msi_free(&f);
  fake_ecam_free(&e);
}

/* A function with MSI-X (8 entries, table in BAR2 at 0x1000) and MSI. */
static struct pci_function msix_function(struct fake_ecam *e, uint32_t *bar, unsigned bar_bytes) {
  uint8_t *c = fake_function(e, 0, 2, 0, 0x1af4, 0x1041, 0x020000, false);
  fake_add_capability(c, PCI_CAP_MSIX, 0x40);
  put16(c, 0x42, 7);                  /* table size 8 */
  put32(c, 0x44, 0x1000 | 2);         /* table at BAR2 + 0x1000 */
  put32(c, 0x48, 0x1800 | 2);         /* PBA */
  fake_add_capability(c, PCI_CAP_MSI, 0x50);
  struct pci_function f;
  pci_function_probe(&f, c, 0, 0, 2, 0);
  memset(bar, 0, bar_bytes);
  f.bars[2] = (struct pci_bar){PCI_BAR_MEM64, false, (uint64_t)(uintptr_t)bar, bar_bytes};
  return f;
}

TEST(msi_alloc_programs_msix_table) {
  struct fake_ecam e = fake_ecam_new(1);
  static uint32_t bar[0x2000 / 4];
  struct pci_function f = msix_function(&e, bar, sizeof(bar));
  ASSERT_EQ(msi_alloc(&f, 3, MSI_ALLOW_MSI | MSI_ALLOW_MSIX), 3);
  ASSERT_EQ(msi_mode(&f), MSI_MODE_MSIX);
  const uint32_t *table = bar + 0x1000 / 4;
  for (unsigned i = 0; i < 3; i++) {
    ASSERT_EQ_U(table[i * 4 + 0], 0xfee00000u);
    ASSERT_EQ_U(table[i * 4 + 1], 0);
    ASSERT_EQ_U(table[i * 4 + 2], (unsigned)msi_vector(&f, i));
    ASSERT_EQ_U(table[i * 4 + 3], 1); /* masked */
  }
  for (unsigned i = 3; i < 8; i++) ASSERT_EQ_U(table[i * 4 + 3], 1); /* unused: masked */
  uint16_t ctl = pci_read16(&f, 0x42);
  ASSERT_TRUE(ctl & 0x8000);   /* enabled */
  ASSERT_FALSE(ctl & 0x4000);  /* function mask lifted */
  ASSERT_EQ(pci_read8(&f, 0x52) & 1, 0); /* plain MSI left off */
  ASSERT_TRUE(pci_read16(&f, PCI_COMMAND) & PCI_COMMAND_MEMORY);
  /* MSI-X vectors need not be consecutive, but must all differ. */
  ASSERT_NE(msi_vector(&f, 0), msi_vector(&f, 1));
  ASSERT_NE(msi_vector(&f, 1), msi_vector(&f, 2));

  handled[1] = handled[2] = 0;
  ASSERT_EQ(msi_set_handler(&f, 1, count_handler, &handled[1]), 0);
  ASSERT_EQ_U(table[1 * 4 + 3], 0);
  ASSERT_EQ_U(table[2 * 4 + 3], 1);
  ASSERT_TRUE(irq_handle((unsigned)msi_vector(&f, 1)));
  ASSERT_EQ(handled[1], 1);
  ASSERT_EQ(msi_set_handler(&f, 1, NULL, NULL), 0); /* NULL masks */
  ASSERT_EQ_U(table[1 * 4 + 3], 1);
  ASSERT_EQ(msi_set_handler(&f, 5, count_handler, NULL), -EINVAL);
  ASSERT_EQ(msi_alloc(&f, 1, MSI_ALLOW_MSIX), -EBUSY);
  msi_free(&f);
  ASSERT_FALSE(pci_read16(&f, 0x42) & 0x8000);
  fake_ecam_free(&e);
}

TEST(msi_msix_table_outside_bar_falls_back_to_msi) {
  struct fake_ecam e = fake_ecam_new(1);
  static uint32_t bar[0x1000 / 4];
  struct pci_function f = msix_function(&e, bar, sizeof(bar)); /* table at 0x1000: outside */
  ASSERT_EQ(msi_alloc(&f, 1, MSI_ALLOW_MSIX), -EINVAL);
  ASSERT_EQ(msi_alloc(&f, 1, MSI_ALLOW_MSIX | MSI_ALLOW_MSI), 1);
  ASSERT_EQ(msi_mode(&f), MSI_MODE_MSI);
  msi_free(&f);
  f.bars[2].kind = PCI_BAR_NONE;
  ASSERT_EQ(msi_alloc(&f, 1, MSI_ALLOW_MSIX), -EINVAL);
  fake_ecam_free(&e);
}

TEST(msi_alloc_rejects_bad_requests) {
  struct fake_ecam e = fake_ecam_new(1);
  uint8_t *c = fake_function(&e, 0, 3, 0, 0x1234, 1, 0, false); /* no MSI at all */
  struct pci_function f;
  pci_function_probe(&f, c, 0, 0, 3, 0);
  ASSERT_EQ(msi_alloc(&f, 1, MSI_ALLOW_MSI | MSI_ALLOW_MSIX), -ENODEV);
  ASSERT_EQ(msi_alloc(&f, 0, MSI_ALLOW_MSI), -EINVAL);
  ASSERT_EQ(msi_alloc(&f, 1, 0), -EINVAL);
  ASSERT_EQ(msi_alloc(NULL, 1, MSI_ALLOW_MSI), -EINVAL);
  ASSERT_EQ(msi_vector(&f, 0), -EINVAL);
  msi_free(&f); /* nothing allocated: no effect */
  /* A destination the 8-bit field cannot hold. */
  struct pci_function m = msi_function(&e, true);
  msi_set_destination(0x1ff);
  ASSERT_EQ(msi_alloc(&m, 1, MSI_ALLOW_MSI), -ERANGE);
  msi_set_destination(0);
  ASSERT_EQ(pci_read16(&m, 0x52) & 1, 0);
  fake_ecam_free(&e);
}

TEST(msi_state_of_each_function_is_kernel_data_with_a_limit) {
  /* The states live in the kernel's data (kernel/msi.c): a fixed number of
   * functions at a time, the next gets -ENOMEM, a freed one is reused. */
  struct fake_ecam e = fake_ecam_new(1);
  static struct pci_function f[MSI_MAX_FUNCTIONS + 1];
  for (unsigned i = 0; i < MSI_MAX_FUNCTIONS; i++) {
    f[i] = msi_function(&e, true);
    ASSERT_EQ(msi_alloc(&f[i], 1, MSI_ALLOW_MSI), 1);
    for (unsigned j = 0; j < i; j++) ASSERT_TRUE(f[i].msi != f[j].msi);
  }
  f[MSI_MAX_FUNCTIONS] = msi_function(&e, true);
  ASSERT_EQ(msi_alloc(&f[MSI_MAX_FUNCTIONS], 1, MSI_ALLOW_MSI), -ENOMEM);
  ASSERT_NULL(f[MSI_MAX_FUNCTIONS].msi);
  msi_free(&f[3]);
  ASSERT_EQ(msi_alloc(&f[MSI_MAX_FUNCTIONS], 1, MSI_ALLOW_MSI), 1);
  for (unsigned i = 0; i <= MSI_MAX_FUNCTIONS; i++) msi_free(&f[i]);
  fake_ecam_free(&e);
}
