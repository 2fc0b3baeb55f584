/*
 * acpi_madt.c - the Multiple APIC Description Table: processors, I/O APICs,
 * interrupt source overrides, local APIC NMI pins (portable).
 *
 * Source: ACPI Specification 6.5, 5.2.12 (Table 5.43 MADT, Table 5.45 entry
 * types; Processor Local APIC 5.2.12.2, I/O APIC 5.2.12.3, Interrupt Source
 * Override 5.2.12.5, Local APIC NMI 5.2.12.7, Local APIC Address Override
 * 5.2.12.8, Processor Local x2APIC 5.2.12.12, Local x2APIC NMI 5.2.12.13).
 */
#define LOG_TAG "acpi"
#include <errno.h>
#include <string.h>

#include "kernel/acpi.h"
#include "lib/plat.h"

struct madt_fixed {
  struct acpi_header header;
  uint32_t lapic_address;
  uint32_t flags; /* bit 0 PCAT_COMPAT */
} __attribute__((packed));

enum madt_type {
  MADT_LAPIC = 0,
  MADT_IOAPIC = 1,
  MADT_OVERRIDE = 2,
  MADT_LAPIC_NMI = 4,
  MADT_LAPIC_ADDRESS = 5,
  MADT_X2APIC = 9,
  MADT_X2APIC_NMI = 0xa,
};

struct madt_lapic {
  uint8_t type, length, uid, apic_id;
  uint32_t flags;
} __attribute__((packed));

struct madt_ioapic {
  uint8_t type, length, id, reserved;
  uint32_t address, gsi_base;
} __attribute__((packed));

struct madt_override {
  uint8_t type, length, bus, source;
  uint32_t gsi;
  uint16_t flags;
} __attribute__((packed));

struct madt_lapic_nmi {
  uint8_t type, length, uid;
  uint16_t flags;
  uint8_t lint;
} __attribute__((packed));

struct madt_lapic_address {
  uint8_t type, length;
  uint16_t reserved;
  uint64_t address;
} __attribute__((packed));

struct madt_x2apic {
  uint8_t type, length;
  uint16_t reserved;
  uint32_t x2apic_id, flags, uid;
} __attribute__((packed));

struct madt_x2apic_nmi {
  uint8_t type, length;
  uint16_t flags;
  uint32_t uid;
  uint8_t lint, reserved[3];
} __attribute__((packed));

#define MADT_CPU_ENABLED        (1u << 0) /* Table 5.47 */
#define MADT_CPU_ONLINE_CAPABLE (1u << 1)

/* The smallest legal length of each entry type we read; later revisions may
 * append fields, so longer entries are fine. */
static unsigned min_entry_length(uint8_t type) {
  switch (type) {
  case MADT_LAPIC: return sizeof(struct madt_lapic);
  case MADT_IOAPIC: return sizeof(struct madt_ioapic);
  case MADT_OVERRIDE: return sizeof(struct madt_override);
  case MADT_LAPIC_NMI: return sizeof(struct madt_lapic_nmi);
  case MADT_LAPIC_ADDRESS: return sizeof(struct madt_lapic_address);
  case MADT_X2APIC: return sizeof(struct madt_x2apic);
  case MADT_X2APIC_NMI: return sizeof(struct madt_x2apic_nmi);
  default: return 2;
  }
}

static void add_cpu(struct acpi_madt *m, uint32_t apic_id, uint32_t uid, uint32_t flags) {
  for (unsigned i = 0; i < m->cpu_count; i++) {
    if (m->cpus[i].apic_id == apic_id) {
      log_warn("MADT: APIC ID %u listed twice, second entry ignored", apic_id);
      return;
    }
  }
  if (m->cpu_count == ACPI_MAX_CPUS) {
    log_warn("MADT: more than %d processors, APIC ID %u ignored", ACPI_MAX_CPUS, apic_id);
    return;
  }
  struct acpi_madt_cpu *c = &m->cpus[m->cpu_count++];
  c->apic_id = apic_id;
  c->uid = uid;
  c->enabled = flags & MADT_CPU_ENABLED;
  c->online_capable = !c->enabled && (flags & MADT_CPU_ONLINE_CAPABLE);
}

