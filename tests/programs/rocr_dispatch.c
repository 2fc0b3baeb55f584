/*
 * rocr_dispatch.c - a program written the way ROCr programs are: find a
 * CPU agent and its kernarg pool, create a queue and a completion signal,
 * find the kernel through an executable, dispatch it with an AQL packet,
 * wait, check. Only the kernel's definition (HSA_CPU_KERNEL) is specific to
 * hsa-metal; the dispatch code is what a GPU dispatch looks like. Then an
 * agent dispatch (HSA PRM 2.9.7) of the program's own function for a type
 * it chose (HSA_CPU_AGENT_FUNCTION), which writes its result at the
 * packet's return address.
 *
 * Built by `make test` with exactly:
 *   cc -I. -Ihsa/include prog.c build/host/lib/libhsa-runtime64.a -lpthread -lm
 */
#include <hsa/hsa.h>
#include <hsa/hsa_cpu_kernel.h>
#include <hsa/hsa_ext_amd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/program.h"

#define N 100000

struct args {
  const float *a, *b;
  float *c;
  uint32_t n;
};

HSA_CPU_KERNEL(vector_add, sizeof(struct args)) {
  const struct args *args = hsa_dispatch->kernarg;
  for (uint32_t i = 0; i < hsa_dispatch->item_count[0]; i++) {
    uint32_t x = hsa_dispatch->global_offset[0] + i;
    if (x < args->n) args->c[x] = args->a[x] + args->b[x];
  }
}

#define MULTIPLY_ADD 0x0100 /* an agent-dispatch type of the program's */

HSA_CPU_AGENT_FUNCTION(MULTIPLY_ADD, multiply_add) {
  *(uint64_t *)return_address = arg[0] * arg[1] + arg[2];
}

static hsa_status_t find_cpu(hsa_agent_t agent, void *data) {
  hsa_device_type_t type;
  CHECK(hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type));
  uint32_t features;
  CHECK(hsa_agent_get_info(agent, HSA_AGENT_INFO_FEATURE, &features));
  if (type == HSA_DEVICE_TYPE_CPU && (features & HSA_AGENT_FEATURE_KERNEL_DISPATCH)) {
    *(hsa_agent_t *)data = agent;
    return HSA_STATUS_INFO_BREAK;
  }
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_kernarg_pool(hsa_amd_memory_pool_t pool, void *data) {
  if (program_pool_global_flags(pool) & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) {
    *(hsa_amd_memory_pool_t *)data = pool;
    return HSA_STATUS_INFO_BREAK;
  }
  return HSA_STATUS_SUCCESS;
}

int main(int argc, char **argv) {
  (void)argc, (void)argv;
  CHECK(hsa_init());
  hsa_agent_t agent = {0};
  if (hsa_iterate_agents(find_cpu, &agent) != HSA_STATUS_INFO_BREAK)
    return fprintf(stderr, "no CPU agent\n"), 1;
  hsa_amd_memory_pool_t pool = {0};
  if (hsa_amd_agent_iterate_memory_pools(agent, find_kernarg_pool, &pool) != HSA_STATUS_INFO_BREAK)
    return fprintf(stderr, "no kernarg pool\n"), 1;

  hsa_executable_t exec;
  CHECK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL,
                                  &exec));
  CHECK(hsa_executable_freeze(exec, NULL));
  hsa_executable_symbol_t symbol;
  CHECK(hsa_executable_get_symbol_by_name(exec, "vector_add.kd", &agent, &symbol));
  struct program_kernel kernel = program_kernel_info(symbol);

  float *a, *b, *c;
  CHECK(hsa_amd_memory_pool_allocate(pool, N * sizeof(float), 0, (void **)&a));
  CHECK(hsa_amd_memory_pool_allocate(pool, N * sizeof(float), 0, (void **)&b));
  CHECK(hsa_amd_memory_pool_allocate(pool, N * sizeof(float), 0, (void **)&c));
  for (int i = 0; i < N; i++) a[i] = (float)i, b[i] = 2.0f * (float)i, c[i] = -1.0f;
  struct args *args;
  CHECK(hsa_amd_memory_pool_allocate(pool, kernel.kernarg_size, 0, (void **)&args));
  *args = (struct args){a, b, c, N};

  hsa_queue_t *queue;
  CHECK(hsa_queue_create(agent, 256, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, UINT32_MAX, UINT32_MAX,
                         &queue));
  hsa_signal_t done;
  CHECK(hsa_signal_create(1, 0, NULL, &done));

  uint64_t index = hsa_queue_add_write_index_relaxed(queue, 1);
  hsa_kernel_dispatch_packet_t *packet =
      (hsa_kernel_dispatch_packet_t *)queue->base_address + (index & (queue->size - 1));
  program_fill_dispatch_1d(packet, &kernel, args, N, 256, done);
  program_publish(queue, index, packet, PROGRAM_PACKET_HEADER(HSA_PACKET_TYPE_KERNEL_DISPATCH),
                  1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);

  if (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                HSA_WAIT_STATE_BLOCKED) != 0)
    return fprintf(stderr, "completion signal not 0\n"), 1;
  for (int i = 0; i < N; i++)
    if (c[i] != 3.0f * (float)i)
      return fprintf(stderr, "c[%d] = %f, want %f\n", i, c[i], 3.0 * i), 1;

  uint64_t result = 0;
  hsa_signal_store_relaxed(done, 1);
  index = hsa_queue_add_write_index_relaxed(queue, 1);
  hsa_agent_dispatch_packet_t *agent_packet =
      (hsa_agent_dispatch_packet_t *)queue->base_address + (index & (queue->size - 1));
  memset((uint8_t *)agent_packet + 4, 0, sizeof *agent_packet - 4);
  agent_packet->arg[0] = 1000003;
  agent_packet->arg[1] = 77;
  agent_packet->arg[2] = 5;
  agent_packet->return_address = &result;
  agent_packet->completion_signal = done;
  program_publish(queue, index, agent_packet, PROGRAM_PACKET_HEADER(HSA_PACKET_TYPE_AGENT_DISPATCH),
                  MULTIPLY_ADD);
  if (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                HSA_WAIT_STATE_BLOCKED) != 0)
    return fprintf(stderr, "agent dispatch: completion signal not 0\n"), 1;
  if (result != 1000003ull * 77 + 5)
    return fprintf(stderr, "agent dispatch: result %llu\n", (unsigned long long)result), 1;

  CHECK(hsa_signal_destroy(done));
  CHECK(hsa_queue_destroy(queue));
  CHECK(hsa_amd_memory_pool_free(args));
  CHECK(hsa_amd_memory_pool_free(a));
  CHECK(hsa_amd_memory_pool_free(b));
  CHECK(hsa_amd_memory_pool_free(c));
  CHECK(hsa_executable_destroy(exec));
  CHECK(hsa_shut_down());
  printf("rocr_dispatch: %d elements added and an agent dispatch on a CPU agent: ok\n", N);
  return 0;
}
