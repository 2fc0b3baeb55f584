/* Backtraces name functions from the image's own symbol table (section
 * .ksyms, decoded by kernel/ksyms.c; tests/host/ksyms_test.c checks every
 * entry against nm): the lookup the trace and the fault report make gives
 * the function an address lies in and the offset into it, and nothing for
 * an address outside the code. */
#include <stdint.h>

#include "kernel/backtrace.h"
#include "lib/test.h"

static __attribute__((noinline)) int backtrace_test_local_function(int x) {
  __asm__ volatile("" : "+r"(x));
  return x + 1;
}

TEST(backtrace_lookup_names_the_function_an_address_lies_in) {
  char name[KSYM_NAME_MAX];
  uint64_t off = 99;
  uintptr_t local = (uintptr_t)backtrace_test_local_function;
  ASSERT_EQ(backtrace_test_local_function(1), 2);
  ASSERT_TRUE(ksym_lookup(local, name, &off));
  ASSERT_STR_EQ(name, "backtrace_test_local_function");
  ASSERT_EQ_U(off, 0);
  ASSERT_TRUE(ksym_lookup(local + 3, name, &off));
  ASSERT_STR_EQ(name, "backtrace_test_local_function");
  ASSERT_EQ_U(off, 3);
  ASSERT_TRUE(ksym_lookup((uintptr_t)backtrace_print, name, &off));
  ASSERT_STR_EQ(name, "backtrace_print");
  ASSERT_EQ_U(off, 0);
  ASSERT_TRUE(ksym_lookup((uintptr_t)test_run, name, &off));
  ASSERT_STR_EQ(name, "test_run");
}

TEST(backtrace_lookup_outside_the_code_finds_nothing) {
  char name[KSYM_NAME_MAX] = "stale";
  uint64_t off = 0;
  ASSERT_FALSE(ksym_lookup((uintptr_t)name, name, &off)); /* the stack */
  ASSERT_STR_EQ(name, "");
  ASSERT_FALSE(ksym_lookup(0, name, &off));
  ASSERT_FALSE(ksym_lookup(UINT64_MAX, name, &off));
}
