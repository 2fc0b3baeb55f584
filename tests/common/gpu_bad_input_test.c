/* What a stranger's program may hand the GPU agent, and what it gets back:
 * ROCr's behaviour where that is well defined (partial work-groups, queue
 * limits, destroying a busy queue), otherwise a clear error on the queue,
 * never a hang or a silent wrong result. The kernels are the corpus's
 * (O2, code object v5, for the agent's processor) and faults.cl's. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_kernarg_hidden.h>

#include "lib/plat.h"
#include "lib/test.h"
#include "support/gpu_kernel.h"
#include "tests/common/gpu_test_util.h"
#include "tests/common/hsa_test_util.h"
#include "tests/common/kernel_corpus.h"

#define WAIT_NS 60000000000ull
#define DESTROY_BOUND_NS 5000000000ull
#define UNMAPPED_ADDRESS 0x0000700000000000ull

struct env {
  hsa_agent_t gpu;
  char target[64];
  hsa_amd_memory_pool_t pool;
};

static void env_up(struct env *e) {
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  e->gpu = gpu_test_agent();
  ASSERT_EQ(hsa_agent_get_info(e->gpu, HSA_AGENT_INFO_NAME, e->target), HSA_STATUS_SUCCESS);
  e->pool = hsa_test_kernarg_pool(e->gpu);
  ASSERT_NE(e->pool.handle, 0);
}

static void *alloc(void *ctx, size_t size) {
  void *p = NULL;
  return hsa_amd_memory_pool_allocate(*(hsa_amd_memory_pool_t *)ctx, size, 0, &p) ? NULL : p;
}
static void release(void *ctx, void *p) {
  (void)ctx;
  hsa_amd_memory_pool_free(p);
}

static void load_corpus_kernel(struct env *e, const char *file, struct gpu_kernel *k) {
  char path[512], why[256];
  const struct corpus_kernel *ck = corpus_kernel_by_file(file);
  ASSERT_NOT_NULL(ck);
  corpus_code_object_path(path, sizeof path, GPU_TEST_KERNELS_DIR, e->target, ck, "O2", 5);
  if (gpu_kernel_load(e->gpu, path, ck->symbol, NULL, NULL, k, why, sizeof why)) FAIL("%s", why);
}

/* One work-group of 64 items of `k`: the packet the tests below start from. */
static void packet_of_64(const struct gpu_kernel *k, void *kernarg, hsa_signal_t done,
                         hsa_kernel_dispatch_packet_t *p) {
  gpu_kernel_packet(k, 1, (uint32_t[3]){64, 1, 1}, (uint32_t[3]){64, 1, 1}, 0, kernarg, done, p);
}

typedef void (*packet_change_fn)(hsa_kernel_dispatch_packet_t *p, struct corpus_dispatch *d);

/* Submits `p` on a fresh queue (its hidden arguments filled first when
 * kernarg_size is given, then `change` applied: what reaches the GPU is
 * the packet as changed) and waits for its completion or the queue's
 * error: SUCCESS or the status the error callback got. */
static hsa_status_t dispatch(struct env *e, hsa_kernel_dispatch_packet_t *p, uint32_t kernarg_size,
                             packet_change_fn change, struct corpus_dispatch *d) {
  struct hsa_test_queue_error err = {0};
  hsa_queue_t *q;
  ASSERT_EQ(hsa_queue_create(e->gpu, 64, HSA_QUEUE_TYPE_MULTI, hsa_test_queue_error_callback, &err, UINT32_MAX,
                             UINT32_MAX, &q),
            HSA_STATUS_SUCCESS);
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
  p->completion_signal = done;
  if (kernarg_size) ASSERT_EQ(hsa_kernarg_fill_hidden(p, q, p->kernarg_address, kernarg_size), HSA_STATUS_SUCCESS);
  if (change) change(p, d);
  hsa_test_submit(q, p, hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, true));
  uint64_t until = plat_now_ns() + WAIT_NS;
  hsa_status_t result = HSA_STATUS_SUCCESS;
  while (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 10000000, HSA_WAIT_STATE_BLOCKED) != 0) {
    if (atomic_load(&err.calls)) {
      result = (hsa_status_t)atomic_load(&err.status);
      break;
    }
    if (plat_now_ns() > until) FAIL("the dispatch neither completed nor failed");
  }
  ASSERT_EQ(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
  return result;
}

