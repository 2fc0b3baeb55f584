/* A kernel that stops on the GPU stops its queue only: the queue's error
 * callback gets the matching HSA status (through queue_inactive_signal or
 * the driver's fault path), its completion signal is never decremented,
 * and another queue keeps running packets. Kernels: tests/data/gpu/faults.cl. */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_kernarg_hidden.h>
#include <hsa/hsa_queue_time_limit.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "lib/plat.h"
#include "lib/test.h"
#include "support/gpu_kernel.h"
#include "tests/common/gpu_test_util.h"
#include "tests/common/hsa_test_util.h"

#define ERROR_WAIT_NS 60000000000ull
#define UNMAPPED_ADDRESS 0x0000700000000000ull /* no memory of the host process or the image */

/* What the system event handlers of a faulting run saw: two handlers,
 * one that takes each event and one that declines it (both get every
 * event, in the order they registered). The first also calls the API (a
 * pool allocation), which only works because events come from a worker,
 * not from the interrupt handler. */
struct fault_events {
  hsa_agent_t gpu;
  hsa_amd_memory_pool_t pool;
  _Atomic int calls[2];
  _Atomic int api_failures;
  _Atomic int out_of_order;
  hsa_amd_event_t first[2];
};

static hsa_status_t on_event_takes(const hsa_amd_event_t *event, void *data) {
  struct fault_events *f = data;
  if (atomic_load(&f->calls[0]) == 0) f->first[0] = *event;
  void *p;
  if (hsa_amd_memory_pool_allocate(f->pool, 4096, 0, &p) != HSA_STATUS_SUCCESS ||
      hsa_amd_memory_pool_free(p) != HSA_STATUS_SUCCESS)
    atomic_fetch_add(&f->api_failures, 1);
  atomic_fetch_add(&f->calls[0], 1);
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t on_event_declines(const hsa_amd_event_t *event, void *data) {
  struct fault_events *f = data;
  if (atomic_load(&f->calls[1]) == 0) f->first[1] = *event;
  if (atomic_load(&f->calls[1]) >= atomic_load(&f->calls[0])) atomic_fetch_add(&f->out_of_order, 1);
  atomic_fetch_add(&f->calls[1], 1);
  return HSA_STATUS_ERROR;
}

/* Dispatches `kernel` (one work-group of 256, 4 waves) with `out` as its
 * argument and `private_size` bytes of scratch per work-item on a queue
 * with a time limit (0: none), and checks that the queue stops with `want`
 * while another queue goes on. With `events`, two system event handlers
 * record what they get meanwhile: a memory fault is waited for; for any
 * other error, none may come within EVENT_QUIET_NS. */
#define EVENT_QUIET_NS 100000000ull
static void run_faulting_kernel_with_events(const char *kernel, void *out, uint32_t private_size,
                                            uint64_t time_limit_ns, hsa_status_t want,
                                            struct fault_events *events) {
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  hsa_agent_t gpu = gpu_test_agent();
  if (events) {
    events->gpu = gpu;
    events->pool = hsa_test_kernarg_pool(gpu);
    HSA_ASSERT_OK(hsa_amd_register_system_event_handler(on_event_takes, events));
    HSA_ASSERT_OK(hsa_amd_register_system_event_handler(on_event_declines, events));
  }
  char target[64], path[256], symbol[64], why[256];
  ASSERT_EQ(hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, target), HSA_STATUS_SUCCESS);
  snprintf(path, sizeof path, "%s/gpu-tests/%s/faults.co", GPU_TEST_KERNELS_DIR, target);
  snprintf(symbol, sizeof symbol, "%s.kd", kernel);
  struct gpu_kernel k;
  if (gpu_kernel_load(gpu, path, symbol, NULL, NULL, &k, why, sizeof why)) FAIL("%s", why);

  struct hsa_test_queue_error err = {0}, good_err = {0};
  hsa_queue_t *bad, *good;
  ASSERT_EQ(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, hsa_test_queue_error_callback, &err, UINT32_MAX,
                             UINT32_MAX, &bad),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, hsa_test_queue_error_callback, &good_err,
                             UINT32_MAX, UINT32_MAX, &good),
            HSA_STATUS_SUCCESS);
  if (time_limit_ns) ASSERT_EQ(hsa_queue_set_time_limit(bad, time_limit_ns), HSA_STATUS_SUCCESS);
  hsa_amd_memory_pool_t pool = hsa_test_kernarg_pool(gpu);
  void *kernarg;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(pool, k.kernarg_size, 0, &kernarg), HSA_STATUS_SUCCESS);
  memset(kernarg, 0, k.kernarg_size);
  memcpy(kernarg, &out, sizeof out);
  hsa_signal_t done, ok;
  ASSERT_EQ(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(1, 0, NULL, &ok), HSA_STATUS_SUCCESS);
  hsa_kernel_dispatch_packet_t p;
  gpu_kernel_packet(&k, 1, (uint32_t[3]){256, 1, 1}, (uint32_t[3]){256, 1, 1}, 0, kernarg, done, &p);
  p.private_segment_size = private_size;
  ASSERT_EQ(hsa_kernarg_fill_hidden(&p, bad, kernarg, k.kernarg_size), HSA_STATUS_SUCCESS);
  hsa_test_submit(bad, &p, hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, true));

  uint64_t until = plat_now_ns() + ERROR_WAIT_NS;
  /* Waiting on the dispatch's signal, as a program does (that is also when
   * the runtime checks time limits); it never completes. */
  while (atomic_load(&err.calls) == 0) {
    if (plat_now_ns() > until) FAIL("%s: no queue error reported", kernel);
    ASSERT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 10000000, HSA_WAIT_STATE_BLOCKED), 1);
  }
  if (atomic_load(&err.status) != (int)want)
    FAIL("%s: queue error 0x%x, want 0x%x", kernel, atomic_load(&err.status), want);
  /* The dispatch never completes; the other queue goes on. */
  hsa_barrier_and_packet_t b;
  memset(&b, 0, sizeof b);
  b.completion_signal = ok;
  hsa_test_submit(good, &b, hsa_test_header(HSA_PACKET_TYPE_BARRIER_AND, true));
  ASSERT_EQ(hsa_test_wait_eq(ok, 0), 0);
  ASSERT_EQ(hsa_signal_load_scacquire(done), 1);
  ASSERT_EQ(atomic_load(&err.calls), 1);
  ASSERT_EQ(atomic_load(&good_err.calls), 0);
  if (events && want == (hsa_status_t)HSA_STATUS_ERROR_MEMORY_FAULT) {
    while (atomic_load(&events->calls[0]) == 0 || atomic_load(&events->calls[1]) == 0) {
      if (plat_now_ns() > until) FAIL("%s: no memory fault event", kernel);
      plat_sleep_ns(1000000);
    }
  } else if (events) {
    plat_sleep_ns(EVENT_QUIET_NS);
  }

  ASSERT_EQ(hsa_queue_destroy(bad), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_queue_destroy(good), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_destroy(ok), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_pool_free(kernarg), HSA_STATUS_SUCCESS);
  gpu_kernel_release(&k);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

