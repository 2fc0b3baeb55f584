/* fuzz_acpi.c - libFuzzer target for the ACPI parsers (kernel/acpi*.c):
 *  - input beginning "RSD PTR ": the whole walk (RSDP -> XSDT/RSDT -> tables
 *    -> FADT -> DSDT) over a firmware memory made of the input, where every
 *    physical address lands at (address % size) of it, so that any pointer
 *    the fuzzer writes points somewhere it controls;
 *  - any other input: one table given to every table parser, as if it had
 *    passed the header checks (its length field set to the input's size).
 * Seeds: the tables recorded from QEMU q35 (tests/data/acpi/). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/acpi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct memory {
  const uint8_t *bytes;
  size_t size;
};

static const void *map_into_input(void *ctx, uint64_t phys, size_t len) {
  const struct memory *m = ctx;
  size_t off = (size_t)(phys % m->size);
  return len <= m->size - off ? m->bytes + off : NULL;
}

static void walk(const uint8_t *data, size_t size) {
  static struct acpi_info info;
  struct memory m = {data, size};
  /* The RSDP is at offset 0 whatever address names it. */
  if (acpi_parse(&info, size * 16, map_into_input, &m) == 0) {
    for (unsigned i = 0; i < info.table_count; i++)
      if (!acpi_table_valid(info.tables[i].data, info.tables[i].length)) abort();
    (void)acpi_find(&info, "IVRS", 0);
  }
}

static void one_table(const uint8_t *data, size_t size) {
  if (size < sizeof(struct acpi_header) || size > (1u << 20)) return;
  uint8_t *t = malloc(size); /* exactly the input: reads past it are caught */
  memcpy(t, data, size);
  struct acpi_header *h = (struct acpi_header *)t;
  (void)acpi_table_valid(h, size);
  h->length = (uint32_t)size;
  static struct acpi_madt madt;
  struct acpi_mcfg mcfg;
  struct acpi_hpet hpet;
  struct acpi_fadt fadt;
  uint8_t a, b;
  (void)acpi_parse_madt(h, &madt);
  (void)acpi_parse_mcfg(h, &mcfg);
  (void)acpi_parse_hpet(h, &hpet);
  (void)acpi_parse_fadt(h, &fadt);
  (void)acpi_find_s5(h, &a, &b);
  free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size >= 8 && memcmp(data, "RSD PTR ", 8) == 0) {
    walk(data, size);
  } else {
    one_table(data, size);
  }
  return 0;
}
