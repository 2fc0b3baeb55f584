/*
 * pci_test_config.h - a PCI configuration space in memory for host tests:
 * an ECAM window of a few buses filled with 0xff (no device), and helpers
 * to place functions and capabilities in it.
 */
#ifndef TESTS_HOST_PCI_TEST_CONFIG_H
#define TESTS_HOST_PCI_TEST_CONFIG_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/pci.h"

struct fake_ecam {
  uint8_t *base;
  unsigned buses;
};

static inline struct fake_ecam fake_ecam_new(unsigned buses) {
  struct fake_ecam e = {malloc((size_t)buses << 20), buses};
  memset(e.base, 0xff, (size_t)buses << 20);
  return e;
}

static inline void fake_ecam_free(struct fake_ecam *e) { free(e->base); }

static inline uint8_t *fake_config(struct fake_ecam *e, unsigned bus, unsigned dev, unsigned fn) {
  return e->base + ((size_t)bus << 20 | dev << 15 | fn << 12);
}

static inline void put16(uint8_t *c, unsigned off, uint16_t v) { memcpy(c + off, &v, 2); }
static inline void put32(uint8_t *c, unsigned off, uint32_t v) { memcpy(c + off, &v, 4); }

/* A type-0 function with the given identity and class (class << 16 |
 * subclass << 8 | prog_if); no capabilities; the rest of its space zero. */
static inline uint8_t *fake_function(struct fake_ecam *e, unsigned bus, unsigned dev, unsigned fn,
                                     uint16_t vendor, uint16_t device, uint32_t class24,
                                     bool multifunction) {
  uint8_t *c = fake_config(e, bus, dev, fn);
  memset(c, 0, 4096);
  put16(c, PCI_VENDOR_ID, vendor);
  put16(c, PCI_DEVICE_ID, device);
  put32(c, PCI_REVISION_ID, class24 << 8 | 0x01);
  c[PCI_HEADER_TYPE] = multifunction ? PCI_HEADER_MULTIFUNCTION : 0;
  return c;
}

/* Appends capability `id` at `off` to the list (the list is kept in the
 * order of calls). */
static inline void fake_add_capability(uint8_t *c, uint8_t id, uint8_t off) {
  c[off] = id;
  c[off + 1] = 0;
  if (!(c[PCI_STATUS] & PCI_STATUS_CAPABILITIES)) {
    c[PCI_STATUS] |= PCI_STATUS_CAPABILITIES;
    c[PCI_CAPABILITY_LIST] = off;
    return;
  }
  unsigned p = c[PCI_CAPABILITY_LIST];
  while (c[p + 1]) p = c[p + 1];
  c[p + 1] = off;
}

/* Appends extended capability `id` at `off` (>= 0x100). */
static inline void fake_add_ext_capability(uint8_t *c, uint16_t id, uint16_t off) {
  put32(c, off, id | 1u << 16);
  if (off == PCI_EXT_CAP_START) return;
  unsigned p = PCI_EXT_CAP_START;
  for (;;) {
    uint32_t h;
    memcpy(&h, c + p, 4);
    if ((h >> 20) == 0) {
      put32(c, p, h | (uint32_t)off << 20);
      return;
    }
    p = h >> 20;
  }
}

#endif
