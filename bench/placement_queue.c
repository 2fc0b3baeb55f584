/* bench-placement - the placement queue (hsa_ext_placement.h) on the host:
 * what forwarding costs and what placement and co-execution gain. Prints
 * one table, asserts nothing.
 *
 *   forwarding       an empty dispatch (vector_add over one work-group with
 *                    n = 0) round trip: straight to a CPU agent's queue,
 *                    and through a placement queue pinned to the CPU
 *                    agents (aim: under 1.3x)
 *   mixed workload   many small vector_add dispatches (256 items) and a few
 *                    large ones, independent (no barrier bit), through a
 *                    placement queue allowed the GPU only, the CPU agents
 *                    only, or both (placement); after one pass that lets
 *                    it learn (aim: placement within 5% of the better one)
 *   co-execution     the large dispatch alone: split between the GPU and
 *                    the CPU agents, against the best single agent (aim:
 *                    faster when the two are within 3x of each other)
 *
 * Usage: bench-placement <kernels dir> [small dispatches] [large items]
 * (the folder mk/kernels.mk builds: <dir>/hsacc/vector_add.O2.v5.hsaco)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_placement.h>
#include <hsa/hsa_kernarg_hidden.h>

#include "bench/bench.h"
#include "support/gpu_kernel.h"

#define WAIT_NS         60000000000ull
#define FORWARD_ROUNDS  2000
#define LARGE_DISPATCHS 4


struct vadd_args {
  float *a, *b, *c;
  uint32_t n;
};

struct ctx {
  hsa_agent_t placement, cpu;
  bool has_gpu;
  uint32_t cpu_agents, cpu_cores;
  hsa_amd_memory_pool_t pool;
  char path[512];
};

static hsa_status_t count_cpu(hsa_agent_t agent, void *data) {
  struct ctx *c = data;
  hsa_device_type_t type;
  hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
  if (type == HSA_DEVICE_TYPE_CPU) {
    uint32_t cores = 0;
    hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, &cores);
    if (!c->cpu_agents) c->cpu = agent;
    c->cpu_agents++;
    c->cpu_cores += cores;
  }
  return HSA_STATUS_SUCCESS;
}

static void *alloc(struct ctx *c, size_t size) {
  void *p = NULL;
  if (hsa_amd_memory_pool_allocate(c->pool, size, 0, &p) != HSA_STATUS_SUCCESS) {
    fprintf(stderr, "bench-placement: out of memory\n");
    exit(1);
  }
  memset(p, 0, size);
  return p;
}

static void *kernarg_for(struct ctx *c, const struct gpu_kernel *k, struct vadd_args args) {
  void *ka = alloc(c, k->kernarg_size);
  memcpy(ka, &args, sizeof args);
  return ka;
}

static void publish(hsa_queue_t *q, hsa_kernel_dispatch_packet_t *p, bool ring) {
  uint64_t index = hsa_queue_add_write_index_scacq_screl(q, 1);
  while (index - hsa_queue_load_read_index_scacquire(q) >= q->size) {
  }
  uint8_t *slot = (uint8_t *)q->base_address + (index & (q->size - 1)) * 64;
  memcpy(slot + 2, (uint8_t *)p + 2, 62);
  uint16_t header = (uint16_t)(HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE |
                               HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
                               HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
  __atomic_store_n((uint16_t *)slot, header, __ATOMIC_RELEASE);
  if (ring) hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)index);
}

static void packet_for(const struct gpu_kernel *k, hsa_queue_t *q, uint32_t items, void *kernarg,
                       hsa_signal_t done, hsa_kernel_dispatch_packet_t *p) {
  gpu_kernel_packet(k, 1, (uint32_t[3]){items, 1, 1}, (uint32_t[3]){64, 1, 1}, 0, kernarg, done, p);
  hsa_kernarg_fill_hidden(p, q, kernarg, k->kernarg_size);
}

static void wait_zero(hsa_signal_t s) {
  if (hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, WAIT_NS, HSA_WAIT_STATE_BLOCKED) !=
      0) {
    fprintf(stderr, "bench-placement: a dispatch did not complete\n");
    exit(1);
  }
}

/* The empty dispatch's round trip on each of two queues, alternating
 * round by round (so that both see the same machine); medians and 10th
 * percentiles. A waiter either catches the completion while it spins or
 * sleeps and is woken: the figures are bimodal on a loaded machine. */
