/*
 * cl_placement_test.c - the placement agent and queue (hsa_ext_placement.h)
 * end to end, with the files tools/hsacc builds (one file for every agent):
 * the agent is not listed, loads every part and finds kernels; the OpenCL
 * C corpus through a placement queue gives the corpus references while
 * every agent that has the kernel runs some of it; pins, bans and queue
 * kinds are obeyed; the barrier bit and barrier packets order work across
 * agents; bad packets and a failing kernel reach the error callback with
 * the status a single-agent queue gives. Host and image (with CPU agents
 * only, the GPU parts of the checks are left out).
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_placement.h>
#include <hsa/hsa_kernarg_hidden.h>

#include "lib/plat.h"
#include "lib/test.h"
#include "support/gpu_kernel.h"
#include "tests/common/hsa_test_util.h"
#include "tests/common/kernel_corpus.h"

#define DISPATCH_TIMEOUT_NS 60000000000ull
#define MAX_STATS           8
#define UNMAPPED_ADDRESS    0x0000700000000000ull /* no memory of the host process or the image */

static const char *const c_kernels = " saxpy int_divmod call_stack ";

static bool listed(const char *list, const char *file) {
  char word[64];
  snprintf(word, sizeof word, " %s ", file);
  return strstr(list, word) != NULL;
}

struct env {
  hsa_agent_t placement, cpu;
  bool has_gpu;
  hsa_queue_t *queue;
  hsa_amd_memory_pool_t pool;
  struct hsa_test_queue_error error;
};

static void env_open(struct env *e) {
  memset(e, 0, sizeof *e);
  HSA_ASSERT_OK(hsa_init());
  hsa_test_cpu_agents(&e->cpu, 1);
  hsa_agent_t gpu;
  e->has_gpu = gpu_find_agent(&gpu);
  HSA_ASSERT_OK(hsa_ext_placement_agent(&e->placement));
  e->pool = hsa_test_kernarg_pool(e->cpu);
  ASSERT_NE(e->pool.handle, 0);
  HSA_ASSERT_OK(hsa_queue_create(e->placement, 64, HSA_QUEUE_TYPE_MULTI,
                                 hsa_test_queue_error_callback, &e->error, UINT32_MAX, UINT32_MAX,
                                 &e->queue));
}

static void env_close(struct env *e) {
  HSA_ASSERT_OK(hsa_queue_destroy(e->queue));
  HSA_ASSERT_OK(hsa_shut_down());
}

static void *pool_alloc(void *ctx, size_t size) {
  void *p = NULL;
  if (hsa_amd_memory_pool_allocate(*(hsa_amd_memory_pool_t *)ctx, size, 0, &p) !=
      HSA_STATUS_SUCCESS)
    return NULL;
  return p;
}
static void pool_free(void *ctx, void *p) {
  (void)ctx;
  hsa_amd_memory_pool_free(p);
}

static void load(struct env *e, const char *path, const char *symbol, struct gpu_kernel *k) {
  char why[256];
  if (gpu_kernel_load(e->placement, path, symbol, NULL, NULL, k, why, sizeof why)) FAIL("%s", why);
}

static void corpus_path(char *path, size_t size, const char *file) {
  snprintf(path, size, "%s/hsacc/%s.O2.v4.hsaco", CL_TEST_KERNELS_DIR, file);
}

/* Waits for `done` to reach 0; the queue's error status if it stopped. */
static hsa_status_t wait_done(struct env *e, hsa_signal_t done) {
  uint64_t until = plat_now_ns() + DISPATCH_TIMEOUT_NS;
  while (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 1000000,
                                   HSA_WAIT_STATE_BLOCKED) != 0) {
    if (atomic_load(&e->error.calls)) return (hsa_status_t)atomic_load(&e->error.status);
    if (plat_now_ns() > until) FAIL("no completion and no error");
  }
  return HSA_STATUS_SUCCESS;
}

static uint64_t submit(struct env *e, const struct gpu_kernel *k, uint32_t items, uint32_t wg,
                       void *kernarg, hsa_signal_t done, bool barrier) {
  hsa_kernel_dispatch_packet_t p;
  gpu_kernel_packet(k, 1, (uint32_t[3]){items, 1, 1}, (uint32_t[3]){wg, 1, 1}, 0, kernarg, done,
                    &p);
  return hsa_test_submit(e->queue, &p, hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, barrier));
}

