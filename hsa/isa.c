/*
 * isa.c - the ISA table and the ISA / wavefront queries (PRM 1.2, 2.8).
 *
 * Entries: the GPUs of the embedded APUs this project targets:
 * gfx902 (Raven/Picasso), gfx90c (Renoir), gfx1036, gfx1103, each with the
 * target IDs ROCr's ISA registry gives it (ROCR-Runtime core/runtime/
 * isa.cpp, IsaRegistry::GetSupportedIsas): "gfxN", "gfxN:xnack-" and
 * "gfxN:xnack+" for a processor with XNACK, "gfxN" alone otherwise. Which
 * processor has XNACK is the loader's processor table's to say
 * (hsa/loader/target_id.c); hsa_init builds the ISAs from it.
 * Wavefront sizes: gfx9 runs wave64 only; gfx10+ run wave32 natively (LLVM
 * AMDGPUUsage, "Processors" table).
 *
 * XNACK state of an agent (ROCr KfdDriver::BindXnackMode and the GPU
 * agent's constructor): HSA_XNACK=0/1 if given, else the driver's mode.
 * Linux gives these APUs retry faults by default (amdgpu_gmc.c
 * amdgpu_gmc_noretry_set: GC 9.1.0, 9.2.2 and, since 2024, 9.3.0 are not
 * in the noretry list), and KFD then runs the process with XNACK on
 * (kfd_process.c kfd_process_xnack_mode): ROCr names a Raven agent
 * "gfx902:xnack+" unless HSA_XNACK=0.
 */
#define LOG_TAG "isa"
#include "hsa/isa.h"

#include <string.h>

#include "hsa/runtime.h"
#include "lib/plat.h"
#include "lib/util.h"

PLAT_OPTION(hsa_xnack, "HSA_XNACK",
            "1: GPU agents run with XNACK (page-fault replay) on, 0: off; default on for "
            "gfx902/gfx90c, as ROCr on Linux");

/* The GPUs, each with its wavefront size; which target IDs each has comes
 * from the loader's processor model (hsa/loader/target_id.c), so that the
 * ISAs and what the loader accepts never disagree. */
struct gpu_isa {
  const char *processor;
  uint32_t wavefront_size;
};
static const struct gpu_isa gpus[] = {
    {"gfx902", 64},
    {"gfx90c", 64},
    {"gfx1036", 32},
    {"gfx1103", 32},
};
_Static_assert(countof(gpus) * 3 <= ISA_TABLE_MAX, "three target IDs per GPU at most");

static void isa_add(const struct gpu_isa *gpu, const struct loader_isa *target) {
  struct isa *isa = &rt.isas.entries[rt.isas.count++];
  loader_isa_name(target, isa->name, sizeof isa->name);
  isa->processor = gpu->processor;
  isa->wavefront_size = gpu->wavefront_size;
  isa->fast_f16 = true;
  isa->xnack = target->xnack;
}

/* ROCr's registry order: the plain name (XNACK any), then ":xnack-" and
 * ":xnack+" for a processor that has the feature. */
void isas_init(void) {
  for (size_t i = 0; i < countof(gpus); i++) {
    struct loader_isa target;
    if (!loader_isa_from_name(gpus[i].processor, &target)) {
      log_error("ISA %s: not a processor the loader knows", gpus[i].processor);
      continue;
    }
    isa_add(&gpus[i], &target);
    if (target.xnack == LOADER_FEATURE_UNSUPPORTED) continue;
    target.xnack = LOADER_FEATURE_OFF;
    isa_add(&gpus[i], &target);
    target.xnack = LOADER_FEATURE_ON;
    isa_add(&gpus[i], &target);
  }
}

void isas_fini(void) { memset(&rt.isas, 0, sizeof rt.isas); }

const struct isa *isa_from_handle(hsa_isa_t handle) {
  for (uint32_t i = 0; i < rt.isas.count; i++)
    if (handle.handle == (uint64_t)(uintptr_t)&rt.isas.entries[i]) return &rt.isas.entries[i];
  return NULL;
}

int isa_xnack_requested(void) {
  const char *v = plat_option("HSA_XNACK");
  if (v && strcmp(v, "1") == 0) return 1;
  if (v && strcmp(v, "0") == 0) return 0;
  if (v) log_warn("HSA_XNACK=%s ignored (want 0 or 1, as ROCr)", v);
  return -1;
}

const struct isa *isa_find(const char *processor) {
  enum loader_feature xnack = isa_xnack_requested() == 0 ? LOADER_FEATURE_OFF : LOADER_FEATURE_ON;
  for (uint32_t i = 0; i < rt.isas.count; i++) {
    const struct isa *isa = &rt.isas.entries[i];
    if (strcmp(isa->processor, processor) == 0 &&
        (isa->xnack == LOADER_FEATURE_UNSUPPORTED || isa->xnack == xnack))
      return isa;
  }
  return NULL;
}

bool isa_compatible(const struct isa *code_object, const struct isa *agent) {
  struct loader_isa code, target;
  char why[128];
  if (!loader_isa_from_name(code_object->name, &code) || !loader_isa_from_name(agent->name, &target))
    return false;
  return loader_isa_compatible(&code, &target, why, sizeof why);
}

