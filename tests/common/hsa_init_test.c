/*
 * hsa_init_test.c - hsa_init/hsa_shut_down reference counting, system
 * information, status strings and extension queries. Includes our rewrite
 * of the HSA runtime conformance tests for init and system info (what they
 * check: init/shut_down pairing and repetition, API use before init,
 * timestamp monotonicity and frequency, attribute values).
 */
#include <hsa/hsa_ext_placement.h>
#include <hsa/hsa_ven_amd_loader.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hsa/memory.h"
#include "hsa/runtime.h"
#include "lib/plat.h"
#include "support/gpu_kernel.h"

#include "tests/common/hsa_test_util.h"
#include "tests/common/kernel_corpus.h"
#include "lib/util.h"

/* A failed test leaves without its hsa_shut_down: start from zero. */
static void shut_down_fully(void) {
  while (hsa_shut_down() == HSA_STATUS_SUCCESS) {
  }
}

TEST(hsa_init_refcount_pairs_init_and_shut_down) {
  shut_down_fully();
  uint16_t major;
  ASSERT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major),
            HSA_STATUS_ERROR_NOT_INITIALIZED);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
  HSA_ASSERT_OK(hsa_init());
  HSA_ASSERT_OK(hsa_init());
  HSA_ASSERT_OK(hsa_shut_down());
  /* Still initialised: one hsa_init is outstanding. */
  HSA_ASSERT_OK(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major));
  HSA_ASSERT_OK(hsa_shut_down());
  ASSERT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major),
            HSA_STATUS_ERROR_NOT_INITIALIZED);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
}

static hsa_status_t find_gpu(hsa_agent_t agent, void *data) {
  hsa_device_type_t type;
  if (hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type) == HSA_STATUS_SUCCESS &&
      type == HSA_DEVICE_TYPE_GPU) {
    *(hsa_agent_t *)data = agent;
    return HSA_STATUS_INFO_BREAK;
  }
  return HSA_STATUS_SUCCESS;
}

/* What the runtime holds besides the agents: each a count that is 0 once
 * it is shut down. */
static void assert_runtime_holds_nothing(int cycle) {
  test_context("after cycle %d", cycle);
  ASSERT_EQ(object_set_count(&rt.signals), 0);
  ASSERT_EQ(object_set_count(&rt.signal_groups), 0);
  ASSERT_EQ(object_set_count(&rt.queues), 0);
  ASSERT_EQ(object_set_count(&rt.executables), 0);
  ASSERT_EQ(object_set_count(&rt.readers), 0);
  ASSERT_EQ(object_set_count(&rt.symbols), 0);
  ASSERT_EQ(object_set_count(&rt.code_objects), 0);
  ASSERT_NULL(rt.loaded.list);
  ASSERT_NULL(rt.cl_programs.list);
  ASSERT_EQ_U(rt.cl_programs.stack_pool_count, 0);
  ASSERT_EQ(memory_allocation_count(), 0);
  ASSERT_EQ(rt.memory.pool_count, 0);
  ASSERT_NULL(rt.async_copy.queue);
  ASSERT_NULL(rt.signal.slabs);
  ASSERT_NULL(rt.signal.free_signals);
  ASSERT_NULL(rt.signal_events.mailbox);
  ASSERT_EQ_U(rt.signal_events.ids_issued, 0);
  ASSERT_EQ_U(rt.signal_events.free_count, 0);
  ASSERT_NULL(rt.async.handlers);
  ASSERT_NULL(rt.async.calls);
  ASSERT_FALSE(rt.async.worker_running);
  ASSERT_EQ_U(atomic_load(&rt.async.pending), 0);
  ASSERT_EQ_U(atomic_load(&rt.async.tick_at), 0);
  ASSERT_NULL(rt.system_events.handlers);
  ASSERT_EQ(rt.system_events.count, 0);
  ASSERT_NULL(rt.system_events.posted.wake);
  ASSERT_FALSE(rt.gpu_driver_up);
  ASSERT_EQ_U(atomic_load(&rt.gpu_watchdog_ns), 0);
  ASSERT_EQ_U(rt.isas.count, 0);
  ASSERT_FALSE(rt.placement.ready);
  ASSERT_EQ_U(rt.placement.count, 0);
  ASSERT_NULL(rt.placement.kernels);
  ASSERT_NULL(rt.placement.inflight);
  ASSERT_NULL(rt.placement.free_records);
  ASSERT_EQ_U(rt.placement.record_count, 0);
  ASSERT_NULL(rt.placement.splits);
  ASSERT_NULL(rt.placement.queues);
}

