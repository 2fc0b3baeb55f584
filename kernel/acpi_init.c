/*
 * acpi_init.c - the machine's ACPI tables (image): parsed once at boot from
 * the RSDP the boot loader found, listed in the log, and handed out by
 * signature to the rest of the kernel and the drivers.
 */
#define LOG_TAG "acpi"
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/acpi.h"
#include "lib/plat.h"

PLAT_OPTION(acpidump, "acpidump", "print every ACPI table in hex (to record them: tests/data/acpi/README.md)");

static struct acpi_info machine;

/* The image identity-maps all RAM and MMIO (single address space), so a
 * physical address is its pointer. Only an address range that wraps around
 * or lies beyond the 52-bit physical address limit (Intel SDM vol. 3,
 * 4.1.4 "MAXPHYADDR") is refused. */
static const void *identity_map(void *ctx, uint64_t phys, size_t len) {
  (void)ctx;
  const uint64_t max_phys = 1ull << 52;
  if (phys == 0 || phys >= max_phys || len > max_phys - phys) return NULL;
  return (const void *)(uintptr_t)phys;
}

/* "acpidump": every table in hex, 16 bytes a line, in the form
 * tools/acpi-record.py turns back into files. Only tables that passed
 * the checks are printed (the RSDP's length was checked with it). */
static void dump_bytes(const char *name, uint64_t phys, size_t len) {
  const uint8_t *p = (const uint8_t *)(uintptr_t)phys;
  log_info("acpidump %s 0x%llx %zu", name, (unsigned long long)phys, len);
  for (size_t off = 0; off < len; off += 16) {
    char line[16 * 3 + 1];
    size_t n = len - off < 16 ? len - off : 16, pos = 0;
    for (size_t i = 0; i < n; i++) pos += (size_t)snprintf(line + pos, sizeof(line) - pos, "%02x ", p[off + i]);
    line[pos ? pos - 1 : 0] = '\0';
    log_info("acpidump 0x%llx: %s", (unsigned long long)(phys + off), line);
  }
}

static void dump_root(const char *name, uint64_t phys) {
  const struct acpi_header *root = phys ? identity_map(NULL, phys, sizeof(*root)) : NULL;
  if (root && acpi_table_valid(root, 1u << 20)) dump_bytes(name, phys, root->length);
}

static void dump_all(const struct acpi_info *a) {
  /* ACPI 6.5, Table 5.3: RsdtAddress at 16; revision 2 adds Length at 20
   * and XsdtAddress at 24. Both root tables, for the fallback tests. */
  const uint8_t *rsdp = (const uint8_t *)(uintptr_t)a->rsdp_phys;
  uint32_t rsdt, rsdp_len = 20;
  uint64_t xsdt = 0;
  memcpy(&rsdt, rsdp + 16, 4);
  if (a->rsdp_revision >= 2) {
    memcpy(&rsdp_len, rsdp + 20, 4);
    memcpy(&xsdt, rsdp + 24, 8);
    if (rsdp_len < 20 || rsdp_len > 4096) rsdp_len = 20; /* as acpi_parse distrusted it */
  }
  dump_bytes("RSDP", a->rsdp_phys, rsdp_len);
  dump_root("XSDT", xsdt);
  dump_root("RSDT", rsdt);
  for (unsigned i = 0; i < a->table_count; i++)
    dump_bytes(a->tables[i].signature, a->tables[i].phys, a->tables[i].length);
}

static void log_summary(const struct acpi_info *a) {
  log_info("RSDP revision %u (OEM %s) at 0x%llx, %s at 0x%llx: %u tables, %u rejected",
           a->rsdp_revision, a->oem_id, (unsigned long long)a->rsdp_phys,
           a->xsdt_used ? "XSDT" : "RSDT", (unsigned long long)a->root_phys, a->table_count,
           a->rejected);
  for (unsigned i = 0; i < a->table_count; i++) {
    const struct acpi_table *t = &a->tables[i];
    log_info("  %s at 0x%llx, %u bytes, revision %u, %s %s", t->signature,
             (unsigned long long)t->phys, t->length, t->revision, t->oem_id, t->oem_table_id);
  }
  if (a->have_madt) {
    unsigned enabled = 0;
    for (unsigned i = 0; i < a->madt.cpu_count; i++) enabled += a->madt.cpus[i].enabled;
    log_info("MADT: local APIC at 0x%llx, %u processors (%u enabled), %u I/O APICs, "
             "%u overrides%s",
             (unsigned long long)a->madt.lapic_address, a->madt.cpu_count, enabled,
             a->madt.ioapic_count, a->madt.override_count,
             a->madt.pcat_compat ? ", legacy 8259 PICs present" : "");
  }
  for (unsigned i = 0; a->have_mcfg && i < a->mcfg.count; i++)
    log_info("MCFG: segment %u buses %u-%u ECAM at 0x%llx", a->mcfg.segments[i].segment,
             a->mcfg.segments[i].bus_start, a->mcfg.segments[i].bus_end,
             (unsigned long long)a->mcfg.segments[i].base);
  if (a->have_hpet) log_info("HPET: registers at 0x%llx", (unsigned long long)a->hpet.address);
  if (a->have_fadt)
    log_info("FADT: revision %u, SCI IRQ %u, PM timer %s 0x%llx (%s bits), \\_S5 %s",
             a->fadt.revision, a->fadt.sci_irq,
             a->fadt.pm_timer.space_id == ACPI_SPACE_IO ? "port" : "at",
             (unsigned long long)a->fadt.pm_timer.address, a->fadt.pm_timer_32bit ? "32" : "24",
             a->fadt.s5_found ? "found" : "missing");
}

int acpi_init(uint64_t rsdp_phys) {
  int err = acpi_parse(&machine, rsdp_phys, identity_map, NULL);
  if (err) return err;
  log_summary(&machine);
  if (plat_option("acpidump")) dump_all(&machine);
  return 0;
}

const struct acpi_info *acpi_machine(void) { return &machine; }

const struct acpi_table *acpi_machine_table(const char *signature, unsigned index) {
  return acpi_find(&machine, signature, index);
}
