/*
 * ivrs.h - the ACPI I/O Virtualization Reporting Structure (IVRS): which
 * IOMMUs the machine has, which devices each one translates (and under which
 * requester ID), special devices (IOAPIC, HPET, ACPI devices) and the memory
 * ranges firmware needs devices to keep reaching (IVMD unity ranges).
 *
 * Portable: the parser works on the raw table bytes (the ACPI layer has
 * checked its checksum), so host tests run it on tables recorded from QEMU
 * (tests/data/iommu/) and on malformed ones. It does not log: a rejected
 * table leaves one message in ivrs_info.error and a tolerated oddity (a
 * reserved entry type it skips) one in ivrs_info.warnings, each naming the
 * offset and the value; ivrs_log() prints them.
 *
 * Facts: AMD IOMMU Specification 48882 rev 3.x, 5.2 "IVRS" (header and
 * IVinfo 5.2.1, IVHD types 10h/11h/40h 5.2.2, device entries 5.2.2.2-5.2.2.4,
 * IVMD types 20h-22h 5.2.3); Linux drivers/iommu/amd/init.c (struct
 * ivhd_header, ivhd_entry, ivmd_header, IVHD_DEV_*, the choice of one IVHD
 * type per IOMMU in get_highest_supported_ivhd_type()).
 */
#ifndef DRIVERS_IOMMU_IVRS_H
#define DRIVERS_IOMMU_IVRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A requester ID: PCI bus << 8 | device << 3 | function. */
#define IVRS_BDF(bus, dev, fn) ((uint16_t)(((bus) << 8) | ((dev) << 3) | (fn)))
#define IVRS_BUS(bdf)          ((unsigned)((bdf) >> 8))
#define IVRS_DEV(bdf)          ((unsigned)(((bdf) >> 3) & 0x1f))
#define IVRS_FN(bdf)           ((unsigned)((bdf)&7))

/* IVHD device entry "DTE setting" byte [48882 5.2.2.2], Linux ACPI_DEVFLAG_*:
 * what firmware wants in the device's DTE (interrupt pass-through, SysMgt). */
#define IVRS_DTE_INIT_PASS    0x01
#define IVRS_DTE_EINT_PASS    0x02
#define IVRS_DTE_NMI_PASS     0x04
#define IVRS_DTE_SYSMGT_SHIFT 4 /* 2 bits */
#define IVRS_DTE_LINT0_PASS   0x40
#define IVRS_DTE_LINT1_PASS   0x80

/* IVHD flags byte [48882 5.2.2.1], Linux IVHD_FLAG_*: features firmware
 * asks the driver to turn on in the control register. */
#define IVHD_FLAG_HT_TUN_EN   0x01
#define IVHD_FLAG_PASS_PW     0x02
#define IVHD_FLAG_RES_PASS_PW 0x04
#define IVHD_FLAG_ISOC        0x08

/* IVMD flags [48882 5.2.3], Linux IVMD_FLAG_*. */
#define IVMD_FLAG_UNITY 0x01
#define IVMD_FLAG_IR    0x02
#define IVMD_FLAG_IW    0x04
#define IVMD_FLAG_EXCL  0x08

/* IVinfo [48882 5.2.1], Linux IOMMU_IVINFO_*. */
#define IVINFO_EFR_SUP   (1u << 0)
#define IVINFO_DMA_REMAP (1u << 1)

/* A run of device IDs an IOMMU translates, from one select, range, alias or
 * extended entry. `requester` is the ID the devices' requests carry: the
 * alias for alias entries, else the device's own ID (requester == first ..
 * last then, see ivrs_requester_id). */
struct ivrs_devices {
  uint16_t first, last;
  uint8_t dte_setting;  /* IVRS_DTE_* */
  uint32_t ext_setting; /* extended entries (46h/47h); 0 otherwise */
  bool alias;
  uint16_t alias_id;
  uint8_t entry_type; /* the device entry type it came from (02h, 03h, 42h, ...) */
};

enum ivrs_special_kind { IVRS_SPECIAL_IOAPIC = 1, IVRS_SPECIAL_HPET = 2 };

/* Special device entry (48h): an IOAPIC or HPET (by its ID `handle` in the
 * MADT / HPET table) and the requester ID its interrupts carry. */
struct ivrs_special {
  enum ivrs_special_kind kind;
  uint8_t handle;
  uint16_t devid;
  uint8_t dte_setting;
};

/* ACPI device entry (F0h, IVHD type 40h only): a non-PCI device named by
 * its ACPI _HID/_CID/_UID and the requester ID it uses. */
