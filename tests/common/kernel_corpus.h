/*
 * kernel_corpus.h - how to drive each kernel of the GPU test corpus
 * (tests/kernels/, built by mk/kernels.mk into
 * <kernels dir>/<mcpu>/<file>.<O0|O2|O3>.v<4|5>.co).
 *
 * For every kernel the table gives its source file, the kernel descriptor
 * symbol to look up, the dispatch geometry, the explicit arguments, and a
 * CPU reference: corpus_setup() allocates and fills the buffers (through the
 * caller's allocator: memory the agent reaches) and computes the expected
 * outputs; after the dispatch corpus_check() compares every output buffer
 * with the reference, bit for bit or within the error bound the kernel's
 * entry states. The loader tests, the interpreter tests and the GPU agent
 * tests all use this one table.
 *
 *   struct corpus_dispatch d;
 *   corpus_setup(&corpus_kernels[i], &alloc, &d);
 *   void *kernarg = corpus_kernarg(&d, kernarg_size);   // explicit args packed
 *   ... fill hidden args (hsa_metal_kernarg_fill_hidden), dispatch d.grid /
 *       d.workgroup in d.dims dimensions, wait ...
 *   corpus_check(&d, why, sizeof why);
 *   corpus_release(&d);
 */
#ifndef TESTS_COMMON_KERNEL_CORPUS_H
#define TESTS_COMMON_KERNEL_CORPUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CORPUS_MAX_ARGS    6
#define CORPUS_MAX_BUFFERS 6

struct corpus_alloc {
  void *(*alloc)(void *ctx, size_t size); /* zeroed or not; 256-byte aligned at least */
  void (*free)(void *ctx, void *ptr);
  void *ctx;
};

enum corpus_arg_kind {
  CORPUS_ARG_BUFFER, /* the address of buffers[index], 8 bytes */
  CORPUS_ARG_U32,
  CORPUS_ARG_F32,
};

struct corpus_arg {
  enum corpus_arg_kind kind;
  uint32_t index; /* CORPUS_ARG_BUFFER */
  uint32_t u32;
  float f32;
};

struct corpus_kernel;

/* One prepared dispatch: geometry, arguments, buffers, expected outputs. */
struct corpus_dispatch {
  const struct corpus_kernel *kernel;
  uint32_t dims, grid[3], workgroup[3]; /* unused dimensions are 1 */
  uint32_t arg_count;
  struct corpus_arg args[CORPUS_MAX_ARGS];
  uint32_t buffer_count;
  void *buffers[CORPUS_MAX_BUFFERS]; /* from the caller's allocator */
  size_t buffer_sizes[CORPUS_MAX_BUFFERS];
  void *expected[CORPUS_MAX_BUFFERS]; /* malloc'ed reference of each output, else NULL */
  struct corpus_alloc alloc;
  bool out_of_memory; /* set by corpus_setup when an allocation failed */
};

struct corpus_kernel {
  const char *file;   /* tests/kernels/<file>.cl or .c */
  const char *symbol; /* kernel descriptor symbol to look up, "<name>.kd" */
  const char *what;   /* one line: what it exercises */
  /* A variable the application must define before loading (an int32, value
   * CORPUS_EXTERNAL_VALUE), or NULL. */
  const char *external_variable;
  bool (*setup)(struct corpus_dispatch *d);
  /* Checks one 32-bit output element; NULL: every byte must be equal. */
  bool (*element_ok)(uint32_t index, uint32_t got, uint32_t want);
};

#define CORPUS_EXTERNAL_VALUE 1000

/* Every kernel of the table by file name, for tests that make one TEST per
 * kernel (X(vector_add) ...): corpus_files_match_table() checks that this
 * list and corpus_kernels[] agree. */
#define CORPUS_KERNEL_FILES(X)                                                                      \
  X(vector_add) X(saxpy) X(reduce_sum) X(matmul_tiled) X(prefix_scan) X(histogram) X(histogram_local) X(bitonic_sort) \
  X(uniform_slots) X(stencil_2d) X(int_divmod) X(int64_ops) X(float_math) X(half_math) X(private_array)             \
  X(call_stack) X(global_vars)
/* NULL when they agree, else the first file one has and the other lacks. */
const char *corpus_files_match_table(void);

/* The builds of every kernel (mk/kernels.mk): -O0, -O2, -O3, each as code
 * object v4 and v5. */
#define CORPUS_VARIANT_COUNT 6
struct corpus_variant {
  const char *opt; /* "O0", "O2", "O3" */
  int cov;         /* 4, 5 */
};
extern const struct corpus_variant corpus_variants[CORPUS_VARIANT_COUNT];

extern const struct corpus_kernel corpus_kernels[];
extern const uint32_t corpus_kernel_count;

const struct corpus_kernel *corpus_kernel_by_file(const char *file);

/* "<dir>/<mcpu>/<file>.<opt>.v<cov>.co" into buf. */
void corpus_code_object_path(char *buf, size_t size, const char *dir, const char *mcpu,
                             const struct corpus_kernel *k, const char *opt, int cov);

/* Allocates and fills buffers, computes the reference. False when the
 * allocator fails (everything allocated so far is released). */
bool corpus_setup(const struct corpus_kernel *k, const struct corpus_alloc *alloc,
                  struct corpus_dispatch *d);

/* Writes the explicit arguments at their C ABI offsets (each aligned to its
 * size, as clang lays out kernarg segments). Returns the bytes used, 0 if
 * `size` is too small. */
size_t corpus_pack_args(const struct corpus_dispatch *d, void *kernarg, size_t size);

/* A kernarg segment of `size` bytes (16 if `size` is 0) from the
 * dispatch's allocator, zeroed, the explicit arguments packed in it; NULL
 * when the allocation fails or the arguments do not fit. Freed through the
 * allocator (d->alloc.free). */
void *corpus_kernarg(const struct corpus_dispatch *d, size_t size);

/* Compares outputs with the reference; on a difference says where in `why`. */
bool corpus_check(const struct corpus_dispatch *d, char *why, size_t why_size);

void corpus_release(struct corpus_dispatch *d);

/* IEEE binary16 from a double, rounded to nearest even (the reference for
 * the half kernel). */
uint16_t corpus_half_from_double(double x);

#endif
