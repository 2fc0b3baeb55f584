/* Loader over the whole kernel corpus: every code object clang built (O0,
 * O2, O3 x code object v4, v5) parses, matches the agent, loads, and its
 * kernel's symbol, descriptor and metadata agree with each other and with
 * the corpus table's argument layout. */
#include <stdlib.h>
#include <string.h>

#include "hsa/loader/elf_format.h"
#include "hsa/loader/loader.h"
#include "lib/test.h"
#include "tests/common/kernel_corpus.h"
#include "tests/host/loader_test_util.h"
#include "lib/util.h"

static const char *const opts[] = {"O0", "O2", "O3"};
static const int covs[] = {4, 5};

struct resolver {
  int32_t external; /* the application's definition of the external variable */
  const char *asked;
};

static bool resolve_external(void *ctx, const char *name, uint64_t *address) {
  struct resolver *r = ctx;
  r->asked = name;
  if (strcmp(name, "ext_offset") != 0) return false;
  *address = (uint64_t)(uintptr_t)&r->external;
  return true;
}

static void *heap_alloc(void *ctx, size_t size) {
  (void)ctx;
  return malloc(size);
}
static void heap_free(void *ctx, void *p) {
  (void)ctx;
  free(p);
}
static const struct corpus_alloc heap = {heap_alloc, heap_free, NULL};

/* The explicit arguments are the corpus table's, at the offsets
 * corpus_pack_args gives them (the C ABI), with matching value kinds. */
static void check_explicit_args(const struct corpus_kernel *ck,
                                const struct loader_kernel_meta *km) {
  struct corpus_dispatch d;
  ASSERT_TRUE(corpus_setup(ck, &heap, &d));
  uint64_t at = 0;
  uint32_t next = 0;
  for (uint32_t i = 0; i < km->arg_count; i++) {
    const struct loader_kernel_arg *a = &km->args[i];
    if (loader_arg_kind_is_hidden(a->kind)) continue;
    ASSERT_LT(next, d.arg_count);
    bool buffer = d.args[next].kind == CORPUS_ARG_BUFFER;
    uint32_t size = buffer ? 8 : 4;
    at = ALIGN_UP(at, size);
    ASSERT_EQ(a->offset, at);
    ASSERT_EQ(a->size, size);
    ASSERT_EQ(a->kind, buffer ? LOADER_ARG_GLOBAL_BUFFER : LOADER_ARG_BY_VALUE);
    at += size;
    next++;
  }
  ASSERT_EQ(next, d.arg_count);
  corpus_release(&d);
}

/* Descriptor fields clang derives from the same facts as the metadata
 * (AMDGPUUsage "Kernel Descriptor", "compute_pgm_rsrc1/2 for GFX6-GFX12",
 * "Initial Kernel Execution State"). */
static void check_descriptor(const amd_kernel_descriptor_t *kd,
                             const struct loader_kernel_meta *km) {
  uint32_t props = kd->kernel_code_properties;
  /* The kernarg pointer is the only way to the arguments. */
  ASSERT_TRUE(props & AMD_KD_ENABLE_SGPR_KERNARG_SEGMENT_PTR);
  /* GFX9 VGPR blocks: max(0, ceil(vgprs / 4) - 1). */
  uint32_t vgpr_blocks = km->vgpr_count ? (km->vgpr_count + 3) / 4 - 1 : 0;
  ASSERT_EQ(AMD_HSA_BITS_GET(kd->compute_pgm_rsrc1, AMD_KD_RSRC1_GRANULATED_WORKITEM_VGPR_COUNT),
            vgpr_blocks);
  /* USER_SGPR_COUNT: the user SGPRs the enable bits ask for, in their sizes
   * (private segment buffer 4, dispatch/queue/kernarg ptr, dispatch id and
   * flat scratch init 2 each, private segment size 1). */
  uint32_t user_sgprs = (props & AMD_KD_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER ? 4 : 0) +
                        (props & AMD_KD_ENABLE_SGPR_DISPATCH_PTR ? 2 : 0) +
                        (props & AMD_KD_ENABLE_SGPR_QUEUE_PTR ? 2 : 0) +
                        (props & AMD_KD_ENABLE_SGPR_KERNARG_SEGMENT_PTR ? 2 : 0) +
                        (props & AMD_KD_ENABLE_SGPR_DISPATCH_ID ? 2 : 0) +
                        (props & AMD_KD_ENABLE_SGPR_FLAT_SCRATCH_INIT ? 2 : 0) +
                        (props & AMD_KD_ENABLE_SGPR_PRIVATE_SEGMENT_SIZE ? 1 : 0);
  ASSERT_EQ(AMD_HSA_BITS_GET(kd->compute_pgm_rsrc2, AMD_KD_RSRC2_USER_SGPR_COUNT), user_sgprs);
  /* A kernel with private memory has the scratch wave offset enabled. */
  if (km->private_segment_fixed_size || (props & AMD_KD_USES_DYNAMIC_STACK))
    ASSERT_TRUE(kd->compute_pgm_rsrc2 & AMD_KD_RSRC2_ENABLE_PRIVATE_SEGMENT);
  /* clang-19 enables the work-group id X SGPR for every kernel. */
  ASSERT_TRUE(kd->compute_pgm_rsrc2 & AMD_KD_RSRC2_ENABLE_SGPR_WORKGROUP_ID_X);
  /* gfx9 has no rsrc3 and no kernarg preloading. */
  ASSERT_EQ(kd->compute_pgm_rsrc3, 0);
  ASSERT_EQ(kd->kernarg_preload, 0);
}