/* A corpus kernel with its own buffers and arguments; `change` alters the
 * packet; returns the dispatch's status, and with SUCCESS checks the
 * outputs against the CPU reference. */
static hsa_status_t run_corpus(struct env *e, const char *file, packet_change_fn change) {
  struct gpu_kernel k;
  load_corpus_kernel(e, file, &k);
  struct corpus_alloc a = {alloc, release, &e->pool};
  struct corpus_dispatch d;
  ASSERT_TRUE(corpus_setup(corpus_kernel_by_file(file), &a, &d));
  void *kernarg = corpus_kernarg(&d, k.kernarg_size);
  ASSERT_NOT_NULL(kernarg);
  hsa_kernel_dispatch_packet_t p;
  gpu_kernel_packet(&k, d.dims, d.grid, d.workgroup, 0, kernarg, (hsa_signal_t){0}, &p);
  hsa_status_t st = dispatch(e, &p, k.kernarg_size, change, &d);
  char why[256];
  if (st == HSA_STATUS_SUCCESS && !corpus_check(&d, why, sizeof why)) FAIL("%s", why);
  corpus_release(&d);
  release(NULL, kernarg);
  gpu_kernel_release(&k);
  return st;
}

static void group_too_small(hsa_kernel_dispatch_packet_t *p, struct corpus_dispatch *d) {
  (void)d;
  p->group_segment_size -= 4;
}
static void private_too_small(hsa_kernel_dispatch_packet_t *p, struct corpus_dispatch *d) {
  (void)d;
  p->private_segment_size -= 4;
}

/* ROCr does not look at the packet: the hardware would let LDS or scratch
 * accesses fall outside the allocation (lost writes, other waves' data).
 * Here the CP refuses the packet, as it refuses a group segment past the
 * LDS (ROCr's code 0x4). The same dispatch with the kernel's sizes runs. */
