/* The free-range set under the frame allocator (kernel/frame_pool.c). */
#include "kernel/frame_pool.h"
#include "lib/test.h"

#define MiB (1ull << 20)
static struct frame_range storage[8];
static struct frame_pool pool;

static void fresh(void) { frame_pool_init(&pool, storage, 8); }

TEST(frame_pool_add_coalesces_and_rejects_overlap) {
  fresh();
  ASSERT_EQ(frame_pool_add(&pool, 4 * MiB, MiB), 0);
  ASSERT_EQ(frame_pool_add(&pool, 6 * MiB, MiB), 0);
  ASSERT_EQ(pool.count, 2);
  ASSERT_EQ(frame_pool_add(&pool, 5 * MiB, MiB), 0); /* fills the gap: one range */
  ASSERT_EQ(pool.count, 1);
  ASSERT_EQ_U(pool.ranges[0].base, 4 * MiB);
  ASSERT_EQ_U(pool.ranges[0].end, 7 * MiB);
  ASSERT_EQ(frame_pool_add(&pool, 6 * MiB, FRAME_SIZE), FRAME_POOL_OVERLAP); /* double free */
  ASSERT_EQ(frame_pool_add(&pool, 3 * MiB, 2 * MiB), FRAME_POOL_OVERLAP); /* overlaps the start */
  ASSERT_EQ(frame_pool_add(&pool, 4 * MiB + 1, FRAME_SIZE), FRAME_POOL_MISALIGNED);
  ASSERT_EQ_U(frame_pool_free_bytes(&pool), 3 * MiB);
}

TEST(frame_pool_alloc_top_down_aligned_and_limited) {
  fresh();
  ASSERT_EQ(frame_pool_add(&pool, MiB, MiB), 0);
  ASSERT_EQ(frame_pool_add(&pool, 16 * MiB, 8 * MiB), 0);
  uint64_t a = frame_pool_alloc(&pool, FRAME_SIZE, FRAME_SIZE, UINT64_MAX);
  ASSERT_EQ_U(a, 24 * MiB - FRAME_SIZE); /* from the top */
  uint64_t b = frame_pool_alloc(&pool, 2 * MiB, 2 * MiB, UINT64_MAX);
  ASSERT_EQ_U(b, 20 * MiB); /* highest 2 MiB-aligned block below a */
  uint64_t c = frame_pool_alloc(&pool, FRAME_SIZE, FRAME_SIZE, 2 * MiB);
  ASSERT_EQ_U(c, 2 * MiB - FRAME_SIZE);                                      /* below the limit */
  ASSERT_EQ_U(frame_pool_alloc(&pool, 64 * MiB, FRAME_SIZE, UINT64_MAX), 0); /* too big */
  ASSERT_EQ_U(frame_pool_alloc(&pool, FRAME_SIZE, 3 * FRAME_SIZE, UINT64_MAX), 0); /* bad align */
  ASSERT_EQ_U(frame_pool_alloc(&pool, 100, FRAME_SIZE, UINT64_MAX), 0); /* not whole pages */
  ASSERT_EQ_U(frame_pool_free_bytes(&pool), 9 * MiB - 2 * FRAME_SIZE - 2 * MiB);
  /* Freed blocks merge back. */
  ASSERT_EQ(frame_pool_add(&pool, a, FRAME_SIZE), 0);
  ASSERT_EQ(frame_pool_add(&pool, b, 2 * MiB), 0);
  ASSERT_EQ(frame_pool_add(&pool, c, FRAME_SIZE), 0);
  ASSERT_EQ(pool.count, 2);
}

TEST(frame_pool_never_hands_out_page_zero) {
  fresh();
  ASSERT_EQ(frame_pool_add(&pool, 0, FRAME_SIZE), 0);
  ASSERT_EQ_U(frame_pool_alloc(&pool, FRAME_SIZE, FRAME_SIZE, UINT64_MAX), 0);
}

