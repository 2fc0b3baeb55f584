/*
 * openmp_offload.c - LLVM 19's OpenMP target offload (Debian libomp-19-dev:
 * libomptarget and its AMDGPU plugin, unmodified) on this runtime's
 * libhsa-runtime64.so and the virtual APU. Built by tests/rocm_clients/run.sh:
 *   clang-19 -fopenmp --offload-arch=gfx902 ...
 * and run with OMP_TARGET_OFFLOAD=MANDATORY, so that a region the plugin
 * cannot offload is an error, never the host fallback. Each feature is
 * checked against a CPU reference, one [PASS]/[FAIL] line each.
 *
 * Every region also proves where it ran: omp_is_initial_device() is 0 only
 * in device code, and on_amdgpu() returns the wave's lane count only when
 * compiled for an amdgcn device, 0 on the host.
 */
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void report(const char *name, int ok, const char *why) {
  if (ok)
    printf("[PASS] rocm_openmp_%s\n", name);
  else {
    printf("[FAIL] rocm_openmp_%s: %s\n", name, why);
    failures++;
  }
  fflush(stdout);
}

#define CHECK(name, cond, ...)                  \
  do {                                          \
    if (!(cond)) {                              \
      char why_[256];                           \
      snprintf(why_, sizeof why_, __VA_ARGS__); \
      report(name, 0, why_);                    \
      return;                                   \
    }                                           \
  } while (0)

/* The wave's width in device code for an AMDGPU, 0 in host code. */
#pragma omp declare target
int on_amdgpu(void);
int on_amdgpu(void) {
#ifdef __AMDGCN__
  return __builtin_amdgcn_wavefrontsize();
#else
  return 0;
#endif
}
#pragma omp end declare target

/* ---- Devices and a region that runs there ------------------------------- */

static void device_and_region(void) {
  const char *t = "device_and_target_region";
  int devices = omp_get_num_devices();
  CHECK(t, devices >= 1, "omp_get_num_devices() = %d", devices);
  int initial = -1, width = -1;
  int a[256];
#pragma omp target map(from : initial, width, a)
  {
    initial = omp_is_initial_device();
    width = on_amdgpu();
    for (int i = 0; i < 256; i++) a[i] = i * i - 7;
  }
  CHECK(t, initial == 0, "omp_is_initial_device() = %d in the region: it ran on the host", initial);
  CHECK(t, width == 64, "wave width %d: not an amdgcn device", width);
  for (int i = 0; i < 256; i++) CHECK(t, a[i] == i * i - 7, "a[%d] = %d", i, a[i]);
  report(t, 1, "");
}

/* ---- Map clauses, target data and update -------------------------------- */

static void maps_data_and_update(void) {
  const char *t = "map_target_data_update";
  enum { N = 20000 };
  double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
  for (int i = 0; i < N; i++) {
    x[i] = i * 0.25;
    y[i] = 1.0;
  }
  double a = 3.0;
  int bad = -1; /* first wrong y after update from */
#pragma omp target data map(to : x[0 : N]) map(tofrom : y[0 : N])
  {
#pragma omp target teams distribute parallel for map(to : a)
    for (int i = 0; i < N; i++) y[i] += a * x[i];
    /* The host changes x; the device sees it only after update to. */
    for (int i = 0; i < N; i++) x[i] = -x[i];
#pragma omp target update to(x[0 : N])
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++) y[i] += x[i];
    /* y on the host is stale inside the data region until update from. */
#pragma omp target update from(y[0 : N])
    for (int i = 0; i < N && bad < 0; i++)
      if (y[i] != 1.0 + 2.0 * (i * 0.25)) bad = i;
    for (int i = 0; i < N; i++) y[i] = 0.0; /* overwritten by the map's copy back */
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++) y[i] = 2.0 * y[i];
  }
  CHECK(t, bad < 0, "y[%d] wrong after update from", bad);
  for (int i = 0; i < N; i++) CHECK(t, y[i] == 2.0 + 4.0 * (i * 0.25), "y[%d] = %g at the end", i, y[i]);
  free(x);
  free(y);
  report(t, 1, "");
}

/* ---- Reductions and teams ----------------------------------------------- */

static void reductions_and_teams(void) {
  const char *t = "reductions_and_teams";
  enum { N = 100000 };
  int *v = malloc(N * sizeof *v);
  long long want_sum = 0;
  int want_max = 0;
  for (int i = 0; i < N; i++) {
    v[i] = (int)((i * 2654435761u) >> 8) % 100000;
    want_sum += v[i];
    if (v[i] > want_max) want_max = v[i];
  }
  long long sum = 0;
  int max = 0;
  double fsum = 0.0;
#pragma omp target teams distribute parallel for reduction(+ : sum, fsum) reduction(max : max) \
    map(to : v[0 : N]) map(tofrom : sum, max, fsum)
  for (int i = 0; i < N; i++) {
    sum += v[i];
    fsum += 0.5;
    if (v[i] > max) max = v[i];
  }
  CHECK(t, sum == want_sum, "sum %lld, want %lld", sum, want_sum);
  CHECK(t, max == want_max, "max %d, want %d", max, want_max);
  CHECK(t, fsum == 0.5 * N, "double sum %g, want %g", fsum, 0.5 * N);
  /* Teams: each team writes its number; more than one team ran. */
  enum { TEAMS = 8 };
  int team_of[TEAMS], teams = 0, width = 0;
  for (int i = 0; i < TEAMS; i++) team_of[i] = -1;
#pragma omp target teams num_teams(TEAMS) map(tofrom : team_of, teams, width)
  {
    int me = omp_get_team_num();
    if (me < TEAMS) team_of[me] = me;
    if (me == 0) {
      teams = omp_get_num_teams();
      width = on_amdgpu();
    }
  }
  CHECK(t, teams > 1 && teams <= TEAMS, "omp_get_num_teams() = %d", teams);
  CHECK(t, width == 64, "wave width %d in the teams region", width);
  for (int i = 0; i < teams; i++) CHECK(t, team_of[i] == i, "team %d wrote %d", i, team_of[i]);
  free(v);
  report(t, 1, "");
}