static hsa_status_t ignore_system_event(const hsa_amd_event_t *event, void *data) {
  (void)event;
  (void)data;
  return HSA_STATUS_SUCCESS;
}

static bool never_runs(hsa_signal_value_t value, void *arg) {
  (void)value;
  (void)arg;
  return false;
}

/* vector_add, built by tools/hsacc for every agent, loaded for the
 * placement agent (a part per real agent and the placement kernel) and
 * run once through a placement queue, checked against the corpus's
 * reference. The executable, its reader and loaded code objects, the
 * placement kernel and its measurement record, the placement queue and
 * its forward queues are all left to hsa_shut_down. */
static void load_and_dispatch_once(hsa_amd_memory_pool_t pool, bool has_gpu) {
  hsa_agent_t placement;
  HSA_ASSERT_OK(hsa_ext_placement_agent(&placement));
  char path[512], why[256];
  snprintf(path, sizeof path, "%s/hsacc/vector_add.O2.v4.hsaco", CL_TEST_KERNELS_DIR);
  struct gpu_kernel k;
  if (gpu_kernel_load(placement, path, "vector_add.kd", NULL, NULL, &k, why, sizeof why))
    FAIL("%s", why);
  hsa_queue_t *q;
  HSA_ASSERT_OK(hsa_queue_create(placement, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                                 UINT32_MAX, &q));
  struct corpus_alloc alloc = {hsa_test_pool_alloc, hsa_test_pool_free, &pool};
  struct corpus_dispatch d;
  ASSERT_TRUE(corpus_setup(corpus_kernel_by_file("vector_add"), &alloc, &d));
  void *kernarg = corpus_kernarg(&d, k.kernarg_size);
  ASSERT_NOT_NULL(kernarg);
  hsa_signal_t done;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
  hsa_kernel_dispatch_packet_t p;
  gpu_kernel_packet(&k, d.dims, d.grid, d.workgroup, 0, kernarg, done, &p);
  hsa_test_submit(q, &p, hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, true));
  ASSERT_EQ(hsa_test_wait_eq(done, 0), 0);
  if (!corpus_check(&d, why, sizeof why)) FAIL("%s: %s", path, why);
  corpus_release(&d);
  ASSERT_NOT_NULL(rt.cl_programs.list);         /* the CPU agents' part */
  if (has_gpu) ASSERT_NOT_NULL(rt.loaded.list); /* the GPU's */
  ASSERT_NOT_NULL(rt.placement.kernels);
  ASSERT_NOT_NULL(rt.placement.queues);
  ASSERT_GT(rt.placement.record_count, 0);
}

TEST(hsa_init_repeated_cycles_leave_nothing_behind) {
  /* Conformance "init/shut_down in a loop": every cycle brings agents up
   * and down; objects left by the program are reclaimed at shut down, and
   * the device memory of the agents (queues, rings, the GPU's tables and
   * the driver's) is given back. */
  shut_down_fully();
  size_t dma_before = plat_dma_bytes_in_use();
  for (int i = 0; i < 20; i++) {
    HSA_ASSERT_OK(hsa_init());
    hsa_agent_t agents[4];
    ASSERT_GE(hsa_test_cpu_agents(agents, 4), 1);
    hsa_signal_t s, group_signals[2];
    HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &s)); /* none of these is destroyed */
    HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &group_signals[0]));
    HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &group_signals[1]));
    hsa_signal_group_t group;
    HSA_ASSERT_OK(hsa_signal_group_create(2, group_signals, 0, NULL, &group));
    hsa_queue_t *q;
    HSA_ASSERT_OK(hsa_queue_create(agents[0], 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q));
    void *block;
    HSA_ASSERT_OK(hsa_amd_memory_pool_allocate(hsa_test_kernarg_pool(agents[0]), 4096, 0, &block));
    hsa_executable_t exec;
    HSA_ASSERT_OK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL,
                                            &exec));
    hsa_agent_t gpu = {0};
    hsa_iterate_agents(find_gpu, &gpu);
    if (gpu.handle) HSA_ASSERT_OK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q));
    load_and_dispatch_once(hsa_test_kernarg_pool(agents[0]), gpu.handle != 0);
    /* A handler still waiting, a system event handler (with its delivery
     * signal and handler) and the queue of async copies: all left to
     * hsa_shut_down. */
    HSA_ASSERT_OK(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 0, never_runs, NULL));
    HSA_ASSERT_OK(hsa_amd_register_system_event_handler(ignore_system_event, NULL));
    char from[64] = "copied", to[64] = {0};
    hsa_signal_t copied;
    HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &copied));
    HSA_ASSERT_OK(hsa_amd_memory_async_copy(to, agents[0], from, agents[0], sizeof from, 0, NULL,
                                            copied));
    ASSERT_EQ(hsa_signal_wait_scacquire(copied, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                        HSA_WAIT_STATE_BLOCKED),
              0);
    ASSERT_STR_EQ(to, "copied");
    ASSERT_GT(memory_allocation_count(), 0);
    ASSERT_NOT_NULL(rt.async_copy.queue);
    ASSERT_NOT_NULL(rt.signal_events.mailbox);
    ASSERT_NOT_NULL(rt.async.handlers);
    ASSERT_EQ(rt.system_events.count, 1);
    HSA_ASSERT_OK(hsa_shut_down());
    assert_runtime_holds_nothing(i);
    ASSERT_EQ(plat_dma_bytes_in_use(), dma_before);
  }
}

