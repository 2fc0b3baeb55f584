/*
 * cl_cpu_test.c - OpenCL C kernels on the CPU agents, from the files
 * tools/hsacc builds (tests/data/cl/, one .cl each): loaded through
 * hsa_code_object_reader_create_from_file and
 * hsa_executable_load_agent_code_object for a CPU agent, dispatched with
 * the same packet and kernarg layout as on the GPU. Work-item functions in
 * 1-3 dimensions with partial work-groups, barrier placements, __local
 * memory private to each work-group while every core runs one, the limits
 * refused at dispatch, and the files a CPU agent must refuse. Each result
 * is checked against a reference computed here. Host and image.
 */
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cl/cpu_abi.h"
#include "hsa/cl_program.h"
#include "hsa/loader/elf_format.h"
#include "hsa/runtime.h"
#include "lib/plat.h"
#include "lib/util.h"
#include "support/gpu_kernel.h"
#include "tests/common/hsa_test_util.h"

#define DISPATCH_TIMEOUT_NS 60000000000ull

struct cl_env {
  hsa_agent_t cpu;
  uint32_t cores;
  hsa_queue_t *queue;
  hsa_amd_memory_pool_t pool;
  struct hsa_test_queue_error err;
};

static void env_open(struct cl_env *e) {
  memset(e, 0, sizeof *e);
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t agents[4];
  hsa_test_cpu_agents(agents, 4);
  e->cpu = agents[0];
  HSA_ASSERT_OK(hsa_agent_get_info(e->cpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, &e->cores));
  e->pool = hsa_test_kernarg_pool(e->cpu);
  ASSERT_NE(e->pool.handle, 0);
  HSA_ASSERT_OK(hsa_queue_create(e->cpu, 64, HSA_QUEUE_TYPE_MULTI, hsa_test_queue_error_callback,
                                 &e->err, UINT32_MAX, UINT32_MAX, &e->queue));
}

static void env_close(struct cl_env *e) {
  HSA_ASSERT_OK(hsa_queue_destroy(e->queue));
  HSA_ASSERT_OK(hsa_shut_down());
}

static void *buffer(struct cl_env *e, size_t size) {
  void *p = NULL;
  HSA_ASSERT_OK(hsa_amd_memory_pool_allocate(e->pool, size, 0, &p));
  memset(p, 0, size);
  return p;
}

static void kernel_path(char *path, size_t size, const char *file) {
  snprintf(path, size, "%s/hsacc-tests/%s.hsaco", CL_TEST_KERNELS_DIR, file);
}

static void load(struct cl_env *e, const char *file, const char *symbol, struct gpu_kernel *k) {
  char path[512], why[256];
  kernel_path(path, sizeof path, file);
  hsa_status_t st = gpu_kernel_load(e->cpu, path, symbol, NULL, NULL, k, why, sizeof why);
  if (st != HSA_STATUS_SUCCESS) FAIL("%s", why);
}

/* Whether tools/hsacc cut the kernel at its barriers (no fiber per
 * work-item). */
static bool cut_at_barriers(const struct gpu_kernel *k) {
  const hsa_cpu_kernel_descriptor_t *d = cl_kernel_from_object(k->object);
  ASSERT_NOT_NULL(d);
  return cl_kernel_is_cut_at_barriers(d);
}

/* Loads a kernel with barriers that tools/hsacc cuts at them. */
static void load_cut(struct cl_env *e, const char *file, const char *symbol, struct gpu_kernel *k) {
  load(e, file, symbol, k);
  if (!cut_at_barriers(k)) FAIL("%s: %s was not cut at its barriers", file, symbol);
}

/* Dispatches and waits; the status the queue reported (SUCCESS if none). */
static hsa_status_t run_on(hsa_queue_t *q, struct hsa_test_queue_error *err,
                           const struct gpu_kernel *k, uint32_t dims, const uint32_t grid[3],
                           const uint32_t wg[3], uint32_t group_bytes, void *kernarg) {
  hsa_signal_t done;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
  hsa_kernel_dispatch_packet_t p;
  gpu_kernel_packet(k, dims, grid, wg, 0, kernarg, done, &p);
  if (group_bytes) p.group_segment_size = group_bytes;
  hsa_test_submit(q, &p, hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, true));
  uint64_t start = plat_now_ns();
  while (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 1000000, HSA_WAIT_STATE_BLOCKED) != 0 &&
         atomic_load(&err->calls) == 0 && plat_now_ns() - start < DISPATCH_TIMEOUT_NS) {
  }
  hsa_signal_value_t left = hsa_signal_load_scacquire(done);
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  if (atomic_load(&err->calls)) return (hsa_status_t)atomic_load(&err->status);
  ASSERT_EQ(left, 0);
  return HSA_STATUS_SUCCESS;
}

/* A new queue for the next dispatch after one that stopped the queue. */
static void reopen_queue(struct cl_env *e) {
  HSA_ASSERT_OK(hsa_queue_destroy(e->queue));
  atomic_store(&e->err.calls, 0);
  HSA_ASSERT_OK(hsa_queue_create(e->cpu, 64, HSA_QUEUE_TYPE_MULTI, hsa_test_queue_error_callback,
                                 &e->err, UINT32_MAX, UINT32_MAX, &e->queue));
}

static hsa_status_t run(struct cl_env *e, const struct gpu_kernel *k, uint32_t dims,
                        const uint32_t grid[3], const uint32_t wg[3], uint32_t group_bytes,
                        void *kernarg) {
  return run_on(e->queue, &e->err, k, dims, grid, wg, group_bytes, kernarg);
}

static void *kernarg_of(struct cl_env *e, const struct gpu_kernel *k) {
  return buffer(e, k->kernarg_size ? k->kernarg_size : 16);
}

/* ---- Work-item functions ---------------------------------------------------- */

