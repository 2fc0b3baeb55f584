/* test_runner.c - runs the TEST() cases of the linked program, on the host
 * and in the image alike (see test.h for the output format). */
#include "lib/test.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/plat.h"

/* Defined by the linker around section "test_cases"; weak so that a program
 * without any TEST() still links. */
extern const struct test_case __start_test_cases[] __attribute__((weak));
extern const struct test_case __stop_test_cases[] __attribute__((weak));

extern const struct test_after_each __start_test_after_each[] __attribute__((weak));
extern const struct test_after_each __stop_test_after_each[] __attribute__((weak));

enum outcome { OUTCOME_PASS, OUTCOME_FAIL, OUTCOME_SKIP };

static jmp_buf test_exit_jmp;
static const struct test_case *running;
static enum outcome running_outcome;
static char running_context[256];

static bool glob_match(const char *pat, const char *pat_end, const char *s) {
  if (pat == pat_end) return *s == '\0';
  if (*pat == '*') {
    for (;; s++) {
      if (glob_match(pat + 1, pat_end, s)) return true;
      if (*s == '\0') return false;
    }
  }
  if (*s == '\0') return false;
  if (*pat != '?' && *pat != *s) return false;
  return glob_match(pat + 1, pat_end, s + 1);
}

bool test_name_matches(const char *pattern, const char *name) {
  if (!pattern || !*pattern) return true;
  const char *p = pattern;
  for (;;) {
    const char *end = strchr(p, ',');
    if (!end) end = p + strlen(p);
    if (glob_match(p, end, name)) return true;
    if (*end == '\0') return false;
    p = end + 1;
  }
}

const char *test_current(void) { return running ? running->name : NULL; }

static void print_elapsed(uint64_t ns) {
  printf(" (%llu.%03llu ms)\n", (unsigned long long)(ns / 1000000),
         (unsigned long long)(ns / 1000 % 1000));
}

void test_context(const char *fmt, ...) {
  running_context[0] = '\0';
  if (!fmt) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(running_context, sizeof running_context, fmt, ap);
  va_end(ap);
}

void test_fail(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  printf("[FAIL] %s: %s:%d: ", running ? running->name : "?", file, line);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  if (running_context[0]) printf(" [while: %s]", running_context);
  printf("\n");
  fflush(stdout);
  running_outcome = OUTCOME_FAIL;
  longjmp(test_exit_jmp, 1);
}

void test_skip(const char *fmt, ...) {
  va_list ap;
  printf("[SKIP] %s: ", running ? running->name : "?");
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  printf("\n");
  fflush(stdout);
  running_outcome = OUTCOME_SKIP;
  longjmp(test_exit_jmp, 1);
}

void test_on_cpu_exception(int vector) {
  if (!running) return;
  if (running->expect_fault == vector) {
    running_outcome = OUTCOME_PASS;
  } else {
    printf("[FAIL] %s: CPU exception %d\n", running->name, vector);
    running_outcome = OUTCOME_FAIL;
  }
  longjmp(test_exit_jmp, 1);
}

/* setjmp lives in its own frame so that no local of the caller can be
 * clobbered by the longjmp out of a failing test. */
static __attribute__((noinline)) enum outcome run_one(const struct test_case *t) {
  running = t;
  running_outcome = OUTCOME_PASS;
  running_context[0] = '\0';
  if (setjmp(test_exit_jmp) == 0) {
    t->fn();
    if (t->expect_fault != TEST_NO_FAULT) {
      printf("[FAIL] %s: expected CPU exception %d did not happen\n", t->name,
             t->expect_fault);
      running_outcome = OUTCOME_FAIL;
    }
  }
  running = NULL;
  return running_outcome;
}

const char *test_after_each_checks(const char **check) {
  const char *first = NULL;
  size_t count = (size_t)(__stop_test_after_each - __start_test_after_each);
  for (size_t i = 0; i < count; i++) {
    const char *why = __start_test_after_each[i].fn();
    if (why && !first) {
      first = why;
      if (check) *check = __start_test_after_each[i].name;
    }
  }
  return first;
}

/* Runs every TEST_AFTER_EACH check; a test that passed but left state
 * behind fails with the first check's reason. */
static enum outcome after_each(const struct test_case *t, enum outcome outcome) {
  const char *check = NULL, *why = test_after_each_checks(&check);
  if (why && outcome == OUTCOME_PASS) {
    printf("[FAIL] %s: %s (%s)\n", t->name, why, check);
    outcome = OUTCOME_FAIL;
  }
  return outcome;
}

/* Tests run in the order of their source: by file name, then line. The
 * compiler may emit a file's test records in any order (gcc reverses them). */
static int compare_source_order(const void *a, const void *b) {
  const struct test_case *ta = *(const struct test_case *const *)a;
  const struct test_case *tb = *(const struct test_case *const *)b;
  int by_file = strcmp(ta->file, tb->file);
  return by_file ? by_file : (ta->line > tb->line) - (ta->line < tb->line);
}

int test_run(const char *pattern) {
  unsigned passed = 0, failed = 0, skipped = 0;
  size_t count = (size_t)(__stop_test_cases - __start_test_cases);
  const struct test_case **order = malloc((count ? count : 1) * sizeof *order);
  if (!order) {
    printf("[FAIL] test_runner: out of memory for %zu tests\n", count);
    return 1;
  }
  for (size_t i = 0; i < count; i++) order[i] = &__start_test_cases[i];
  qsort(order, count, sizeof *order, compare_source_order);

  for (size_t i = 0; i < count; i++) {
    const struct test_case *t = order[i];
    if (!test_name_matches(pattern, t->name)) continue;
    uint64_t start = plat_now_ns();
    switch (after_each(t, run_one(t))) {
    case OUTCOME_PASS:
      printf("[PASS] %s", t->name);
      print_elapsed(plat_now_ns() - start);
      passed++;
      break;
    case OUTCOME_FAIL: failed++; break;
    case OUTCOME_SKIP: skipped++; break;
    }
    fflush(stdout);
  }
  free(order);
  printf("%u passed, %u failed, %u skipped\n", passed, failed, skipped);
  fflush(stdout);
  return (int)failed;
}
