/*
 * bench.h - the dispatch-latency benchmark (the files of bench/): each measurement
 * fills a `struct samples` with round-trip times in nanoseconds; main.c
 * prints them side by side.
 */
#ifndef BENCH_BENCH_H
#define BENCH_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct samples {
  const char *name;
  uint64_t *ns; /* one round trip each */
  size_t count;
  double per_second; /* throughput figure, 0 if none */
  const char *note;  /* why it was skipped, or NULL */
};

static inline uint64_t bench_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void samples_init(struct samples *s, const char *name, size_t count);
void samples_free(struct samples *s);
/* Sorts n values in increasing order. */
void bench_sort_u64(uint64_t *v, size_t n);
/* Percentile p (0..100) of the samples (sorts them). */
uint64_t samples_percentile(struct samples *s, double p);

/* Pins the calling thread to `cpu` (best effort). */
void bench_pin(int cpu);
void bench_unpin(void);

/* The measurements. */
void bench_floor_ping_pong(struct samples *s);
void bench_hsa_dispatch(struct samples *latency, struct samples *throughput);
void bench_openmp_region(struct samples *s);
void bench_pocl_kernel(struct samples *s);

#endif
