/* Clang offload bundles: the one HIP device-only compilation made
 * (mk/kernels.mk: gfx902, gfx90c:xnack-, gfx9-generic, code object v6), and
 * bundles the test writes itself from the documented layout to break. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsa/loader/bundle.h"
#include "hsa/loader/loader.h"
#include "lib/test.h"
#include "tests/host/loader_test_util.h"

static uint8_t *read_hip_bundle(size_t *size) {
  char path[512];
  snprintf(path, sizeof path, "%s/bundles/hip_scale.hipfb", LOADER_TEST_KERNELS_DIR);
  return loader_test_read(path, size);
}

/* The target named by the selected code object's e_flags. */
static void expect_pick(const uint8_t *bundle, size_t size, const char *agent,
                        const char *expected_target) {
  const void *code;
  size_t code_size;
  char why[256];
  ASSERT_EQ(loader_bundle_select(bundle, size, "bundle", agent, &code, &code_size, why, sizeof why),
            LOADER_OK);
  struct loader_code_object *co = loader_test_parse(code, code_size, LOADER_OK, why, sizeof why);
  char name[64];
  loader_isa_name(&co->isa, name, sizeof name);
  ASSERT_STR_EQ(name, expected_target);
  ASSERT_EQ(co->version, 6);
  ASSERT_EQ(loader_code_object_check_isa(co, agent, why, sizeof why), LOADER_OK);
  const struct loader_symbol *k = loader_code_object_symbol(co, "hip_scale.kd");
  ASSERT_NOT_NULL(k);
  ASSERT_STR_EQ(k->meta->name, "hip_scale");
  ASSERT_EQ(loader_code_object_load(co, &loader_test_memory, NULL, NULL, why, sizeof why),
            LOADER_OK);
  loader_code_object_destroy(co);
}

TEST(loader_bundle_hip_picks_agent_entry) {
  size_t size;
  uint8_t *bundle = read_hip_bundle(&size);
  ASSERT_TRUE(loader_bundle_is_bundle(bundle, size));
  /* The processor's own entry before the generic one. */
  expect_pick(bundle, size, "amdgcn-amd-amdhsa--gfx902:xnack-", "amdgcn-amd-amdhsa--gfx902");
  expect_pick(bundle, size, "amdgcn-amd-amdhsa--gfx90c:xnack-", "amdgcn-amd-amdhsa--gfx90c:xnack-");
  /* gfx90c with xnack on cannot take the xnack- entry: generic it is. */
  expect_pick(bundle, size, "amdgcn-amd-amdhsa--gfx90c:xnack+", "amdgcn-amd-amdhsa--gfx9-generic");
  expect_pick(bundle, size, "amdgcn-amd-amdhsa--gfx909:xnack-", "amdgcn-amd-amdhsa--gfx9-generic");

  const void *code;
  size_t code_size;
  char why[256];
  ASSERT_EQ(loader_bundle_select(bundle, size, "bundle", "amdgcn-amd-amdhsa--gfx1030", &code,
                                 &code_size, why, sizeof why),
            LOADER_ERROR_INCOMPATIBLE_ISA);
  ASSERT_NOT_NULL(strstr(why, "hipv4-amdgcn-amd-amdhsa--gfx902")); /* lists what it has */
  ASSERT_NULL(code);
  free(bundle);
}

/* ---- Hand-made bundles (layout: ClangOffloadBundler.rst) -------------------- */

struct entry {
  const char *id;
  uint64_t offset, size; /* 0 size: data follows the headers */
};

static size_t make_bundle(uint8_t *out, const struct entry *e, unsigned count, uint64_t claimed,
                          const uint8_t *data, size_t data_size) {
  size_t n = 0;
  memcpy(out, "__CLANG_OFFLOAD_BUNDLE__", 24);
  n = 24;
  put64(out, n, claimed);
  n += 8;
  size_t headers = n;
  for (unsigned i = 0; i < count; i++) headers += 24 + strlen(e[i].id);
  for (unsigned i = 0; i < count; i++) {
    put64(out, n, e[i].size ? e[i].offset : headers);
    put64(out, n + 8, e[i].size ? e[i].size : data_size);
    put64(out, n + 16, strlen(e[i].id));
    memcpy(out + n + 24, e[i].id, strlen(e[i].id));
    n += 24 + strlen(e[i].id);
  }
  memcpy(out + n, data, data_size);
  return n + data_size;
}

