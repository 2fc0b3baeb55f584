/*
 * hsa_dispatch_test.c - AQL processing on CPU agents: kernel dispatch in
 * 1-3 dimensions with partial work-groups, group segment, barrier-AND/OR
 * with five dependencies, the AMD barrier-value packet, agent dispatch,
 * profiling time stamps, CPU kernels found through the executable API, and
 * malformed packets that stop their queue (and only it) with the matching
 * status. Runs on the host and in the image.
 */
#include <stdatomic.h>
#include <string.h>

#include "lib/plat.h"
#include "tests/common/hsa_test_util.h"

struct ids_args {
  _Atomic uint32_t *hits; /* one counter per work-item, linear id */
  uint32_t grid[3];
  _Atomic uint32_t *bad; /* work-groups whose description was wrong */
};

HSA_CPU_KERNEL(test_record_ids, sizeof(struct ids_args)) {
  const struct ids_args *a = hsa_dispatch->kernarg;
  for (int d = 0; d < 3; d++) {
    uint32_t expect_offset = hsa_dispatch->workgroup_id[d] * hsa_dispatch->workgroup_size[d];
    uint32_t left = a->grid[d] - expect_offset;
    uint32_t expect_count =
        left < hsa_dispatch->workgroup_size[d] ? left : hsa_dispatch->workgroup_size[d];
    if (hsa_dispatch->global_offset[d] != expect_offset ||
        hsa_dispatch->item_count[d] != expect_count || hsa_dispatch->grid_size[d] != a->grid[d])
      atomic_fetch_add(a->bad, 1);
  }
  for (uint32_t z = 0; z < hsa_dispatch->item_count[2]; z++)
    for (uint32_t y = 0; y < hsa_dispatch->item_count[1]; y++)
      for (uint32_t x = 0; x < hsa_dispatch->item_count[0]; x++) {
        uint64_t gx = hsa_dispatch->global_offset[0] + x, gy = hsa_dispatch->global_offset[1] + y,
                 gz = hsa_dispatch->global_offset[2] + z;
        atomic_fetch_add(&a->hits[(gz * a->grid[1] + gy) * a->grid[0] + gx], 1);
      }
}

struct group_args {
  _Atomic uint32_t *errors;
};

HSA_CPU_KERNEL_EX(test_group_segment, sizeof(struct group_args), 8, 256) {
  const struct group_args *a = hsa_dispatch->kernarg;
  uint32_t *lds = hsa_dispatch->group_segment;
  uint32_t words = hsa_dispatch->group_segment_size / 4;
  if (hsa_dispatch->group_segment_size != 256 + 1024) atomic_fetch_add(a->errors, 1);
  for (uint32_t i = 0; i < words; i++) lds[i] = hsa_dispatch->workgroup_id[0] * 7919 + i;
  for (uint32_t i = 0; i < words; i++)
    if (lds[i] != hsa_dispatch->workgroup_id[0] * 7919 + i) atomic_fetch_add(a->errors, 1);
}

HSA_CPU_KERNEL(test_empty, 0) { (void)hsa_dispatch; }

static _Atomic uint64_t agent_fn_sum;
HSA_CPU_AGENT_FUNCTION(0x1234, test_agent_sum) {
  atomic_fetch_add(&agent_fn_sum, arg[0] + arg[1] + arg[2] + arg[3]);
  *(uint64_t *)return_address = arg[0] * 2;
}

struct fixture {
  hsa_agent_t agent[2];
  uint32_t agents;
  hsa_queue_t *q;
  struct hsa_test_queue_error err;
  hsa_amd_memory_pool_t pool;
};

static void fixture_setup(struct fixture *f) {
  memset(f, 0, sizeof *f);
  HSA_ASSERT_OK(hsa_init());
  f->agents = hsa_test_cpu_agents(f->agent, 2);
  ASSERT_GE(f->agents, 1);
  f->pool = hsa_test_kernarg_pool(f->agent[0]);
  HSA_ASSERT_OK(hsa_queue_create(f->agent[0], 256, HSA_QUEUE_TYPE_MULTI,
                                 hsa_test_queue_error_callback, &f->err, 0, 0, &f->q));
}

