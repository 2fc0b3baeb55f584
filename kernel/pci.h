/*
 * pci.h - PCI Express functions through ECAM: enumeration, configuration
 * space access, BARs, capabilities, and the driver registry.
 *
 * Every function of every bus the MCFG table describes is found at boot
 * (pci_init) and kept in a table; drivers declare themselves with
 * PCI_DRIVER() and are probed for the functions they match
 * (pci_probe_drivers), so kernel/ never includes drivers/.
 *
 * Sources: PCI Local Bus Specification 3.0 (6.1 configuration header, 6.2.5
 * BARs, 6.7 capability list); PCI Express Base Specification 6.0 (7.2.2
 * ECAM, 7.5.1 header, 7.6 extended capabilities); PCI Code and ID Assignment
 * Specification 1.11 (class codes, capability IDs: section 2 and 3).
 */
#ifndef KERNEL_PCI_H
#define KERNEL_PCI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- Configuration header (PCI 3.0, 6.1, Figure 6-1) --------------------- */
#define PCI_VENDOR_ID       0x00
#define PCI_DEVICE_ID       0x02
#define PCI_COMMAND         0x04
#define PCI_STATUS          0x06
#define PCI_REVISION_ID     0x08 /* then prog-if 0x09, subclass 0x0a, class 0x0b */
#define PCI_HEADER_TYPE     0x0e
#define PCI_BAR0            0x10
#define PCI_SUBSYSTEM_VENDOR_ID 0x2c /* header type 0 */
#define PCI_SUBSYSTEM_ID    0x2e
#define PCI_CAPABILITY_LIST 0x34
#define PCI_INTERRUPT_LINE  0x3c
#define PCI_INTERRUPT_PIN   0x3d
#define PCI_SECONDARY_BUS   0x19 /* header type 1 (bridge) */

#define PCI_COMMAND_IO             (1u << 0)
#define PCI_COMMAND_MEMORY         (1u << 1)
#define PCI_COMMAND_BUS_MASTER     (1u << 2)
#define PCI_COMMAND_INTX_DISABLE   (1u << 10)
#define PCI_STATUS_CAPABILITIES    (1u << 4)
#define PCI_HEADER_TYPE_MASK       0x7f
#define PCI_HEADER_MULTIFUNCTION   0x80
#define PCI_HEADER_TYPE_NORMAL     0
#define PCI_HEADER_TYPE_BRIDGE     1

/* Capability IDs (Code and ID Assignment 1.11, section 2). */
#define PCI_CAP_PM        0x01
#define PCI_CAP_MSI       0x05
#define PCI_CAP_VENDOR    0x09
#define PCI_CAP_SECURE    0x0f /* AMD IOMMU capability block (AMD IOMMU spec 3.x, 3.7) */
#define PCI_CAP_PCIE      0x10
#define PCI_CAP_MSIX      0x11
/* Extended capability IDs (Code and ID Assignment 1.11, section 3). */
#define PCI_EXT_CAP_AER   0x0001
#define PCI_EXT_CAP_VENDOR 0x000b
#define PCI_EXT_CAP_ACS   0x000d
#define PCI_EXT_CAP_ARI   0x000e
#define PCI_EXT_CAP_ATS   0x000f
#define PCI_EXT_CAP_SRIOV 0x0010
#define PCI_EXT_CAP_PRI   0x0013
#define PCI_EXT_CAP_REBAR 0x0015
#define PCI_EXT_CAP_PASID 0x001b

/* Extended configuration space starts here (PCIe 6.0, 7.6). */
#define PCI_EXT_CAP_START 0x100
#define PCI_CONFIG_SIZE   4096

/* ---- BARs (PCI 3.0, 6.2.5.1) ------------------------------------------------ */
enum pci_bar_kind { PCI_BAR_NONE = 0, PCI_BAR_IO, PCI_BAR_MEM32, PCI_BAR_MEM64 };

struct pci_bar {
  enum pci_bar_kind kind;
  bool prefetchable;
  uint64_t base; /* bus address = physical address (no translation on x86) */
  uint64_t size; /* bytes; 0 when the BAR is not implemented */
};