static void check_one(const struct corpus_kernel *ck, const char *opt, int cov) {
  size_t size;
  uint8_t *image = loader_test_read_corpus(ck->file, opt, cov, &size);
  char why[256];
  struct loader_code_object *co = loader_test_parse(image, size, LOADER_OK, why, sizeof why);
  ASSERT_EQ(co->version, cov);
  ASSERT_STR_EQ(loader_isa_mach_name(co->isa.mach), "gfx902");
  ASSERT_EQ(loader_code_object_check_isa(co, LOADER_TEST_AGENT_ISA, why, sizeof why), LOADER_OK);
  ASSERT_EQ(co->metadata.version_major, 1);
  ASSERT_EQ(co->metadata.version_minor, cov == 5 ? 2 : 1); /* AMDGPUUsage: V4 1.1, V5 1.2 */

  const struct loader_symbol *sym = loader_code_object_symbol(co, ck->symbol);
  ASSERT_NOT_NULL(sym);
  ASSERT_EQ(sym->kind, LOADER_SYMBOL_KERNEL);
  const struct loader_kernel_meta *km = sym->meta;
  ASSERT_NOT_NULL(km);
  ASSERT_EQ(km->wavefront_size, 64);
  ASSERT_EQ(sym->kd.kernarg_size, km->kernarg_segment_size);
  ASSERT_EQ(sym->kd.group_segment_fixed_size, km->group_segment_fixed_size);
  ASSERT_EQ(sym->kd.private_segment_fixed_size, km->private_segment_fixed_size);
  ASSERT_EQ(sym->vaddr % 64, 0);
  check_descriptor(&sym->kd, km);
  check_explicit_args(ck, km);

  /* Hidden arguments: v5 has the block counts, v4 never does. */
  bool has_block_count = false;
  for (uint32_t i = 0; i < km->arg_count; i++)
    has_block_count |= km->args[i].kind == LOADER_ARG_HIDDEN_BLOCK_COUNT_X;
  if (cov == 4) ASSERT_FALSE(has_block_count);
  if (cov == 5) ASSERT_TRUE(has_block_count); /* every kernel asks for ids or sizes */

  struct resolver r = {.external = CORPUS_EXTERNAL_VALUE};
  ASSERT_EQ(loader_code_object_load(co, &loader_test_memory, resolve_external, &r, why, sizeof why),
            LOADER_OK);
  ASSERT_EQ(sym->address, sym->vaddr + (uint64_t)co->delta);
  /* The loaded descriptor is the file's, and its entry point is code we
   * copied: the same bytes as in the file. */
  ASSERT_MEM_EQ((const void *)(uintptr_t)sym->address, &sym->kd, 64);
  uint64_t entry = sym->address + (uint64_t)sym->kd.kernel_code_entry_byte_offset;
  ASSERT_TRUE(entry >= (uint64_t)(uintptr_t)co->base &&
              entry + 4 <= (uint64_t)(uintptr_t)co->base + co->base_size);
  ASSERT_EQ(entry % 256, 0);
  uint64_t entry_vaddr = entry - (uint64_t)co->delta;
  for (uint32_t i = 0; i < co->segment_count; i++) {
    const struct loader_segment *s = &co->segments[i];
    if (entry_vaddr >= s->vaddr && entry_vaddr < s->vaddr + s->filesz)
      ASSERT_MEM_EQ((const void *)(uintptr_t)entry, image + s->offset + (entry_vaddr - s->vaddr),
                    64);
  }
  loader_code_object_destroy(co);
  free(image);
}

TEST(loader_corpus_every_kernel_loads) {
  for (uint32_t k = 0; k < corpus_kernel_count; k++)
    for (int o = 0; o < 3; o++)
      for (int c = 0; c < 2; c++) check_one(&corpus_kernels[k], opts[o], covs[c]);
}

