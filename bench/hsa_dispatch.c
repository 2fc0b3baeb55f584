/*
 * hsa_dispatch.c - empty-kernel dispatch to a CPU agent of this runtime,
 * the way a program does it: reserve a slot, write the packet, publish the
 * header, ring the doorbell, wait on the completion signal (active wait).
 * Latency: one dispatch in flight. Throughput: the queue kept full.
 */
#include <hsa/hsa.h>
#include <hsa/hsa_cpu_kernel.h>
#include <string.h>

#include "bench/bench.h"
#include "support/program.h" /* the 1-D dispatch packet the programs write */

HSA_CPU_KERNEL(bench_empty, 0) { (void)hsa_dispatch; }

#define QUEUE_SIZE 1024

static hsa_status_t first_cpu(hsa_agent_t agent, void *data) {
  hsa_device_type_t type;
  hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
  if (type != HSA_DEVICE_TYPE_CPU) return HSA_STATUS_SUCCESS;
  *(hsa_agent_t *)data = agent;
  return HSA_STATUS_INFO_BREAK;
}

static void submit(hsa_queue_t *q, uint64_t kernel_object, hsa_signal_t done) {
  uint64_t index = hsa_queue_add_write_index_relaxed(q, 1);
  while (index - hsa_queue_load_read_index_scacquire(q) >= q->size) __builtin_ia32_pause();
  hsa_kernel_dispatch_packet_t *p =
      (hsa_kernel_dispatch_packet_t *)q->base_address + (index & (q->size - 1));
  const struct program_kernel k = {.object = kernel_object};
  program_fill_dispatch_1d(p, &k, NULL, 1, 1, done);
  program_publish(q, index, p, PROGRAM_PACKET_HEADER(HSA_PACKET_TYPE_KERNEL_DISPATCH),
                  1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);
}

void bench_hsa_dispatch(struct samples *latency, struct samples *throughput) {
  hsa_agent_t agent = {0};
  hsa_queue_t *q = NULL;
  hsa_signal_t done = {0};
  hsa_executable_t exec = {0};
  hsa_executable_symbol_t sym;
  uint64_t kernel_object = 0;
  if (hsa_init() != HSA_STATUS_SUCCESS ||
      hsa_iterate_agents(first_cpu, &agent) != HSA_STATUS_INFO_BREAK ||
      hsa_queue_create(agent, QUEUE_SIZE, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, 0, 0, &q) !=
          HSA_STATUS_SUCCESS ||
      hsa_signal_create(1, 0, NULL, &done) != HSA_STATUS_SUCCESS ||
      hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL,
                                &exec) ||
      hsa_executable_get_symbol_by_name(exec, "bench_empty", &agent, &sym) ||
      hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT,
                                     &kernel_object)) {
    latency->note = throughput->note = "HSA set-up failed";
    return;
  }
  bench_unpin();                   /* the scheduler places us and the agent's cores */
  for (int i = 0; i < 1000; i++) { /* warm up */
    hsa_signal_store_relaxed(done, 1);
    submit(q, kernel_object, done);
    hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX, HSA_WAIT_STATE_ACTIVE);
  }
  for (size_t i = 0; i < latency->count; i++) {
    hsa_signal_store_relaxed(done, 1);
    uint64_t t0 = bench_now_ns();
    submit(q, kernel_object, done);
    hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX, HSA_WAIT_STATE_ACTIVE);
    latency->ns[i] = bench_now_ns() - t0;
  }
  /* Throughput: every dispatch decrements one signal; never wait per packet. */
  size_t n = throughput->count;
  hsa_signal_store_relaxed(done, (hsa_signal_value_t)n);
  uint64_t t0 = bench_now_ns();
  for (size_t i = 0; i < n; i++) submit(q, kernel_object, done);
  hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX, HSA_WAIT_STATE_ACTIVE);
  uint64_t took = bench_now_ns() - t0;
  throughput->per_second = (double)n * 1e9 / (double)took;
  for (size_t i = 0; i < n; i++) throughput->ns[i] = took / n;
  hsa_executable_destroy(exec);
  hsa_signal_destroy(done);
  hsa_queue_destroy(q);
  hsa_shut_down();
}
