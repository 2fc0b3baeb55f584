/* The whole kernel corpus on the interpreter: every kernel clang built
 * (O0, O2, O3 x code object v4, v5), loaded by the product loader into
 * range-checked memory, dispatched over its corpus geometry work-group by
 * work-group, and compared with the corpus table's CPU reference (bit for
 * bit, or within the bound the kernel's entry states). */
#include <string.h>

#include "lib/test.h"
#include "tests/common/kernel_corpus.h"
#include "tests/host/vapu_isa_harness.h"

static void *gpu_alloc(void *ctx, size_t size) {
  return vi_alloc(ctx, size, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
}
static void gpu_free(void *ctx, void *p) { vi_free(ctx, p); }

/* Loads, dispatches and checks one variant; fails the test with the reason. */
static void run_variant(const struct corpus_kernel *ck, const struct corpus_variant *v) {
  char path[512], why[256];
  corpus_code_object_path(path, sizeof path, VAPU_ISA_BUILD_DIR "/kernels", "gfx902", ck, v->opt, v->cov);
  struct vi_env e;
  ASSERT_TRUE(vi_env_init(&e));
  int32_t *external = vi_alloc(&e, sizeof *external, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  ASSERT_NOT_NULL(external);
  *external = CORPUS_EXTERNAL_VALUE;
  struct vi_code_object k;
  if (!vi_code_object_load(&e, path, ck->symbol, external, &k, why, sizeof why))
    FAIL("%s", why);

  struct corpus_alloc alloc = {gpu_alloc, gpu_free, &e};
  struct corpus_dispatch d;
  ASSERT_TRUE(corpus_setup(ck, &alloc, &d));
  uint8_t args[256];
  size_t n = corpus_pack_args(&d, args, sizeof args);
  ASSERT_NE(n, 0);
  void *kernarg = vi_kernarg(&e, &k, args, n, d.dims, d.grid, d.workgroup, why, sizeof why);
  if (!kernarg) FAIL("%s: %s", path, why);

  struct vi_launch l = {.kernel_object = k.kernel_object, .kernarg = kernarg};
  for (unsigned i = 0; i < 3; i++) {
    l.grid[i] = d.grid[i];
    l.wg[i] = d.workgroup[i];
  }
  struct vapu_stop stop;
  enum vapu_result r = vi_run(&e, &l, &stop);
  if (r != VAPU_OK)
    FAIL("%s: %s: %s", path, vapu_result_name(r), stop.detail);
  if (!corpus_check(&d, why, sizeof why)) FAIL("%s: %s", path, why);
  corpus_release(&d);
  vi_code_object_release(&k);
  vi_env_fini(&e);
}

static void run_corpus_kernel(const char *file) {
  const struct corpus_kernel *ck = corpus_kernel_by_file(file);
  ASSERT_NOT_NULL(ck);
  for (unsigned i = 0; i < CORPUS_VARIANT_COUNT; i++) run_variant(ck, &corpus_variants[i]);
}

/* One test per kernel of the list (gpu_corpus_table_covered checks it is
 * the whole table). */
#define CORPUS_TEST(file) \
  TEST(vapu_isa_corpus_##file) { run_corpus_kernel(#file); }
CORPUS_KERNEL_FILES(CORPUS_TEST)
