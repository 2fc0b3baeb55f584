/*
 * libc_cores_test.c - newlib on several cores at once (kernel/libc_locks.c,
 * kernel/libc_reent.c): every idle core and the test's own run printf,
 * snprintf("%f") (newlib's dtoa keeps its big numbers in the per-thread
 * state), malloc/free, errno and stdio file reads together, and each
 * checks its results against a reference computed on one core first.
 * Workers record what they saw; the test asserts afterwards.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cpu.h"
#include "kernel/libc_locks.h"
#include "kernel/libc_reent.h"
#include "kernel/smp.h"
#include "lib/plat.h"
#include "lib/test.h"

#define ROUNDS       60
#define FORMATS      8
#define PATTERN_SIZE 300000 /* tests/image/bootfs_test.c: /data/bootfs/pattern.bin */
static uint8_t pattern_byte(size_t i) { return (uint8_t)(i * 7 + (i >> 10)); }

/* Doubles whose %f/%e/%g need long dtoa work (many digits, big exponents). */
static double format_value(unsigned core, unsigned i) {
  return (i % 2 ? -1.0 : 1.0) * (1234567.891 + core * 1e-3) * pow(10.0, (int)(i * 37 % 300) - 150);
}
static void format(char *out, size_t size, unsigned core, unsigned i) {
  double v = format_value(core, i);
  snprintf(out, size, "%.17f|%.20e|%.15g|%a", v, v, v, v);
}

struct worker {
  unsigned core;
  const char (*expected)[160]; /* FORMATS reference strings for this core */
  volatile bool *go;
  unsigned formats_wrong, heap_wrong, errno_wrong, file_wrong, print_wrong;
  FILE *own_stdout;
  int stdout_line_buffered;
  int finished;
};

static void check_formats(struct worker *w) {
  char buf[160];
  for (unsigned i = 0; i < FORMATS; i++) {
    format(buf, sizeof buf, w->core, i);
    if (strcmp(buf, w->expected[i]) != 0) w->formats_wrong++;
  }
}

/* Blocks of many sizes, each filled with a pattern of this core and round,
 * checked before it is freed (a shared arena without a lock corrupts). */
static void check_heap(struct worker *w, unsigned round) {
  enum { BLOCKS = 24 };
  uint8_t *blocks[BLOCKS];
  size_t sizes[BLOCKS];
  uint8_t seed = (uint8_t)(w->core * 31 + round);
  for (unsigned i = 0; i < BLOCKS; i++) {
    sizes[i] = 8 + (i * 977 + round * 131 + w->core * 57) % 9000;
    blocks[i] = malloc(sizes[i]);
    if (!blocks[i]) {
      w->heap_wrong++;
      sizes[i] = 0;
      continue;
    }
    memset(blocks[i], seed + i, sizes[i]);
  }
  for (unsigned i = 0; i < BLOCKS; i += 3) { /* realloc some: the lock is taken recursively */
    uint8_t *p = realloc(blocks[i], sizes[i] * 2);
    if (!p) continue;
    memset(p + sizes[i], seed + i, sizes[i]);
    blocks[i] = p;
    sizes[i] *= 2;
  }
  for (unsigned i = 0; i < BLOCKS; i++) {
    for (size_t b = 0; b < sizes[i]; b++)
      if (blocks[i][b] != (uint8_t)(seed + i)) {
        w->heap_wrong++;
        break;
      }
    free(blocks[i]);
  }
}

/* errno is per core: each core's value survives the others' changes. */
static void check_errno(struct worker *w) {
  errno = 1000 + (int)w->core;
  for (unsigned i = 0; i < 200; i++) __builtin_ia32_pause();
  if (errno != 1000 + (int)w->core) w->errno_wrong++;
  errno = 0;
  if (fopen("/data/bootfs/no-such-file", "r") != NULL || errno != ENOENT) w->errno_wrong++;
  if (strtol("99999999999999999999999", NULL, 10) != LONG_MAX || errno != ERANGE) w->errno_wrong++;
}

