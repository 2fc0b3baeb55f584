/*
 * hsa_vector_copy.c - the HSA Foundation's "vector_copy" sample as its
 * users write it: the GPU agent and its kernarg region through the region
 * API, a queue of the agent's maximum size with an error callback, the
 * code object read from a file into memory and loaded with the deprecated
 * hsa_code_object_deserialize / hsa_executable_load_code_object /
 * hsa_executable_get_symbol path, program memory registered with
 * hsa_memory_register, the packet published with one 32-bit release store
 * of header and setup, the doorbell rung with a relaxed store.
 * Kernel: OpenCL C with the device libraries, code object v4.
 */
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "support/program.h"

#define N 65536

static hsa_status_t get_gpu_agent(hsa_agent_t agent, void *data) {
  hsa_device_type_t device_type;
  CHECK(hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &device_type));
  if (device_type == HSA_DEVICE_TYPE_GPU) {
    *(hsa_agent_t *)data = agent;
    return HSA_STATUS_INFO_BREAK;
  }
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t get_kernarg_memory_region(hsa_region_t region, void *data) {
  hsa_region_segment_t segment;
  hsa_region_get_info(region, HSA_REGION_INFO_SEGMENT, &segment);
  if (segment != HSA_REGION_SEGMENT_GLOBAL) return HSA_STATUS_SUCCESS;
  hsa_region_global_flag_t flags;
  hsa_region_get_info(region, HSA_REGION_INFO_GLOBAL_FLAGS, &flags);
  if (flags & HSA_REGION_GLOBAL_FLAG_KERNARG) {
    *(hsa_region_t *)data = region;
    return HSA_STATUS_INFO_BREAK;
  }
  return HSA_STATUS_SUCCESS;
}

static void queue_error(hsa_status_t status, hsa_queue_t *source, void *data) {
  (void)data;
  const char *msg = "?";
  hsa_status_string(status, &msg);
  fprintf(stderr, "queue %llu: error 0x%x %s\n", (unsigned long long)source->id, status, msg);
  exit(1);
}

/* The sample's packet_store_release: header and setup in one 32-bit store. */
static void packet_store_release(uint32_t *packet, uint16_t header, uint16_t rest) {
  __atomic_store_n(packet, header | (uint32_t)rest << 16, __ATOMIC_RELEASE);
}

int main(int argc, char **argv) {
  CHECK(hsa_init());

  hsa_agent_t agent = {0};
  CHECK(hsa_iterate_agents(get_gpu_agent, &agent));
  EXPECT(agent.handle != 0, "no GPU agent");
  char name[64] = {0};
  CHECK(hsa_agent_get_info(agent, HSA_AGENT_INFO_NAME, name));
  printf("The agent name is %s.\n", name);

  uint32_t queue_size = 0;
  CHECK(hsa_agent_get_info(agent, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &queue_size));
  printf("The maximum queue size is %u.\n", queue_size);
  hsa_queue_t *queue;
  CHECK(hsa_queue_create(agent, queue_size, HSA_QUEUE_TYPE_SINGLE, queue_error, NULL, UINT32_MAX,
                         UINT32_MAX, &queue));

  /* Code object: deserialize, then load into an executable (HSA 1.0 API). */
  size_t co_size;
  void *co_bytes =
      program_read_file(program_kernel_path(argc, argv, "vector_copy.v4.co"), &co_size);
  hsa_code_object_t code_object;
  CHECK(hsa_code_object_deserialize(co_bytes, co_size, NULL, &code_object));
  free(co_bytes); /* deserialize keeps its own copy */
  hsa_executable_t executable;
  CHECK(hsa_executable_create(HSA_PROFILE_FULL, HSA_EXECUTABLE_STATE_UNFROZEN, "", &executable));
  CHECK(hsa_executable_load_code_object(executable, agent, code_object, ""));
  CHECK(hsa_executable_freeze(executable, ""));
  hsa_executable_symbol_t symbol;
  CHECK(hsa_executable_get_symbol(executable, NULL, "vector_copy.kd", agent, 0, &symbol));
  struct program_kernel kernel = program_kernel_info(symbol);

  hsa_signal_t signal;
  CHECK(hsa_signal_create(1, 0, NULL, &signal));

  /* Program memory, registered (the full profile needs no copy). */
  int *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
  EXPECT(in && out, "out of memory");
  for (int i = 0; i < N; i++) in[i] = i * 3 + 1, out[i] = -1;
  CHECK(hsa_memory_register(in, N * sizeof *in));
  CHECK(hsa_memory_register(out, N * sizeof *out));

  /* Kernel arguments in the kernarg region; the hidden ones left zero. */
  hsa_region_t kernarg_region = {0};
  CHECK(hsa_agent_iterate_regions(agent, get_kernarg_memory_region, &kernarg_region));
  EXPECT(kernarg_region.handle != 0, "no kernarg region");
  void *kernarg_address = NULL;
  CHECK(hsa_memory_allocate(kernarg_region, kernel.kernarg_size, &kernarg_address));
  memset(kernarg_address, 0, kernel.kernarg_size);
  struct {
    int *in, *out;
  } args = {in, out};
  EXPECT(kernel.kernarg_size >= sizeof args, "kernarg segment of %u bytes", kernel.kernarg_size);
  memcpy(kernarg_address, &args, sizeof args);

  uint64_t index = hsa_queue_load_write_index_relaxed(queue);
  hsa_kernel_dispatch_packet_t *dispatch_packet =
      (hsa_kernel_dispatch_packet_t *)queue->base_address + (index & (queue->size - 1));
  dispatch_packet->setup = 0; /* written with the header */
  dispatch_packet->workgroup_size_x = 256;
  dispatch_packet->workgroup_size_y = 1;
  dispatch_packet->workgroup_size_z = 1;
  dispatch_packet->reserved0 = 0;
  dispatch_packet->grid_size_x = N;
  dispatch_packet->grid_size_y = 1;
  dispatch_packet->grid_size_z = 1;
  dispatch_packet->completion_signal = signal;
  dispatch_packet->kernel_object = kernel.object;
  dispatch_packet->kernarg_address = kernarg_address;
  dispatch_packet->private_segment_size = kernel.private_size;
  dispatch_packet->group_segment_size = kernel.group_size;
  dispatch_packet->reserved2 = 0;
  uint16_t header = HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_ACQUIRE_FENCE_SCOPE |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_RELEASE_FENCE_SCOPE;
  packet_store_release((uint32_t *)dispatch_packet, header,
                       1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);
  hsa_queue_store_write_index_relaxed(queue, index + 1);
  hsa_signal_store_relaxed(queue->doorbell_signal, (hsa_signal_value_t)index);

  hsa_signal_value_t value;
  while ((value = hsa_signal_wait_scacquire(signal, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                            HSA_WAIT_STATE_ACTIVE)) != 0)
    ;
  for (int i = 0; i < N; i++) EXPECT(out[i] == in[i], "out[%d] = %d, want %d", i, out[i], in[i]);

  CHECK(hsa_memory_free(kernarg_address));
  CHECK(hsa_memory_deregister(in, N * sizeof *in));
  CHECK(hsa_memory_deregister(out, N * sizeof *out));
  free(in);
  free(out);
  CHECK(hsa_signal_destroy(signal));
  CHECK(hsa_executable_destroy(executable));
  CHECK(hsa_code_object_destroy(code_object));
  CHECK(hsa_queue_destroy(queue));
  CHECK(hsa_shut_down());
  printf("hsa_vector_copy: %d integers copied by %s: ok\n", N, name);
  return 0;
}
