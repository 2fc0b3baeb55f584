/* Target identification and the compatibility rules a loader applies
 * (AMDGPUUsage e_flags tables, "Target ID", "Generic Processors"; ROCr
 * Isa::IsCompatible). */
#include <string.h>

#include "hsa/loader/elf_format.h"
#include "hsa/loader/target_id.h"
#include "lib/test.h"

static struct loader_isa from_elf(uint32_t flags, uint8_t abi) {
  struct loader_isa isa;
  char why[160];
  if (!loader_isa_from_elf(flags, abi, &isa, why, sizeof why))
    FAIL("e_flags 0x%x refused: %s", flags, why);
  return isa;
}

static struct loader_isa named(const char *name) {
  struct loader_isa isa;
  if (!loader_isa_from_name(name, &isa)) FAIL("%s refused", name);
  return isa;
}

static bool compatible(struct loader_isa code, const char *agent) {
  char why[200];
  struct loader_isa a = named(agent);
  return loader_isa_compatible(&code, &a, why, sizeof why);
}

TEST(loader_isa_decodes_e_flags) {
  struct loader_isa isa = from_elf(0x12d, ELF_ABIVERSION_AMDGPU_HSA_V5); /* clang's gfx902 */
  ASSERT_STR_EQ(loader_isa_mach_name(isa.mach), "gfx902");
  ASSERT_EQ(isa.xnack, LOADER_FEATURE_ANY);
  ASSERT_EQ(isa.sramecc, LOADER_FEATURE_UNSUPPORTED);
  ASSERT_EQ(from_elf(0x22d, ELF_ABIVERSION_AMDGPU_HSA_V4).xnack, LOADER_FEATURE_OFF);
  ASSERT_EQ(from_elf(0x32d, ELF_ABIVERSION_AMDGPU_HSA_V4).xnack, LOADER_FEATURE_ON);
  isa = from_elf(0x03f | EF_AMDGPU_FEATURE_SRAMECC_ON_V4, ELF_ABIVERSION_AMDGPU_HSA_V5);
  ASSERT_STR_EQ(loader_isa_mach_name(isa.mach), "gfx90a");
  ASSERT_EQ(isa.sramecc, LOADER_FEATURE_ON);
  isa = from_elf(0x01000151, ELF_ABIVERSION_AMDGPU_HSA_V6); /* gfx9-generic, version 1 */
  ASSERT_TRUE(loader_isa_mach_is_generic(isa.mach));
  ASSERT_EQ(isa.generic_version, 1);

  struct loader_isa out;
  char why[160];
  ASSERT_FALSE(loader_isa_from_elf(0x0ff, ELF_ABIVERSION_AMDGPU_HSA_V5, &out, why, sizeof why));
  ASSERT_NOT_NULL(strstr(why, "unknown processor"));
  ASSERT_FALSE(loader_isa_from_elf(0x151, ELF_ABIVERSION_AMDGPU_HSA_V6, &out, why, sizeof why));
  ASSERT_FALSE(loader_isa_from_elf(0x12d | EF_AMDGPU_FEATURE_SRAMECC_ANY_V4,
                                   ELF_ABIVERSION_AMDGPU_HSA_V5, &out, why, sizeof why));
  ASSERT_FALSE(loader_isa_from_elf(0x136 | 0x300, ELF_ABIVERSION_AMDGPU_HSA_V5, &out, why,
                                   sizeof why)); /* gfx1030 has no xnack */
}

TEST(loader_isa_names_round_trip) {
  struct loader_isa isa = named("amdgcn-amd-amdhsa--gfx902:xnack-");
  ASSERT_EQ(isa.xnack, LOADER_FEATURE_OFF);
  char buf[64];
  loader_isa_name(&isa, buf, sizeof buf);
  ASSERT_STR_EQ(buf, "amdgcn-amd-amdhsa--gfx902:xnack-");
  isa = named("gfx90a:sramecc+:xnack-");
  loader_isa_name(&isa, buf, sizeof buf);
  ASSERT_STR_EQ(buf, "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-");
  ASSERT_EQ(named("gfx902").xnack, LOADER_FEATURE_ANY);
  ASSERT_EQ(named("gfx1036").xnack, LOADER_FEATURE_UNSUPPORTED);
  struct loader_isa out;
  ASSERT_FALSE(loader_isa_from_name("gfx9999", &out));
  ASSERT_FALSE(loader_isa_from_name("gfx902:sramecc+", &out)); /* gfx902 has no sramecc */
  ASSERT_FALSE(loader_isa_from_name("gfx1030:xnack+", &out));
  ASSERT_FALSE(loader_isa_from_name("gfx902:xnack", &out));
  ASSERT_FALSE(loader_isa_from_name("gfx902:", &out));
  ASSERT_FALSE(loader_isa_from_name("", &out));
}

TEST(loader_isa_compatibility_rules) {
  struct loader_isa any = from_elf(0x12d, ELF_ABIVERSION_AMDGPU_HSA_V5);
  struct loader_isa off = from_elf(0x22d, ELF_ABIVERSION_AMDGPU_HSA_V5);
  struct loader_isa on = from_elf(0x32d, ELF_ABIVERSION_AMDGPU_HSA_V5);
  ASSERT_TRUE(compatible(any, "gfx902:xnack-"));
  ASSERT_TRUE(compatible(any, "gfx902:xnack+"));
  ASSERT_TRUE(compatible(off, "gfx902:xnack-"));
  ASSERT_FALSE(compatible(off, "gfx902:xnack+"));
  ASSERT_TRUE(compatible(on, "gfx902:xnack+"));
  ASSERT_FALSE(compatible(on, "gfx902:xnack-"));
  ASSERT_FALSE(compatible(any, "gfx90c:xnack-")); /* another processor, same family */
  ASSERT_FALSE(compatible(any, "gfx900:xnack-"));

  struct loader_isa srm =
      from_elf(0x02f | EF_AMDGPU_FEATURE_SRAMECC_OFF_V4, ELF_ABIVERSION_AMDGPU_HSA_V5);
  ASSERT_TRUE(compatible(srm, "gfx906:sramecc-:xnack-"));
  ASSERT_FALSE(compatible(srm, "gfx906:sramecc+:xnack-"));

  /* gfx9-generic runs on the gfx9 APUs and dGPUs it lists, not on others. */
  struct loader_isa gen = from_elf(0x01000151, ELF_ABIVERSION_AMDGPU_HSA_V6);
  ASSERT_TRUE(compatible(gen, "gfx902:xnack-"));
  ASSERT_TRUE(compatible(gen, "gfx90c:xnack+"));
  ASSERT_TRUE(compatible(gen, "gfx909:xnack-"));
  ASSERT_FALSE(compatible(gen, "gfx908:sramecc-:xnack-"));
  ASSERT_FALSE(compatible(gen, "gfx1030"));
  struct loader_isa gen_off = from_elf(0x01000251, ELF_ABIVERSION_AMDGPU_HSA_V6);
  ASSERT_FALSE(compatible(gen_off, "gfx902:xnack+"));
  struct loader_isa gen_v0 = named("gfx9-generic"); /* no version: too old for anything */
  ASSERT_FALSE(compatible(gen_v0, "gfx902:xnack-"));
}