/* Kernel properties the sources force, seen through symbol and metadata. */
TEST(loader_corpus_segment_sizes_and_stack) {
  char why[256];
  for (int o = 0; o < 3; o++) {
    size_t size;
    uint8_t *image = loader_test_read_corpus("reduce_sum", opts[o], 5, &size);
    struct loader_code_object *co = loader_test_parse(image, size, LOADER_OK, why, sizeof why);
    ASSERT_GE(loader_code_object_symbol(co, "reduce_sum.kd")->kd.group_segment_fixed_size, 1024);
    loader_code_object_destroy(co);
    free(image);

    image = loader_test_read_corpus("private_array", opts[o], 5, &size);
    co = loader_test_parse(image, size, LOADER_OK, why, sizeof why);
    ASSERT_GE(loader_code_object_symbol(co, "private_array.kd")->meta->private_segment_fixed_size,
              48 * 4);
    loader_code_object_destroy(co);
    free(image);

    image = loader_test_read_corpus("call_stack", opts[o], 5, &size);
    co = loader_test_parse(image, size, LOADER_OK, why, sizeof why);
    const struct loader_symbol *k = loader_code_object_symbol(co, "call_stack.kd");
    ASSERT_TRUE(k->meta->uses_dynamic_stack); /* gcd recurses */
    ASSERT_TRUE(k->kd.kernel_code_properties & AMD_KD_USES_DYNAMIC_STACK);
    loader_code_object_destroy(co);
    free(image);
  }
}

/* C kernels get LOCAL/HIDDEN kernel symbols from clang-19; the metadata's
 * .symbol still finds them, with module linkage. */
TEST(loader_corpus_c_kernel_local_symbol) {
  char why[256];
  size_t size;
  uint8_t *image = loader_test_read_corpus("saxpy", "O2", 5, &size);
  struct loader_code_object *co = loader_test_parse(image, size, LOADER_OK, why, sizeof why);
  const struct loader_symbol *k = loader_code_object_symbol(co, "saxpy.kd");
  ASSERT_NOT_NULL(k);
  ASSERT_FALSE(k->program_linkage);
  ASSERT_STR_EQ(k->meta->name, "saxpy");
  loader_code_object_destroy(co);
  free(image);

  image = loader_test_read_corpus("vector_add", "O2", 5, &size);
  co = loader_test_parse(image, size, LOADER_OK, why, sizeof why);
  ASSERT_TRUE(loader_code_object_symbol(co, "vector_add.kd")->program_linkage); /* OpenCL: global */
  ASSERT_NULL(loader_code_object_symbol(co, "vector_add")); /* the code itself is no HSA symbol */
  loader_code_object_destroy(co);
  free(image);
}

/* Variables, RELATIVE64 (a pointer to a variable) and ABS64 against an
 * external the application defines. */
TEST(loader_global_vars_relocations_applied) {
  char why[256];
  for (int c = 0; c < 2; c++) {
    size_t size;
    uint8_t *image = loader_test_read_corpus("global_vars", "O2", covs[c], &size);
    struct loader_code_object *co = loader_test_parse(image, size, LOADER_OK, why, sizeof why);
    uint64_t got_vaddr = 0;
    bool saw_relative = false;
    for (uint32_t i = 0; i < co->relocation_count; i++) {
      const struct loader_relocation *r = &co->relocations[i];
      if (r->sym_name && !strcmp(r->sym_name, "ext_offset")) got_vaddr = r->vaddr;
      saw_relative |= r->type == R_AMDGPU_RELATIVE64;
    }
    ASSERT_NE(got_vaddr, 0);
    ASSERT_TRUE(saw_relative);

    struct resolver r = {.external = CORPUS_EXTERNAL_VALUE};
    ASSERT_EQ(
        loader_code_object_load(co, &loader_test_memory, resolve_external, &r, why, sizeof why),
        LOADER_OK);
    const struct loader_symbol *table = loader_code_object_symbol(co, "table");
    const struct loader_symbol *bias = loader_code_object_symbol(co, "bias");
    const struct loader_symbol *bias_ptr = loader_code_object_symbol(co, "bias_ptr");
    ASSERT_NOT_NULL(table);
    ASSERT_NOT_NULL(bias);
    ASSERT_NOT_NULL(bias_ptr);
    ASSERT_EQ(table->kind, LOADER_SYMBOL_VARIABLE);
    ASSERT_EQ(table->size, 16);
    ASSERT_TRUE(table->program_linkage);
    ASSERT_FALSE(table->is_const);
    const int32_t *t = (const int32_t *)(uintptr_t)table->address;
    ASSERT_TRUE(t[0] == 1 && t[1] == 2 && t[2] == 3 && t[3] == 4);
    ASSERT_EQ(*(const int32_t *)(uintptr_t)bias->address, 5);
    /* RELATIVE64: the pointer now holds bias's loaded address. */
    ASSERT_EQ_U(*(const uint64_t *)(uintptr_t)bias_ptr->address, bias->address);
    /* ABS64: the GOT slot holds the application's variable. */
    ASSERT_EQ_U(*(const uint64_t *)(uintptr_t)(got_vaddr + (uint64_t)co->delta),
                (uint64_t)(uintptr_t)&r.external);
    ASSERT_NULL(loader_code_object_symbol(co, "ext_offset")); /* not defined here */
    loader_code_object_destroy(co);
    free(image);
  }
}

