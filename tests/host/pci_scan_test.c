/* Tests of PCI enumeration and capability walks on a configuration space in
 * memory (tests/host/pci_test_config.h). */
#include "kernel/pci.h"
#include "lib/test.h"
#include "tests/host/pci_test_config.h"

TEST(pci_scan_finds_every_function) {
  struct fake_ecam e = fake_ecam_new(2);
  fake_function(&e, 0, 0, 0, 0x8086, 0x29c0, 0x060000, false); /* host bridge */
  fake_function(&e, 0, 1, 0, 0x1234, 0x0001, 0x020000, true);  /* multi-function */
  fake_function(&e, 0, 1, 3, 0x1234, 0x0002, 0x028000, false);
  fake_function(&e, 0, 2, 0, 0x1234, 0x0003, 0x030000, false); /* single-function: */
  fake_function(&e, 0, 2, 1, 0x1234, 0x0004, 0x030000, false); /* ...so this is not scanned */
  fake_function(&e, 0, 3, 1, 0x1234, 0x0005, 0x030000, false); /* no function 0: no device */
  fake_function(&e, 1, 31, 0, 0x1022, 0x1419, 0x080600, false);
  struct pci_function fs[8];
  unsigned n = pci_scan_ecam(e.base, 0, 0, 1, fs, 8);
  ASSERT_EQ(n, 5);
  ASSERT_EQ(fs[0].device_id, 0x29c0);
  ASSERT_EQ(fs[1].device, 1);
  ASSERT_EQ(fs[1].function, 0);
  ASSERT_EQ(fs[2].function, 3);
  ASSERT_EQ(fs[2].device_id, 2);
  ASSERT_EQ(fs[3].device, 2);
  ASSERT_EQ(fs[4].bus, 1);
  ASSERT_EQ(fs[4].device, 31);
  ASSERT_EQ(fs[4].class_code, 0x08);
  ASSERT_EQ(fs[4].subclass, 0x06);
  ASSERT_EQ(pci_class24(&fs[4]), 0x080600);
  ASSERT_EQ(fs[4].revision, 1);
  ASSERT_PTR_EQ(fs[4].config, fake_config(&e, 1, 31, 0));
  char name[16];
  pci_function_name(&fs[4], name);
  ASSERT_STR_EQ(name, "0000:01:1f.0");
  fake_ecam_free(&e);
}

TEST(pci_scan_counts_beyond_capacity) {
  struct fake_ecam e = fake_ecam_new(1);
  for (unsigned d = 0; d < 4; d++) fake_function(&e, 0, d, 0, 0x1234, (uint16_t)d, 0, false);
  struct pci_function fs[2];
  ASSERT_EQ(pci_scan_ecam(e.base, 0, 0, 0, fs, 2), 4);
  ASSERT_EQ(fs[1].device_id, 1);
  fake_ecam_free(&e);
}

TEST(pci_scan_of_a_later_bus_range) {
  struct fake_ecam e = fake_ecam_new(3);
  fake_function(&e, 0, 0, 0, 0x1234, 1, 0, false);
  fake_function(&e, 2, 4, 0, 0x1234, 2, 0, false);
  struct pci_function fs[4];
  ASSERT_EQ(pci_scan_ecam(e.base, 7, 1, 2, fs, 4), 1);
  ASSERT_EQ(fs[0].segment, 7);
  ASSERT_EQ(fs[0].bus, 2);
  fake_ecam_free(&e);
}

TEST(pci_capabilities_found_in_list) {
  struct fake_ecam e = fake_ecam_new(1);
  uint8_t *c = fake_function(&e, 0, 0, 0, 0x1002, 0x15dd, 0x030000, false);
  fake_add_capability(c, PCI_CAP_PM, 0x48);
  fake_add_capability(c, PCI_CAP_VENDOR, 0x50);
  fake_add_capability(c, PCI_CAP_PCIE, 0x64);
  fake_add_capability(c, PCI_CAP_MSI, 0xa0);
  fake_add_capability(c, PCI_CAP_VENDOR, 0xc0);
  fake_add_capability(c, PCI_CAP_MSIX, 0xd0);
  fake_add_ext_capability(c, PCI_EXT_CAP_AER, 0x100);
  fake_add_ext_capability(c, PCI_EXT_CAP_ATS, 0x2b0);
  fake_add_ext_capability(c, PCI_EXT_CAP_PRI, 0x2c0);
  fake_add_ext_capability(c, PCI_EXT_CAP_PASID, 0x2d0);
  struct pci_function f;
  ASSERT_TRUE(pci_function_probe(&f, c, 0, 0, 0, 0));
  ASSERT_EQ(f.pm_cap, 0x48);
  ASSERT_EQ(f.pcie_cap, 0x64);
  ASSERT_EQ(f.msi_cap, 0xa0);
  ASSERT_EQ(f.msix_cap, 0xd0);
  ASSERT_EQ(f.ats_ecap, 0x2b0);
  ASSERT_EQ(f.pri_ecap, 0x2c0);
  ASSERT_EQ(f.pasid_ecap, 0x2d0);
  /* Several capabilities with one ID: walk on from the previous one. */
  unsigned v = pci_find_capability(&f, PCI_CAP_VENDOR, 0);
  ASSERT_EQ(v, 0x50);
  ASSERT_EQ(pci_find_capability(&f, PCI_CAP_VENDOR, v), 0xc0);
  ASSERT_EQ(pci_find_capability(&f, PCI_CAP_VENDOR, 0xc0), 0);
  ASSERT_EQ(pci_find_capability(&f, PCI_CAP_SECURE, 0), 0);
  ASSERT_EQ(pci_find_ext_capability(&f, PCI_EXT_CAP_AER, 0), 0x100);
  ASSERT_EQ(pci_find_ext_capability(&f, PCI_EXT_CAP_SRIOV, 0), 0);
  fake_ecam_free(&e);
}

