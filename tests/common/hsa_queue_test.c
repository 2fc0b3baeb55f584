/*
 * hsa_queue_test.c - queues: creation and its errors, the amd_queue_t
 * around hsa_queue_t, read/write index operations in every order (our
 * rewrite of the conformance suite's queue index tests), full queues, ring
 * wrap-around, inactivation, soft queues, CU masks.
 */
#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>
#include <string.h>

#include "lib/plat.h"
#include "tests/common/hsa_test_util.h"

static hsa_agent_t first_cpu(void) {
  hsa_agent_t a = {0};
  hsa_test_cpu_agents(&a, 1);
  return a;
}

TEST(hsa_queue_create_errors) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t a = first_cpu();
  hsa_queue_t *q;
  uint32_t min, max;
  HSA_ASSERT_OK(hsa_agent_get_info(a, HSA_AGENT_INFO_QUEUE_MIN_SIZE, &min));
  HSA_ASSERT_OK(hsa_agent_get_info(a, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &max));
  ASSERT_EQ(hsa_queue_create(a, 100, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_queue_create(a, 0, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_queue_create(a, min / 2, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  /* ROCr: larger than the agent's limit is out of resources, an unknown
   * type an invalid argument, a cooperative queue not creatable. */
  ASSERT_EQ(hsa_queue_create(a, max * 2, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
            HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  ASSERT_EQ(hsa_queue_create(a, min, 7, NULL, NULL, 0, 0, &q), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_queue_create((hsa_agent_t){0x99}, 0, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
            HSA_STATUS_ERROR_INVALID_ARGUMENT); /* the arguments before the agent */
  ASSERT_EQ(hsa_queue_create(a, min, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 300000, 0, &q),
            HSA_STATUS_ERROR_OUT_OF_RESOURCES); /* private segment beyond 262128 bytes */
  ASSERT_EQ(hsa_queue_create(a, min, HSA_QUEUE_TYPE_COOPERATIVE, NULL, NULL, 0, 0, &q),
            HSA_STATUS_ERROR_INVALID_QUEUE_CREATION);
  ASSERT_EQ(hsa_queue_create(a, min, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, NULL),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(
      hsa_queue_create(a, min, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, UINT32_MAX, UINT32_MAX, &q));
  HSA_ASSERT_OK(hsa_queue_destroy(q));
  ASSERT_EQ(hsa_queue_destroy(q), HSA_STATUS_ERROR_INVALID_QUEUE); /* double destroy */
  ASSERT_EQ(hsa_queue_destroy(NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_queue_inactivate(q), HSA_STATUS_ERROR_INVALID_QUEUE);
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_queue_layout_and_fields) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t a = first_cpu();
  hsa_queue_t *q1, *q2;
  HSA_ASSERT_OK(hsa_queue_create(a, 128, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q1));
  HSA_ASSERT_OK(hsa_queue_create(a, 4096, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, 0, 0, &q2));
  ASSERT_EQ(q1->size, 128);
  ASSERT_EQ(q1->type, HSA_QUEUE_TYPE_MULTI);
  ASSERT_EQ(q2->type, HSA_QUEUE_TYPE_SINGLE);
  ASSERT_TRUE(q1->features & HSA_QUEUE_FEATURE_KERNEL_DISPATCH);
  ASSERT_NE(q1->id, q2->id);
  ASSERT_EQ((uintptr_t)q1->base_address % 64, 0);
  ASSERT_EQ((uintptr_t)q1 % 64, 0);
  /* Every slot starts INVALID (PRM 2.4). */
  for (uint32_t i = 0; i < q1->size; i++)
    ASSERT_EQ(((uint16_t *)q1->base_address)[i * 32] & 0xff, HSA_PACKET_TYPE_INVALID);
  /* hsa_queue_t sits at the start of amd_queue_t; the doorbell is an
   * amd_signal_t of doorbell kind that points back at the queue. */
  amd_queue_t *amd = (amd_queue_t *)q1;
  ASSERT_TRUE(amd->queue_properties & AMD_QUEUE_PROPERTIES_IS_PTR64);
  amd_signal_t *db = (amd_signal_t *)(uintptr_t)q1->doorbell_signal.handle;
  ASSERT_EQ(db->kind, AMD_SIGNAL_KIND_DOORBELL);
  ASSERT_PTR_EQ(db->queue_ptr, amd);
  /* The program may not destroy a queue's doorbell. */
  ASSERT_EQ(hsa_signal_destroy(q1->doorbell_signal), HSA_STATUS_ERROR_INVALID_SIGNAL);
  hsa_agent_t owner;
  HSA_ASSERT_OK(hsa_amd_queue_get_info(q1, HSA_AMD_QUEUE_INFO_AGENT, &owner));
  ASSERT_EQ(owner.handle, a.handle);
  HSA_ASSERT_OK(hsa_queue_destroy(q1));
  HSA_ASSERT_OK(hsa_queue_destroy(q2));
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_queue_index_operations_in_every_order) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t a = first_cpu();
  hsa_queue_t *q;
  HSA_ASSERT_OK(hsa_queue_create(a, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q));
  amd_queue_t *amd = (amd_queue_t *)q;
  ASSERT_EQ(hsa_queue_load_write_index_relaxed(q), 0);
  ASSERT_EQ(hsa_queue_load_read_index_relaxed(q), 0);
  /* add returns the previous value, in each order. */
  uint64_t (*const add[])(const hsa_queue_t *, uint64_t) = {
      hsa_queue_add_write_index_relaxed,   hsa_queue_add_write_index_scacquire,
      hsa_queue_add_write_index_screlease, hsa_queue_add_write_index_scacq_screl,
      hsa_queue_add_write_index_acquire,   hsa_queue_add_write_index_release,
      hsa_queue_add_write_index_acq_rel};
  uint64_t expect = 0;
  for (int i = 0; i < 7; i++) {
    ASSERT_EQ_U(add[i](q, 0), expect); /* add 0: nothing published */
    ASSERT_EQ_U(amd->write_dispatch_id, expect);
  }
  uint64_t (*const cas[])(const hsa_queue_t *, uint64_t, uint64_t) = {
      hsa_queue_cas_write_index_relaxed,   hsa_queue_cas_write_index_scacquire,
      hsa_queue_cas_write_index_screlease, hsa_queue_cas_write_index_scacq_screl,
      hsa_queue_cas_write_index_acquire,   hsa_queue_cas_write_index_release,
      hsa_queue_cas_write_index_acq_rel};
  /* A failing cas changes nothing; it returns what it saw. Use values a
   * processor ignores: equal read and write index means "empty". */
  for (int i = 0; i < 7; i++) ASSERT_EQ_U(cas[i](q, expect + 5, 99), expect);
  ASSERT_EQ_U(hsa_queue_load_write_index_scacquire(q), expect);
  ASSERT_EQ_U(hsa_queue_load_write_index_acquire(q), expect);
  ASSERT_EQ_U(hsa_queue_load_read_index_scacquire(q), 0);
  ASSERT_EQ_U(hsa_queue_load_read_index_acquire(q), 0);
  HSA_ASSERT_OK(hsa_queue_destroy(q));
  /* Stores and cas successes on a soft queue (no processor reads it). */
  hsa_region_t region;
  hsa_amd_memory_pool_t pool = hsa_test_kernarg_pool(a);
  region.handle = pool.handle;
  hsa_signal_t db;
  HSA_ASSERT_OK(hsa_signal_create(0, 0, NULL, &db));
  HSA_ASSERT_OK(hsa_soft_queue_create(region, 64, HSA_QUEUE_TYPE_MULTI,
                                      HSA_QUEUE_FEATURE_AGENT_DISPATCH, db, &q));
  void (*const store_w[])(const hsa_queue_t *, uint64_t) = {hsa_queue_store_write_index_relaxed,
                                                            hsa_queue_store_write_index_screlease,
                                                            hsa_queue_store_write_index_release};
  void (*const store_r[])(const hsa_queue_t *, uint64_t) = {hsa_queue_store_read_index_relaxed,
                                                            hsa_queue_store_read_index_screlease,
                                                            hsa_queue_store_read_index_release};
  for (int i = 0; i < 3; i++) {
    store_w[i](q, 1000 + (uint64_t)i);
    ASSERT_EQ_U(hsa_queue_load_write_index_relaxed(q), 1000 + (uint64_t)i);
    store_r[i](q, 500 + (uint64_t)i);
    ASSERT_EQ_U(hsa_queue_load_read_index_relaxed(q), 500 + (uint64_t)i);
  }
  /* 64-bit indices: near the top they wrap like any unsigned counter. */
  hsa_queue_store_write_index_relaxed(q, UINT64_MAX - 1);
  ASSERT_EQ_U(hsa_queue_add_write_index_relaxed(q, 3), UINT64_MAX - 1);
  ASSERT_EQ_U(hsa_queue_load_write_index_relaxed(q), 1);
  for (int i = 0; i < 7; i++) {
    uint64_t cur = hsa_queue_load_write_index_relaxed(q);
    ASSERT_EQ_U(cas[i](q, cur, cur + 10), cur);
    ASSERT_EQ_U(hsa_queue_load_write_index_relaxed(q), cur + 10);
    ASSERT_EQ_U(add[i](q, 2), cur + 10);
  }
  HSA_ASSERT_OK(hsa_queue_destroy(q));
  HSA_ASSERT_OK(hsa_signal_destroy(db));
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_queue_soft_queue_errors) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t a = first_cpu();
  hsa_region_t region = {hsa_test_kernarg_pool(a).handle}, bad_region = {0x999};
  hsa_signal_t db, bad_signal = {0x8880};
  HSA_ASSERT_OK(hsa_signal_create(0, 0, NULL, &db));
  hsa_queue_t *q;
  ASSERT_EQ(hsa_soft_queue_create(bad_region, 64, HSA_QUEUE_TYPE_MULTI, 1, db, &q),
            HSA_STATUS_ERROR_INVALID_REGION);
  ASSERT_EQ(hsa_soft_queue_create(region, 63, HSA_QUEUE_TYPE_MULTI, 1, db, &q),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_soft_queue_create(region, 64, HSA_QUEUE_TYPE_MULTI, 0, db, &q),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_soft_queue_create(region, 64, HSA_QUEUE_TYPE_MULTI, 8, db, &q),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_soft_queue_create(region, 64, HSA_QUEUE_TYPE_MULTI, 1, bad_signal, &q),
            HSA_STATUS_ERROR_INVALID_SIGNAL);
  ASSERT_EQ(hsa_soft_queue_create(region, 64, HSA_QUEUE_TYPE_MULTI, 1, db, NULL),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_soft_queue_create(region, 64, HSA_QUEUE_TYPE_SINGLE, 1, db, &q));
  ASSERT_EQ(q->doorbell_signal.handle, db.handle);
  HSA_ASSERT_OK(hsa_queue_destroy(q));
  HSA_ASSERT_OK(hsa_signal_destroy(db)); /* the program's own doorbell */
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_queue_full_queue_then_wrap_around) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t a = first_cpu();
  hsa_queue_t *q;
  HSA_ASSERT_OK(hsa_queue_create(a, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q));
  hsa_signal_t gate, done;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &gate));
  HSA_ASSERT_OK(hsa_signal_create(64, 0, NULL, &done));
  /* The first barrier waits on `gate`: the queue fills up behind it. */
  hsa_barrier_and_packet_t b;
  memset(&b, 0, sizeof b);
  b.dep_signal[0] = gate;
  b.completion_signal = done;
  hsa_test_submit(q, &b, hsa_test_header(HSA_PACKET_TYPE_BARRIER_AND, true));
  b.dep_signal[0].handle = 0;
  for (int i = 1; i < 64; i++)
    hsa_test_submit(q, &b, hsa_test_header(HSA_PACKET_TYPE_BARRIER_AND, false));
  plat_sleep_ns(2000000);
  ASSERT_EQ_U(hsa_queue_load_write_index_scacquire(q) - hsa_queue_load_read_index_scacquire(q), 64);
  ASSERT_EQ(hsa_signal_load_scacquire(done), 64);
  hsa_signal_store_screlease(gate, 0);
  ASSERT_EQ(hsa_test_wait_eq(done, 0), 0);
  ASSERT_EQ_U(hsa_queue_load_read_index_scacquire(q), 64);
  /* 10 more rounds through the ring: every slot is reused. */
  hsa_signal_store_relaxed(done, 640);
  for (int i = 0; i < 640; i++)
    hsa_test_submit(q, &b, hsa_test_header(HSA_PACKET_TYPE_BARRIER_AND, false));
  ASSERT_EQ(hsa_test_wait_eq(done, 0), 0);
  ASSERT_EQ_U(hsa_queue_load_read_index_scacquire(q), 704);
  HSA_ASSERT_OK(hsa_queue_destroy(q));
  HSA_ASSERT_OK(hsa_signal_destroy(gate));
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_queue_inactivated_queue_is_not_processed) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t a = first_cpu();
  hsa_queue_t *q;
  HSA_ASSERT_OK(hsa_queue_create(a, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q));
  hsa_signal_t done;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
  HSA_ASSERT_OK(hsa_queue_inactivate(q));
  HSA_ASSERT_OK(hsa_queue_inactivate(q)); /* twice is fine */
  hsa_barrier_and_packet_t b;
  memset(&b, 0, sizeof b);
  b.completion_signal = done;
  hsa_test_submit(q, &b, hsa_test_header(HSA_PACKET_TYPE_BARRIER_AND, false));
  ASSERT_EQ(
      hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 20000000, HSA_WAIT_STATE_BLOCKED),
      1);
  ASSERT_EQ_U(hsa_queue_load_read_index_relaxed(q), 0);
  HSA_ASSERT_OK(hsa_queue_destroy(q));
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_queue_cu_mask_priority_and_profiling_controls) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t a = first_cpu();
  uint32_t cus;
  HSA_ASSERT_OK(
      hsa_agent_get_info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, &cus));
  hsa_queue_t *q;
  HSA_ASSERT_OK(hsa_queue_create(a, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q));
  uint32_t mask[2] = {0, 0};
  HSA_ASSERT_OK(hsa_amd_queue_cu_get_mask(q, 64, mask));
  ASSERT_EQ(mask[0], cus >= 32 ? 0xffffffffu : (1u << cus) - 1);
  uint32_t one = 1;
  HSA_ASSERT_OK(hsa_amd_queue_cu_set_mask(q, 32, &one));
  HSA_ASSERT_OK(hsa_amd_queue_cu_get_mask(q, 32, mask));
  ASSERT_EQ(mask[0], 1);
  uint32_t beyond[2] = {1, 0x80000000u};
  ASSERT_EQ(hsa_amd_queue_cu_set_mask(q, 64, beyond), (hsa_status_t)HSA_STATUS_CU_MASK_REDUCED);
  uint32_t none = 0;
  ASSERT_EQ(hsa_amd_queue_cu_set_mask(q, 32, &none), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_amd_queue_cu_set_mask(q, 31, &one), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_amd_queue_set_priority(q, HSA_AMD_QUEUE_PRIORITY_HIGH));
  ASSERT_EQ(hsa_amd_queue_set_priority(q, (hsa_amd_queue_priority_t)9),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_amd_profiling_set_profiler_enabled(q, 1));
  HSA_ASSERT_OK(hsa_queue_destroy(q));
  ASSERT_EQ(hsa_amd_queue_cu_set_mask(q, 32, &one), HSA_STATUS_ERROR_INVALID_QUEUE);
  ASSERT_EQ(hsa_amd_profiling_set_profiler_enabled(q, 1), HSA_STATUS_ERROR_INVALID_QUEUE);
  HSA_ASSERT_OK(hsa_shut_down());
}
