/* Tests of the MADT, MCFG, HPET and FADT parsers and of the \_S5 search:
 * the values QEMU q35 records (tests/data/acpi/README.md), then malformed
 * variants built from them. */
#include <errno.h>

#include "kernel/acpi.h"
#include "lib/test.h"
#include "tests/host/acpi_test_memory.h"

#define Q35 "qemu72_q35"

static struct acpi_madt madt;

/* A copy of a recorded table with room for `extra` more bytes. */
static uint8_t *table_copy(struct acpi_test_memory *m, const char *sig, size_t extra) {
  struct acpi_test_region *r = acpi_test_region(m, sig);
  uint8_t *t = calloc(1, r->len + extra);
  memcpy(t, r->bytes, r->len);
  return t;
}

static void append(uint8_t *table, const void *bytes, size_t n) {
  struct acpi_header *h = (struct acpi_header *)table;
  memcpy(table + h->length, bytes, n);
  h->length += (uint32_t)n;
  acpi_test_fix_checksum(table);
}

TEST(acpi_madt_q35_parsed) {
  struct acpi_test_memory m;
  acpi_test_load(&m, Q35);
  const struct acpi_header *t = (const void *)acpi_test_region(&m, "APIC")->bytes;
  ASSERT_EQ(acpi_parse_madt(t, &madt), 0);
  ASSERT_EQ_U(madt.lapic_address, 0xfee00000u);
  ASSERT_TRUE(madt.pcat_compat);
  ASSERT_EQ(madt.cpu_count, 4);
  for (unsigned i = 0; i < 4; i++) {
    ASSERT_EQ(madt.cpus[i].apic_id, i);
    ASSERT_EQ(madt.cpus[i].uid, i);
    ASSERT_TRUE(madt.cpus[i].enabled);
  }
  ASSERT_EQ(madt.ioapic_count, 1);
  ASSERT_EQ(madt.ioapics[0].id, 0);
  ASSERT_EQ_U(madt.ioapics[0].address, 0xfec00000u);
  ASSERT_EQ(madt.ioapics[0].gsi_base, 0);
  ASSERT_EQ(madt.override_count, 5);
  ASSERT_EQ(madt.overrides[0].source, 0); /* the PIT's IRQ 0 on GSI 2 */
  ASSERT_EQ(madt.overrides[0].gsi, 2);
  ASSERT_EQ(madt.overrides[0].flags, 0);
  static const uint8_t level_irqs[] = {5, 9, 10, 11};
  for (unsigned i = 0; i < 4; i++) {
    ASSERT_EQ(madt.overrides[1 + i].source, level_irqs[i]);
    ASSERT_EQ(madt.overrides[1 + i].gsi, level_irqs[i]);
    ASSERT_EQ(madt.overrides[1 + i].flags, ACPI_INTI_TRIGGER_LEVEL | ACPI_INTI_POLARITY_HIGH);
  }
  ASSERT_EQ(madt.lapic_nmi_count, 1);
  ASSERT_EQ(madt.lapic_nmis[0].uid, ACPI_MADT_ALL_CPUS);
  ASSERT_EQ(madt.lapic_nmis[0].lint, 1);
  acpi_test_free(&m);
}