static void empty_round_trips(struct ctx *c, const struct gpu_kernel *k[2], hsa_queue_t *q[2],
                              uint64_t median[2], uint64_t p10[2]) {
  float *buf = alloc(c, 64 * 4);
  void *ka[2];
  uint64_t *ns[2];
  for (int i = 0; i < 2; i++) {
    ka[i] = kernarg_for(c, k[i], (struct vadd_args){buf, buf, buf, 0});
    ns[i] = calloc(FORWARD_ROUNDS, sizeof *ns[i]);
  }
  hsa_signal_t done;
  hsa_signal_create(1, 0, NULL, &done);
  for (int r = -100; r < FORWARD_ROUNDS; r++)
    for (int i = 0; i < 2; i++) {
      hsa_kernel_dispatch_packet_t p;
      hsa_signal_store_relaxed(done, 1);
      packet_for(k[i], q[i], 64, ka[i], done, &p);
      uint64_t t0 = bench_now_ns();
      publish(q[i], &p, true);
      wait_zero(done);
      if (r >= 0) ns[i][r] = bench_now_ns() - t0;
    }
  for (int i = 0; i < 2; i++) {
    bench_sort_u64(ns[i], FORWARD_ROUNDS);
    median[i] = ns[i][FORWARD_ROUNDS / 2];
    p10[i] = ns[i][FORWARD_ROUNDS / 10];
    free(ns[i]);
    hsa_amd_memory_pool_free(ka[i]);
  }
  hsa_signal_destroy(done);
  hsa_amd_memory_pool_free(buf);
}

struct workload {
  uint32_t small_count, large_items;
  float *a, *b, *c_small, *c_large;
  void *ka_small, *ka_large;
};

/* Runs the mixed workload (or only its large dispatches) on q; ns. */
static uint64_t run_workload(const struct gpu_kernel *k, hsa_queue_t *q, const struct workload *w,
                             bool small, uint32_t large) {
  uint32_t total = (small ? w->small_count : 0) + large;
  hsa_signal_t done;
  hsa_signal_create(total, 0, NULL, &done);
  uint64_t t0 = bench_now_ns();
  uint32_t every = small && large ? w->small_count / large : 0;
  uint32_t issued_large = 0;
  for (uint32_t i = 0; small && i < w->small_count; i++) {
    hsa_kernel_dispatch_packet_t p;
    packet_for(k, q, 256, w->ka_small, done, &p);
    publish(q, &p, true);
    if (every && i % every == 0 && issued_large < large) {
      packet_for(k, q, w->large_items, w->ka_large, done, &p);
      publish(q, &p, true);
      issued_large++;
    }
  }
  for (; issued_large < large; issued_large++) {
    hsa_kernel_dispatch_packet_t p;
    packet_for(k, q, w->large_items, w->ka_large, done, &p);
    publish(q, &p, true);
  }
  wait_zero(done);
  uint64_t ns = bench_now_ns() - t0;
  hsa_signal_destroy(done);
  return ns;
}

