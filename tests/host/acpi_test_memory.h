/*
 * acpi_test_memory.h - the firmware's memory for ACPI host tests: the
 * tables recorded from QEMU (tests/data/acpi/<machine>/index.txt) placed at
 * the physical addresses they were found at, as writable copies that a test
 * may corrupt, and an acpi_map_fn that serves them.
 */
#ifndef TESTS_HOST_ACPI_TEST_MEMORY_H
#define TESTS_HOST_ACPI_TEST_MEMORY_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/acpi.h"
#include "lib/plat.h"
#include "lib/test.h"

#define ACPI_TEST_MAX_REGIONS 24

struct acpi_test_region {
  char name[5];
  uint64_t phys;
  size_t len;
  uint8_t *bytes;
};

struct acpi_test_memory {
  unsigned count;
  struct acpi_test_region regions[ACPI_TEST_MAX_REGIONS];
};

static inline const void *acpi_test_map(void *ctx, uint64_t phys, size_t len) {
  struct acpi_test_memory *m = ctx;
  for (unsigned i = 0; i < m->count; i++) {
    struct acpi_test_region *r = &m->regions[i];
    if (phys >= r->phys && phys - r->phys <= r->len && len <= r->len - (phys - r->phys))
      return r->bytes + (phys - r->phys);
  }
  return NULL;
}

/* Loads tests/data/acpi/<machine>/; fails the test if anything is missing. */
static inline void acpi_test_load(struct acpi_test_memory *m, const char *machine) {
  memset(m, 0, sizeof(*m));
  char path[128];
  snprintf(path, sizeof(path), "tests/data/acpi/%s/index.txt", machine);
  size_t size;
  char *loaded = plat_file_load(path, &size);
  if (!loaded) FAIL("cannot read %s", path);
  /* plat_file_load gives the bytes only: strtok_r needs a terminated string. */
  char *index = realloc(loaded, size + 1);
  if (!index) {
    free(loaded);
    FAIL("out of memory for %s", path);
  }
  index[size] = '\0';
  char *save = NULL;
  for (char *line = strtok_r(index, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    if (line[0] == '#') continue;
    char sig[5], file[64];
    unsigned long long phys;
    if (sscanf(line, "%4s %llx %63s", sig, &phys, file) != 3 || m->count == ACPI_TEST_MAX_REGIONS) {
      free(index);
      FAIL("bad line in %s: %s", path, line);
    }
    struct acpi_test_region *r = &m->regions[m->count++];
    memcpy(r->name, sig, 5);
    r->phys = phys;
    snprintf(path, sizeof(path), "tests/data/acpi/%s/%s", machine, file);
    r->bytes = plat_file_load(path, &r->len);
    if (!r->bytes) {
      free(index);
      FAIL("cannot read %s", path);
    }
  }
  free(index);
}

static inline void acpi_test_free(struct acpi_test_memory *m) {
  for (unsigned i = 0; i < m->count; i++) free(m->regions[i].bytes);
  m->count = 0;
}

static inline struct acpi_test_region *acpi_test_region(struct acpi_test_memory *m, const char *name) {
  for (unsigned i = 0; i < m->count; i++)
    if (strcmp(m->regions[i].name, name) == 0) return &m->regions[i];
  FAIL("no %s in the recorded tables", name);
}

/* Makes a modified table's checksum right again (byte 9 of the header). */
static inline void acpi_test_fix_checksum(uint8_t *table) {
  struct acpi_header *h = (struct acpi_header *)table;
  h->checksum = 0;
  h->checksum = (uint8_t)(0x100 - acpi_checksum(table, h->length));
}

#endif
