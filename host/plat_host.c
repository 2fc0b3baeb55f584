/* plat_host.c - lib/plat.h on Linux user space: pthreads for workers, futex
 * for waiting, CLOCK_MONOTONIC for time, stderr for the log. */
#include "lib/plat.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lib/log_levels.h"
#include "lib/options.h"
#include "lib/util.h"

const char *plat_name(void) { return "host"; }

/* ---- Time ---- */
uint64_t plat_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void plat_sleep_ns(uint64_t ns) {
  struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000u), .tv_nsec = (long)(ns % 1000000000u)};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

/* ---- Options ----
 * HSAR_OPTIONS is the boot command line's language (lib/options.h): the
 * same words, quotes and limits, and every key one that a PLAT_OPTION of
 * the library declares (the same registry the image checks). What is wrong
 * with it, or with its loglevel, is logged once and refuses hsa_init
 * (plat_options_problem); none of its options is taken then. */
extern const struct plat_option_decl __start_plat_options[] __attribute__((weak, visibility("hidden")));
extern const struct plat_option_decl __stop_plat_options[] __attribute__((weak, visibility("hidden")));

static struct options options;
static struct log_levels levels;
static char options_problem[256];
static uint64_t log_origin_ns;
static pthread_once_t options_once = PTHREAD_ONCE_INIT;

static void parse_options(void) {
  char err[200];
  log_origin_ns = plat_now_ns();
  if (options_parse(&options, getenv("HSAR_OPTIONS"), err, sizeof err) ||
      options_check(&options, __start_plat_options, __stop_plat_options, err, sizeof err)) {
    snprintf(options_problem, sizeof options_problem, "HSAR_OPTIONS: %s", err);
  } else if (options.arg_count) {
    snprintf(options_problem, sizeof options_problem,
             "HSAR_OPTIONS: words after \"--\" are the image's application arguments; a host program has its argv");
  }
  if (options_problem[0]) {
    memset(&options, 0, sizeof options);
  } else if (log_levels_parse(options_get(&options, "loglevel"), LOG_WARN, &levels, err, sizeof err)) {
    snprintf(options_problem, sizeof options_problem, "HSAR_OPTIONS: %s", err);
    memset(&options, 0, sizeof options);
  }
  /* The host library is quiet by default: programs own stdout/stderr. */
  if (options_problem[0]) {
    log_levels_parse(NULL, LOG_WARN, &levels, err, sizeof err);
    fprintf(stderr, "[%5u.%06u] %-5s %s: %s\n", 0u, 0u, "error", "options", options_problem);
  }
}

const char *plat_options_problem(void) {
  pthread_once(&options_once, parse_options);
  return options_problem[0] ? options_problem : NULL;
}

/* HSAR_OPTIONS first; then ROCr's own switches (HSA_XNACK, ...), which a
 * ROCr program's user sets in the environment. */
const char *plat_option(const char *key) {
  pthread_once(&options_once, parse_options);
  const char *v = options_get(&options, key);
  if (v) return v;
  return strncmp(key, "HSA_", 4) == 0 ? getenv(key) : NULL;
}

/* ---- Logging ---- */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

bool plat_log_enabled(enum log_level level, const char *tag) {
  pthread_once(&options_once, parse_options);
  return log_levels_enabled(&levels, level, tag);
}

void plat_vlog(enum log_level level, const char *tag, const char *fmt, va_list ap) {
  if (!plat_log_enabled(level, tag)) return;
  char line[1024];
  uint64_t t = plat_now_ns() - log_origin_ns;
  int n = snprintf(line, sizeof line, "[%5llu.%06llu] %-5s %s: ",
                   (unsigned long long)(t / 1000000000u),
                   (unsigned long long)(t / 1000 % 1000000), log_level_name(level), tag);
  if (n < 0) return;
  if ((size_t)n < sizeof line) vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
  pthread_mutex_lock(&log_lock);
  fprintf(stderr, "%s\n", line);
  pthread_mutex_unlock(&log_lock);
}

void plat_log(enum log_level level, const char *tag, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  plat_vlog(level, tag, fmt, ap);
  va_end(ap);
}

/* ---- Device memory ---- */
static _Atomic size_t dma_bytes_in_use;

size_t plat_dma_bytes_in_use(void) { return dma_bytes_in_use; }

void *plat_dma_alloc(size_t size, size_t align) {
  if (size == 0 || (align & (align - 1)) != 0) return NULL;
  if (align < 4096) align = 4096;
  size_t rounded = ALIGN_UP(size, align);
  void *p = aligned_alloc(align, rounded);
  if (!p) return NULL;
  memset(p, 0, rounded);
  dma_bytes_in_use += size;
  return p;
}

void plat_dma_free(void *p, size_t size) {
  if (!p) return;
  free(p);
  dma_bytes_in_use -= size;
}

/* ---- CPU cache modes ----
 * Process memory is write-back; ranges a driver declared otherwise are
 * remembered (the last declaration of a page wins) for the device model. */
#define MAX_CACHE_RANGES 64
static struct { uint64_t start, end; enum plat_cache_mode mode; } cache_ranges[MAX_CACHE_RANGES];
static int cache_range_count;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

