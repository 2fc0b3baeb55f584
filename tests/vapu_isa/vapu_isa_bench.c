/*
 * vapu_isa_bench.c - interpreter throughput (`make bench`): the corpus's
 * tiled matrix multiply and LDS reduction (O3, code object v5) at sizes
 * larger than the tests', on one host thread. Prints wave instructions and
 * lane-instructions (VALU instructions times active lanes) per second, and
 * checks each result against the CPU so a fast wrong interpreter cannot
 * report a figure. Not a test: it prints, it never fails on speed.
 *
 * Usage: bench-vapu-isa [runs [matmul|reduce]]   (runs: that many of each
 * kernel instead of one second's worth, so that a profile, e.g. valgrind
 * --tool=callgrind, counts the same work every time; then only the named
 * kernel, if one is named)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/plat.h"
#include "tests/host/vapu_isa_harness.h"

#define MIN_SECONDS 1.0
static unsigned fixed_runs; /* 0: run for MIN_SECONDS */

struct figure {
  const char *name;
  double seconds;
  uint64_t runs, insts, lanes, waves;
};

/* Loads `file` (O3, v5) and returns its kernel; exits on error. */
static void load(struct vi_env *e, const char *file, const char *symbol, struct vi_code_object *k) {
  char path[512], why[256];
  snprintf(path, sizeof path, "%s/kernels/gfx902/%s.O3.v5.co", VAPU_ISA_BUILD_DIR, file);
  if (!vi_code_object_load(e, path, symbol, NULL, k, why, sizeof why)) {
    fprintf(stderr, "bench-vapu-isa: %s\n", why);
    exit(1);
  }
}

/* Runs the launch until MIN_SECONDS have passed; exits on an error. */
static void measure(struct vi_env *e, const struct vi_launch *l, struct figure *f) {
  struct vapu_exec_stats before, after;
  vapu_exec_get_stats(e->x, &before);
  uint64_t start = plat_now_ns(), now;
  do {
    struct vapu_stop stop;
    enum vapu_result r = vi_run(e, l, &stop);
    if (r != VAPU_OK) {
      fprintf(stderr, "bench-vapu-isa: %s: %s: %s\n", f->name, vapu_result_name(r), stop.detail);
      exit(1);
    }
    f->runs++;
    now = plat_now_ns();
  } while (fixed_runs ? f->runs < fixed_runs : (double)(now - start) * 1e-9 < MIN_SECONDS);
  vapu_exec_get_stats(e->x, &after);
  f->seconds = (double)(now - start) * 1e-9;
  f->insts = after.instructions - before.instructions;
  f->lanes = after.lane_instructions - before.lane_instructions;
  f->waves = after.waves - before.waves;
}

static void print(const struct figure *f) {
  printf("vapu-isa %-24s %6.3f s %5llu runs  %8.2f M inst/s  %9.2f M lane-inst/s  %5.1f lane-inst/inst  %7.1f k waves/s  (goal: at least 400 M lane-inst/s)\n",
         f->name, f->seconds, (unsigned long long)f->runs, (double)f->insts / f->seconds * 1e-6,
         (double)f->lanes / f->seconds * 1e-6, f->insts ? (double)f->lanes / (double)f->insts : 0,
         (double)f->waves / f->seconds * 1e-3);
}

static void bench_matmul(uint32_t n) {
  struct vi_env e;
  if (!vi_env_init(&e)) exit(1);
  struct vi_code_object k;
  load(&e, "matmul_tiled", "matmul_tiled.kd", &k);
  float *a = vi_alloc(&e, n * n * 4, VAPU_ACCESS_READ), *b = vi_alloc(&e, n * n * 4, VAPU_ACCESS_READ);
  float *c = vi_alloc(&e, n * n * 4, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  if (!a || !b || !c) exit(1);
  for (uint32_t i = 0; i < n * n; i++) {
    a[i] = (float)((int)(i * 7 % 9) - 4);
    b[i] = (float)((int)(i * 5 % 7) - 3);
  }
  struct {
    uint64_t a, b, c;
    uint32_t n;
  } args = {(uint64_t)(uintptr_t)a, (uint64_t)(uintptr_t)b, (uint64_t)(uintptr_t)c, n};
  uint32_t grid[3] = {n, n, 1}, wg[3] = {8, 8, 1};
  char why[256];
  void *kernarg = vi_kernarg(&e, &k, &args, sizeof args, 2, grid, wg, why, sizeof why);
  if (!kernarg) {
    fprintf(stderr, "bench-vapu-isa: %s\n", why);
    exit(1);
  }
  struct vi_launch l = {.kernel_object = k.kernel_object, .kernarg = kernarg, .grid = {n, n, 1}, .wg = {8, 8, 1}};
  char name[64];
  snprintf(name, sizeof name, "matmul_tiled %ux%u", n, n);
  struct figure f = {.name = name};
  measure(&e, &l, &f);
  for (uint32_t r = 0; r < n; r += 17) /* spot check against the CPU (exact: small integers) */
    for (uint32_t col = 0; col < n; col += 13) {
      float want = 0;
      for (uint32_t i = 0; i < n; i++) want += a[r * n + i] * b[i * n + col];
      if (c[r * n + col] != want) {
        fprintf(stderr, "bench-vapu-isa: matmul c[%u][%u] = %g, want %g\n", r, col, c[r * n + col], want);
        exit(1);
      }
    }
  print(&f);
  vi_code_object_release(&k);
  vi_env_fini(&e);
}

static void bench_reduce(uint32_t n) {
  struct vi_env e;
  if (!vi_env_init(&e)) exit(1);
  struct vi_code_object k;
  load(&e, "reduce_sum", "reduce_sum.kd", &k);
  uint32_t groups = n / 256;
  int32_t *in = vi_alloc(&e, n * 4, VAPU_ACCESS_READ);
  int32_t *partial = vi_alloc(&e, groups * 4, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  if (!in || !partial) exit(1);
  for (uint32_t i = 0; i < n; i++) in[i] = (int32_t)(i % 201) - 100;
  struct {
    uint64_t in, partial;
    uint32_t n;
  } args = {(uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)partial, n};
  uint32_t grid[3] = {n, 1, 1}, wg[3] = {256, 1, 1};
  char why[256];
  void *kernarg = vi_kernarg(&e, &k, &args, sizeof args, 1, grid, wg, why, sizeof why);
  if (!kernarg) {
    fprintf(stderr, "bench-vapu-isa: %s\n", why);
    exit(1);
  }
  struct vi_launch l = {.kernel_object = k.kernel_object, .kernarg = kernarg, .grid = {n, 1, 1}, .wg = {256, 1, 1}};
  char name[64];
  snprintf(name, sizeof name, "reduce_sum %u", n);
  struct figure f = {.name = name};
  measure(&e, &l, &f);
  for (uint32_t g = 0; g < groups; g++) {
    int32_t want = 0;
    for (uint32_t i = 0; i < 256; i++) want += in[g * 256 + i];
    if (partial[g] != want) {
      fprintf(stderr, "bench-vapu-isa: reduce partial[%u] = %d, want %d\n", g, partial[g], want);
      exit(1);
    }
  }
  print(&f);
  vi_code_object_release(&k);
  vi_env_fini(&e);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc > 1) fixed_runs = (unsigned)strtoul(argv[1], NULL, 10);
  const char *only = argc > 2 ? argv[2] : "";
  if (!*only || strcmp(only, "matmul") == 0) bench_matmul(128);
  if (!*only || strcmp(only, "reduce") == 0) bench_reduce(1 << 18);
  return 0;
}