static bool check_large(const struct workload *w) {
  for (uint32_t i = 0; i < w->large_items; i++)
    if (w->c_large[i] != w->a[i] + w->b[i]) return false;
  return true;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: bench-placement <kernels dir> [small dispatches] [large items]\n");
    return 2;
  }
  struct workload w = {.small_count = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 400,
                       .large_items = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 10) : 1u << 18};
  if (hsa_init() != HSA_STATUS_SUCCESS) return 1;
  struct ctx c = {0};
  hsa_iterate_agents(count_cpu, &c);
  hsa_agent_t gpu;
  c.has_gpu = gpu_find_agent(&gpu);
  if (!c.cpu_agents || hsa_ext_placement_agent(&c.placement) != HSA_STATUS_SUCCESS ||
      !gpu_find_kernarg_pool(c.cpu, &c.pool)) {
    printf("bench-placement: no CPU agent; skipped\n");
    hsa_shut_down();
    return 0;
  }
  snprintf(c.path, sizeof c.path, "%s/hsacc/vector_add.O2.v5.hsaco", argv[1]);
  struct gpu_kernel kp, kc;
  char why[256];
  if (gpu_kernel_load(c.placement, c.path, "vector_add.kd", NULL, NULL, &kp, why, sizeof why) ||
      gpu_kernel_load(c.cpu, c.path, "vector_add.kd", NULL, NULL, &kc, why, sizeof why)) {
    fprintf(stderr, "bench-placement: %s\n", why);
    return 1;
  }
  hsa_queue_t *direct, *pq;
  hsa_queue_create(c.cpu, 1024, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &direct);
  hsa_queue_create(c.placement, 1024, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX,
                   &pq);
  long host_cores = sysconf(_SC_NPROCESSORS_ONLN);
  printf("bench-placement: %ld host cores; %u CPU agents with %u cores (threads) in all; GPU: %s\n",
         host_cores, c.cpu_agents, c.cpu_cores,
         c.has_gpu ? "the virtual APU (an interpreter on one more host thread)" : "none");

  /* Forwarding cost. */
  hsa_ext_placement_queue_set_kinds(pq, HSA_EXT_PLACEMENT_KIND_CPU);
  const struct gpu_kernel *ks[2] = {&kc, &kp};
  hsa_queue_t *qs[2] = {direct, pq};
  uint64_t median[2], p10[2];
  empty_round_trips(&c, ks, qs, median, p10);
  printf("%-44s %12s %12s\n", "", "ns / ms", "ratio");
  printf("%-44s %12llu   (10th percentile %llu)\n", "empty dispatch, straight to a CPU agent (ns)",
         (unsigned long long)median[0], (unsigned long long)p10[0]);
  printf("%-44s %12llu %11.2fx  (aim: under 1.3x; 10th percentile %llu, %.2fx)\n",
         "empty dispatch, through placement (ns)", (unsigned long long)median[1],
         (double)median[1] / (double)median[0], (unsigned long long)p10[1],
         (double)p10[1] / (double)p10[0]);

  /* The mixed workload. */
  w.a = alloc(&c, (size_t)w.large_items * 4);
  w.b = alloc(&c, (size_t)w.large_items * 4);
  w.c_small = alloc(&c, 256 * 4);
  w.c_large = alloc(&c, (size_t)w.large_items * 4);
  for (uint32_t i = 0; i < w.large_items; i++) w.a[i] = (float)i, w.b[i] = 0.5f;
  w.ka_small = kernarg_for(&c, &kp, (struct vadd_args){w.a, w.b, w.c_small, 256});
  w.ka_large = kernarg_for(&c, &kp, (struct vadd_args){w.a, w.b, w.c_large, w.large_items});
  if (!c.has_gpu) {
    printf("mixed workload and co-execution: no GPU agent; skipped\n");
  } else {
    const struct {
      const char *name;
      uint32_t kinds;
    } runs[3] = {{"GPU only", HSA_EXT_PLACEMENT_KIND_GPU},
                 {"CPU agents only", HSA_EXT_PLACEMENT_KIND_CPU},
                 {"placement (both)", HSA_EXT_PLACEMENT_KIND_ANY}};
    uint64_t ms[3];
    hsa_ext_placement_kernel_set_split(kp.object, HSA_EXT_PLACEMENT_SPLIT_NEVER);
    for (int r = 0; r < 3; r++) {
      hsa_ext_placement_queue_set_kinds(pq, runs[r].kinds);
      hsa_ext_placement_reset(kp.object);
      run_workload(&kp, pq, &w, true, LARGE_DISPATCHS); /* learn */
      ms[r] = run_workload(&kp, pq, &w, true, LARGE_DISPATCHS);
      printf("mixed: %u x 256 + %u x %u items, %-17s %9.1f ms%s\n", w.small_count, LARGE_DISPATCHS,
             w.large_items, runs[r].name, ms[r] / 1e6, check_large(&w) ? "" : "  WRONG RESULT");
    }
    uint64_t better = ms[0] < ms[1] ? ms[0] : ms[1];
    printf("%-44s %12s %11.2fx  (aim: at most 1.05x the better one)\n",
           "placement vs the better single kind", "", (double)ms[2] / (double)better);
    /* Co-execution of the large dispatch. */
    uint64_t single[2];
    for (int r = 0; r < 2; r++) {
      hsa_ext_placement_queue_set_kinds(pq, runs[r].kinds);
      single[r] = run_workload(&kp, pq, &w, false, 1);
    }
    hsa_ext_placement_queue_set_kinds(pq, HSA_EXT_PLACEMENT_KIND_ANY);
    hsa_ext_placement_kernel_set_split(kp.object, HSA_EXT_PLACEMENT_SPLIT_ALWAYS);
    memset(w.c_large, 0, (size_t)w.large_items * 4);
    uint64_t split = run_workload(&kp, pq, &w, false, 1);
    bool ok = check_large(&w);
    uint64_t best = single[0] < single[1] ? single[0] : single[1];
    double apart =
        single[0] > single[1] ? (double)single[0] / single[1] : (double)single[1] / single[0];
    printf("large dispatch: GPU %.1f ms, CPU agents %.1f ms (%.1fx apart), split %.1f ms%s\n",
           single[0] / 1e6, single[1] / 1e6, apart, split / 1e6, ok ? "" : "  WRONG RESULT");
    printf("%-44s %12s %11.2fx  (aim: under 1x when within 3x)\n",
           "co-execution vs the best single agent", "", (double)split / (double)best);
    hsa_ext_placement_agent_stats_t s[8];
    uint32_t n = 0;
    hsa_ext_placement_kernel_stats(kp.object, s, 8, &n);
    for (uint32_t i = 0; i < n && i < 8; i++) {
      char name[64];
      hsa_agent_get_info(s[i].agent, HSA_AGENT_INFO_NAME, name);
      printf("  %-32s %6llu dispatches, %llu measured, %llu explored, %llu work-groups in splits\n",
             name, (unsigned long long)s[i].dispatches, (unsigned long long)s[i].measured,
             (unsigned long long)s[i].explored, (unsigned long long)s[i].split_groups);
    }
  }
  printf(
      "On the host the GPU is the virtual APU, an interpreter on host threads that competes for\n"
      "the same %ld cores as the CPU agents' threads: the ratios show the mechanism (forwarding\n"
      "cost, the decision, the split) on this machine's two kinds of agent, not a board's.\n",
      host_cores);
  hsa_queue_destroy(pq);
  hsa_queue_destroy(direct);
  gpu_kernel_release(&kp);
  gpu_kernel_release(&kc);
  hsa_shut_down();
  return 0;
}
