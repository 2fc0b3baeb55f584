/* hsa_test_util.c - helpers of the HSA runtime tests (hsa_test_util.h). */
#include "tests/common/hsa_test_util.h"

#include <stdatomic.h>
#include <string.h>

#include "lib/plat.h"

struct agent_list {
  hsa_agent_t *agents;
  uint32_t max, count;
};

static hsa_status_t collect_cpu(hsa_agent_t agent, void *data) {
  struct agent_list *l = data;
  hsa_device_type_t type;
  if (hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type) != HSA_STATUS_SUCCESS)
    return HSA_STATUS_ERROR;
  if (type == HSA_DEVICE_TYPE_CPU && l->count < l->max) l->agents[l->count++] = agent;
  return HSA_STATUS_SUCCESS;
}

uint32_t hsa_test_cpu_agents(hsa_agent_t *agents, uint32_t max) {
  struct agent_list l = {agents, max, 0};
  hsa_iterate_agents(collect_cpu, &l);
  if (l.count == 0) test_skip("no CPU agent (the platform has no core besides main()'s)");
  return l.count;
}

static hsa_status_t find_kernarg(hsa_amd_memory_pool_t pool, void *data) {
  uint32_t flags = 0;
  hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
  if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) {
    *(hsa_amd_memory_pool_t *)data = pool;
    return HSA_STATUS_INFO_BREAK;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_amd_memory_pool_t hsa_test_kernarg_pool(hsa_agent_t agent) {
  hsa_amd_memory_pool_t pool = {0};
  hsa_amd_agent_iterate_memory_pools(agent, find_kernarg, &pool);
  return pool;
}

uint16_t hsa_test_header(hsa_packet_type_t type, bool barrier) {
  return (uint16_t)(type << HSA_PACKET_HEADER_TYPE |
                    (barrier ? 1 : 0) << HSA_PACKET_HEADER_BARRIER |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
}

uint64_t hsa_test_submit(hsa_queue_t *q, const void *packet, uint16_t header) {
  uint64_t index = hsa_queue_add_write_index_scacq_screl(q, 1);
  /* Full: give the core to the packet processor (tests oversubscribe). */
  while (index - hsa_queue_load_read_index_scacquire(q) >= q->size) plat_sleep_ns(1000);
  uint8_t *slot = (uint8_t *)q->base_address + (index & (q->size - 1)) * 64;
  memcpy(slot + 2, (const uint8_t *)packet + 2, 62);
  __atomic_store_n((uint16_t *)slot, header, __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)index);
  return index;
}

hsa_kernel_dispatch_packet_t hsa_test_dispatch_packet(const hsa_cpu_kernel_descriptor_t *kernel,
                                                      uint32_t dims, const uint32_t grid[3],
                                                      const uint32_t wg[3], void *kernarg,
                                                      hsa_signal_t completion) {
  hsa_kernel_dispatch_packet_t p;
  memset(&p, 0, sizeof p);
  p.setup = (uint16_t)(dims << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);
  p.workgroup_size_x = (uint16_t)wg[0];
  p.workgroup_size_y = (uint16_t)wg[1];
  p.workgroup_size_z = (uint16_t)wg[2];
  p.grid_size_x = grid[0];
  p.grid_size_y = grid[1];
  p.grid_size_z = grid[2];
  p.kernel_object = (uint64_t)(uintptr_t)kernel;
  p.kernarg_address = kernarg;
  p.completion_signal = completion;
  return p;
}

hsa_signal_value_t hsa_test_wait_eq(hsa_signal_t s, hsa_signal_value_t value) {
  /* 10 s: far beyond any correct run, short enough to fail instead of hang. */
  return hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, value, 10000000000ull,
                                   HSA_WAIT_STATE_BLOCKED);
}

void hsa_test_queue_error_callback(hsa_status_t status, hsa_queue_t *source, void *data) {
  (void)source;
  struct hsa_test_queue_error *e = data;
  atomic_store(&e->status, (int)status);
  atomic_fetch_add(&e->calls, 1);
}

/* Every test that opens the runtime closes it, on every path it passes:
 * a runtime left up keeps its CPU agents' cores (the next test that wants a
 * core gets none) and its queues. After a failed ASSERT or a skip the
 * runtime is closed here; a test that passed and left it open fails. */
TEST_AFTER_EACH(hsa_runtime_closed) {
  unsigned opened = 0;
  uint16_t major;
  while (hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major) == HSA_STATUS_SUCCESS &&
         opened < 1000) {
    hsa_shut_down();
    opened++;
  }
  return opened ? "the HSA runtime was left open (hsa_init without hsa_shut_down)" : NULL;
}

void *hsa_test_pool_alloc(void *pool, size_t size) {
  void *p = NULL;
  if (hsa_amd_memory_pool_allocate(*(hsa_amd_memory_pool_t *)pool, size, 0, &p) != HSA_STATUS_SUCCESS)
    return NULL;
  return p;
}

void hsa_test_pool_free(void *unused, void *p) {
  (void)unused;
  hsa_amd_memory_pool_free(p);
}
