/* The kernel corpus on the GPU agent, the way a program does it: each code
 * object clang built (O0, O2, O3 x code object v4, v5) read with
 * hsa_code_object_reader_create_from_file, loaded into an executable for
 * the GPU agent, its kernel dispatched through an AQL queue with the
 * kernel arguments (explicit and hidden) in kernarg memory, and the
 * outputs compared with the corpus table's CPU reference. The queue is the
 * driver's hardware queue, the packets run on the virtual APU's command
 * processor and interpreter. */
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_kernarg_hidden.h>

#include "lib/plat.h"
#include "lib/test.h"
#include "tests/common/gpu_test_util.h"
#include "tests/common/hsa_test_util.h"
#include "tests/common/kernel_corpus.h"

/* Far beyond the slowest O0 kernel: under ASan on the host, under
 * emulation in the image (minutes there, gpu_corpus=full). */
#define HOST_DISPATCH_TIMEOUT_NS 60000000000ull
#define IMAGE_DISPATCH_TIMEOUT_NS 600000000000ull
/* Stack for kernels with a dynamic call stack, on top of their fixed
 * private size (what a HIP runtime adds; within the queue's scratch). */
#define DYNAMIC_STACK_BYTES 512u

static const char *const opts[] = {"O0", "O2", "O3"};
static const int covs[] = {4, 5};
/* mk/kernels.mk builds the whole corpus for gfx902; other targets (gfx90c,
 * Renoir) get a smoke subset at -O2, code object v5 (mk/gpu-agent.mk). */
#define FULL_CORPUS_TARGET "gfx902"

PLAT_OPTION(gpu_corpus, "gpu_corpus",
            "full|smoke: GPU corpus tests run every variant (O0/O2/O3 x v4/v5) or only "
            "O2 v5 of each kernel (default: full on the host, smoke in the image, where the "
            "interpreter runs under emulation)");

/* Every variant, or the smoke one (O2, v5) of each kernel. */
static bool full_corpus(const char *target) {
  if (strcmp(target, FULL_CORPUS_TARGET) != 0) return false;
  const char *v = plat_option("gpu_corpus");
  if (v && strcmp(v, "full") == 0) return true;
  if (v && strcmp(v, "smoke") == 0) return false;
  if (v) test_fail(__FILE__, __LINE__, "gpu_corpus=%s: want full or smoke", v);
  return strcmp(plat_name(), "host") == 0;
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

static uint64_t symbol_u64(hsa_executable_symbol_t s, hsa_executable_symbol_info_t what) {
  uint64_t v = 0;
  if (what == HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT) {
    ASSERT_EQ(hsa_executable_symbol_get_info(s, what, &v), HSA_STATUS_SUCCESS);
  } else {
    uint32_t v32 = 0;
    ASSERT_EQ(hsa_executable_symbol_get_info(s, what, &v32), HSA_STATUS_SUCCESS);
    v = v32;
  }
  return v;
}

struct gpu_env {
  hsa_agent_t gpu;
  char target[64]; /* the agent's name: its processor, as the code objects name it */
  hsa_queue_t *queue;
  hsa_amd_memory_pool_t kernarg_pool;
  struct hsa_test_queue_error error;
};

/* Loads, dispatches and checks one variant; fails the test with the reason. */
static void run_variant(struct gpu_env *env, const struct corpus_kernel *ck, const char *opt, int cov) {
  char path[512], why[256];
  corpus_code_object_path(path, sizeof path, GPU_TEST_KERNELS_DIR, env->target, ck, opt, cov);
  int fd = open(path, O_RDONLY);
  if (fd < 0) test_fail(__FILE__, __LINE__, "cannot open %s (make kernels builds it)", path);
  hsa_code_object_reader_t reader;
  ASSERT_EQ(hsa_code_object_reader_create_from_file(fd, &reader), HSA_STATUS_SUCCESS);
  close(fd);
  hsa_executable_t exec;
  ASSERT_EQ(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &exec),
            HSA_STATUS_SUCCESS);
  int32_t *external = NULL;
  if (ck->external_variable) {
    external = pool_alloc(&env->kernarg_pool, sizeof *external);
    ASSERT_NOT_NULL(external);
    *external = CORPUS_EXTERNAL_VALUE;
    ASSERT_EQ(hsa_executable_agent_global_variable_define(exec, env->gpu, ck->external_variable, external),
              HSA_STATUS_SUCCESS);
  }
  hsa_status_t st = hsa_executable_load_agent_code_object(exec, env->gpu, reader, NULL, NULL);
  if (st != HSA_STATUS_SUCCESS) test_fail(__FILE__, __LINE__, "%s: load: status 0x%x", path, st);
  ASSERT_EQ(hsa_executable_freeze(exec, NULL), HSA_STATUS_SUCCESS);
  hsa_executable_symbol_t sym;
  ASSERT_EQ(hsa_executable_get_symbol_by_name(exec, ck->symbol, &env->gpu, &sym), HSA_STATUS_SUCCESS);
  uint32_t kernarg_size = (uint32_t)symbol_u64(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE);
  uint32_t group_size = (uint32_t)symbol_u64(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE);
  uint32_t private_size = (uint32_t)symbol_u64(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE);
  bool dynamic_stack = false;
  ASSERT_EQ(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK, &dynamic_stack),
            HSA_STATUS_SUCCESS);
  if (dynamic_stack) private_size += DYNAMIC_STACK_BYTES;

  hsa_amd_memory_pool_t pool = env->kernarg_pool;
  struct corpus_alloc alloc = {pool_alloc, pool_free, &pool};
  struct corpus_dispatch d;
  ASSERT_TRUE(corpus_setup(ck, &alloc, &d));
  void *kernarg = pool_alloc(&pool, kernarg_size ? kernarg_size : 16);
  ASSERT_NOT_NULL(kernarg);
  memset(kernarg, 0, kernarg_size);
  ASSERT_NE(corpus_pack_args(&d, kernarg, kernarg_size), 0);

  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
  hsa_kernel_dispatch_packet_t p;
  memset(&p, 0, sizeof p);
  p.setup = (uint16_t)(d.dims << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);
  p.workgroup_size_x = (uint16_t)d.workgroup[0];
  p.workgroup_size_y = (uint16_t)d.workgroup[1];
  p.workgroup_size_z = (uint16_t)d.workgroup[2];
  p.grid_size_x = d.grid[0];
  p.grid_size_y = d.grid[1];
  p.grid_size_z = d.grid[2];
  p.private_segment_size = private_size;
  p.group_segment_size = group_size;
  p.kernel_object = symbol_u64(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT);
  p.kernarg_address = kernarg;
  p.completion_signal = done;
  ASSERT_EQ(hsa_kernarg_fill_hidden(&p, env->queue, kernarg, kernarg_size), HSA_STATUS_SUCCESS);
  hsa_test_submit(env->queue, &p, hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, true));

  uint64_t timeout = strcmp(plat_name(), "host") == 0 ? HOST_DISPATCH_TIMEOUT_NS : IMAGE_DISPATCH_TIMEOUT_NS;
  uint64_t until = plat_now_ns() + timeout;
  while (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 100000000, HSA_WAIT_STATE_BLOCKED) != 0) {
    if (atomic_load(&env->error.calls))
      test_fail(__FILE__, __LINE__, "%s: the queue stopped with status 0x%x", path, atomic_load(&env->error.status));
    if (plat_now_ns() > until)
      test_fail(__FILE__, __LINE__, "%s: no completion in %llu s", path, (unsigned long long)(timeout / 1000000000u));
  }
  if (!corpus_check(&d, why, sizeof why)) test_fail(__FILE__, __LINE__, "%s: %s", path, why);

  corpus_release(&d);
  pool_free(NULL, kernarg);
  if (external) pool_free(NULL, external);
  ASSERT_EQ(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_executable_destroy(exec), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_code_object_reader_destroy(reader), HSA_STATUS_SUCCESS);
}

