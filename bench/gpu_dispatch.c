/* bench-gpu - the GPU agent on the virtual APU (host): what one AQL round
 * trip costs through the driver's hardware queue, the command processor
 * and the interpreter. Prints figures, asserts nothing.
 *
 *   barrier round trip   an empty barrier-AND packet: doorbell, CP fetch,
 *                        completion signal, the waiter wakes
 *   empty dispatch       vector_add over one wave with n = 0 (every lane
 *                        checks its id and returns): a dispatch's own cost
 *                        in the driver, the CP and the interpreter, back to
 *                        back (the "empty-dispatch round trip")
 *   dispatch round trip  vector_add over one wave (64 items), back to back
 *   dispatch, N queues   the same with 32 and 128 queues open (the driver
 *                        has 32 hardware slots): on the first queue, and
 *                        on every queue in turn (beyond 32 each turn
 *                        swaps a queue into a slot)
 *   dispatch throughput  vector_add over 1 Mi items: work-items per second
 *
 * Usage: bench-gpu <kernels dir> [rounds]   (the corpus folder mk/kernels.mk
 * builds: <dir>/<the agent's gfx target>/vector_add.O2.v5.co)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_kernarg_hidden.h>

#include "bench/bench.h"
#include "support/gpu_kernel.h"

#define WAIT_NS 60000000000ull


static void report(const char *what, uint64_t *ns, unsigned n, const char *goal) {
  bench_sort_u64(ns, n);
  uint64_t sum = 0;
  for (unsigned i = 0; i < n; i++) sum += ns[i];
  printf("%-30s median %8.1f us   mean %8.1f us   p99 %8.1f us   (%u rounds)%s\n", what, ns[n / 2] / 1e3,
         sum / 1e3 / n, ns[n * 99 / 100] / 1e3, n, goal);
}

/* Writes the packet at the next slot, header last, rings, waits. */
static int round_trip(hsa_queue_t *q, void *packet, uint16_t header, hsa_signal_t done) {
  hsa_signal_store_relaxed(done, 1);
  uint64_t index = hsa_queue_add_write_index_scacq_screl(q, 1);
  uint8_t *slot = (uint8_t *)q->base_address + (index & (q->size - 1)) * 64;
  memcpy(slot + 2, (uint8_t *)packet + 2, 62);
  __atomic_store_n((uint16_t *)slot, header, __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)index);
  return hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, WAIT_NS, HSA_WAIT_STATE_BLOCKED) == 0 ? 0 : -1;
}