TEST(acpi_madt_x2apic_and_override_entries) {
  struct acpi_test_memory m;
  acpi_test_load(&m, Q35);
  uint8_t *t = table_copy(&m, "APIC", 96);
  /* Processor Local x2APIC (type 9, 16 bytes): ID 0x100, enabled, UID 7;
   * one online-capable; Local x2APIC NMI (type 0xa, 12 bytes); Local APIC
   * Address Override (type 5, 12 bytes); an unknown type 0x7f. */
  const uint8_t x2apic[16] = {9, 16, 0, 0, 0x00, 0x01, 0, 0, 1, 0, 0, 0, 7, 0, 0, 0};
  const uint8_t x2apic_later[16] = {9, 16, 0, 0, 0x01, 0x01, 0, 0, 2, 0, 0, 0, 8, 0, 0, 0};
  const uint8_t x2nmi[12] = {0xa, 12, 5, 0, 7, 0, 0, 0, 0, 0, 0, 0};
  const uint8_t lapic_address[12] = {5, 12, 0, 0, 0x00, 0x10, 0xe0, 0xfe, 0, 0, 0, 0};
  const uint8_t unknown[4] = {0x7f, 4, 0, 0};
  append(t, x2apic, 16);
  append(t, x2apic_later, 16);
  append(t, x2nmi, 12);
  append(t, lapic_address, 12);
  append(t, unknown, 4);
  ASSERT_EQ(acpi_parse_madt((const void *)t, &madt), 0);
  ASSERT_EQ(madt.cpu_count, 6);
  ASSERT_EQ(madt.cpus[4].apic_id, 0x100);
  ASSERT_EQ(madt.cpus[4].uid, 7);
  ASSERT_TRUE(madt.cpus[4].enabled);
  ASSERT_FALSE(madt.cpus[5].enabled);
  ASSERT_TRUE(madt.cpus[5].online_capable);
  ASSERT_EQ(madt.lapic_nmi_count, 2);
  ASSERT_EQ(madt.lapic_nmis[1].uid, 7);
  ASSERT_EQ(madt.lapic_nmis[1].lint, 0);
  ASSERT_EQ(madt.lapic_nmis[1].flags, 5);
  ASSERT_EQ_U(madt.lapic_address, 0xfee01000u);
  ASSERT_EQ(madt.ignored_entries, 1);
  /* The same APIC ID twice: the second entry is ignored. */
  append(t, x2apic, 16);
  ASSERT_EQ(acpi_parse_madt((const void *)t, &madt), 0);
  ASSERT_EQ(madt.cpu_count, 6);
  free(t);
  acpi_test_free(&m);
}

TEST(acpi_madt_malformed_entries_reject_table) {
  struct acpi_test_memory m;
  acpi_test_load(&m, Q35);
  const uint8_t zero_length[2] = {0, 0};      /* would loop forever if trusted */
  const uint8_t short_ioapic[8] = {1, 8, 0, 0, 0, 0, 0xc0, 0xfe}; /* needs 12 */
  const uint8_t overrun[3] = {0, 8, 0};        /* claims 8, 3 left */
  const uint8_t ioapic_at_zero[12] = {1, 12, 1, 0, 0, 0, 0, 0, 0x18, 0, 0, 0};
  const uint8_t *bad[] = {zero_length, short_ioapic, overrun, ioapic_at_zero};
  const size_t bad_len[] = {2, 8, 3, 12};
  for (unsigned i = 0; i < 4; i++) {
    uint8_t *t = table_copy(&m, "APIC", 16);
    append(t, bad[i], bad_len[i]);
    ASSERT_EQ(acpi_parse_madt((const void *)t, &madt), -EINVAL);
    ASSERT_EQ(madt.cpu_count, 0); /* nothing half-parsed is left behind */
    free(t);
  }
  /* Too short for the fixed part. */
  uint8_t *t = table_copy(&m, "APIC", 0);
  ((struct acpi_header *)t)->length = 40;
  ASSERT_EQ(acpi_parse_madt((const void *)t, &madt), -EINVAL);
  /* No processor at all. */
  ((struct acpi_header *)t)->length = 44;
  ASSERT_EQ(acpi_parse_madt((const void *)t, &madt), -EINVAL);
  free(t);
  acpi_test_free(&m);
}