static void fixture_teardown(struct fixture *f) {
  HSA_ASSERT_OK(hsa_queue_destroy(f->q));
  HSA_ASSERT_OK(hsa_shut_down());
}

static void *pool_alloc(struct fixture *f, size_t size) {
  void *p = NULL;
  HSA_ASSERT_OK(hsa_amd_memory_pool_allocate(f->pool, size, 0, &p));
  memset(p, 0, size);
  return p;
}

static void check_geometry(struct fixture *f, uint32_t dims, uint32_t gx, uint32_t gy, uint32_t gz,
                           uint32_t wx, uint32_t wy, uint32_t wz) {
  uint64_t items = (uint64_t)gx * gy * gz;
  struct ids_args *args = pool_alloc(f, sizeof *args);
  args->hits = pool_alloc(f, items * sizeof(uint32_t));
  args->bad = pool_alloc(f, sizeof(uint32_t));
  args->grid[0] = gx, args->grid[1] = gy, args->grid[2] = gz;
  hsa_signal_t done;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
  const uint32_t grid[3] = {gx, gy, gz}, wg[3] = {wx, wy, wz};
  hsa_kernel_dispatch_packet_t p =
      hsa_test_dispatch_packet(&hsa_cpu_kernel_test_record_ids, dims, grid, wg, args, done);
  hsa_test_submit(f->q, &p, hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false));
  ASSERT_EQ(hsa_test_wait_eq(done, 0), 0);
  for (uint64_t i = 0; i < items; i++)
    ASSERT_EQ(atomic_load(&args->hits[i]), 1); /* each item once */
  ASSERT_EQ(atomic_load(args->bad), 0);
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  HSA_ASSERT_OK(hsa_amd_memory_pool_free((void *)args->hits));
  HSA_ASSERT_OK(hsa_amd_memory_pool_free((void *)args->bad));
  HSA_ASSERT_OK(hsa_amd_memory_pool_free(args));
}

TEST(hsa_dispatch_runs_every_work_item_once_in_1d_2d_3d) {
  struct fixture f;
  fixture_setup(&f);
  check_geometry(&f, 1, 1, 1, 1, 1, 1, 1);
  check_geometry(&f, 1, 1000, 1, 1, 64, 1, 1); /* partial last group */
  check_geometry(&f, 1, 4096, 1, 1, 1024, 1, 1);
  check_geometry(&f, 2, 37, 29, 1, 8, 4, 1); /* partial in x and y */
  check_geometry(&f, 3, 17, 9, 5, 4, 4, 2);  /* partial in all three */
  check_geometry(&f, 3, 1, 1, 300, 1, 1, 7);
  ASSERT_EQ(atomic_load(&f.err.calls), 0);
  fixture_teardown(&f);
}

TEST(hsa_dispatch_group_segment_is_private_per_group) {
  struct fixture f;
  fixture_setup(&f);
  struct group_args *args = pool_alloc(&f, sizeof *args);
  args->errors = pool_alloc(&f, sizeof(uint32_t));
  hsa_signal_t done;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
  const uint32_t grid[3] = {64 * 32, 1, 1}, wg[3] = {64, 1, 1};
  hsa_kernel_dispatch_packet_t p =
      hsa_test_dispatch_packet(&hsa_cpu_kernel_test_group_segment, 1, grid, wg, args, done);
  p.group_segment_size = 1024; /* dynamic, on top of the kernel's static 256 */
  hsa_test_submit(f.q, &p, hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false));
  ASSERT_EQ(hsa_test_wait_eq(done, 0), 0);
  ASSERT_EQ(atomic_load(args->errors), 0);
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  fixture_teardown(&f);
}