static void add_lapic_nmi(struct acpi_madt *m, uint32_t uid, uint8_t lint, uint16_t flags) {
  if (m->lapic_nmi_count == ACPI_MAX_LAPIC_NMI) {
    log_warn("MADT: more than %d local APIC NMI entries, rest ignored", ACPI_MAX_LAPIC_NMI);
    return;
  }
  m->lapic_nmis[m->lapic_nmi_count++] = (struct acpi_madt_lapic_nmi){uid, lint, flags};
}

static int parse_entry(struct acpi_madt *m, const uint8_t *e) {
  switch (e[0]) {
  case MADT_LAPIC: {
    const struct madt_lapic *p = (const void *)e;
    add_cpu(m, p->apic_id, p->uid, p->flags);
    break;
  }
  case MADT_X2APIC: {
    const struct madt_x2apic *p = (const void *)e;
    add_cpu(m, p->x2apic_id, p->uid, p->flags);
    break;
  }
  case MADT_IOAPIC: {
    const struct madt_ioapic *p = (const void *)e;
    if (p->address == 0) {
      log_warn("MADT: I/O APIC %u has address 0", p->id);
      return -EINVAL;
    }
    if (m->ioapic_count == ACPI_MAX_IOAPICS) {
      log_warn("MADT: more than %d I/O APICs, ID %u ignored", ACPI_MAX_IOAPICS, p->id);
      break;
    }
    m->ioapics[m->ioapic_count++] = (struct acpi_madt_ioapic){p->id, p->gsi_base, p->address};
    break;
  }
  case MADT_OVERRIDE: {
    const struct madt_override *p = (const void *)e;
    if (m->override_count == ACPI_MAX_OVERRIDES) {
      log_warn("MADT: more than %d interrupt overrides, IRQ %u ignored", ACPI_MAX_OVERRIDES,
               p->source);
      break;
    }
    m->overrides[m->override_count++] =
        (struct acpi_madt_override){p->bus, p->source, p->gsi, p->flags};
    break;
  }
  case MADT_LAPIC_NMI: {
    const struct madt_lapic_nmi *p = (const void *)e;
    add_lapic_nmi(m, p->uid == 0xff ? ACPI_MADT_ALL_CPUS : p->uid, p->lint, p->flags);
    break;
  }
  case MADT_X2APIC_NMI: {
    const struct madt_x2apic_nmi *p = (const void *)e;
    add_lapic_nmi(m, p->uid, p->lint, p->flags);
    break;
  }
  case MADT_LAPIC_ADDRESS: {
    const struct madt_lapic_address *p = (const void *)e;
    m->lapic_address = p->address; /* 5.2.12.8: replaces the 32-bit header field */
    break;
  }
  default: m->ignored_entries++; break;
  }
  return 0;
}

int acpi_parse_madt(const struct acpi_header *t, struct acpi_madt *out) {
  memset(out, 0, sizeof(*out));
  if (t->length < sizeof(struct madt_fixed)) {
    log_warn("MADT: length %u shorter than its fixed part", t->length);
    return -EINVAL;
  }
  const struct madt_fixed *f = (const void *)t;
  out->lapic_address = f->lapic_address;
  out->pcat_compat = f->flags & 1;
  const uint8_t *base = (const uint8_t *)t;
  for (uint32_t off = sizeof(*f); off < t->length;) {
    const uint8_t *e = base + off;
    if (t->length - off < 2 || e[1] < min_entry_length(e[0]) || e[1] > t->length - off) {
      log_warn("MADT: entry type %u at offset %u has bad length %u (table %u bytes), table ignored",
               e[0], off, t->length - off < 2 ? 0 : e[1], t->length);
      memset(out, 0, sizeof(*out));
      return -EINVAL;
    }
    if (parse_entry(out, e) != 0) {
      memset(out, 0, sizeof(*out));
      return -EINVAL;
    }
    off += e[1];
  }
  if (out->lapic_address == 0 || out->cpu_count == 0) {
    log_warn("MADT: no local APIC address or no processor, table ignored");
    memset(out, 0, sizeof(*out));
    return -EINVAL;
  }
  return 0;
}