TEST(gpu_bad_input_segments_smaller_than_the_kernel_are_refused) {
  struct env e;
  env_up(&e);
  ASSERT_EQ(run_corpus(&e, "reduce_sum", group_too_small), HSA_STATUS_ERROR_INVALID_ALLOCATION);
  ASSERT_EQ(run_corpus(&e, "private_array", private_too_small), HSA_STATUS_ERROR_INVALID_ALLOCATION);
  ASSERT_EQ(run_corpus(&e, "reduce_sum", NULL), HSA_STATUS_SUCCESS);
  ASSERT_EQ(run_corpus(&e, "private_array", NULL), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

/* HSA PRM 2.8: the grid need not be a multiple of the work-group; the
 * last work-group of each dimension is partial. Every work-item runs once,
 * none past the grid. */
static void exact_grid(hsa_kernel_dispatch_packet_t *p, struct corpus_dispatch *d) {
  /* vector_add(a, b, c, n): a grid of exactly n = 1000 items, 64 a group. */
  p->grid_size_x = d->args[3].u32;
}
TEST(gpu_bad_input_partial_work_groups_run_every_item_once) {
  struct env e;
  env_up(&e);
  ASSERT_EQ(run_corpus(&e, "vector_add", exact_grid), HSA_STATUS_SUCCESS);
  ASSERT_EQ(run_corpus(&e, "stencil_2d", NULL), HSA_STATUS_SUCCESS); /* partial in x, 2D */
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

/* A kernel object that points at data: refused before anything runs
 * (HSA_STATUS_ERROR_INVALID_CODE_OBJECT), whatever the data. */
TEST(gpu_bad_input_data_is_no_kernel_descriptor) {
  struct env e;
  env_up(&e);
  struct gpu_kernel k;
  load_corpus_kernel(&e, "vector_add", &k);
  uint8_t *data = alloc(&e.pool, 4096);
  ASSERT_NOT_NULL(data);
  void *kernarg = alloc(&e.pool, k.kernarg_size);
  ASSERT_NOT_NULL(kernarg);
  memset(kernarg, 0, k.kernarg_size);
  static const uint8_t fills[] = {0x00, 0xa5, 0xff};
  for (unsigned i = 0; i < sizeof fills; i++) {
    memset(data, fills[i], 4096);
    uint64_t object = ((uint64_t)(uintptr_t)data + 255) & ~255ull;
    hsa_kernel_dispatch_packet_t p;
    packet_of_64(&k, kernarg, (hsa_signal_t){0}, &p);
    p.kernel_object = object;
    p.group_segment_size = p.private_segment_size = 0;
    hsa_status_t st = dispatch(&e, &p, 0, NULL, NULL);
    if (st != HSA_STATUS_ERROR_INVALID_CODE_OBJECT)
      FAIL("descriptor of bytes 0x%02x: status 0x%x", fills[i], st);
  }
  release(NULL, kernarg);
  release(NULL, data);
  gpu_kernel_release(&k);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

/* Kernel arguments nobody mapped: the kernel's first load of them is a
 * page fault (HSA_STATUS_ERROR_MEMORY_FAULT), as on ROCr. */
TEST(gpu_bad_input_unmapped_kernarg_is_a_memory_fault) {
  struct env e;
  env_up(&e);
  struct gpu_kernel k;
  load_corpus_kernel(&e, "vector_add", &k);
  hsa_kernel_dispatch_packet_t p;
  packet_of_64(&k, (void *)(uintptr_t)UNMAPPED_ADDRESS, (hsa_signal_t){0}, &p);
  ASSERT_EQ(dispatch(&e, &p, 0, NULL, NULL), (hsa_status_t)HSA_STATUS_ERROR_MEMORY_FAULT);
  gpu_kernel_release(&k);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

/* The largest queue the agent reports works; a larger one is refused. */
TEST(gpu_bad_input_largest_queue_runs_packets) {
  struct env e;
  env_up(&e);
  uint32_t max = 0;
  ASSERT_EQ(hsa_agent_get_info(e.gpu, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &max), HSA_STATUS_SUCCESS);
  ASSERT_GT(max, 0);
  hsa_queue_t *q;
  ASSERT_EQ(hsa_queue_create(e.gpu, max * 2, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q),
            HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  ASSERT_EQ(hsa_queue_create(e.gpu, max, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(q->size, max);
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(3, 0, NULL, &done), HSA_STATUS_SUCCESS);
  for (int i = 0; i < 3; i++) {
    hsa_barrier_and_packet_t b;
    memset(&b, 0, sizeof b);
    b.completion_signal = done;
    hsa_test_submit(q, &b, hsa_test_header(HSA_PACKET_TYPE_BARRIER_AND, true));
  }
  ASSERT_EQ(hsa_test_wait_eq(done, 0), 0);
  ASSERT_EQ(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

/* As many queues as the agent reports (the 32 hardware slots) run at
 * once; one more is refused with OUT_OF_RESOURCES (ROCr's status when KFD
 * has no queue left), and a slot freed is used again. */
TEST(gpu_bad_input_queues_beyond_the_hardware_slots_are_refused) {
  struct env e;
  env_up(&e);
  uint32_t max = 0;
  ASSERT_EQ(hsa_agent_get_info(e.gpu, HSA_AGENT_INFO_QUEUES_MAX, &max), HSA_STATUS_SUCCESS);
  ASSERT_GT(max, 0);
  hsa_queue_t **qs = calloc(max + 1, sizeof *qs);
  ASSERT_NOT_NULL(qs);
  for (uint32_t i = 0; i < max; i++)
    ASSERT_EQ(hsa_queue_create(e.gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &qs[i]),
              HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_queue_create(e.gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &qs[max]),
            HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  ASSERT_EQ(hsa_queue_destroy(qs[3]), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_queue_create(e.gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &qs[3]),
            HSA_STATUS_SUCCESS);
  /* Every one of them runs packets. */
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(max, 0, NULL, &done), HSA_STATUS_SUCCESS);
  for (uint32_t i = 0; i < max; i++) {
    hsa_barrier_and_packet_t b;
    memset(&b, 0, sizeof b);
    b.completion_signal = done;
    hsa_test_submit(qs[i], &b, hsa_test_header(HSA_PACKET_TYPE_BARRIER_AND, true));
  }
  ASSERT_EQ(hsa_test_wait_eq(done, 0), 0);
  for (uint32_t i = 0; i < max; i++) ASSERT_EQ(hsa_queue_destroy(qs[i]), HSA_STATUS_SUCCESS);
  free(qs);
  ASSERT_EQ(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

/* Destroying a queue with work in it (ROCr: the queue goes, its packets
 * with it): a barrier that waits for a signal nobody sets, a kernel that
 * never ends behind it on another queue. Each destroy returns at once,
 * the pending completion signals stay as they were, and the hardware
 * slots are free again. */
TEST(gpu_bad_input_destroying_a_queue_with_packets_pending) {
  struct env e;
  env_up(&e);
  char path[512], why[256];
  snprintf(path, sizeof path, "%s/gpu-tests/%s/faults.co", GPU_TEST_KERNELS_DIR, e.target);
  struct gpu_kernel spin;
  if (gpu_kernel_load(e.gpu, path, "spin_kernel.kd", NULL, NULL, &spin, why, sizeof why))
    FAIL("%s", why);
  int *flag = alloc(&e.pool, 64);
  void *kernarg = alloc(&e.pool, spin.kernarg_size);
  ASSERT_NOT_NULL(flag);
  ASSERT_NOT_NULL(kernarg);
  *flag = 0;
  memset(kernarg, 0, spin.kernarg_size);
  memcpy(kernarg, &flag, sizeof flag);
  hsa_signal_t never, after, spun;
  ASSERT_EQ(hsa_signal_create(1, 0, NULL, &never), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(1, 0, NULL, &after), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(1, 0, NULL, &spun), HSA_STATUS_SUCCESS);
  hsa_queue_t *blocked, *busy;
  ASSERT_EQ(hsa_queue_create(e.gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &blocked),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_queue_create(e.gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &busy),
            HSA_STATUS_SUCCESS);
  hsa_barrier_and_packet_t b;
  memset(&b, 0, sizeof b);
  b.dep_signal[0] = never;
  hsa_test_submit(blocked, &b, hsa_test_header(HSA_PACKET_TYPE_BARRIER_AND, true));
  memset(&b, 0, sizeof b);
  b.completion_signal = after;
  hsa_test_submit(blocked, &b, hsa_test_header(HSA_PACKET_TYPE_BARRIER_AND, true));
  hsa_kernel_dispatch_packet_t p;
  packet_of_64(&spin, kernarg, spun, &p);
  ASSERT_EQ(hsa_kernarg_fill_hidden(&p, busy, kernarg, spin.kernarg_size), HSA_STATUS_SUCCESS);
  hsa_test_submit(busy, &p, hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, true));
  /* Let the kernel start. */
  plat_sleep_ns(50000000);
  uint64_t start = plat_now_ns();
  ASSERT_EQ(hsa_queue_destroy(blocked), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_queue_destroy(busy), HSA_STATUS_SUCCESS);
  ASSERT_LT(plat_now_ns() - start, DESTROY_BOUND_NS);
  ASSERT_EQ(hsa_signal_load_scacquire(after), 1);
  ASSERT_EQ(hsa_signal_load_scacquire(spun), 1);
  /* Every hardware slot can be had again. */
  uint32_t max = 0;
  ASSERT_EQ(hsa_agent_get_info(e.gpu, HSA_AGENT_INFO_QUEUES_MAX, &max), HSA_STATUS_SUCCESS);
  hsa_queue_t **qs = calloc(max, sizeof *qs);
  ASSERT_NOT_NULL(qs);
  for (uint32_t i = 0; i < max; i++)
    ASSERT_EQ(hsa_queue_create(e.gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &qs[i]),
              HSA_STATUS_SUCCESS);
  for (uint32_t i = 0; i < max; i++) ASSERT_EQ(hsa_queue_destroy(qs[i]), HSA_STATUS_SUCCESS);
  free(qs);
  ASSERT_EQ(hsa_signal_destroy(never), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_destroy(after), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_destroy(spun), HSA_STATUS_SUCCESS);
  release(NULL, kernarg);
  release(NULL, flag);
  gpu_kernel_release(&spin);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
}
