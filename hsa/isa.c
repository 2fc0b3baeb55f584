/*
 * isa.c - the ISA table and the ISA / wavefront queries (PRM 1.2, 2.8).
 *
 * Entries: the GPUs of the embedded APUs this project targets (DESIGN.md):
 * gfx902 (Raven/Picasso), gfx90c (Renoir), gfx1036, gfx1103. Wavefront
 * sizes: gfx9 runs wave64 only; gfx10+ run wave32 natively (LLVM
 * AMDGPUUsage, "Processors" table). Waves per CU: 4 SIMDs x 10 waves on
 * gfx9, 2 SIMD32 pairs x 16 on gfx10.3/gfx11 (ROCr reports 32).
 */
#include "hsa/isa.h"

#include <string.h>

#include "hsa/runtime.h"

static const struct isa isas[] = {
    {"amdgcn-amd-amdhsa--gfx902", 64, 40, true},
    {"amdgcn-amd-amdhsa--gfx90c", 64, 40, true},
    {"amdgcn-amd-amdhsa--gfx1036", 32, 32, true},
    {"amdgcn-amd-amdhsa--gfx1103", 32, 32, true},
};
#define ISA_COUNT  (sizeof isas / sizeof isas[0])
#define ISA_PREFIX "amdgcn-amd-amdhsa--"

const struct isa *isa_from_handle(hsa_isa_t handle) {
  for (size_t i = 0; i < ISA_COUNT; i++)
    if (handle.handle == (uint64_t)(uintptr_t)&isas[i]) return &isas[i];
  return NULL;
}

const struct isa *isa_find(const char *processor) {
  for (size_t i = 0; i < ISA_COUNT; i++)
    if (strcmp(isas[i].name + strlen(ISA_PREFIX), processor) == 0) return &isas[i];
  return NULL;
}

hsa_status_t hsa_isa_from_name(const char *name, hsa_isa_t *isa) {
  RETURN_IF_NOT_INITIALIZED();
  if (!name || !isa) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  /* Target features (":xnack-", ":sramecc+") may follow the processor. */
  size_t len = strcspn(name, ":");
  for (size_t i = 0; i < ISA_COUNT; i++)
    if (strlen(isas[i].name) == len && strncmp(isas[i].name, name, len) == 0) {
      *isa = isa_handle(&isas[i]);
      return HSA_STATUS_SUCCESS;
    }
  return HSA_STATUS_ERROR_INVALID_ISA_NAME;
}

