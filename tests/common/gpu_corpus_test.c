/* The kernel corpus on the GPU agent, the way a program does it: each code
 * object clang built (O0, O2, O3 x code object v4, v5) read with
 * hsa_code_object_reader_create_from_file, loaded into an executable for
 * the GPU agent, its kernel dispatched through an AQL queue with the
 * kernel arguments (explicit and hidden) in kernarg memory, and the
 * outputs compared with the corpus table's CPU reference. The queue is the
 * driver's hardware queue, the packets run on the virtual APU's command
 * processor and interpreter. */
#include <stdatomic.h>
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

/* Far beyond the slowest O0 kernel (under ASan on the host, under
 * emulation in the image). */
#define DISPATCH_TIMEOUT_NS 60000000000ull
/* Stack for kernels with a dynamic call stack, on top of their fixed
 * private size (what a HIP runtime adds; within the queue's scratch). */
#define DYNAMIC_STACK_BYTES 512u

struct gpu_env {
  hsa_agent_t gpu;
  char target[64]; /* the agent's name: its processor, as the code objects name it */
  hsa_queue_t *queue;
  hsa_amd_memory_pool_t kernarg_pool;
  struct hsa_test_queue_error error;
};

/* Loads, dispatches and checks one variant; fails the test with the reason. */
static void run_variant(struct gpu_env *env, const struct corpus_kernel *ck, const struct corpus_variant *v) {
  char path[512], why[256];
  corpus_code_object_path(path, sizeof path, GPU_TEST_KERNELS_DIR, env->target, ck, v->opt, v->cov);
  test_context("%s", path);
  int32_t *external = NULL;
  if (ck->external_variable) {
    external = hsa_test_pool_alloc(&env->kernarg_pool, sizeof *external);
    ASSERT_NOT_NULL(external);
    *external = CORPUS_EXTERNAL_VALUE;
  }
  struct gpu_kernel k;
  if (gpu_kernel_load(env->gpu, path, ck->symbol, ck->external_variable, external, &k, why, sizeof why))
    FAIL("%s", why);

  hsa_amd_memory_pool_t pool = env->kernarg_pool;
  struct corpus_alloc alloc = {hsa_test_pool_alloc, hsa_test_pool_free, &pool};
  struct corpus_dispatch d;
  ASSERT_TRUE(corpus_setup(ck, &alloc, &d));
  void *kernarg = corpus_kernarg(&d, k.kernarg_size);
  ASSERT_NOT_NULL(kernarg);

  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
  hsa_kernel_dispatch_packet_t p;
  gpu_kernel_packet(&k, d.dims, d.grid, d.workgroup, k.dynamic_stack ? DYNAMIC_STACK_BYTES : 0, kernarg, done,
                    &p);
  ASSERT_EQ(hsa_kernarg_fill_hidden(&p, env->queue, kernarg, k.kernarg_size), HSA_STATUS_SUCCESS);
  hsa_test_submit(env->queue, &p, hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, true));

  uint64_t until = plat_now_ns() + DISPATCH_TIMEOUT_NS;
  while (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 100000000, HSA_WAIT_STATE_BLOCKED) != 0) {
    if (atomic_load(&env->error.calls))
      FAIL("%s: the queue stopped with status 0x%x", path, atomic_load(&env->error.status));
    if (plat_now_ns() > until)
      FAIL("%s: no completion in %llu s", path,
                (unsigned long long)(DISPATCH_TIMEOUT_NS / 1000000000u));
  }
  if (!corpus_check(&d, why, sizeof why)) FAIL("%s: %s", path, why);

  corpus_release(&d);
  hsa_test_pool_free(NULL, kernarg);
  if (external) hsa_test_pool_free(NULL, external);
  ASSERT_EQ(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
  gpu_kernel_release(&k);
}

/* Every build of one kernel, for the GPU agent's processor (gfx902 or
 * gfx90c: the test ESP and the build folder hold the corpus for both). */
static void run_corpus_kernel(const char *file) {
  const struct corpus_kernel *ck = corpus_kernel_by_file(file);
  ASSERT_NOT_NULL(ck);
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  struct gpu_env env = {.gpu = gpu_test_agent()};
  ASSERT_EQ(hsa_agent_get_info(env.gpu, HSA_AGENT_INFO_NAME, env.target), HSA_STATUS_SUCCESS);
  env.kernarg_pool = hsa_test_kernarg_pool(env.gpu);
  ASSERT_NE(env.kernarg_pool.handle, 0);
  ASSERT_EQ(hsa_queue_create(env.gpu, 64, HSA_QUEUE_TYPE_MULTI, hsa_test_queue_error_callback, &env.error,
                             UINT32_MAX, UINT32_MAX, &env.queue),
            HSA_STATUS_SUCCESS);
  for (unsigned i = 0; i < CORPUS_VARIANT_COUNT; i++) run_variant(&env, ck, &corpus_variants[i]);
  ASSERT_EQ(hsa_queue_destroy(env.queue), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

#define GPU_CORPUS_TEST(file) \
  TEST(gpu_corpus_##file) { run_corpus_kernel(#file); }
CORPUS_KERNEL_FILES(GPU_CORPUS_TEST)

/* Every kernel of the corpus (O2, code object v5) on a queue whose CU mask
 * leaves it every other CU, then one CU: the results do not depend on
 * where the work-groups run. */
TEST(gpu_corpus_under_cu_masks) {
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  struct gpu_env env = {.gpu = gpu_test_agent()};
  ASSERT_EQ(hsa_agent_get_info(env.gpu, HSA_AGENT_INFO_NAME, env.target), HSA_STATUS_SUCCESS);
  env.kernarg_pool = hsa_test_kernarg_pool(env.gpu);
  ASSERT_EQ(hsa_queue_create(env.gpu, 64, HSA_QUEUE_TYPE_MULTI, hsa_test_queue_error_callback, &env.error,
                             UINT32_MAX, UINT32_MAX, &env.queue),
            HSA_STATUS_SUCCESS);
  uint32_t cus = 0;
  ASSERT_EQ(hsa_agent_get_info(env.gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, &cus), HSA_STATUS_SUCCESS);
  ASSERT_LT(cus, 32);
  /* Every other CU (naming CUs the agent does not have: ROCr says so),
   * then the last CU alone. */
  const uint32_t masks[2][4] = {{0x55555555u, 0x55555555u, 0x55555555u, 0x55555555u}, {1u << (cus - 1), 0, 0, 0}};
  const hsa_status_t answers[2] = {(hsa_status_t)HSA_STATUS_CU_MASK_REDUCED, HSA_STATUS_SUCCESS};
  const struct corpus_variant o2v5 = {"O2", 5};
  for (int m = 0; m < 2; m++) {
    ASSERT_EQ(hsa_amd_queue_cu_set_mask(env.queue, 128, masks[m]), answers[m]);
    for (uint32_t i = 0; i < corpus_kernel_count; i++) run_variant(&env, &corpus_kernels[i], &o2v5);
  }
  ASSERT_EQ(hsa_queue_destroy(env.queue), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

/* The tests above (and the interpreter's, vapu_isa_corpus_test.c) come
 * from the list: it must name every kernel of the table. */
TEST(gpu_corpus_table_covered) {
  const char *missing = corpus_files_match_table();
  if (missing) FAIL("CORPUS_KERNEL_FILES and the corpus table differ on %s", missing);
}