TEST(pci_capability_list_without_status_bit_is_empty) {
  struct fake_ecam e = fake_ecam_new(1);
  uint8_t *c = fake_function(&e, 0, 0, 0, 0x1234, 1, 0, false);
  fake_add_capability(c, PCI_CAP_MSI, 0x40);
  c[PCI_STATUS] &= (uint8_t)~PCI_STATUS_CAPABILITIES;
  struct pci_function f;
  ASSERT_TRUE(pci_function_probe(&f, c, 0, 0, 0, 0));
  ASSERT_EQ(f.msi_cap, 0);
  fake_ecam_free(&e);
}

TEST(pci_capability_loop_ends_walk) {
  struct fake_ecam e = fake_ecam_new(1);
  uint8_t *c = fake_function(&e, 0, 0, 0, 0x1234, 1, 0, false);
  fake_add_capability(c, PCI_CAP_PM, 0x40);
  fake_add_capability(c, PCI_CAP_VENDOR, 0x50);
  c[0x51] = 0x40; /* back to the first: a loop */
  struct pci_function f;
  ASSERT_TRUE(pci_function_probe(&f, c, 0, 0, 0, 0));
  ASSERT_EQ(f.pm_cap, 0x40);
  ASSERT_EQ(pci_find_capability(&f, PCI_CAP_MSIX, 0), 0);
  /* A pointer into the standard header is broken too. */
  c[0x51] = 0x10;
  ASSERT_EQ(pci_find_capability(&f, PCI_CAP_MSIX, 0), 0);
  fake_ecam_free(&e);
}

TEST(pci_ext_capability_loop_and_bad_pointer_end_walk) {
  struct fake_ecam e = fake_ecam_new(1);
  uint8_t *c = fake_function(&e, 0, 0, 0, 0x1234, 1, 0, false);
  fake_add_capability(c, PCI_CAP_PCIE, 0x40);
  fake_add_ext_capability(c, PCI_EXT_CAP_AER, 0x100);
  fake_add_ext_capability(c, PCI_EXT_CAP_ACS, 0x140);
  put32(c, 0x140, PCI_EXT_CAP_ACS | 1u << 16 | 0x100u << 20); /* loop */
  struct pci_function f;
  ASSERT_TRUE(pci_function_probe(&f, c, 0, 0, 0, 0));
  ASSERT_EQ(pci_find_ext_capability(&f, PCI_EXT_CAP_ACS, 0), 0x140);
  ASSERT_EQ(pci_find_ext_capability(&f, PCI_EXT_CAP_PASID, 0), 0);
  put32(c, 0x140, PCI_EXT_CAP_ACS | 1u << 16 | 0x42u << 20); /* into the legacy space */
  ASSERT_EQ(pci_find_ext_capability(&f, PCI_EXT_CAP_PASID, 0), 0);
  fake_ecam_free(&e);
}

TEST(pci_ext_capabilities_only_for_pcie_functions) {
  struct fake_ecam e = fake_ecam_new(1);
  uint8_t *c = fake_function(&e, 0, 0, 0, 0x1234, 1, 0, false);
  fake_add_ext_capability(c, PCI_EXT_CAP_ATS, 0x100); /* no PCIe capability */
  struct pci_function f;
  ASSERT_TRUE(pci_function_probe(&f, c, 0, 0, 0, 0));
  ASSERT_EQ(f.ats_ecap, 0);
  fake_ecam_free(&e);
}

TEST(pci_command_bits) {
  struct fake_ecam e = fake_ecam_new(1);
  uint8_t *c = fake_function(&e, 0, 0, 0, 0x1234, 1, 0, false);
  struct pci_function f;
  ASSERT_TRUE(pci_function_probe(&f, c, 0, 0, 0, 0));
  f.bars[1] = (struct pci_bar){PCI_BAR_IO, false, 0xc000, 0x20};
  pci_enable_memory(&f);
  ASSERT_EQ(pci_read16(&f, PCI_COMMAND), PCI_COMMAND_MEMORY | PCI_COMMAND_IO);
  pci_enable_bus_master(&f);
  ASSERT_EQ(pci_read16(&f, PCI_COMMAND), PCI_COMMAND_MEMORY | PCI_COMMAND_IO | PCI_COMMAND_BUS_MASTER);
  pci_set_command_bits(&f, PCI_COMMAND_INTX_DISABLE, PCI_COMMAND_IO);
  ASSERT_EQ(pci_read16(&f, PCI_COMMAND),
            PCI_COMMAND_MEMORY | PCI_COMMAND_BUS_MASTER | PCI_COMMAND_INTX_DISABLE);
  fake_ecam_free(&e);
}
