/* amdgpu_bus_pci.c - the bus ops bound to a board's GPU: ECAM configuration
 * space, BAR5 registers by MMIO, MSI/MSI-X from kernel/msi.h, and the
 * IOMMU domain that lets the GPU reach the single address space (every RAM
 * range at its own address, the kernel's protected memory left out: its
 * DMA never reaches page tables, stacks or text). */
#define LOG_TAG "amdgpu"
#include <errno.h>
#include <stdlib.h>

#include "drivers/amdgpu/amdgpu_efi.h"
#include "drivers/iommu/iommu.h"
#include "kernel/frames.h"
#include "kernel/msi.h"
#include "kernel/vm.h"
#include "lib/plat.h"

struct pci_binding {
  struct pci_function *f;
  volatile uint32_t *registers; /* BAR5 */
  uint64_t register_bytes;
  struct iommu_device *iommu;
};

static struct pci_binding *binding(struct amdgpu_device *dev) { return dev->bus_ctx; }

static uint32_t config_read(struct amdgpu_device *dev, uint16_t offset) {
  return pci_read32(binding(dev)->f, offset);
}
static void config_write(struct amdgpu_device *dev, uint16_t offset, uint32_t value) {
  pci_write32(binding(dev)->f, offset, value);
}

/* BAR5 reads before the driver enabled decoding (the strap read during the
 * probe happens after) would be master aborts: all ones, like silicon. */
/* BAR5 is identity-mapped uncached (vm_map_mmio at attach): a register's
 * CPU address is the BAR's plus its byte offset. */
static volatile uint32_t *mmio_word(struct amdgpu_device *dev, uint32_t byte_offset) {
  struct pci_binding *b = binding(dev);
  return amdgpu_bar_word(b->registers, b->register_bytes, byte_offset);
}
static uint32_t mmio_read(struct amdgpu_device *dev, uint32_t byte_offset) {
  volatile uint32_t *reg = mmio_word(dev, byte_offset);
  return reg ? *reg : 0xffffffffu;
}
static void mmio_write(struct amdgpu_device *dev, uint32_t byte_offset, uint32_t value) {
  volatile uint32_t *reg = mmio_word(dev, byte_offset);
  if (reg) *reg = value;
}

static void msi_handler(void *ctx) { amdgpu_ih_interrupt(ctx); }

/* A GPU access the IOMMU refused (memory kept from every device, or not
 * RAM): the GPU's own page tables allowed it, so only the IOMMU knows. */
static void on_iommu_fault(void *ctx, const struct iommu_fault *fault) {
  amdgpu_dma_fault(ctx, fault->address, fault->write);
}

static int enable_msi(struct amdgpu_device *dev) {
  struct pci_function *f = binding(dev)->f;
  int n = msi_alloc(f, 1, MSI_ALLOW_MSI | MSI_ALLOW_MSIX);
  if (n < 0) {
    log_error("%s: no MSI/MSI-X vector (%d)", dev->chip->name, n);
    return n;
  }
  return msi_set_handler(f, 0, msi_handler, dev);
}

static void disable_msi(struct amdgpu_device *dev) { msi_free(binding(dev)->f); }

static void release(struct amdgpu_device *dev) {
  struct pci_binding *b = binding(dev);
  if (b->iommu) iommu_detach(b->iommu);
  b->f->driver_data = NULL;
  plat_protected_free(b);
  dev->bus_ctx = NULL;
}

static const struct amdgpu_bus_ops pci_bus = {
    .name = "pci", .virtual_apu = false, .config_read = config_read, .config_write = config_write,
    .mmio_read = mmio_read, .mmio_write = mmio_write, .mmio_word = mmio_word,
    .enable_msi = enable_msi, .disable_msi = disable_msi, .release = release,
};

static int map_ram_range(void *ctx, uint64_t base, uint64_t size) {
  int r = iommu_map_allowed(ctx, base, size, IOMMU_READ | IOMMU_WRITE);
  return r == -EEXIST ? 0 : r;
}

int amdgpu_pci_map_ram_for_dma(struct iommu_device *iommu) {
  int r = frames_for_each_ram_range(map_ram_range, iommu);
  return r ? r : iommu_flush(iommu);
}

int amdgpu_bus_pci_attach(struct amdgpu_device *dev, struct pci_function *f) {
  struct pci_binding *b = plat_protected_alloc(sizeof *b);
  if (!b) return -ENOMEM;
  b->f = f;
  dev->bus = &pci_bus;
  dev->bus_ctx = b;
  char name[16];
  pci_function_name(f, name);
  /* Registers, frame buffer and doorbells are device memory: uncached. */
  static const int bars[] = {0, 2, 5};
  for (int i = 0; i < 3; i++) {
    const struct pci_bar *bar = &f->bars[bars[i]];
    if (bar->kind != PCI_BAR_MEM32 && bar->kind != PCI_BAR_MEM64) continue; /* the probe says which */
    if (vm_map_mmio(bar->base, bar->size)) return -ENOMEM;
  }
  if (f->bars[5].size) {
    b->registers = (volatile uint32_t *)(uintptr_t)f->bars[5].base;
    b->register_bytes = f->bars[5].size;
  }
  int r = iommu_attach(f->segment, IOMMU_BDF(f->bus, f->device, f->function), "amdgpu", &b->iommu);
  if (r == -ENODEV) {
    b->iommu = NULL; /* no IOMMU translates it (logged by the IOMMU driver) */
  } else if (r) {
    log_error("%s: the IOMMU cannot take the GPU (%d): not started", name, r);
    return r;
  } else if ((r = amdgpu_pci_map_ram_for_dma(b->iommu)) != 0) {
    log_error("%s: cannot map RAM for the GPU in the IOMMU (%d)", name, r);
    return r;
  } else {
    iommu_set_fault_handler(b->iommu, on_iommu_fault, dev);
  }
  f->driver_data = dev;
  return 0;
}
