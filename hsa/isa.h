/*
 * isa.h - instruction set architectures the runtime knows (HSA Runtime PRM
 * 1.2, 2.8). An hsa_isa_t handle is the address of a struct isa in the
 * runtime's table (rt.isas), which hsa_init builds (isas_init) and the last
 * hsa_shut_down empties. GPU agents point agent->isa at their entry; CPU
 * agents have none (as in ROCr).
 *
 * Names are ROCr's: "amdgcn-amd-amdhsa--" and an LLVM target ID, the
 * processor and the state of its target features. A processor with XNACK
 * has three ISAs, as in ROCr's registry (core/runtime/isa.cpp): the plain
 * name (XNACK any: what a code object built without the feature asks for),
 * ":xnack-" and ":xnack+". An agent's ISA always has the state the process
 * runs with, never "any".
 */
#ifndef HSA_ISA_H
#define HSA_ISA_H

#include <hsa/hsa.h>

#include "hsa/loader/target_id.h"

#define ISA_NAME_MAX  64 /* "amdgcn-amd-amdhsa--gfx1103:sramecc+:xnack+" fits */
#define ISA_TABLE_MAX 12

struct isa {
  char name[ISA_NAME_MAX]; /* "amdgcn-amd-amdhsa--gfx902:xnack+" */
  const char *processor; /* "gfx902" */
  uint32_t wavefront_size; /* hsa_wavefront_get_info */
  bool fast_f16;
  enum loader_feature xnack; /* as the name says (hsa/loader/target_id.h) */
};

struct isa_table {
  struct isa entries[ISA_TABLE_MAX];
  uint32_t count;
};

/* hsa_init: the ISAs of every GPU the runtime knows; hsa_shut_down: none. */
void isas_init(void);
void isas_fini(void);

const struct isa *isa_from_handle(hsa_isa_t handle);
static inline hsa_isa_t isa_handle(const struct isa *isa) {
  hsa_isa_t h = {(uint64_t)(uintptr_t)isa};
  return h;
}

/* The ISA an agent with this processor ("gfx902") runs in this process:
 * with XNACK on or off as HSA_XNACK asks (isa_xnack_requested), else as
 * the GPU's driver default; NULL for a processor the runtime does not know. */
const struct isa *isa_find(const char *processor);

/* HSA_XNACK, ROCr's switch (boot option, or environment variable on the
 * host): 1 on, 0 off, -1 not given (or neither "0" nor "1", which ROCr also
 * treats as not given). */
int isa_xnack_requested(void);

/* ROCr's Isa::IsCompatible, decided by the loader's rule
 * (loader_isa_compatible) on both names, so that hsa_isa_compatible and
 * what the loader accepts never disagree. */
bool isa_compatible(const struct isa *code_object, const struct isa *agent);

#endif
