/* Hidden kernel arguments, filled from a dispatch at the offsets the kernel's
 * metadata gives (AMDGPUUsage "Code Object V5 Metadata"), for clang's own
 * metadata of corpus kernels. */
#include <stdlib.h>
#include <string.h>

#include "hsa/loader/hidden_args.h"
#include "hsa/loader/loader.h"
#include "lib/test.h"
#include "tests/host/loader_test_util.h"
#include "lib/util.h"

static const struct loader_kernel_arg *arg_of_kind(const struct loader_kernel_meta *k,
                                                   enum loader_arg_kind kind) {
  for (uint32_t i = 0; i < k->arg_count; i++)
    if (k->args[i].kind == kind) return &k->args[i];
  return NULL;
}

static uint64_t read_arg(const uint8_t *kernarg, const struct loader_kernel_arg *a) {
  uint64_t v = 0;
  memcpy(&v, kernarg + a->offset, a->size < 8 ? a->size : 8);
  return v;
}

TEST(loader_hidden_args_v5_geometry) {
  char why[256];
  size_t size;
  uint8_t *image = loader_test_read_corpus("stencil_2d", "O2", 5, &size);
  struct loader_code_object *co = loader_test_parse(image, size, LOADER_OK, why, sizeof why);
  const struct loader_kernel_meta *k = loader_code_object_symbol(co, "stencil_2d.kd")->meta;
  uint8_t kernarg[512];
  memset(kernarg, 0xaa, sizeof kernarg);
  /* 20 x 12 work-items in 8 x 4 groups: x has 2 whole groups and one of 4. */
  struct loader_dispatch d = {.dims = 2,
                              .workgroup_size = {8, 4, 1},
                              .grid_size = {20, 12, 1},
                              .dynamic_lds_size = 128,
                              .global_offset = {5, 6, 7}};
  ASSERT_EQ(loader_fill_hidden_args(k, &d, kernarg, sizeof kernarg, why, sizeof why), LOADER_OK);
  struct {
    enum loader_arg_kind kind;
    uint64_t value;
  } want[] = {
      {LOADER_ARG_HIDDEN_BLOCK_COUNT_X, 2},   {LOADER_ARG_HIDDEN_BLOCK_COUNT_Y, 3},
      {LOADER_ARG_HIDDEN_BLOCK_COUNT_Z, 1},   {LOADER_ARG_HIDDEN_GROUP_SIZE_X, 8},
      {LOADER_ARG_HIDDEN_GROUP_SIZE_Y, 4},    {LOADER_ARG_HIDDEN_GROUP_SIZE_Z, 1},
      {LOADER_ARG_HIDDEN_REMAINDER_X, 4},     {LOADER_ARG_HIDDEN_REMAINDER_Y, 0},
      {LOADER_ARG_HIDDEN_REMAINDER_Z, 0},     {LOADER_ARG_HIDDEN_GRID_DIMS, 2},
      {LOADER_ARG_HIDDEN_GLOBAL_OFFSET_X, 5}, {LOADER_ARG_HIDDEN_GLOBAL_OFFSET_Y, 6},
  };
  for (size_t i = 0; i < countof(want); i++) {
    const struct loader_kernel_arg *a = arg_of_kind(k, want[i].kind);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ_U(read_arg(kernarg, a), want[i].value);
  }
  /* The v5 block sits where AMDGPUUsage puts it relative to block_count_x. */
  uint32_t base = arg_of_kind(k, LOADER_ARG_HIDDEN_BLOCK_COUNT_X)->offset;
  ASSERT_EQ(arg_of_kind(k, LOADER_ARG_HIDDEN_GROUP_SIZE_X)->offset, base + 12);
  ASSERT_EQ(arg_of_kind(k, LOADER_ARG_HIDDEN_REMAINDER_X)->offset, base + 18);
  ASSERT_EQ(arg_of_kind(k, LOADER_ARG_HIDDEN_GRID_DIMS)->offset, base + 64);
  /* The explicit arguments (before the hidden ones) are untouched. */
  for (uint32_t i = 0; i < base; i++) ASSERT_EQ(kernarg[i], 0xaa);
  loader_code_object_destroy(co);
  free(image);
}