TEST(hsa_init_api_before_init_is_refused) {
  shut_down_fully();
  hsa_signal_t s;
  ASSERT_EQ(hsa_signal_create(0, 0, NULL, &s), HSA_STATUS_ERROR_NOT_INITIALIZED);
  ASSERT_EQ(hsa_iterate_agents(NULL, NULL), HSA_STATUS_ERROR_NOT_INITIALIZED);
  void *p;
  hsa_region_t r = {0};
  ASSERT_EQ(hsa_memory_allocate(r, 64, &p), HSA_STATUS_ERROR_NOT_INITIALIZED);
  const char *text;
  ASSERT_EQ(hsa_status_string(HSA_STATUS_SUCCESS, &text), HSA_STATUS_ERROR_NOT_INITIALIZED);
}

TEST(hsa_system_info_reports_documented_values) {
  HSA_ASSERT_OK(hsa_init());
  uint16_t major = 0, minor = 0;
  HSA_ASSERT_OK(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major));
  HSA_ASSERT_OK(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MINOR, &minor));
  ASSERT_EQ(major, 1);
  ASSERT_EQ(minor, 2);
  uint64_t freq = 0, max_wait = 0;
  HSA_ASSERT_OK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq));
  ASSERT_GE(freq, 1000000); /* PRM 2.2: at least 1 MHz */
  HSA_ASSERT_OK(hsa_system_get_info(HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT, &max_wait));
  ASSERT_NE(max_wait, 0);
  hsa_endianness_t endian;
  HSA_ASSERT_OK(hsa_system_get_info(HSA_SYSTEM_INFO_ENDIANNESS, &endian));
  ASSERT_EQ(endian, HSA_ENDIANNESS_LITTLE);
  hsa_machine_model_t model;
  HSA_ASSERT_OK(hsa_system_get_info(HSA_SYSTEM_INFO_MACHINE_MODEL, &model));
  ASSERT_EQ(model, HSA_MACHINE_MODEL_LARGE);
  uint8_t ext[128];
  memset(ext, 0xaa, sizeof ext);
  HSA_ASSERT_OK(hsa_system_get_info(HSA_SYSTEM_INFO_EXTENSIONS, ext));
  /* As ROCr's: only the AMD profiler bit (its functions are hsa_ext_amd.h's). */
  for (int i = 0; i < 128; i++)
    ASSERT_EQ(ext[i], i == HSA_EXTENSION_AMD_PROFILER / 8 ? 1 << (HSA_EXTENSION_AMD_PROFILER % 8) : 0);
  uint16_t amd_major = 0, amd_minor = 0;
  HSA_ASSERT_OK(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_EXT_VERSION_MAJOR, &amd_major));
  HSA_ASSERT_OK(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_EXT_VERSION_MINOR, &amd_minor));
  ASSERT_EQ(amd_major, HSA_AMD_INTERFACE_VERSION_MAJOR);
  ASSERT_EQ(amd_minor, HSA_AMD_INTERFACE_VERSION_MINOR);
  const char *build = NULL;
  HSA_ASSERT_OK(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_BUILD_VERSION, &build));
  ASSERT_NOT_NULL(build);
  bool flag = true;
  HSA_ASSERT_OK(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED, &flag));
  ASSERT_FALSE(flag);
  HSA_ASSERT_OK(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT, &flag));
  ASSERT_TRUE(flag);
  ASSERT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, NULL),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_system_get_info((hsa_system_info_t)0x1234, &major),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_system_timestamp_is_monotonic_at_its_frequency) {
  HSA_ASSERT_OK(hsa_init());
  uint64_t freq, t0, t1, prev;
  HSA_ASSERT_OK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq));
  HSA_ASSERT_OK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t0));
  prev = t0;
  for (int i = 0; i < 1000; i++) {
    uint64_t t;
    HSA_ASSERT_OK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t));
    ASSERT_GE(t, prev);
    prev = t;
  }
  /* 20 ms of plat_now_ns must read as at least 20 ms of timestamp ticks. */
  uint64_t start = plat_now_ns();
  HSA_ASSERT_OK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t0));
  plat_sleep_ns(20000000);
  HSA_ASSERT_OK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t1));
  uint64_t elapsed_ns = plat_now_ns() - start;
  uint64_t ticks_ns = (t1 - t0) * 1000000000ull / freq;
  ASSERT_GE(ticks_ns, 20000000);
  ASSERT_LE(ticks_ns, elapsed_ns);
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_status_string_names_every_status) {
  HSA_ASSERT_OK(hsa_init());
  static const int statuses[] = {HSA_STATUS_SUCCESS,
                                 HSA_STATUS_INFO_BREAK,
                                 HSA_STATUS_ERROR,
                                 HSA_STATUS_ERROR_INVALID_ARGUMENT,
                                 HSA_STATUS_ERROR_INVALID_QUEUE_CREATION,
                                 HSA_STATUS_ERROR_INVALID_ALLOCATION,
                                 HSA_STATUS_ERROR_INVALID_AGENT,
                                 HSA_STATUS_ERROR_INVALID_REGION,
                                 HSA_STATUS_ERROR_INVALID_SIGNAL,
                                 HSA_STATUS_ERROR_INVALID_QUEUE,
                                 HSA_STATUS_ERROR_OUT_OF_RESOURCES,
                                 HSA_STATUS_ERROR_INVALID_PACKET_FORMAT,
                                 HSA_STATUS_ERROR_RESOURCE_FREE,
                                 HSA_STATUS_ERROR_NOT_INITIALIZED,
                                 HSA_STATUS_ERROR_REFCOUNT_OVERFLOW,
                                 HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS,
                                 HSA_STATUS_ERROR_INVALID_INDEX,
                                 HSA_STATUS_ERROR_INVALID_ISA,
                                 HSA_STATUS_ERROR_INVALID_ISA_NAME,
                                 HSA_STATUS_ERROR_INVALID_CODE_OBJECT,
                                 HSA_STATUS_ERROR_INVALID_EXECUTABLE,
                                 HSA_STATUS_ERROR_FROZEN_EXECUTABLE,
                                 HSA_STATUS_ERROR_INVALID_SYMBOL_NAME,
                                 HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED,
                                 HSA_STATUS_ERROR_VARIABLE_UNDEFINED,
                                 HSA_STATUS_ERROR_EXCEPTION,
                                 HSA_STATUS_ERROR_INVALID_CODE_SYMBOL,
                                 HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL,
                                 HSA_STATUS_ERROR_INVALID_FILE,
                                 HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER,
                                 HSA_STATUS_ERROR_INVALID_CACHE,
                                 HSA_STATUS_ERROR_INVALID_WAVEFRONT,
                                 HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP,
                                 HSA_STATUS_ERROR_INVALID_RUNTIME_STATE,
                                 HSA_STATUS_ERROR_FATAL,
                                 HSA_STATUS_ERROR_INVALID_MEMORY_POOL,
                                 HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION,
                                 HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION,
                                 HSA_STATUS_ERROR_MEMORY_FAULT,
                                 HSA_STATUS_CU_MASK_REDUCED,
                                 HSA_STATUS_ERROR_OUT_OF_REGISTERS,
                                 HSA_STATUS_ERROR_RESOURCE_BUSY};
  for (size_t i = 0; i < countof(statuses); i++) {
    const char *text = NULL;
    HSA_ASSERT_OK(hsa_status_string((hsa_status_t)statuses[i], &text));
    ASSERT_NOT_NULL(text);
    ASSERT_GT(strlen(text), 10);
  }
  const char *text;
  ASSERT_EQ(hsa_status_string((hsa_status_t)0x7777, &text), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_status_string(HSA_STATUS_SUCCESS, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_extension_queries_offer_the_amd_loader_only) {
  HSA_ASSERT_OK(hsa_init());
  const char *name;
  HSA_ASSERT_OK(hsa_extension_get_name(HSA_EXTENSION_IMAGES, &name));
  ASSERT_STR_EQ(name, "HSA_EXTENSION_IMAGES");
  HSA_ASSERT_OK(hsa_extension_get_name(HSA_EXTENSION_AMD_LOADER, &name));
  ASSERT_EQ(hsa_extension_get_name(0x150, &name), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_STR_EQ(name, "HSA_EXTENSION_INVALID"); /* as ROCr */
  bool result = true;
  uint16_t minor = 9;
  HSA_ASSERT_OK(hsa_system_major_extension_supported(HSA_EXTENSION_IMAGES, 1, &minor, &result));
  ASSERT_FALSE(result);
  result = true;
  HSA_ASSERT_OK(hsa_system_extension_supported(HSA_EXTENSION_FINALIZER, 1, 0, &result));
  ASSERT_FALSE(result);
  ASSERT_EQ(hsa_system_extension_supported(HSA_EXTENSION_FINALIZER, 1, 0, NULL),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_system_extension_supported(0x150, 1, 0, &result), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  char table[64];
  /* ROCr: an extension it does not offer answers a plain error. */
  ASSERT_EQ(hsa_system_get_major_extension_table(HSA_EXTENSION_IMAGES, 1, sizeof table, table),
            HSA_STATUS_ERROR);
  ASSERT_EQ(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof table, NULL),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, 0, table),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 2, sizeof table, table),
            HSA_STATUS_ERROR);
  /* The loader extension, version 1.3, its table the functions themselves. */
  HSA_ASSERT_OK(hsa_system_major_extension_supported(HSA_EXTENSION_AMD_LOADER, 1, &minor, &result));
  ASSERT_TRUE(result);
  ASSERT_EQ(minor, 3);
  HSA_ASSERT_OK(hsa_system_extension_supported(HSA_EXTENSION_AMD_LOADER, 1, 2, &result));
  ASSERT_TRUE(result);
  hsa_ven_amd_loader_1_03_pfn_t loader;
  memset(&loader, 0, sizeof loader);
  HSA_ASSERT_OK(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof loader, &loader));
  ASSERT_TRUE(loader.hsa_ven_amd_loader_query_host_address == hsa_ven_amd_loader_query_host_address);
  ASSERT_TRUE(loader.hsa_ven_amd_loader_iterate_executables == hsa_ven_amd_loader_iterate_executables);
  /* A shorter (older) table gets its prefix only. */
  hsa_ven_amd_loader_1_00_pfn_t old;
  memset(&old, 0, sizeof old);
  HSA_ASSERT_OK(hsa_system_get_extension_table(HSA_EXTENSION_AMD_LOADER, 1, 0, &old));
  ASSERT_TRUE(old.hsa_ven_amd_loader_query_executable == hsa_ven_amd_loader_query_executable);
  HSA_ASSERT_OK(hsa_shut_down());
}