static void run_faulting_kernel(const char *kernel, void *out, uint32_t private_size,
                                uint64_t time_limit_ns, hsa_status_t want) {
  run_faulting_kernel_with_events(kernel, out, private_size, time_limit_ns, want, NULL);
}

static int *output_buffer(void) {
  static int out[256];
  return out;
}

TEST(gpu_fault_trap_is_an_exception) {
  run_faulting_kernel("trap_kernel", output_buffer(), 0, 0, HSA_STATUS_ERROR_EXCEPTION);
}

TEST(gpu_fault_illegal_instruction) {
  run_faulting_kernel("illegal_kernel", output_buffer(), 0, 0, (hsa_status_t)HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION);
}

TEST(gpu_fault_unmapped_store_is_a_memory_fault) {
  run_faulting_kernel("store_kernel", (void *)(uintptr_t)UNMAPPED_ADDRESS, 0, 0,
                      (hsa_status_t)HSA_STATUS_ERROR_MEMORY_FAULT);
}

/* The same fault reaches every system event handler as ROCr fills the
 * event from KFD's (runtime.cpp VMFaultHandler): the GPU agent, the
 * faulting page, PAGE_NOT_PRESENT and nothing else (no PTE maps it). */
TEST(gpu_fault_memory_fault_event_reaches_every_handler) {
  static struct fault_events ev;
  memset(&ev, 0, sizeof ev);
  run_faulting_kernel_with_events("store_kernel", (void *)(uintptr_t)UNMAPPED_ADDRESS, 0, 0,
                                  (hsa_status_t)HSA_STATUS_ERROR_MEMORY_FAULT, &ev);
  ASSERT_EQ(atomic_load(&ev.api_failures), 0);
  ASSERT_EQ(atomic_load(&ev.out_of_order), 0);
  ASSERT_EQ(atomic_load(&ev.calls[0]), atomic_load(&ev.calls[1]));
  for (int i = 0; i < 2; i++) {
    const hsa_amd_event_t *e = &ev.first[i];
    ASSERT_EQ(e->event_type, HSA_AMD_GPU_MEMORY_FAULT_EVENT);
    ASSERT_EQ_U(e->memory_fault.agent.handle, ev.gpu.handle);
    ASSERT_EQ_U(e->memory_fault.virtual_address, UNMAPPED_ADDRESS); /* the page of out[0..255] */
    ASSERT_EQ_U(e->memory_fault.fault_reason_mask, HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT);
  }
}