int plat_set_cpu_cache_mode(uint64_t addr, uint64_t size, enum plat_cache_mode mode) {
  if ((unsigned)mode > PLAT_CACHE_UNCACHED || ((addr | size) & 4095) || !size) return -EINVAL;
  pthread_mutex_lock(&cache_lock);
  /* Drop what the new range covers exactly; then add it unless it is
   * plain write-back memory again. */
  int n = 0;
  for (int i = 0; i < cache_range_count; i++)
    if (cache_ranges[i].start != addr || cache_ranges[i].end != addr + size) cache_ranges[n++] = cache_ranges[i];
  cache_range_count = n;
  int r = 0;
  if (mode != PLAT_CACHE_WRITE_BACK) {
    if (cache_range_count == MAX_CACHE_RANGES) r = -EINVAL;
    else cache_ranges[cache_range_count++] = (typeof(cache_ranges[0])){addr, addr + size, mode};
  }
  pthread_mutex_unlock(&cache_lock);
  return r;
}

enum plat_cache_mode plat_cpu_cache_mode(uint64_t addr) {
  enum plat_cache_mode mode = PLAT_CACHE_WRITE_BACK;
  pthread_mutex_lock(&cache_lock);
  for (int i = cache_range_count - 1; i >= 0; i--)
    if (addr >= cache_ranges[i].start && addr < cache_ranges[i].end) {
      mode = cache_ranges[i].mode;
      break;
    }
  pthread_mutex_unlock(&cache_lock);
  return mode;
}

/* ---- Workers ---- */
#define MAX_WORKERS 256
struct worker {
  pthread_t thread;
  void (*fn)(void *);
  void *arg;
  char name[16];
};
static struct worker *workers[MAX_WORKERS];
static pthread_mutex_t workers_lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker_main(void *p) {
  struct worker *w = p;
  pthread_setname_np(pthread_self(), w->name);
  w->fn(w->arg);
  return NULL;
}

int plat_worker_slots(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 1 ? (int)n : 1;
}

int plat_worker_start(const char *name, void (*fn)(void *), void *arg) {
  struct worker *w = calloc(1, sizeof *w);
  if (!w) return -ENOMEM;
  w->fn = fn;
  w->arg = arg;
  snprintf(w->name, sizeof w->name, "%s", name);
  pthread_mutex_lock(&workers_lock);
  int id = -1;
  for (int i = 0; i < MAX_WORKERS; i++)
    if (!workers[i]) {
      id = i;
      break;
    }
  if (id < 0 || pthread_create(&w->thread, NULL, worker_main, w) != 0) {
    pthread_mutex_unlock(&workers_lock);
    free(w);
    return id < 0 ? -EAGAIN : -errno;
  }
  workers[id] = w;
  pthread_mutex_unlock(&workers_lock);
  return id;
}

void plat_worker_join(int id) {
  if (id < 0 || id >= MAX_WORKERS) return;
  pthread_mutex_lock(&workers_lock);
  struct worker *w = workers[id];
  pthread_mutex_unlock(&workers_lock);
  if (!w) return;
  pthread_join(w->thread, NULL);
  pthread_mutex_lock(&workers_lock);
  workers[id] = NULL;
  pthread_mutex_unlock(&workers_lock);
  free(w);
}

/* ---- Waiting ---- */
void plat_wait(const volatile uint32_t *word, uint32_t expected, uint64_t timeout_ns) {
  struct timespec ts, *tsp = NULL;
  if (timeout_ns != UINT64_MAX) {
    ts.tv_sec = (time_t)(timeout_ns / 1000000000u);
    ts.tv_nsec = (long)(timeout_ns % 1000000000u);
    tsp = &ts;
  }
  /* A relative timeout; EINTR, EAGAIN and ETIMEDOUT all just return. */
  syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, tsp, NULL, 0);
}

void plat_wake(const volatile uint32_t *word) {
  syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* ---- Files ---- */
/* The host's "boot file system": an absolute path names a file under
 * HSAR_FILES when that is set, else under the tree `make host` generates for
 * the virtual APU (its synthetic firmware under /amdgpu/), the way a board's
 * ESP carries the GPU firmware. A relative path is taken as it is. */
#ifndef HOST_FILES_DEFAULT_ROOT
#define HOST_FILES_DEFAULT_ROOT ""
#endif

void *plat_file_load(const char *path, size_t *size) {
  char full[4096];
  const char *root = getenv("HSAR_FILES");
  if (!root) root = HOST_FILES_DEFAULT_ROOT;
  if (path[0] == '/')
    snprintf(full, sizeof full, "%s%s", root, path);
  else
    snprintf(full, sizeof full, "%s", path);
  FILE *f = fopen(full, "rb");
  if (!f) return NULL;
  void *data = NULL;
  long len;
  if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) goto fail;
  data = malloc(len ? (size_t)len : 1);
  if (!data) goto fail;
  if (fread(data, 1, (size_t)len, f) != (size_t)len) goto fail;
  fclose(f);
  *size = (size_t)len;
  return data;
fail:
  free(data);
  fclose(f);
  if (!errno) errno = EIO;
  return NULL;
}