TEST(hsa_dispatch_barrier_and_or_wait_for_their_dependencies) {
  struct fixture f;
  fixture_setup(&f);
  hsa_signal_t dep[5], done_and, done_or;
  for (int i = 0; i < 5; i++) HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &dep[i]));
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done_and));
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done_or));
  hsa_queue_t *q2;
  HSA_ASSERT_OK(
      hsa_queue_create(f.agent[f.agents - 1], 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q2));
  hsa_barrier_and_packet_t b;
  memset(&b, 0, sizeof b);
  memcpy(b.dep_signal, dep, sizeof dep);
  b.completion_signal = done_and;
  hsa_test_submit(f.q, &b, hsa_test_header(HSA_PACKET_TYPE_BARRIER_AND, false));
  hsa_barrier_or_packet_t o;
  memset(&o, 0, sizeof o);
  o.dep_signal[1] = dep[3];
  o.dep_signal[4] = dep[4];
  o.completion_signal = done_or;
  hsa_test_submit(q2, &o, hsa_test_header(HSA_PACKET_TYPE_BARRIER_OR, false));
  for (int i = 0; i < 5; i++) {
    plat_sleep_ns(2000000);
    /* AND waits for all five; OR for dep[3] or dep[4]. */
    ASSERT_EQ(hsa_signal_load_scacquire(done_and), 1);
    ASSERT_EQ(hsa_signal_load_scacquire(done_or), i > 3 ? 0 : 1);
    hsa_signal_store_screlease(dep[i], 0);
    if (i == 3) ASSERT_EQ(hsa_test_wait_eq(done_or, 0), 0);
  }
  ASSERT_EQ(hsa_test_wait_eq(done_and, 0), 0);
  /* No dependencies at all: satisfied at once. */
  memset(&b, 0, sizeof b);
  b.completion_signal = done_and;
  hsa_signal_store_relaxed(done_and, 1);
  hsa_test_submit(f.q, &b, hsa_test_header(HSA_PACKET_TYPE_BARRIER_OR, false));
  ASSERT_EQ(hsa_test_wait_eq(done_and, 0), 0);
  HSA_ASSERT_OK(hsa_queue_destroy(q2));
  for (int i = 0; i < 5; i++) HSA_ASSERT_OK(hsa_signal_destroy(dep[i]));
  HSA_ASSERT_OK(hsa_signal_destroy(done_and));
  HSA_ASSERT_OK(hsa_signal_destroy(done_or));
  ASSERT_EQ(atomic_load(&f.err.calls), 0);
  fixture_teardown(&f);
}

TEST(hsa_dispatch_amd_barrier_value_packet_masks_and_compares) {
  struct fixture f;
  fixture_setup(&f);
  hsa_signal_t watched, done;
  HSA_ASSERT_OK(hsa_signal_create(0x10, 0, NULL, &watched));
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
  hsa_amd_barrier_value_packet_t p;
  memset(&p, 0, sizeof p);
  p.header.AmdFormat = HSA_AMD_PACKET_TYPE_BARRIER_VALUE;
  p.signal = watched;
  p.value = 0x3;
  p.mask = 0xf;
  p.cond = HSA_SIGNAL_CONDITION_EQ;
  p.completion_signal = done;
  hsa_test_submit(f.q, &p, hsa_test_header(HSA_PACKET_TYPE_VENDOR_SPECIFIC, false));
  plat_sleep_ns(2000000);
  ASSERT_EQ(hsa_signal_load_scacquire(done), 1); /* 0x10 & 0xf = 0 != 3 */
  hsa_signal_store_screlease(watched, 0x23);     /* 0x23 & 0xf = 3: holds */
  ASSERT_EQ(hsa_test_wait_eq(done, 0), 0);
  HSA_ASSERT_OK(hsa_signal_destroy(watched));
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  fixture_teardown(&f);
}

