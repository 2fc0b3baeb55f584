/* target_id.c - AMDGPU processors, target IDs and code object compatibility. */
#include "hsa/loader/target_id.h"

#include <stdio.h>
#include <string.h>

#include "hsa/loader/elf_format.h"
#include "lib/util.h"

#define TRIPLE_PREFIX "amdgcn-amd-amdhsa--"

struct processor {
  uint32_t mach;
  const char *name;
  bool has_xnack, has_sramecc;
  uint32_t generic_family; /* EF_AMDGPU_MACH of the generic target, 0 if none */
};

/* EF_AMDGPU_MACH values: AMDGPUUsage "AMDGPU EF_AMDGPU_MACH Values".
 * Feature support: AMDGPUUsage "AMDGPU Processors" (Target Features
 * Supported column). Generic families: AMDGPUUsage "AMDGPU Generic
 * Processors" (Supported Processors column); every member so far joined its
 * family at generic version 1 ("Generic Processor Versioning"). */
enum {
  MACH_GFX9_GENERIC = 0x051,
  MACH_GFX10_1_GENERIC = 0x052,
  MACH_GFX10_3_GENERIC = 0x053,
  MACH_GFX11_GENERIC = 0x054,
  MACH_GFX12_GENERIC = 0x059,
  MACH_GFX9_4_GENERIC = 0x05f,
};
#define MIN_GENERIC_VERSION 1

static const struct processor processors[] = {
    {0x020, "gfx600", false, false, 0},
    {0x021, "gfx601", false, false, 0},
    {0x03a, "gfx602", false, false, 0},
    {0x022, "gfx700", false, false, 0},
    {0x023, "gfx701", false, false, 0},
    {0x024, "gfx702", false, false, 0},
    {0x025, "gfx703", false, false, 0},
    {0x026, "gfx704", false, false, 0},
    {0x03b, "gfx705", false, false, 0},
    {0x028, "gfx801", true, false, 0},
    {0x029, "gfx802", false, false, 0},
    {0x02a, "gfx803", false, false, 0},
    {0x03c, "gfx805", false, false, 0},
    {0x02b, "gfx810", true, false, 0},
    {0x02c, "gfx900", true, false, MACH_GFX9_GENERIC},
    {0x02d, "gfx902", true, false, MACH_GFX9_GENERIC},
    {0x02e, "gfx904", true, false, MACH_GFX9_GENERIC},
    {0x02f, "gfx906", true, true, MACH_GFX9_GENERIC},
    {0x030, "gfx908", true, true, 0},
    {0x031, "gfx909", true, false, MACH_GFX9_GENERIC},
    {0x032, "gfx90c", true, false, MACH_GFX9_GENERIC},
    {0x03f, "gfx90a", true, true, 0},
    {0x040, "gfx940", true, true, MACH_GFX9_4_GENERIC},
    {0x04b, "gfx941", true, true, MACH_GFX9_4_GENERIC},
    {0x04c, "gfx942", true, true, MACH_GFX9_4_GENERIC},
    {0x04f, "gfx950", true, true, MACH_GFX9_4_GENERIC},
    {0x033, "gfx1010", true, false, MACH_GFX10_1_GENERIC},
    {0x034, "gfx1011", true, false, MACH_GFX10_1_GENERIC},
    {0x035, "gfx1012", true, false, MACH_GFX10_1_GENERIC},
    {0x042, "gfx1013", true, false, MACH_GFX10_1_GENERIC},
    {0x036, "gfx1030", false, false, MACH_GFX10_3_GENERIC},
    {0x037, "gfx1031", false, false, MACH_GFX10_3_GENERIC},
    {0x038, "gfx1032", false, false, MACH_GFX10_3_GENERIC},
    {0x039, "gfx1033", false, false, MACH_GFX10_3_GENERIC},
    {0x03e, "gfx1034", false, false, MACH_GFX10_3_GENERIC},
    {0x03d, "gfx1035", false, false, MACH_GFX10_3_GENERIC},
    {0x045, "gfx1036", false, false, MACH_GFX10_3_GENERIC},
    {0x041, "gfx1100", false, false, MACH_GFX11_GENERIC},
    {0x046, "gfx1101", false, false, MACH_GFX11_GENERIC},
    {0x047, "gfx1102", false, false, MACH_GFX11_GENERIC},
    {0x044, "gfx1103", false, false, MACH_GFX11_GENERIC},
    {0x043, "gfx1150", false, false, MACH_GFX11_GENERIC},
    {0x04a, "gfx1151", false, false, MACH_GFX11_GENERIC},
    {0x055, "gfx1152", false, false, MACH_GFX11_GENERIC},
    {0x058, "gfx1153", false, false, MACH_GFX11_GENERIC},
    {0x048, "gfx1200", false, false, MACH_GFX12_GENERIC},
    {0x04e, "gfx1201", false, false, MACH_GFX12_GENERIC},
    /* The generic targets themselves. */
    {MACH_GFX9_GENERIC, "gfx9-generic", true, false, 0},
    {MACH_GFX9_4_GENERIC, "gfx9-4-generic", true, true, 0},
    {MACH_GFX10_1_GENERIC, "gfx10-1-generic", true, false, 0},
    {MACH_GFX10_3_GENERIC, "gfx10-3-generic", false, false, 0},
    {MACH_GFX11_GENERIC, "gfx11-generic", false, false, 0},
    {MACH_GFX12_GENERIC, "gfx12-generic", false, false, 0},
};

