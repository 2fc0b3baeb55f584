/* Tests of vector allocation, handler registration and the counters. */
#include <errno.h>

#include "kernel/irq.h"
#include "lib/test.h"

static void note_ctx(void *ctx) { *(void **)ctx = ctx; }

TEST(irq_vector_alloc_aligned_blocks) {
  int a = irq_vector_alloc(4, 4);
  int b = irq_vector_alloc(1, 1);
  int c = irq_vector_alloc(8, 8);
  ASSERT_GE(a, IRQ_VECTOR_FIRST);
  ASSERT_EQ(a % 4, 0);
  ASSERT_EQ(c % 8, 0);
  ASSERT_LE(c + 7, IRQ_VECTOR_ALLOC_LAST);
  /* No overlap. */
  ASSERT_TRUE(b < a || b >= a + 4);
  ASSERT_TRUE(c + 8 <= a || c >= a + 4);
  ASSERT_TRUE(b < c || b >= c + 8);
  irq_vector_free((unsigned)a, 4);
  irq_vector_free((unsigned)b, 1);
  irq_vector_free((unsigned)c, 8);
  ASSERT_EQ(irq_vector_alloc(1, 3), -EINVAL); /* alignment not a power of two */
  ASSERT_EQ(irq_vector_alloc(0, 1), -EINVAL);
  ASSERT_EQ(irq_vector_alloc(300, 1), -ENOSPC);
}

TEST(irq_vector_alloc_exhausts_then_recovers) {
  int got[256], n = 0, v;
  while ((v = irq_vector_alloc(1, 1)) >= 0) got[n++] = v;
  ASSERT_EQ(v, -ENOSPC);
  /* Other tests may hold none: the whole device range was handed out. */
  ASSERT_EQ(n, IRQ_VECTOR_ALLOC_LAST - IRQ_VECTOR_FIRST + 1);
  for (int i = 0; i < n; i++) {
    ASSERT_GE(got[i], IRQ_VECTOR_FIRST);
    ASSERT_LE(got[i], IRQ_VECTOR_ALLOC_LAST);
  }
  irq_vector_free((unsigned)got[0], 1);
  ASSERT_EQ(irq_vector_alloc(1, 1), got[0]);
  for (int i = 0; i < n; i++) irq_vector_free((unsigned)got[i], 1);
}

TEST(irq_handler_registration_and_counters) {
  int v = irq_vector_alloc(1, 1);
  ASSERT_GE(v, 0);
  void *seen = NULL;
  ASSERT_EQ(irq_set_handler((unsigned)v, note_ctx, &seen), 0);
  uint64_t before = irq_count((unsigned)v);
  ASSERT_TRUE(irq_handle((unsigned)v));
  ASSERT_PTR_EQ(seen, &seen);
  ASSERT_EQ_U(irq_count((unsigned)v), before + 1);
  /* Without a handler the interrupt is counted as unexpected. */
  ASSERT_EQ(irq_set_handler((unsigned)v, NULL, NULL), 0);
  uint64_t unexpected = irq_unexpected_count();
  ASSERT_FALSE(irq_handle((unsigned)v));
  ASSERT_EQ_U(irq_unexpected_count(), unexpected + 1);
  irq_vector_free((unsigned)v, 1);
  /* Exception vectors and unallocated device vectors are refused; the
   * fixed kernel vectors take handlers without allocation. */
  ASSERT_EQ(irq_set_handler(14, note_ctx, NULL), -EINVAL);
  ASSERT_EQ(irq_set_handler((unsigned)v, note_ctx, NULL), -EINVAL);
  ASSERT_EQ(irq_set_handler(256, note_ctx, NULL), -EINVAL);
  ASSERT_FALSE(irq_handle(300));
}