TEST(hsa_dispatch_agent_dispatch_calls_registered_function) {
  struct fixture f;
  fixture_setup(&f);
  hsa_signal_t done;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
  uint64_t *ret = pool_alloc(&f, sizeof *ret);
  hsa_agent_dispatch_packet_t p;
  memset(&p, 0, sizeof p);
  p.type = 0x1234;
  p.arg[0] = 21, p.arg[1] = 1, p.arg[2] = 2, p.arg[3] = 3;
  p.return_address = ret;
  p.completion_signal = done;
  atomic_store(&agent_fn_sum, 0);
  hsa_test_submit(f.q, &p, hsa_test_header(HSA_PACKET_TYPE_AGENT_DISPATCH, false));
  ASSERT_EQ(hsa_test_wait_eq(done, 0), 0);
  ASSERT_EQ(*ret, 42);
  ASSERT_EQ(atomic_load(&agent_fn_sum), 27);
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  fixture_teardown(&f);
}

TEST(hsa_dispatch_profiling_stamps_completion_signal) {
  struct fixture f;
  fixture_setup(&f);
  HSA_ASSERT_OK(hsa_amd_profiling_set_profiler_enabled(f.q, 1));
  hsa_signal_t done;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
  uint64_t before = plat_now_ns();
  const uint32_t grid[3] = {1, 1, 1}, wg[3] = {1, 1, 1};
  hsa_kernel_dispatch_packet_t p =
      hsa_test_dispatch_packet(&hsa_cpu_kernel_test_empty, 1, grid, wg, NULL, done);
  hsa_test_submit(f.q, &p, hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false));
  ASSERT_EQ(hsa_test_wait_eq(done, 0), 0);
  hsa_amd_profiling_dispatch_time_t t;
  HSA_ASSERT_OK(hsa_amd_profiling_get_dispatch_time(f.agent[0], done, &t));
  ASSERT_GE(t.start, before);
  ASSERT_GE(t.end, t.start);
  ASSERT_LE(t.end, plat_now_ns());
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  fixture_teardown(&f);
}

TEST(hsa_dispatch_cpu_kernels_are_found_through_executables) {
  struct fixture f;
  fixture_setup(&f);
  hsa_executable_t exec;
  HSA_ASSERT_OK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                          NULL, &exec));
  HSA_ASSERT_OK(hsa_executable_freeze(exec, NULL));
  ASSERT_EQ(hsa_executable_freeze(exec, NULL), HSA_STATUS_ERROR_FROZEN_EXECUTABLE);
  hsa_executable_symbol_t sym, sym_kd;
  HSA_ASSERT_OK(hsa_executable_get_symbol_by_name(exec, "test_group_segment", &f.agent[0], &sym));
  HSA_ASSERT_OK(
      hsa_executable_get_symbol_by_name(exec, "test_group_segment.kd", &f.agent[0], &sym_kd));
  ASSERT_EQ(sym.handle, sym_kd.handle);
  uint64_t object;
  uint32_t kernarg_size, kernarg_align, group, len;
  hsa_symbol_kind_t kind;
  char name[64] = {0};
  HSA_ASSERT_OK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind));
  ASSERT_EQ(kind, HSA_SYMBOL_KIND_KERNEL);
  HSA_ASSERT_OK(
      hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &object));
  ASSERT_EQ(object, (uint64_t)(uintptr_t)&hsa_cpu_kernel_test_group_segment);
  HSA_ASSERT_OK(hsa_executable_symbol_get_info(
      sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &kernarg_size));
  ASSERT_EQ(kernarg_size, sizeof(struct group_args));
  HSA_ASSERT_OK(hsa_executable_symbol_get_info(
      sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT, &kernarg_align));
  ASSERT_EQ(kernarg_align, 16); /* declared 8; PRM 2.9.6: at least 16 */
  HSA_ASSERT_OK(hsa_executable_symbol_get_info(
      sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &group));
  ASSERT_EQ(group, 256);
  HSA_ASSERT_OK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH, &len));
  HSA_ASSERT_OK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_NAME, name));
  ASSERT_EQ(len, strlen("test_group_segment"));
  ASSERT_STR_EQ(name, "test_group_segment");
  hsa_agent_t owner;
  HSA_ASSERT_OK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_AGENT, &owner));
  ASSERT_EQ(owner.handle, f.agent[0].handle);
  uint64_t addr;
  ASSERT_EQ(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &addr),
            HSA_STATUS_ERROR_INVALID_ARGUMENT); /* not a variable */
  ASSERT_EQ(hsa_executable_get_symbol_by_name(exec, "no_such_kernel", &f.agent[0], &sym),
            HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);
  HSA_ASSERT_OK(hsa_executable_destroy(exec));
  ASSERT_EQ(hsa_executable_destroy(exec), HSA_STATUS_ERROR_INVALID_EXECUTABLE);
  ASSERT_EQ(hsa_executable_symbol_get_info(sym_kd, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind),
            HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL); /* gone with its executable */
  fixture_teardown(&f);
}