TEST(loader_global_vars_undefined_external_fails) {
  char why[256];
  size_t size;
  uint8_t *image = loader_test_read_corpus("global_vars", "O2", 5, &size);
  struct loader_code_object *co = loader_test_parse(image, size, LOADER_OK, why, sizeof why);
  ASSERT_EQ(loader_code_object_load(co, &loader_test_memory, NULL, NULL, why, sizeof why),
            LOADER_ERROR_VARIABLE_UNDEFINED);
  ASSERT_NOT_NULL(strstr(why, "ext_offset"));
  ASSERT_NULL(co->base); /* segments freed again (ASan would see a leak) */
  /* A second attempt is refused rather than working on freed state. */
  ASSERT_EQ(loader_code_object_load(co, &loader_test_memory, NULL, NULL, why, sizeof why),
            LOADER_ERROR_INVALID_CODE_OBJECT);
  loader_code_object_destroy(co);
  free(image);
}

static void *failing_alloc(void *ctx, size_t size, size_t align) {
  (void)ctx, (void)size, (void)align;
  return NULL;
}

TEST(loader_out_of_memory_reported) {
  char why[256];
  size_t size;
  uint8_t *image = loader_test_read_corpus("vector_add", "O2", 5, &size);
  struct loader_code_object *co = loader_test_parse(image, size, LOADER_OK, why, sizeof why);
  struct loader_memory_ops none = {failing_alloc, loader_test_memory.free, NULL};
  ASSERT_EQ(loader_code_object_load(co, &none, NULL, NULL, why, sizeof why),
            LOADER_ERROR_OUT_OF_MEMORY);
  ASSERT_NOT_NULL(strstr(why, "no memory"));
  loader_code_object_destroy(co);
  free(image);
}

TEST(loader_isa_checked_against_agent) {
  char why[256];
  size_t size;
  uint8_t *image = loader_test_read_corpus("vector_add", "O2", 5, &size);
  struct loader_code_object *co = loader_test_parse(image, size, LOADER_OK, why, sizeof why);
  ASSERT_EQ(co->isa.xnack, LOADER_FEATURE_ANY); /* clang's default: runs either way */
  ASSERT_EQ(loader_code_object_check_isa(co, "amdgcn-amd-amdhsa--gfx902:xnack+", why, sizeof why),
            LOADER_OK);
  ASSERT_EQ(loader_code_object_check_isa(co, "amdgcn-amd-amdhsa--gfx90c:xnack-", why, sizeof why),
            LOADER_ERROR_INCOMPATIBLE_ISA);
  ASSERT_NOT_NULL(strstr(why, "gfx90c"));
  ASSERT_EQ(loader_code_object_check_isa(co, "amdgcn-amd-amdhsa--gfx902:xnack-", why, sizeof why),
            LOADER_OK);
  /* An agent's xnack is on or off, never "any" (ROCr Isa::IsCompatible). */
  ASSERT_EQ(loader_code_object_check_isa(co, "amdgcn-amd-amdhsa--gfx902", why, sizeof why),
            LOADER_ERROR_INVALID_ISA_NAME);
  co->isa.xnack = LOADER_FEATURE_ON; /* as if built with -mcpu=gfx902:xnack+ */
  ASSERT_EQ(loader_code_object_check_isa(co, "amdgcn-amd-amdhsa--gfx902:xnack-", why, sizeof why),
            LOADER_ERROR_INCOMPATIBLE_ISA);
  ASSERT_NOT_NULL(strstr(why, "xnack"));
  ASSERT_EQ(loader_code_object_check_isa(co, "amdgcn-amd-amdhsa--gfx902:xnack+", why, sizeof why),
            LOADER_OK);
  ASSERT_EQ(loader_code_object_check_isa(co, "nonsense", why, sizeof why),
            LOADER_ERROR_INVALID_ISA_NAME);
  loader_code_object_destroy(co);
  free(image);
}