static void check_ids(struct cl_env *e, const struct gpu_kernel *k, uint32_t dims,
                      const uint32_t grid[3], const uint32_t wg[3]) {
  uint32_t items = grid[0] * grid[1] * grid[2];
  uint32_t *out = buffer(e, (size_t)items * 32 * 4);
  uint8_t *ka = kernarg_of(e, k);
  uint64_t address = (uint64_t)(uintptr_t)out;
  memcpy(ka, &address, 8);
  HSA_ASSERT_OK(run(e, k, dims, grid, wg, 0, ka));
  for (uint32_t z = 0; z < grid[2]; z++)
    for (uint32_t y = 0; y < grid[1]; y++)
      for (uint32_t x = 0; x < grid[0]; x++) {
        uint32_t gid[3] = {x, y, z}, linear = (z * grid[1] + y) * grid[0] + x;
        const uint32_t *r = out + (size_t)linear * 32;
        uint32_t lid[3], local[3];
        for (int d = 0; d < 3; d++) {
          uint32_t group = gid[d] / wg[d], left = grid[d] - group * wg[d];
          lid[d] = gid[d] % wg[d];
          local[d] = left < wg[d] ? left : wg[d];
          ASSERT_EQ(r[0 + d], gid[d]);
          ASSERT_EQ(r[3 + d], lid[d]);
          ASSERT_EQ(r[6 + d], group);
          ASSERT_EQ(r[9 + d], local[d]);
          ASSERT_EQ(r[12 + d], wg[d]);
          ASSERT_EQ(r[15 + d], (grid[d] + wg[d] - 1) / wg[d]);
          ASSERT_EQ(r[18 + d], grid[d]);
          ASSERT_EQ(r[21 + d], 0);
        }
        ASSERT_EQ(r[24], dims);
        ASSERT_EQ(r[25], linear);
        ASSERT_EQ(r[26], (lid[2] * local[1] + lid[1]) * local[0] + lid[0]);
      }
  hsa_amd_memory_pool_free(out);
  hsa_amd_memory_pool_free(ka);
}

TEST(cl_cpu_workitem_functions_in_1d_2d_3d_with_partial_groups) {
  struct cl_env e;
  env_open(&e);
  struct gpu_kernel k;
  load(&e, "workitem", "workitem_ids.kd", &k);
  ASSERT_GE(k.kernarg_size, 8);
  check_ids(&e, &k, 1, (uint32_t[3]){1000, 1, 1}, (uint32_t[3]){64, 1, 1});
  check_ids(&e, &k, 2, (uint32_t[3]){37, 19, 1}, (uint32_t[3]){8, 4, 1});
  check_ids(&e, &k, 3, (uint32_t[3]){9, 7, 5}, (uint32_t[3]){4, 3, 2});
  check_ids(&e, &k, 1, (uint32_t[3]){1, 1, 1}, (uint32_t[3]){1, 1, 1});
  /* Enough groups that a core's claim is a run of several (the CPU code
   * runs a run in one call, cl/cpu_abi.h), ending within rows and planes
   * and crossing partial groups in every dimension. */
  check_ids(&e, &k, 1, (uint32_t[3]){20000, 1, 1}, (uint32_t[3]){3, 1, 1});
  check_ids(&e, &k, 2, (uint32_t[3]){301, 67, 1}, (uint32_t[3]){16, 8, 1});
  check_ids(&e, &k, 3, (uint32_t[3]){37, 29, 11}, (uint32_t[3]){4, 4, 2});
  gpu_kernel_release(&k);
  env_close(&e);
}

TEST(cl_cpu_unloaded_programs_stacks_are_kept_until_shut_down) {
  while (hsa_shut_down() == HSA_STATUS_SUCCESS) {
  }
  struct cl_env e;
  env_open(&e);
  struct gpu_kernel k;
  load(&e, "workitem", "workitem_ids.kd", &k);
  check_ids(&e, &k, 1, (uint32_t[3]){64, 1, 1}, (uint32_t[3]){64, 1, 1});
  gpu_kernel_release(&k);
  ASSERT_NULL(rt.cl_programs.list);
  ASSERT_GT(rt.cl_programs.stack_pool_count, 0); /* for the next program */
  env_close(&e);
  /* The next runtime starts without them. */
  ASSERT_EQ_U(rt.cl_programs.stack_pool_count, 0);
  ASSERT_NULL(rt.cl_programs.stack_regions);
}

TEST(cl_cpu_kernel_symbol_answers_for_the_cpu_agent) {
  struct cl_env e;
  env_open(&e);
  struct gpu_kernel k;
  load(&e, "limits", "local_big.kd", &k);
  ASSERT_EQ(k.group_size, 32768);
  ASSERT_GE(k.kernarg_size, 16);
  hsa_executable_symbol_t sym;
  HSA_ASSERT_OK(hsa_executable_get_symbol_by_name(k.executable, "local_big.kd", &e.cpu, &sym));
  uint32_t align = 0;
  HSA_ASSERT_OK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT, &align));
  ASSERT_GE(align, 16);
  hsa_symbol_kind_t kind;
  HSA_ASSERT_OK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind));
  ASSERT_EQ(kind, HSA_SYMBOL_KIND_KERNEL);
  ASSERT_EQ(hsa_executable_get_symbol_by_name(k.executable, "no_such_kernel.kd", &e.cpu, &sym),
            HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);
  gpu_kernel_release(&k);
  env_close(&e);
}

/* ---- Barriers ------------------------------------------------------------------ */

static void set_ptr(uint8_t *ka, size_t at, const void *p) {
  uint64_t a = (uint64_t)(uintptr_t)p;
  memcpy(ka + at, &a, 8);
}
static void set_u32(uint8_t *ka, size_t at, uint32_t v) { memcpy(ka + at, &v, 4); }

/* Each work-group's values reversed, by `symbol` (in, out). */
static void check_reversed(const char *symbol, bool cut) {
  struct cl_env e;
  env_open(&e);
  struct gpu_kernel k;
  load(&e, "barriers", symbol, &k);
  if (cut_at_barriers(&k) != cut) FAIL("%s was %scut at its barriers", symbol, cut ? "not " : "");
  const uint32_t sizes[][2] = {{1024, 256}, {1000, 128}, {7, 7}, {4096, 1024}, {3, 1}};
  for (size_t s = 0; s < countof(sizes); s++) {
    uint32_t n = sizes[s][0], wg = sizes[s][1];
    uint32_t *in = buffer(&e, n * 4), *out = buffer(&e, n * 4);
    for (uint32_t i = 0; i < n; i++) in[i] = i * 2654435761u;
    uint8_t *ka = kernarg_of(&e, &k);
    set_ptr(ka, 0, in);
    set_ptr(ka, 8, out);
    HSA_ASSERT_OK(run(&e, &k, 1, (uint32_t[3]){n, 1, 1}, (uint32_t[3]){wg, 1, 1}, 0, ka));
    for (uint32_t i = 0; i < n; i++) {
      uint32_t base = i / wg * wg, len = n - base < wg ? n - base : wg;
      ASSERT_EQ(out[i], in[base + len - 1 - (i - base)]);
    }
    hsa_amd_memory_pool_free(in);
    hsa_amd_memory_pool_free(out);
    hsa_amd_memory_pool_free(ka);
  }
  gpu_kernel_release(&k);
  env_close(&e);
}