/* One malformed packet per case; each must stop its queue with `status`
 * while a healthy queue on the same agent keeps running. */
static void expect_rejected(const void *packet, uint16_t header, hsa_status_t status) {
  struct fixture f;
  fixture_setup(&f);
  hsa_queue_t *healthy;
  HSA_ASSERT_OK(hsa_queue_create(f.agent[0], 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &healthy));
  hsa_signal_t done, after;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &after));
  uint8_t copy[64];
  memcpy(copy, packet, 64);
  memcpy(copy + 56, &done, sizeof done);
  hsa_test_submit(f.q, copy, header);
  /* A well-formed packet behind it must never run: the queue stopped. */
  hsa_barrier_and_packet_t b;
  memset(&b, 0, sizeof b);
  b.completion_signal = after;
  hsa_test_submit(f.q, &b, hsa_test_header(HSA_PACKET_TYPE_BARRIER_AND, false));
  uint64_t deadline = plat_now_ns() + 5000000000ull;
  while (atomic_load(&f.err.calls) == 0 && plat_now_ns() < deadline) plat_sleep_ns(100000);
  ASSERT_EQ(atomic_load(&f.err.calls), 1);
  ASSERT_EQ(atomic_load(&f.err.status), status);
  ASSERT_EQ(hsa_signal_load_scacquire(done), 1);
  /* The other queue goes on. */
  hsa_signal_t ok;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &ok));
  b.completion_signal = ok;
  hsa_test_submit(healthy, &b, hsa_test_header(HSA_PACKET_TYPE_BARRIER_AND, false));
  ASSERT_EQ(hsa_test_wait_eq(ok, 0), 0);
  ASSERT_EQ(hsa_signal_load_scacquire(after), 1);
  ASSERT_EQ(atomic_load(&f.err.calls), 1); /* reported once */
  HSA_ASSERT_OK(hsa_queue_destroy(healthy));
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  HSA_ASSERT_OK(hsa_signal_destroy(after));
  HSA_ASSERT_OK(hsa_signal_destroy(ok));
  fixture_teardown(&f);
}

static hsa_kernel_dispatch_packet_t good_dispatch(void) {
  const uint32_t grid[3] = {64, 1, 1}, wg[3] = {16, 1, 1};
  hsa_signal_t none = {0};
  return hsa_test_dispatch_packet(&hsa_cpu_kernel_test_empty, 1, grid, wg, NULL, none);
}

