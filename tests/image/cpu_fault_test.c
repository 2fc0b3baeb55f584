/* CPU exceptions inside tests: each must be caught, reported (vector,
 * error code, registers, backtrace) and handed back to the runner, which
 * passes the test because it declared the fault. If the protection were
 * missing the access would succeed and the runner would fail the test
 * ("expected CPU exception ... did not happen"). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cpu.h"
#include "lib/test.h"

/* Page 0 is unmapped: a NULL dereference faults instead of reading memory. */
/* Hides a constant address from the compiler's bounds checks. */
static uintptr_t opaque(uintptr_t v) {
  __asm__ volatile("" : "+r"(v));
  return v;
}

TEST_EXPECT_FAULT(cpu_fault_null_read_is_page_fault, VEC_PAGE_FAULT) {
  volatile uint32_t *p = (volatile uint32_t *)opaque(0x10);
  (void)*p;
}

/* Kernel text is mapped read-only and CR0.WP makes ring 0 honour it. */
extern const char __text_start[];
TEST_EXPECT_FAULT(cpu_fault_write_to_text_is_page_fault, VEC_PAGE_FAULT) {
  volatile uint8_t *code = (volatile uint8_t *)opaque((uintptr_t)__text_start + 64);
  *code = 0xc3;
}

/* Heap pages are no-execute: a RET copied there must not run. */
TEST_EXPECT_FAULT(cpu_fault_jump_into_data_is_page_fault, VEC_PAGE_FAULT) {
  uint8_t *buf = malloc(64);
  ASSERT_NOT_NULL(buf);
  memset(buf, 0xc3, 64); /* RET */
  void (*fn)(void) = (void (*)(void))(uintptr_t)buf;
  fn();
  free(buf);
}

/* Each frame keeps 512 bytes live, so the recursion walks down the stack
 * until it hits the guard page. The #PF cannot push its frame on the full
 * stack: the CPU raises #DF, which runs on its own IST stack. */
static __attribute__((noinline)) unsigned recurse(unsigned depth) {
  volatile uint8_t frame[512];
  if (depth > (1u << 30)) return 0; /* never: the guard page comes first */
  frame[0] = (uint8_t)depth;
  frame[511] = (uint8_t)(depth >> 8);
  return recurse(depth + 1) + frame[0] + frame[511];
}

TEST_EXPECT_FAULT(cpu_fault_stack_overflow_hits_guard_page, VEC_DOUBLE_FAULT) { (void)recurse(0); }

/* A divide by zero (#DE) is caught like any other exception. */
TEST_EXPECT_FAULT(cpu_fault_divide_by_zero, VEC_DIVIDE) {
  volatile unsigned zero = 0;
  volatile unsigned r = 10u / zero;
  (void)r;
}

/* After all those faults the floating point state still works: the stubs
 * save and restore it, and SSE is enabled. */
TEST(cpu_sse_state_survives) {
  volatile double a = 1.5, b = 2.25;
  ASSERT_TRUE(a * b == 3.375);
  uint32_t mxcsr;
  __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
  ASSERT_EQ(mxcsr & 0x1f80, 0x1f80); /* SIMD exceptions masked */
}

TEST(cpu_core_index_of_boot_core_is_0) {
  ASSERT_EQ(cpu_index(), 0);
  ASSERT_TRUE(cpu_cores[0].online);
  ASSERT_NE(cpu_cores[0].tss.ist[IST_DOUBLE_FAULT - 1], 0);
}
