/*
 * main.c - `make bench`: empty-kernel dispatch round trip to a CPU agent of
 * this runtime, next to the floor (cache-line ping-pong between two
 * cores), an empty OpenMP parallel region and pocl's CPU device; prints
 * median and p99 and the ratios. Figures, not pass/fail.
 *
 * Usage: bench-dispatch [rounds]   (default 100000; pocl gets a tenth)
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench.h"

static void row(struct samples *s, uint64_t hsa_median) {
  if (s->note) {
    printf("%-34s %s\n", s->name, s->note);
    return;
  }
  uint64_t median = samples_percentile(s, 50), p99 = samples_percentile(s, 99);
  printf("%-34s %10llu %10llu %10zu", s->name, (unsigned long long)median, (unsigned long long)p99,
         s->count);
  if (hsa_median) printf("   x%.2f", (double)median / (double)hsa_median);
  printf("\n");
}

int main(int argc, char **argv) {
  size_t rounds = argc > 1 ? strtoull(argv[1], NULL, 10) : 100000;
  if (rounds < 100) rounds = 100;
  struct samples floor_s, hsa_s, hsa_tp, omp_s, pocl_s;
  samples_init(&floor_s, "floor: cache-line ping-pong", rounds);
  samples_init(&hsa_s, "hsa-metal: CPU agent dispatch", rounds);
  samples_init(&hsa_tp, "hsa-metal: full queue", rounds);
  samples_init(&omp_s, "OpenMP: empty parallel region", rounds);
  samples_init(&pocl_s, "pocl: enqueue+finish empty kernel", rounds / 10);
  bench_floor_ping_pong(&floor_s);
  bench_hsa_dispatch(&hsa_s, &hsa_tp);
  bench_openmp_region(&omp_s);
  bench_pocl_kernel(&pocl_s);

  uint64_t floor_median = floor_s.note ? 0 : samples_percentile(&floor_s, 50);
  uint64_t hsa_median = hsa_s.note ? 0 : samples_percentile(&hsa_s, 50);
  printf("round trip, ns                     %10s %10s %10s   vs hsa-metal\n", "median", "p99",
         "samples");
  row(&floor_s, hsa_median);
  row(&hsa_s, hsa_median);
  row(&omp_s, hsa_median);
  row(&pocl_s, hsa_median);
  if (!hsa_tp.note) printf("hsa-metal dispatches/s, queue kept full: %.0f\n", hsa_tp.per_second);
  if (floor_median && hsa_median)
    printf("hsa-metal dispatch = %.2f x floor (aim: within 3x)\n",
           (double)hsa_median / (double)floor_median);
  samples_free(&floor_s);
  samples_free(&hsa_s);
  samples_free(&hsa_tp);
  samples_free(&omp_s);
  samples_free(&pocl_s);
  return 0;
}
