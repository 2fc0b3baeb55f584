/*
 * acpi_tables.c - the small fixed-layout tables: MCFG and HPET (portable).
 *
 * Sources: PCI Firmware Specification 3.3, 4.1.2, Tables 4-2 and 4-3 (MCFG);
 * IA-PC HPET Specification 1.0a, 3.2.4, Table 3 (HPET).
 */
#define LOG_TAG "acpi"
#include <errno.h>
#include <string.h>

#include "kernel/acpi.h"
#include "lib/plat.h"

struct mcfg_entry {
  uint64_t base;
  uint16_t segment;
  uint8_t bus_start, bus_end;
  uint32_t reserved;
} __attribute__((packed));

struct mcfg_fixed {
  struct acpi_header header;
  uint64_t reserved;
} __attribute__((packed));

/* Bus N of a segment is at base + (N << 20): each bus has 32 devices x 8
 * functions x 4 KiB (PCI Express Base 6.0, 7.2.2 "ECAM"). */
#define ECAM_BUS_BYTES (1ull << 20)

int acpi_parse_mcfg(const struct acpi_header *t, struct acpi_mcfg *out) {
  memset(out, 0, sizeof(*out));
  if (t->length < sizeof(struct mcfg_fixed) ||
      (t->length - sizeof(struct mcfg_fixed)) % sizeof(struct mcfg_entry) != 0) {
    log_warn("MCFG: length %u is not the fixed part plus whole 16-byte entries", t->length);
    return -EINVAL;
  }
  unsigned n = (t->length - sizeof(struct mcfg_fixed)) / sizeof(struct mcfg_entry);
  const struct mcfg_entry *e = (const void *)((const uint8_t *)t + sizeof(struct mcfg_fixed));
  for (unsigned i = 0; i < n; i++) {
    if (e[i].bus_end < e[i].bus_start || e[i].base == 0 || e[i].base % ECAM_BUS_BYTES != 0) {
      log_warn("MCFG: entry %u (segment %u, base 0x%llx, buses %u-%u) is invalid, table ignored",
               i, e[i].segment, (unsigned long long)e[i].base, e[i].bus_start, e[i].bus_end);
      memset(out, 0, sizeof(*out));
      return -EINVAL;
    }
    if (out->count == ACPI_MAX_PCI_SEGMENTS) {
      log_warn("MCFG: more than %d ECAM windows, segment %u ignored", ACPI_MAX_PCI_SEGMENTS,
               e[i].segment);
      continue;
    }
    out->segments[out->count++] =
        (struct acpi_mcfg_segment){e[i].base, e[i].segment, e[i].bus_start, e[i].bus_end};
  }
  if (out->count == 0) {
    log_warn("MCFG: no ECAM window");
    return -EINVAL;
  }
  return 0;
}

struct hpet_table {
  struct acpi_header header;
  uint32_t event_timer_block_id;
  struct acpi_gas base;
  uint8_t number;
  uint16_t min_tick;
  uint8_t page_protection;
} __attribute__((packed));

int acpi_parse_hpet(const struct acpi_header *t, struct acpi_hpet *out) {
  memset(out, 0, sizeof(*out));
  if (t->length < sizeof(struct hpet_table)) {
    log_warn("HPET: length %u shorter than %zu", t->length, sizeof(struct hpet_table));
    return -EINVAL;
  }
  const struct hpet_table *h = (const void *)t;
  /* The HPET is memory-mapped (HPET 1.0a, 2.3: "memory-mapped space"). */
  if (h->base.space_id != ACPI_SPACE_MEMORY || h->base.address == 0) {
    log_warn("HPET: register block in address space %u at 0x%llx is not usable",
             h->base.space_id, (unsigned long long)h->base.address);
    return -EINVAL;
  }
  out->event_timer_block_id = h->event_timer_block_id;
  out->address = h->base.address;
  out->number = h->number;
  out->min_tick = h->min_tick;
  out->page_protection = h->page_protection;
  return 0;
}
