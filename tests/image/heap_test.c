/* newlib's malloc on the kernel heap: a stress of many sizes with every
 * byte checked, growth past the pages boot/ reserved (sbrk claims frames
 * above), and the failure path (ENOMEM, not a crash). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/frames.h"
#include "lib/test.h"

#define SLOTS 512

static uint32_t rng_state = 12345;
static uint32_t rng(void) { /* xorshift32: a fixed, reproducible sequence */
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state;
}

static uint8_t pattern(size_t slot, size_t i) { return (uint8_t)(slot * 31 + i * 7 + (i >> 9)); }

TEST(heap_malloc_free_stress) {
  static uint8_t *ptr[SLOTS];
  static size_t len[SLOTS];
  memset(ptr, 0, sizeof ptr);
  for (int round = 0; round < 20000; round++) {
    size_t s = rng() % SLOTS;
    if (ptr[s]) {
      for (size_t i = 0; i < len[s]; i++)
        if (ptr[s][i] != pattern(s, i))
          FAIL("slot %zu byte %zu of %zu corrupted", s, i, len[s]);
      free(ptr[s]);
      ptr[s] = NULL;
    } else {
      /* Mostly small, sometimes up to 256 KiB (newlib's mmap threshold does
       * not apply: everything comes from sbrk). */
      len[s] = rng() % 16 == 0 ? rng() % (256 * 1024) : rng() % 512;
      ptr[s] = malloc(len[s]);
      ASSERT_NOT_NULL(ptr[s]);
      ASSERT_EQ((uintptr_t)ptr[s] % 16, 0); /* x86-64 ABI alignment */
      for (size_t i = 0; i < len[s]; i++) ptr[s][i] = pattern(s, i);
    }
  }
  for (size_t s = 0; s < SLOTS; s++) free(ptr[s]);
}

TEST(heap_grows_past_the_boot_reservation) {
  /* boot/ reserves 16 MiB; 64 MiB must come from frames claimed above it. */
  size_t n = 64u << 20;
  uint64_t free_before = frames_free_bytes();
  uint8_t *p = malloc(n);
  ASSERT_NOT_NULL(p);
  memset(p, 0x5a, n);
  ASSERT_EQ(p[0], 0x5a);
  ASSERT_EQ(p[n - 1], 0x5a);
  ASSERT_LT(frames_free_bytes(), free_before); /* the frames are the heap's now */
  free(p);
}

TEST(heap_out_of_memory_is_enomem) {
  errno = 0;
  void *p = malloc((size_t)64 << 30); /* 64 GiB in a 1 GiB guest */
  ASSERT_NULL(p);
  ASSERT_EQ(errno, ENOMEM);
  void *q = malloc(1024); /* and the heap still works */
  ASSERT_NOT_NULL(q);
  free(q);
}

TEST(heap_aligned_allocations) {
  void *p = NULL;
  ASSERT_EQ(posix_memalign(&p, 4096, 10000), 0);
  ASSERT_EQ((uintptr_t)p % 4096, 0);
  free(p);
  ASSERT_EQ(posix_memalign(&p, 3, 16), EINVAL);
  void *q = aligned_alloc(256, 512);
  ASSERT_NOT_NULL(q);
  ASSERT_EQ((uintptr_t)q % 256, 0);
  free(q);
}