TEST(acpi_mcfg_q35_and_malformed) {
  struct acpi_test_memory m;
  acpi_test_load(&m, Q35);
  struct acpi_mcfg mcfg;
  uint8_t *t = table_copy(&m, "MCFG", 32);
  ASSERT_EQ(acpi_parse_mcfg((const void *)t, &mcfg), 0);
  ASSERT_EQ(mcfg.count, 1);
  ASSERT_EQ_U(mcfg.segments[0].base, 0xb0000000u);
  ASSERT_EQ(mcfg.segments[0].segment, 0);
  ASSERT_EQ(mcfg.segments[0].bus_start, 0);
  ASSERT_EQ(mcfg.segments[0].bus_end, 255);
  /* A second segment with buses 16-8: end before start. */
  const uint8_t backwards[16] = {0, 0, 0, 0xc0, 0, 0, 0, 0, 1, 0, 16, 8, 0, 0, 0, 0};
  append(t, backwards, 16);
  ASSERT_EQ(acpi_parse_mcfg((const void *)t, &mcfg), -EINVAL);
  ASSERT_EQ(mcfg.count, 0);
  /* A base that is not on a bus (1 MiB) boundary. */
  ((struct acpi_header *)t)->length -= 16;
  const uint8_t misaligned[16] = {0, 0x10, 0, 0xc0, 0, 0, 0, 0, 1, 0, 0, 8, 0, 0, 0, 0};
  append(t, misaligned, 16);
  ASSERT_EQ(acpi_parse_mcfg((const void *)t, &mcfg), -EINVAL);
  /* A partial entry. */
  ((struct acpi_header *)t)->length -= 8;
  ASSERT_EQ(acpi_parse_mcfg((const void *)t, &mcfg), -EINVAL);
  /* No entry. */
  ((struct acpi_header *)t)->length = 44;
  ASSERT_EQ(acpi_parse_mcfg((const void *)t, &mcfg), -EINVAL);
  free(t);
  acpi_test_free(&m);
}

TEST(acpi_hpet_q35_and_malformed) {
  struct acpi_test_memory m;
  acpi_test_load(&m, Q35);
  struct acpi_hpet hpet;
  uint8_t *t = table_copy(&m, "HPET", 0);
  ASSERT_EQ(acpi_parse_hpet((const void *)t, &hpet), 0);
  ASSERT_EQ_U(hpet.address, 0xfed00000u);
  /* Vendor 0x8086, 3 comparators (field = count - 1 = 2), 64-bit counter,
   * legacy replacement capable (HPET 1.0a, 2.3.4 layout of the low half). */
  ASSERT_EQ_U(hpet.event_timer_block_id, 0x8086a201u);
  ASSERT_EQ(hpet.number, 0);
  t[40] = ACPI_SPACE_IO; /* base address in I/O space: not an HPET */
  ASSERT_EQ(acpi_parse_hpet((const void *)t, &hpet), -EINVAL);
  t[40] = ACPI_SPACE_MEMORY;
  ((struct acpi_header *)t)->length = 50;
  ASSERT_EQ(acpi_parse_hpet((const void *)t, &hpet), -EINVAL);
  free(t);
  acpi_test_free(&m);
}

TEST(acpi_fadt_q35_parsed) {
  struct acpi_test_memory m;
  acpi_test_load(&m, Q35);
  struct acpi_fadt fadt;
  const struct acpi_header *t = (const void *)acpi_test_region(&m, "FACP")->bytes;
  ASSERT_EQ(acpi_parse_fadt(t, &fadt), 0);
  ASSERT_EQ(fadt.revision, 3);
  ASSERT_EQ(fadt.sci_irq, 9);
  ASSERT_EQ(fadt.smi_cmd, 0xb2);
  ASSERT_EQ_U(fadt.dsdt, 0x3f779000);
  ASSERT_EQ_U(fadt.facs, 0x3f7dc000);
  ASSERT_EQ(fadt.pm_timer.space_id, ACPI_SPACE_IO);
  ASSERT_EQ_U(fadt.pm_timer.address, 0x608);
  ASSERT_EQ(fadt.pm_timer.bit_width, 32);
  ASSERT_FALSE(fadt.pm_timer_32bit); /* TMR_VAL_EXT clear: a 24-bit counter */
  ASSERT_EQ_U(fadt.pm1a_control.address, 0x604);
  ASSERT_EQ_U(fadt.pm1a_event.address, 0x600);
  ASSERT_EQ_U(fadt.pm1b_control.address, 0);
  ASSERT_TRUE(fadt.reset_supported);
  ASSERT_EQ(fadt.reset_register.space_id, ACPI_SPACE_IO);
  ASSERT_EQ_U(fadt.reset_register.address, 0xcf9);
  ASSERT_EQ(fadt.reset_value, 0x0f);
  ASSERT_EQ(fadt.boot_arch, ACPI_BOOT_ARCH_8042);
  ASSERT_EQ(fadt.century, 0x32);
  acpi_test_free(&m);
}