/* Dispatches per agent kind from the statistics. */
static void kind_counts(struct env *e, uint64_t object, uint64_t *cpu, uint64_t *gpu) {
  hsa_ext_placement_agent_stats_t s[MAX_STATS];
  uint32_t n = 0;
  HSA_ASSERT_OK(hsa_ext_placement_kernel_stats(object, s, MAX_STATS, &n));
  ASSERT_LE(n, MAX_STATS);
  *cpu = *gpu = 0;
  for (uint32_t i = 0; i < n; i++) {
    hsa_device_type_t type;
    HSA_ASSERT_OK(hsa_agent_get_info(s[i].agent, HSA_AGENT_INFO_DEVICE, &type));
    ASSERT_LE(s[i].measured, s[i].dispatches);
    if (type == HSA_DEVICE_TYPE_GPU)
      *gpu += s[i].dispatches;
    else
      *cpu += s[i].dispatches;
  }
  (void)e;
}

static hsa_status_t count_agent(hsa_agent_t agent, void *data) {
  struct {
    hsa_agent_t placement;
    int seen, total;
  } *c = data;
  c->total++;
  if (agent.handle == c->placement.handle) c->seen++;
  return HSA_STATUS_SUCCESS;
}

TEST(placement_agent_is_not_listed_and_loads_every_part) {
  struct env e;
  env_open(&e);
  struct {
    hsa_agent_t placement;
    int seen, total;
  } c = {e.placement, 0, 0};
  HSA_ASSERT_OK(hsa_iterate_agents(count_agent, &c));
  ASSERT_EQ(c.seen, 0);
  ASSERT_GE(c.total, 1);
  hsa_device_type_t type;
  HSA_ASSERT_OK(hsa_agent_get_info(e.placement, HSA_AGENT_INFO_DEVICE, &type));
  ASSERT_EQ(type, HSA_EXT_PLACEMENT_DEVICE_TYPE);
  ASSERT_EQ(hsa_ext_placement_agent(NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  char path[512];
  corpus_path(path, sizeof path, "vector_add");
  struct gpu_kernel k, kc;
  load(&e, path, "vector_add.kd", &k);
  char why[256];
  ASSERT_EQ(gpu_kernel_load(e.cpu, path, "vector_add.kd", NULL, NULL, &kc, why, sizeof why),
            HSA_STATUS_SUCCESS);
  ASSERT_NE(k.object, kc.object); /* the placement kernel, not a part */
  ASSERT_EQ(k.kernarg_size, kc.kernarg_size);
  uint64_t cpu, gpu;
  kind_counts(&e, k.object, &cpu, &gpu);
  ASSERT_EQ(cpu + gpu, 0);
  hsa_ext_placement_agent_stats_t s[MAX_STATS];
  uint32_t n = 0;
  HSA_ASSERT_OK(hsa_ext_placement_kernel_stats(k.object, s, MAX_STATS, &n));
  ASSERT_GE(n, 1); /* one entry per agent that has the kernel */
  ASSERT_EQ(hsa_ext_placement_kernel_stats(kc.object, s, MAX_STATS, &n),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_ext_placement_kernel_stats(k.object, NULL, 1, &n),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_ext_placement_queue_set_kinds(e.queue, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_queue_t *direct;
  HSA_ASSERT_OK(hsa_queue_create(e.cpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                                 UINT32_MAX, &direct));
  ASSERT_EQ(hsa_ext_placement_queue_set_kinds(direct, HSA_EXT_PLACEMENT_KIND_CPU),
            HSA_STATUS_ERROR_INVALID_QUEUE);
  HSA_ASSERT_OK(hsa_queue_destroy(direct));
  gpu_kernel_release(&kc);
  gpu_kernel_release(&k);
  env_close(&e);
}

/* Every runnable corpus kernel, 8 times: the reference each time, and the
 * exploration sends it to every agent that has it. */
TEST(placement_corpus_through_a_placement_queue_gives_the_references) {
  struct env e;
  env_open(&e);
  uint32_t ran = 0;
  for (uint32_t i = 0; i < corpus_kernel_count; i++) {
    const struct corpus_kernel *ck = &corpus_kernels[i];
    if (listed(c_kernels, ck->file) || listed(CL_CORPUS_WAITING, ck->file) || ck->external_variable)
      continue;
    char path[512], why[256];
    corpus_path(path, sizeof path, ck->file);
    struct gpu_kernel k;
    load(&e, path, ck->symbol, &k);
    for (int round = 0; round < 8; round++) {
      struct corpus_alloc alloc = {pool_alloc, pool_free, &e.pool};
      struct corpus_dispatch d;
      ASSERT_TRUE(corpus_setup(ck, &alloc, &d));
      void *kernarg = pool_alloc(&e.pool, k.kernarg_size ? k.kernarg_size : 16);
      ASSERT_NOT_NULL(kernarg);
      memset(kernarg, 0, k.kernarg_size);
      ASSERT_NE(corpus_pack_args(&d, kernarg, k.kernarg_size), 0);
      hsa_signal_t done;
      HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
      hsa_kernel_dispatch_packet_t p;
      gpu_kernel_packet(&k, d.dims, d.grid, d.workgroup, k.dynamic_stack ? 512 : 0, kernarg, done,
                        &p);
      hsa_test_submit(e.queue, &p, hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, true));
      hsa_status_t st = wait_done(&e, done);
      if (st != HSA_STATUS_SUCCESS) FAIL("%s: the placement queue stopped with 0x%x", path, st);
      if (!corpus_check(&d, why, sizeof why)) FAIL("%s round %d: %s", path, round, why);
      HSA_ASSERT_OK(hsa_signal_destroy(done));
      corpus_release(&d);
      pool_free(NULL, kernarg);
    }
    hsa_ext_placement_agent_stats_t s[MAX_STATS];
    uint32_t n = 0;
    uint64_t total = 0;
    HSA_ASSERT_OK(hsa_ext_placement_kernel_stats(k.object, s, MAX_STATS, &n));
    for (uint32_t a = 0; a < n; a++) {
      total += s[a].dispatches;
      if (s[a].dispatches == 0) FAIL("%s: agent %u of %u never ran it", path, a, n);
      ASSERT_EQ(s[a].measured, s[a].dispatches); /* all complete, all measured */
    }
    ASSERT_EQ(total, 8);
    gpu_kernel_release(&k);
    ran++;
  }
  ASSERT_GE(ran, 5);
  env_close(&e);
}

static void *vadd_args(struct env *e, const struct gpu_kernel *k, float *a, float *b, float *c,
                       uint32_t n) {
  uint8_t *ka = pool_alloc(&e->pool, k->kernarg_size);
  ASSERT_NOT_NULL(ka);
  memset(ka, 0, k->kernarg_size);
  memcpy(ka, &a, 8);
  memcpy(ka + 8, &b, 8);
  memcpy(ka + 16, &c, 8);
  memcpy(ka + 24, &n, 4);
  return ka;
}

TEST(placement_pins_bans_and_queue_kinds_are_obeyed) {
  struct env e;
  env_open(&e);
  char path[512];
  corpus_path(path, sizeof path, "vector_add");
  struct gpu_kernel k;
  load(&e, path, "vector_add.kd", &k);
  const uint32_t n = 256;
  float *a = pool_alloc(&e.pool, n * 4), *b = pool_alloc(&e.pool, n * 4),
        *c = pool_alloc(&e.pool, n * 4);
  for (uint32_t i = 0; i < n; i++) a[i] = (float)i, b[i] = 1;
  void *ka = vadd_args(&e, &k, a, b, c, n);
  hsa_signal_t done;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
  uint32_t kinds[3] = {HSA_EXT_PLACEMENT_KIND_CPU, HSA_EXT_PLACEMENT_KIND_GPU,
                       HSA_EXT_PLACEMENT_KIND_ANY};
  for (int pass = 0; pass < 2; pass++) {
    if (kinds[pass] == HSA_EXT_PLACEMENT_KIND_GPU && !e.has_gpu) {
      ASSERT_EQ(hsa_ext_placement_kernel_set_policy(k.object, kinds[pass], 0),
                HSA_STATUS_ERROR_INVALID_ARGUMENT);
      continue;
    }
    HSA_ASSERT_OK(hsa_ext_placement_kernel_set_policy(k.object, kinds[pass], 0));
    uint64_t cpu0, gpu0, cpu1, gpu1;
    kind_counts(&e, k.object, &cpu0, &gpu0);
    for (int r = 0; r < 6; r++) {
      hsa_signal_store_relaxed(done, 1);
      memset(c, 0, n * 4);
      submit(&e, &k, n, 64, ka, done, true);
      HSA_ASSERT_OK(wait_done(&e, done));
      for (uint32_t i = 0; i < n; i++) ASSERT_EQ(c[i], (float)i + 1);
    }
    kind_counts(&e, k.object, &cpu1, &gpu1);
    if (kinds[pass] == HSA_EXT_PLACEMENT_KIND_CPU) {
      ASSERT_EQ(cpu1 - cpu0, 6);
      ASSERT_EQ(gpu1, gpu0);
    } else {
      ASSERT_EQ(gpu1 - gpu0, 6);
      ASSERT_EQ(cpu1, cpu0);
    }
  }
  /* The queue allows the CPU only, the kernel: the same. Then the queue
   * forbids the only kind left: the queue stops with INVALID_ISA. */
  HSA_ASSERT_OK(hsa_ext_placement_kernel_set_policy(k.object, HSA_EXT_PLACEMENT_KIND_ANY, 0));
  HSA_ASSERT_OK(hsa_ext_placement_queue_set_kinds(e.queue, HSA_EXT_PLACEMENT_KIND_CPU));
  uint64_t cpu0, gpu0, cpu1, gpu1;
  kind_counts(&e, k.object, &cpu0, &gpu0);
  hsa_signal_store_relaxed(done, 1);
  submit(&e, &k, n, 64, ka, done, true);
  HSA_ASSERT_OK(wait_done(&e, done));
  kind_counts(&e, k.object, &cpu1, &gpu1);
  ASSERT_EQ(cpu1 - cpu0, 1);
  ASSERT_EQ(gpu1, gpu0);
  HSA_ASSERT_OK(hsa_ext_placement_reset(k.object));
  kind_counts(&e, k.object, &cpu0, &gpu0);
  ASSERT_EQ(cpu0 + gpu0, 0);
  ASSERT_EQ(hsa_ext_placement_reset(12345), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_ext_placement_kernel_set_policy(k.object, 0, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_ext_placement_kernel_set_policy(12345, HSA_EXT_PLACEMENT_KIND_ANY, 0),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  if (e.has_gpu) {
    HSA_ASSERT_OK(hsa_ext_placement_kernel_set_policy(k.object, HSA_EXT_PLACEMENT_KIND_GPU, 0));
    hsa_signal_store_relaxed(done, 1);
    submit(&e, &k, n, 64, ka, done, true);
    ASSERT_EQ(wait_done(&e, done), HSA_STATUS_ERROR_INVALID_ISA);
    ASSERT_EQ(atomic_load(&e.error.calls), 1);
  }
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  pool_free(NULL, ka);
  pool_free(NULL, a), pool_free(NULL, b), pool_free(NULL, c);
  gpu_kernel_release(&k);
  env_close(&e);
}

/* x(i+1) = x(i) + 1 across alternating agents, with the barrier bit only:
 * every step reads what the step before wrote on the other agent. */
TEST(placement_barrier_bit_orders_a_chain_across_agents) {
  struct env e;
  env_open(&e);
  char path[512];
  corpus_path(path, sizeof path, "vector_add");
  struct gpu_kernel k;
  load(&e, path, "vector_add.kd", &k);
  const uint32_t n = 4096, steps = 12;
  float *x[2] = {pool_alloc(&e.pool, n * 4), pool_alloc(&e.pool, n * 4)};
  float *one = pool_alloc(&e.pool, n * 4);
  for (uint32_t i = 0; i < n; i++) x[0][i] = (float)i, x[1][i] = -1, one[i] = 1;
  void *ka[2] = {vadd_args(&e, &k, x[0], one, x[1], n), vadd_args(&e, &k, x[1], one, x[0], n)};
  hsa_signal_t done;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
  uint32_t kinds[2] = {HSA_EXT_PLACEMENT_KIND_CPU,
                       e.has_gpu ? HSA_EXT_PLACEMENT_KIND_GPU : HSA_EXT_PLACEMENT_KIND_CPU};
  for (uint32_t s = 0; s < steps; s++) {
    /* The policy is read as the doorbell forwards the packet. */
    HSA_ASSERT_OK(hsa_ext_placement_kernel_set_policy(k.object, kinds[s % 2], 0));
    submit(&e, &k, n, 64, ka[s % 2], s + 1 == steps ? done : (hsa_signal_t){0}, true);
  }
  HSA_ASSERT_OK(wait_done(&e, done));
  for (uint32_t i = 0; i < n; i++) ASSERT_EQ(x[steps % 2][i], (float)i + (float)steps);
  uint64_t cpu, gpu;
  kind_counts(&e, k.object, &cpu, &gpu);
  ASSERT_EQ(cpu + gpu, steps);
  if (e.has_gpu) ASSERT_EQ(gpu, steps / 2);
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  pool_free(NULL, ka[0]), pool_free(NULL, ka[1]);
  pool_free(NULL, x[0]), pool_free(NULL, x[1]), pool_free(NULL, one);
  gpu_kernel_release(&k);
  env_close(&e);
}

/* A barrier-AND on a signal the test holds: a later dispatch without the
 * barrier bit, sent to the other agent kind, must not run before it. */
TEST(placement_barrier_packet_holds_later_work_on_every_agent) {
  struct env e;
  env_open(&e);
  char path[512];
  corpus_path(path, sizeof path, "vector_add");
  struct gpu_kernel k;
  load(&e, path, "vector_add.kd", &k);
  const uint32_t n = 256;
  float *a = pool_alloc(&e.pool, n * 4), *b = pool_alloc(&e.pool, n * 4),
        *c = pool_alloc(&e.pool, n * 4);
  for (uint32_t i = 0; i < n; i++) a[i] = (float)i, b[i] = 2, c[i] = -1;
  void *ka = vadd_args(&e, &k, a, b, c, n);
  hsa_signal_t gate, done, first;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &gate));
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &first));
  /* A first dispatch on the CPU: the barrier goes after it, on the CPU. */
  HSA_ASSERT_OK(hsa_ext_placement_kernel_set_policy(k.object, HSA_EXT_PLACEMENT_KIND_CPU, 0));
  submit(&e, &k, n, 64, ka, first, false);
  HSA_ASSERT_OK(wait_done(&e, first));
  for (uint32_t i = 0; i < n; i++) c[i] = -1;
  hsa_barrier_and_packet_t bar = {0};
  bar.dep_signal[0] = gate;
  hsa_test_submit(e.queue, &bar, hsa_test_header(HSA_PACKET_TYPE_BARRIER_AND, false));
  HSA_ASSERT_OK(hsa_ext_placement_kernel_set_policy(
      k.object, e.has_gpu ? HSA_EXT_PLACEMENT_KIND_GPU : HSA_EXT_PLACEMENT_KIND_CPU, 0));
  submit(&e, &k, n, 64, ka, done, false);
  /* Held: nothing written while the gate is closed (a check that can only
   * fail, never pass falsely, whatever the timing). */
  ASSERT_EQ(
      hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 20000000, HSA_WAIT_STATE_BLOCKED),
      1);
  for (uint32_t i = 0; i < n; i++) ASSERT_EQ(c[i], -1.0f);
  hsa_signal_store_screlease(gate, 0);
  HSA_ASSERT_OK(wait_done(&e, done));
  for (uint32_t i = 0; i < n; i++) ASSERT_EQ(c[i], (float)i + 2);
  /* The AMD barrier-value packet the same way. */
  hsa_signal_store_relaxed(gate, 5);
  hsa_signal_store_relaxed(done, 1);
  for (uint32_t i = 0; i < n; i++) c[i] = -1;
  hsa_amd_barrier_value_packet_t bv = {0};
  bv.header.AmdFormat = HSA_AMD_PACKET_TYPE_BARRIER_VALUE;
  bv.signal = gate;
  bv.value = 3;
  bv.mask = -1;
  bv.cond = HSA_SIGNAL_CONDITION_LT;
  hsa_test_submit(e.queue, &bv, hsa_test_header(HSA_PACKET_TYPE_VENDOR_SPECIFIC, false));
  HSA_ASSERT_OK(hsa_ext_placement_kernel_set_policy(k.object, HSA_EXT_PLACEMENT_KIND_CPU, 0));
  submit(&e, &k, n, 64, ka, done, false);
  ASSERT_EQ(
      hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 20000000, HSA_WAIT_STATE_BLOCKED),
      1);
  for (uint32_t i = 0; i < n; i++) ASSERT_EQ(c[i], -1.0f);
  hsa_signal_store_screlease(gate, 2);
  HSA_ASSERT_OK(wait_done(&e, done));
  for (uint32_t i = 0; i < n; i++) ASSERT_EQ(c[i], (float)i + 2);
  HSA_ASSERT_OK(hsa_signal_destroy(gate));
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  HSA_ASSERT_OK(hsa_signal_destroy(first));
  pool_free(NULL, ka);
  pool_free(NULL, a), pool_free(NULL, b), pool_free(NULL, c);
  gpu_kernel_release(&k);
  env_close(&e);
}

