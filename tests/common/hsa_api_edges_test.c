/*
 * hsa_api_edges_test.c - the API functions the other tests do not reach:
 * deprecated spellings, memory registration, deallocation callback removal,
 * system events, profiling of copies, the images extension, and the
 * features this runtime does not offer (IPC, interop, dma-buf, virtual
 * memory, SVM, SPM): each answers its documented status, nothing crashes.
 */
#include <string.h>

#include "tests/common/hsa_test_util.h"

static int dealloc_calls;
static void on_dealloc(void *ptr, void *user) {
  (void)ptr, (void)user;
  dealloc_calls++;
}

static hsa_status_t on_event(const hsa_amd_event_t *event, void *data) {
  (void)event, (void)data;
  return HSA_STATUS_SUCCESS;
}

TEST(hsa_api_memory_registration_callbacks_and_events) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t cpu;
  hsa_test_cpu_agents(&cpu, 1);
  static char buffer[4096];
  HSA_ASSERT_OK(hsa_memory_register(buffer, sizeof buffer));
  /* ROCr refuses only a zero size with an address; deregistration of
   * anything succeeds. */
  HSA_ASSERT_OK(hsa_memory_register(NULL, 8));
  ASSERT_EQ(hsa_memory_register(buffer, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_memory_deregister(buffer, sizeof buffer));
  HSA_ASSERT_OK(hsa_memory_deregister(NULL, 0));
  /* Lock into a pool: the same as lock in one address space. */
  hsa_amd_memory_pool_t pool = hsa_test_kernarg_pool(cpu), bad_pool = {0x77};
  void *agent_ptr = NULL;
  HSA_ASSERT_OK(hsa_amd_memory_lock_to_pool(buffer, sizeof buffer, &cpu, 1, pool, 0, &agent_ptr));
  ASSERT_PTR_EQ(agent_ptr, buffer);
  HSA_ASSERT_OK(hsa_amd_memory_unlock(buffer));
  ASSERT_EQ(hsa_amd_memory_lock_to_pool(buffer, sizeof buffer, &cpu, 1, bad_pool, 0, &agent_ptr),
            (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
  ASSERT_EQ(hsa_amd_memory_lock_to_pool(buffer, sizeof buffer, &cpu, 1, pool, 1, &agent_ptr),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_amd_memory_lock_to_pool(buffer, sizeof buffer, NULL, 1, pool, 0, &agent_ptr),
            HSA_STATUS_ERROR_INVALID_ARGUMENT); /* agents and their count disagree */
  /* A callback removed before the free does not run. */
  void *p;
  HSA_ASSERT_OK(hsa_amd_memory_pool_allocate(pool, 64, 0, &p));
  HSA_ASSERT_OK(hsa_amd_register_deallocation_callback(p, on_dealloc, NULL));
  HSA_ASSERT_OK(hsa_amd_deregister_deallocation_callback(p, on_dealloc));
  ASSERT_EQ(hsa_amd_deregister_deallocation_callback(p, on_dealloc),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_amd_memory_pool_free(p));
  ASSERT_EQ(dealloc_calls, 0);
  /* System event handlers add up, as ROCr's; a NULL one is refused
   * (tests/common/hsa_system_event_test.c delivers events to them). */
  HSA_ASSERT_OK(hsa_amd_register_system_event_handler(on_event, NULL));
  HSA_ASSERT_OK(hsa_amd_register_system_event_handler(on_event, NULL));
  ASSERT_EQ(hsa_amd_register_system_event_handler(NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  /* Copy profiling: switchable; times read back from the signal. */
  HSA_ASSERT_OK(hsa_amd_profiling_async_copy_enable(true));
  hsa_signal_t s;
  HSA_ASSERT_OK(hsa_signal_create(0, 0, NULL, &s));
  hsa_amd_profiling_async_copy_time_t t = {1, 1};
  HSA_ASSERT_OK(hsa_amd_profiling_get_async_copy_time(s, &t));
  ASSERT_EQ(t.start, 0);
  ASSERT_EQ(hsa_amd_profiling_get_async_copy_time(s, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_signal_destroy(s));
  ASSERT_EQ(hsa_amd_profiling_get_async_copy_time(s, &t), HSA_STATUS_ERROR_INVALID_SIGNAL);
  HSA_ASSERT_OK(hsa_amd_profiling_async_copy_enable(false));
  /* CPU agents have no scratch to limit; logging flags are accepted. */
  ASSERT_EQ(hsa_amd_agent_set_async_scratch_limit(cpu, 4096), HSA_STATUS_ERROR_INVALID_AGENT);
  uint8_t flags[8] = {0};
  HSA_ASSERT_OK(hsa_amd_enable_logging(flags, NULL));
  ASSERT_EQ(hsa_amd_enable_logging(NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_api_deprecated_spellings_and_policies) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t cpu;
  hsa_test_cpu_agents(&cpu, 1);
  hsa_executable_t exec;
  ASSERT_EQ(hsa_executable_create(HSA_PROFILE_FULL, (hsa_executable_state_t)5, NULL, &exec),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(
      hsa_executable_create(HSA_PROFILE_FULL, HSA_EXECUTABLE_STATE_UNFROZEN, NULL, &exec));
  uint32_t result = 7;
  HSA_ASSERT_OK(hsa_executable_validate_alt(exec, NULL, &result));
  ASSERT_EQ(result, 0);
  ASSERT_EQ(hsa_executable_validate_alt(exec, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_code_object_t co = {0};
  ASSERT_EQ(hsa_executable_load_code_object(exec, cpu, co, NULL),
            HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  HSA_ASSERT_OK(hsa_executable_destroy(exec));
  uint32_t v;
  hsa_code_symbol_t cs;
  void *ser = NULL;
  size_t ser_size = 0;
  hsa_callback_data_t cb = {0};
  ASSERT_EQ(hsa_code_object_destroy(co), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  ASSERT_EQ(hsa_code_object_get_info(co, HSA_CODE_OBJECT_INFO_VERSION, &v),
            HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  ASSERT_EQ(hsa_code_object_get_symbol(co, "k", &cs), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  ASSERT_EQ(hsa_code_object_get_symbol_from_name(co, NULL, "k", &cs),
            HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  /* ROCr checks the pointers before the code object. */
  ASSERT_EQ(hsa_code_object_iterate_symbols(co, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_code_object_serialize(co, NULL, cb, NULL, &ser, &ser_size),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_code_object_get_info(co, HSA_CODE_OBJECT_INFO_VERSION, NULL),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_executable_load_code_object((hsa_executable_t){0}, cpu, co, NULL),
            HSA_STATUS_ERROR_INVALID_EXECUTABLE); /* the executable before the code object */
  uint16_t mask = 9;
  HSA_ASSERT_OK(hsa_agent_get_exception_policies(cpu, HSA_PROFILE_FULL, &mask));
  ASSERT_EQ(mask, 0); /* CPU agents raise no HSAIL exceptions */
  ASSERT_EQ(hsa_agent_get_exception_policies(cpu, HSA_PROFILE_FULL, NULL),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_isa_t isa;
  HSA_ASSERT_OK(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx90c", &isa));
  mask = 9;
  HSA_ASSERT_OK(hsa_isa_get_exception_policies(isa, HSA_PROFILE_BASE, &mask));
  ASSERT_EQ(mask, 0); /* ROCr supports no exception policy */
  bool supported = true;
  HSA_ASSERT_OK(hsa_agent_extension_supported(HSA_EXTENSION_IMAGES, cpu, 1, 0, &supported));
  ASSERT_FALSE(supported);
  char table[64];
  ASSERT_EQ(hsa_system_get_extension_table(HSA_EXTENSION_IMAGES, 1, 0, table),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_api_image_functions_answer_unsupported) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t cpu;
  hsa_test_cpu_agents(&cpu, 1);
  hsa_ext_image_format_t fmt = {HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT, HSA_EXT_IMAGE_CHANNEL_ORDER_R};
  hsa_ext_image_descriptor_t desc = {HSA_EXT_IMAGE_GEOMETRY_1D, 64, 0, 0, 0, fmt};
  hsa_ext_image_t image = {0};
  hsa_ext_image_data_info_t info;
  hsa_ext_image_region_t region = {{0, 0, 0}, {1, 1, 1}};
  hsa_dim3_t origin = {0, 0, 0};
  uint32_t caps = 5;
  char data[64];
  HSA_ASSERT_OK(hsa_ext_image_get_capability_with_layout(cpu, HSA_EXT_IMAGE_GEOMETRY_1D, &fmt,
                                                         HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, &caps));
  ASSERT_EQ(caps, 0);
  const hsa_status_t unsupported = (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED;
  ASSERT_EQ(hsa_ext_image_data_get_info(cpu, &desc, HSA_ACCESS_PERMISSION_RW, &info), unsupported);
  ASSERT_EQ(
      hsa_ext_image_data_get_info_with_layout(cpu, &desc, HSA_ACCESS_PERMISSION_RW,
                                              HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 256, 0, &info),
      unsupported);
  ASSERT_EQ(hsa_ext_image_create_with_layout(cpu, &desc, data, HSA_ACCESS_PERMISSION_RW,
                                             HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 256, 0, &image),
            unsupported);
  ASSERT_EQ(hsa_amd_image_create(cpu, &desc, NULL, data, HSA_ACCESS_PERMISSION_RW, &image),
            unsupported);
  ASSERT_EQ(hsa_ext_image_destroy(cpu, image), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_ext_image_copy(cpu, image, &origin, image, &origin, &origin),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_ext_image_import(cpu, data, 0, 0, image, &region),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_ext_image_export(cpu, image, data, 0, 0, &region),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_ext_image_clear(cpu, image, data, &region), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_ext_sampler_descriptor_t sd = {HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED,
                                     HSA_EXT_SAMPLER_FILTER_MODE_LINEAR,
                                     HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT};
  hsa_ext_sampler_t sampler = {0};
  ASSERT_EQ(hsa_ext_sampler_create(cpu, &sd, &sampler),
            (hsa_status_t)HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED);
  ASSERT_EQ(hsa_ext_sampler_destroy(cpu, sampler), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  size_t dims[3] = {1, 1, 1};
  HSA_ASSERT_OK(hsa_amd_image_get_info_max_dim(
      cpu, (hsa_agent_info_t)HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS, dims));
  ASSERT_EQ(dims[2], 0);
  hsa_agent_t bad = {0x11};
  ASSERT_EQ(hsa_ext_sampler_create(bad, &sd, &sampler), HSA_STATUS_ERROR_INVALID_AGENT);
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_api_unoffered_features_answer_error_without_side_effects) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t cpu;
  hsa_test_cpu_agents(&cpu, 1);
  hsa_amd_memory_pool_t pool = hsa_test_kernarg_pool(cpu);
  int x = 0, fd = -1;
  void *va = NULL;
  size_t size = 0, meta_size = 0;
  const void *meta = NULL;
  uint64_t offset;
  uint32_t copied, timeout = 0;
  bool lost;
  hsa_amd_ipc_memory_t ipc;
  hsa_signal_t s = {0};
  hsa_amd_vmem_alloc_handle_t vh = {0};
  hsa_amd_memory_type_t type;
  hsa_access_permission_t perm;
  hsa_amd_memory_access_desc_t desc = {HSA_ACCESS_PERMISSION_RW, cpu};
  hsa_amd_svm_attribute_pair_t attr = {HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, 0};
  const hsa_status_t no = HSA_STATUS_ERROR, inval = HSA_STATUS_ERROR_INVALID_ARGUMENT;
  hsa_signal_t live;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &live));
  /* Good arguments: refused. Bad ones: ROCr's status for them. */
  ASSERT_EQ(hsa_amd_ipc_memory_create(&x, 4, &ipc), no);
  ASSERT_EQ(hsa_amd_ipc_memory_create(NULL, 4, &ipc), inval);
  ASSERT_EQ(hsa_amd_ipc_memory_attach(&ipc, 8, 1, &cpu, &va), no);
  ASSERT_EQ(hsa_amd_ipc_memory_attach(&ipc, 8, 1, NULL, &va), inval);
  ASSERT_EQ(hsa_amd_ipc_memory_detach(&x), no);
  ASSERT_EQ(hsa_amd_ipc_memory_detach(NULL), inval);
  ASSERT_EQ(hsa_amd_ipc_signal_create(live, &ipc), no);
  ASSERT_EQ(hsa_amd_ipc_signal_create(s, &ipc), HSA_STATUS_ERROR_INVALID_SIGNAL);
  ASSERT_EQ(hsa_amd_ipc_signal_attach(&ipc, &s), no);
  ASSERT_EQ(hsa_amd_ipc_signal_attach(NULL, &s), inval);
  ASSERT_EQ(hsa_amd_interop_map_buffer(1, &cpu, 3, 0, &size, &va, &meta_size, &meta), no);
  ASSERT_EQ(hsa_amd_interop_map_buffer(0, &cpu, 3, 0, &size, &va, &meta_size, &meta), inval);
  HSA_ASSERT_OK(hsa_amd_interop_unmap_buffer(&x)); /* ROCr: nothing mapped, nothing to do */
  ASSERT_EQ(hsa_amd_portable_export_dmabuf(&x, 4, &fd, &offset), no);
  ASSERT_EQ(hsa_amd_portable_export_dmabuf(&x, 0, &fd, &offset), inval);
  ASSERT_EQ(hsa_amd_portable_close_dmabuf(3), no);
  ASSERT_EQ(hsa_amd_svm_attributes_set(&x, 4, &attr, 1), no);
  ASSERT_EQ(hsa_amd_svm_attributes_get(&x, 4, &attr, 1), no);
  ASSERT_EQ(hsa_amd_svm_prefetch_async(&x, 4, cpu, 0, NULL, s), no);
  /* SPM is a GPU agent's. */
  ASSERT_EQ(hsa_amd_spm_acquire(cpu), HSA_STATUS_ERROR_INVALID_AGENT);
  ASSERT_EQ(hsa_amd_spm_release(cpu), HSA_STATUS_ERROR_INVALID_AGENT);
  ASSERT_EQ(hsa_amd_spm_set_dest_buffer(cpu, 4, &timeout, &copied, &x, &lost),
            HSA_STATUS_ERROR_INVALID_AGENT);
  /* Without the virtual memory API, ROCr answers INVALID_ARGUMENT. */
  ASSERT_EQ(hsa_amd_vmem_address_reserve_align(&va, 4096, 0, 4096, 0), inval);
  ASSERT_EQ(hsa_amd_vmem_address_free(&x, 4096), inval);
  ASSERT_EQ(hsa_amd_vmem_handle_create(pool, 4096, MEMORY_TYPE_NONE, 0, &vh), inval);
  ASSERT_EQ(hsa_amd_vmem_handle_release(vh), inval);
  ASSERT_EQ(hsa_amd_vmem_map(&x, 4096, 0, vh, 0), inval);
  ASSERT_EQ(hsa_amd_vmem_unmap(&x, 4096), inval);
  ASSERT_EQ(hsa_amd_vmem_set_access(&x, 4096, &desc, 1), inval);
  ASSERT_EQ(hsa_amd_vmem_get_access(&x, &perm, cpu), inval);
  ASSERT_EQ(hsa_amd_vmem_export_shareable_handle(&fd, vh, 0), inval);
  ASSERT_EQ(hsa_amd_vmem_import_shareable_handle(3, &vh), inval);
  ASSERT_EQ(hsa_amd_vmem_retain_alloc_handle(&vh, &x), inval);
  ASSERT_EQ(hsa_amd_vmem_get_alloc_properties_from_handle(vh, &pool, &type), inval);
  HSA_ASSERT_OK(hsa_signal_destroy(live));
  ASSERT_EQ(x, 0);
  HSA_ASSERT_OK(hsa_shut_down());
}

static hsa_status_t any_symbol(hsa_executable_t e, hsa_executable_symbol_t s, void *d) {
  (void)e, (void)s, (void)d;
  return HSA_STATUS_SUCCESS;
}
static hsa_status_t any_agent_symbol(hsa_executable_t e, hsa_agent_t a, hsa_executable_symbol_t s,
                                     void *d) {
  (void)e, (void)a, (void)s, (void)d;
  return HSA_STATUS_SUCCESS;
}

/* Executables answer bad arguments with ROCr's statuses in ROCr's order
 * (hsa.cpp: pointers before handles). */
TEST(hsa_api_executable_checks_in_rocr_order) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t cpu;
  hsa_test_cpu_agents(&cpu, 1);
  hsa_executable_t exec, bad = {0x5550};
  hsa_agent_t bad_agent = {0x5560};
  HSA_ASSERT_OK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                          NULL, &exec));
  hsa_executable_symbol_t sym;
  ASSERT_EQ(hsa_executable_get_symbol_by_name(bad, NULL, NULL, &sym), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_executable_get_symbol_by_name(bad, "k", NULL, &sym), HSA_STATUS_ERROR_INVALID_EXECUTABLE);
  ASSERT_EQ(hsa_executable_get_symbol_by_name(exec, "k", &bad_agent, &sym),
            HSA_STATUS_ERROR_INVALID_SYMBOL_NAME); /* no symbols for what is no agent */
  uint32_t v;
  ASSERT_EQ(hsa_executable_symbol_get_info((hsa_executable_symbol_t){1}, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, NULL),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_executable_symbol_get_info((hsa_executable_symbol_t){1}, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &v),
            HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL);
  ASSERT_EQ(hsa_executable_get_info(bad, HSA_EXECUTABLE_INFO_STATE, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_executable_get_info(bad, HSA_EXECUTABLE_INFO_STATE, &v), HSA_STATUS_ERROR_INVALID_EXECUTABLE);
  ASSERT_EQ(hsa_executable_iterate_symbols(bad, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_executable_iterate_symbols(bad, any_symbol, NULL), HSA_STATUS_ERROR_INVALID_EXECUTABLE);
  ASSERT_EQ(hsa_executable_iterate_program_symbols(bad, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_executable_iterate_agent_symbols(bad, bad_agent, any_agent_symbol, NULL),
            HSA_STATUS_ERROR_INVALID_AGENT); /* the agent before the executable */
  ASSERT_EQ(hsa_executable_iterate_agent_symbols(bad, cpu, any_agent_symbol, NULL),
            HSA_STATUS_ERROR_INVALID_EXECUTABLE);
  ASSERT_EQ(hsa_executable_validate(bad, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  static int x;
  ASSERT_EQ(hsa_executable_global_variable_define(bad, NULL, &x), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_executable_agent_global_variable_define(bad, bad_agent, "x", &x),
            HSA_STATUS_ERROR_INVALID_EXECUTABLE);
  ASSERT_EQ(hsa_executable_agent_global_variable_define(exec, bad_agent, "x", &x),
            HSA_STATUS_ERROR_INVALID_AGENT);
  hsa_code_object_reader_t bad_reader = {0x5570};
  ASSERT_EQ(hsa_executable_load_agent_code_object(exec, bad_agent, bad_reader, NULL, NULL),
            HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER); /* the reader before the agent */
  HSA_ASSERT_OK(hsa_executable_freeze(exec, NULL));
  ASSERT_EQ(hsa_executable_agent_global_variable_define(exec, bad_agent, "x", &x),
            HSA_STATUS_ERROR_FROZEN_EXECUTABLE);
  HSA_ASSERT_OK(hsa_executable_destroy(exec));
  ASSERT_EQ(hsa_executable_destroy(exec), HSA_STATUS_ERROR_INVALID_EXECUTABLE); /* double destroy */
  HSA_ASSERT_OK(hsa_shut_down());
}