TEST(hsa_dispatch_malformed_packets_stop_only_their_queue) {
  uint16_t dispatch = hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false);
  hsa_kernel_dispatch_packet_t p = good_dispatch();
  expect_rejected(&p, (uint16_t)(dispatch & ~0xff) | 9,
                  HSA_STATUS_ERROR_INVALID_PACKET_FORMAT); /* type 9 */
  p = good_dispatch();
  expect_rejected(&p, (uint16_t)(dispatch | 3 << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE),
                  HSA_STATUS_ERROR_INVALID_PACKET_FORMAT); /* reserved fence scope */
  p = good_dispatch();
  p.grid_size_x = 0;
  expect_rejected(&p, dispatch, HSA_STATUS_ERROR_INVALID_ARGUMENT);
  p = good_dispatch();
  p.workgroup_size_x = 128; /* larger than the grid (64) */
  expect_rejected(&p, dispatch, HSA_STATUS_ERROR_INVALID_ARGUMENT);
  p = good_dispatch();
  p.setup = 0; /* zero dimensions */
  expect_rejected(&p, dispatch, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  p = good_dispatch();
  p.grid_size_y = 4; /* a dimension beyond `setup` not 1 */
  expect_rejected(&p, dispatch, HSA_STATUS_ERROR_INVALID_ARGUMENT);
  p = good_dispatch();
  p.kernel_object = 0;
  expect_rejected(&p, dispatch, HSA_STATUS_ERROR_INVALID_ARGUMENT);
  p = good_dispatch();
  p.kernel_object = (uint64_t)(uintptr_t)&p; /* not a kernel */
  expect_rejected(&p, dispatch, HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  hsa_barrier_and_packet_t b;
  memset(&b, 0, sizeof b);
  b.dep_signal[2].handle = 0x5540; /* not a signal */
  expect_rejected(&b, hsa_test_header(HSA_PACKET_TYPE_BARRIER_AND, false),
                  HSA_STATUS_ERROR_INVALID_SIGNAL);
  hsa_agent_dispatch_packet_t ad;
  memset(&ad, 0, sizeof ad);
  ad.type = 0x4321; /* no function registered */
  expect_rejected(&ad, hsa_test_header(HSA_PACKET_TYPE_AGENT_DISPATCH, false),
                  HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  hsa_amd_barrier_value_packet_t v;
  memset(&v, 0, sizeof v);
  v.header.AmdFormat = 77; /* unknown vendor format */
  expect_rejected(&v, hsa_test_header(HSA_PACKET_TYPE_VENDOR_SPECIFIC, false),
                  HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
}

struct destroying_callback {
  _Atomic int calls;
  _Atomic int destroy_status;
};

static void destroy_source(hsa_status_t status, hsa_queue_t *source, void *data) {
  (void)status;
  struct destroying_callback *d = data;
  atomic_store(&d->destroy_status, (int)hsa_queue_destroy(source));
  atomic_fetch_add(&d->calls, 1);
}

TEST(hsa_dispatch_error_callback_may_destroy_its_queue) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t cpu;
  hsa_test_cpu_agents(&cpu, 1);
  struct destroying_callback d = {0, -1};
  hsa_queue_t *q;
  HSA_ASSERT_OK(hsa_queue_create(cpu, 64, HSA_QUEUE_TYPE_MULTI, destroy_source, &d, 0, 0, &q));
  hsa_kernel_dispatch_packet_t p = good_dispatch();
  p.kernel_object = 0; /* malformed */
  hsa_test_submit(q, &p, hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false));
  uint64_t deadline = plat_now_ns() + 5000000000ull;
  while (atomic_load(&d.calls) == 0 && plat_now_ns() < deadline) plat_sleep_ns(100000);
  ASSERT_EQ(atomic_load(&d.calls), 1);
  ASSERT_EQ(atomic_load(&d.destroy_status), HSA_STATUS_SUCCESS);
  /* The agent goes on serving other queues. */
  hsa_queue_t *other;
  HSA_ASSERT_OK(hsa_queue_create(cpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &other));
  hsa_signal_t done;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
  hsa_barrier_and_packet_t b;
  memset(&b, 0, sizeof b);
  b.completion_signal = done;
  hsa_test_submit(other, &b, hsa_test_header(HSA_PACKET_TYPE_BARRIER_AND, false));
  ASSERT_EQ(hsa_test_wait_eq(done, 0), 0);
  HSA_ASSERT_OK(hsa_queue_destroy(other));
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  HSA_ASSERT_OK(hsa_shut_down());
}
