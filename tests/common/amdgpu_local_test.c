/* The carve-out's allocator (drivers/amdgpu/amdgpu_local.c) on a device of
 * the virtual APU: as many blocks as the memory holds, first fit with
 * merged neighbours (fragmentation as documented there), what it refuses,
 * and many threads at once. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "lib/plat.h"
#include "lib/test.h"
#include "tests/common/amdgpu_test_util.h"

#define PAGE       4096u
#define MAX_BLOCKS (AMDGPU_TEST_CARVEOUT / PAGE)

static void *blocks[MAX_BLOCKS];

/* Allocates `size`-byte blocks until the carve-out refuses; returns how many. */
static size_t fill(struct amdgpu_device *dev, size_t size) {
  size_t n = 0;
  while (n < MAX_BLOCKS && (blocks[n] = amdgpu_local_alloc(dev, size, PAGE)) != NULL) n++;
  return n;
}

/* Each block is inside the carve-out, page aligned, and no two overlap:
 * every block keeps a tag in its first and last word until checked. */
static void assert_blocks_disjoint(struct amdgpu_device *dev, size_t n, size_t size) {
  uint64_t lo = dev->gmc.fb_physical, hi = lo + dev->gmc.vram_size;
  for (size_t i = 0; i < n; i++) {
    uint64_t a = (uint64_t)(uintptr_t)blocks[i];
    ASSERT_EQ(a % PAGE, 0);
    ASSERT_TRUE(a >= lo && a + size <= hi);
    ((volatile uint32_t *)blocks[i])[0] = (uint32_t)i;
    ((volatile uint32_t *)blocks[i])[size / 4 - 1] = (uint32_t)~i;
  }
  for (size_t i = 0; i < n; i++) {
    ASSERT_EQ(((volatile uint32_t *)blocks[i])[0], (uint32_t)i);
    ASSERT_EQ(((volatile uint32_t *)blocks[i])[size / 4 - 1], (uint32_t)~i);
  }
}

/* The old table held 256 extents: 250 blocks of any size. Now the
 * count is what the memory holds: every free page becomes a block, and
 * freed in any order they merge back so the same number fits again. */
TEST(amdgpu_local_holds_as_many_blocks_as_pages) {
  struct amdgpu_fault_log log;
  struct amdgpu_device *dev = amdgpu_test_bring_up(VAPU_RAVEN, &log);
  ASSERT_NOT_NULL(dev);
  uint64_t free0 = amdgpu_local_free_bytes(dev), blocks0 = amdgpu_local_block_count(dev);
  ASSERT_GT(blocks0, 0); /* the PSP's ring, fence, command buffer and TMR */
  ASSERT_LT(free0, AMDGPU_TEST_CARVEOUT);
  size_t n = fill(dev, PAGE);
  ASSERT_EQ_U(n, free0 / PAGE);
  ASSERT_GT(n, 250);
  ASSERT_EQ_U(amdgpu_local_free_bytes(dev), 0);
  ASSERT_EQ_U(amdgpu_local_block_count(dev), blocks0 + n);
  ASSERT_NULL(amdgpu_local_alloc(dev, 1, PAGE)); /* full */
  assert_blocks_disjoint(dev, n, PAGE);
  /* Freed in a scrambled order (a stride coprime with n). */
  size_t stride = 7919;
  while (n % stride == 0) stride += 2;
  for (size_t i = 0, k = 0; i < n; i++, k = (k + stride) % n)
    ASSERT_EQ(amdgpu_local_free(dev, blocks[k]), 0);
  ASSERT_EQ_U(amdgpu_local_free_bytes(dev), free0);
  ASSERT_EQ_U(amdgpu_local_block_count(dev), blocks0);
  size_t again = fill(dev, PAGE);
  ASSERT_EQ_U(again, n);
  for (size_t i = 0; i < again; i++) ASSERT_EQ(amdgpu_local_free(dev, blocks[i]), 0);
  ASSERT_EQ_U(amdgpu_local_free_bytes(dev), free0);
  ASSERT_EQ(log.count, 0);
  amdgpu_device_remove(dev);
}

static void *fillers[MAX_BLOCKS];