/* ---- declare target functions and variables ------------------------------ */

#pragma omp declare target
int table[16];
int collatz_steps(int n);
int collatz_steps(int n) {
  int steps = 0;
  while (n != 1 && steps < 1000) {
    n = (n & 1) ? 3 * n + 1 : n / 2;
    steps++;
  }
  return steps;
}
#pragma omp end declare target

static void declare_target(void) {
  const char *t = "declare_target_function_and_global";
  enum { N = 2000 };
  int steps[N];
  for (int i = 0; i < 16; i++) table[i] = i * 100;
#pragma omp target update to(table)
#pragma omp target teams distribute parallel for map(from : steps)
  for (int i = 0; i < N; i++) steps[i] = collatz_steps(i + 1) + table[i & 15];
  for (int i = 0; i < N; i++)
    CHECK(t, steps[i] == collatz_steps(i + 1) + (i & 15) * 100, "steps[%d] = %d", i, steps[i]);
#pragma omp target
  for (int i = 0; i < 16; i++) table[i] = -table[i];
#pragma omp target update from(table)
  for (int i = 0; i < 16; i++) CHECK(t, table[i] == -i * 100, "table[%d] = %d", i, table[i]);
  report(t, 1, "");
}

/* ---- omp_target_alloc / omp_target_memcpy ---------------------------------- */

static void target_alloc_and_memcpy(void) {
  const char *t = "target_alloc_and_memcpy";
  int dev = omp_get_default_device(), host = omp_get_initial_device();
  enum { N = 50000 };
  float *h = malloc(N * sizeof *h), *back = malloc(N * sizeof *back);
  for (int i = 0; i < N; i++) h[i] = (float)i / 7.0f;
  float *d = omp_target_alloc(N * sizeof *h, dev), *d2 = omp_target_alloc(N * sizeof *h, dev);
  CHECK(t, d && d2, "omp_target_alloc returned NULL");
  CHECK(t, omp_target_memcpy(d, h, N * sizeof *h, 0, 0, dev, host) == 0, "memcpy to the device");
#pragma omp target teams distribute parallel for is_device_ptr(d, d2)
  for (int i = 0; i < N; i++) d2[i] = d[i] * 2.0f + 1.0f;
  CHECK(t, omp_target_memcpy(back, d2, N * sizeof *h, 0, 0, host, dev) == 0, "memcpy from the device");
  for (int i = 0; i < N; i++) CHECK(t, back[i] == h[i] * 2.0f + 1.0f, "back[%d] = %g", i, back[i]);
  /* A device-to-device copy with offsets. */
  CHECK(t, omp_target_memcpy(d, d2, 100 * sizeof *h, 5 * sizeof *h, 10 * sizeof *h, dev, dev) == 0,
        "device-to-device memcpy");
  CHECK(t, omp_target_memcpy(back, d, 200 * sizeof *h, 0, 0, host, dev) == 0, "memcpy back");
  for (int i = 5; i < 105; i++) CHECK(t, back[i] == h[i + 5] * 2.0f + 1.0f, "offset copy back[%d] = %g", i, back[i]);
  CHECK(t, omp_target_is_present(h, dev) == 0, "unmapped host memory reported present");
  omp_target_free(d, dev);
  omp_target_free(d2, dev);
  free(h);
  free(back);
  report(t, 1, "");
}

/* ---- nowait ------------------------------------------------------------- */

static void nowait_tasks(void) {
  const char *t = "target_nowait";
  enum { N = 30000 };
  int *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp target teams distribute parallel for map(from : a[0 : N]) nowait depend(out : a[0])
    for (int i = 0; i < N; i++) a[i] = 3 * i;
#pragma omp target teams distribute parallel for map(from : b[0 : N]) nowait depend(out : b[0])
    for (int i = 0; i < N; i++) b[i] = i ^ 0x55;
    /* A region that needs both results, ordered by its dependences. */
#pragma omp target teams distribute parallel for map(tofrom : a[0 : N]) map(to : b[0 : N]) nowait \
    depend(in : b[0]) depend(inout : a[0])
    for (int i = 0; i < N; i++) a[i] += b[i];
#pragma omp taskwait
  }
  for (int i = 0; i < N; i++) CHECK(t, a[i] == 3 * i + (i ^ 0x55), "a[%d] = %d", i, a[i]);
  free(a);
  free(b);
  report(t, 1, "");
}

/* A region that stores to an address nothing maps: the runtime stops the
 * queue with HSA_STATUS_ERROR_MEMORY_FAULT through its error callback;
 * LLVM's plugin reports that status and ends the program (run.sh checks
 * both). */
static int fault(void) {
  int *nowhere = (int *)(uintptr_t)0x1000;
#pragma omp target is_device_ptr(nowhere)
  nowhere[0] = 42;
  printf("openmp_offload: the faulting region returned\n");
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "fault") == 0) return fault();
  device_and_region();
  maps_data_and_update();
  reductions_and_teams();
  declare_target();
  target_alloc_and_memcpy();
  nowait_tasks();
  return failures ? 1 : 0;
}
