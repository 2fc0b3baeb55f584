/*
 * pci.c - PCI functions through ECAM: identification, bus scan, capability
 * lists, command register, driver matching (portable: host tests run it on
 * a configuration space in memory).
 *
 * Sources: PCI Local Bus Specification 3.0, 6.1 (header), 6.7 (capability
 * list: pointer at 0x34, entries ID/next, pointers dword aligned, >= 0x40);
 * PCI Express Base Specification 6.0, 7.2.2 (ECAM address: bus << 20 |
 * device << 15 | function << 12), 7.6.1 (extended capability header: ID
 * bits 15:0, version 19:16, next offset 31:20; the list starts at 0x100).
 */
#define LOG_TAG "pci"
#include "kernel/pci.h"

#include <stdio.h>
#include <string.h>

#include "lib/plat.h"

void pci_function_name(const struct pci_function *f, char out[16]) {
  snprintf(out, 16, "%04x:%02x:%02x.%x", f->segment, f->bus, f->device, f->function);
}

static void find_common_capabilities(struct pci_function *f) {
  f->pm_cap = (uint8_t)pci_find_capability(f, PCI_CAP_PM, 0);
  f->msi_cap = (uint8_t)pci_find_capability(f, PCI_CAP_MSI, 0);
  f->msix_cap = (uint8_t)pci_find_capability(f, PCI_CAP_MSIX, 0);
  f->pcie_cap = (uint8_t)pci_find_capability(f, PCI_CAP_PCIE, 0);
  f->ats_ecap = (uint16_t)pci_find_ext_capability(f, PCI_EXT_CAP_ATS, 0);
  f->pasid_ecap = (uint16_t)pci_find_ext_capability(f, PCI_EXT_CAP_PASID, 0);
  f->pri_ecap = (uint16_t)pci_find_ext_capability(f, PCI_EXT_CAP_PRI, 0);
}

bool pci_function_probe(struct pci_function *f, volatile uint8_t *config, uint16_t segment,
                        uint8_t bus, uint8_t device, uint8_t function) {
  memset(f, 0, sizeof(*f));
  f->config = config;
  f->vendor_id = pci_read16(f, PCI_VENDOR_ID);
  if (f->vendor_id == 0xffff) return false; /* no function answers (PCI 3.0, 6.2.1) */
  f->segment = segment;
  f->bus = bus;
  f->device = device;
  f->function = function;
  f->device_id = pci_read16(f, PCI_DEVICE_ID);
  uint32_t class_rev = pci_read32(f, PCI_REVISION_ID);
  f->revision = (uint8_t)class_rev;
  f->prog_if = (uint8_t)(class_rev >> 8);
  f->subclass = (uint8_t)(class_rev >> 16);
  f->class_code = (uint8_t)(class_rev >> 24);
  f->header_type = pci_read8(f, PCI_HEADER_TYPE) & PCI_HEADER_TYPE_MASK;
  if (f->header_type == PCI_HEADER_TYPE_NORMAL) {
    f->subsystem_vendor_id = pci_read16(f, PCI_SUBSYSTEM_VENDOR_ID);
    f->subsystem_id = pci_read16(f, PCI_SUBSYSTEM_ID);
  }
  f->interrupt_pin = pci_read8(f, PCI_INTERRUPT_PIN);
  find_common_capabilities(f);
  return true;
}

unsigned pci_scan_ecam(volatile uint8_t *ecam, uint16_t segment, uint8_t bus_start,
                       uint8_t bus_end, struct pci_function *out, unsigned max) {
  unsigned found = 0;
  struct pci_function scratch;
  for (unsigned bus = bus_start; bus <= bus_end; bus++) {
    for (unsigned dev = 0; dev < 32; dev++) {
      for (unsigned fn = 0; fn < 8; fn++) {
        volatile uint8_t *config = ecam + ((uintptr_t)bus << 20 | dev << 15 | fn << 12);
        struct pci_function *f = found < max ? &out[found] : &scratch;
        if (!pci_function_probe(f, config, segment, (uint8_t)bus, (uint8_t)dev, (uint8_t)fn)) {
          if (fn == 0) break; /* no function 0: no device (PCI 3.0, 6.2.1) */
          continue;
        }
        found++;
        /* Functions 1-7 exist only in multi-function devices. */
        if (fn == 0 && !(pci_read8(f, PCI_HEADER_TYPE) & PCI_HEADER_MULTIFUNCTION)) break;
      }
    }
  }
  if (found > max) log_warn("segment %u: %u functions, only %u kept", segment, found, max);
  return found;
}