/* First fit: with every other block of a full carve-out freed, half the
 * blocks' memory is free, but nothing larger than one block finds a hole;
 * a block of their size lands in the lowest hole. Freeing the rest merges
 * the holes, and a larger block fits at the lowest address again. (Page
 * blocks fill what the larger ones left between the firmware's blocks, so
 * every hole is exactly one freed block.) */
TEST(amdgpu_local_fragmentation_is_first_fits) {
  struct amdgpu_fault_log log;
  struct amdgpu_device *dev = amdgpu_test_bring_up(VAPU_RAVEN, &log);
  ASSERT_NOT_NULL(dev);
  const size_t size = 64 * 1024;
  uint64_t free0 = amdgpu_local_free_bytes(dev);
  size_t n = fill(dev, size), nf = 0;
  ASSERT_GT(n, 8);
  while ((fillers[nf] = amdgpu_local_alloc(dev, PAGE, PAGE)) != NULL) nf++;
  ASSERT_EQ_U(amdgpu_local_free_bytes(dev), 0);
  for (size_t i = 1; i < n; i++)
    ASSERT_GT((uintptr_t)blocks[i], (uintptr_t)blocks[0]); /* upwards */
  for (size_t i = 0; i < n; i += 2) ASSERT_EQ(amdgpu_local_free(dev, blocks[i]), 0);
  ASSERT_EQ_U(amdgpu_local_free_bytes(dev), (n + 1) / 2 * size);
  ASSERT_NULL(amdgpu_local_alloc(dev, size + PAGE, PAGE)); /* no hole holds it */
  ASSERT_NULL(amdgpu_local_alloc(dev, 2 * size, PAGE));
  void *p = amdgpu_local_alloc(dev, size, PAGE);
  ASSERT_PTR_EQ(p, blocks[0]); /* the lowest hole */
  ASSERT_EQ(amdgpu_local_free(dev, p), 0);
  for (size_t i = 1; i < n; i += 2) ASSERT_EQ(amdgpu_local_free(dev, blocks[i]), 0);
  ASSERT_EQ_U(amdgpu_local_free_bytes(dev), n * size);
  void *big = amdgpu_local_alloc(dev, 2 * size, PAGE);
  ASSERT_PTR_EQ(big, blocks[0]);
  ASSERT_EQ(amdgpu_local_free(dev, big), 0);
  for (size_t i = 0; i < nf; i++) ASSERT_EQ(amdgpu_local_free(dev, fillers[i]), 0);
  ASSERT_EQ_U(amdgpu_local_free_bytes(dev), free0);
  ASSERT_EQ(log.count, 0);
  amdgpu_device_remove(dev);
}

TEST(amdgpu_local_refuses_what_it_did_not_hand_out) {
  struct amdgpu_fault_log log;
  struct amdgpu_device *dev = amdgpu_test_bring_up(VAPU_RENOIR, &log);
  ASSERT_NOT_NULL(dev);
  uint64_t free0 = amdgpu_local_free_bytes(dev);
  ASSERT_NULL(amdgpu_local_alloc(dev, 0, PAGE));
  ASSERT_NULL(amdgpu_local_alloc(dev, PAGE, 3 * PAGE)); /* not a power of two */
  ASSERT_NULL(amdgpu_local_alloc(dev, AMDGPU_TEST_CARVEOUT + PAGE, PAGE));
  ASSERT_NULL(amdgpu_local_alloc(dev, SIZE_MAX, PAGE));
  uint8_t *p = amdgpu_local_alloc(dev, 5000, 16); /* rounded to two pages, page aligned */
  ASSERT_NOT_NULL(p);
  ASSERT_EQ((uintptr_t)p % PAGE, 0);
  ASSERT_EQ_U(amdgpu_local_free_bytes(dev), free0 - 2 * PAGE);
  ASSERT_EQ(amdgpu_local_free(dev, p + PAGE), -EINVAL); /* inside a block */
  ASSERT_EQ(amdgpu_local_free(dev, (void *)(uintptr_t)(dev->gmc.fb_physical - PAGE)), -EINVAL);
  int on_stack;
  ASSERT_EQ(amdgpu_local_free(dev, &on_stack), -EINVAL);
  ASSERT_EQ(amdgpu_local_free(dev, NULL), 0);
  ASSERT_EQ(amdgpu_local_free(dev, p), 0);
  ASSERT_EQ(amdgpu_local_free(dev, p), -EINVAL); /* twice */
  ASSERT_EQ_U(amdgpu_local_free_bytes(dev), free0);
  /* A 4 MiB-aligned block leaves the pages before it to smaller blocks. */
  uint8_t *aligned = amdgpu_local_alloc(dev, PAGE, 4u << 20);
  ASSERT_NOT_NULL(aligned);
  ASSERT_EQ((uintptr_t)aligned % (4u << 20), 0);
  uint8_t *small = amdgpu_local_alloc(dev, PAGE, PAGE);
  ASSERT_NOT_NULL(small);
  ASSERT_LT((uintptr_t)small, (uintptr_t)aligned);
  ASSERT_EQ(amdgpu_local_free(dev, aligned), 0);
  ASSERT_EQ(amdgpu_local_free(dev, small), 0);
  ASSERT_EQ_U(amdgpu_local_free_bytes(dev), free0);
  amdgpu_device_remove(dev);
}