TEST(cl_cpu_barrier_straight_line) { check_reversed("barrier_straight.kd", true); }

/* The barrier of wait_group_events is in the built-in library (async.cl). */
TEST(cl_cpu_barrier_in_wait_group_events_after_an_async_copy) {
  check_reversed("barrier_async_copy.kd", true);
}

/* A barrier in a function tools/hsacc cannot inline: the kernel keeps one
 * fiber per work-item, with the same results. */
TEST(cl_cpu_barrier_in_a_function_not_inlined_runs_on_fibers) {
  check_reversed("barrier_in_noinline_function.kd", false);
}

TEST(cl_cpu_barrier_in_a_loop) {
  struct cl_env e;
  env_open(&e);
  struct gpu_kernel k;
  load_cut(&e, "barriers", "barrier_loop.kd", &k);
  const uint32_t n = 1536, wg = 96, rounds = 37;
  uint32_t *in = buffer(&e, n * 4), *out = buffer(&e, n * 4);
  for (uint32_t i = 0; i < n; i++) in[i] = i * 40503u;
  uint8_t *ka = kernarg_of(&e, &k);
  set_ptr(ka, 0, in);
  set_ptr(ka, 8, out);
  set_u32(ka, 16, rounds);
  HSA_ASSERT_OK(run(&e, &k, 1, (uint32_t[3]){n, 1, 1}, (uint32_t[3]){wg, 1, 1}, 0, ka));
  for (uint32_t i = 0; i < n; i++) {
    uint32_t base = i / wg * wg, lid = i - base;
    ASSERT_EQ(out[i], in[base + (lid + rounds) % wg] + rounds);
  }
  hsa_amd_memory_pool_free(in);
  hsa_amd_memory_pool_free(out);
  hsa_amd_memory_pool_free(ka);
  gpu_kernel_release(&k);
  env_close(&e);
}

TEST(cl_cpu_barrier_in_uniform_branches_with_scopes) {
  struct cl_env e;
  env_open(&e);
  struct gpu_kernel k;
  load_cut(&e, "barriers", "barrier_branch.kd", &k);
  const uint32_t n = 1000, wg = 64; /* the last group is partial */
  for (uint32_t mode = 0; mode < 3; mode++) {
    uint32_t *in = buffer(&e, n * 4), *out = buffer(&e, n * 4), *tmp = buffer(&e, n * 4);
    for (uint32_t i = 0; i < n; i++) in[i] = i * 7u + 1;
    uint8_t *ka = kernarg_of(&e, &k);
    set_ptr(ka, 0, in);
    set_ptr(ka, 8, out);
    set_ptr(ka, 16, tmp);
    set_u32(ka, 24, mode);
    HSA_ASSERT_OK(run(&e, &k, 1, (uint32_t[3]){n, 1, 1}, (uint32_t[3]){wg, 1, 1}, 0, ka));
    uint32_t v[1000];
    for (uint32_t i = 0; i < n; i++) {
      uint32_t base = i / wg * wg, len = n - base < wg ? n - base : wg, mirror = base + len - 1 - (i - base);
      v[i] = mode == 1 ? in[mirror] : mode == 2 ? in[mirror] * 3 : in[i] + 7;
    }
    for (uint32_t i = 0; i < n; i++) {
      uint32_t group = i / wg, want = v[i] + (group % 2 == 0 ? v[group * wg] : 0);
      ASSERT_EQ(out[i], want);
    }
    hsa_amd_memory_pool_free(in);
    hsa_amd_memory_pool_free(out);
    hsa_amd_memory_pool_free(tmp);
    hsa_amd_memory_pool_free(ka);
  }
  gpu_kernel_release(&k);
  env_close(&e);
}

TEST(cl_cpu_barrier_reached_by_some_work_items_only_is_an_error) {
  struct cl_env e;
  env_open(&e);
  struct gpu_kernel k;
  load_cut(&e, "barriers", "barrier_divergent.kd", &k);
  uint32_t *out = buffer(&e, 64 * 4);
  uint8_t *ka = kernarg_of(&e, &k);
  set_ptr(ka, 0, out);
  ASSERT_EQ(run(&e, &k, 1, (uint32_t[3]){64, 1, 1}, (uint32_t[3]){16, 1, 1}, 0, ka),
            HSA_STATUS_ERROR_EXCEPTION);
  hsa_amd_memory_pool_free(out);
  hsa_amd_memory_pool_free(ka);
  gpu_kernel_release(&k);
  env_close(&e);
}

/* A group that fails stops its run: the first, a middle and the last group
 * of a dispatch large enough that each claim is a run of many groups; with
 * no failing group every group runs. The instances' state after a failed
 * run serves the next dispatch. */
TEST(cl_cpu_a_failing_group_in_a_run_of_groups_fails_the_dispatch) {
  struct cl_env e;
  env_open(&e);
  struct gpu_kernel k;
  load_cut(&e, "barriers", "barrier_divergent_in_one_group.kd", &k);
  const uint32_t wg = 8, groups = 4096, n = wg * groups;
  uint32_t *out = buffer(&e, n * 4);
  uint8_t *ka = kernarg_of(&e, &k);
  set_ptr(ka, 0, out);
  const uint32_t bad[] = {0, groups / 2 + 3, groups - 1};
  for (size_t b = 0; b < countof(bad); b++) {
    set_u32(ka, 8, bad[b]);
    ASSERT_EQ(run(&e, &k, 1, (uint32_t[3]){n, 1, 1}, (uint32_t[3]){wg, 1, 1}, 0, ka),
              HSA_STATUS_ERROR_EXCEPTION);
    reopen_queue(&e);
  }
  set_u32(ka, 8, groups);
  memset(out, 0, n * 4);
  HSA_ASSERT_OK(run(&e, &k, 1, (uint32_t[3]){n, 1, 1}, (uint32_t[3]){wg, 1, 1}, 0, ka));
  for (uint32_t i = 0; i < n; i++) ASSERT_EQ(out[i], 1);
  hsa_amd_memory_pool_free(out);
  hsa_amd_memory_pool_free(ka);
  gpu_kernel_release(&k);
  env_close(&e);
}

