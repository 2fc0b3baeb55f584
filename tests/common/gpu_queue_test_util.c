/* gpu_queue_test_util.c - see gpu_queue_test_util.h. */
#include "tests/common/gpu_queue_test_util.h"

#include <stdio.h>
#include <string.h>

#include <hsa/hsa_kernarg_hidden.h>

#include "drivers/amdgpu/amdgpu.h"
#include "lib/test.h"
#include "tests/common/gpu_test_util.h"
#include "tests/common/hsa_test_util.h"

#define KERNARG_BYTES (1u << 20)

static void load(struct gpu_queue_env *e, const char *file, const char *name, struct gpu_kernel *k) {
  char target[64], path[256], symbol[64], why[256];
  ASSERT_EQ(hsa_agent_get_info(e->gpu, HSA_AGENT_INFO_NAME, target), HSA_STATUS_SUCCESS);
  snprintf(path, sizeof path, "%s/gpu-tests/%s/%s.co", GPU_TEST_KERNELS_DIR, target, file);
  snprintf(symbol, sizeof symbol, "%s.kd", name);
  if (gpu_kernel_load(e->gpu, path, symbol, NULL, NULL, k, why, sizeof why)) FAIL("%s", why);
}

void gpu_queue_env_open(struct gpu_queue_env *e) {
  memset(e, 0, sizeof *e);
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  e->gpu = gpu_test_agent();
  e->pool = hsa_test_kernarg_pool(e->gpu);
  ASSERT_NE(e->pool.handle, 0);
  ASSERT_EQ(hsa_agent_get_info(e->gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, &e->compute_units), HSA_STATUS_SUCCESS);
  load(e, "queues", "step", &e->step);
  load(e, "queues", "hw_id", &e->hw_id);
  load(e, "queues", "count_and_wait", &e->count_and_wait);
  load(e, "faults", "trap_kernel", &e->trap);
  load(e, "faults", "store_kernel", &e->store);
  ASSERT_EQ(hsa_amd_memory_pool_allocate(e->pool, KERNARG_BYTES, 0, (void **)&e->kernargs), HSA_STATUS_SUCCESS);
}

void gpu_queue_env_close(struct gpu_queue_env *e) {
  ASSERT_EQ(hsa_amd_memory_pool_free(e->kernargs), HSA_STATUS_SUCCESS);
  gpu_kernel_release(&e->step);
  gpu_kernel_release(&e->hw_id);
  gpu_kernel_release(&e->trap);
  gpu_kernel_release(&e->store);
  gpu_kernel_release(&e->count_and_wait);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

void *gpu_queue_env_alloc(struct gpu_queue_env *e, size_t bytes) {
  bytes = (bytes + 63) & ~(size_t)63;
  ASSERT_LE(e->kernargs_used + bytes, KERNARG_BYTES);
  void *p = e->kernargs + e->kernargs_used;
  e->kernargs_used += bytes;
  memset(p, 0, bytes);
  return p;
}

hsa_queue_t *gpu_queue_env_queue(struct gpu_queue_env *e, uint32_t packets, void *error) {
  hsa_queue_t *q = NULL;
  ASSERT_EQ(hsa_queue_create(e->gpu, packets, HSA_QUEUE_TYPE_MULTI, error ? hsa_test_queue_error_callback : NULL,
                             error, UINT32_MAX, UINT32_MAX, &q),
            HSA_STATUS_SUCCESS);
  return q;
}

uint64_t gpu_queue_env_dispatch(struct gpu_queue_env *e, hsa_queue_t *q, const struct gpu_kernel *k,
                                uint32_t items, uint32_t group, uint64_t arg0, uint64_t arg1,
                                hsa_signal_t done) {
  uint64_t *kernarg = gpu_queue_env_alloc(e, k->kernarg_size);
  kernarg[0] = arg0;
  if (k->kernarg_size >= 16) kernarg[1] = arg1;
  hsa_kernel_dispatch_packet_t p;
  gpu_kernel_packet(k, 1, (uint32_t[3]){items, 1, 1}, (uint32_t[3]){group, 1, 1}, 0, kernarg, done, &p);
  ASSERT_EQ(hsa_kernarg_fill_hidden(&p, q, kernarg, k->kernarg_size), HSA_STATUS_SUCCESS);
  return hsa_test_submit(q, &p, hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, true));
}

uint64_t gpu_queue_env_barrier(hsa_queue_t *q, hsa_signal_t dep, hsa_signal_t done) {
  hsa_barrier_and_packet_t b;
  memset(&b, 0, sizeof b);
  b.dep_signal[0] = dep;
  b.completion_signal = done;
  return hsa_test_submit(q, &b, hsa_test_header(HSA_PACKET_TYPE_BARRIER_AND, true));
}

uint64_t gpu_queue_env_swap_ins(void) { return amdgpu_queues_swap_ins(amdgpu_device_get(0)); }