TEST(placement_bad_packets_and_a_failing_kernel_reach_the_error_callback) {
  char path[512];
  corpus_path(path, sizeof path, "vector_add");
  /* A kernel object that is no placement kernel (a CPU part's). */
  struct env e;
  env_open(&e);
  struct gpu_kernel kc, k;
  char why[256];
  ASSERT_EQ(gpu_kernel_load(e.cpu, path, "vector_add.kd", NULL, NULL, &kc, why, sizeof why),
            HSA_STATUS_SUCCESS);
  hsa_signal_t done;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
  submit(&e, &kc, 64, 64, NULL, done, true);
  ASSERT_EQ(wait_done(&e, done), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  ASSERT_EQ(atomic_load(&e.error.calls), 1);
  gpu_kernel_release(&kc);
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  env_close(&e);
  /* An agent-dispatch packet: it names one agent's function. */
  env_open(&e);
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
  hsa_agent_dispatch_packet_t ad = {0};
  ad.completion_signal = done;
  hsa_test_submit(e.queue, &ad, hsa_test_header(HSA_PACKET_TYPE_AGENT_DISPATCH, false));
  ASSERT_EQ(wait_done(&e, done), HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  env_close(&e);
  /* A kernel that fails on the CPU agent (a barrier only some work-items
   * reach): the status the CPU agent's own queue reports. */
  env_open(&e);
  char bpath[512];
  snprintf(bpath, sizeof bpath, "%s/hsacc-tests/barriers.hsaco", CL_TEST_KERNELS_DIR);
  load(&e, bpath, "barrier_divergent.kd", &k);
  HSA_ASSERT_OK(hsa_ext_placement_kernel_set_policy(k.object, HSA_EXT_PLACEMENT_KIND_CPU, 0));
  uint32_t *out = pool_alloc(&e.pool, 64 * 4);
  uint8_t *ka = pool_alloc(&e.pool, k.kernarg_size);
  memset(ka, 0, k.kernarg_size);
  memcpy(ka, &out, 8);
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
  submit(&e, &k, 64, 16, ka, done, true);
  ASSERT_EQ(wait_done(&e, done), HSA_STATUS_ERROR_EXCEPTION);
  ASSERT_EQ(atomic_load(&e.error.calls), 1);
  pool_free(NULL, out);
  pool_free(NULL, ka);
  gpu_kernel_release(&k);
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  env_close(&e);
  /* A GPU page fault (a store to unmapped memory): ROCr's memory fault
   * status, as the GPU agent's own queue reports it; the work is not run
   * again elsewhere (its signal stays). */
  env_open(&e);
  if (e.has_gpu) {
    load(&e, path, "vector_add.kd", &k);
    HSA_ASSERT_OK(hsa_ext_placement_kernel_set_policy(k.object, HSA_EXT_PLACEMENT_KIND_GPU, 0));
    float *a = pool_alloc(&e.pool, 256 * 4);
    memset(a, 0, 256 * 4);
    ka = vadd_args(&e, &k, a, a, (float *)(uintptr_t)UNMAPPED_ADDRESS, 256);
    HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
    submit(&e, &k, 256, 64, ka, done, true);
    ASSERT_EQ(wait_done(&e, done), (hsa_status_t)HSA_STATUS_ERROR_MEMORY_FAULT);
    ASSERT_EQ(hsa_signal_load_scacquire(done), 1);
    ASSERT_EQ(atomic_load(&e.error.calls), 1);
    uint64_t cpu, gpu;
    kind_counts(&e, k.object, &cpu, &gpu);
    ASSERT_EQ(cpu, 0);
    HSA_ASSERT_OK(hsa_signal_destroy(done));
    pool_free(NULL, a);
    pool_free(NULL, ka);
    gpu_kernel_release(&k);
  }
  env_close(&e);
}

/* ---- Co-execution ------------------------------------------------------------------ */

/* Every corpus kernel that can be split (code object v5), split between
 * the GPU and the CPU agents: the corpus reference, and both kinds ran
 * work-groups of it. Code object v4 files are refused. */
TEST(placement_split_corpus_kernels_give_the_references_with_both_kinds_working) {
  struct env e;
  env_open(&e);
  if (!e.has_gpu) {
    env_close(&e);
    test_skip("no GPU agent: nothing to split with");
  }
  uint32_t split = 0;
  for (uint32_t i = 0; i < corpus_kernel_count; i++) {
    const struct corpus_kernel *ck = &corpus_kernels[i];
    if (listed(c_kernels, ck->file) || listed(CL_CORPUS_WAITING, ck->file) || ck->external_variable)
      continue;
    char path[512], why[256];
    corpus_path(path, sizeof path, ck->file);
    struct gpu_kernel k;
    load(&e, path, ck->symbol, &k);
    ASSERT_EQ(hsa_ext_placement_kernel_set_split(k.object, HSA_EXT_PLACEMENT_SPLIT_ALWAYS),
              HSA_STATUS_ERROR_INVALID_ARGUMENT); /* v4: reads the packet */
    HSA_ASSERT_OK(hsa_ext_placement_kernel_set_split(k.object, HSA_EXT_PLACEMENT_SPLIT_NEVER));
    gpu_kernel_release(&k);
    snprintf(path, sizeof path, "%s/hsacc/%s.O2.v5.hsaco", CL_TEST_KERNELS_DIR, ck->file);
    load(&e, path, ck->symbol, &k);
    if (hsa_ext_placement_kernel_set_split(k.object, HSA_EXT_PLACEMENT_SPLIT_ALWAYS) !=
        HSA_STATUS_SUCCESS) {
      gpu_kernel_release(&k);
      continue;
    }
    struct corpus_alloc alloc = {pool_alloc, pool_free, &e.pool};
    struct corpus_dispatch d;
    ASSERT_TRUE(corpus_setup(ck, &alloc, &d));
    uint32_t slow = d.dims - 1;
    uint32_t slices = (d.grid[slow] + d.workgroup[slow] - 1) / d.workgroup[slow];
    void *kernarg = pool_alloc(&e.pool, k.kernarg_size);
    ASSERT_NOT_NULL(kernarg);
    memset(kernarg, 0, k.kernarg_size);
    ASSERT_NE(corpus_pack_args(&d, kernarg, k.kernarg_size), 0);
    hsa_signal_t done;
    HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
    hsa_kernel_dispatch_packet_t p;
    gpu_kernel_packet(&k, d.dims, d.grid, d.workgroup, k.dynamic_stack ? 512 : 0, kernarg, done,
                      &p);
    HSA_ASSERT_OK(hsa_kernarg_fill_hidden(&p, e.queue, kernarg, k.kernarg_size));
    hsa_test_submit(e.queue, &p, hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, true));
    hsa_status_t st = wait_done(&e, done);
    if (st != HSA_STATUS_SUCCESS) FAIL("%s: the placement queue stopped with 0x%x", path, st);
    if (!corpus_check(&d, why, sizeof why)) FAIL("%s split: %s", path, why);
    hsa_ext_placement_agent_stats_t s[MAX_STATS];
    uint32_t n = 0;
    HSA_ASSERT_OK(hsa_ext_placement_kernel_stats(k.object, s, MAX_STATS, &n));
    uint64_t gpu_groups = 0, cpu_groups = 0, dispatches = 0;
    for (uint32_t a = 0; a < n; a++) {
      hsa_device_type_t type;
      HSA_ASSERT_OK(hsa_agent_get_info(s[a].agent, HSA_AGENT_INFO_DEVICE, &type));
      *(type == HSA_DEVICE_TYPE_GPU ? &gpu_groups : &cpu_groups) += s[a].split_groups;
      dispatches += s[a].dispatches;
    }
    if (slices >= 2) {
      uint64_t groups = 1;
      for (uint32_t dim = 0; dim < d.dims; dim++)
        groups *= (d.grid[dim] + d.workgroup[dim] - 1) / d.workgroup[dim];
      if (gpu_groups == 0 || cpu_groups == 0)
        FAIL("%s: GPU ran %llu, CPU %llu work-groups", path, (unsigned long long)gpu_groups,
             (unsigned long long)cpu_groups);
      ASSERT_EQ(gpu_groups + cpu_groups, groups);
      ASSERT_EQ(dispatches, 0); /* a split is no single-agent dispatch */
      split++;
    }
    HSA_ASSERT_OK(hsa_signal_destroy(done));
    corpus_release(&d);
    pool_free(NULL, kernarg);
    gpu_kernel_release(&k);
  }
  ASSERT_GE(split, 3);
  env_close(&e);
}

/* ---- Queue attributes and shut-down ------------------------------------------------- */

/* A CU mask and a priority set on the placement queue reach the packets it
 * forwards: a mask of one core still runs the dispatches, every result
 * right; the mask reads back. */
TEST(placement_queue_cu_mask_and_priority_apply_to_forwarded_work) {
  struct env e;
  env_open(&e);
  char path[512];
  corpus_path(path, sizeof path, "vector_add");
  struct gpu_kernel k;
  load(&e, path, "vector_add.kd", &k);
  uint32_t one = 1, back[4] = {0};
  hsa_status_t st = hsa_amd_queue_cu_set_mask(e.queue, 32, &one);
  ASSERT_TRUE(st == HSA_STATUS_SUCCESS || st == (hsa_status_t)HSA_STATUS_CU_MASK_REDUCED);
  HSA_ASSERT_OK(hsa_amd_queue_cu_get_mask(e.queue, 32, back));
  ASSERT_EQ(back[0], 1);
  HSA_ASSERT_OK(hsa_amd_queue_set_priority(e.queue, HSA_AMD_QUEUE_PRIORITY_HIGH));
  const uint32_t n = 1024;
  float *a = pool_alloc(&e.pool, n * 4), *b = pool_alloc(&e.pool, n * 4),
        *c = pool_alloc(&e.pool, n * 4);
  for (uint32_t i = 0; i < n; i++) a[i] = (float)i, b[i] = 3;
  void *ka = vadd_args(&e, &k, a, b, c, n);
  hsa_signal_t done;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
  for (int r = 0; r < 8; r++) { /* every agent, through exploration */
    hsa_signal_store_relaxed(done, 1);
    memset(c, 0, n * 4);
    submit(&e, &k, n, 64, ka, done, true);
    HSA_ASSERT_OK(wait_done(&e, done));
    for (uint32_t i = 0; i < n; i++) ASSERT_EQ(c[i], (float)i + 3);
  }
  HSA_ASSERT_OK(hsa_amd_queue_cu_set_mask(e.queue, 0, NULL)); /* every CU again */
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  pool_free(NULL, ka);
  pool_free(NULL, a), pool_free(NULL, b), pool_free(NULL, c);
  gpu_kernel_release(&k);
  env_close(&e);
}

/* hsa_shut_down with a placement queue (and its forward queues) open and
 * work done on it: everything is freed (ASan would say otherwise), and the
 * runtime starts again. */
TEST(placement_shut_down_with_a_placement_queue_open) {
  for (int cycle = 0; cycle < 2; cycle++) {
    struct env e;
    env_open(&e);
    char path[512];
    corpus_path(path, sizeof path, "vector_add");
    struct gpu_kernel k;
    load(&e, path, "vector_add.kd", &k);
    float *a = pool_alloc(&e.pool, 64 * 4);
    void *ka = vadd_args(&e, &k, a, a, a, 64);
    hsa_signal_t done;
    HSA_ASSERT_OK(hsa_signal_create(3, 0, NULL, &done));
    for (int r = 0; r < 3; r++) submit(&e, &k, 64, 64, ka, done, false);
    HSA_ASSERT_OK(wait_done(&e, done));
    HSA_ASSERT_OK(hsa_shut_down()); /* queue, executable, signal and memory left open */
  }
}
