/* amdgpu_ram_efi.c - the boot image's RAM for the single address space:
 * every range of the firmware's memory map that is memory
 * (boot_mem_type_is_ram), adjacent ranges merged so the compute VMIDs' page
 * tables use the largest pages they can. */
#include <errno.h>

#include "boot/boot_info.h"
#include "drivers/amdgpu/amdgpu_dev.h"
#include "kernel/kernel.h"

int amdgpu_for_each_ram_range(int (*fn)(void *ctx, uint64_t start, uint64_t size), void *ctx) {
  const struct boot_info *info = kernel_boot_info();
  uint64_t start = 0, end = 0; /* the range being merged */
  for (uint32_t i = 0; i < info->mem_count; i++) {
    const struct boot_mem_range *m = &info->mem[i];
    if (!boot_mem_type_is_ram(m->type)) continue;
    uint64_t base = m->base, top = m->base + m->pages * 4096;
    if (end && base == end) {
      end = top;
      continue;
    }
    if (end) {
      int r = fn(ctx, start, end - start);
      if (r) return r;
    }
    start = base;
    end = top;
  }
  return end ? fn(ctx, start, end - start) : 0;
}

/* Every RAM range is mapped at bring-up: a fault is never memory the
 * program could have allocated since. */
bool amdgpu_ram_grows(void) { return false; }

int amdgpu_ram_range_of(uint64_t address, uint64_t *start, uint64_t *size) {
  (void)address, (void)start, (void)size;
  return -ENOENT;
}
