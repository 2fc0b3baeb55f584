/*
 * acpi.c - from the RSDP to the list of checked tables (portable).
 *
 * Sources: ACPI Specification 6.5, 5.2.5 (RSDP, Table 5.3), 5.2.6 (header),
 * 5.2.7 (RSDT: 32-bit entries), 5.2.8 (XSDT: 64-bit entries).
 */
#define LOG_TAG "acpi"
#include "kernel/acpi.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "lib/plat.h"

/* ACPI 6.5, 5.2.5.3, Table 5.3. Revision 0 (ACPI 1.0) ends after rsdt_address:
 * the first checksum covers those 20 bytes; revision 2 adds the rest, covered
 * by extended_checksum over `length` bytes. */
struct acpi_rsdp {
  char signature[8]; /* "RSD PTR " */
  uint8_t checksum;
  char oem_id[6];
  uint8_t revision;
  uint32_t rsdt_address;
  uint32_t length;
  uint64_t xsdt_address;
  uint8_t extended_checksum;
  uint8_t reserved[3];
} __attribute__((packed));

#define RSDP_V1_LENGTH offsetof(struct acpi_rsdp, length)

/* No table we know of comes near this (DSDTs of big servers are a few
 * hundred KiB); a larger length is taken as corruption, not read. */
#define ACPI_MAX_TABLE_LENGTH (4u << 20)

uint8_t acpi_checksum(const void *p, size_t len) {
  const uint8_t *b = p;
  uint8_t sum = 0;
  for (size_t i = 0; i < len; i++) sum += b[i];
  return sum;
}

bool acpi_table_valid(const struct acpi_header *t, size_t max_length) {
  return t->length >= sizeof(struct acpi_header) && t->length <= max_length &&
         acpi_checksum(t, t->length) == 0;
}

/* Signatures come from untrusted memory: print them safely. */
static void printable_signature(const char *sig, char out[5]) {
  for (int i = 0; i < 4; i++) out[i] = (sig[i] >= 0x20 && sig[i] < 0x7f) ? sig[i] : '?';
  out[4] = '\0';
}

static void copy_trimmed(char *dst, const char *src, size_t n) {
  size_t len = 0;
  for (size_t i = 0; i < n && src[i]; i++) len = i + 1;
  while (len > 0 && src[len - 1] == ' ') len--;
  for (size_t i = 0; i < len; i++) dst[i] = (src[i] >= 0x20 && src[i] < 0x7f) ? src[i] : '?';
  dst[len] = '\0';
}

/* Maps the table at `phys` and checks header length and checksum (and the
 * signature when `expect` is given). NULL, with one log line, if bad. */
static const struct acpi_header *load_table(acpi_map_fn map, void *ctx, uint64_t phys,
                                            const char *expect) {
  const struct acpi_header *h = map(ctx, phys, sizeof(*h));
  if (!h) {
    log_warn("table at 0x%llx: not in readable memory, skipped", (unsigned long long)phys);
    return NULL;
  }
  char sig[5];
  printable_signature(h->signature, sig);
  if (expect && memcmp(h->signature, expect, 4) != 0) {
    log_warn("table at 0x%llx: signature '%s', expected '%s', skipped",
             (unsigned long long)phys, sig, expect);
    return NULL;
  }
  uint32_t len = h->length;
  if (len < sizeof(*h) || len > ACPI_MAX_TABLE_LENGTH) {
    log_warn("table %s at 0x%llx: length %u out of range [%zu, %u], skipped", sig,
             (unsigned long long)phys, len, sizeof(*h), ACPI_MAX_TABLE_LENGTH);
    return NULL;
  }
  h = map(ctx, phys, len);
  if (!h) {
    log_warn("table %s at 0x%llx: %u bytes not in readable memory, skipped", sig,
             (unsigned long long)phys, len);
    return NULL;
  }
  uint8_t sum = acpi_checksum(h, len);
  if (sum != 0) {
    log_warn("table %s at 0x%llx: checksum off by 0x%02x (length %u), skipped", sig,
             (unsigned long long)phys, sum, len);
    return NULL;
  }
  return h;
}

static void add_table(struct acpi_info *out, uint64_t phys, const struct acpi_header *h) {
  if (out->table_count == ACPI_MAX_TABLES) {
    char sig[5];
    printable_signature(h->signature, sig);
    log_warn("more than %d tables: %s at 0x%llx not listed", ACPI_MAX_TABLES, sig,
             (unsigned long long)phys);
    out->rejected++;
    return;
  }
  struct acpi_table *t = &out->tables[out->table_count++];
  printable_signature(h->signature, t->signature);
  t->phys = phys;
  t->length = h->length;
  t->revision = h->revision;
  copy_trimmed(t->oem_id, h->oem_id, sizeof(h->oem_id));
  copy_trimmed(t->oem_table_id, h->oem_table_id, sizeof(h->oem_table_id));
  t->data = h;
}

/* The RSDP: NULL if unusable. *xsdt_ok tells whether the revision-2 part
 * (and so the XSDT address) may be trusted. */