static const struct processor *processor_by_mach(uint32_t mach) {
  for (size_t i = 0; i < countof(processors); i++)
    if (processors[i].mach == mach) return &processors[i];
  return NULL;
}

static const struct processor *processor_by_name(const char *name, size_t len) {
  for (size_t i = 0; i < countof(processors); i++)
    if (strlen(processors[i].name) == len && memcmp(processors[i].name, name, len) == 0)
      return &processors[i];
  return NULL;
}

const char *loader_isa_mach_name(uint32_t mach) {
  const struct processor *p = processor_by_mach(mach);
  return p ? p->name : NULL;
}

bool loader_isa_mach_is_generic(uint32_t mach) {
  const struct processor *p = processor_by_mach(mach);
  return p && strstr(p->name, "-generic") != NULL;
}

/* e_flags feature field (AMDGPUUsage e_flags table for V4 and after). */
static enum loader_feature feature_from_flags(uint32_t field, uint32_t any, uint32_t off,
                                              uint32_t on) {
  if (field == on) return LOADER_FEATURE_ON;
  if (field == off) return LOADER_FEATURE_OFF;
  if (field == any) return LOADER_FEATURE_ANY;
  return LOADER_FEATURE_UNSUPPORTED;
}

bool loader_isa_from_elf(uint32_t e_flags, uint8_t abi_version, struct loader_isa *isa, char *why,
                         size_t why_size) {
  uint32_t mach = e_flags & EF_AMDGPU_MACH;
  const struct processor *p = processor_by_mach(mach);
  if (!p) {
    snprintf(why, why_size, "unknown processor EF_AMDGPU_MACH 0x%03x in e_flags 0x%x", mach,
             e_flags);
    return false;
  }
  isa->mach = mach;
  isa->xnack =
      feature_from_flags(e_flags & EF_AMDGPU_FEATURE_XNACK_V4, EF_AMDGPU_FEATURE_XNACK_ANY_V4,
                         EF_AMDGPU_FEATURE_XNACK_OFF_V4, EF_AMDGPU_FEATURE_XNACK_ON_V4);
  isa->sramecc =
      feature_from_flags(e_flags & EF_AMDGPU_FEATURE_SRAMECC_V4, EF_AMDGPU_FEATURE_SRAMECC_ANY_V4,
                         EF_AMDGPU_FEATURE_SRAMECC_OFF_V4, EF_AMDGPU_FEATURE_SRAMECC_ON_V4);
  /* The generic version byte exists from v6 on (AMDGPUUsage e_flags V6 table). */
  isa->generic_version =
      abi_version >= ELF_ABIVERSION_AMDGPU_HSA_V6
          ? (e_flags & EF_AMDGPU_GENERIC_VERSION) >> EF_AMDGPU_GENERIC_VERSION_SHIFT
          : 0;
  bool generic = loader_isa_mach_is_generic(mach);
  if (generic && isa->generic_version == 0) {
    snprintf(why, why_size, "generic target %s without a generic version (e_flags 0x%x)", p->name,
             e_flags);
    return false;
  }
  if (!generic && isa->generic_version != 0) {
    snprintf(why, why_size, "generic version %u on non-generic target %s (e_flags 0x%x)",
             isa->generic_version, p->name, e_flags);
    return false;
  }
  if ((isa->xnack != LOADER_FEATURE_UNSUPPORTED && !p->has_xnack) ||
      (isa->sramecc != LOADER_FEATURE_UNSUPPORTED && !p->has_sramecc)) {
    snprintf(why, why_size, "e_flags 0x%x selects a feature %s does not have", e_flags, p->name);
    return false;
  }
  return true;
}