TEST(cl_cpu_barriers_in_a_loop_with_a_private_array_live_across_them) {
  struct cl_env e;
  env_open(&e);
  struct gpu_kernel k;
  load_cut(&e, "barriers", "barrier_private_array.kd", &k);
  const uint32_t n = 1000, wg = 80, rounds = 29; /* the last group is partial */
  uint32_t *in = buffer(&e, n * 4), *out = buffer(&e, n * 4);
  for (uint32_t i = 0; i < n; i++) in[i] = i * 97u + 5;
  uint8_t *ka = kernarg_of(&e, &k);
  set_ptr(ka, 0, in);
  set_ptr(ka, 8, out);
  set_u32(ka, 16, rounds);
  HSA_ASSERT_OK(run(&e, &k, 1, (uint32_t[3]){n, 1, 1}, (uint32_t[3]){wg, 1, 1}, 0, ka));
  static uint32_t p[1000][8], a[1000];
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t j = 0; j < 8; j++) p[i][j] = in[i] + j;
  for (uint32_t r = 0; r < rounds; r++) {
    for (uint32_t i = 0; i < n; i++) a[i] = p[i][r % 8];
    for (uint32_t i = 0; i < n; i++) {
      uint32_t base = i / wg * wg, len = n - base < wg ? n - base : wg;
      p[i][(r + 1) % 8] += a[base + (i - base + 1) % len];
    }
  }
  for (uint32_t i = 0; i < n; i++) {
    uint32_t want = 0;
    for (uint32_t j = 0; j < 8; j++) want += p[i][j] * (j + 1);
    ASSERT_EQ(out[i], want);
  }
  hsa_amd_memory_pool_free(in);
  hsa_amd_memory_pool_free(out);
  hsa_amd_memory_pool_free(ka);
  gpu_kernel_release(&k);
  env_close(&e);
}

static void check_barrier_3d(struct cl_env *e, const struct gpu_kernel *k, const uint32_t grid[3],
                             const uint32_t wg[3]) {
  uint32_t items = grid[0] * grid[1] * grid[2];
  uint32_t *out = buffer(e, items * 4);
  uint8_t *ka = kernarg_of(e, k);
  set_ptr(ka, 0, out);
  HSA_ASSERT_OK(run(e, k, 3, grid, wg, 0, ka));
  for (uint32_t z = 0; z < grid[2]; z++)
    for (uint32_t y = 0; y < grid[1]; y++)
      for (uint32_t x = 0; x < grid[0]; x++) {
        uint32_t gid[3] = {x, y, z}, base[3], len[3], lid[3], mirror[3];
        for (int d = 0; d < 3; d++) {
          base[d] = gid[d] / wg[d] * wg[d];
          len[d] = grid[d] - base[d] < wg[d] ? grid[d] - base[d] : wg[d];
          lid[d] = gid[d] - base[d];
        }
        uint32_t lin = (lid[2] * len[1] + lid[1]) * len[0] + lid[0];
        uint32_t m = len[0] * len[1] * len[2] - 1 - lin;
        mirror[0] = base[0] + m % len[0];
        mirror[1] = base[1] + m / len[0] % len[1];
        mirror[2] = base[2] + m / (len[0] * len[1]);
        ASSERT_EQ(out[(z * grid[1] + y) * grid[0] + x],
                  mirror[0] + 1000 * mirror[1] + 1000000 * mirror[2]);
      }
  hsa_amd_memory_pool_free(out);
  hsa_amd_memory_pool_free(ka);
}

static void check_barrier_rows_3d(struct cl_env *e, const struct gpu_kernel *k,
                                  const uint32_t grid[3], const uint32_t wg[3]) {
  uint32_t items = grid[0] * grid[1] * grid[2];
  uint32_t *out = buffer(e, items * 4);
  uint8_t *ka = kernarg_of(e, k);
  set_ptr(ka, 0, out);
  HSA_ASSERT_OK(run(e, k, 3, grid, wg, 0, ka));
  for (uint32_t i = 0; i < items; i++) {
    uint32_t x = i % grid[0], base = x / wg[0] * wg[0];
    uint32_t nx = grid[0] - base < wg[0] ? grid[0] - base : wg[0];
    test_context("work-item %u of grid %ux%ux%u", i, grid[0], grid[1], grid[2]);
    ASSERT_EQ(out[i], nx * (nx + 1) / 2);
  }
  hsa_amd_memory_pool_free(out);
  hsa_amd_memory_pool_free(ka);
}

TEST(cl_cpu_barrier_in_3d_groups_with_partial_groups) {
  struct cl_env e;
  env_open(&e);
  struct gpu_kernel k;
  load_cut(&e, "barriers", "barrier_3d.kd", &k);
  check_barrier_3d(&e, &k, (uint32_t[3]){8, 6, 4}, (uint32_t[3]){4, 3, 2});
  check_barrier_3d(&e, &k, (uint32_t[3]){11, 7, 5}, (uint32_t[3]){4, 3, 2});
  check_barrier_3d(&e, &k, (uint32_t[3]){9, 9, 9}, (uint32_t[3]){8, 8, 8});
  gpu_kernel_release(&k);
  /* A barrier loop whose steps are bounded in x, in every row. */
  load_cut(&e, "barriers", "barrier_rows_3d.kd", &k);
  check_barrier_rows_3d(&e, &k, (uint32_t[3]){11, 7, 5}, (uint32_t[3]){4, 3, 2});
  check_barrier_rows_3d(&e, &k, (uint32_t[3]){37, 3, 2}, (uint32_t[3]){16, 2, 2});
  check_barrier_rows_3d(&e, &k, (uint32_t[3]){300, 2, 1}, (uint32_t[3]){256, 2, 1});
  gpu_kernel_release(&k);
  env_close(&e);
}

/* ---- __local memory ------------------------------------------------------------- */

/* ---- Kernel output ------------------------------------------------------------ */

/* What reached the runtime's output hook, one entry per call (the runtime
 * calls it under its lock, one call at a time). */
static char printed[64][32];
static uint32_t printed_count, printed_lost;

static void record_output(const char *s, size_t n) {
  if (printed_count == countof(printed) || n >= sizeof printed[0]) {
    printed_lost++;
    return;
  }
  memcpy(printed[printed_count], s, n);
  printed[printed_count++][n] = 0;
}

static uint32_t times_printed(const char *text) {
  uint32_t times = 0;
  for (uint32_t i = 0; i < printed_count; i++) times += strcmp(printed[i], text) == 0;
  return times;
}

/* printf("literal\n"), printf("%s\n", s), printf("!") and printf("%c", c)
 * are puts and putchar calls once LLVM has optimised the CPU code: each
 * output still reaches the hook, whole, one call per printf, like the
 * printf("%d\n", v) next to them. */