struct ivrs_acpi_device {
  char hid[9], cid[9]; /* NUL-terminated */
  char uid[32];        /* "" when absent; integers printed in decimal */
  uint16_t devid;
  uint8_t dte_setting;
};

#define IVRS_MAX_IOMMUS       8
#define IVRS_MAX_DEVICE_RUNS  256
#define IVRS_MAX_SPECIALS     16
#define IVRS_MAX_ACPI_DEVICES 8
#define IVRS_MAX_IVMD         32
#define IVRS_MAX_WARNINGS     4

/* One IOMMU, from the IVHD block of the type the parser chose for it. */
struct ivrs_iommu {
  uint8_t ivhd_type;   /* 10h, 11h or 40h */
  uint8_t flags;       /* IVHD_FLAG_* */
  uint16_t devid;      /* the IOMMU's own PCI function */
  uint16_t cap_offset; /* of its capability block in PCI config space */
  uint64_t mmio_base;
  uint16_t segment;
  uint16_t info;       /* bits 4:0 MSI number, 12:8 HyperTransport unit ID */
  uint32_t attributes; /* type 10h: IOMMU Feature Reporting; 11h/40h: IOMMU Attributes */
  uint64_t efr_image;  /* types 11h/40h: copy of the EFR register; 0 for 10h */
  unsigned run_count;
  struct ivrs_devices runs[IVRS_MAX_DEVICE_RUNS];
  unsigned special_count;
  struct ivrs_special specials[IVRS_MAX_SPECIALS];
  unsigned acpi_count;
  struct ivrs_acpi_device acpi_devices[IVRS_MAX_ACPI_DEVICES];
  uint16_t last_devid;      /* highest device ID any entry names: sizes the device table */
  unsigned unknown_entries; /* reserved fixed-size entry types, skipped (logged) */
};

enum ivmd_scope { IVMD_ALL = 0x20, IVMD_ONE = 0x21, IVMD_RANGE = 0x22 };

/* A memory definition block: devices first..last (all devices for 20h) must
 * keep reaching [start, start + length) with the given permissions (unity
 * map) or are exempt from translation there (exclusion range). */
struct ivrs_ivmd {
  enum ivmd_scope scope;
  uint8_t flags; /* IVMD_FLAG_* */
  uint16_t segment;
  uint16_t first, last;
  uint64_t start, length;
};

struct ivrs_info {
  uint32_t ivinfo;
  unsigned iommu_count;
  struct ivrs_iommu iommus[IVRS_MAX_IOMMUS];
  unsigned ivmd_count;
  struct ivrs_ivmd ivmds[IVRS_MAX_IVMD];
  unsigned skipped_blocks; /* IVHD blocks of another type for an IOMMU, or unknown block types */
  unsigned warning_count;
  char warnings[IVRS_MAX_WARNINGS][160]; /* entries skipped, and why */
  char error[160];                       /* why ivrs_parse failed */
};

/* Parses a whole IVRS table (`len` bytes, starting with its ACPI header).
 * Returns 0, or -EINVAL with info->error saying what was
 * wrong: a length that does not fit, an unknown variable-length entry, a
 * range without end, an ACPI device entry outside a type 40h block,
 * overlapping device ranges, a device claimed by two IOMMUs, overlapping
 * IVMD ranges that conflict, too many entries for the fixed arrays. */
int ivrs_parse(const void *table, size_t len, struct ivrs_info *info);

/* The IOMMU that translates device `devid` of PCI segment `segment`, or NULL. */
const struct ivrs_iommu *ivrs_iommu_for(const struct ivrs_info *info, uint16_t segment,
                                        uint16_t devid);
/* The run that covers `devid` in `iommu` (the narrowest one when a select
 * entry refines a range), or NULL when the IOMMU does not list it. */
const struct ivrs_devices *ivrs_run_for(const struct ivrs_iommu *iommu, uint16_t devid);
/* The requester ID device `devid`'s DMA carries (its alias, or itself). */
uint16_t ivrs_requester_id(const struct ivrs_iommu *iommu, uint16_t devid);
/* True when the IVMD block applies to device `devid` of `segment`. */
bool ivrs_ivmd_applies(const struct ivrs_ivmd *m, uint16_t segment, uint16_t devid);

/* Lists the parsed table in the boot log, one line per IOMMU, run, special
 * device and IVMD block, then the warnings. */
void ivrs_log(const struct ivrs_info *info);

#endif
