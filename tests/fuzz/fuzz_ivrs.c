/* fuzz_ivrs.c - libFuzzer target for the IVRS parser (drivers/iommu/ivrs.c).
 * The input becomes a table: its signature and length field are set from
 * the input (as the ACPI layer would have checked them), everything else is
 * the fuzzer's. A table the parser accepts must keep its promises: runs in
 * order, the highest device ID covering every entry, lookups consistent.
 * Seeds: the IVRS tables recorded from QEMU 7.2 (tests/data/iommu/). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/iommu/ivrs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct ivrs_info *info) {
  if (info->iommu_count == 0 || info->iommu_count > IVRS_MAX_IOMMUS) abort();
  for (unsigned i = 0; i < info->iommu_count; i++) {
    const struct ivrs_iommu *m = &info->iommus[i];
    for (unsigned r = 0; r < m->run_count; r++) {
      const struct ivrs_devices *d = &m->runs[r];
      if (d->first > d->last || d->last > m->last_devid) abort();
      /* The narrowest run for a device of this run lies inside this one's
       * bounds or refines it; either way it covers the device. */
      const struct ivrs_devices *found = ivrs_run_for(m, d->first);
      if (!found || found->first > d->first || found->last < d->first) abort();
      if (ivrs_iommu_for(info, m->segment, d->last) != m) abort();
      (void)ivrs_requester_id(m, d->last);
    }
  }
  for (unsigned i = 0; i < info->ivmd_count; i++) {
    const struct ivrs_ivmd *v = &info->ivmds[i];
    if (v->first > v->last || v->length == 0 || v->start + v->length - 1 < v->start) abort();
  }
  ivrs_log(info);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static struct ivrs_info info;
  if (size < 48 || size > (1u << 16)) return 0;
  uint8_t *table = malloc(size);
  memcpy(table, data, size);
  memcpy(table, "IVRS", 4);
  table[4] = (uint8_t)size;
  table[5] = (uint8_t)(size >> 8);
  table[6] = table[7] = 0;
  if (ivrs_parse(table, size, &info) == 0)
    check(&info);
  else if (info.error[0] == '\0')
    abort(); /* a refusal always says why */
  free(table);
  return 0;
}