static void run_corpus_kernel(const char *file) {
  const struct corpus_kernel *ck = corpus_kernel_by_file(file);
  ASSERT_NOT_NULL(ck);
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  struct gpu_env env = {.gpu = gpu_test_agent()};
  ASSERT_EQ(hsa_agent_get_info(env.gpu, HSA_AGENT_INFO_NAME, env.target), HSA_STATUS_SUCCESS);
  bool full = full_corpus(env.target);
  env.kernarg_pool = hsa_test_kernarg_pool(env.gpu);
  ASSERT_NE(env.kernarg_pool.handle, 0);
  ASSERT_EQ(hsa_queue_create(env.gpu, 64, HSA_QUEUE_TYPE_MULTI, hsa_test_queue_error_callback, &env.error,
                             UINT32_MAX, UINT32_MAX, &env.queue),
            HSA_STATUS_SUCCESS);
  for (unsigned o = 0; o < 3; o++)
    for (unsigned c = 0; c < 2; c++)
      if (full || (strcmp(opts[o], "O2") == 0 && covs[c] == 5)) run_variant(&env, ck, opts[o], covs[c]);
  ASSERT_EQ(hsa_queue_destroy(env.queue), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

#define GPU_CORPUS_TEST(file) \
  TEST(gpu_corpus_##file) { run_corpus_kernel(#file); }
GPU_CORPUS_TEST(vector_add)
GPU_CORPUS_TEST(saxpy)
GPU_CORPUS_TEST(reduce_sum)
GPU_CORPUS_TEST(matmul_tiled)
GPU_CORPUS_TEST(prefix_scan)
GPU_CORPUS_TEST(histogram)
GPU_CORPUS_TEST(bitonic_sort)
GPU_CORPUS_TEST(stencil_2d)
GPU_CORPUS_TEST(int_divmod)
GPU_CORPUS_TEST(int64_ops)
GPU_CORPUS_TEST(float_math)
GPU_CORPUS_TEST(half_math)
GPU_CORPUS_TEST(private_array)
GPU_CORPUS_TEST(call_stack)
GPU_CORPUS_TEST(global_vars)

/* Every kernel of the corpus table has a test above. */
TEST(gpu_corpus_table_covered) {
  static const char *const covered[] = {"vector_add", "saxpy", "reduce_sum", "matmul_tiled",
                                        "prefix_scan", "histogram", "bitonic_sort", "stencil_2d",
                                        "int_divmod", "int64_ops", "float_math", "half_math",
                                        "private_array", "call_stack", "global_vars"};
  for (uint32_t i = 0; i < corpus_kernel_count; i++) {
    bool found = false;
    for (size_t j = 0; j < sizeof covered / sizeof covered[0]; j++)
      found |= strcmp(corpus_kernels[i].file, covered[j]) == 0;
    if (!found) test_fail(__FILE__, __LINE__, "corpus kernel %s has no gpu_corpus test", corpus_kernels[i].file);
  }
}
