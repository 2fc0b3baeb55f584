/*
 * openmp.c - an empty OpenMP parallel region with two threads (libgomp):
 * fork to the other core and join, what a CPU runtime built on OpenMP pays
 * per "dispatch".
 */
#include <omp.h>

#include "bench/bench.h"

void bench_openmp_region(struct samples *s) {
  bench_unpin(); /* libgomp sizes its team from the affinity mask */
  omp_set_num_threads(2);
  int team = 0;
#pragma omp parallel
  {
#pragma omp single
    team = omp_get_num_threads();
  }
  if (team != 2) {
    s->note = "libgomp did not start a team of 2 threads";
    return;
  }
  /* Each thread touches a counter, so the region cannot be optimised away. */
  static volatile int touched;
  for (int i = 0; i < 1000; i++) {
#pragma omp parallel
    __atomic_fetch_add(&touched, 1, __ATOMIC_RELAXED);
  }
  for (size_t i = 0; i < s->count; i++) {
    uint64_t t0 = bench_now_ns();
#pragma omp parallel
    __atomic_fetch_add(&touched, 1, __ATOMIC_RELAXED);
    s->ns[i] = bench_now_ns() - t0;
  }
  if (touched != 2 * (int)(s->count + 1000))
    s->note = "the parallel region did not run on 2 threads";
}
