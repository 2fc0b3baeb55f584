/* stats.c - samples and percentiles for the benchmarks. */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "bench/bench.h"

void samples_init(struct samples *s, const char *name, size_t count) {
  s->name = name;
  s->ns = calloc(count, sizeof *s->ns);
  s->count = s->ns ? count : 0;
  s->per_second = 0;
  s->note = s->ns ? NULL : "out of memory";
}

void samples_free(struct samples *s) { free(s->ns); }

static int compare_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

void bench_sort_u64(uint64_t *v, size_t n) { qsort(v, n, sizeof *v, compare_u64); }

uint64_t samples_percentile(struct samples *s, double p) {
  if (s->count == 0) return 0;
  bench_sort_u64(s->ns, s->count);
  size_t i = (size_t)(p / 100.0 * (double)(s->count - 1) + 0.5);
  return s->ns[i < s->count ? i : s->count - 1];
}

void bench_pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

void bench_unpin(void) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int i = 0; i < CPU_SETSIZE; i++) CPU_SET(i, &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}
