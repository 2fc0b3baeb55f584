/*
 * hsa_executable_test.c - code object readers, executables and symbols:
 * states, variables defined by the program, iteration, the CPU-agent side
 * of loading, and every handle error. (GPU code objects through the loader
 * are tested by the loader's suites.)
 */
#include <string.h>

#include "tests/common/hsa_test_util.h"

HSA_CPU_KERNEL(exec_test_kernel, 24) { (void)hsa_dispatch; }

struct walk {
  int kernels, variables;
  bool found_ours;
};

static hsa_status_t visit_agent_symbol(hsa_executable_t e, hsa_agent_t a, hsa_executable_symbol_t s,
                                       void *data) {
  (void)e, (void)a;
  struct walk *w = data;
  hsa_symbol_kind_t kind;
  if (hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind) !=
      HSA_STATUS_SUCCESS)
    return HSA_STATUS_ERROR;
  char name[64] = {0};
  uint32_t len = 0;
  hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH, &len);
  if (len < sizeof name) hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_NAME, name);
  if (strcmp(name, "exec_test_kernel") == 0) w->found_ours = true;
  if (kind == HSA_SYMBOL_KIND_KERNEL)
    w->kernels++;
  else
    w->variables++;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t visit_program_symbol(hsa_executable_t e, hsa_executable_symbol_t s,
                                         void *data) {
  (void)e, (void)s;
  ++*(int *)data;
  return HSA_STATUS_SUCCESS;
}

