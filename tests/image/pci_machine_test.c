/* PCI enumeration against what QEMU puts on the q35 machine that
 * qemu/boot.sh starts (hw/pci-host/q35.c, hw/isa/lpc_ich9.c,
 * hw/i386/amd_iommu.c, hw/misc/edu.c, the virtio-blk boot disk). */
#include "kernel/pci.h"
#include "lib/test.h"

static struct pci_function *at(unsigned dev, unsigned fn) { return pci_find_address(0, 0, dev, fn); }

TEST(pci_q35_chipset_functions) {
  /* 00:00.0 the MCH host bridge 8086:29c0, class 0600. */
  struct pci_function *f = at(0, 0);
  ASSERT_NOT_NULL(f);
  ASSERT_EQ(f->vendor_id, 0x8086);
  ASSERT_EQ(f->device_id, 0x29c0);
  ASSERT_EQ(pci_class24(f) >> 8, 0x0600);
  /* 00:1f.0 ICH9 LPC bridge 8086:2918 (class 0601), 00:1f.2 its AHCI
   * controller 8086:2922 (class 010601), 00:1f.3 SMBus 8086:2930 (0c05). */
  ASSERT_NOT_NULL(f = at(0x1f, 0));
  ASSERT_EQ(f->device_id, 0x2918);
  ASSERT_EQ(pci_class24(f) >> 8, 0x0601);
  ASSERT_NOT_NULL(f = at(0x1f, 2));
  ASSERT_EQ(f->device_id, 0x2922);
  ASSERT_EQ(pci_class24(f), 0x010601);
  ASSERT_NE(f->msi_cap, 0);
  ASSERT_NOT_NULL(f = at(0x1f, 3));
  ASSERT_EQ(f->device_id, 0x2930);
  ASSERT_EQ(pci_class24(f) >> 8, 0x0c05);
  /* Nothing answers where QEMU put nothing. */
  ASSERT_NULL(at(0x1e, 0));
  ASSERT_NULL(pci_find_address(0, 1, 0, 0));
}

TEST(pci_amd_iommu_at_00_02_0) {
  /* amd-iommu: vendor AMD, class 0806 (system peripheral, IOMMU), with the
   * IOMMU capability block (ID 0x0f, AMD 48882, 3.7) and MSI. QEMU 7.2
   * places it at the first free slot after the VGA (qemu/boot.sh creates
   * it before the other devices, so that it translates their DMA), and its
   * amdvi_init (hw/i386/amd_iommu.c) writes the function's devfn as the
   * device ID: 0x10 for 00:02.0 (later QEMUs assign 1022:1419). */
  struct pci_function *f = at(2, 0);
  ASSERT_NOT_NULL(f);
  ASSERT_EQ(f->vendor_id, 0x1022);
  ASSERT_EQ(f->device_id, 2 << 3);
  ASSERT_EQ(f->class_code, 0x08);
  ASSERT_EQ(f->subclass, 0x06);
  ASSERT_NE(pci_find_capability(f, PCI_CAP_SECURE, 0), 0);
  ASSERT_NE(f->msi_cap, 0);
  unsigned iommus = 0; /* just one */
  for (unsigned i = 0; i < pci_function_count(); i++)
    iommus += pci_class24(pci_function_at(i)) >> 8 == 0x0806;
  ASSERT_EQ(iommus, 1);
}

TEST(pci_edu_device_and_its_bar) {
  /* edu: 1234:11e8 revision 0x10, class 00ff, BAR0 1 MiB 32-bit memory,
   * MSI (64-bit address, one vector), INTA (hw/misc/edu.c). */
  struct pci_function *f = pci_find_device(0x1234, 0x11e8, 0);
  ASSERT_NOT_NULL(f);
  ASSERT_EQ(f->revision, 0x10);
  ASSERT_EQ(pci_class24(f) >> 8, 0x00ff);
  ASSERT_EQ(pci_function_bars(f), 0);
  ASSERT_EQ(f->bars[0].kind, PCI_BAR_MEM32);
  ASSERT_FALSE(f->bars[0].prefetchable);
  ASSERT_EQ_U(f->bars[0].size, 1u << 20);
  ASSERT_NE(f->bars[0].base, 0);
  for (int i = 1; i < PCI_MAX_BARS; i++) ASSERT_EQ_U(f->bars[i].size, 0);
  ASSERT_NE(f->msi_cap, 0);
  ASSERT_EQ(f->msix_cap, 0);
  ASSERT_EQ(f->interrupt_pin, 1);
  /* The BAR decodes: the identification register reads 0x010000ed, and the
   * liveness register returns the complement of what was written. */
  pci_enable_memory(f);
  volatile uint32_t *regs = (volatile uint32_t *)(uintptr_t)f->bars[0].base;
  ASSERT_EQ_U(regs[0], 0x010000edu);
  regs[1] = 0x12345678u;
  ASSERT_EQ_U(regs[1], ~0x12345678u);
}