TEST(cl_cpu_printf_reaches_the_output_hook_one_whole_write_each) {
  struct cl_env e;
  env_open(&e);
  struct gpu_kernel k;
  load(&e, "printf", "print_forms.kd", &k);
  static const int32_t values[4] = {7, -12, 300, 0};
  int32_t *in = buffer(&e, sizeof values);
  memcpy(in, values, sizeof values);
  uint8_t *ka = kernarg_of(&e, &k);
  set_ptr(ka, 0, in);
  printed_count = printed_lost = 0;
  cl_output_fn previous = cl_program_set_output(record_output);
  hsa_status_t st = run(&e, &k, 1, (uint32_t[3]){4, 1, 1}, (uint32_t[3]){2, 1, 1}, 0, ka);
  cl_program_set_output(previous);
  HSA_ASSERT_OK(st);
  ASSERT_EQ(printed_lost, 0);
  ASSERT_EQ(printed_count, 4 * 5);
  ASSERT_EQ(times_printed("a plain line\n"), 4);
  ASSERT_EQ(times_printed("a string line\n"), 4);
  ASSERT_EQ(times_printed("!"), 4);
  ASSERT_EQ(times_printed("?"), 4);
  for (int i = 0; i < 4; i++) {
    char line[16];
    snprintf(line, sizeof line, "%d\n", (int)values[i]);
    ASSERT_EQ(times_printed(line), 1);
  }
  hsa_amd_memory_pool_free(in);
  hsa_amd_memory_pool_free(ka);
  gpu_kernel_release(&k);
  env_close(&e);
}

/* ---- Floating-point control state ------------------------------------------- */

/* The control bits of MXCSR (the status flags, bits 0-5, aside) and the x87
 * control word the ABI starts a process with (System V AMD64 ABI; the
 * image's cores are set so in kernel/cpu.c), and 1.0f / 3.0f rounded to
 * nearest and toward zero. */
#define FP_MXCSR_CONTROL(v) ((v) & ~0x3fu)
#define FP_MXCSR_DEFAULT 0x1f80u
#define FP_X87_CW_DEFAULT 0x037fu
#define FP_THIRD_NEAREST 0x3eaaaaabu
#define FP_THIRD_TOWARD_ZERO 0x3eaaaaaau

static void run_fp_control(struct cl_env *e, const struct gpu_kernel *k, uint32_t *out, uint32_t n,
                           uint32_t wg, uint32_t change, uint32_t barriers) {
  uint8_t *ka = kernarg_of(e, k);
  float num = 1.0f, den = 3.0f;
  set_ptr(ka, 0, out);
  memcpy(ka + 8, &num, 4);
  memcpy(ka + 12, &den, 4);
  set_u32(ka, 16, change);
  set_u32(ka, 20, barriers);
  memset(out, 0, (size_t)n * 16);
  HSA_ASSERT_OK(run(e, k, 1, (uint32_t[3]){n, 1, 1}, (uint32_t[3]){wg, 1, 1}, 0, ka));
  hsa_amd_memory_pool_free(ka);
}

static void assert_fp_default(const uint32_t *r) {
  ASSERT_EQ(r[0], FP_THIRD_NEAREST);
  ASSERT_EQ(FP_MXCSR_CONTROL(r[1]), FP_MXCSR_DEFAULT);
  ASSERT_EQ(r[2], FP_X87_CW_DEFAULT);
}

/* MXCSR and the x87 control word are callee-saved (System V AMD64 ABI
 * 3.2.1): work-item 0 of each group changes the rounding modes and
 * flush-to-zero before two barriers and keeps them across both, while the
 * other work-items of its group, the next dispatches on every core and the
 * runtime run with the default ones, barrier or none. */
TEST(cl_cpu_fp_control_state_is_each_work_items_own_across_barriers) {
  struct cl_env e;
  env_open(&e);
  struct gpu_kernel k;
  load(&e, "fp_control", "fp_control.kd", &k);
  /* Its barriers are in a function it does not inline: one fiber per work-item. */
  ASSERT_FALSE(cut_at_barriers(&k));
  const uint32_t wg = 16, n = wg * 4 * e.cores;
  uint32_t *out = buffer(&e, (size_t)n * 16);
  for (uint32_t pass = 0; pass < 2; pass++) {
    uint32_t barriers = pass == 0; /* with barriers, then without */
    run_fp_control(&e, &k, out, n, wg, 1, barriers);
    for (uint32_t i = 0; i < n; i++) {
      const uint32_t *r = out + 4 * i;
      if (i % wg == 0) {
        ASSERT_EQ(r[0], FP_THIRD_TOWARD_ZERO);
        ASSERT_EQ(FP_MXCSR_CONTROL(r[1]), FP_MXCSR_DEFAULT | 0x6000u | 0x8000u);
        ASSERT_EQ(r[2], FP_X87_CW_DEFAULT | 0x0c00u);
      } else if (barriers) { /* without, items 1.. follow item 0 on its stack: not asked */
        assert_fp_default(r);
      }
    }
    for (uint32_t again = 0; again < 2; again++) {
      run_fp_control(&e, &k, out, n, wg, 0, again);
      for (uint32_t i = 0; i < n; i++) assert_fp_default(out + 4 * i);
    }
  }
  uint32_t mxcsr;
  uint16_t x87_cw;
  __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
  __asm__ volatile("fnstcw %0" : "=m"(x87_cw));
  ASSERT_EQ(FP_MXCSR_CONTROL(mxcsr), FP_MXCSR_DEFAULT);
  ASSERT_EQ(x87_cw, FP_X87_CW_DEFAULT);
  hsa_amd_memory_pool_free(out);
  gpu_kernel_release(&k);
  env_close(&e);
}

TEST(cl_cpu_local_memory_is_private_to_each_group_on_every_core) {
  struct cl_env e;
  env_open(&e);
  struct gpu_kernel k;
  load_cut(&e, "barriers", "local_private.kd", &k);
  const uint32_t wg = 200, groups = 8 * (e.cores ? e.cores : 1) + 3, n = wg * groups, rounds = 20;
  uint32_t *bad = buffer(&e, n * 4), *sums = buffer(&e, groups * 4);
  memset(bad, 0xff, n * 4);
  uint8_t *ka = kernarg_of(&e, &k);
  set_ptr(ka, 0, bad);
  set_ptr(ka, 8, sums);
  /* The __local argument: an offset in the group segment past the
   * kernel's own __local variables, as a GPU program lays it out. */
  set_u32(ka, 16, k.group_size);
  set_u32(ka, 20, rounds);
  HSA_ASSERT_OK(run(&e, &k, 1, (uint32_t[3]){n, 1, 1}, (uint32_t[3]){wg, 1, 1}, k.group_size + wg * 4, ka));
  for (uint32_t i = 0; i < n; i++) ASSERT_EQ(bad[i], 0);
  uint32_t r = rounds - 1;
  for (uint32_t g = 0; g < groups; g++)
    ASSERT_EQ(sums[g], (g * 1000003u + r * 256u + wg - 1) + ~(g * 7919u + r * 256u));
  hsa_amd_memory_pool_free(bad);
  hsa_amd_memory_pool_free(sums);
  hsa_amd_memory_pool_free(ka);
  gpu_kernel_release(&k);
  env_close(&e);
}

