/*
 * test.h - tests declared anywhere with TEST(), run by the same runner on the
 * host (under ASan/UBSan) and in the boot image (in QEMU).
 *
 *   TEST(signal_wait_times_out) {
 *     ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
 *     ...
 *   }
 *
 * Tests live in linker section "test_cases"; the runner walks it from
 * __start_test_cases to __stop_test_cases. A failed ASSERT prints one line
 * and leaves the test (longjmp), so assert only on the thread that runs the
 * test. Each test prints exactly one result line:
 *
 *   [PASS] name (1.234 ms)      [FAIL] name: file:line: why      [SKIP] name: why
 *
 * followed at the end by "N passed, N failed, N skipped". tests/run-suites.sh
 * counts these lines across all suites.
 */
#ifndef LIB_TEST_H
#define LIB_TEST_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* A test that expects a CPU exception (image only) names its vector. */
#define TEST_NO_FAULT (-1)

struct test_case {
  const char *name;
  void (*fn)(void);
  const char *file;
  int line;
  int expect_fault; /* CPU vector the test must raise, or TEST_NO_FAULT */
};

#define TEST_DECLARE_(name_, fault_)                                          \
  static void test_fn_##name_(void);                                          \
  static const struct test_case test_case_##name_                            \
      __attribute__((used, section("test_cases"), aligned(8))) = {           \
          #name_, test_fn_##name_, __FILE__, __LINE__, fault_};              \
  static void test_fn_##name_(void)

#define TEST(name_) TEST_DECLARE_(name_, TEST_NO_FAULT)
/* The test passes only if it raises CPU exception `vector` (e.g. 14 for #PF). */
#define TEST_EXPECT_FAULT(name_, vector) TEST_DECLARE_(name_, vector)

/* A check that runs after every test, whatever its outcome: it puts back
 * what a test may leave behind (a failed ASSERT leaves a test in its middle,
 * e.g. with the HSA runtime still up and its cores taken) so that the next
 * tests start clean, and returns NULL, or why a test that passed is still a
 * failure (it left that state behind itself). Declared anywhere with
 *
 *   TEST_AFTER_EACH(runtime_shut_down) { ...; return NULL; }
 */
struct test_after_each {
  const char *name;
  const char *(*fn)(void);
};

#define TEST_AFTER_EACH(name_)                                                \
  static const char *test_after_fn_##name_(void);                             \
  static const struct test_after_each test_after_##name_                      \
      __attribute__((used, section("test_after_each"), aligned(8))) = {      \
          #name_, test_after_fn_##name_};                                     \
  static const char *test_after_fn_##name_(void)

/* Runs every TEST_AFTER_EACH check now, as the runner does after each
 * test (for the runner's own tests): the first one's complaint (and in
 * *check its name, when check is not NULL), or NULL. */
const char *test_after_each_checks(const char **check);

/* Leave the current test as failed / skipped. Never return. */
void test_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));
void test_skip(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* Names the case a test is in now (kernel, variant, operation, ...): a
 * failure line ends with "[while: <context>]", so a loop's ASSERT says
 * which iteration failed. Replaced by the next call, cleared by
 * test_context(NULL) and at the start of every test. Test thread only. */
void test_context(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Fail with a message of the test's own, at the caller's file and line. */
#define FAIL(...) test_fail(__FILE__, __LINE__, __VA_ARGS__)
#define ASSERT_MSG(c, ...)                                                    \
  do {                                                                        \
    if (!(c)) test_fail(__FILE__, __LINE__, __VA_ARGS__);                      \
  } while (0)

#define ASSERT_TRUE(c)                                                        \
  do {                                                                        \
    if (!(c)) test_fail(__FILE__, __LINE__, "%s", #c);                         \
  } while (0)
#define ASSERT_FALSE(c) ASSERT_TRUE(!(c))
#define ASSERT_CMP_(a, op, b, ta)                                             \
  do {                                                                        \
    ta va_ = (ta)(a), vb_ = (ta)(b);                                          \
    if (!(va_ op vb_))                                                        \
      test_fail(__FILE__, __LINE__, "%s %s %s (0x%llx vs 0x%llx)", #a, #op, #b, \
                (unsigned long long)va_, (unsigned long long)vb_);            \
  } while (0)
#define ASSERT_EQ(a, b) ASSERT_CMP_(a, ==, b, long long)
#define ASSERT_NE(a, b) ASSERT_CMP_(a, !=, b, long long)
#define ASSERT_LT(a, b) ASSERT_CMP_(a, <, b, long long)
#define ASSERT_LE(a, b) ASSERT_CMP_(a, <=, b, long long)
#define ASSERT_GT(a, b) ASSERT_CMP_(a, >, b, long long)
#define ASSERT_GE(a, b) ASSERT_CMP_(a, >=, b, long long)
#define ASSERT_EQ_U(a, b) ASSERT_CMP_(a, ==, b, unsigned long long)
#define ASSERT_PTR_EQ(a, b) ASSERT_CMP_(a, ==, b, uintptr_t)
#define ASSERT_NOT_NULL(p) ASSERT_TRUE((p) != NULL)
#define ASSERT_NULL(p) ASSERT_TRUE((p) == NULL)
#define ASSERT_STR_EQ(a, b)                                                   \
  do {                                                                        \
    const char *sa_ = (a), *sb_ = (b);                                        \
    if (!sa_ || !sb_ || strcmp(sa_, sb_) != 0)                                \
      test_fail(__FILE__, __LINE__, "%s == %s (\"%s\" vs \"%s\")", #a, #b,     \
                sa_ ? sa_ : "(null)", sb_ ? sb_ : "(null)");                   \
  } while (0)
#define ASSERT_MEM_EQ(a, b, n) ASSERT_TRUE(memcmp((a), (b), (n)) == 0)

/* Runs every test whose name matches `pattern` ('*' and '?' wildcards; a
 * comma-separated list of patterns; NULL or "" = all). Returns the number of
 * failures. */
int test_run(const char *pattern);

/* True if `name` matches the glob list `pattern` (same rules as test_run). */
bool test_name_matches(const char *pattern, const char *name);

/* Image: the CPU exception handler calls this first. If a test is running,
 * it reports the fault (pass if the test expected `vector`, fail otherwise)
 * and resumes the runner with the next test; it does not return then.
 * If no test is running it returns and the handler panics as usual. */
void test_on_cpu_exception(int vector);

/* The name of the test running now, or NULL. */
const char *test_current(void);

#endif
