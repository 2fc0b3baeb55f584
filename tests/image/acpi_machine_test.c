/* The machine's ACPI tables as the image found them in QEMU q35 (what
 * hw/i386/acpi-build.c builds; tests/data/acpi/README.md): the tables the
 * kernel and the IOMMU driver need are present, checked and parsed, and
 * agree with the hardware they describe. */
#include <string.h>

#include "kernel/acpi.h"
#include "kernel/hpet.h"
#include "kernel/ioapic.h"
#include "kernel/lapic.h"
#include "kernel/pci.h"
#include "kernel/smp.h"
#include "lib/test.h"

TEST(acpi_machine_tables_found_and_checked) {
  const struct acpi_info *a = acpi_machine();
  ASSERT_TRUE(a->xsdt_used);
  ASSERT_EQ(a->rejected, 0);
  ASSERT_TRUE(a->have_madt);
  ASSERT_TRUE(a->have_mcfg);
  ASSERT_TRUE(a->have_fadt);
  ASSERT_TRUE(a->have_hpet);
  /* Every listed table still has a valid checksum where it lies. */
  for (unsigned i = 0; i < a->table_count; i++)
    ASSERT_TRUE(acpi_table_valid(a->tables[i].data, a->tables[i].length));
  ASSERT_NOT_NULL(acpi_machine_table("APIC", 0));
  ASSERT_NOT_NULL(acpi_machine_table("MCFG", 0));
  ASSERT_NOT_NULL(acpi_machine_table("DSDT", 0));
  ASSERT_TRUE(a->fadt.s5_found);
}

/* IVRS is there for the IOMMU driver, and names the IOMMU's PCI function:
 * the first IVHD (at offset 48: after the 36-byte header, IVinfo and 8
 * reserved bytes) holds its device ID at +4 (AMD IOMMU spec 48882, 5.2.2.1,
 * 5.2.2.2). */
TEST(acpi_ivrs_names_the_iommu_function) {
  const struct acpi_table *ivrs = acpi_machine_table("IVRS", 0);
  ASSERT_NOT_NULL(ivrs);
  ASSERT_GE(ivrs->length, 48 + 24);
  const uint8_t *b = (const uint8_t *)ivrs->data;
  uint16_t bdf = (uint16_t)(b[52] | b[53] << 8);
  struct pci_function *iommu = pci_find_address(0, bdf >> 8, (bdf >> 3) & 0x1f, bdf & 7);
  ASSERT_NOT_NULL(iommu);
  ASSERT_EQ(iommu->class_code, 0x08);
  ASSERT_EQ(iommu->subclass, 0x06);
}

TEST(acpi_madt_matches_the_interrupt_hardware) {
  const struct acpi_info *a = acpi_machine();
  /* The boot core is one of the MADT's processors. */
  bool found = false;
  for (unsigned i = 0; i < a->madt.cpu_count; i++) found |= a->madt.cpus[i].apic_id == lapic_id();
  ASSERT_TRUE(found);
  /* QEMU's single I/O APIC has 24 inputs (hw/intc/ioapic.c, IOAPIC_NUM_PINS). */
  ASSERT_EQ(a->madt.ioapic_count, 1);
  ASSERT_EQ(ioapic_input_count(), 24);
  /* ISA IRQ 0 (the PIT) arrives on GSI 2; IRQ 9 (SCI) is level, active high. */
  unsigned flags;
  ASSERT_EQ(ioapic_isa_gsi(0, &flags), 2);
  ASSERT_EQ(flags, 0);
  ASSERT_EQ(ioapic_isa_gsi(9, &flags), 9);
  ASSERT_EQ(flags, IOAPIC_LEVEL);
  ASSERT_EQ(ioapic_isa_gsi(4, &flags), 4); /* no override */
}

TEST(acpi_mcfg_and_hpet_match_the_hardware) {
  const struct acpi_info *a = acpi_machine();
  /* q35: ECAM at 0xb0000000 for buses 0-255 (hw/pci-host/q35.c,
   * MCH_HOST_BRIDGE_PCIEXBAR_DEFAULT as OVMF programs it). */
  ASSERT_EQ(a->mcfg.count, 1);
  ASSERT_EQ_U(a->mcfg.segments[0].base, 0xb0000000u);
  /* The HPET the table points at answers, with the table's ID copy. */
  ASSERT_TRUE(hpet_present());
  ASSERT_EQ_U(a->hpet.address, 0xfed00000u);
  ASSERT_EQ_U(*(volatile uint32_t *)(uintptr_t)a->hpet.address, a->hpet.event_timer_block_id);
}
