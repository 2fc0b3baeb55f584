/* amdgpu_ram_efi.c - the boot image's RAM for the single address space:
 * every range of the firmware's memory map that is memory
 * (boot_mem_type_is_ram), adjacent ranges merged so the compute VMIDs' page
 * tables use the largest pages they can. */
#include <errno.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "kernel/frames.h"

struct merge {
  int (*fn)(void *ctx, uint64_t start, uint64_t size);
  void *ctx;
  uint64_t start, end; /* the range being merged; end 0: none yet */
};

static int merge_range(void *ctx, uint64_t base, uint64_t size) {
  struct merge *m = ctx;
  if (m->end && base == m->end) {
    m->end = base + size;
    return 0;
  }
  if (m->end) {
    int r = m->fn(m->ctx, m->start, m->end - m->start);
    if (r) return r;
  }
  m->start = base;
  m->end = base + size;
  return 0;
}

int amdgpu_for_each_ram_range(int (*fn)(void *ctx, uint64_t start, uint64_t size), void *ctx) {
  struct merge m = {.fn = fn, .ctx = ctx};
  int r = frames_for_each_ram_range(merge_range, &m);
  if (r) return r;
  return m.end ? fn(ctx, m.start, m.end - m.start) : 0;
}

/* Every RAM range is mapped at bring-up: a fault is never memory the
 * program could have allocated since. */
bool amdgpu_ram_grows(void) { return false; }

int amdgpu_ram_range_of(uint64_t address, uint64_t *start, uint64_t *size) {
  (void)address, (void)start, (void)size;
  return -ENOENT;
}