TEST(frame_pool_claim_exact_ranges) {
  fresh();
  ASSERT_EQ(frame_pool_add(&pool, 8 * MiB, 4 * MiB), 0);
  ASSERT_EQ(frame_pool_claim(&pool, 9 * MiB, MiB), 0); /* splits the range */
  ASSERT_EQ(pool.count, 2);
  ASSERT_EQ(frame_pool_claim(&pool, 9 * MiB, FRAME_SIZE), -1);                   /* taken already */
  ASSERT_EQ(frame_pool_claim(&pool, 10 * MiB - FRAME_SIZE, 2 * FRAME_SIZE), -1); /* half free */
  ASSERT_EQ(frame_pool_claim(&pool, 8 * MiB, MiB), 0);
  ASSERT_EQ_U(frame_pool_free_bytes(&pool), 2 * MiB);
}

TEST(frame_pool_table_full_is_an_error) {
  frame_pool_init(&pool, storage, 2);
  ASSERT_EQ(frame_pool_add(&pool, 2 * MiB, MiB), 0);
  ASSERT_EQ(frame_pool_add(&pool, 8 * MiB, MiB), 0);
  ASSERT_EQ(frame_pool_add(&pool, 16 * MiB, MiB), FRAME_POOL_FULL);
  /* A split that needs a third range fails and leaves the pool intact. */
  ASSERT_EQ(frame_pool_claim(&pool, 2 * MiB + FRAME_SIZE, FRAME_SIZE), -1);
  ASSERT_EQ_U(frame_pool_free_bytes(&pool), 2 * MiB);
}

TEST(frame_pool_claim_either_takes_a_run_across_both_sets) {
  static struct frame_range other_storage[8];
  struct frame_pool other;
  fresh();
  frame_pool_init(&other, other_storage, 8);
  ASSERT_EQ(frame_pool_add(&pool, 8 * MiB, MiB), 0);
  ASSERT_EQ(frame_pool_add(&other, 9 * MiB, MiB), 0);
  ASSERT_EQ(frame_pool_add(&pool, 10 * MiB, MiB), 0);
  ASSERT_EQ(frame_pool_add(&other, 16 * MiB, MiB), 0);
  bool from_other = true;
  /* Within the first set only: nothing of the other. */
  ASSERT_EQ(frame_pool_claim_either(&pool, &other, 8 * MiB, FRAME_SIZE, &from_other), 0);
  ASSERT_FALSE(from_other);
  /* Across: the rest of 8 MiB, all of the other's 9 MiB, half of 10 MiB. */
  ASSERT_EQ(frame_pool_claim_either(&pool, &other, 8 * MiB + FRAME_SIZE,
                                    5 * MiB / 2 - FRAME_SIZE, &from_other),
            0);
  ASSERT_TRUE(from_other);
  ASSERT_EQ_U(frame_pool_free_bytes(&pool), MiB / 2);
  ASSERT_EQ_U(frame_pool_free_bytes(&other), MiB);
  /* A hole (11-16 MiB) or a taken page fails and takes nothing. */
  ASSERT_EQ(frame_pool_claim_either(&pool, &other, 21 * MiB / 2, 6 * MiB, &from_other), -1);
  ASSERT_EQ(frame_pool_claim_either(&pool, &other, 9 * MiB, FRAME_SIZE, &from_other), -1);
  ASSERT_EQ_U(frame_pool_free_bytes(&pool), MiB / 2);
  ASSERT_EQ_U(frame_pool_free_bytes(&other), MiB);
  ASSERT_EQ(frame_pool_claim_either(&pool, &other, 16 * MiB + 1, FRAME_SIZE, &from_other), -1);
}

TEST(frame_pool_overlaps_finds_any_free_page) {
  fresh();
  ASSERT_EQ(frame_pool_add(&pool, 8 * MiB, MiB), 0);
  ASSERT_TRUE(frame_pool_overlaps(&pool, 9 * MiB - FRAME_SIZE, 2 * FRAME_SIZE));
  ASSERT_TRUE(frame_pool_overlaps(&pool, 7 * MiB, 4 * MiB));
  ASSERT_FALSE(frame_pool_overlaps(&pool, 9 * MiB, MiB));
  ASSERT_FALSE(frame_pool_overlaps(&pool, 7 * MiB, MiB));
}
