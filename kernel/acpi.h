/*
 * acpi.h - the firmware's ACPI tables: found from the RSDP, checked, listed,
 * and the ones the kernel needs parsed into plain structs (MADT, MCFG, HPET,
 * FADT). Other tables (IVRS for the IOMMU driver, CRAT, ...) are handed out
 * raw by signature.
 *
 * The parser is portable: it reaches physical memory only through an
 * acpi_map_fn, so host tests run it on tables recorded from QEMU
 * (tests/data/acpi/) and on corrupted copies of them. A table whose
 * checksum or length is wrong is reported and skipped, never trusted.
 *
 * Sources: ACPI Specification 6.5, chapter 5.2 (RSDP 5.2.5, header 5.2.6,
 * RSDT 5.2.7, XSDT 5.2.8, FADT 5.2.9, MADT 5.2.12, GAS 5.2.3.2);
 * PCI Firmware Specification 3.3, 4.1.2 (MCFG);
 * IA-PC HPET Specification 1.0a, 3.2.4 (HPET description table).
 */
#ifndef KERNEL_ACPI_H
#define KERNEL_ACPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- Formats (packed: firmware lays them out without padding) ---------- */

/* ACPI 6.5, 5.2.6, Table 5.4: the header every description table starts with. */
struct acpi_header {
  char signature[4];
  uint32_t length; /* of the whole table, header included */
  uint8_t revision;
  uint8_t checksum; /* all `length` bytes sum to 0 (mod 256) */
  char oem_id[6];
  char oem_table_id[8];
  uint32_t oem_revision;
  uint32_t creator_id;
  uint32_t creator_revision;
} __attribute__((packed));

/* ACPI 6.5, 5.2.3.2, Table 5.1: Generic Address Structure. */
struct acpi_gas {
  uint8_t space_id; /* enum acpi_address_space */
  uint8_t bit_width;
  uint8_t bit_offset;
  uint8_t access_size; /* 0 undefined, 1 byte, 2 word, 3 dword, 4 qword */
  uint64_t address;
} __attribute__((packed));

enum acpi_address_space { /* ACPI 6.5, Table 5.1, Address Space ID */
  ACPI_SPACE_MEMORY = 0,
  ACPI_SPACE_IO = 1,
  ACPI_SPACE_PCI_CONFIG = 2,
};

/* How the parser reads physical memory: a pointer to `len` readable bytes at
 * physical address `phys`, or NULL when that range may not be read. The
 * image maps identically; host tests serve recorded tables. */
typedef const void *(*acpi_map_fn)(void *ctx, uint64_t phys, size_t len);

/* ---- What the parser gives back ---------------------------------------- */

/* A table that passed the checks. `data` points at its header, `length`
 * bytes long. */
struct acpi_table {
  char signature[5]; /* NUL-terminated */
  uint64_t phys;
  uint32_t length;
  uint8_t revision;
  char oem_id[7];
  char oem_table_id[9];
  const struct acpi_header *data;
};

/* MADT (ACPI 6.5, 5.2.12). Processor entries of type 0 (Local APIC) and
 * type 9 (Local x2APIC) both land in cpus[]. */
struct acpi_madt_cpu {
  uint32_t apic_id;
  uint32_t uid;        /* ACPI processor UID */
  bool enabled;        /* flags bit 0 */
  bool online_capable; /* flags bit 1: may be enabled later (not started now) */
};

struct acpi_madt_ioapic {
  uint32_t id;
  uint32_t gsi_base; /* first global system interrupt of its inputs */
  uint64_t address;
};

/* Interrupt Source Override: ISA IRQ `source` arrives on `gsi`. `flags` are
 * the MPS INTI flags (ACPI 6.5, Table 5.50): polarity bits 1:0, trigger 3:2. */
struct acpi_madt_override {
  uint8_t bus;
  uint8_t source;
  uint32_t gsi;
  uint16_t flags;
};

