/*
 * pci_bar.c - Base Address Registers: decoding and sizing.
 *
 * Source: PCI Local Bus Specification 3.0, 6.2.5.1 "Address Maps": bit 0
 * selects I/O (1) or memory (0); memory bits 2:1 are the type (00 32-bit,
 * 10 64-bit: the next BAR holds the upper half, 01 and 11 reserved), bit 3
 * prefetchable; writing all ones and reading back leaves the address bits
 * the device decodes as ones: the lowest such bit is the size. I/O BARs use
 * bits 31:2 (devices decoding only 64 KiB return 0 in the upper half).
 * Decoding is switched off while a BAR holds all ones, as the specification
 * advises, so the device never answers at the bogus address.
 */
#define LOG_TAG "pci"
#include "kernel/pci.h"
#include "lib/plat.h"

#define BAR_IO               0x1u
#define BAR_MEM_TYPE_MASK    0x6u
#define BAR_MEM_TYPE_32      0x0u
#define BAR_MEM_TYPE_64      0x4u
#define BAR_MEM_PREFETCHABLE 0x8u
#define BAR_IO_ADDRESS_MASK  0xfffffffcu
#define BAR_MEM_ADDRESS_MASK 0xfffffff0u

/* The size a mask of writable address bits stands for: its lowest set bit. */
static uint64_t lowest_set_bit(uint64_t mask) { return mask & (~mask + 1); }

unsigned pci_bar_decode(uint32_t value, uint32_t sizing, uint32_t upper_value,
                        uint32_t upper_sizing, struct pci_bar *out) {
  *out = (struct pci_bar){0};
  if (value & BAR_IO) {
    out->kind = PCI_BAR_IO;
    out->base = value & BAR_IO_ADDRESS_MASK;
    out->size = lowest_set_bit(sizing & BAR_IO_ADDRESS_MASK);
    if (!out->size) *out = (struct pci_bar){0};
    return 1;
  }
  out->prefetchable = value & BAR_MEM_PREFETCHABLE;
  switch (value & BAR_MEM_TYPE_MASK) {
  case BAR_MEM_TYPE_32:
    out->kind = PCI_BAR_MEM32;
    out->base = value & BAR_MEM_ADDRESS_MASK;
    out->size = lowest_set_bit(sizing & BAR_MEM_ADDRESS_MASK);
    if (!out->size) *out = (struct pci_bar){0};
    return 1;
  case BAR_MEM_TYPE_64:
    out->kind = PCI_BAR_MEM64;
    out->base = (uint64_t)upper_value << 32 | (value & BAR_MEM_ADDRESS_MASK);
    out->size = lowest_set_bit((uint64_t)upper_sizing << 32 | (sizing & BAR_MEM_ADDRESS_MASK));
    if (!out->size) *out = (struct pci_bar){0};
    return 2;
  default: /* reserved type */
    *out = (struct pci_bar){0};
    return 0;
  }
}

/* Writes all ones to BAR register `reg` and returns what reads back, leaving
 * the original value in place. */
static uint32_t probe_bar_register(struct pci_function *f, unsigned reg, uint32_t original) {
  unsigned off = PCI_BAR0 + reg * 4;
  pci_write32(f, off, 0xffffffffu);
  uint32_t sizing = pci_read32(f, off);
  pci_write32(f, off, original);
  return sizing;
}

void pci_size_bars(struct pci_function *f) {
  /* Type 0 headers have six BARs, bridges (type 1) two; others none. */
  unsigned count = f->header_type == PCI_HEADER_TYPE_NORMAL   ? 6
                   : f->header_type == PCI_HEADER_TYPE_BRIDGE ? 2
                                                              : 0;
  uint16_t cmd = pci_read16(f, PCI_COMMAND);
  if (cmd & (PCI_COMMAND_IO | PCI_COMMAND_MEMORY))
    pci_write16(f, PCI_COMMAND, cmd & ~(PCI_COMMAND_IO | PCI_COMMAND_MEMORY));
  for (unsigned i = 0; i < PCI_MAX_BARS; i++) f->bars[i] = (struct pci_bar){0};
  for (unsigned i = 0; i < count;) {
    uint32_t value = pci_read32(f, PCI_BAR0 + i * 4);
    uint32_t sizing = probe_bar_register(f, i, value);
    uint32_t upper = 0, upper_sizing = 0;
    bool is64 = !(value & BAR_IO) && (value & BAR_MEM_TYPE_MASK) == BAR_MEM_TYPE_64;
    if (is64 && i + 1 < count) {
      upper = pci_read32(f, PCI_BAR0 + (i + 1) * 4);
      upper_sizing = probe_bar_register(f, i + 1, upper);
    }
    unsigned used = (is64 && i + 1 == count) ? 0 : pci_bar_decode(value, sizing, upper,
                                                                  upper_sizing, &f->bars[i]);
    if (used == 0) {
      char name[16];
      pci_function_name(f, name);
      log_warn("%s: BAR%u value 0x%08x has an invalid type, ignored", name, i, value);
      f->bars[i] = (struct pci_bar){0};
      used = 1;
    }
    i += used;
  }
  if (cmd & (PCI_COMMAND_IO | PCI_COMMAND_MEMORY)) pci_write16(f, PCI_COMMAND, cmd);
  f->bars_sized = true;
}