TEST(pci_boot_disk_and_display) {
  /* The ESP disk of qemu/boot.sh: virtio-blk (transitional ID 1af4:1001,
   * class 0100) with MSI-X and a 64-bit prefetchable BAR for the modern
   * interface (hw/virtio/virtio-pci.c). */
  struct pci_function *disk = pci_find_device(0x1af4, 0x1001, 0);
  ASSERT_NOT_NULL(disk);
  ASSERT_EQ(pci_class24(disk) >> 8, 0x0100);
  ASSERT_NE(disk->msix_cap, 0);
  ASSERT_EQ(pci_function_bars(disk), 0);
  bool mem64_prefetchable = false, io = false;
  for (int i = 0; i < PCI_MAX_BARS; i++) {
    mem64_prefetchable |= disk->bars[i].kind == PCI_BAR_MEM64 && disk->bars[i].prefetchable;
    io |= disk->bars[i].kind == PCI_BAR_IO && disk->bars[i].size >= 32;
  }
  ASSERT_TRUE(mem64_prefetchable);
  ASSERT_TRUE(io);
  /* The std VGA at 00:01.0 (1234:1111): BAR0 is its 16 MiB framebuffer,
   * prefetchable (hw/display/vga-pci.c, VGA_RAM_SIZE default). */
  struct pci_function *vga = at(1, 0);
  ASSERT_NOT_NULL(vga);
  ASSERT_EQ(vga->device_id, 0x1111);
  ASSERT_EQ(pci_function_bars(vga), 0);
  ASSERT_EQ(vga->bars[0].kind, PCI_BAR_MEM32);
  ASSERT_TRUE(vga->bars[0].prefetchable);
  ASSERT_EQ_U(vga->bars[0].size, 16u << 20);
}

TEST(pci_bar_sizing_leaves_devices_working) {
  /* Sizing again (as at boot) restores every BAR and the command register. */
  struct pci_function *f = pci_find_device(0x1234, 0x11e8, 0);
  ASSERT_NOT_NULL(f);
  ASSERT_EQ(pci_function_bars(f), 0);
  pci_enable_memory(f);
  struct pci_bar before = f->bars[0];
  uint16_t cmd = pci_read16(f, PCI_COMMAND);
  pci_size_bars(f);
  ASSERT_EQ_U(f->bars[0].base, before.base);
  ASSERT_EQ_U(f->bars[0].size, before.size);
  ASSERT_EQ(pci_read16(f, PCI_COMMAND), cmd);
  ASSERT_EQ_U(*(volatile uint32_t *)(uintptr_t)f->bars[0].base, 0x010000edu);
}

TEST(pci_bars_sized_on_first_use) {
  /* The ICH9 SMBus controller (00:1f.3): no driver, no other test uses
   * it, so nothing sized its BARs at boot. Its BAR4 is 64 bytes of I/O
   * ports (hw/i2c/smbus_ich9.c, ICH9_SMB_SMB_BASE_BAR). */
  struct pci_function *f = at(0x1f, 3);
  ASSERT_NOT_NULL(f);
  ASSERT_FALSE(f->bars_sized);
  ASSERT_EQ_U(f->bars[4].size, 0);
  uint16_t cmd = pci_read16(f, PCI_COMMAND);
  ASSERT_EQ(pci_function_bars(f), 0);
  ASSERT_TRUE(f->bars_sized);
  ASSERT_EQ(f->bars[4].kind, PCI_BAR_IO);
  ASSERT_EQ_U(f->bars[4].size, 64);
  ASSERT_EQ(pci_read16(f, PCI_COMMAND), cmd);
  struct pci_bar once = f->bars[4];
  ASSERT_EQ(pci_function_bars(f), 0); /* sized once: the same */
  ASSERT_EQ_U(f->bars[4].base, once.base);
}

TEST(pci_bound_function_has_its_bars_sized) {
  /* Drivers get their functions with the BARs sized: the IOMMU's. */
  struct pci_function *f = at(2, 0);
  ASSERT_NOT_NULL(f);
  if (!f->driver) test_skip("the IOMMU driver did not bind (iommu=off?)");
  ASSERT_TRUE(f->bars_sized);
}
