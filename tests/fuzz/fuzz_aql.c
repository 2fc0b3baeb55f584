/* fuzz_aql.c - AQL packets from outside input, through a GPU agent's queue
 * (the driver's hardware queue, the virtual APU's command processor and
 * interpreter): the CP must refuse what it cannot run with an error on that
 * queue, run the rest, and never crash nor hang.
 *
 * Input: up to 8 packets of 64 bytes, each written to the ring as is
 * (header last), except for the fields that hold addresses: in a single
 * address space the GPU may write anything the process maps, so a random
 * pointer would let the fuzzer corrupt itself, which says nothing about
 * the CP. Those fields are chosen by the input among addresses with a known
 * meaning: none, a real signal, a real signal + 8 (no signal), memory no
 * one mapped; for a kernel dispatch, the kernel object among a real one
 * (vector_add), none, a misaligned one and an unmapped one, with real
 * kernel arguments. Grid dimensions are kept below 4096 work-items so that
 * a run ends quickly; zeros, work-group sizes and everything else stay the
 * input's. A queue that stops is replaced; one whose barrier waits on a
 * signal nobody sets is given up after a few milliseconds. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_kernarg_hidden.h>

#include "support/gpu_kernel.h"

#define MAX_PACKETS 8
#define SIGNALS 8
#define UNMAPPED 0x0000700000000000ull
#define RUN_WAIT_NS 20000000ull /* a blocked barrier is given up after this */

static hsa_agent_t gpu;
static hsa_amd_memory_pool_t pool;
static uint64_t kernel_object;
static void *kernarg;
static hsa_signal_t signals[SIGNALS];
static _Atomic int queue_errors;

static void on_error(hsa_status_t status, hsa_queue_t *q, void *data) {
  (void)status, (void)q, (void)data;
  atomic_fetch_add(&queue_errors, 1);
}

static void die(const char *what) {
  fprintf(stderr, "fuzz_aql: set-up failed: %s\n", what);
  abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  /* The virtual APU loads its (synthetic) firmware from there. */
  setenv("HSAR_FILES", FUZZ_GPU_FILES_DIR, 1);
  /* Quiet, and small queue scratch: each input creates a queue. */
  setenv("HSAR_OPTIONS", "loglevel=error gpu_scratch=64", 1);
  if (hsa_init() != HSA_STATUS_SUCCESS) die("hsa_init");
  if (!gpu_find_agent(&gpu) || !gpu_find_kernarg_pool(gpu, &pool)) die("no GPU agent");
  struct gpu_kernel k;
  char why[256];
  /* The corpus build for the agent's processor (kernels/<gfx...>/). */
  char target[64], path[512];
  if (hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, target) != HSA_STATUS_SUCCESS) die("agent name");
  snprintf(path, sizeof path, "%s/%s/vector_add.O2.v5.co", FUZZ_KERNELS_DIR, target);
  if (gpu_kernel_load(gpu, path, "vector_add.kd", NULL, NULL, &k, why, sizeof why)) die(why);
  kernel_object = k.object;
  uint32_t kernarg_size = k.kernarg_size;
  /* vector_add(a, b, c, n) over buffers of 4096 floats; n = 4096 keeps
   * every work-item of a clamped grid inside them. */
  float *buf;
  if (hsa_amd_memory_pool_allocate(pool, 3 * 4096 * sizeof(float), 0, (void **)&buf) ||
      hsa_amd_memory_pool_allocate(pool, kernarg_size, 0, &kernarg))
    die("memory");
  memset(kernarg, 0, kernarg_size);
  struct { float *a, *b, *c; uint32_t n; } args = {buf, buf + 4096, buf + 8192, 4096};
  memcpy(kernarg, &args, sizeof args);
  hsa_kernel_dispatch_packet_t p;
  gpu_kernel_packet(&k, 1, (uint32_t[3]){4096, 1, 1}, (uint32_t[3]){64, 1, 1}, 0, kernarg, (hsa_signal_t){0}, &p);
  if (hsa_kernarg_fill_hidden(&p, NULL, kernarg, kernarg_size)) die("hidden arguments");
  for (int i = 0; i < SIGNALS; i++)
    if (hsa_signal_create(1, 0, NULL, &signals[i])) die("signals");
  return 0;
}

/* An address field, as input byte `sel` picks it. */
static uint64_t pick_signal(uint8_t sel) {
  switch (sel % 4) {
    case 0: return 0;
    case 1: return signals[(sel / 4) % SIGNALS].handle;
    case 2: return signals[(sel / 4) % SIGNALS].handle + 8;
    default: return UNMAPPED;
  }
}

static uint64_t pick_kernel(uint8_t sel) {
  switch (sel % 4) {
    case 0: return kernel_object;
    case 1: return 0;
    case 2: return kernel_object + 8;
    default: return UNMAPPED;
  }
}

static void sanitize(uint8_t pkt[64]) {
  uint32_t type = pkt[0];
  uint64_t v;
  if (type == HSA_PACKET_TYPE_KERNEL_DISPATCH) {
    hsa_kernel_dispatch_packet_t *p = (hsa_kernel_dispatch_packet_t *)pkt;
    p->grid_size_x %= 4096, p->grid_size_y %= 16, p->grid_size_z %= 16;
    p->kernel_object = pick_kernel(pkt[32]);
    p->kernarg_address = kernarg;
  } else if (type == HSA_PACKET_TYPE_BARRIER_AND || type == HSA_PACKET_TYPE_BARRIER_OR) {
    for (int i = 0; i < 5; i++) {
      v = pick_signal(pkt[8 + 8 * i]);
      memcpy(pkt + 8 + 8 * i, &v, 8);
    }
  } else {
    v = pick_signal(pkt[8]); /* the barrier-value packet's signal */
    memcpy(pkt + 8, &v, 8);
  }
  v = pick_signal(pkt[56]);
  memcpy(pkt + 56, &v, 8);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t n = size / 64 > MAX_PACKETS ? MAX_PACKETS : size / 64;
  if (!n) return 0;
  hsa_queue_t *q;
  if (hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_SINGLE, on_error, NULL, UINT32_MAX, UINT32_MAX, &q))
    abort();
  int errors = atomic_load(&queue_errors);
  for (int i = 0; i < SIGNALS; i++) hsa_signal_store_relaxed(signals[i], i & 1);
  for (size_t i = 0; i < n; i++) {
    uint8_t pkt[64];
    memcpy(pkt, data + 64 * i, 64);
    sanitize(pkt);
    uint8_t *slot = (uint8_t *)q->base_address + i * 64;
    memcpy(slot + 2, pkt + 2, 62);
    uint16_t header;
    memcpy(&header, pkt, 2);
    __atomic_store_n((uint16_t *)slot, header, __ATOMIC_RELEASE);
  }
  hsa_queue_store_write_index_screlease(q, n);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)(n - 1));
  uint64_t start, now;
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &start);
  do {
    if (hsa_queue_load_read_index_scacquire(q) == n || atomic_load(&queue_errors) != errors) break;
    usleep(200);
    hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &now);
  } while (now - start < RUN_WAIT_NS);
  /* Destroying a queue stops the CP on it, whatever it was doing. */
  if (hsa_queue_destroy(q) != HSA_STATUS_SUCCESS) abort();
  return 0;
}
