/*
 * isa.h - instruction set architectures the runtime knows (HSA Runtime PRM
 * 1.2, 2.8). An hsa_isa_t handle is the address of a struct isa in the
 * table in isa.c. GPU agents point agent->isa at their entry; CPU agents
 * have none (as in ROCr).
 */
#ifndef HSA_ISA_H
#define HSA_ISA_H

#include <hsa/hsa.h>

struct isa {
  const char *name; /* "amdgcn-amd-amdhsa--gfx902" (LLVM target triple + processor) */
  uint32_t wavefront_size;
  uint32_t wavefronts_per_cu;
  bool fast_f16;
};

const struct isa *isa_from_handle(hsa_isa_t handle);
/* The entry for a processor name such as "gfx902", or NULL. */
const struct isa *isa_find(const char *processor);
static inline hsa_isa_t isa_handle(const struct isa *isa) {
  hsa_isa_t h = {(uint64_t)(uintptr_t)isa};
  return h;
}

#endif