TEST(loader_hidden_args_v4_has_offsets_only) {
  char why[256];
  size_t size;
  uint8_t *image = loader_test_read_corpus("vector_add", "O2", 4, &size);
  struct loader_code_object *co = loader_test_parse(image, size, LOADER_OK, why, sizeof why);
  const struct loader_kernel_meta *k = loader_code_object_symbol(co, "vector_add.kd")->meta;
  ASSERT_NULL(arg_of_kind(k, LOADER_ARG_HIDDEN_BLOCK_COUNT_X));
  const struct loader_kernel_arg *gx = arg_of_kind(k, LOADER_ARG_HIDDEN_GLOBAL_OFFSET_X);
  ASSERT_NOT_NULL(gx);
  uint8_t kernarg[512];
  memset(kernarg, 0xaa, sizeof kernarg);
  struct loader_dispatch d = {.dims = 1,
                              .workgroup_size = {64, 1, 1},
                              .grid_size = {1000, 1, 1},
                              .global_offset = {77, 0, 0}};
  ASSERT_EQ(loader_fill_hidden_args(k, &d, kernarg, sizeof kernarg, why, sizeof why), LOADER_OK);
  ASSERT_EQ(read_arg(kernarg, gx), 77);
  loader_code_object_destroy(co);
  free(image);
}

TEST(loader_hidden_args_refuses_bad_dispatch) {
  char why[256];
  size_t size;
  uint8_t *image = loader_test_read_corpus("vector_add", "O2", 5, &size);
  struct loader_code_object *co = loader_test_parse(image, size, LOADER_OK, why, sizeof why);
  const struct loader_kernel_meta *k = loader_code_object_symbol(co, "vector_add.kd")->meta;
  uint8_t kernarg[512], before[512];
  memset(kernarg, 0x55, sizeof kernarg);
  memcpy(before, kernarg, sizeof kernarg);
  struct loader_dispatch good = {
      .dims = 1, .workgroup_size = {64, 1, 1}, .grid_size = {1000, 1, 1}};
  struct loader_dispatch d = good;
  d.dims = 0;
  ASSERT_NE(loader_fill_hidden_args(k, &d, kernarg, sizeof kernarg, why, sizeof why), LOADER_OK);
  ASSERT_NOT_NULL(strstr(why, "0 dimensions"));
  d = good, d.workgroup_size[0] = 0;
  ASSERT_NE(loader_fill_hidden_args(k, &d, kernarg, sizeof kernarg, why, sizeof why), LOADER_OK);
  d = good, d.grid_size[1] = 2; /* dimension 1 unused in a 1D dispatch */
  ASSERT_NE(loader_fill_hidden_args(k, &d, kernarg, sizeof kernarg, why, sizeof why), LOADER_OK);
  ASSERT_NOT_NULL(strstr(why, "unused dimensions must be 1"));
  d = good, d.workgroup_size[0] = 512; /* clang's default .max_flat_workgroup_size is 256 */
  ASSERT_NE(loader_fill_hidden_args(k, &d, kernarg, sizeof kernarg, why, sizeof why), LOADER_OK);
  ASSERT_NOT_NULL(strstr(why, "exceeds the kernel's maximum"));
  ASSERT_NE(
      loader_fill_hidden_args(k, &good, kernarg, k->kernarg_segment_size - 1, why, sizeof why),
      LOADER_OK);
  ASSERT_NOT_NULL(strstr(why, "smaller than"));
  ASSERT_MEM_EQ(kernarg, before, sizeof kernarg); /* nothing written on refusal */

  /* reqd_work_group_size, when the kernel has one. */
  struct loader_kernel_meta fixed = *k;
  fixed.reqd_workgroup_size[0] = 32, fixed.reqd_workgroup_size[1] = 1,
  fixed.reqd_workgroup_size[2] = 1;
  ASSERT_NE(loader_fill_hidden_args(&fixed, &good, kernarg, sizeof kernarg, why, sizeof why),
            LOADER_OK);
  ASSERT_NOT_NULL(strstr(why, "reqd_work_group_size"));
  d = good, d.workgroup_size[0] = 32;
  ASSERT_EQ(loader_fill_hidden_args(&fixed, &d, kernarg, sizeof kernarg, why, sizeof why),
            LOADER_OK);
  loader_code_object_destroy(co);
  free(image);
}