TEST(hsa_executable_lifecycle_variables_and_iteration) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t cpu;
  hsa_test_cpu_agents(&cpu, 1);
  hsa_executable_t exec;
  ASSERT_EQ(hsa_executable_create_alt(HSA_PROFILE_FULL, (hsa_default_float_rounding_mode_t)7, NULL,
                                      &exec),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(
      hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR, NULL, NULL),
      HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_executable_create_alt(HSA_PROFILE_BASE, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR,
                                          NULL, &exec));
  hsa_profile_t profile;
  hsa_executable_state_t state;
  hsa_default_float_rounding_mode_t rounding;
  HSA_ASSERT_OK(hsa_executable_get_info(exec, HSA_EXECUTABLE_INFO_PROFILE, &profile));
  HSA_ASSERT_OK(hsa_executable_get_info(exec, HSA_EXECUTABLE_INFO_STATE, &state));
  HSA_ASSERT_OK(
      hsa_executable_get_info(exec, HSA_EXECUTABLE_INFO_DEFAULT_FLOAT_ROUNDING_MODE, &rounding));
  ASSERT_EQ(profile, HSA_PROFILE_BASE);
  ASSERT_EQ(state, HSA_EXECUTABLE_STATE_UNFROZEN);
  ASSERT_EQ(rounding, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR);
  /* Variables the program defines for the code objects it will load. */
  static int global_var, agent_var;
  static const int readonly_var = 5;
  HSA_ASSERT_OK(hsa_executable_global_variable_define(exec, "global_var", &global_var));
  ASSERT_EQ(hsa_executable_global_variable_define(exec, "global_var", &global_var),
            HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED);
  HSA_ASSERT_OK(hsa_executable_agent_global_variable_define(exec, cpu, "agent_var", &agent_var));
  HSA_ASSERT_OK(
      hsa_executable_readonly_variable_define(exec, cpu, "readonly_var", (void *)&readonly_var));
  ASSERT_EQ(hsa_executable_global_variable_define(exec, NULL, &global_var),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_agent_t bad_agent = {0x3};
  ASSERT_EQ(hsa_executable_agent_global_variable_define(exec, bad_agent, "x", &agent_var),
            HSA_STATUS_ERROR_INVALID_AGENT);
  uint32_t result = 1;
  HSA_ASSERT_OK(hsa_executable_validate(exec, &result));
  ASSERT_EQ(result, 0);
  HSA_ASSERT_OK(hsa_executable_freeze(exec, NULL));
  ASSERT_EQ(hsa_executable_global_variable_define(exec, "late", &global_var),
            HSA_STATUS_ERROR_FROZEN_EXECUTABLE);
  HSA_ASSERT_OK(hsa_executable_get_info(exec, HSA_EXECUTABLE_INFO_STATE, &state));
  ASSERT_EQ(state, HSA_EXECUTABLE_STATE_FROZEN);
  /* Lookup: program variables by name with or without an agent. */
  hsa_executable_symbol_t sym;
  HSA_ASSERT_OK(hsa_executable_get_symbol_by_name(exec, "global_var", NULL, &sym));
  uint64_t address;
  HSA_ASSERT_OK(
      hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &address));
  ASSERT_EQ(address, (uint64_t)(uintptr_t)&global_var);
  hsa_variable_allocation_t alloc;
  HSA_ASSERT_OK(
      hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALLOCATION, &alloc));
  ASSERT_EQ(alloc, HSA_VARIABLE_ALLOCATION_PROGRAM);
  hsa_agent_t owner;
  ASSERT_EQ(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_AGENT, &owner),
            HSA_STATUS_ERROR_INVALID_ARGUMENT); /* program symbol: no agent */
  HSA_ASSERT_OK(hsa_executable_get_symbol_by_name(exec, "readonly_var", &cpu, &sym));
  bool is_const = false;
  HSA_ASSERT_OK(
      hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_IS_CONST, &is_const));
  ASSERT_TRUE(is_const);
  ASSERT_EQ(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &address),
            HSA_STATUS_ERROR_INVALID_ARGUMENT); /* not a kernel */
  HSA_ASSERT_OK(hsa_executable_get_symbol(exec, NULL, "exec_test_kernel", cpu, 0, &sym));
  uint32_t kernarg;
  HSA_ASSERT_OK(hsa_executable_symbol_get_info(
      sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &kernarg));
  ASSERT_EQ(kernarg, 24);
  /* Iteration: the agent's kernels and variables; the program's variables. */
  struct walk w = {0, 0, false};
  HSA_ASSERT_OK(hsa_executable_iterate_agent_symbols(exec, cpu, visit_agent_symbol, &w));
  ASSERT_TRUE(w.found_ours);
  ASSERT_GE(w.kernels, 1);
  ASSERT_EQ(w.variables, 2);
  int program_symbols = 0;
  HSA_ASSERT_OK(
      hsa_executable_iterate_program_symbols(exec, visit_program_symbol, &program_symbols));
  ASSERT_EQ(program_symbols, 1);
  int all = 0;
  HSA_ASSERT_OK(hsa_executable_iterate_symbols(exec, visit_program_symbol, &all));
  ASSERT_GE(all, w.kernels + 3);
  ASSERT_EQ(hsa_executable_iterate_agent_symbols(exec, bad_agent, visit_agent_symbol, &w),
            HSA_STATUS_ERROR_INVALID_AGENT);
  HSA_ASSERT_OK(hsa_executable_destroy(exec));
  ASSERT_EQ(hsa_executable_get_info(exec, HSA_EXECUTABLE_INFO_STATE, &state),
            HSA_STATUS_ERROR_INVALID_EXECUTABLE);
  ASSERT_EQ(hsa_executable_freeze(exec, NULL), HSA_STATUS_ERROR_INVALID_EXECUTABLE);
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_executable_readers_and_loading_errors) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t cpu;
  hsa_test_cpu_agents(&cpu, 1);
  static const char not_elf[] = "this is not an ELF code object, just bytes";
  hsa_code_object_reader_t reader;
  ASSERT_EQ(hsa_code_object_reader_create_from_memory(NULL, 10, &reader),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_code_object_reader_create_from_memory(not_elf, 0, &reader),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_code_object_reader_create_from_memory(not_elf, sizeof not_elf, &reader));
  hsa_executable_t exec;
  HSA_ASSERT_OK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                          NULL, &exec));
  /* A CPU agent loads the CPU part of a tools/hsacc file: not these bytes. */
  ASSERT_EQ(hsa_executable_load_agent_code_object(exec, cpu, reader, NULL, NULL),
            HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  /* The program-wide load goes to the loader, which refuses these bytes. */
  ASSERT_NE(hsa_executable_load_program_code_object(exec, reader, NULL, NULL), HSA_STATUS_SUCCESS);
  hsa_agent_t bad_agent = {0x3};
  ASSERT_EQ(hsa_executable_load_agent_code_object(exec, bad_agent, reader, NULL, NULL),
            HSA_STATUS_ERROR_INVALID_AGENT);
  hsa_code_object_reader_t bad_reader = {0x7};
  ASSERT_EQ(hsa_executable_load_program_code_object(exec, bad_reader, NULL, NULL),
            HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER);
  HSA_ASSERT_OK(hsa_executable_freeze(exec, NULL));
  ASSERT_EQ(hsa_executable_load_program_code_object(exec, reader, NULL, NULL),
            HSA_STATUS_ERROR_FROZEN_EXECUTABLE);
  HSA_ASSERT_OK(hsa_code_object_reader_destroy(reader));
  ASSERT_EQ(hsa_code_object_reader_destroy(reader), HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER);
  hsa_executable_t bad_exec = {0x9};
  ASSERT_EQ(hsa_executable_destroy(bad_exec), HSA_STATUS_ERROR_INVALID_EXECUTABLE);
  HSA_ASSERT_OK(hsa_executable_destroy(exec));
  /* The HSA 1.0 code object API is there, and says what it cannot do. */
  hsa_code_object_t co;
  char blob[16] = {0};
  ASSERT_EQ(hsa_code_object_deserialize(blob, sizeof blob, NULL, &co),
            HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  hsa_code_symbol_t cs = {0};
  uint32_t v;
  ASSERT_EQ(hsa_code_symbol_get_info(cs, HSA_CODE_SYMBOL_INFO_TYPE, &v),
            HSA_STATUS_ERROR_INVALID_CODE_SYMBOL);
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_image_extension_reports_no_image_support) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t cpu;
  hsa_test_cpu_agents(&cpu, 1);
  hsa_ext_image_format_t fmt = {HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8,
                                HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA};
  uint32_t caps = 99;
  HSA_ASSERT_OK(hsa_ext_image_get_capability(cpu, HSA_EXT_IMAGE_GEOMETRY_2D, &fmt, &caps));
  ASSERT_EQ(caps, HSA_EXT_IMAGE_CAPABILITY_NOT_SUPPORTED);
  hsa_ext_image_descriptor_t desc = {HSA_EXT_IMAGE_GEOMETRY_2D, 16, 16, 0, 0, fmt};
  hsa_ext_image_t image;
  ASSERT_EQ(hsa_ext_image_create(cpu, &desc, NULL, HSA_ACCESS_PERMISSION_RW, &image),
            (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED);
  hsa_agent_t bad = {0x3};
  ASSERT_EQ(hsa_ext_image_get_capability(bad, HSA_EXT_IMAGE_GEOMETRY_2D, &fmt, &caps),
            HSA_STATUS_ERROR_INVALID_AGENT);
  size_t dims[3] = {9, 9, 9};
  HSA_ASSERT_OK(
      hsa_agent_get_info(cpu, (hsa_agent_info_t)HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS, dims));
  ASSERT_EQ(dims[0], 0);
  /* Coherency is a GPU agent's (ROCr: INVALID_AGENT for a CPU agent). */
  hsa_amd_coherency_type_t coherency;
  ASSERT_EQ(hsa_amd_coherency_get_type(cpu, &coherency), HSA_STATUS_ERROR_INVALID_AGENT);
  ASSERT_EQ(hsa_amd_coherency_get_type(cpu, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_amd_coherency_set_type(cpu, HSA_AMD_COHERENCY_TYPE_COHERENT),
            HSA_STATUS_ERROR_INVALID_AGENT);
  ASSERT_EQ(hsa_amd_coherency_set_type(cpu, (hsa_amd_coherency_type_t)7),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  uint64_t tick;
  HSA_ASSERT_OK(hsa_amd_profiling_convert_tick_to_system_domain(cpu, 1234, &tick));
  ASSERT_EQ(tick, 1234);
  HSA_ASSERT_OK(hsa_shut_down());
}
