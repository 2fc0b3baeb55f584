/* dma.c - plat_dma_alloc/plat_dma_free for the image: physically contiguous,
 * zeroed blocks straight from the frame allocator. With the identity map a
 * block's address is also its bus address (lib/plat.h). */
#include <errno.h>
#include <string.h>

#include "kernel/frames.h"
#include "kernel/vm.h"
#include "lib/plat.h"

#define LOG_TAG "dma"

static _Atomic size_t bytes_in_use;

size_t plat_dma_bytes_in_use(void) { return bytes_in_use; }

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
  bytes_in_use += size;
  return p;
}

void plat_dma_free(void *p, size_t size) {
  if (!p) return;
  frames_free((uint64_t)(uintptr_t)p, size);
  bytes_in_use -= size;
}

/* The identity map's memory types (kernel/pt.h PAT layout). */
static const unsigned cache_attrs[] = {
    [PLAT_CACHE_WRITE_BACK] = VM_RAM,
    [PLAT_CACHE_WRITE_COMBINING] = VM_MMIO_WC,
    [PLAT_CACHE_UNCACHED] = VM_MMIO,
};

int plat_set_cpu_cache_mode(uint64_t addr, uint64_t size, enum plat_cache_mode mode) {
  if ((unsigned)mode > PLAT_CACHE_UNCACHED || ((addr | size) & (FRAME_SIZE - 1)) || !size) return -EINVAL;
  return vm_set_attrs(addr, size, cache_attrs[mode]) ? -EINVAL : 0;
}

enum plat_cache_mode plat_cpu_cache_mode(uint64_t addr) {
  uint64_t page_size;
  switch (vm_query(addr, &page_size) & PT_CACHE_MASK) {
    case PT_CACHE_WB: return PLAT_CACHE_WRITE_BACK;
    case PT_CACHE_WC: return PLAT_CACHE_WRITE_COMBINING;
    default: return PLAT_CACHE_UNCACHED;
  }
}
