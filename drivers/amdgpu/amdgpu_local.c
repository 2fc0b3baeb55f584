/* amdgpu_local.c - allocations in the frame buffer carve-out ("local
 * memory"), at the carve-out's physical address (where the CPU and, in the
 * compute VMIDs, the GPU reach it): first fit over a small table of blocks. The top of the
 * carve-out stays reserved for the firmware (the discovery table lives
 * 64 KiB below the top, Linux amdgpu_discovery.h). */
#include <errno.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "lib/plat.h"

static void lock(struct amdgpu_device *dev) {
  while (__atomic_exchange_n(&dev->local_lock, 1, __ATOMIC_ACQUIRE)) plat_cpu_relax();
}
static void unlock(struct amdgpu_device *dev) { __atomic_store_n(&dev->local_lock, 0, __ATOMIC_RELEASE); }

void amdgpu_local_init(struct amdgpu_device *dev, uint64_t reserved_top_bytes) {
  uint64_t size = dev->gmc.vram_size > reserved_top_bytes ? dev->gmc.vram_size - reserved_top_bytes : 0;
  dev->local[0] = (struct local_block){0, size, false};
  dev->local_count = size ? 1 : 0;
}

uint64_t amdgpu_local_mc_address(const struct amdgpu_device *dev, const void *p) {
  return dev->gmc.fb_start + ((uint64_t)(uintptr_t)p - dev->gmc.fb_physical);
}

uint64_t amdgpu_local_physical_address(const struct amdgpu_device *dev, const void *p) {
  (void)dev;
  return (uint64_t)(uintptr_t)p;
}

void *amdgpu_local_alloc(struct amdgpu_device *dev, size_t size, size_t align) {
  if (!dev || !size || (align & (align - 1))) return NULL;
  if (align < 4096) align = 4096;
  size = (size + 4095) & ~(size_t)4095;
  void *result = NULL;
  lock(dev);
  for (int i = 0; i < dev->local_count && !result; i++) {
    struct local_block *b = &dev->local[i];
    uint64_t start = (b->offset + align - 1) & ~(uint64_t)(align - 1);
    if (b->used || start + size > b->offset + b->size) continue;
    int needed = (start > b->offset) + (start + size < b->offset + b->size);
    if (dev->local_count + needed > AMDGPU_LOCAL_BLOCKS) break;
    uint64_t end = b->offset + b->size;
    int at = i;
    for (int k = dev->local_count - 1; k > i; k--) dev->local[k + needed] = dev->local[k];
    if (start > b->offset) dev->local[at++] = (struct local_block){b->offset, start - b->offset, false};
    dev->local[at] = (struct local_block){start, size, true};
    if (start + size < end) dev->local[at + 1] = (struct local_block){start + size, end - start - size, false};
    dev->local_count += needed;
    result = (void *)(uintptr_t)(dev->gmc.fb_physical + start);
  }
  unlock(dev);
  return result;
}

void amdgpu_local_free(struct amdgpu_device *dev, void *p) {
  if (!dev || !p) return;
  uint64_t offset = (uint64_t)(uintptr_t)p - dev->gmc.fb_physical;
  lock(dev);
  for (int i = 0; i < dev->local_count; i++) {
    if (dev->local[i].offset != offset || !dev->local[i].used) continue;
    dev->local[i].used = false;
    /* Merge with free neighbours. */
    if (i + 1 < dev->local_count && !dev->local[i + 1].used) {
      dev->local[i].size += dev->local[i + 1].size;
      for (int k = i + 1; k + 1 < dev->local_count; k++) dev->local[k] = dev->local[k + 1];
      dev->local_count--;
    }
    if (i > 0 && !dev->local[i - 1].used) {
      dev->local[i - 1].size += dev->local[i].size;
      for (int k = i; k + 1 < dev->local_count; k++) dev->local[k] = dev->local[k + 1];
      dev->local_count--;
    }
    break;
  }
  unlock(dev);
}