hsa_status_t hsa_isa_get_info_alt(hsa_isa_t handle, hsa_isa_info_t attribute, void *value) {
  RETURN_IF_NOT_INITIALIZED();
  const struct isa *isa = isa_from_handle(handle);
  if (!isa) return HSA_STATUS_ERROR_INVALID_ISA;
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (attribute) {
    case HSA_ISA_INFO_NAME_LENGTH:
      *(uint32_t *)value = (uint32_t)strlen(isa->name) + 1;
      break;
    case HSA_ISA_INFO_NAME:
      memcpy(value, isa->name, strlen(isa->name) + 1);
      break;
    case HSA_ISA_INFO_CALL_CONVENTION_COUNT:
      *(uint32_t *)value = 1;
      break;
    case HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE:
      *(uint32_t *)value = isa->wavefront_size;
      break;
    case HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONTS_PER_COMPUTE_UNIT:
      *(uint32_t *)value = isa->wavefronts_per_cu;
      break;
    case HSA_ISA_INFO_MACHINE_MODELS: { /* bool[2]: small, large */
      bool *b = value;
      b[HSA_MACHINE_MODEL_SMALL] = false;
      b[HSA_MACHINE_MODEL_LARGE] = true;
      break;
    }
    case HSA_ISA_INFO_PROFILES: { /* bool[2]: base, full */
      bool *b = value;
      b[HSA_PROFILE_BASE] = true;
      b[HSA_PROFILE_FULL] = false;
      break;
    }
    case HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES:
    case HSA_ISA_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES: { /* bool[3] */
      bool *b = value;
      b[HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT] = false;
      b[HSA_DEFAULT_FLOAT_ROUNDING_MODE_ZERO] = false;
      b[HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR] = true;
      break;
    }
    case HSA_ISA_INFO_FAST_F16_OPERATION:
      *(bool *)value = isa->fast_f16;
      break;
    case HSA_ISA_INFO_WORKGROUP_MAX_DIM: {
      uint16_t *d = value;
      d[0] = d[1] = d[2] = 1024;
      break;
    }
    case HSA_ISA_INFO_WORKGROUP_MAX_SIZE:
      *(uint32_t *)value = 1024;
      break;
    case HSA_ISA_INFO_GRID_MAX_DIM: {
      hsa_dim3_t *d = value;
      d->x = d->y = d->z = UINT32_MAX;
      break;
    }
    case HSA_ISA_INFO_GRID_MAX_SIZE:
      *(uint32_t *)value = UINT32_MAX;
      break;
    case HSA_ISA_INFO_FBARRIER_MAX_SIZE:
      *(uint32_t *)value = 32;
      break;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_isa_get_info(hsa_isa_t isa, hsa_isa_info_t attribute, uint32_t index,
                              void *value) {
  RETURN_IF_NOT_INITIALIZED();
  /* The call-convention index selects among conventions; there is one. */
  if ((attribute == HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE ||
       attribute == HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONTS_PER_COMPUTE_UNIT) &&
      index != 0)
    return HSA_STATUS_ERROR_INVALID_INDEX;
  return hsa_isa_get_info_alt(isa, attribute, value);
}

hsa_status_t hsa_isa_get_exception_policies(hsa_isa_t isa, hsa_profile_t profile, uint16_t *mask) {
  RETURN_IF_NOT_INITIALIZED();
  if (!isa_from_handle(isa)) return HSA_STATUS_ERROR_INVALID_ISA;
  if (!mask || (unsigned)profile > HSA_PROFILE_FULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *mask = HSA_EXCEPTION_POLICY_DETECT;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_isa_get_round_method(hsa_isa_t isa, hsa_fp_type_t fp_type,
                                      hsa_flush_mode_t flush_mode,
                                      hsa_round_method_t *round_method) {
  RETURN_IF_NOT_INITIALIZED();
  if (!isa_from_handle(isa)) return HSA_STATUS_ERROR_INVALID_ISA;
  if (!round_method ||
      (fp_type != HSA_FP_TYPE_16 && fp_type != HSA_FP_TYPE_32 && fp_type != HSA_FP_TYPE_64) ||
      (flush_mode != HSA_FLUSH_MODE_FTZ && flush_mode != HSA_FLUSH_MODE_NON_FTZ))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *round_method = HSA_ROUND_METHOD_SINGLE; /* one rounding per operation (IEEE) */
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_isa_compatible(hsa_isa_t code_object_isa, hsa_isa_t agent_isa, bool *result) {
  RETURN_IF_NOT_INITIALIZED();
  if (!isa_from_handle(code_object_isa) || !isa_from_handle(agent_isa))
    return HSA_STATUS_ERROR_INVALID_ISA;
  if (!result) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *result = code_object_isa.handle == agent_isa.handle;
  return HSA_STATUS_SUCCESS;
}

/* A wavefront handle is the ISA handle with bit 0 set (ISAs are aligned):
 * each ISA has exactly one wavefront size. */
hsa_status_t hsa_isa_iterate_wavefronts(
    hsa_isa_t isa, hsa_status_t (*callback)(hsa_wavefront_t wavefront, void *data), void *data) {
  RETURN_IF_NOT_INITIALIZED();
  if (!isa_from_handle(isa)) return HSA_STATUS_ERROR_INVALID_ISA;
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  hsa_wavefront_t w = {isa.handle | 1};
  return callback(w, data);
}

hsa_status_t hsa_wavefront_get_info(hsa_wavefront_t wavefront, hsa_wavefront_info_t attribute,
                                    void *value) {
  RETURN_IF_NOT_INITIALIZED();
  hsa_isa_t isa_h = {wavefront.handle & ~(uint64_t)1};
  const struct isa *isa = (wavefront.handle & 1) ? isa_from_handle(isa_h) : NULL;
  if (!isa) return HSA_STATUS_ERROR_INVALID_WAVEFRONT;
  if (!value || attribute != HSA_WAVEFRONT_INFO_SIZE) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *(uint32_t *)value = isa->wavefront_size;
  return HSA_STATUS_SUCCESS;
}
