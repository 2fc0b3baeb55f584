/*
 * pci_init.c - the machine's PCI functions (image): every ECAM window of
 * the MCFG table scanned, the result listed in the log, drivers probed.
 * BARs are sized and mapped when a function is first used (before a
 * driver's probe, or by whoever asks, pci_function_bars): sizing switches decoding off and on, which is
 * cheap on a board but remaps the device's memory in QEMU (0.3-5 ms each
 * time under TCG), and most functions never have a user.
 */
#define LOG_TAG "pci"
#include <errno.h>
#include <stdio.h>

#include "kernel/acpi.h"
#include "kernel/pci.h"
#include "kernel/vm.h"
#include "lib/plat.h"

#define PCI_MAX_FUNCTIONS 256

static struct pci_function functions[PCI_MAX_FUNCTIONS];
static unsigned function_count;

/* Device memory must be mapped uncached; the initial identity map covers
 * the holes below the top of RAM, BARs the firmware put higher are added. */
static int ensure_mapped(uint64_t base, uint64_t size) {
  for (uint64_t addr = base; addr < base + size;) {
    uint64_t page_size;
    unsigned attrs = vm_query(addr, &page_size);
    if ((attrs & (PT_PRESENT | PT_WRITE)) != (PT_PRESENT | PT_WRITE) ||
        (attrs & PT_CACHE_MASK) == PT_CACHE_WB)
      return vm_map_mmio(base, size);
    addr = (addr & ~(page_size - 1)) + page_size;
  }
  return 0;
}

static const char *bar_kind_name(const struct pci_bar *b) {
  switch (b->kind) {
  case PCI_BAR_IO: return "io";
  case PCI_BAR_MEM32: return b->prefetchable ? "mem32 prefetchable" : "mem32";
  case PCI_BAR_MEM64: return b->prefetchable ? "mem64 prefetchable" : "mem64";
  default: return "none";
  }
}

static void describe(const struct pci_function *f) {
  char name[16], caps[64];
  pci_function_name(f, name);
  snprintf(caps, sizeof(caps), "%s%s%s%s%s%s%s", f->pcie_cap ? " PCIe" : "",
           f->msi_cap ? " MSI" : "", f->msix_cap ? " MSI-X" : "", f->pm_cap ? " PM" : "",
           f->ats_ecap ? " ATS" : "", f->pri_ecap ? " PRI" : "", f->pasid_ecap ? " PASID" : "");
  log_info("%s %04x:%04x class %02x%02x%02x rev %02x%s%s", name, f->vendor_id, f->device_id,
           f->class_code, f->subclass, f->prog_if, f->revision,
           f->header_type == PCI_HEADER_TYPE_BRIDGE ? " bridge" : "", caps);
}

int pci_function_bars(struct pci_function *f) {
  if (f->bars_sized) return 0;
  pci_size_bars(f);
  char name[16];
  pci_function_name(f, name);
  int err = 0;
  for (unsigned i = 0; i < PCI_MAX_BARS; i++) {
    const struct pci_bar *b = &f->bars[i];
    if (!b->size) continue;
    log_debug("%s   BAR%u %s at 0x%llx, 0x%llx bytes", name, i, bar_kind_name(b),
              (unsigned long long)b->base, (unsigned long long)b->size);
    if (b->kind != PCI_BAR_IO && b->base == 0) {
      log_warn("%s: BAR%u was not given an address by the firmware", name, i);
    } else if (b->kind != PCI_BAR_IO && ensure_mapped(b->base, b->size) != 0) {
      log_error("%s: BAR%u at 0x%llx could not be mapped", name, i, (unsigned long long)b->base);
      err = -EIO;
    }
  }
  return err;
}

int pci_init(void) {
  const struct acpi_info *a = acpi_machine();
  if (!a->have_mcfg) {
    log_error("no usable MCFG table: no PCI configuration space, no devices");
    return -ENODEV;
  }
  function_count = 0;
  for (unsigned s = 0; s < a->mcfg.count; s++) {
    const struct acpi_mcfg_segment *seg = &a->mcfg.segments[s];
    uint64_t first = seg->base + ((uint64_t)seg->bus_start << 20);
    uint64_t size = (uint64_t)(seg->bus_end - seg->bus_start + 1) << 20;
    if (ensure_mapped(first, size) != 0) {
      log_error("segment %u: ECAM at 0x%llx cannot be mapped, skipped", seg->segment,
                (unsigned long long)first);
      continue;
    }
    unsigned found = pci_scan_ecam((volatile uint8_t *)(uintptr_t)seg->base, seg->segment,
                                   seg->bus_start, seg->bus_end, functions + function_count,
                                   PCI_MAX_FUNCTIONS - function_count);
    function_count += found < PCI_MAX_FUNCTIONS - function_count ? found
                                                                 : PCI_MAX_FUNCTIONS - function_count;
  }
  for (unsigned i = 0; i < function_count; i++) describe(&functions[i]);
  log_info("%u PCI functions", function_count);
  return (int)function_count;
}

void pci_probe_drivers(void) {
  for (unsigned i = 0; i < function_count; i++)
    if (!functions[i].driver && pci_driver_matches(&functions[i])) pci_function_bars(&functions[i]);
  unsigned bound = pci_probe_function_list(functions, function_count);
  log_info("%u of %u functions bound to a driver", bound, function_count);
}

unsigned pci_function_count(void) { return function_count; }

struct pci_function *pci_function_at(unsigned index) {
  return index < function_count ? &functions[index] : NULL;
}

struct pci_function *pci_find_device(uint16_t vendor_id, uint16_t device_id, unsigned index) {
  for (unsigned i = 0; i < function_count; i++) {
    struct pci_function *f = &functions[i];
    if ((vendor_id == PCI_ANY_ID || f->vendor_id == vendor_id) &&
        (device_id == PCI_ANY_ID || f->device_id == device_id) && index-- == 0)
      return f;
  }
  return NULL;
}

struct pci_function *pci_find_address(uint16_t segment, uint8_t bus, uint8_t device,
                                      uint8_t function) {
  for (unsigned i = 0; i < function_count; i++) {
    struct pci_function *f = &functions[i];
    if (f->segment == segment && f->bus == bus && f->device == device && f->function == function)
      return f;
  }
  return NULL;
}