/* An illegal instruction stops the queue, but is no memory fault: no event. */
TEST(gpu_fault_illegal_instruction_sends_no_memory_fault_event) {
  static struct fault_events ev;
  memset(&ev, 0, sizeof ev);
  run_faulting_kernel_with_events("illegal_kernel", output_buffer(), 0, 0,
                                  (hsa_status_t)HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION, &ev);
  ASSERT_EQ(atomic_load(&ev.calls[0]), 0);
  ASSERT_EQ(atomic_load(&ev.calls[1]), 0);
}

/* The IOMMU refusing the GPU an address (board; here reported to the
 * driver as its IOMMU driver does) is a memory fault event too. */
TEST(gpu_fault_refused_dma_is_a_memory_fault_event) {
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  hsa_agent_t gpu = gpu_test_agent();
  static struct fault_events ev;
  memset(&ev, 0, sizeof ev);
  ev.pool = hsa_test_kernarg_pool(gpu);
  HSA_ASSERT_OK(hsa_amd_register_system_event_handler(on_event_takes, &ev));
  HSA_ASSERT_OK(hsa_amd_register_system_event_handler(on_event_declines, &ev));
  amdgpu_dma_fault(amdgpu_device_get(0), 0x123456789ab0ull, true);
  uint64_t until = plat_now_ns() + ERROR_WAIT_NS;
  while (atomic_load(&ev.calls[1]) == 0) {
    ASSERT_LT(plat_now_ns(), until);
    plat_sleep_ns(1000000);
  }
  ASSERT_EQ(atomic_load(&ev.calls[0]), 1);
  ASSERT_EQ(atomic_load(&ev.api_failures), 0);
  for (int i = 0; i < 2; i++) {
    ASSERT_EQ(ev.first[i].event_type, HSA_AMD_GPU_MEMORY_FAULT_EVENT);
    ASSERT_EQ_U(ev.first[i].memory_fault.agent.handle, gpu.handle);
    ASSERT_EQ_U(ev.first[i].memory_fault.virtual_address, 0x123456789ab0ull);
    ASSERT_EQ_U(ev.first[i].memory_fault.fault_reason_mask, HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT);
  }
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

/* A FLAT store into the hole between the canonical address halves, outside
 * the LDS and scratch apertures: the hardware rejects it as a memory
 * violation (Linux kfd_flat_memory.c), reported as ROCr does. */
TEST(gpu_fault_flat_store_into_the_address_hole_is_an_aperture_violation) {
  run_faulting_kernel("flat_store_kernel", (void *)(uintptr_t)0x0000800000000000ull, 0, 0,
                      (hsa_status_t)HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION);
}

/* Scratch the GPU cannot give (128 KiB per work-item: more than the 8 MiB
 * per wave COMPUTE_TMPRING_SIZE describes): the CP asks the runtime
 * (ROCr's protocol), the runtime cannot, the queue stops. */
TEST(gpu_fault_scratch_beyond_the_gpu_is_out_of_resources) {
  run_faulting_kernel("store_kernel", output_buffer(), 131072, 0, HSA_STATUS_ERROR_OUT_OF_RESOURCES);
}

/* A kernel that never ends, on a queue with a 100 ms limit: stopped and
 * reported (hsa_queue_time_limit.h). */
TEST(gpu_fault_runaway_dispatch_stops_at_its_time_limit) {
  int *flag = output_buffer();
  flag[0] = 0;
  run_faulting_kernel("spin_kernel", flag, 0, 100000000ull, HSA_STATUS_ERROR_EXCEPTION);
}

TEST(gpu_fault_time_limit_refuses_what_is_no_gpu_queue) {
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  hsa_agent_t cpus[4];
  ASSERT_GE(hsa_test_cpu_agents(cpus, 4), 1);
  hsa_queue_t *q;
  ASSERT_EQ(hsa_queue_create(cpus[0], 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_queue_set_time_limit(q, 1000000), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_queue_set_time_limit(q, 1000000), HSA_STATUS_ERROR_INVALID_QUEUE);
  ASSERT_EQ(hsa_queue_set_time_limit(NULL, 1000000), HSA_STATUS_ERROR_INVALID_QUEUE);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

