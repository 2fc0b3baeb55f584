/* The deprecated HSA 1.0 code object path (deserialize, get_info, code
 * symbols, hsa_executable_load_code_object), as LLVM's older offload plugin
 * drives it, on a clang-built code object. */
#include <hsa/hsa.h>
#include <stdlib.h>
#include <string.h>

#include "hsa/agent.h"
#include "hsa/runtime.h"
#include "lib/test.h"
#include "tests/host/loader_test_util.h"

static hsa_status_t count(hsa_code_object_t co, hsa_code_symbol_t sym, void *data) {
  (void)co, (void)sym;
  ++*(int *)data;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t host_alloc(size_t size, hsa_callback_data_t data, void **address) {
  (void)data;
  *address = malloc(size);
  return *address ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

/* The corpus's global_vars code object, deserialized; `size` its bytes. */
static hsa_code_object_t global_vars_deserialized(size_t *size) {
  uint8_t *image = loader_test_read_corpus("global_vars", "O2", 4, size);
  hsa_code_object_t co;
  ASSERT_EQ(hsa_code_object_deserialize(image, *size, NULL, &co), HSA_STATUS_SUCCESS);
  memset(image, 0, *size); /* deserialize kept its own copy */
  free(image);
  return co;
}

TEST(loader_code_object_v1_deserialize_and_symbols) {
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  size_t size;
  hsa_code_object_t co = global_vars_deserialized(&size);

  char version[64];
  ASSERT_EQ(hsa_code_object_get_info(co, HSA_CODE_OBJECT_INFO_VERSION, version),
            HSA_STATUS_SUCCESS);
  ASSERT_STR_EQ(version, "4.0");
  hsa_isa_t isa;
  ASSERT_EQ(hsa_code_object_get_info(co, HSA_CODE_OBJECT_INFO_ISA, &isa), HSA_STATUS_SUCCESS);
  char isa_name[64] = "";
  ASSERT_EQ(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, isa_name), HSA_STATUS_SUCCESS);
  ASSERT_STR_EQ(isa_name, "amdgcn-amd-amdhsa--gfx902");

  int n = 0;
  ASSERT_EQ(hsa_code_object_iterate_symbols(co, count, &n), HSA_STATUS_SUCCESS);
  ASSERT_EQ(n, 5); /* global_vars.kd, table, scale, bias, bias_ptr */
  hsa_code_symbol_t sym;
  ASSERT_EQ(hsa_code_object_get_symbol(co, "global_vars.kd", &sym), HSA_STATUS_SUCCESS);
  hsa_symbol_kind_t kind;
  uint32_t kernarg_size, wave;
  ASSERT_EQ(hsa_code_symbol_get_info(sym, HSA_CODE_SYMBOL_INFO_TYPE, &kind), HSA_STATUS_SUCCESS);
  ASSERT_EQ(kind, HSA_SYMBOL_KIND_KERNEL);
  ASSERT_EQ(hsa_code_symbol_get_info(sym, HSA_CODE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE,
                                     &kernarg_size),
            HSA_STATUS_SUCCESS);
  ASSERT_GE(kernarg_size, 8);
  ASSERT_EQ(hsa_code_symbol_get_info(sym, HSA_CODE_SYMBOL_INFO_KERNEL_WAVEFRONT_SIZE, &wave),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(wave, 64);
  ASSERT_EQ(hsa_code_object_get_symbol(co, "table", &sym), HSA_STATUS_SUCCESS);
  uint32_t var_size;
  ASSERT_EQ(hsa_code_symbol_get_info(sym, HSA_CODE_SYMBOL_INFO_VARIABLE_SIZE, &var_size),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(var_size, 16);
  ASSERT_EQ(hsa_code_symbol_get_info(sym, HSA_CODE_SYMBOL_INFO_KERNEL_WAVEFRONT_SIZE, &wave),
            HSA_STATUS_ERROR_INVALID_ARGUMENT); /* not a kernel */
  ASSERT_EQ(hsa_code_object_get_symbol(co, "nope", &sym), HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);
  hsa_code_symbol_t forged = {sym.handle + 1};
  ASSERT_EQ(hsa_code_symbol_get_info(forged, HSA_CODE_SYMBOL_INFO_TYPE, &kind),
            HSA_STATUS_ERROR_INVALID_CODE_SYMBOL);

  void *copy;
  size_t copy_size;
  ASSERT_EQ(
      hsa_code_object_serialize(co, host_alloc, (hsa_callback_data_t){0}, NULL, &copy, &copy_size),
      HSA_STATUS_SUCCESS);
  ASSERT_EQ(copy_size, size);
  ASSERT_EQ(((uint8_t *)copy)[18], 224); /* e_machine EM_AMDGPU */
  free(copy);

  /* Loading needs an agent with this ISA: a CPU agent has none. */
  hsa_executable_t exec;
  ASSERT_EQ(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                      NULL, &exec),
            HSA_STATUS_SUCCESS);
  hsa_agent_t cpu = agent_handle(agent_at(0));
  ASSERT_NE(hsa_executable_load_code_object(exec, cpu, co, NULL), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_executable_destroy(exec), HSA_STATUS_SUCCESS);

  ASSERT_EQ(hsa_code_object_destroy(co), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_code_object_destroy(co), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  uint8_t junk[64] = {0x7f, 'E', 'L', 'F'};
  ASSERT_EQ(hsa_code_object_deserialize(junk, sizeof junk, NULL, &co),
            HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

TEST(loader_code_object_v1_left_to_shut_down_is_destroyed) {
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  size_t size;
  hsa_code_object_t co = global_vars_deserialized(&size);
  while (hsa_shut_down() == HSA_STATUS_SUCCESS) {
  }
  ASSERT_EQ(object_set_count(&rt.code_objects), 0);
  /* The next runtime starts without it: the old handle names nothing. */
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  char version[64];
  ASSERT_EQ(hsa_code_object_get_info(co, HSA_CODE_OBJECT_INFO_VERSION, version),
            HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
}