/* ROCr looks the whole name up in its registry: the features are part of
 * it ("...--gfx902" and "...--gfx902:xnack+" are different ISAs). */
hsa_status_t hsa_isa_from_name(const char *name, hsa_isa_t *isa) {
  RETURN_IF_NOT_INITIALIZED();
  if (!name || !isa) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (uint32_t i = 0; i < rt.isas.count; i++)
    if (strcmp(rt.isas.entries[i].name, name) == 0) {
      *isa = isa_handle(&rt.isas.entries[i]);
      return HSA_STATUS_SUCCESS;
    }
  return HSA_STATUS_ERROR_INVALID_ISA_NAME;
}

hsa_status_t hsa_isa_get_info_alt(hsa_isa_t handle, hsa_isa_info_t attribute, void *value) {
  RETURN_IF_NOT_INITIALIZED();
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT; /* ROCr's order: pointer, then ISA */
  const struct isa *isa = isa_from_handle(handle);
  if (!isa) return HSA_STATUS_ERROR_INVALID_ISA;
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
    /* Deprecated; ROCr answers 64 and 40 whatever the ISA (Isa::GetInfo). */
    case HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE:
      *(uint32_t *)value = 64;
      break;
    case HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONTS_PER_COMPUTE_UNIT:
      *(uint32_t *)value = 40;
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
    /* hsa.h says uint32_t, but ROCr writes a uint64_t (Isa::GetInfo) and
     * its rocrinfo reads one: do as ROCr, or such a program reads garbage. */
    case HSA_ISA_INFO_GRID_MAX_SIZE:
      *(uint64_t *)value = UINT64_MAX;
      break;
    case HSA_ISA_INFO_FBARRIER_MAX_SIZE:
      *(uint32_t *)value = 32;
      break;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

/* The index selects a call convention (deprecated): there is one. ROCr
 * refuses any other index, whatever the attribute. */
hsa_status_t hsa_isa_get_info(hsa_isa_t isa, hsa_isa_info_t attribute, uint32_t index,
                              void *value) {
  RETURN_IF_NOT_INITIALIZED();
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (index != 0) return HSA_STATUS_ERROR_INVALID_INDEX;
  return hsa_isa_get_info_alt(isa, attribute, value);
}

/* No exception policy is supported: ROCr answers an empty mask. */
hsa_status_t hsa_isa_get_exception_policies(hsa_isa_t isa, hsa_profile_t profile, uint16_t *mask) {
  RETURN_IF_NOT_INITIALIZED();
  if ((unsigned)profile > HSA_PROFILE_FULL || !mask) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!isa_from_handle(isa)) return HSA_STATUS_ERROR_INVALID_ISA;
  *mask = 0;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_isa_get_round_method(hsa_isa_t isa, hsa_fp_type_t fp_type,
                                      hsa_flush_mode_t flush_mode,
                                      hsa_round_method_t *round_method) {
  RETURN_IF_NOT_INITIALIZED();
  if (!round_method ||
      (fp_type != HSA_FP_TYPE_16 && fp_type != HSA_FP_TYPE_32 && fp_type != HSA_FP_TYPE_64) ||
      (flush_mode != HSA_FLUSH_MODE_FTZ && flush_mode != HSA_FLUSH_MODE_NON_FTZ))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!isa_from_handle(isa)) return HSA_STATUS_ERROR_INVALID_ISA;
  *round_method = HSA_ROUND_METHOD_SINGLE; /* one rounding per operation (IEEE) */
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_isa_compatible(hsa_isa_t code_object_isa, hsa_isa_t agent_isa, bool *result) {
  RETURN_IF_NOT_INITIALIZED();
  if (!result) return HSA_STATUS_ERROR_INVALID_ARGUMENT; /* ROCr checks the pointer first */
  const struct isa *code = isa_from_handle(code_object_isa), *agent = isa_from_handle(agent_isa);
  if (!code || !agent) return HSA_STATUS_ERROR_INVALID_ISA;
  *result = isa_compatible(code, agent);
  return HSA_STATUS_SUCCESS;
}

/* A wavefront handle is the ISA handle with bit 0 set (ISAs are aligned):
 * each ISA has exactly one wavefront size. */
hsa_status_t hsa_isa_iterate_wavefronts(
    hsa_isa_t isa, hsa_status_t (*callback)(hsa_wavefront_t wavefront, void *data), void *data) {
  RETURN_IF_NOT_INITIALIZED();
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!isa_from_handle(isa)) return HSA_STATUS_ERROR_INVALID_ISA;
  hsa_wavefront_t w = {isa.handle | 1};
  return callback(w, data);
}

hsa_status_t hsa_wavefront_get_info(hsa_wavefront_t wavefront, hsa_wavefront_info_t attribute,
                                    void *value) {
  RETURN_IF_NOT_INITIALIZED();
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  hsa_isa_t isa_h = {wavefront.handle & ~(uint64_t)1};
  const struct isa *isa = (wavefront.handle & 1) ? isa_from_handle(isa_h) : NULL;
  if (!isa) return HSA_STATUS_ERROR_INVALID_WAVEFRONT;
  if (attribute != HSA_WAVEFRONT_INFO_SIZE) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *(uint32_t *)value = isa->wavefront_size;
  return HSA_STATUS_SUCCESS;
}
