/* The loader behind the HSA executable API: code object readers from a file
 * descriptor and from memory, program and agent loads, symbols and their
 * attributes, externally defined variables, bundles, hidden arguments
 * through hsa_kernarg_fill_hidden, and the errors of each. */
#include <fcntl.h>
#include <hsa/hsa.h>
#include <hsa/hsa_kernarg_hidden.h>
#include <hsa/hsa_ven_amd_loader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hsa/agent.h"
#include "hsa/executable_internal.h"
#include "hsa/isa.h"
#include "lib/test.h"
#include "tests/common/kernel_corpus.h"
#include "tests/host/loader_test_util.h"

static int open_corpus(const char *file, const char *opt, int cov) {
  char path[512];
  snprintf(path, sizeof path, "%s/gfx902/%s.%s.v%d.co", LOADER_TEST_KERNELS_DIR, file, opt, cov);
  int fd = open(path, O_RDONLY);
  if (fd < 0) FAIL("cannot open %s", path);
  return fd;
}

static hsa_executable_t new_executable(void) {
  hsa_executable_t exec;
  ASSERT_EQ(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                      NULL, &exec),
            HSA_STATUS_SUCCESS);
  return exec;
}

static hsa_status_t count_symbol(hsa_executable_t exec, hsa_executable_symbol_t sym, void *data) {
  (void)exec, (void)sym;
  ++*(int *)data;
  return HSA_STATUS_SUCCESS;
}

