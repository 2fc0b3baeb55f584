/*
 * hsa_sample_regions.c - the older HSA sample style: regions instead of
 * pools, hsa_memory_allocate, the deprecated *_acquire/_release spellings,
 * a soft queue the program serves itself, signal groups and a barrier-AND
 * chain between two queues of two agents. hsa.h and hsa_ext_amd.h only.
 */
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <stdio.h>
#include <string.h>

#include "support/program.h"

static hsa_status_t get_kernarg_region(hsa_region_t region, void *data) {
  hsa_region_segment_t segment;
  hsa_region_get_info(region, HSA_REGION_INFO_SEGMENT, &segment);
  uint32_t flags;
  hsa_region_get_info(region, HSA_REGION_INFO_GLOBAL_FLAGS, &flags);
  if (segment == HSA_REGION_SEGMENT_GLOBAL && (flags & HSA_REGION_GLOBAL_FLAG_KERNARG)) {
    *(hsa_region_t *)data = region;
    return HSA_STATUS_INFO_BREAK;
  }
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t collect(hsa_agent_t agent, void *data) {
  hsa_agent_t *list = data;
  if (list[0].handle == 0)
    list[0] = agent;
  else if (list[1].handle == 0)
    list[1] = agent;
  return HSA_STATUS_SUCCESS;
}

static void submit_barrier(hsa_queue_t *q, hsa_signal_t dep, hsa_signal_t done) {
  uint64_t index = hsa_queue_add_write_index_acq_rel(q, 1);
  hsa_barrier_and_packet_t *b =
      (hsa_barrier_and_packet_t *)q->base_address + (index & (q->size - 1));
  memset((char *)b + 2, 0, sizeof *b - 2);
  b->dep_signal[0] = dep;
  b->completion_signal = done;
  uint16_t header = HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_ACQUIRE_FENCE_SCOPE |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_RELEASE_FENCE_SCOPE;
  __atomic_store_n(&b->header, header, __ATOMIC_RELEASE);
  hsa_signal_store_release(q->doorbell_signal, (hsa_signal_value_t)index);
}

int main(int argc, char **argv) {
  (void)argc, (void)argv;
  CHECK(hsa_init());
  hsa_agent_t agents[2] = {{0}, {0}};
  CHECK(hsa_iterate_agents(collect, agents));
  if (agents[1].handle == 0) agents[1] = agents[0];
  hsa_region_t region = {0};
  if (hsa_agent_iterate_regions(agents[0], get_kernarg_region, &region) != HSA_STATUS_INFO_BREAK)
    return 1;
  char *buffer;
  CHECK(hsa_memory_allocate(region, 4096, (void **)&buffer));
  CHECK(hsa_memory_copy(buffer, "hello", 6));

  /* Two queues on two agents; the second waits on the first. */
  hsa_queue_t *q0, *q1;
  CHECK(hsa_queue_create(agents[0], 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX,
                         &q0));
  CHECK(hsa_queue_create(agents[1], 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX,
                         &q1));
  hsa_signal_t gate, first, second;
  CHECK(hsa_signal_create(1, 0, NULL, &gate));
  CHECK(hsa_signal_create(1, 0, NULL, &first));
  CHECK(hsa_signal_create(1, 1, &agents[1], &second));
  submit_barrier(q1, first, second);
  submit_barrier(q0, gate, first);
  if (hsa_signal_wait_acquire(second, HSA_SIGNAL_CONDITION_EQ, 0, 1000000,
                              HSA_WAIT_STATE_BLOCKED) == 0)
    return fprintf(stderr, "barrier ran before its dependency\n"), 1;
  hsa_signal_store_release(gate, 0);
  hsa_signal_group_t group;
  CHECK(hsa_signal_group_create(1, &second, 0, NULL, &group));
  hsa_signal_condition_t cond = HSA_SIGNAL_CONDITION_EQ;
  hsa_signal_value_t zero = 0, value;
  hsa_signal_t which;
  CHECK(hsa_signal_group_wait_any_scacquire(group, &cond, &zero, HSA_WAIT_STATE_BLOCKED, &which,
                                            &value));
  if (which.handle != second.handle || value != 0) return fprintf(stderr, "group wait\n"), 1;

  /* A soft queue: the program is its packet processor. */
  hsa_signal_t doorbell;
  CHECK(hsa_signal_create(0, 0, NULL, &doorbell));
  hsa_queue_t *soft;
  CHECK(hsa_soft_queue_create(region, 64, HSA_QUEUE_TYPE_SINGLE, HSA_QUEUE_FEATURE_AGENT_DISPATCH,
                              doorbell, &soft));
  uint64_t index = hsa_queue_load_write_index_relaxed(soft);
  hsa_agent_dispatch_packet_t *p = (hsa_agent_dispatch_packet_t *)soft->base_address + index;
  p->arg[0] = 7;
  __atomic_store_n(&p->header, (uint16_t)(HSA_PACKET_TYPE_AGENT_DISPATCH << HSA_PACKET_HEADER_TYPE),
                   __ATOMIC_RELEASE);
  hsa_queue_store_write_index_release(soft, index + 1);
  hsa_signal_store_relaxed(doorbell, (hsa_signal_value_t)index);
  /* ...served: */
  if (hsa_signal_wait_relaxed(doorbell, HSA_SIGNAL_CONDITION_GTE, 0, 0, HSA_WAIT_STATE_ACTIVE) != 0)
    return 1;
  if ((p->header & 0xff) != HSA_PACKET_TYPE_AGENT_DISPATCH || p->arg[0] != 7) return 1;
  hsa_queue_store_read_index_release(soft, index + 1);
  if (hsa_queue_load_read_index_acquire(soft) != 1) return 1;

  CHECK(hsa_queue_destroy(soft));
  CHECK(hsa_signal_group_destroy(group));
  CHECK(hsa_signal_destroy(doorbell));
  CHECK(hsa_signal_destroy(gate));
  CHECK(hsa_signal_destroy(first));
  CHECK(hsa_signal_destroy(second));
  CHECK(hsa_queue_destroy(q0));
  CHECK(hsa_queue_destroy(q1));
  if (strcmp(buffer, "hello") != 0) return 1;
  CHECK(hsa_memory_free(buffer));
  CHECK(hsa_shut_down());
  printf("hsa_sample_regions: ok\n");
  return 0;
}