static const struct acpi_rsdp *load_rsdp(acpi_map_fn map, void *ctx, uint64_t phys,
                                         bool *xsdt_ok) {
  *xsdt_ok = false;
  const struct acpi_rsdp *r = map(ctx, phys, RSDP_V1_LENGTH);
  if (!r) {
    log_error("RSDP at 0x%llx: not in readable memory", (unsigned long long)phys);
    return NULL;
  }
  if (memcmp(r->signature, "RSD PTR ", 8) != 0) {
    log_error("RSDP at 0x%llx: bad signature", (unsigned long long)phys);
    return NULL;
  }
  uint8_t sum = acpi_checksum(r, RSDP_V1_LENGTH);
  if (sum != 0) {
    log_error("RSDP at 0x%llx: checksum off by 0x%02x", (unsigned long long)phys, sum);
    return NULL;
  }
  if (r->revision < 2) return r;
  r = map(ctx, phys, sizeof(*r));
  if (!r) {
    log_warn("RSDP revision 2 at 0x%llx: extension not readable, using the RSDT",
             (unsigned long long)phys);
    return map(ctx, phys, RSDP_V1_LENGTH);
  }
  if (r->length < sizeof(*r) || r->length > 4096 || !map(ctx, phys, r->length)) {
    log_warn("RSDP: length %u invalid, using the RSDT", r->length);
  } else if ((sum = acpi_checksum(map(ctx, phys, r->length), r->length)) != 0) {
    log_warn("RSDP: extended checksum off by 0x%02x, using the RSDT", sum);
  } else {
    *xsdt_ok = true;
  }
  return r;
}

/* Loads the root table and lists the tables it points to. entry_size 8 =
 * XSDT, 4 = RSDT. False (nothing listed) if the root table itself is bad. */
static bool walk_root(struct acpi_info *out, acpi_map_fn map, void *ctx, uint64_t root_phys,
                      unsigned entry_size) {
  const char *sig = entry_size == 8 ? "XSDT" : "RSDT";
  const struct acpi_header *root = load_table(map, ctx, root_phys, sig);
  if (!root) return false;
  size_t bytes = root->length - sizeof(*root);
  if (bytes % entry_size != 0) {
    log_warn("%s at 0x%llx: %zu bytes of entries is not a multiple of %u, not used", sig,
             (unsigned long long)root_phys, bytes, entry_size);
    return false;
  }
  out->xsdt_used = entry_size == 8;
  out->root_phys = root_phys;
  const uint8_t *entries = (const uint8_t *)(root + 1);
  for (size_t i = 0; i < bytes / entry_size; i++) {
    uint64_t phys = 0;
    memcpy(&phys, entries + i * entry_size, entry_size); /* little-endian; entries are unaligned */
    if (phys == 0) {
      log_warn("%s entry %zu: null address, skipped", sig, i);
      out->rejected++;
      continue;
    }
    const struct acpi_header *t = load_table(map, ctx, phys, NULL);
    if (t) {
      add_table(out, phys, t);
    } else {
      out->rejected++;
    }
  }
  return true;
}

/* The DSDT is not listed in the root table but named by the FADT. */
static void add_dsdt(struct acpi_info *out, acpi_map_fn map, void *ctx) {
  if (!out->fadt.dsdt) return;
  const struct acpi_header *dsdt = load_table(map, ctx, out->fadt.dsdt, "DSDT");
  if (!dsdt) {
    out->rejected++;
    return;
  }
  add_table(out, out->fadt.dsdt, dsdt);
  out->fadt.s5_found = acpi_find_s5(dsdt, &out->fadt.s5_slp_typ_a, &out->fadt.s5_slp_typ_b);
}

static void parse_known_tables(struct acpi_info *out) {
  const struct acpi_table *t;
  if ((t = acpi_find(out, "APIC", 0))) out->have_madt = acpi_parse_madt(t->data, &out->madt) == 0;
  if ((t = acpi_find(out, "MCFG", 0))) out->have_mcfg = acpi_parse_mcfg(t->data, &out->mcfg) == 0;
  if ((t = acpi_find(out, "HPET", 0))) out->have_hpet = acpi_parse_hpet(t->data, &out->hpet) == 0;
  if ((t = acpi_find(out, "FACP", 0))) out->have_fadt = acpi_parse_fadt(t->data, &out->fadt) == 0;
}

int acpi_parse(struct acpi_info *out, uint64_t rsdp_phys, acpi_map_fn map, void *ctx) {
  memset(out, 0, sizeof(*out));
  out->rsdp_phys = rsdp_phys;
  bool xsdt_ok;
  const struct acpi_rsdp *rsdp = rsdp_phys ? load_rsdp(map, ctx, rsdp_phys, &xsdt_ok) : NULL;
  if (!rsdp) {
    if (!rsdp_phys) log_error("no RSDP from the firmware");
    return -EINVAL;
  }
  out->rsdp_revision = rsdp->revision;
  copy_trimmed(out->oem_id, rsdp->oem_id, sizeof(rsdp->oem_id));

  /* ACPI 6.5, 5.2.5.3: with revision >= 2 the XSDT is to be used; the RSDT
   * remains as the fallback when the XSDT cannot be trusted. */
  bool walked = false;
  if (xsdt_ok && rsdp->xsdt_address) {
    walked = walk_root(out, map, ctx, rsdp->xsdt_address, 8);
    if (!walked) log_warn("XSDT unusable, falling back to the RSDT");
  }
  if (!walked && rsdp->rsdt_address) {
    walked = walk_root(out, map, ctx, rsdp->rsdt_address, 4);
  }
  if (!walked) {
    log_error("no usable XSDT or RSDT: no ACPI tables");
    memset(out, 0, sizeof(*out));
    return -EINVAL;
  }
  parse_known_tables(out);
  if (out->have_fadt) add_dsdt(out, map, ctx);
  return 0;
}

const struct acpi_table *acpi_find(const struct acpi_info *info, const char *signature,
                                   unsigned index) {
  for (unsigned i = 0; i < info->table_count; i++) {
    if (memcmp(info->tables[i].signature, signature, 4) == 0 && index-- == 0)
      return &info->tables[i];
  }
  return NULL;
}
