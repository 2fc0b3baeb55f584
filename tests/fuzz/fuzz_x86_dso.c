/* fuzz_x86_dso.c - libFuzzer target: any bytes as the CPU agents' code
 * (an x86-64 shared object, or an offload bundle whose CPU entry is one),
 * loaded twice (two instances) with every import resolved to a dummy, then
 * unloaded. Seeds: the tools/hsacc files of the CPU agent tests. */
#include <stdint.h>

#include "hsa/loader/bundle.h"
#include "hsa/loader/x86_dso.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t dummy;

static bool resolve(void *ctx, const char *name, uint64_t *address) {
  (void)ctx;
  (void)name;
  *address = (uint64_t)(uintptr_t)&dummy;
  return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const void *code = data;
  size_t code_size = size;
  char why[256];
  if (loader_bundle_is_bundle(data, size) &&
      loader_bundle_select_id(data, size, "fuzz", LOADER_BUNDLE_CPU_ENTRY, &code, &code_size, why,
                              sizeof why) != LOADER_OK)
    return 0;
  struct x86_dso *dso;
  if (x86_dso_load(code, code_size, "fuzz", 2, resolve, NULL, &dso, why, sizeof why) == LOADER_OK) {
    (void)x86_dso_symbol(dso, 1, "__hsacl_run_groups");
    x86_dso_unload(dso);
  }
  return 0;
}