/* fopen takes a FILE from the list all cores share (newlib __sfp). */
static void check_file(struct worker *w, unsigned round) {
  FILE *f = fopen("/data/bootfs/pattern.bin", "r");
  if (!f) {
    w->file_wrong++;
    return;
  }
  long at = (long)((w->core * 7919 + round * 104729) % (PATTERN_SIZE - 4096));
  uint8_t buf[4096];
  if (fseek(f, at, SEEK_SET) != 0 || fread(buf, 1, sizeof buf, f) != sizeof buf) w->file_wrong++;
  for (size_t i = 0; i < sizeof buf; i++)
    if (buf[i] != pattern_byte((size_t)at + i)) {
      w->file_wrong++;
      break;
    }
  if (fclose(f) != 0) w->file_wrong++;
}

static void work(void *arg) {
  struct worker *w = arg;
  while (!__atomic_load_n(w->go, __ATOMIC_ACQUIRE)) __builtin_ia32_pause();
  w->own_stdout = stdout;
  w->stdout_line_buffered = (stdout->_flags & __SLBF) != 0;
  for (unsigned round = 0; round < ROUNDS; round++) {
    check_formats(w);
    check_heap(w, round);
    check_errno(w);
    check_file(w, round);
    if (round % 20 == 0) {
      char line[160];
      format(line, sizeof line, w->core, round % FORMATS);
      int want = snprintf(NULL, 0, "libc_cores: core %u round %u %s\n", w->core, round, line);
      if (printf("libc_cores: core %u round %u %s\n", w->core, round, line) != want)
        w->print_wrong++;
    }
  }
  __atomic_store_n(&w->finished, 1, __ATOMIC_RELEASE);
}

TEST(libc_cores_use_newlib_at_once) {
  static struct worker workers[CPU_MAX];
  static char expected[CPU_MAX][FORMATS][160];
  static uint32_t tickets[CPU_MAX];
  static volatile bool go;
  go = false;
  unsigned started[CPU_MAX], count = 0;
  for (unsigned c = 0; c < smp_core_limit(); c++) {
    if (c != 0 && (!smp_core_online(c) || !smp_core_idle(c))) continue;
    for (unsigned i = 0; i < FORMATS; i++) format(expected[c][i], sizeof expected[c][i], c, i);
    workers[c] = (struct worker){.core = c, .expected = expected[c], .go = &go};
    if (c != 0 && smp_run_async(c, work, &workers[c], "libc_cores", &tickets[c]) != 0) continue;
    started[count++] = c;
  }
  if (count < 2) test_skip("needs an idle core besides the boot core");
  __atomic_store_n(&go, true, __ATOMIC_RELEASE);
  work(&workers[0]);
  for (unsigned i = 1; i < count; i++)
    ASSERT_EQ(smp_wait_done(started[i], tickets[started[i]], 60ull * 1000 * 1000 * 1000), 0);
  for (unsigned i = 0; i < count; i++) {
    struct worker *w = &workers[started[i]];
    ASSERT_EQ(w->finished, 1);
    ASSERT_EQ(w->formats_wrong, 0);
    ASSERT_EQ(w->heap_wrong, 0);
    ASSERT_EQ(w->errno_wrong, 0);
    ASSERT_EQ(w->file_wrong, 0);
    ASSERT_EQ(w->print_wrong, 0);
    ASSERT_TRUE(w->stdout_line_buffered);
    for (unsigned j = 0; j < i; j++) ASSERT_TRUE(w->own_stdout != workers[started[j]].own_stdout);
  }
}

/* ---- The locks themselves -------------------------------------------------- */

static _LOCK_T shared_lock;
static int other_core_try_result;

static void try_shared_lock(void *unused) {
  (void)unused;
  other_core_try_result = __retarget_lock_try_acquire_recursive(shared_lock);
  if (other_core_try_result == 0) __retarget_lock_release_recursive(shared_lock);
}

static unsigned idle_core(void) {
  for (unsigned c = 1; c < smp_core_limit(); c++)
    if (smp_core_online(c) && smp_core_idle(c)) return c;
  test_skip("needs an idle core besides the boot core");
}