/* ---- Many threads ---------------------------------------------------------- */

#define CHURN_WORKERS_MAX 16
#define CHURN_ROUNDS      2000
#define CHURN_LIVE        8

struct churn {
  struct amdgpu_device *dev;
  uint32_t id;
  uint32_t failures; /* a block that was not ours, or a refused free */
  uint32_t refusals; /* allocations refused (the carve-out may be full at times) */
};

static void churn_main(void *arg) {
  struct churn *c = arg;
  uint32_t *live[CHURN_LIVE] = {0};
  size_t sizes[CHURN_LIVE] = {0};
  uint32_t seed = c->id * 2654435761u + 1;
  for (int round = 0; round < CHURN_ROUNDS; round++) {
    int slot = round % CHURN_LIVE;
    if (live[slot]) {
      size_t words = sizes[slot] / 4;
      if (live[slot][0] != c->id || live[slot][words - 1] != ~c->id) c->failures++;
      if (amdgpu_local_free(c->dev, live[slot])) c->failures++;
      live[slot] = NULL;
    }
    seed = seed * 1103515245u + 12345u;
    sizes[slot] = (size_t)(1 + (seed >> 16) % 16) * PAGE;
    live[slot] = amdgpu_local_alloc(c->dev, sizes[slot], PAGE);
    if (!live[slot]) {
      c->refusals++;
      continue;
    }
    live[slot][0] = c->id;
    live[slot][sizes[slot] / 4 - 1] = ~c->id;
  }
  for (int i = 0; i < CHURN_LIVE; i++)
    if (live[i] && amdgpu_local_free(c->dev, live[i])) c->failures++;
}

TEST(amdgpu_local_threads_allocate_and_free_at_once) {
  struct amdgpu_fault_log log;
  struct amdgpu_device *dev = amdgpu_test_bring_up(VAPU_RAVEN, &log);
  ASSERT_NOT_NULL(dev);
  uint64_t free0 = amdgpu_local_free_bytes(dev), blocks0 = amdgpu_local_block_count(dev);
  static struct churn churns[CHURN_WORKERS_MAX];
  int ids[CHURN_WORKERS_MAX], started = 0;
  int slots = plat_worker_slots();
  int want = slots < CHURN_WORKERS_MAX ? slots : CHURN_WORKERS_MAX;
  for (int i = 0; i < want; i++) {
    churns[i] = (struct churn){dev, (uint32_t)i + 1, 0, 0};
    ids[i] = plat_worker_start("local-churn", churn_main, &churns[i]);
    if (ids[i] < 0) break;
    started++;
  }
  if (started < 2) {
    for (int i = 0; i < started; i++) plat_worker_join(ids[i]);
    amdgpu_device_remove(dev);
    test_skip("fewer than two workers to allocate at once");
  }
  for (int i = 0; i < started; i++) plat_worker_join(ids[i]);
  for (int i = 0; i < started; i++) {
    ASSERT_EQ(churns[i].failures, 0);
    ASSERT_EQ(churns[i].refusals, 0); /* 16 x 8 x 64 KiB at most: the carve-out holds them */
  }
  ASSERT_EQ_U(amdgpu_local_free_bytes(dev), free0);
  ASSERT_EQ_U(amdgpu_local_block_count(dev), blocks0);
  amdgpu_device_remove(dev);
}
