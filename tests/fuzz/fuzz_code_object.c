/* fuzz_code_object.c - libFuzzer target: any bytes as an AMDGPU code object,
 * through every step a load takes: parse and check (ELF, segments, sections,
 * notes, MessagePack metadata, symbols, relocations), the ISA check, placing
 * and relocating the segments, and filling every kernel's hidden arguments.
 * Seeds: the kernel corpus (mk/fuzz.mk). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hsa/loader/hidden_args.h"
#include "hsa/loader/loader.h"

/* Segment memory with a ceiling: a code object may ask for up to 1 GiB of
 * span, which the loader allows but a fuzzing process should not get. */
#define FUZZ_SEGMENT_LIMIT (64u << 20)

static void *limited_alloc(void *ctx, size_t size, size_t align) {
  (void)ctx;
  void *p = NULL;
  if (size > FUZZ_SEGMENT_LIMIT) return NULL;
  return posix_memalign(&p, align, size ? size : 1) == 0 ? p : NULL;
}

static void limited_free(void *ctx, void *p, size_t size) {
  (void)ctx, (void)size;
  free(p);
}

static uint64_t external_variable;

static bool resolve(void *ctx, const char *name, uint64_t *address) {
  (void)ctx;
  if (name[0] == 'n') return false; /* some names stay undefined */
  *address = (uint64_t)(uintptr_t)&external_variable;
  return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const struct loader_memory_ops mem = {limited_alloc, limited_free, NULL};
  struct loader_code_object *co;
  char why[256];
  if (loader_code_object_parse(data, size, "fuzz", &co, why, sizeof why) != LOADER_OK) return 0;
  loader_code_object_check_isa(co, "amdgcn-amd-amdhsa--gfx902:xnack-", why, sizeof why);
  if (loader_code_object_load(co, &mem, resolve, NULL, why, sizeof why) == LOADER_OK) {
    for (uint32_t i = 0; i < co->symbol_count; i++) {
      const struct loader_symbol *s = &co->symbols[i];
      if (s->kind != LOADER_SYMBOL_KERNEL) continue;
      /* The loaded descriptor is where the symbol says. */
      if (memcmp((const void *)(uintptr_t)s->address, &s->kd, sizeof s->kd) != 0) abort();
      size_t kernarg_size = s->meta->kernarg_segment_size;
      uint8_t *kernarg = malloc(kernarg_size ? kernarg_size : 1);
      struct loader_dispatch d = {
          .dims = 2, .workgroup_size = {16, 4, 1}, .grid_size = {100, 7, 1}};
      loader_fill_hidden_args(s->meta, &d, kernarg, kernarg_size, why, sizeof why);
      free(kernarg);
    }
  }
  loader_code_object_destroy(co);
  return 0;
}