/* ROCr counts hsa_init calls up to INT32_MAX and answers
 * HSA_STATUS_ERROR_REFCOUNT_OVERFLOW after (runtime.cpp Runtime::Acquire).
 * 2^31 calls take minutes (more under ASan), so the test sets the count,
 * the runtime's own state, just below the limit after a real hsa_init,
 * and puts it back before it checks anything: a failed check must not
 * leave a count no shut-down loop can bring down. */
TEST(hsa_init_count_stops_at_int32_max_as_rocr) {
  shut_down_fully();
  HSA_ASSERT_OK(hsa_init());
  atomic_store(&rt.refcount, INT32_MAX - 1);
  hsa_status_t to_limit = hsa_init();
  uint32_t at_limit = atomic_load(&rt.refcount);
  hsa_status_t past = hsa_init();
  uint32_t after_refusal = atomic_load(&rt.refcount);
  hsa_status_t down = hsa_shut_down();
  hsa_status_t up_again = hsa_init();
  atomic_store(&rt.refcount, 1);
  HSA_ASSERT_OK(hsa_shut_down());
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
  HSA_ASSERT_OK(to_limit);
  ASSERT_EQ_U(at_limit, INT32_MAX);
  ASSERT_EQ(past, HSA_STATUS_ERROR_REFCOUNT_OVERFLOW);
  ASSERT_EQ_U(after_refusal, INT32_MAX);
  HSA_ASSERT_OK(down);
  HSA_ASSERT_OK(up_again);
}