static uint16_t header_of(hsa_packet_type_t type) {
  return (uint16_t)(type << HSA_PACKET_HEADER_TYPE | 1 << HSA_PACKET_HEADER_BARRIER |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s <kernels dir> [rounds]\n", argv[0]);
    return 2;
  }
  unsigned rounds = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : 1000;
  if (rounds < 10) rounds = 10;
  if (hsa_init() != HSA_STATUS_SUCCESS) return 1;
  hsa_agent_t gpu;
  hsa_amd_memory_pool_t pool;
  hsa_queue_t *q = NULL;
  hsa_signal_t done;
  if (!gpu_find_agent(&gpu) || !gpu_find_kernarg_pool(gpu, &pool) ||
      hsa_queue_create(gpu, 256, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, UINT32_MAX, UINT32_MAX, &q) ||
      hsa_signal_create(1, 0, NULL, &done)) {
    fprintf(stderr, "bench-gpu: no GPU agent, queue or signal\n");
    return 1;
  }
  uint64_t *ns = calloc(rounds, sizeof *ns);

  hsa_barrier_and_packet_t barrier;
  memset(&barrier, 0, sizeof barrier);
  barrier.completion_signal = done;
  for (unsigned i = 0; i < rounds; i++) {
    uint64_t t0 = bench_now_ns();
    if (round_trip(q, &barrier, header_of(HSA_PACKET_TYPE_BARRIER_AND), done)) return 1;
    ns[i] = bench_now_ns() - t0;
  }
  report("barrier round trip", ns, rounds, "");

  /* The corpus build for the agent's processor (kernels/<gfx...>/). */
  char target[64], path[512], why[256];
  struct gpu_kernel k;
  if (hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, target) != HSA_STATUS_SUCCESS) return 1;
  snprintf(path, sizeof path, "%s/%s/vector_add.O2.v5.co", argv[1], target);
  if (gpu_kernel_load(gpu, path, "vector_add.kd", NULL, NULL, &k, why, sizeof why)) {
    fprintf(stderr, "bench-gpu: %s\n", why);
    return 1;
  }
  uint64_t object = k.object;
  uint32_t kernarg_size = k.kernarg_size;
  const uint32_t big = 1u << 20;
  float *a, *b, *c;
  void *kernarg;
  if (hsa_amd_memory_pool_allocate(pool, big * 4, 0, (void **)&a) ||
      hsa_amd_memory_pool_allocate(pool, big * 4, 0, (void **)&b) ||
      hsa_amd_memory_pool_allocate(pool, big * 4, 0, (void **)&c) ||
      hsa_amd_memory_pool_allocate(pool, kernarg_size, 0, &kernarg))
    return 1;
  for (uint32_t i = 0; i < big; i++) a[i] = (float)i, b[i] = 1.0f;
  /* vector_add(const float *a, const float *b, float *c, uint n) */
  struct { const float *a, *b; float *c; uint32_t n; } args = {a, b, c, 0};
  hsa_kernel_dispatch_packet_t p;
  memset(&p, 0, sizeof p);
  p.setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
  p.workgroup_size_x = 64;
  p.workgroup_size_y = p.workgroup_size_z = 1;
  p.grid_size_x = 64;
  p.grid_size_y = p.grid_size_z = 1;
  p.kernel_object = object;
  p.kernarg_address = kernarg;
  p.completion_signal = done;
  memset(kernarg, 0, kernarg_size);
  memcpy(kernarg, &args, sizeof args);
  hsa_kernarg_fill_hidden(&p, q, kernarg, kernarg_size);
  /* Back to back: the model's worker is awake (it polls a while after its
   * last work, vapu/vapu_core.c). First with nothing to compute, then with
   * one wave of work. */
  for (uint32_t n = 0; n <= 64; n += 64) {
    args.n = n;
    memcpy(kernarg, &args, sizeof args);
    for (unsigned i = 0; i < rounds; i++) {
      uint64_t t0 = bench_now_ns();
      if (round_trip(q, &p, header_of(HSA_PACKET_TYPE_KERNEL_DISPATCH), done)) return 1;
      ns[i] = bench_now_ns() - t0;
    }
    if (n == 0)
      report("empty dispatch round trip", ns, rounds, "   (goal: median under 5 us, the model awake)");
    else
      report("dispatch round trip (64 items)", ns, rounds, "");
  }

  /* Many queues open: 32 fit the hardware slots, 128 do not. */
  enum { MANY = 128 };
  static hsa_queue_t *many[MANY];
  many[0] = q;
  uint32_t open = 1;
  for (uint32_t n = 32; n <= MANY; n *= 4) {
    for (; open < n; open++)
      if (hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, UINT32_MAX, UINT32_MAX, &many[open])) {
        fprintf(stderr, "bench-gpu: queue %u of %u not created\n", open + 1, n);
        return 1;
      }
    for (int turns = 0; turns < 2; turns++) {
      for (unsigned i = 0; i < rounds; i++) {
        hsa_queue_t *on = turns ? many[i % n] : q;
        hsa_kernarg_fill_hidden(&p, on, kernarg, kernarg_size);
        uint64_t t0 = bench_now_ns();
        if (round_trip(on, &p, header_of(HSA_PACKET_TYPE_KERNEL_DISPATCH), done)) return 1;
        ns[i] = bench_now_ns() - t0;
      }
      char what[64];
      snprintf(what, sizeof what, "dispatch, %u queues%s", n, turns ? " in turn" : " open");
      report(what, ns, rounds, turns && n > 32 ? "   (every turn loads a queue into a slot)" : "");
    }
  }
  for (uint32_t i = 1; i < open; i++) hsa_queue_destroy(many[i]);

  args.n = big;
  p.grid_size_x = big;
  p.workgroup_size_x = 256;
  memcpy(kernarg, &args, sizeof args);
  hsa_kernarg_fill_hidden(&p, q, kernarg, kernarg_size);
  unsigned big_rounds = 5;
  for (unsigned i = 0; i < big_rounds; i++) {
    uint64_t t0 = bench_now_ns();
    if (round_trip(q, &p, header_of(HSA_PACKET_TYPE_KERNEL_DISPATCH), done)) return 1;
    ns[i] = bench_now_ns() - t0;
  }
  bench_sort_u64(ns, big_rounds);
  printf("%-30s %8.1f M work-items/s (vector_add over %u items, median of %u: %.1f ms)\n",
         "dispatch throughput", big / (ns[big_rounds / 2] / 1e9) / 1e6, big, big_rounds,
         ns[big_rounds / 2] / 1e6);
  for (uint32_t i = 0; i < big; i++)
    if (c[i] != a[i] + b[i]) {
      fprintf(stderr, "bench-gpu: wrong result at %u\n", i);
      return 1;
    }
  gpu_kernel_release(&k);
  hsa_queue_destroy(q);
  hsa_signal_destroy(done);
  free(ns);
  hsa_shut_down();
  return 0;
}