#define PCI_MAX_BARS 6

/* Decodes one BAR from its value and the value read back after writing all
 * ones (and, for a 64-bit BAR, the same pair of the next register). Returns
 * how many BAR registers it spans (1, or 2 for 64-bit), or 0 when the
 * encoding is invalid (reserved memory type): then out->kind is NONE. */
unsigned pci_bar_decode(uint32_t value, uint32_t sizing, uint32_t upper_value,
                        uint32_t upper_sizing, struct pci_bar *out);

/* ---- Functions ----------------------------------------------------------- */
struct pci_driver;
struct msi_state;

struct pci_function {
  uint16_t segment;
  uint8_t bus, device, function;
  uint16_t vendor_id, device_id;
  uint16_t subsystem_vendor_id, subsystem_id;
  uint8_t class_code, subclass, prog_if, revision;
  uint8_t header_type; /* without the multi-function bit */
  uint8_t interrupt_pin; /* 0 none, 1-4 INTA-INTD */
  volatile uint8_t *config; /* this function's 4 KiB ECAM window */
  struct pci_bar bars[PCI_MAX_BARS]; /* valid once bars_sized */
  bool bars_sized;
  /* Offsets of the capabilities drivers ask for most (0 = absent). */
  uint8_t pm_cap, msi_cap, msix_cap, pcie_cap;
  uint16_t ats_ecap, pasid_ecap, pri_ecap;
  const struct pci_driver *driver; /* bound driver, or NULL */
  void *driver_data;
  struct msi_state *msi; /* MSI/MSI-X vectors (kernel/msi.h), or NULL */
};

/* class << 16 | subclass << 8 | prog_if, the form drivers match on. */
static inline uint32_t pci_class24(const struct pci_function *f) {
  return (uint32_t)f->class_code << 16 | (uint32_t)f->subclass << 8 | f->prog_if;
}

/* Configuration space accessors. ECAM needs naturally aligned accesses of
 * the register's width (PCIe 6.0, 7.2.2.2); the offset is reduced to the
 * aligned offset inside the 4 KiB window, so a bad offset cannot reach
 * another function's space. */
static inline uint8_t pci_read8(const struct pci_function *f, unsigned off) {
  return *(volatile uint8_t *)(f->config + (off & 0xfff));
}
static inline uint16_t pci_read16(const struct pci_function *f, unsigned off) {
  return *(volatile uint16_t *)(f->config + (off & 0xffe));
}
static inline uint32_t pci_read32(const struct pci_function *f, unsigned off) {
  return *(volatile uint32_t *)(f->config + (off & 0xffc));
}
static inline void pci_write8(const struct pci_function *f, unsigned off, uint8_t v) {
  *(volatile uint8_t *)(f->config + (off & 0xfff)) = v;
}
static inline void pci_write16(const struct pci_function *f, unsigned off, uint16_t v) {
  *(volatile uint16_t *)(f->config + (off & 0xffe)) = v;
}
static inline void pci_write32(const struct pci_function *f, unsigned off, uint32_t v) {
  *(volatile uint32_t *)(f->config + (off & 0xffc)) = v;
}

/* Reads the identity, class, header type and capability offsets of the
 * function whose ECAM window is `config`. False if no function is there
 * (vendor ID 0xffff). BARs are not touched (see pci_size_bars). */
bool pci_function_probe(struct pci_function *f, volatile uint8_t *config, uint16_t segment,
                        uint8_t bus, uint8_t device, uint8_t function);

/* Finds every function on buses [bus_start, bus_end] of an ECAM window
 * whose bus 0 is at `ecam` (bus N at ecam + (N << 20)), appending up to
 * `max` to `out`. Every bus of the range is scanned, so functions behind
 * bridges the firmware numbered are found without walking bridges. Returns
 * how many were found; more than `max` are counted but not stored. */
unsigned pci_scan_ecam(volatile uint8_t *ecam, uint16_t segment, uint8_t bus_start,
                       uint8_t bus_end, struct pci_function *out, unsigned max);