/* ---- Limits --------------------------------------------------------------------- */

TEST(cl_cpu_too_much_local_or_private_memory_is_refused_at_dispatch) {
  struct cl_env e;
  env_open(&e);
  struct gpu_kernel k;
  load(&e, "limits", "local_big.kd", &k);
  const uint32_t wg = 64;
  uint32_t *out = buffer(&e, wg * 4);
  uint8_t *ka = kernarg_of(&e, &k);
  set_ptr(ka, 0, out);
  set_u32(ka, 8, k.group_size);
  /* Fits: 32 KiB static and 256 bytes dynamic. */
  HSA_ASSERT_OK(run(&e, &k, 1, (uint32_t[3]){wg, 1, 1}, (uint32_t[3]){wg, 1, 1}, k.group_size + wg * 4, ka));
  for (uint32_t i = 0; i < wg; i++) ASSERT_EQ(out[i], 3 * (wg - 1 - i));
  /* 72 KiB: more than the agent's 64 KiB per work-group. ROCr's status. */
  ASSERT_EQ(run(&e, &k, 1, (uint32_t[3]){wg, 1, 1}, (uint32_t[3]){wg, 1, 1}, k.group_size + 40 * 1024, ka),
            HSA_STATUS_ERROR_INVALID_ALLOCATION);
  /* A __local argument past the end of the group segment. */
  reopen_queue(&e);
  set_u32(ka, 8, k.group_size + wg * 4);
  ASSERT_EQ(run(&e, &k, 1, (uint32_t[3]){wg, 1, 1}, (uint32_t[3]){wg, 1, 1}, k.group_size + wg * 4, ka),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  /* The same arguments, valid, in a kernarg 8 bytes off the 16-byte
   * alignment HSA asks (HSA Runtime PRM 1.2, 2.9.6), which the CPU code
   * relies on; nothing runs. */
  reopen_queue(&e);
  set_u32(ka, 8, k.group_size);
  uint8_t *off = buffer(&e, k.kernarg_size + 16);
  memcpy(off + 8, ka, k.kernarg_size);
  memset(out, 0xff, wg * 4);
  ASSERT_EQ(run(&e, &k, 1, (uint32_t[3]){wg, 1, 1}, (uint32_t[3]){wg, 1, 1}, k.group_size + wg * 4, off + 8),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  for (uint32_t i = 0; i < wg; i++) ASSERT_EQ(out[i], 0xffffffffu);
  hsa_amd_memory_pool_free(off);
  gpu_kernel_release(&k);
  reopen_queue(&e);
  load(&e, "limits", "private_too_big.kd", &k);
  ASSERT_GT(k.private_size, 32768);
  ASSERT_EQ(run(&e, &k, 1, (uint32_t[3]){1, 1, 1}, (uint32_t[3]){1, 1, 1}, 0, ka),
            HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  gpu_kernel_release(&k);
  /* 20 KiB of private memory, within the 32 KiB, but also kept across a
   * barrier in the work-item's context: 40 KiB. */
  reopen_queue(&e);
  load_cut(&e, "limits", "private_across_barrier_too_big.kd", &k);
  ASSERT_LE(k.private_size, 32768);
  ASSERT_EQ(run(&e, &k, 1, (uint32_t[3]){1, 1, 1}, (uint32_t[3]){1, 1, 1}, 0, ka),
            HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  hsa_amd_memory_pool_free(out);
  hsa_amd_memory_pool_free(ka);
  gpu_kernel_release(&k);
  env_close(&e);
}

/* ---- Files a CPU agent refuses ---------------------------------------------------- */

static hsa_status_t load_bytes(hsa_agent_t agent, const void *data, size_t size) {
  hsa_code_object_reader_t r;
  hsa_executable_t x;
  hsa_status_t st = hsa_code_object_reader_create_from_memory(data, size, &r);
  if (st != HSA_STATUS_SUCCESS) return st;
  HSA_ASSERT_OK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &x));
  st = hsa_executable_load_agent_code_object(x, agent, r, NULL, NULL);
  HSA_ASSERT_OK(hsa_executable_destroy(x));
  HSA_ASSERT_OK(hsa_code_object_reader_destroy(r));
  return st;
}

static void *file_bytes(const char *path, size_t *size) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) FAIL("cannot open %s (make test builds it)", path);
  off_t n = lseek(fd, 0, SEEK_END);
  lseek(fd, 0, SEEK_SET);
  uint8_t *p = malloc((size_t)n);
  ASSERT_NOT_NULL(p);
  ASSERT_EQ(read(fd, p, (size_t)n), n);
  close(fd);
  *size = (size_t)n;
  return p;
}

/* The bundle's entry with ID `id` (layout: clang ClangOffloadBundler.rst,
 * "Bundled Binary File Layout"). */
static const uint8_t *bundle_entry(const uint8_t *b, size_t size, const char *id, size_t *len) {
  uint64_t count, pos = 32;
  memcpy(&count, b + 24, 8);
  for (uint64_t i = 0; i < count && pos + 24 <= size; i++) {
    uint64_t off, n, idlen;
    memcpy(&off, b + pos, 8);
    memcpy(&n, b + pos + 8, 8);
    memcpy(&idlen, b + pos + 16, 8);
    if (idlen == strlen(id) && memcmp(b + pos + 24, id, idlen) == 0) {
      *len = n;
      return b + off;
    }
    pos += 24 + idlen;
  }
  return NULL;
}

/* Kernel `name`'s bundle, read whole, and its CPU entry within it. */
struct cpu_part {
  uint8_t *file;
  size_t file_size;
  const uint8_t *bytes;
  size_t size;
};

static void cpu_part_read(struct cpu_part *p, const char *name) {
  char path[512];
  kernel_path(path, sizeof path, name);
  p->size = 0;
  p->file = file_bytes(path, &p->file_size);
  p->bytes = bundle_entry(p->file, p->file_size, "host-x86_64-unknown-linux-gnu-", &p->size);
  ASSERT_NOT_NULL(p->bytes);
}

/* A writable copy of the CPU entry, to corrupt; the caller frees it. */
static uint8_t *cpu_part_copy(const struct cpu_part *p) {
  uint8_t *copy = malloc(p->size);
  ASSERT_NOT_NULL(copy);
  memcpy(copy, p->bytes, p->size);
  return copy;
}