TEST(libc_lock_is_recursive_per_core_and_exclusive_between_cores) {
  unsigned other = idle_core();
  __retarget_lock_init_recursive(&shared_lock);
  ASSERT_NOT_NULL(shared_lock);
  uint64_t if_before = read_rflags() & RFLAGS_IF_BIT;
  __retarget_lock_acquire_recursive(shared_lock);
  ASSERT_EQ(read_rflags() & RFLAGS_IF_BIT, 0); /* no handler of this core can enter */
  __retarget_lock_acquire_recursive(shared_lock);
  ASSERT_EQ(__retarget_lock_try_acquire_recursive(shared_lock), 0);
  ASSERT_NE(__retarget_lock_try_acquire(shared_lock), 0); /* non-recursive: busy */
  ASSERT_FALSE(libc_lock_take_if_free(shared_lock));
  ASSERT_EQ(smp_run(other, try_shared_lock, NULL), 0);
  ASSERT_NE(other_core_try_result, 0); /* held here */
  __retarget_lock_release_recursive(shared_lock);
  __retarget_lock_release_recursive(shared_lock);
  ASSERT_EQ(read_rflags() & RFLAGS_IF_BIT, 0);
  __retarget_lock_release_recursive(shared_lock);
  ASSERT_EQ(read_rflags() & RFLAGS_IF_BIT, if_before);
  ASSERT_EQ(smp_run(other, try_shared_lock, NULL), 0);
  ASSERT_EQ(other_core_try_result, 0);
  ASSERT_TRUE(libc_lock_take_if_free(shared_lock));
  __retarget_lock_release_recursive(shared_lock);
  __retarget_lock_close_recursive(shared_lock);
}

TEST(libc_many_streams_open_at_once) {
  /* More FILEs than the kernel's pool of locks (3 per core + 64): the
   * rest get theirs from the heap; every stream works and closes. */
  enum { STREAMS = 3 * CPU_MAX + 100 };
  static FILE *f[STREAMS];
  static char bufs[STREAMS][32];
  for (unsigned i = 0; i < STREAMS; i++) {
    f[i] = fmemopen(bufs[i], sizeof bufs[i], "w+");
    ASSERT_NOT_NULL(f[i]);
    ASSERT_GT(fprintf(f[i], "stream %u", i), 0);
  }
  for (unsigned i = 0; i < STREAMS; i++) {
    char got[32] = {0}, want[32];
    snprintf(want, sizeof want, "stream %u", i);
    ASSERT_EQ(fseek(f[i], 0, SEEK_SET), 0);
    ASSERT_EQ(fread(got, 1, strlen(want), f[i]), strlen(want));
    ASSERT_STR_EQ(got, want);
    ASSERT_EQ(fclose(f[i]), 0);
  }
}

/* ---- Line buffering per core, and the flush at the end of the run ------------- */

static FILE *their_stdout;
static long their_pending;

static long pending_bytes(FILE *fp) { return (long)(fp->_p - fp->_bf._base); }

static void print_partial_line(void *unused) {
  (void)unused;
  their_stdout = stdout;
  printf("libc_cores: a line begun on core %u", cpu_index());
  their_pending = pending_bytes(stdout);
}

static void end_line(void *unused) {
  (void)unused;
  printf(" and ended there\n");
  their_pending = pending_bytes(stdout);
}

TEST(libc_stdout_lines_stay_whole_per_core) {
  unsigned other = idle_core();
  ASSERT_EQ(smp_run(other, print_partial_line, NULL), 0);
  ASSERT_TRUE(their_stdout != stdout);
  ASSERT_GT(their_pending, 20); /* held in that core's buffer, not written */
  printf("libc_cores: core 0 prints a whole line meanwhile\n");
  ASSERT_EQ(pending_bytes(their_stdout), their_pending);
  ASSERT_EQ(smp_run(other, end_line, NULL), 0);
  ASSERT_EQ(their_pending, 0); /* the newline sent the whole line out */
}

TEST(libc_end_of_run_flushes_every_core_but_skips_busy_streams) {
  unsigned other = idle_core();
  ASSERT_EQ(smp_run(other, print_partial_line, NULL), 0);
  ASSERT_GT(their_pending, 0);
  /* A stream some core is in the middle of using is left alone. */
  ASSERT_TRUE(libc_lock_take_if_free(their_stdout->_lock));
  libc_flush_all_cores();
  ASSERT_EQ(pending_bytes(their_stdout), their_pending);
  __retarget_lock_release_recursive(their_stdout->_lock);
  libc_flush_all_cores();
  ASSERT_EQ(pending_bytes(their_stdout), 0);
  ASSERT_EQ(smp_run(other, end_line, NULL), 0); /* ends the flushed line */
}
