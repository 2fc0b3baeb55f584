/*
 * target_id.h - AMDGPU target identification: processor, xnack and sramecc.
 *
 * A code object names its target in e_flags (AMDGPUUsage "ELF Header"); an
 * agent names its ISA with a target ID string such as
 * "amdgcn-amd-amdhsa--gfx902:xnack-" (AMDGPUUsage "Target ID"). Both are
 * decoded into struct loader_isa and compared with the rules ROCr's loader
 * applies (ROCR-Runtime core/runtime/isa.cpp Isa::IsCompatible; generic
 * targets: AMDGPUUsage "Generic Processors" and "Generic Processor
 * Versioning").
 */
#ifndef HSA_LOADER_TARGET_ID_H
#define HSA_LOADER_TARGET_ID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* State of a target feature (AMDGPUUsage "Target Features"). */
enum loader_feature {
  LOADER_FEATURE_UNSUPPORTED, /* the processor has no such feature */
  LOADER_FEATURE_ANY,         /* code runs with the feature on or off */
  LOADER_FEATURE_OFF,
  LOADER_FEATURE_ON,
};

struct loader_isa {
  uint32_t mach; /* EF_AMDGPU_MACH_* value */
  enum loader_feature xnack;
  enum loader_feature sramecc;
  uint32_t generic_version; /* 0 unless mach is a generic target (v6+) */
};

/* Processor name of an EF_AMDGPU_MACH value ("gfx902"), NULL if unknown. */
const char *loader_isa_mach_name(uint32_t mach);
bool loader_isa_mach_is_generic(uint32_t mach);

/* From a code object's e_flags and its EI_ABIVERSION (v4: 2, v5: 3, v6: 4).
 * False, with a reason in `why`, for an unknown processor. */
bool loader_isa_from_elf(uint32_t e_flags, uint8_t abi_version, struct loader_isa *isa, char *why,
                         size_t why_size);

/* From a target ID, with or without the "amdgcn-amd-amdhsa--" triple:
 * "gfx902", "gfx902:xnack-", "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-".
 * A feature the processor has but the name leaves out is ANY. False for an
 * unknown processor, a feature it lacks, or a malformed name. */
bool loader_isa_from_name(const char *name, struct loader_isa *isa);

/* The canonical target ID "amdgcn-amd-amdhsa--gfx902:xnack-" (features in
 * the order sramecc, xnack; ANY and UNSUPPORTED are left out). */
void loader_isa_name(const struct loader_isa *isa, char *buf, size_t size);

/* Can code built for `code` run on an agent whose ISA is `agent`? The
 * agent's features are ON, OFF or UNSUPPORTED, never ANY. On false, `why`
 * says which part differs. */
bool loader_isa_compatible(const struct loader_isa *code, const struct loader_isa *agent, char *why,
                           size_t why_size);

#endif
