/* The OpenCL C kernel corpus (every tests/kernels .cl file and variant) on a CPU
 * agent, from the files tools/hsacc builds (mk/kernels.mk): each loaded for
 * the CPU agent through the standard API, dispatched with the GPU's
 * kernarg layout, and checked against the corpus table's CPU reference as
 * the GPU's results are. And the same kernarg buffer, filled once,
 * dispatched to the GPU agent and then to the CPU agent: identical
 * results. Host and image. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_kernarg_hidden.h>

#include "lib/plat.h"
#include "lib/test.h"
#include "support/gpu_kernel.h"
#include "tests/common/gpu_test_util.h"
#include "tests/common/hsa_test_util.h"
#include "tests/common/kernel_corpus.h"

#define DISPATCH_TIMEOUT_NS 60000000000ull

/* Kernels written in C for the GPU (the .c files of tests/kernels) are not OpenCL C:
 * tools/hsacc does not build them. CL_CORPUS_WAITING (mk/kernels.mk) names
 * the kernels that need the built-in library while it is absent. */
static const char *const c_kernels = " saxpy int_divmod call_stack ";

static bool listed(const char *list, const char *file) {
  char word[64];
  snprintf(word, sizeof word, " %s ", file);
  return strstr(list, word) != NULL;
}

static void *pool_alloc(void *ctx, size_t size) {
  void *p = NULL;
  if (hsa_amd_memory_pool_allocate(*(hsa_amd_memory_pool_t *)ctx, size, 0, &p) != HSA_STATUS_SUCCESS)
    return NULL;
  return p;
}
static void pool_free(void *ctx, void *p) {
  (void)ctx;
  hsa_amd_memory_pool_free(p);
}

struct env {
  hsa_agent_t agent;
  hsa_queue_t *queue;
  hsa_amd_memory_pool_t pool;
  struct hsa_test_queue_error error;
};

static void env_open(struct env *e, hsa_agent_t agent) {
  e->agent = agent;
  e->pool = hsa_test_kernarg_pool(agent);
  ASSERT_NE(e->pool.handle, 0);
  atomic_store(&e->error.calls, 0);
  HSA_ASSERT_OK(hsa_queue_create(agent, 64, HSA_QUEUE_TYPE_MULTI, hsa_test_queue_error_callback,
                                 &e->error, UINT32_MAX, UINT32_MAX, &e->queue));
}

static void hsacc_path(char *path, size_t size, const char *file, const char *opt, int cov) {
  snprintf(path, size, "%s/hsacc/%s.%s.v%d.hsaco", CL_TEST_KERNELS_DIR, file, opt, cov);
}

static void dispatch(struct env *e, const struct gpu_kernel *k, const struct corpus_dispatch *d,
                     void *kernarg, bool fill_hidden, const char *path) {
  hsa_signal_t done;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
  hsa_kernel_dispatch_packet_t p;
  gpu_kernel_packet(k, d->dims, d->grid, d->workgroup, k->dynamic_stack ? 512 : 0, kernarg, done, &p);
  if (fill_hidden) HSA_ASSERT_OK(hsa_kernarg_fill_hidden(&p, e->queue, kernarg, k->kernarg_size));
  hsa_test_submit(e->queue, &p, hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, true));
  uint64_t until = plat_now_ns() + DISPATCH_TIMEOUT_NS;
  while (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 100000000, HSA_WAIT_STATE_BLOCKED) != 0) {
    if (atomic_load(&e->error.calls))
      FAIL("%s: the queue stopped with status 0x%x", path, atomic_load(&e->error.status));
    if (plat_now_ns() > until) FAIL("%s: no completion", path);
  }
  HSA_ASSERT_OK(hsa_signal_destroy(done));
}

static void load(struct env *e, const char *path, const struct corpus_kernel *ck, int32_t *external,
                 struct gpu_kernel *k) {
  char why[256];
  if (gpu_kernel_load(e->agent, path, ck->symbol, ck->external_variable, external, k, why, sizeof why))
    FAIL("%s", why);
}

static int32_t *external_of(struct env *e, const struct corpus_kernel *ck) {
  if (!ck->external_variable) return NULL;
  int32_t *x = pool_alloc(&e->pool, sizeof *x);
  ASSERT_NOT_NULL(x);
  *x = CORPUS_EXTERNAL_VALUE;
  return x;
}

static void run_variant(struct env *e, const struct corpus_kernel *ck, const char *file,
                        const struct corpus_variant *v) {
  char path[512], why[256];
  hsacc_path(path, sizeof path, file, v->opt, v->cov);
  int32_t *external = external_of(e, ck);
  struct gpu_kernel k;
  load(e, path, ck, external, &k);
  struct corpus_alloc alloc = {pool_alloc, pool_free, &e->pool};
  struct corpus_dispatch d;
  ASSERT_TRUE(corpus_setup(ck, &alloc, &d));
  void *kernarg = pool_alloc(&e->pool, k.kernarg_size ? k.kernarg_size : 16);
  ASSERT_NOT_NULL(kernarg);
  memset(kernarg, 0, k.kernarg_size);
  ASSERT_NE(corpus_pack_args(&d, kernarg, k.kernarg_size), 0);
  dispatch(e, &k, &d, kernarg, false, path);
  if (!corpus_check(&d, why, sizeof why)) FAIL("%s: %s", path, why);
  corpus_release(&d);
  pool_free(NULL, kernarg);
  if (external) pool_free(NULL, external);
  gpu_kernel_release(&k);
}

