/*
 * vapu_isa_harness.h - what the interpreter tests share: GPU-visible memory
 * over an identity range map (every byte a kernel may touch is registered,
 * anything else faults), a minimal command processor that runs one dispatch
 * work-group by work-group, kernels built from hand-written assembly
 * (the .s files of tests/data/vapu_isa/, assembled at build time) and from the corpus
 * (tests/kernels/, loaded with the product loader).
 */
#ifndef TESTS_HOST_VAPU_ISA_HARNESS_H
#define TESTS_HOST_VAPU_ISA_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vapu/isa/dispatch.h"
#include "vapu/isa/mem.h"

/* Aperture bases the harness gives the kernels (those KFD uses on gfx9). */
#define VI_SHARED_BASE (1ull << 48)
#define VI_PRIVATE_BASE (2ull << 48)
#define VI_MAX_ALLOCS 48

struct vi_env {
  struct vapu_range_map map;
  struct vapu_exec *x;
  void *allocs[VI_MAX_ALLOCS];
};

/* False when out of memory. */
bool vi_env_init(struct vi_env *e);
void vi_env_fini(struct vi_env *e);

/* Zeroed, 256-byte aligned memory the GPU may access with `access`
 * (VAPU_ACCESS_*); freed by vi_env_fini or vi_free. NULL when out of memory
 * or out of table slots. */
void *vi_alloc(struct vi_env *e, size_t size, uint32_t access);
void vi_free(struct vi_env *e, void *p);

/* One dispatch. Unused dimensions are 1. */
struct vi_launch {
  uint64_t kernel_object;
  const void *kernarg;
  uint32_t grid[3], wg[3];
  uint32_t group_segment_size;   /* 0: the kernel's fixed size */
  uint32_t private_segment_size; /* per work-item, 0: the kernel's fixed size */
  const volatile uint32_t *abort_flag;
};

/* Runs every work-group of the dispatch, as the CP would: an AQL packet and
 * an amd_queue_t in GPU memory, scratch set up the way ROCr's queue does
 * (swizzled V#, 64 wave slots' worth), apertures VI_SHARED/PRIVATE_BASE.
 * Returns the first error (stop filled) or VAPU_OK. */
enum vapu_result vi_run(struct vi_env *e, const struct vi_launch *l, struct vapu_stop *stop);

/* ---- Kernels from assembly -------------------------------------------------
 * <build>/vapu-isa/<name>.o, assembled by mk/vapu-isa.mk from
 * tests/data/vapu_isa/<name>.s. */
struct vi_asm {
  uint8_t *text;    /* .text copied into GPU memory (256-aligned) */
  size_t text_size;
  void *image;      /* the object file */
  size_t image_size;
};
bool vi_asm_load(struct vi_env *e, const char *name, struct vi_asm *a);
void vi_asm_release(struct vi_asm *a);

/* Kernel descriptor fields the asm kernels choose (AMDGPUUsage). */
struct vi_kd {
  uint32_t rsrc1, rsrc2;
  uint16_t properties;
  uint32_t group_segment_fixed_size, private_segment_fixed_size;
};
/* Default: kernarg segment pointer in s[0:1], work-group id x in s2, work-item
 * id x in v0, IEEE mode, f32 and f64/f16 denormals kept, 64 VGPRs. */
struct vi_kd vi_kd_default(void);
/* Makes a kernel descriptor for the code at `label` (256-aligned) in the
 * loaded .text; 0 when the label is missing or the descriptor cannot be
 * allocated. */
uint64_t vi_asm_kernel(struct vi_env *e, const struct vi_asm *a, const char *label,
                       const struct vi_kd *kd);

/* Offset of `label` in .text; false if it is not defined. */
bool vi_asm_offset(const struct vi_asm *a, const char *label, uint64_t *offset);

/* Raw words of the code at `label`, for decoder tests. */
const uint32_t *vi_asm_words(const struct vi_asm *a, const char *label, size_t *count);

/* ---- Code objects (the corpus), through the product loader ---------------- */
struct loader_code_object;
struct loader_symbol;
struct vi_code_object {
  struct loader_code_object *co;
  const struct loader_symbol *kernel; /* its kernel descriptor symbol */
  uint64_t kernel_object;
  uint32_t kernarg_size;
};
/* Loads the code object at `path` into GPU memory and finds `symbol`
 * ("<name>.kd"); an undefined variable "ext_offset" resolves to `external`
 * (GPU memory) when given. False with the reason in `why`. */
bool vi_code_object_load(struct vi_env *e, const char *path, const char *symbol, void *external,
                         struct vi_code_object *out, char *why, size_t why_size);
void vi_code_object_release(struct vi_code_object *k);
/* A kernarg segment in GPU memory: `explicit_args` bytes, then the hidden
 * arguments the metadata asks for, for a `dims`-dimensional dispatch. */
void *vi_kernarg(struct vi_env *e, const struct vi_code_object *k, const void *explicit_args,
                 size_t explicit_size, uint32_t dims, const uint32_t grid[3], const uint32_t wg[3],
                 char *why, size_t why_size);

/* The .text section of an ELF object or code object: its bytes, size and
 * address. False if absent or out of the file. */
bool vi_elf_text(const void *image, size_t size, const uint32_t **words, size_t *bytes,
                 uint64_t *address);

/* Reads a whole file (malloc'ed), NULL when missing. */
void *vi_read_file(const char *path, size_t *size);

#endif