TEST(acpi_fadt_old_layout_and_malformed) {
  struct acpi_test_memory m;
  acpi_test_load(&m, Q35);
  struct acpi_fadt fadt;
  uint8_t *t = table_copy(&m, "FACP", 0);
  /* Cut to the ACPI 1.0 length: the legacy 32-bit blocks are used. */
  ((struct acpi_header *)t)->length = 116;
  ASSERT_EQ(acpi_parse_fadt((const void *)t, &fadt), 0);
  ASSERT_EQ_U(fadt.pm_timer.address, 0x608);
  ASSERT_EQ(fadt.pm_timer.bit_width, 32); /* PM_TMR_LEN 4 bytes */
  ASSERT_EQ_U(fadt.pm1a_control.address, 0x604);
  ASSERT_EQ(fadt.pm1a_control.bit_width, 16); /* PM1_CNT_LEN 2 */
  ASSERT_FALSE(fadt.reset_supported);         /* no reset register in 1.0 */
  /* PM_TMR_LEN other than 4: no PM timer. */
  t[91] = 3;
  ASSERT_EQ(acpi_parse_fadt((const void *)t, &fadt), 0);
  ASSERT_EQ_U(fadt.pm_timer.address, 0);
  ((struct acpi_header *)t)->length = 100;
  ASSERT_EQ(acpi_parse_fadt((const void *)t, &fadt), -EINVAL);
  free(t);
  acpi_test_free(&m);
}

static struct acpi_header *aml_table(const uint8_t *aml, size_t n) {
  uint8_t *t = calloc(1, sizeof(struct acpi_header) + n);
  memcpy(t, "SSDT", 4);
  ((struct acpi_header *)t)->length = (uint32_t)(sizeof(struct acpi_header) + n);
  memcpy(t + sizeof(struct acpi_header), aml, n);
  return (struct acpi_header *)t;
}

TEST(acpi_s5_found_in_aml) {
  struct acpi_test_memory m;
  acpi_test_load(&m, Q35);
  uint8_t a = 9, b = 9;
  ASSERT_TRUE(acpi_find_s5((const void *)acpi_test_region(&m, "DSDT")->bytes, &a, &b));
  ASSERT_EQ(a, 0); /* QEMU: Package {0, 0, 0, 0} */
  ASSERT_EQ(b, 0);
  acpi_test_free(&m);
  /* Name(\_S5_, Package(2){BytePrefix 5, OneOp}), root-prefixed. */
  const uint8_t rooted[] = {0x08, '\\', '_', 'S', '5', '_', 0x12, 0x06, 0x02, 0x0a, 0x05, 0x01};
  struct acpi_header *t = aml_table(rooted, sizeof(rooted));
  ASSERT_TRUE(acpi_find_s5(t, &a, &b));
  ASSERT_EQ(a, 5);
  ASSERT_EQ(b, 1);
  free(t);
  /* Word-prefixed values keep their 3 SLP_TYP bits. */
  const uint8_t words[] = {0x08, '_', 'S', '5', '_', 0x12, 0x08, 0x02, 0x0b, 0x07, 0x01};
  t = aml_table(words, sizeof(words));
  ASSERT_FALSE(acpi_find_s5(t, &a, &b)); /* second element missing */
  free(t);
  const uint8_t words2[] = {0x08, '_', 'S', '5', '_', 0x12, 0x08, 0x02, 0x0b, 0x07, 0x01, 0x0a, 0x0e};
  t = aml_table(words2, sizeof(words2));
  ASSERT_TRUE(acpi_find_s5(t, &a, &b));
  ASSERT_EQ(a, 7);
  ASSERT_EQ(b, 6);
  free(t);
  /* "_S5_" not declared by NameOp (a reference), or cut short: not found. */
  const uint8_t reference[] = {0x70, '_', 'S', '5', '_', 0x12, 0x06, 0x02, 0x0a, 0x05, 0x01};
  t = aml_table(reference, sizeof(reference));
  ASSERT_FALSE(acpi_find_s5(t, &a, &b));
  free(t);
  const uint8_t cut[] = {0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x02, 0x0a};
  t = aml_table(cut, sizeof(cut));
  ASSERT_FALSE(acpi_find_s5(t, &a, &b));
  free(t);
}