TEST(loader_executable_program_load_from_file) {
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  int fd = open_corpus("global_vars", "O3", 5);
  hsa_code_object_reader_t reader;
  ASSERT_EQ(hsa_code_object_reader_create_from_file(fd, &reader), HSA_STATUS_SUCCESS);
  close(fd);
  hsa_executable_t exec = new_executable();
  int before = 0; /* the CPU agents' kernels are in every executable */
  ASSERT_EQ(hsa_executable_iterate_symbols(exec, count_symbol, &before), HSA_STATUS_SUCCESS);

  /* Without ext_offset defined the load fails, and nothing is left behind. */
  ASSERT_EQ(hsa_executable_load_program_code_object(exec, reader, NULL, NULL),
            HSA_STATUS_ERROR_VARIABLE_UNDEFINED);
  int count = 0;
  ASSERT_EQ(hsa_executable_iterate_symbols(exec, count_symbol, &count), HSA_STATUS_SUCCESS);
  ASSERT_EQ(count, before);

  static int32_t ext_offset = CORPUS_EXTERNAL_VALUE;
  ASSERT_EQ(hsa_executable_global_variable_define(exec, "ext_offset", &ext_offset),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_executable_load_program_code_object(exec, reader, NULL, NULL), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_code_object_reader_destroy(reader), HSA_STATUS_SUCCESS); /* loaded: not needed */
  ASSERT_EQ(hsa_executable_freeze(exec, NULL), HSA_STATUS_SUCCESS);
  uint32_t invalid = 1;
  ASSERT_EQ(hsa_executable_validate(exec, &invalid), HSA_STATUS_SUCCESS);
  ASSERT_EQ(invalid, 0);

  /* kernel + table, scale, bias, bias_ptr + the defined ext_offset */
  count = 0;
  ASSERT_EQ(hsa_executable_iterate_symbols(exec, count_symbol, &count), HSA_STATUS_SUCCESS);
  ASSERT_EQ(count, before + 6);

  hsa_executable_symbol_t k, v;
  ASSERT_EQ(hsa_executable_get_symbol_by_name(exec, "global_vars.kd", NULL, &k),
            HSA_STATUS_SUCCESS);
  hsa_symbol_kind_t kind;
  ASSERT_EQ(hsa_executable_symbol_get_info(k, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(kind, HSA_SYMBOL_KIND_KERNEL);
  uint64_t kernel_object;
  uint32_t kernarg_size, kernarg_align, group, private_size;
  bool dynamic;
  ASSERT_EQ(
      hsa_executable_symbol_get_info(k, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &kernel_object),
      HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_executable_symbol_get_info(
                k, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &kernarg_size),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_executable_symbol_get_info(
                k, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT, &kernarg_align),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_executable_symbol_get_info(k, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE,
                                           &group),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_executable_symbol_get_info(
                k, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &private_size),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_executable_symbol_get_info(k, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK,
                                           &dynamic),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(kernel_object % 64, 0);
  const amd_kernel_descriptor_t *kd = (const amd_kernel_descriptor_t *)(uintptr_t)kernel_object;
  ASSERT_EQ(kd->kernarg_size, kernarg_size); /* the loaded descriptor itself */
  ASSERT_GE(kernarg_size, 8);
  ASSERT_GE(kernarg_align, 16);
  ASSERT_EQ(group, kd->group_segment_fixed_size);
  ASSERT_EQ(private_size, kd->private_segment_fixed_size);
  ASSERT_FALSE(dynamic);

  ASSERT_EQ(hsa_executable_get_symbol_by_name(exec, "bias_ptr", NULL, &v), HSA_STATUS_SUCCESS);
  uint64_t bias_ptr_address;
  ASSERT_EQ(hsa_executable_symbol_get_info(v, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS,
                                           &bias_ptr_address),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_executable_get_symbol_by_name(exec, "bias", NULL, &v), HSA_STATUS_SUCCESS);
  uint64_t bias_address;
  hsa_variable_allocation_t allocation;
  hsa_symbol_linkage_t linkage;
  ASSERT_EQ(
      hsa_executable_symbol_get_info(v, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &bias_address),
      HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_executable_symbol_get_info(v, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALLOCATION,
                                           &allocation),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_executable_symbol_get_info(v, HSA_EXECUTABLE_SYMBOL_INFO_LINKAGE, &linkage),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(allocation, HSA_VARIABLE_ALLOCATION_PROGRAM);
  ASSERT_EQ(linkage, HSA_SYMBOL_LINKAGE_PROGRAM);
  ASSERT_EQ(*(const int32_t *)(uintptr_t)bias_address, 5);
  ASSERT_EQ_U(*(const uint64_t *)(uintptr_t)bias_ptr_address, bias_address); /* RELATIVE64 */
  ASSERT_EQ(hsa_executable_get_symbol_by_name(exec, "no_such_thing", NULL, &v),
            HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);

  /* Hidden arguments for a dispatch of this kernel. */
  uint8_t kernarg[512] = {0};
  hsa_kernel_dispatch_packet_t packet = {.setup = 1,
                                         .workgroup_size_x = 16,
                                         .workgroup_size_y = 1,
                                         .workgroup_size_z = 1,
                                         .grid_size_x = 40,
                                         .grid_size_y = 1,
                                         .grid_size_z = 1,
                                         .kernel_object = kernel_object};
  ASSERT_EQ(hsa_kernarg_fill_hidden(&packet, NULL, kernarg, sizeof kernarg), HSA_STATUS_SUCCESS);
  uint32_t block_count_x;
  memcpy(&block_count_x, kernarg + 8, 4); /* v5: the hidden block follows the one pointer */
  ASSERT_EQ(block_count_x, 2);
  uint16_t remainder_x;
  memcpy(&remainder_x, kernarg + 8 + 18, 2);
  ASSERT_EQ(remainder_x, 8);
  packet.kernel_object += 64; /* not a kernel */
  ASSERT_EQ(hsa_kernarg_fill_hidden(&packet, NULL, kernarg, sizeof kernarg),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  packet.kernel_object = kernel_object;
  packet.setup = 0;
  ASSERT_EQ(hsa_kernarg_fill_hidden(&packet, NULL, kernarg, sizeof kernarg),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);

  ASSERT_EQ(hsa_executable_destroy(exec), HSA_STATUS_SUCCESS);
  /* Unloaded: its kernel is gone for the helper too. */
  packet.setup = 1;
  ASSERT_EQ(hsa_kernarg_fill_hidden(&packet, NULL, kernarg, sizeof kernarg),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

TEST(loader_executable_bad_code_object_from_memory) {
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  size_t size;
  uint8_t *image = loader_test_read_corpus("vector_add", "O2", 4, &size);
  image[18] = 62; /* e_machine: x86-64 */
  hsa_code_object_reader_t reader;
  ASSERT_EQ(hsa_code_object_reader_create_from_memory(image, size, &reader), HSA_STATUS_SUCCESS);
  hsa_executable_t exec = new_executable();
  ASSERT_EQ(hsa_executable_load_program_code_object(exec, reader, NULL, NULL),
            HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  image[18] = 224;
  ASSERT_EQ(hsa_executable_load_program_code_object(exec, reader, NULL, NULL), HSA_STATUS_SUCCESS);
  /* The same code object twice: its symbols are already defined. */
  ASSERT_EQ(hsa_executable_load_program_code_object(exec, reader, NULL, NULL),
            HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED);
  ASSERT_EQ(hsa_executable_destroy(exec), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_code_object_reader_destroy(reader), HSA_STATUS_SUCCESS);
  free(image);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

/* A load that fails on a later symbol takes back the ones it added first
 * and frees its segments (LeakSanitizer checks the memory at exit). */
TEST(loader_executable_failed_load_takes_back_every_symbol) {
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  size_t size;
  uint8_t *image = loader_test_read_corpus("global_vars", "O3", 5, &size);
  char why[256];
  struct loader_code_object *co = loader_test_parse(image, size, LOADER_OK, why, sizeof why);
  ASSERT_GE(co->symbol_count, 2);
  char last[64];
  snprintf(last, sizeof last, "%s", co->symbols[co->symbol_count - 1].name);
  loader_code_object_destroy(co);

  hsa_code_object_reader_t reader;
  ASSERT_EQ(hsa_code_object_reader_create_from_memory(image, size, &reader), HSA_STATUS_SUCCESS);
  hsa_executable_t exec = new_executable();
  static int32_t ext_offset = CORPUS_EXTERNAL_VALUE, clash;
  ASSERT_EQ(hsa_executable_global_variable_define(exec, "ext_offset", &ext_offset),
            HSA_STATUS_SUCCESS);
  /* The program defines the code object's last symbol itself. */
  ASSERT_EQ(hsa_executable_global_variable_define(exec, last, &clash), HSA_STATUS_SUCCESS);
  int before = 0;
  ASSERT_EQ(hsa_executable_iterate_symbols(exec, count_symbol, &before), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_executable_load_program_code_object(exec, reader, NULL, NULL),
            HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED);
  int after = 0;
  ASSERT_EQ(hsa_executable_iterate_symbols(exec, count_symbol, &after), HSA_STATUS_SUCCESS);
  ASSERT_EQ(after, before);
  hsa_executable_symbol_t k;
  ASSERT_EQ(hsa_executable_get_symbol_by_name(exec, "global_vars.kd", NULL, &k),
            HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);
  /* Another executable loads it fine: nothing of the failed load is left. */
  hsa_executable_t other = new_executable();
  ASSERT_EQ(hsa_executable_global_variable_define(other, "ext_offset", &ext_offset),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_executable_load_program_code_object(other, reader, NULL, NULL), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_executable_get_symbol_by_name(other, "global_vars.kd", NULL, &k), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_executable_destroy(other), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_executable_destroy(exec), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_code_object_reader_destroy(reader), HSA_STATUS_SUCCESS);
  free(image);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

/* An agent with a GPU ISA, as the GPU agent will be, through the seam. */
TEST(loader_executable_agent_load_checks_isa_and_bundles) {
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  struct agent gfx902 = {.isa = isa_find("gfx902")}, gfx1036 = {.isa = isa_find("gfx1036")};
  ASSERT_NOT_NULL(gfx902.isa);
  ASSERT_NOT_NULL(gfx1036.isa);
  hsa_executable_t exec = new_executable();
  struct executable *e = (struct executable *)(uintptr_t)exec.handle;
  struct loaded_code_object *lco;
  size_t size;
  uint8_t *image = loader_test_read_corpus("saxpy", "O0", 5, &size);
  ASSERT_EQ(loader_load(e, &gfx1036, image, size, NULL, &lco),
            HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
  ASSERT_EQ(loader_load(e, &gfx902, image, size, NULL, &lco), HSA_STATUS_SUCCESS);
  loader_unload(lco);
  free(image);

  char path[512];
  snprintf(path, sizeof path, "%s/bundles/hip_scale.hipfb", LOADER_TEST_KERNELS_DIR);
  image = loader_test_read(path, &size);
  ASSERT_EQ(loader_load(e, NULL, image, size, NULL, &lco), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  ASSERT_EQ(loader_load(e, &gfx1036, image, size, NULL, &lco),
            HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
  ASSERT_EQ(loader_load(e, &gfx902, image, size, NULL, &lco), HSA_STATUS_SUCCESS);
  ASSERT_TRUE(executable_lookup_variable(e, &gfx902, "nothing", &(uint64_t){0}) == false);
  loader_unload(lco);
  free(image);
  ASSERT_EQ(hsa_executable_destroy(exec), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

static hsa_status_t count_executable(hsa_executable_t exec, void *data) {
  hsa_executable_t *wanted = data;
  if (exec.handle == wanted[0].handle) wanted[1].handle++;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t first_loaded(hsa_executable_t exec, hsa_loaded_code_object_t lco, void *data) {
  (void)exec;
  *(hsa_loaded_code_object_t *)data = lco;
  return HSA_STATUS_INFO_BREAK;
}

/* HSA_EXTENSION_AMD_LOADER (hsa_ven_amd_loader.h) over a loaded code object:
 * what HIP's runtime and profilers ask of ROCr. */
TEST(loader_executable_amd_loader_extension_describes_loaded_code) {
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  size_t size;
  uint8_t *image = loader_test_read_corpus("global_vars", "O3", 5, &size);
  /* A file with something before the code object: a reader over a range. */
  char path[] = "/tmp/loader-ext-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  unlink(path);
  ASSERT_EQ(write(fd, "0123456789abcdef", 16), 16);
  ASSERT_EQ(write(fd, image, size), (ssize_t)size);
  hsa_code_object_reader_t reader;
  ASSERT_EQ(hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size(fd, 16, 0, &reader),
            HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  ASSERT_EQ(hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size(fd, 16, size, NULL),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size(-1, 16, size, &reader),
            HSA_STATUS_ERROR_INVALID_FILE);
  ASSERT_EQ(hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size(fd, 16, size, &reader),
            HSA_STATUS_SUCCESS);
  close(fd);
  hsa_executable_t exec = new_executable();
  static int32_t ext_offset = CORPUS_EXTERNAL_VALUE;
  ASSERT_EQ(hsa_executable_global_variable_define(exec, "ext_offset", &ext_offset), HSA_STATUS_SUCCESS);
  hsa_loaded_code_object_t handle;
  ASSERT_EQ(hsa_executable_load_program_code_object(exec, reader, NULL, &handle), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_code_object_reader_destroy(reader), HSA_STATUS_SUCCESS);

  hsa_executable_t counted[2] = {exec, {0}};
  ASSERT_EQ(hsa_ven_amd_loader_iterate_executables(count_executable, counted), HSA_STATUS_SUCCESS);
  ASSERT_EQ(counted[1].handle, 1);
  hsa_loaded_code_object_t lco = {0};
  ASSERT_EQ(hsa_ven_amd_loader_executable_iterate_loaded_code_objects(exec, first_loaded, &lco),
            HSA_STATUS_INFO_BREAK);
  ASSERT_EQ_U(lco.handle, handle.handle);
  ASSERT_EQ(hsa_ven_amd_loader_executable_iterate_loaded_code_objects((hsa_executable_t){8}, first_loaded, &lco),
            HSA_STATUS_ERROR_INVALID_EXECUTABLE);

  hsa_executable_t owner;
  uint32_t kind, storage, uri_length;
  uint64_t base, load_size, elf_base, elf_size;
  int64_t delta;
  hsa_agent_t agent;
  ASSERT_EQ(hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_EXECUTABLE, &owner), HSA_STATUS_SUCCESS);
  ASSERT_EQ_U(owner.handle, exec.handle);
  ASSERT_EQ(hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND, &kind), HSA_STATUS_SUCCESS);
  ASSERT_EQ(kind, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_PROGRAM);
  ASSERT_EQ(hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT, &agent),
            HSA_STATUS_ERROR_INVALID_ARGUMENT); /* a program code object has none */
  ASSERT_EQ(hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE, &storage), HSA_STATUS_SUCCESS);
  ASSERT_EQ(storage, HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY);
  ASSERT_EQ(hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_BASE, &elf_base), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE, &elf_size), HSA_STATUS_SUCCESS);
  ASSERT_EQ(elf_size, size);
  ASSERT_MEM_EQ((const void *)(uintptr_t)elf_base, image, size); /* the bytes, kept */
  ASSERT_EQ(hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE, &base), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE, &load_size), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA, &delta), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH, &uri_length), HSA_STATUS_SUCCESS);
  char uri[128] = {0};
  ASSERT_LT(uri_length, sizeof uri);
  ASSERT_EQ(hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI, uri), HSA_STATUS_SUCCESS);
  ASSERT_EQ(strncmp(uri, "memory://", 9), 0);
  ASSERT_EQ(strlen(uri), uri_length);
  ASSERT_EQ(hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_FILE, &kind),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND, NULL),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);

  /* The kernel descriptor lies inside the load range; its address names
   * the executable, and is its own host address. */
  hsa_executable_symbol_t k;
  uint64_t kernel_object;
  ASSERT_EQ(hsa_executable_get_symbol_by_name(exec, "global_vars.kd", NULL, &k), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_executable_symbol_get_info(k, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &kernel_object), HSA_STATUS_SUCCESS);
  ASSERT_TRUE(kernel_object >= base && kernel_object < base + load_size);
  ASSERT_EQ((int64_t)base - delta >= 0, true);
  const void *host = NULL;
  ASSERT_EQ(hsa_ven_amd_loader_query_host_address((const void *)(uintptr_t)kernel_object, &host), HSA_STATUS_SUCCESS);
  ASSERT_PTR_EQ(host, (const void *)(uintptr_t)kernel_object);
  ASSERT_EQ(hsa_ven_amd_loader_query_host_address(&ext_offset, &host), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_executable_t found;
  ASSERT_EQ(hsa_ven_amd_loader_query_executable((const void *)(uintptr_t)kernel_object, &found), HSA_STATUS_SUCCESS);
  ASSERT_EQ_U(found.handle, exec.handle);
  ASSERT_EQ(hsa_ven_amd_loader_query_executable(NULL, &found), HSA_STATUS_ERROR_INVALID_ARGUMENT);

  size_t count = 0;
  ASSERT_EQ(hsa_ven_amd_loader_query_segment_descriptors(NULL, &count), HSA_STATUS_SUCCESS);
  ASSERT_EQ(count, 1);
  hsa_ven_amd_loader_segment_descriptor_t d[2];
  size_t wrong = 2;
  ASSERT_EQ(hsa_ven_amd_loader_query_segment_descriptors(d, &wrong), HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
  ASSERT_EQ(hsa_ven_amd_loader_query_segment_descriptors(d, &count), HSA_STATUS_SUCCESS);
  ASSERT_EQ_U(d[0].executable.handle, exec.handle);
  ASSERT_EQ_U((uintptr_t)d[0].segment_base, base);
  ASSERT_EQ(d[0].segment_size, load_size);
  ASSERT_EQ(d[0].code_object_storage_size, size);
  ASSERT_EQ(hsa_ven_amd_loader_query_segment_descriptors(NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);

  ASSERT_EQ(hsa_executable_destroy(exec), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND, &kind),
            HSA_STATUS_ERROR_INVALID_CODE_OBJECT); /* gone with its executable */
  ASSERT_EQ(hsa_ven_amd_loader_query_host_address((const void *)(uintptr_t)kernel_object, &host),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  free(image);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
}