#define ACPI_INTI_POLARITY_MASK 0x3
#define ACPI_INTI_POLARITY_HIGH 0x1
#define ACPI_INTI_POLARITY_LOW  0x3
#define ACPI_INTI_TRIGGER_MASK  0xc
#define ACPI_INTI_TRIGGER_EDGE  0x4
#define ACPI_INTI_TRIGGER_LEVEL 0xc

/* Local APIC NMI (types 4 and 0xA): which LINT pin of which processor
 * (uid ACPI_MADT_ALL_CPUS = every processor) carries NMI. */
struct acpi_madt_lapic_nmi {
  uint32_t uid;
  uint8_t lint;
  uint16_t flags;
};
#define ACPI_MADT_ALL_CPUS 0xffffffffu

#define ACPI_MAX_CPUS      256
#define ACPI_MAX_IOAPICS   16
#define ACPI_MAX_OVERRIDES 32
#define ACPI_MAX_LAPIC_NMI 32

struct acpi_madt {
  uint64_t lapic_address; /* from the header, or a type 5 override */
  bool pcat_compat;       /* flags bit 0: dual 8259s present (mask them) */
  unsigned cpu_count;
  struct acpi_madt_cpu cpus[ACPI_MAX_CPUS];
  unsigned ioapic_count;
  struct acpi_madt_ioapic ioapics[ACPI_MAX_IOAPICS];
  unsigned override_count;
  struct acpi_madt_override overrides[ACPI_MAX_OVERRIDES];
  unsigned lapic_nmi_count;
  struct acpi_madt_lapic_nmi lapic_nmis[ACPI_MAX_LAPIC_NMI];
  unsigned ignored_entries; /* entries of types we do not use (listed in the log) */
};

/* MCFG (PCI Firmware Spec 3.3, 4.1.2, Table 4-3): one ECAM window per PCI
 * segment group; bus N of the segment is at base + (N << 20). */
struct acpi_mcfg_segment {
  uint64_t base;
  uint16_t segment;
  uint8_t bus_start;
  uint8_t bus_end;
};
#define ACPI_MAX_PCI_SEGMENTS 8
struct acpi_mcfg {
  unsigned count;
  struct acpi_mcfg_segment segments[ACPI_MAX_PCI_SEGMENTS];
};

/* HPET description table (IA-PC HPET 1.0a, 3.2.4, Table 3). */
struct acpi_hpet {
  uint32_t event_timer_block_id; /* copy of the capabilities register's low half */
  uint64_t address;              /* MMIO base of the register block */
  uint8_t number;                /* HPET sequence number */
  uint16_t min_tick;             /* minimum periodic tick in counter ticks */
  uint8_t page_protection;
};

/* FADT (ACPI 6.5, 5.2.9, Table 5.9). Legacy 32-bit block addresses are
 * turned into GAS form; the X_ fields win when they are set. A register the
 * firmware does not provide has address 0. */
struct acpi_fadt {
  uint8_t revision;
  uint32_t flags;     /* ACPI_FADT_* */
  uint16_t boot_arch; /* IA-PC boot architecture flags, ACPI_BOOT_ARCH_* */
  uint16_t sci_irq;
  uint32_t smi_cmd;   /* I/O port; 0 = ACPI is always enabled */
  uint8_t acpi_enable, acpi_disable;
  uint64_t dsdt;      /* physical address */
  uint64_t facs;
  struct acpi_gas pm1a_event, pm1b_event;
  struct acpi_gas pm1a_control, pm1b_control;
  struct acpi_gas pm_timer;
  bool pm_timer_32bit; /* flags.TMR_VAL_EXT; else the counter is 24 bits */
  struct acpi_gas reset_register;
  uint8_t reset_value;
  bool reset_supported; /* flags.RESET_REG_SUP */
  uint8_t century;      /* RTC CMOS index of the century, 0 = none */
  /* \_S5 from the DSDT: the SLP_TYP values that power the machine off
   * (written to PM1x_CNT.SLP_TYP with SLP_EN, ACPI 6.5, 4.8.3.2.1 and 16.1.7). */
  bool s5_found;
  uint8_t s5_slp_typ_a, s5_slp_typ_b;
};

