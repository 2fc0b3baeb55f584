/* Tests of the ACPI table walk (RSDP -> XSDT/RSDT -> tables) on the tables
 * recorded from QEMU q35 (tests/data/acpi/README.md) and on corrupted
 * copies: a bad table is reported and skipped, never trusted. */
#include <errno.h>

#include "kernel/acpi.h"
#include "lib/test.h"
#include "tests/host/acpi_test_memory.h"

#define Q35 "qemu72_q35"
#define Q35_RSDP 0x3f77d014

static struct acpi_info info; /* large: not on the test's stack */

static void parse_q35(struct acpi_test_memory *m, int expect) {
  ASSERT_EQ(acpi_parse(&info, Q35_RSDP, acpi_test_map, m), expect);
}

TEST(acpi_q35_tables_listed) {
  struct acpi_test_memory m;
  acpi_test_load(&m, Q35);
  parse_q35(&m, 0);
  ASSERT_EQ(info.rsdp_revision, 2);
  ASSERT_STR_EQ(info.oem_id, "BOCHS");
  ASSERT_TRUE(info.xsdt_used);
  ASSERT_EQ_U(info.root_phys, 0x3f77c0e8);
  ASSERT_EQ(info.rejected, 0);
  static const char *const order[] = {"FACP", "APIC", "HPET", "MCFG", "IVRS", "WAET", "BGRT", "DSDT"};
  ASSERT_EQ(info.table_count, 8);
  for (unsigned i = 0; i < 8; i++) ASSERT_STR_EQ(info.tables[i].signature, order[i]);
  /* The IVRS is handed out raw, the very bytes the firmware has. */
  const struct acpi_table *ivrs = acpi_find(&info, "IVRS", 0);
  ASSERT_NOT_NULL(ivrs);
  ASSERT_EQ_U(ivrs->phys, 0x3f774000);
  ASSERT_EQ(ivrs->length, 108);
  ASSERT_STR_EQ(ivrs->oem_id, "BOCHS");
  ASSERT_STR_EQ(ivrs->oem_table_id, "BXPC");
  ASSERT_PTR_EQ(ivrs->data, acpi_test_region(&m, "IVRS")->bytes);
  ASSERT_NULL(acpi_find(&info, "IVRS", 1));
  ASSERT_NULL(acpi_find(&info, "CRAT", 0));
  const struct acpi_table *dsdt = acpi_find(&info, "DSDT", 0);
  ASSERT_NOT_NULL(dsdt);
  ASSERT_EQ(dsdt->length, 8617);
  ASSERT_TRUE(info.have_madt && info.have_mcfg && info.have_hpet && info.have_fadt);
  acpi_test_free(&m);
}

TEST(acpi_q35_table_with_bad_checksum_is_skipped) {
  struct acpi_test_memory m;
  acpi_test_load(&m, Q35);
  acpi_test_region(&m, "APIC")->bytes[50] ^= 0x01;
  parse_q35(&m, 0);
  ASSERT_EQ(info.rejected, 1);
  ASSERT_EQ(info.table_count, 7);
  ASSERT_NULL(acpi_find(&info, "APIC", 0));
  ASSERT_FALSE(info.have_madt);
  ASSERT_EQ(info.madt.cpu_count, 0);
  ASSERT_TRUE(info.have_mcfg); /* the others still stand */
  acpi_test_free(&m);
}

TEST(acpi_q35_table_with_bad_length_is_skipped) {
  struct acpi_test_memory m;
  acpi_test_load(&m, Q35);
  struct acpi_header *mcfg = (struct acpi_header *)acpi_test_region(&m, "MCFG")->bytes;
  /* Shorter than a header: refused before the checksum is even summed. */
  mcfg->length = 20;
  parse_q35(&m, 0);
  ASSERT_NULL(acpi_find(&info, "MCFG", 0));
  ASSERT_FALSE(info.have_mcfg);
  ASSERT_EQ(info.rejected, 1);
  /* Longer than the memory that holds it (checksum made right for 60 bytes
   * would not help: the bytes past the end are not readable). */
  mcfg->length = 4096;
  parse_q35(&m, 0);
  ASSERT_NULL(acpi_find(&info, "MCFG", 0));
  /* Absurdly long. */
  mcfg->length = 0x7fffffff;
  parse_q35(&m, 0);
  ASSERT_NULL(acpi_find(&info, "MCFG", 0));
  ASSERT_EQ(info.rejected, 1);
  acpi_test_free(&m);
}

