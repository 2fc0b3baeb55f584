/* dma.c - plat_dma_alloc/plat_dma_free for the image: physically contiguous,
 * zeroed blocks straight from the frame allocator. With the identity map a
 * block's address is also its bus address (lib/plat.h). */
#include <string.h>

#include "kernel/frames.h"
#include "lib/plat.h"

#define LOG_TAG "dma"

void *plat_dma_alloc(size_t size, size_t align) {
  if (size == 0 || (align & (align - 1))) {
    log_error("plat_dma_alloc(%zu, %zu): size must be > 0 and align a power of two", size, align);
    return NULL;
  }
  uint64_t base = frames_alloc(size, align < FRAME_SIZE ? FRAME_SIZE : align);
  if (!base) {
    log_warn("plat_dma_alloc(%zu, %zu): out of contiguous memory", size, align);
    return NULL;
  }
  void *p = (void *)(uintptr_t)base;
  memset(p, 0, size);
  return p;
}

void plat_dma_free(void *p, size_t size) {
  if (p) frames_free((uint64_t)(uintptr_t)p, size);
}