/* Capabilities live in the device-specific part of the header, after 0x40,
 * on dword boundaries; 48 entries fill it, so a longer walk is a loop. */
#define CAP_MIN_OFFSET 0x40
#define CAP_MAX_COUNT  48

unsigned pci_find_capability(const struct pci_function *f, uint8_t id, unsigned after) {
  if (!(pci_read16(f, PCI_STATUS) & PCI_STATUS_CAPABILITIES)) return 0;
  unsigned off = after ? pci_read8(f, after + 1) : pci_read8(f, PCI_CAPABILITY_LIST);
  for (int n = 0; off != 0; n++) {
    off &= ~3u; /* the bottom two bits are reserved (PCI 3.0, 6.7) */
    if (off < CAP_MIN_OFFSET || n == CAP_MAX_COUNT) {
      char name[16];
      pci_function_name(f, name);
      log_warn("%s: capability list broken at offset 0x%x, walk stopped", name, off);
      return 0;
    }
    if (pci_read8(f, off) == id) return off;
    off = pci_read8(f, off + 1);
  }
  return 0;
}

/* Extended capabilities exist only in PCI Express functions. 960 dwords
 * follow 0x100, so more entries than that is a loop. */
#define EXT_CAP_MAX_COUNT ((PCI_CONFIG_SIZE - PCI_EXT_CAP_START) / 4)

unsigned pci_find_ext_capability(const struct pci_function *f, uint16_t id, unsigned after) {
  if (!f->pcie_cap && !pci_find_capability(f, PCI_CAP_PCIE, 0)) return 0;
  unsigned off = after ? pci_read32(f, after) >> 20 : PCI_EXT_CAP_START;
  for (unsigned n = 0; off != 0; n++) {
    if (off < PCI_EXT_CAP_START || off % 4 != 0 || n == EXT_CAP_MAX_COUNT) {
      char name[16];
      pci_function_name(f, name);
      log_warn("%s: extended capability list broken at offset 0x%x, walk stopped", name, off);
      return 0;
    }
    uint32_t header = pci_read32(f, off);
    /* An all-zero (or all-ones) first header means no extended capability. */
    if (header == 0 || header == 0xffffffffu) return 0;
    if ((header & 0xffff) == id) return off;
    off = header >> 20;
  }
  return 0;
}

void pci_set_command_bits(struct pci_function *f, uint16_t set, uint16_t clear) {
  uint16_t cmd = pci_read16(f, PCI_COMMAND);
  uint16_t want = (uint16_t)((cmd & ~clear) | set);
  if (want != cmd) pci_write16(f, PCI_COMMAND, want);
}

void pci_enable_memory(struct pci_function *f) {
  uint16_t set = PCI_COMMAND_MEMORY;
  for (int i = 0; i < PCI_MAX_BARS; i++)
    if (f->bars[i].kind == PCI_BAR_IO && f->bars[i].size) set |= PCI_COMMAND_IO;
  pci_set_command_bits(f, set, 0);
}

void pci_enable_bus_master(struct pci_function *f) {
  pci_set_command_bits(f, PCI_COMMAND_BUS_MASTER, 0);
}

const struct pci_match *pci_match_function(const struct pci_match *matches,
                                           const struct pci_function *f) {
  for (const struct pci_match *m = matches; m->vendor_id || m->device_id || m->class_mask; m++) {
    if (m->vendor_id != PCI_ANY_ID && m->vendor_id != f->vendor_id) continue;
    if (m->device_id != PCI_ANY_ID && m->device_id != f->device_id) continue;
    if ((pci_class24(f) & m->class_mask) != (m->class24 & m->class_mask)) continue;
    return m;
  }
  return NULL;
}