TEST(acpi_q35_bad_fadt_loses_dsdt) {
  struct acpi_test_memory m;
  acpi_test_load(&m, Q35);
  acpi_test_region(&m, "DSDT")->bytes[1000] ^= 0xff;
  parse_q35(&m, 0);
  ASSERT_TRUE(info.have_fadt);
  ASSERT_NULL(acpi_find(&info, "DSDT", 0));
  ASSERT_FALSE(info.fadt.s5_found);
  ASSERT_EQ(info.rejected, 1);
  acpi_test_free(&m);
}

TEST(acpi_q35_bad_xsdt_falls_back_to_rsdt) {
  struct acpi_test_memory m;
  acpi_test_load(&m, Q35);
  acpi_test_region(&m, "XSDT")->bytes[40] ^= 0x10;
  parse_q35(&m, 0);
  ASSERT_FALSE(info.xsdt_used);
  ASSERT_EQ_U(info.root_phys, 0x3f77c074);
  ASSERT_EQ(info.table_count, 8);
  ASSERT_NOT_NULL(acpi_find(&info, "IVRS", 0));
  ASSERT_TRUE(info.have_madt);
  /* An XSDT whose entries are not whole 8-byte addresses is not used either. */
  acpi_test_region(&m, "XSDT")->bytes[40] ^= 0x10;
  struct acpi_header *x = (struct acpi_header *)acpi_test_region(&m, "XSDT")->bytes;
  x->length -= 4;
  acpi_test_fix_checksum((uint8_t *)x);
  parse_q35(&m, 0);
  ASSERT_FALSE(info.xsdt_used);
  ASSERT_EQ(info.table_count, 8);
  acpi_test_free(&m);
}

TEST(acpi_q35_xsdt_entry_to_nowhere_is_skipped) {
  struct acpi_test_memory m;
  acpi_test_load(&m, Q35);
  uint8_t *x = acpi_test_region(&m, "XSDT")->bytes;
  uint64_t nowhere = 0x12345000, null = 0;
  memcpy(x + 36 + 8 * 2, &nowhere, 8); /* was HPET */
  memcpy(x + 36 + 8 * 3, &null, 8);    /* was MCFG */
  acpi_test_fix_checksum(x);
  parse_q35(&m, 0);
  ASSERT_EQ(info.rejected, 2);
  ASSERT_FALSE(info.have_hpet);
  ASSERT_FALSE(info.have_mcfg);
  ASSERT_EQ(info.table_count, 6);
  acpi_test_free(&m);
}

TEST(acpi_q35_rsdp_checks) {
  struct acpi_test_memory m;
  acpi_test_load(&m, Q35);
  uint8_t *rsdp = acpi_test_region(&m, "RSDP")->bytes;
  /* Extended checksum wrong: the XSDT address is not trusted, RSDT used. */
  rsdp[32] ^= 1;
  parse_q35(&m, 0);
  ASSERT_FALSE(info.xsdt_used);
  ASSERT_EQ(info.table_count, 8);
  rsdp[32] ^= 1;
  /* ACPI 1.0 checksum wrong: nothing can be trusted. */
  rsdp[8] ^= 1;
  parse_q35(&m, -EINVAL);
  ASSERT_EQ(info.table_count, 0);
  ASSERT_FALSE(info.have_madt);
  rsdp[8] ^= 1;
  rsdp[0] = 'X';
  parse_q35(&m, -EINVAL);
  rsdp[0] = 'R';
  /* No RSDP at all, or at an address with no memory. */
  ASSERT_EQ(acpi_parse(&info, 0, acpi_test_map, &m), -EINVAL);
  ASSERT_EQ(acpi_parse(&info, 0x1000, acpi_test_map, &m), -EINVAL);
  parse_q35(&m, 0);
  acpi_test_free(&m);
}

TEST(acpi_q35_both_root_tables_bad) {
  struct acpi_test_memory m;
  acpi_test_load(&m, Q35);
  acpi_test_region(&m, "XSDT")->bytes[20] ^= 1;
  acpi_test_region(&m, "RSDT")->bytes[20] ^= 1;
  parse_q35(&m, -EINVAL);
  ASSERT_EQ(info.table_count, 0);
  /* A root table with the wrong signature is not used either. */
  acpi_test_region(&m, "RSDT")->bytes[20] ^= 1;
  memcpy(acpi_test_region(&m, "RSDT")->bytes, "RSDX", 4);
  acpi_test_fix_checksum(acpi_test_region(&m, "RSDT")->bytes);
  parse_q35(&m, -EINVAL);
  acpi_test_free(&m);
}