/* Capability offsets, 0 if absent. `after` = 0 starts from the beginning;
 * pass a previous result to find the next capability with the same ID. The
 * lists come from the device: loops and pointers outside the space end the
 * walk with a log line. */
unsigned pci_find_capability(const struct pci_function *f, uint8_t id, unsigned after);
unsigned pci_find_ext_capability(const struct pci_function *f, uint16_t id, unsigned after);

/* Sizes every BAR (decoding switched off meanwhile, then restored) and
 * fills f->bars. Writes the device: image only. */
void pci_size_bars(struct pci_function *f);

/* Whether a registered driver handles f (pci_probe_function_list would
 * offer it to one). */
bool pci_driver_matches(const struct pci_function *f);

/* Command register bits: memory (and I/O) decoding, bus mastering. */
void pci_enable_memory(struct pci_function *f);
void pci_enable_bus_master(struct pci_function *f);
void pci_set_command_bits(struct pci_function *f, uint16_t set, uint16_t clear);

/* "sss:bb:dd.f" for logs. */
void pci_function_name(const struct pci_function *f, char out[16]);

/* ---- Drivers ------------------------------------------------------------- */
#define PCI_ANY_ID 0xffff

/* One thing a driver handles: vendor and device (PCI_ANY_ID = any), and the
 * class bits selected by class_mask (0 = any class). */
struct pci_match {
  uint16_t vendor_id, device_id;
  uint32_t class24, class_mask;
};
#define PCI_MATCH_ID(vendor, device) {(vendor), (device), 0, 0}
#define PCI_MATCH_CLASS(class24, mask) {PCI_ANY_ID, PCI_ANY_ID, (class24), (mask)}

struct pci_driver {
  const char *name;
  const struct pci_match *matches; /* ends with a zeroed entry */
  /* Lower first: the IOMMU driver uses PCI_ORDER_IOMMU so that DMA is
   * translated before any other driver enables bus mastering. */
  int probe_order;
  /* Binds the driver to f: 0, or a negative errno (the function stays
   * unbound and the failure is logged). */
  int (*probe)(struct pci_function *f, const struct pci_match *match);
};
#define PCI_ORDER_IOMMU  0
#define PCI_ORDER_DEVICE 100

/* Declares a driver (in any file linked into the image):
 *   PCI_DRIVER(amdgpu_driver) = {.name = "amdgpu", .matches = ..., .probe = ...};
 * It lands in linker section "pci_drivers", walked by pci_probe_drivers. */
#define PCI_DRIVER(var)                                                        \
  const struct pci_driver var __attribute__((used, section("pci_drivers"), aligned(8)))

/* The entry of `matches` that f satisfies, or NULL. */
const struct pci_match *pci_match_function(const struct pci_match *matches,
                                           const struct pci_function *f);

/* Offers every unbound function of the array to the registered drivers,
 * lowest probe_order first. Returns how many functions are bound. */
unsigned pci_probe_function_list(struct pci_function *functions, unsigned count);

/* ---- The machine's functions (image) -------------------------------------- */
/* Enumerates every ECAM window of the MCFG table and lists the functions
 * in the log. Returns the number of functions, or -ENODEV without MCFG.
 * A function's BARs are sized when it is first used: before a driver's
 * probe; other code that uses a function's BARs calls pci_function_bars. */
int pci_init(void);
/* Probes the registered drivers (by probe_order) for unbound functions. */
void pci_probe_drivers(void);
/* Sizes f's BARs once (pci_size_bars), lists them in the log (debug) and
 * maps its memory BARs uncached. 0, or -EIO when a BAR cannot be mapped. */
int pci_function_bars(struct pci_function *f);
unsigned pci_function_count(void);
struct pci_function *pci_function_at(unsigned index);
/* The index-th function (0, 1, ...) with this vendor/device (PCI_ANY_ID =
 * any), or the function at an address. */
struct pci_function *pci_find_device(uint16_t vendor_id, uint16_t device_id, unsigned index);
struct pci_function *pci_find_address(uint16_t segment, uint8_t bus, uint8_t device,
                                      uint8_t function);

#endif
