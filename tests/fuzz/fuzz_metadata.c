/* fuzz_metadata.c - libFuzzer target: any bytes as the MessagePack
 * descriptor of an NT_AMDGPU_METADATA note, and as a bare MessagePack item
 * to skip. Seeds: the notes of the kernel corpus (mk/fuzz.mk). */
#include <stdint.h>

#include "hsa/loader/metadata.h"
#include "hsa/loader/msgpack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  struct loader_metadata md;
  char why[256];
  if (loader_metadata_parse(data, size, &md, why, sizeof why)) loader_metadata_free(&md);
  struct mp_reader r;
  mp_reader_init(&r, data, size);
  while (mp_skip(&r)) {
  }
  return 0;
}
