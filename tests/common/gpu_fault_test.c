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

#include "lib/plat.h"
#include "lib/test.h"
#include "tests/common/gpu_kernel.h"
#include "tests/common/gpu_test_util.h"
#include "tests/common/hsa_test_util.h"

#define ERROR_WAIT_NS 60000000000ull
#define UNMAPPED_ADDRESS 0x0000700000000000ull /* no memory of the host process or the image */

/* Dispatches `kernel` (one work-group of 256, 4 waves) with `out` as its
 * argument and `private_size` bytes of scratch per work-item on a queue
 * with a time limit (0: none), and checks that the queue stops with `want`
 * while another queue goes on. */
static void run_faulting_kernel(const char *kernel, void *out, uint32_t private_size,
                                uint64_t time_limit_ns, hsa_status_t want) {
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  hsa_agent_t gpu = gpu_test_agent();
  char target[64], path[256], symbol[64], why[256];
  ASSERT_EQ(hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, target), HSA_STATUS_SUCCESS);
  snprintf(path, sizeof path, "%s/gpu-tests/%s/faults.co", GPU_TEST_KERNELS_DIR, target);
  snprintf(symbol, sizeof symbol, "%s.kd", kernel);
  struct gpu_kernel k;
  if (gpu_kernel_load(gpu, path, symbol, NULL, NULL, &k, why, sizeof why)) test_fail(__FILE__, __LINE__, "%s", why);

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
    if (plat_now_ns() > until) test_fail(__FILE__, __LINE__, "%s: no queue error reported", kernel);
    ASSERT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 10000000, HSA_WAIT_STATE_BLOCKED), 1);
  }
  if (atomic_load(&err.status) != (int)want)
    test_fail(__FILE__, __LINE__, "%s: queue error 0x%x, want 0x%x", kernel, atomic_load(&err.status), want);
  /* The dispatch never completes; the other queue goes on. */
  hsa_barrier_and_packet_t b;
  memset(&b, 0, sizeof b);
  b.completion_signal = ok;
  hsa_test_submit(good, &b, hsa_test_header(HSA_PACKET_TYPE_BARRIER_AND, true));
  ASSERT_EQ(hsa_test_wait_eq(ok, 0), 0);
  ASSERT_EQ(hsa_signal_load_scacquire(done), 1);
  ASSERT_EQ(atomic_load(&err.calls), 1);
  ASSERT_EQ(atomic_load(&good_err.calls), 0);

  ASSERT_EQ(hsa_queue_destroy(bad), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_queue_destroy(good), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_destroy(ok), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_pool_free(kernarg), HSA_STATUS_SUCCESS);
  gpu_kernel_release(&k);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
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