static bool runnable(const char *file) {
  if (listed(c_kernels, file)) test_skip("%s is C for the GPU, not OpenCL C", file);
  if (listed(CL_CORPUS_WAITING, file))
    test_skip("%s calls built-ins of the OpenCL C library (cl/builtins/), not built", file);
  return true;
}

static void run_cpu_corpus_kernel(const char *file) {
  runnable(file);
  const struct corpus_kernel *ck = corpus_kernel_by_file(file);
  ASSERT_NOT_NULL(ck);
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t cpu;
  hsa_test_cpu_agents(&cpu, 1);
  struct env e;
  env_open(&e, cpu);
  for (unsigned i = 0; i < CORPUS_VARIANT_COUNT; i++) run_variant(&e, ck, file, &corpus_variants[i]);
  HSA_ASSERT_OK(hsa_queue_destroy(e.queue));
  HSA_ASSERT_OK(hsa_shut_down());
}

#define CL_CORPUS_TEST(file) \
  TEST(cl_corpus_##file) { run_cpu_corpus_kernel(#file); }
CORPUS_KERNEL_FILES(CL_CORPUS_TEST)

/* One kernarg buffer, filled once (explicit arguments and the GPU's hidden
 * ones), dispatched to the GPU agent and then to the CPU agent from the
 * same file: the same results (bit for bit) and both the reference's. */
TEST(cl_corpus_one_kernarg_for_the_gpu_then_the_cpu) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t cpu, gpu;
  hsa_test_cpu_agents(&cpu, 1);
  if (!gpu_find_agent(&gpu)) {
    HSA_ASSERT_OK(hsa_shut_down());
    test_skip("no GPU agent");
  }
  struct env g, c;
  env_open(&g, gpu);
  env_open(&c, cpu);
  uint32_t ran = 0;
  for (uint32_t i = 0; i < corpus_kernel_count; i++) {
    const struct corpus_kernel *ck = &corpus_kernels[i];
    if (listed(c_kernels, ck->file) || listed(CL_CORPUS_WAITING, ck->file)) continue;
    char path[512], why[256];
    hsacc_path(path, sizeof path, ck->file, "O2", 5);
    int32_t *external = external_of(&g, ck);
    struct gpu_kernel kg, kc;
    load(&g, path, ck, external, &kg);
    load(&c, path, ck, external, &kc);
    ASSERT_EQ(kg.kernarg_size, kc.kernarg_size);
    struct corpus_alloc alloc = {pool_alloc, pool_free, &g.pool};
    struct corpus_dispatch d;
    ASSERT_TRUE(corpus_setup(ck, &alloc, &d));
    void *saved[CORPUS_MAX_BUFFERS] = {0};
    for (uint32_t b = 0; b < d.buffer_count; b++) {
      ASSERT_NOT_NULL(saved[b] = malloc(d.buffer_sizes[b]));
      memcpy(saved[b], d.buffers[b], d.buffer_sizes[b]);
    }
    void *kernarg = pool_alloc(&g.pool, kg.kernarg_size);
    ASSERT_NOT_NULL(kernarg);
    memset(kernarg, 0, kg.kernarg_size);
    ASSERT_NE(corpus_pack_args(&d, kernarg, kg.kernarg_size), 0);
    dispatch(&g, &kg, &d, kernarg, true, path);
    if (!corpus_check(&d, why, sizeof why)) FAIL("GPU: %s: %s", path, why);
    void *gpu_out[CORPUS_MAX_BUFFERS] = {0};
    for (uint32_t b = 0; b < d.buffer_count; b++) {
      ASSERT_NOT_NULL(gpu_out[b] = malloc(d.buffer_sizes[b]));
      memcpy(gpu_out[b], d.buffers[b], d.buffer_sizes[b]);
      memcpy(d.buffers[b], saved[b], d.buffer_sizes[b]); /* the inputs again */
    }
    dispatch(&c, &kc, &d, kernarg, false, path); /* the same kernarg bytes */
    if (!corpus_check(&d, why, sizeof why)) FAIL("CPU: %s: %s", path, why);
    for (uint32_t b = 0; b < d.buffer_count; b++) {
      if (d.expected[b] && !ck->element_ok) ASSERT_MEM_EQ(gpu_out[b], d.buffers[b], d.buffer_sizes[b]);
      free(saved[b]);
      free(gpu_out[b]);
    }
    corpus_release(&d);
    pool_free(NULL, kernarg);
    if (external) pool_free(NULL, external);
    gpu_kernel_release(&kg);
    gpu_kernel_release(&kc);
    ran++;
  }
  ASSERT_GE(ran, 5);
  HSA_ASSERT_OK(hsa_queue_destroy(g.queue));
  HSA_ASSERT_OK(hsa_queue_destroy(c.queue));
  HSA_ASSERT_OK(hsa_shut_down());
}