#define ACPI_FADT_TMR_VAL_EXT   (1u << 8)  /* ACPI 6.5, Table 5.10 */
#define ACPI_FADT_RESET_REG_SUP (1u << 10)
#define ACPI_FADT_HW_REDUCED    (1u << 20)
#define ACPI_BOOT_ARCH_LEGACY_DEVICES (1u << 0) /* ACPI 6.5, Table 5.11 */
#define ACPI_BOOT_ARCH_8042           (1u << 1)
#define ACPI_BOOT_ARCH_NO_VGA         (1u << 2)
#define ACPI_BOOT_ARCH_NO_MSI         (1u << 3)
#define ACPI_BOOT_ARCH_NO_CMOS_RTC    (1u << 5)
#define ACPI_PM_TIMER_HZ 3579545u /* ACPI 6.5, 4.8.3.3 "Power Management Timer" */

#define ACPI_MAX_TABLES 64

struct acpi_info {
  uint64_t rsdp_phys;
  uint8_t rsdp_revision;
  char oem_id[7];
  bool xsdt_used;   /* false: the 32-bit RSDT was used */
  uint64_t root_phys;
  unsigned table_count;
  struct acpi_table tables[ACPI_MAX_TABLES];
  unsigned rejected; /* entries of the root table that failed the checks */
  bool have_madt, have_mcfg, have_hpet, have_fadt;
  struct acpi_madt madt;
  struct acpi_mcfg mcfg;
  struct acpi_hpet hpet;
  struct acpi_fadt fadt;
};

/* Walks RSDP -> XSDT (or RSDT) -> tables (and FADT -> DSDT), keeps the
 * tables that pass the checks and parses MADT, MCFG, HPET and FADT. Returns
 * 0, or -EINVAL when the RSDP and both root tables are unusable (then no
 * table is listed). A bad individual table is logged and skipped; a bad
 * MADT/MCFG/HPET/FADT leaves have_* false. */
int acpi_parse(struct acpi_info *out, uint64_t rsdp_phys, acpi_map_fn map, void *ctx);

/* The index-th (0, 1, ...) table with this 4-character signature, or NULL. */
const struct acpi_table *acpi_find(const struct acpi_info *info, const char *signature,
                                   unsigned index);

/* The table parsers, also used on their own by tests. Each checks the
 * structure (entry lengths, counts, address spaces) and returns 0 or
 * -EINVAL with one log line naming what was wrong. `t` has already passed
 * the header checks (acpi_table_valid). */
int acpi_parse_madt(const struct acpi_header *t, struct acpi_madt *out);
int acpi_parse_mcfg(const struct acpi_header *t, struct acpi_mcfg *out);
int acpi_parse_hpet(const struct acpi_header *t, struct acpi_hpet *out);
int acpi_parse_fadt(const struct acpi_header *t, struct acpi_fadt *out);
/* Finds \_S5 in a DSDT or SSDT (AML Name(_S5_, Package(){a, b, ...})). */
bool acpi_find_s5(const struct acpi_header *t, uint8_t *slp_typ_a, uint8_t *slp_typ_b);

/* Checks a table's length (at least the header, at most `max_length`) and
 * checksum. */
bool acpi_table_valid(const struct acpi_header *t, size_t max_length);
uint8_t acpi_checksum(const void *p, size_t len);

/* ---- The machine's tables (image) ---------------------------------------- */

/* Parses the tables at the RSDP the boot loader found and lists them in the
 * log. Option "acpidump" also dumps every table in hex (to record them for
 * host tests: tests/data/acpi/README.md). */
int acpi_init(uint64_t rsdp_phys);
/* The machine's tables; valid after acpi_init (even when it failed: then
 * nothing is listed). */
const struct acpi_info *acpi_machine(void);
/* Shortcut: the machine's index-th table with this signature, or NULL. The
 * IOMMU driver takes IVRS from here and parses it itself. */
const struct acpi_table *acpi_machine_table(const char *signature, unsigned index);

#endif
