/* signal_group.c - signal groups and waiting on any of their signals
 * (HSA Runtime PRM 1.2, 2.3.2). */
#include <stdlib.h>

#include "hsa/agent.h"
#include "hsa/signal.h"

struct signal_group {
  uint32_t count;
  struct signal *signals[];
};

hsa_status_t hsa_signal_group_create(uint32_t num_signals, const hsa_signal_t *signals,
                                     uint32_t num_consumers, const hsa_agent_t *consumers,
                                     hsa_signal_group_t *signal_group) {
  RETURN_IF_NOT_INITIALIZED();
  if (num_signals == 0 || !signals || !signal_group || (num_consumers && !consumers))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  /* ROCr's order: the signals, then the consumers. */
  for (uint32_t i = 0; i < num_signals; i++) {
    if (!signal_is_valid(signals[i])) return HSA_STATUS_ERROR_INVALID_SIGNAL;
    for (uint32_t j = 0; j < i; j++) /* 2.3.2: no signal twice */
      if (signals[j].handle == signals[i].handle) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  for (uint32_t i = 0; i < num_consumers; i++)
    if (!agent_from_handle(consumers[i])) return HSA_STATUS_ERROR_INVALID_AGENT;
  struct signal_group *g = malloc(sizeof *g + num_signals * sizeof g->signals[0]);
  if (!g) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  g->count = num_signals;
  for (uint32_t i = 0; i < num_signals; i++) g->signals[i] = signal_from_handle(signals[i]);
  if (!object_set_insert(&rt.signal_groups, g)) {
    free(g);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  signal_group->handle = (uint64_t)(uintptr_t)g;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_signal_group_destroy(hsa_signal_group_t signal_group) {
  RETURN_IF_NOT_INITIALIZED();
  struct signal_group *g = (struct signal_group *)(uintptr_t)signal_group.handle;
  if (!object_set_remove(&rt.signal_groups, g)) return HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP;
  free(g);
  return HSA_STATUS_SUCCESS;
}

void signal_groups_fini(void) {
  struct signal_group *g;
  while ((g = object_set_pop(&rt.signal_groups)) != NULL) free(g);
  object_set_free(&rt.signal_groups);
}

static hsa_status_t group_wait_any(hsa_signal_group_t signal_group,
                                   const hsa_signal_condition_t *conditions,
                                   const hsa_signal_value_t *compare_values,
                                   hsa_wait_state_t wait_state, hsa_signal_t *signal,
                                   hsa_signal_value_t *value, int order) {
  RETURN_IF_NOT_INITIALIZED();
  struct signal_group *g = (struct signal_group *)(uintptr_t)signal_group.handle;
  if (!object_set_contains(&rt.signal_groups, g)) return HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP;
  if (!conditions || !compare_values || !signal || !value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (uint32_t i = 0; i < g->count; i++)
    if ((unsigned)conditions[i] > HSA_SIGNAL_CONDITION_GTE)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  uint32_t index;
  /* No timeout in this API: it waits until a condition holds. */
  signal_wait_any(g->count, g->signals, conditions, compare_values, UINT64_MAX, wait_state, order,
                  &index, value);
  *signal = signal_handle(g->signals[index]);
  return HSA_STATUS_SUCCESS;
}

#define DEFINE_GROUP_WAIT(suffix, order)                                                          \
  hsa_status_t hsa_signal_group_wait_any_##suffix(                                                \
      hsa_signal_group_t group, const hsa_signal_condition_t *conditions,                         \
      const hsa_signal_value_t *compare_values, hsa_wait_state_t wait_state, hsa_signal_t *signal, \
      hsa_signal_value_t *value) {                                                                \
    return group_wait_any(group, conditions, compare_values, wait_state, signal, value, order);    \
  }
DEFINE_GROUP_WAIT(scacquire, __ATOMIC_ACQUIRE)
DEFINE_GROUP_WAIT(relaxed, __ATOMIC_RELAXED)