TEST(cl_cpu_bad_files_are_refused_for_the_cpu_agent) {
  struct cl_env e;
  env_open(&e);
  struct cpu_part part;
  cpu_part_read(&part, "barriers");
  uint8_t *file = part.file;
  size_t size = part.file_size, cpu_size = part.size, gpu_size = 0;
  const uint8_t *cpu = part.bytes;
  const uint8_t *gpu = bundle_entry(file, size, "hipv4-amdgcn-amd-amdhsa--gfx902", &gpu_size);
  ASSERT_NOT_NULL(gpu);
  /* The whole file and its bare CPU part load. */
  HSA_ASSERT_OK(load_bytes(e.cpu, file, size));
  HSA_ASSERT_OK(load_bytes(e.cpu, cpu, cpu_size));
  /* A plain GPU code object is not for a CPU agent. */
  ASSERT_EQ(load_bytes(e.cpu, gpu, gpu_size), HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
  /* Truncated anywhere: refused, never loaded half. */
  for (size_t cut = 0; cut < cpu_size; cut += cpu_size / 37 + 1)
    ASSERT_NE(load_bytes(e.cpu, cpu, cut ? cut : 1), HSA_STATUS_SUCCESS);
  ASSERT_NE(load_bytes(e.cpu, file, size / 2), HSA_STATUS_SUCCESS);
  /* Corrupt headers. */
  uint8_t *copy = cpu_part_copy(&part);
  const size_t fields[] = {4, 16, 32, 54, 56};
  for (size_t f = 0; f < countof(fields); f++) {
    memcpy(copy, cpu, cpu_size);
    copy[fields[f]] ^= 0x5a;
    copy[fields[f] + 1] ^= 0x33;
    ASSERT_EQ(load_bytes(e.cpu, copy, cpu_size) == HSA_STATUS_SUCCESS, false);
  }
  /* An unknown import: a symbol name of the C library changed in place. */
  memcpy(copy, cpu, cpu_size);
  bool renamed = false;
  for (size_t i = 0; i + 16 < cpu_size && !renamed; i++)
    if (memcmp(copy + i, "__hsacl_run_groups", 18) == 0) {
      copy[i + 2] = 'X'; /* the runtime finds no entry point: refused */
      renamed = true;
    }
  ASSERT_TRUE(renamed);
  ASSERT_EQ(load_bytes(e.cpu, copy, cpu_size), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  free(copy);
  free(file);
  env_close(&e);
}

/* Reading the CPU part's ELF through its section headers (ELF gABI,
 * "Section Header", "Symbol Table", "Relocation"; 64-bit little-endian). */
static uint64_t elf_field(const uint8_t *p, size_t bytes) {
  uint64_t v = 0;
  memcpy(&v, p, bytes);
  return v;
}

static const uint8_t *elf_section_of_type(const uint8_t *f, uint32_t type) {
  uint64_t shoff = elf_field(f + 0x28, 8), shentsize = elf_field(f + 0x3a, 2);
  for (uint64_t i = 0, n = elf_field(f + 0x3c, 2); i < n; i++) {
    const uint8_t *sh = f + shoff + i * shentsize;
    if (elf_field(sh + 4, 4) == type) return sh;
  }
  return NULL;
}

/* The file offset of virtual address `addr`, from the section holding it. */
static size_t elf_file_offset(const uint8_t *f, uint64_t addr) {
  uint64_t shoff = elf_field(f + 0x28, 8), shentsize = elf_field(f + 0x3a, 2);
  for (uint64_t i = 0, n = elf_field(f + 0x3c, 2); i < n; i++) {
    const uint8_t *sh = f + shoff + i * shentsize;
    uint64_t at = elf_field(sh + 16, 8), size = elf_field(sh + 32, 8);
    if (elf_field(sh + 4, 4) != ELF_SHT_NULL && at && addr >= at && addr < at + size)
      return (size_t)(elf_field(sh + 24, 8) + (addr - at));
  }
  FAIL("no section holds address 0x%llx", (unsigned long long)addr);
}

static uint64_t elf_dynamic_symbol(const uint8_t *f, const char *name) {
  const uint8_t *dynsym = elf_section_of_type(f, ELF_SHT_DYNSYM);
  ASSERT_NOT_NULL(dynsym);
  uint64_t shoff = elf_field(f + 0x28, 8), shentsize = elf_field(f + 0x3a, 2);
  const uint8_t *strtab = f + shoff + elf_field(dynsym + 40, 4) * shentsize;
  const char *names = (const char *)f + elf_field(strtab + 24, 8);
  const uint8_t *sym = f + elf_field(dynsym + 24, 8);
  for (uint64_t i = 0, n = elf_field(dynsym + 32, 8) / 24; i < n; i++)
    if (strcmp(names + elf_field(sym + i * 24, 4), name) == 0) return elf_field(sym + i * 24 + 8, 8);
  FAIL("no dynamic symbol %s", name);
}

/* A CPU part of another interface version, or whose kernel table has
 * neither a work-group function nor a work-item loop for a kernel, is
 * refused at load. */
TEST(cl_cpu_other_interface_versions_are_refused) {
  struct cl_env e;
  env_open(&e);
  struct cpu_part part;
  cpu_part_read(&part, "barriers");
  const uint8_t *cpu = part.bytes;
  size_t cpu_size = part.size;
  uint8_t *copy = cpu_part_copy(&part);
  HSA_ASSERT_OK(load_bytes(e.cpu, copy, cpu_size));
  /* Version 2: the table before it had `group` and `context_stride`. */
  uint32_t *version = (uint32_t *)(copy + elf_file_offset(copy, elf_dynamic_symbol(copy, "__hsacl_abi_version")));
  ASSERT_EQ(*version, HSACL_ABI_VERSION);
  *version = 2;
  ASSERT_EQ(load_bytes(e.cpu, copy, cpu_size), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  /* The first kernel's `group` and `items` left null (one of them is): their
   * relocations made R_X86_64_NONE (psABI 4.4), the fields zero. */
  memcpy(copy, cpu, cpu_size);
  uint64_t table = elf_dynamic_symbol(copy, "__hsacl_kernels");
  const uint64_t fields[] = {table + offsetof(struct hsacl_kernel, group),
                             table + offsetof(struct hsacl_kernel, items)};
  const uint8_t *rela = elf_section_of_type(copy, ELF_SHT_RELA);
  ASSERT_NOT_NULL(rela);
  bool cleared = false;
  uint8_t *r = copy + elf_field(rela + 24, 8);
  for (uint64_t i = 0, n = elf_field(rela + 32, 8) / 24; i < n; i++, r += 24)
    for (size_t f = 0; f < countof(fields); f++)
      if (elf_field(r, 8) == fields[f]) {
        memset(r + 8, 0, 16); /* r_info (type and symbol), r_addend */
        cleared = true;
      }
  ASSERT_TRUE(cleared);
  for (size_t f = 0; f < countof(fields); f++) memset(copy + elf_file_offset(copy, fields[f]), 0, 8);
  ASSERT_EQ(load_bytes(e.cpu, copy, cpu_size), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  free(copy);
  free(part.file);
  env_close(&e);
}

/* An import from the C library resolves (the host's dlsym, the image's
 * export table); one nobody defines is refused at load, by name. */
TEST(cl_cpu_imports_resolve_and_unknown_ones_are_refused) {
  struct cl_env e;
  env_open(&e);
  struct gpu_kernel k;
  load(&e, "imports", "count_text.kd", &k);
  static const char text[] = "one source for every agent";
  char *t = buffer(&e, sizeof text);
  memcpy(t, text, sizeof text);
  uint32_t *out = buffer(&e, 8 * 4);
  uint8_t *ka = kernarg_of(&e, &k);
  set_ptr(ka, 0, t);
  set_ptr(ka, 8, out);
  HSA_ASSERT_OK(run(&e, &k, 1, (uint32_t[3]){8, 1, 1}, (uint32_t[3]){4, 1, 1}, 0, ka));
  for (uint32_t i = 0; i < 8; i++) ASSERT_EQ(out[i], sizeof text - 1 - i);
  hsa_amd_memory_pool_free(t);
  hsa_amd_memory_pool_free(out);
  hsa_amd_memory_pool_free(ka);
  gpu_kernel_release(&k);

  struct cpu_part part;
  cpu_part_read(&part, "imports");
  size_t cpu_size = part.size;
  uint8_t *copy = cpu_part_copy(&part);
  bool renamed = false;
  for (size_t i = 0; i + 8 < cpu_size && !renamed; i++)
    if (memcmp(copy + i, "strlen\0", 7) == 0) {
      copy[i + 4] = 'X'; /* "strlXn": in no C library */
      renamed = true;
    }
  ASSERT_TRUE(renamed);
  ASSERT_EQ(load_bytes(e.cpu, copy, cpu_size), HSA_STATUS_ERROR_VARIABLE_UNDEFINED);
  free(copy);
  free(part.file);
  env_close(&e);
}

/* A file with only a CPU part, loaded for the GPU agent, and the bare CPU
 * object: refused, with the GPU loader's statuses. */
TEST(cl_cpu_cpu_only_file_is_refused_for_the_gpu_agent) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t gpu;
  if (!gpu_find_agent(&gpu)) {
    HSA_ASSERT_OK(hsa_shut_down());
    test_skip("no GPU agent");
  }
  struct cpu_part part;
  cpu_part_read(&part, "barriers");
  uint8_t *file = part.file;
  size_t size = part.file_size, cpu_size = part.size;
  const uint8_t *cpu = part.bytes;
  /* The whole file loads for the GPU agent: its gfx902 or gfx90c entry. */
  HSA_ASSERT_OK(load_bytes(gpu, file, size));
  /* A bundle of the CPU entry alone (same layout as hsacc's). */
  static const char id[] = "host-x86_64-unknown-linux-gnu-";
  size_t header = 24 + 8 + 24 + sizeof id - 1, total = header + cpu_size;
  uint8_t *only = malloc(total);
  ASSERT_NOT_NULL(only);
  uint64_t count = 1, off = header, len = cpu_size, idlen = sizeof id - 1;
  memcpy(only, "__CLANG_OFFLOAD_BUNDLE__", 24);
  memcpy(only + 24, &count, 8);
  memcpy(only + 32, &off, 8);
  memcpy(only + 40, &len, 8);
  memcpy(only + 48, &idlen, 8);
  memcpy(only + 56, id, idlen);
  memcpy(only + header, cpu, cpu_size);
  ASSERT_EQ(load_bytes(gpu, only, total), HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
  ASSERT_NE(load_bytes(gpu, cpu, cpu_size), HSA_STATUS_SUCCESS);
  /* The same CPU-only bundle is fine for a CPU agent. */
  hsa_agent_t cpu_agent;
  hsa_test_cpu_agents(&cpu_agent, 1);
  HSA_ASSERT_OK(load_bytes(cpu_agent, only, total));
  free(only);
  free(file);
  HSA_ASSERT_OK(hsa_shut_down());
}

/* Program-scope variables are one copy shared by every core: what the
 * work-groups of one dispatch wrote on their cores, the next dispatch reads
 * from any core, and the host finds it through the variable's symbol. */
TEST(cl_cpu_program_scope_variables_are_shared_by_every_core) {
  struct cl_env e;
  env_open(&e);
  struct gpu_kernel rec, copy;
  load(&e, "globals", "record_groups.kd", &rec);
  load(&e, "globals", "copy_slots.kd", &copy);
  const uint32_t groups = 256, wg = 16;
  uint8_t *ka = kernarg_of(&e, &rec);
  HSA_ASSERT_OK(run(&e, &rec, 1, (uint32_t[3]){groups * wg, 1, 1}, (uint32_t[3]){wg, 1, 1}, 0, ka));
  /* The executable's variable for this agent: the shared copy. */
  hsa_executable_symbol_t sym;
  HSA_ASSERT_OK(hsa_executable_get_symbol_by_name(rec.executable, "slots", &e.cpu, &sym));
  uint64_t address = 0;
  HSA_ASSERT_OK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &address));
  const uint32_t *slots = (const uint32_t *)(uintptr_t)address;
  ASSERT_NOT_NULL(slots);
  for (uint32_t g = 0; g < groups; g++) ASSERT_EQ(slots[g], g * 3 + 7);
  /* A second executable of the same file has its own variables. */
  uint32_t *out = buffer(&e, groups * 4);
  uint8_t *ka2 = kernarg_of(&e, &copy);
  set_ptr(ka2, 0, out);
  HSA_ASSERT_OK(run(&e, &copy, 1, (uint32_t[3]){groups, 1, 1}, (uint32_t[3]){wg, 1, 1}, 0, ka2));
  for (uint32_t g = 0; g < groups; g++) ASSERT_EQ(out[g], 0);
  hsa_amd_memory_pool_free(out);
  hsa_amd_memory_pool_free(ka);
  hsa_amd_memory_pool_free(ka2);
  gpu_kernel_release(&rec);
  gpu_kernel_release(&copy);
  env_close(&e);
}
