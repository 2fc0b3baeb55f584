/* loader_test_util.c - see loader_test_util.h. Offsets of ELF64 header
 * fields: System V gABI "ELF Header", "Section Header", "Program Header". */
#include "tests/host/loader_test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/test.h"

uint8_t *loader_test_read(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) FAIL("cannot open %s (make kernels builds the corpus)", path);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *data = malloc(n > 0 ? (size_t)n : 1);
  size_t got = data ? fread(data, 1, (size_t)n, f) : 0;
  fclose(f);
  if (!data || got != (size_t)n) {
    free(data);
    FAIL("cannot read %s", path);
  }
  *size = (size_t)n;
  return data;
}

uint8_t *loader_test_read_corpus(const char *file, const char *opt, int cov, size_t *size) {
  char path[512];
  snprintf(path, sizeof path, "%s/gfx902/%s.%s.v%d.co", LOADER_TEST_KERNELS_DIR, file, opt, cov);
  return loader_test_read(path, size);
}

static void *host_alloc(void *ctx, size_t size, size_t align) {
  (void)ctx;
  void *p = NULL;
  return posix_memalign(&p, align, size ? size : 1) == 0 ? p : NULL;
}

static void host_free(void *ctx, void *p, size_t size) {
  (void)ctx, (void)size;
  free(p);
}

const struct loader_memory_ops loader_test_memory = {host_alloc, host_free, NULL};

struct loader_code_object *loader_test_parse(const uint8_t *image, size_t size,
                                             enum loader_status status, char *why,
                                             size_t why_size) {
  struct loader_code_object *co = NULL;
  enum loader_status st = loader_code_object_parse(image, size, "test", &co, why, why_size);
  if (st != status) {
    loader_code_object_destroy(co);
    FAIL("parse gave \"%s\" (%s), expected \"%s\"", loader_status_name(st),
              why, loader_status_name(status));
  }
  return co;
}

void put16(uint8_t *image, uint64_t at, uint16_t v) { memcpy(image + at, &v, 2); }
void put32(uint8_t *image, uint64_t at, uint32_t v) { memcpy(image + at, &v, 4); }
void put64(uint8_t *image, uint64_t at, uint64_t v) { memcpy(image + at, &v, 8); }
uint64_t get64(const uint8_t *image, uint64_t at) {
  uint64_t v;
  memcpy(&v, image + at, 8);
  return v;
}
uint32_t get32(const uint8_t *image, uint64_t at) {
  uint32_t v;
  memcpy(&v, image + at, 4);
  return v;
}
static uint16_t get16(const uint8_t *image, uint64_t at) {
  uint16_t v;
  memcpy(&v, image + at, 2);
  return v;
}

uint64_t shdr_offset(const uint8_t *image, const char *name) {
  uint64_t shoff = get64(image, 40);
  uint16_t shnum = get16(image, 60), shstrndx = get16(image, 62);
  uint64_t strtab = get64(image, shoff + 64ull * shstrndx + 24);
  for (uint16_t i = 0; i < shnum; i++) {
    uint64_t sh = shoff + 64ull * i;
    if (!strcmp((const char *)image + strtab + get32(image, sh), name)) return sh;
  }
  FAIL("no section %s", name);
}

uint64_t phdr_offset(const uint8_t *image, uint32_t type, int nth) {
  uint64_t phoff = get64(image, 32);
  uint16_t phnum = get16(image, 56);
  for (uint16_t i = 0; i < phnum; i++) {
    uint64_t ph = phoff + 56ull * i;
    if (get32(image, ph) == type && nth-- == 0) return ph;
  }
  FAIL("no program header %u", type);
}