TEST(loader_bundle_malformed_refused) {
  size_t payload_size;
  uint8_t *payload = loader_test_read_corpus("vector_add", "O2", 5, &payload_size);
  uint8_t *buf = malloc(payload_size + 1024);
  const void *code;
  size_t code_size;
  char why[256];
  const char *agent = "amdgcn-amd-amdhsa--gfx902:xnack-";

  struct entry good[] = {{"host-x86_64-unknown-linux-gnu-", 0, 0},
                         {"hipv4-amdgcn-amd-amdhsa--gfx902", 0, 0}};
  size_t n = make_bundle(buf, good, 2, 2, payload, payload_size);
  ASSERT_EQ(loader_bundle_select(buf, n, "b", agent, &code, &code_size, why, sizeof why),
            LOADER_OK);
  ASSERT_EQ(code_size, payload_size);
  ASSERT_MEM_EQ(code, payload, payload_size);
  for (size_t cut = 0; cut < n - payload_size; cut++) /* headers cut short */
    ASSERT_NE(loader_bundle_select(buf, cut, "b", agent, &code, &code_size, why, sizeof why),
              LOADER_OK);

  n = make_bundle(buf, good, 2, 1u << 30, payload, payload_size);
  ASSERT_EQ(loader_bundle_select(buf, n, "b", agent, &code, &code_size, why, sizeof why),
            LOADER_ERROR_INVALID_CODE_OBJECT);
  ASSERT_NOT_NULL(strstr(why, "claims"));

  struct entry outside[] = {{"hipv4-amdgcn-amd-amdhsa--gfx902", 1u << 20, 64}};
  n = make_bundle(buf, outside, 1, 1, payload, payload_size);
  ASSERT_EQ(loader_bundle_select(buf, n, "b", agent, &code, &code_size, why, sizeof why),
            LOADER_ERROR_INVALID_CODE_OBJECT);
  ASSERT_NOT_NULL(strstr(why, "outside"));

  struct entry wrapping[] = {{"hipv4-amdgcn-amd-amdhsa--gfx902", 40, ~0ull - 20}};
  n = make_bundle(buf, wrapping, 1, 1, payload, payload_size);
  ASSERT_EQ(loader_bundle_select(buf, n, "b", agent, &code, &code_size, why, sizeof why),
            LOADER_ERROR_INVALID_CODE_OBJECT);

  /* Entries for other kinds, triples and processors are not candidates. */
  struct entry others[] = {{"openmp-x86_64-unknown-linux-gnu", 0, 0},
                           {"hipv4-amdgcn-amd-amdhsa--gfx90c", 0, 0},
                           {"cuda-nvptx64-nvidia-cuda--sm_70", 0, 0},
                           {"hipv4-amdgcn-amd-amdpal--gfx902", 0, 0}};
  n = make_bundle(buf, others, 4, 4, payload, payload_size);
  ASSERT_EQ(loader_bundle_select(buf, n, "b", agent, &code, &code_size, why, sizeof why),
            LOADER_ERROR_INCOMPATIBLE_ISA);

  /* The entry's ELF header decides: an ID that claims gfx902 for gfx90c code,
   * or an entry that is no ELF at all, is not a candidate. */
  put32(payload, 48, 0x132); /* e_flags: gfx90c */
  n = make_bundle(buf, good, 2, 2, payload, payload_size);
  ASSERT_EQ(loader_bundle_select(buf, n, "b", agent, &code, &code_size, why, sizeof why),
            LOADER_ERROR_INCOMPATIBLE_ISA);
  payload[0] = 0;
  n = make_bundle(buf, good, 2, 2, payload, payload_size);
  ASSERT_EQ(loader_bundle_select(buf, n, "b", agent, &code, &code_size, why, sizeof why),
            LOADER_ERROR_INCOMPATIBLE_ISA);

  memcpy(buf, "CCOB", 4);
  ASSERT_EQ(loader_bundle_select(buf, n, "b", agent, &code, &code_size, why, sizeof why),
            LOADER_ERROR_INVALID_CODE_OBJECT);
  ASSERT_NOT_NULL(strstr(why, "compressed"));
  ASSERT_FALSE(loader_bundle_is_bundle(buf, n));
  free(buf);
  free(payload);
}
