/* fuzz_bundle.c - libFuzzer target: any bytes as a clang offload bundle;
 * the entry chosen for a gfx902 agent is parsed as a code object too.
 * Seeds: the HIP bundles of mk/kernels.mk. */
#include <stdint.h>

#include "hsa/loader/bundle.h"
#include "hsa/loader/loader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const void *code;
  size_t code_size;
  char why[256];
  if (loader_bundle_select(data, size, "fuzz", "amdgcn-amd-amdhsa--gfx90c:xnack+", &code,
                           &code_size, why, sizeof why) != LOADER_OK)
    return 0;
  struct loader_code_object *co;
  if (loader_code_object_parse(code, code_size, "fuzz", &co, why, sizeof why) == LOADER_OK)
    loader_code_object_destroy(co);
  return 0;
}
