/* The whole kernel corpus on the interpreter: every kernel clang built
 * (O0, O2, O3 x code object v4, v5), loaded by the product loader into
 * range-checked memory, dispatched over its corpus geometry work-group by
 * work-group, and compared with the corpus table's CPU reference (bit for
 * bit, or within the bound the kernel's entry states). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsa/loader/hidden_args.h"
#include "hsa/loader/loader.h"
#include "lib/test.h"
#include "tests/common/kernel_corpus.h"
#include "tests/host/vapu_isa_harness.h"

static const char *const opts[] = {"O0", "O2", "O3"};
static const int covs[] = {4, 5};

static void *gpu_alloc(void *ctx, size_t size) {
  return vi_alloc(ctx, size, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
}
static void gpu_free(void *ctx, void *p) { vi_free(ctx, p); }
static void *seg_alloc(void *ctx, size_t size, size_t align) {
  (void)align; /* vi_alloc gives 256; the loader asks for no more on these objects */
  return vi_alloc(ctx, size, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE | VAPU_ACCESS_EXEC);
}
static void seg_free(void *ctx, void *p, size_t size) {
  (void)size;
  vi_free(ctx, p);
}

static bool resolve_external(void *ctx, const char *name, uint64_t *address) {
  if (strcmp(name, "ext_offset") != 0) return false;
  *address = (uint64_t)(uintptr_t)ctx;
  return true;
}

/* Loads, dispatches and checks one variant; fails the test with the reason. */
static void run_variant(const struct corpus_kernel *ck, const char *opt, int cov) {
  char path[512], why[256];
  corpus_code_object_path(path, sizeof path, VAPU_ISA_BUILD_DIR "/kernels", "gfx902", ck, opt, cov);
  size_t size;
  void *image = vi_read_file(path, &size);
  if (!image) test_fail(__FILE__, __LINE__, "cannot read %s (make kernels builds it)", path);

  struct vi_env e;
  ASSERT_TRUE(vi_env_init(&e));
  struct loader_code_object *co = NULL;
  if (loader_code_object_parse(image, size, path, &co, why, sizeof why) != LOADER_OK)
    test_fail(__FILE__, __LINE__, "%s: %s", path, why);
  int32_t *external = vi_alloc(&e, sizeof *external, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  ASSERT_NOT_NULL(external);
  *external = CORPUS_EXTERNAL_VALUE;
  struct loader_memory_ops mem = {seg_alloc, seg_free, &e};
  if (loader_code_object_load(co, &mem, resolve_external, external, why, sizeof why) != LOADER_OK)
    test_fail(__FILE__, __LINE__, "%s: %s", path, why);
  free(image);
  const struct loader_symbol *sym = loader_code_object_symbol(co, ck->symbol);
  ASSERT_NOT_NULL(sym);
  ASSERT_NOT_NULL(sym->meta);

  struct corpus_alloc alloc = {gpu_alloc, gpu_free, &e};
  struct corpus_dispatch d;
  ASSERT_TRUE(corpus_setup(ck, &alloc, &d));
  uint32_t ksize = sym->meta->kernarg_segment_size;
  uint8_t *kernarg = vi_alloc(&e, ksize + 64, VAPU_ACCESS_READ);
  ASSERT_NOT_NULL(kernarg);
  ASSERT_NE(corpus_pack_args(&d, kernarg, ksize), 0);
  struct loader_dispatch ld = {.dims = d.dims};
  for (unsigned i = 0; i < 3; i++) {
    ld.workgroup_size[i] = d.workgroup[i];
    ld.grid_size[i] = d.grid[i];
  }
  ld.private_base = (uint32_t)(VI_PRIVATE_BASE >> 32);
  ld.shared_base = (uint32_t)(VI_SHARED_BASE >> 32);
  if (loader_fill_hidden_args(sym->meta, &ld, kernarg, ksize, why, sizeof why) != LOADER_OK)
    test_fail(__FILE__, __LINE__, "%s: hidden args: %s", path, why);

  struct vi_launch l = {.kernel_object = sym->address, .kernarg = kernarg};
  for (unsigned i = 0; i < 3; i++) {
    l.grid[i] = d.grid[i];
    l.wg[i] = d.workgroup[i];
  }
  struct vapu_stop stop;
  enum vapu_result r = vi_run(&e, &l, &stop);
  if (r != VAPU_OK)
    test_fail(__FILE__, __LINE__, "%s: %s: %s", path, vapu_result_name(r), stop.detail);
  if (!corpus_check(&d, why, sizeof why)) test_fail(__FILE__, __LINE__, "%s: %s", path, why);
  corpus_release(&d);
  loader_code_object_destroy(co);
  vi_env_fini(&e);
}

static void run_corpus_kernel(const char *file) {
  const struct corpus_kernel *ck = corpus_kernel_by_file(file);
  ASSERT_NOT_NULL(ck);
  for (unsigned o = 0; o < 3; o++)
    for (unsigned c = 0; c < 2; c++) run_variant(ck, opts[o], covs[c]);
}

#define CORPUS_TEST(file) \
  TEST(vapu_isa_corpus_##file) { run_corpus_kernel(#file); }
CORPUS_TEST(vector_add)
CORPUS_TEST(saxpy)
CORPUS_TEST(reduce_sum)
CORPUS_TEST(matmul_tiled)
CORPUS_TEST(prefix_scan)
CORPUS_TEST(histogram)
CORPUS_TEST(bitonic_sort)
CORPUS_TEST(stencil_2d)
CORPUS_TEST(int_divmod)
CORPUS_TEST(int64_ops)
CORPUS_TEST(float_math)
CORPUS_TEST(half_math)
CORPUS_TEST(private_array)
CORPUS_TEST(call_stack)
CORPUS_TEST(global_vars)

/* Every kernel of the corpus table has a test above. */
TEST(vapu_isa_corpus_table_covered) {
  static const char *const covered[] = {"vector_add", "saxpy", "reduce_sum", "matmul_tiled",
                                        "prefix_scan", "histogram", "bitonic_sort", "stencil_2d",
                                        "int_divmod", "int64_ops", "float_math", "half_math",
                                        "private_array", "call_stack", "global_vars"};
  for (uint32_t i = 0; i < corpus_kernel_count; i++) {
    bool found = false;
    for (unsigned j = 0; j < sizeof covered / sizeof covered[0]; j++)
      found |= strcmp(corpus_kernels[i].file, covered[j]) == 0;
    if (!found) test_fail(__FILE__, __LINE__, "corpus kernel %s has no interpreter test", corpus_kernels[i].file);
  }
}
