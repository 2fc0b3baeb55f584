/* plat_dma_alloc/plat_dma_free in the image: contiguous, zeroed, aligned,
 * write-back RAM; bad arguments refused; freed memory reusable. */
#include <stdint.h>
#include <string.h>

#include "kernel/frames.h"
#include "kernel/vm.h"
#include "lib/plat.h"
#include "lib/test.h"

TEST(dma_alloc_is_aligned_zeroed_ram) {
  size_t sizes[] = {1, 4096, 12288, 1 << 20};
  size_t aligns[] = {0, 4096, 65536, 2 << 20};
  for (unsigned i = 0; i < 4; i++) {
    uint8_t *p = plat_dma_alloc(sizes[i], aligns[i]);
    ASSERT_NOT_NULL(p);
    ASSERT_EQ((uintptr_t)p % (aligns[i] < 4096 ? 4096 : aligns[i]), 0);
    for (size_t b = 0; b < sizes[i]; b++) ASSERT_EQ(p[b], 0);
    uint64_t ps;
    unsigned a = vm_query((uint64_t)(uintptr_t)p, &ps);
    ASSERT_EQ(a & (PT_PRESENT | PT_WRITE | PT_EXEC | PT_CACHE_MASK), PT_PRESENT | PT_WRITE);
    memset(p, 0xff, sizes[i]);
    plat_dma_free(p, sizes[i]);
  }
}

TEST(dma_free_returns_the_frames) {
  uint64_t before = frames_free_bytes();
  void *p = plat_dma_alloc(1 << 20, 4096);
  ASSERT_NOT_NULL(p);
  ASSERT_EQ(frames_free_bytes(), before - (1 << 20));
  plat_dma_free(p, 1 << 20);
  ASSERT_EQ(frames_free_bytes(), before);
}

TEST(dma_alloc_refuses_bad_arguments) {
  ASSERT_NULL(plat_dma_alloc(0, 4096));
  ASSERT_NULL(plat_dma_alloc(4096, 3000));
  ASSERT_NULL(plat_dma_alloc((size_t)64 << 30, 4096)); /* more than the guest has */
}