bool loader_isa_from_name(const char *name, struct loader_isa *isa) {
  size_t prefix = strlen(TRIPLE_PREFIX);
  if (strncmp(name, TRIPLE_PREFIX, prefix) == 0) name += prefix;
  size_t len = strcspn(name, ":");
  const struct processor *p = processor_by_name(name, len);
  if (!p) return false;
  isa->mach = p->mach;
  isa->xnack = p->has_xnack ? LOADER_FEATURE_ANY : LOADER_FEATURE_UNSUPPORTED;
  isa->sramecc = p->has_sramecc ? LOADER_FEATURE_ANY : LOADER_FEATURE_UNSUPPORTED;
  isa->generic_version = 0;
  for (const char *f = name + len; *f == ':';) {
    f++;
    size_t n = strcspn(f, ":");
    if (n < 2 || (f[n - 1] != '+' && f[n - 1] != '-')) return false;
    enum loader_feature state = f[n - 1] == '+' ? LOADER_FEATURE_ON : LOADER_FEATURE_OFF;
    if (n - 1 == 5 && memcmp(f, "xnack", 5) == 0 && p->has_xnack)
      isa->xnack = state;
    else if (n - 1 == 7 && memcmp(f, "sramecc", 7) == 0 && p->has_sramecc)
      isa->sramecc = state;
    else
      return false;
    f += n;
  }
  return true;
}

static const char *feature_suffix(enum loader_feature f) {
  return f == LOADER_FEATURE_ON ? "+" : f == LOADER_FEATURE_OFF ? "-" : NULL;
}

void loader_isa_name(const struct loader_isa *isa, char *buf, size_t size) {
  const char *name = loader_isa_mach_name(isa->mach);
  const char *s = feature_suffix(isa->sramecc), *x = feature_suffix(isa->xnack);
  snprintf(buf, size, TRIPLE_PREFIX "%s%s%s%s%s", name ? name : "unknown", s ? ":sramecc" : "",
           s ? s : "", x ? ":xnack" : "", x ? x : "");
}

/* A code object that asks for a feature ON or OFF needs the agent to be in
 * that state; ANY runs either way (ROCr Isa::IsCompatible). */
static bool feature_compatible(enum loader_feature code, enum loader_feature agent) {
  if (code == LOADER_FEATURE_ON || code == LOADER_FEATURE_OFF) return code == agent;
  return true;
}

bool loader_isa_compatible(const struct loader_isa *code, const struct loader_isa *agent, char *why,
                           size_t why_size) {
  char code_name[64], agent_name[64];
  loader_isa_name(code, code_name, sizeof code_name);
  loader_isa_name(agent, agent_name, sizeof agent_name);

  if (loader_isa_mach_is_generic(code->mach)) {
    const struct processor *a = processor_by_mach(agent->mach);
    if (!a || a->generic_family != code->mach) {
      snprintf(why, why_size, "code object target %s does not cover agent %s", code_name,
               agent_name);
      return false;
    }
    if (code->generic_version < MIN_GENERIC_VERSION) {
      snprintf(why, why_size, "code object %s generic version %u is older than %u, required by %s",
               code_name, code->generic_version, MIN_GENERIC_VERSION, agent_name);
      return false;
    }
  } else if (code->mach != agent->mach) {
    snprintf(why, why_size, "code object is for %s, agent is %s", code_name, agent_name);
    return false;
  }
  if (!feature_compatible(code->sramecc, agent->sramecc)) {
    snprintf(why, why_size, "code object %s needs a different sramecc setting than agent %s",
             code_name, agent_name);
    return false;
  }
  if (!feature_compatible(code->xnack, agent->xnack)) {
    snprintf(why, why_size, "code object %s needs a different xnack setting than agent %s",
             code_name, agent_name);
    return false;
  }
  return true;
}
