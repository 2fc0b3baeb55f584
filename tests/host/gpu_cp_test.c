/* The command processor's AQL engine below the runtime: packets written to
 * a ring the CP reads through the GMC, completion signals, barriers,
 * profiling, interrupts, and every packet the firmware must refuse. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <hsa/hsa_ext_amd.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "lib/plat.h"
#include "lib/test.h"
#include "tests/common/amdgpu_test_util.h"
#include "tests/host/gpu_cp_rig.h"
#include "lib/util.h"

#define WAIT_NS 2000000000ull   /* what a packet may take at most */
#define SETTLE_NS 30000000ull   /* time to be sure something does not happen */

static hsa_barrier_and_packet_t barrier(hsa_packet_type_t type, amd_signal_t *done) {
  hsa_barrier_and_packet_t p;
  memset(&p, 0, sizeof p);
  p.header = rig_header(type, true);
  p.completion_signal.handle = (uint64_t)(uintptr_t)done;
  return p;
}

static uint16_t slot_header(struct rig *r, int qi, uint64_t index) {
  return __atomic_load_n((uint16_t *)((uint8_t *)r->q[qi].ring + (index % RIG_RING_PACKETS) * 64),
                         __ATOMIC_ACQUIRE);
}

TEST(gpu_cp_barrier_packets_complete_in_order) {
  struct rig r;
  ASSERT_TRUE(rig_up(&r, VAPU_RAVEN));
  int q = rig_add_queue(&r, 0, 0);
  ASSERT_EQ(q, 0);
  struct vapu_cp_stats before; /* the driver's bring-up ran its self-test packet */
  vapu_cp_get_stats(r.v, &before);
  /* More packets than the ring holds: slots are handed back and reused. */
  int total = RIG_RING_PACKETS + 10;
  for (int i = 0; i < total; i++) {
    amd_signal_t *s = &r.signals[i % RIG_SIGNALS];
    if (i >= RIG_SIGNALS) ASSERT_TRUE(rig_wait_value(&r.signals[(i - RIG_SIGNALS) % RIG_SIGNALS].value, 0, WAIT_NS));
    __atomic_store_n(&s->value, 1, __ATOMIC_RELEASE);
    hsa_barrier_and_packet_t p = barrier(HSA_PACKET_TYPE_BARRIER_AND, s);
    while (r.q[q].amd->write_dispatch_id - __atomic_load_n(&r.q[q].amd->read_dispatch_id, __ATOMIC_ACQUIRE) >= RIG_RING_PACKETS)
      plat_sleep_ns(10000);
    rig_submit(&r, q, &p);
  }
  ASSERT_TRUE(rig_wait_u64(&r.q[q].amd->read_dispatch_id, (uint64_t)total, WAIT_NS));
  for (int i = 0; i < RIG_SIGNALS; i++) ASSERT_TRUE(rig_wait_value(&r.signals[i].value, 0, WAIT_NS));
  /* Every slot handed back as INVALID; the mailbox holds an event id. */
  for (int i = 0; i < RIG_RING_PACKETS; i++)
    ASSERT_EQ(slot_header(&r, q, (uint64_t)i) & 0xff, HSA_PACKET_TYPE_INVALID);
  ASSERT_GE(*r.mailbox, 100);
  ASSERT_LT(*r.mailbox, 100 + RIG_SIGNALS);
  /* The interrupts reach the driver on its interrupt thread, after the
   * signals changed. */
  ASSERT_GT(amdgpu_test_wait_count((const int *)&r.eop_count, 1), 0);
  struct vapu_cp_stats st;
  vapu_cp_get_stats(r.v, &st);
  ASSERT_EQ(st.barriers - before.barriers, total);
  ASSERT_EQ(st.queue_errors, 0);
  ASSERT_EQ(r.q[q].inactive->value, 0);
  rig_down(&r);
}

TEST(gpu_cp_barrier_and_waits_for_every_dependency) {
  struct rig r;
  ASSERT_TRUE(rig_up(&r, VAPU_RAVEN));
  int q = rig_add_queue(&r, 0, 1);
  ASSERT_EQ(q, 0);
  amd_signal_t *dep0 = &r.signals[0], *dep1 = &r.signals[1], *done = &r.signals[2], *after = &r.signals[3];
  hsa_barrier_and_packet_t p = barrier(HSA_PACKET_TYPE_BARRIER_AND, done);
  p.dep_signal[1].handle = (uint64_t)(uintptr_t)dep0;
  p.dep_signal[4].handle = (uint64_t)(uintptr_t)dep1;
  rig_submit(&r, q, &p);
  hsa_barrier_and_packet_t next = barrier(HSA_PACKET_TYPE_BARRIER_AND, after);
  rig_submit(&r, q, &next);
  plat_sleep_ns(SETTLE_NS);
  ASSERT_EQ(done->value, 1);
  ASSERT_EQ(after->value, 1); /* in order: the next packet waits too */
  ASSERT_EQ(r.q[q].amd->read_dispatch_id, 0);
  __atomic_store_n(&dep0->value, 0, __ATOMIC_RELEASE);
  plat_sleep_ns(SETTLE_NS);
  ASSERT_EQ(done->value, 1);
  __atomic_store_n(&dep1->value, 0, __ATOMIC_RELEASE); /* no doorbell: the CP polls */
  ASSERT_TRUE(rig_wait_value(&done->value, 0, WAIT_NS));
  ASSERT_TRUE(rig_wait_value(&after->value, 0, WAIT_NS));
  ASSERT_EQ(r.q[q].amd->read_dispatch_id, 2);
  rig_down(&r);
}

TEST(gpu_cp_barrier_or_needs_one_dependency) {
  struct rig r;
  ASSERT_TRUE(rig_up(&r, VAPU_PICASSO));
  int q = rig_add_queue(&r, 1, 0);
  ASSERT_EQ(q, 0);
  amd_signal_t *dep0 = &r.signals[0], *dep1 = &r.signals[1], *done = &r.signals[2];
  hsa_barrier_or_packet_t p;
  memset(&p, 0, sizeof p);
  p.header = rig_header(HSA_PACKET_TYPE_BARRIER_OR, false);
  p.dep_signal[0].handle = (uint64_t)(uintptr_t)dep0;
  p.dep_signal[2].handle = (uint64_t)(uintptr_t)dep1;
  p.completion_signal.handle = (uint64_t)(uintptr_t)done;
  rig_submit(&r, q, &p);
  plat_sleep_ns(SETTLE_NS);
  ASSERT_EQ(done->value, 1);
  __atomic_store_n(&dep1->value, 0, __ATOMIC_RELEASE);
  ASSERT_TRUE(rig_wait_value(&done->value, 0, WAIT_NS));
  ASSERT_EQ(dep0->value, 1);
  rig_down(&r);
}

TEST(gpu_cp_barrier_value_packet) {
  struct rig r;
  ASSERT_TRUE(rig_up(&r, VAPU_RAVEN2));
  int q = rig_add_queue(&r, 2, 3);
  ASSERT_EQ(q, 0);
  amd_signal_t *watched = &r.signals[0], *done = &r.signals[1];
  watched->value = 0x105;
  hsa_amd_barrier_value_packet_t p;
  memset(&p, 0, sizeof p);
  p.header.header = rig_header(HSA_PACKET_TYPE_VENDOR_SPECIFIC, false);
  p.header.AmdFormat = HSA_AMD_PACKET_TYPE_BARRIER_VALUE;
  p.signal.handle = (uint64_t)(uintptr_t)watched;
  p.value = 0x20;
  p.mask = 0xf0;
  p.cond = HSA_SIGNAL_CONDITION_EQ;
  p.completion_signal.handle = (uint64_t)(uintptr_t)done;
  rig_submit(&r, q, &p);
  plat_sleep_ns(SETTLE_NS);
  ASSERT_EQ(done->value, 1); /* 0x105 & 0xf0 = 0x00 */
  __atomic_store_n(&watched->value, 0x327, __ATOMIC_RELEASE); /* & 0xf0 = 0x20 */
  ASSERT_TRUE(rig_wait_value(&done->value, 0, WAIT_NS));
  rig_down(&r);
}

TEST(gpu_cp_unpublished_slot_waits_for_its_header) {
  struct rig r;
  ASSERT_TRUE(rig_up(&r, VAPU_RAVEN));
  int q = rig_add_queue(&r, 0, 0);
  ASSERT_EQ(q, 0);
  /* A producer reserved slot 0 (write index 1) and rang, but has not
   * written it yet. */
  __atomic_store_n(&r.q[q].amd->write_dispatch_id, 1, __ATOMIC_RELEASE);
  vapu_cp_queue_write_pointer(r.v, 1, 0, 0, 1);
  plat_sleep_ns(SETTLE_NS);
  ASSERT_EQ(r.q[q].amd->read_dispatch_id, 0);
  ASSERT_EQ(r.q[q].inactive->value, 0);
  hsa_barrier_and_packet_t p = barrier(HSA_PACKET_TYPE_BARRIER_AND, &r.signals[0]);
  memcpy((uint8_t *)r.q[q].ring + 2, (uint8_t *)&p + 2, 62);
  __atomic_store_n((uint16_t *)r.q[q].ring, p.header, __ATOMIC_RELEASE);
  vapu_kick(r.v);
  ASSERT_TRUE(rig_wait_value(&r.signals[0].value, 0, WAIT_NS));
  rig_down(&r);
}

TEST(gpu_cp_profiling_writes_time_stamps) {
  struct rig r;
  ASSERT_TRUE(rig_up(&r, VAPU_RENOIR));
  int q = rig_add_queue(&r, 3, 7);
  ASSERT_EQ(q, 0);
  amd_signal_t *plain = &r.signals[0], *timed = &r.signals[1];
  hsa_barrier_and_packet_t p = barrier(HSA_PACKET_TYPE_BARRIER_AND, plain);
  rig_submit(&r, q, &p);
  ASSERT_TRUE(rig_wait_value(&plain->value, 0, WAIT_NS));
  ASSERT_EQ(plain->start_ts, 0);
  ASSERT_EQ(plain->end_ts, 0);
  r.q[q].amd->queue_properties |= AMD_QUEUE_PROPERTIES_ENABLE_PROFILING;
  uint64_t before = plat_now_ns();
  p = barrier(HSA_PACKET_TYPE_BARRIER_AND, timed);
  rig_submit(&r, q, &p);
  ASSERT_TRUE(rig_wait_value(&timed->value, 0, WAIT_NS));
  uint64_t after = plat_now_ns();
  ASSERT_GE(timed->start_ts, before);
  ASSERT_LE(timed->start_ts, timed->end_ts);
  ASSERT_LE(timed->end_ts, after);
  rig_down(&r);
}

/* One malformed packet per queue; a healthy queue next to them goes on. */
struct bad_packet {
  const char *what;
  uint64_t code;
  void (*make)(hsa_kernel_dispatch_packet_t *p);
};

static void dispatch_base(hsa_kernel_dispatch_packet_t *p) {
  memset(p, 0, sizeof *p);
  p->header = rig_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false);
  p->setup = 1;
  p->workgroup_size_x = p->workgroup_size_y = p->workgroup_size_z = 1;
  p->grid_size_x = p->grid_size_y = p->grid_size_z = 1;
  p->kernel_object = 0x10000; /* never read: every packet below is refused first */
}
static void bad_type(hsa_kernel_dispatch_packet_t *p) { dispatch_base(p); p->header = (p->header & ~0xff) | 9; }
static void agent_dispatch(hsa_kernel_dispatch_packet_t *p) { dispatch_base(p); p->header = (p->header & ~0xff) | HSA_PACKET_TYPE_AGENT_DISPATCH; }
static void reserved_bit(hsa_kernel_dispatch_packet_t *p) { dispatch_base(p); p->header |= 1u << 14; }
static void fence_scope_3(hsa_kernel_dispatch_packet_t *p) { dispatch_base(p); p->header |= 3u << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE; }
static void zero_dims(hsa_kernel_dispatch_packet_t *p) { dispatch_base(p); p->setup = 0; }
static void zero_grid(hsa_kernel_dispatch_packet_t *p) { dispatch_base(p); p->grid_size_x = 0; }
static void zero_wg(hsa_kernel_dispatch_packet_t *p) { dispatch_base(p); p->workgroup_size_x = 0; }
static void unused_dim(hsa_kernel_dispatch_packet_t *p) { dispatch_base(p); p->grid_size_z = 4; }
static void wg_over_grid(hsa_kernel_dispatch_packet_t *p) { dispatch_base(p); p->grid_size_x = 32; p->workgroup_size_x = 64; }
static void wg_too_big(hsa_kernel_dispatch_packet_t *p) {
  dispatch_base(p); p->setup = 2; p->grid_size_x = p->grid_size_y = 4096; p->workgroup_size_x = p->workgroup_size_y = 64;
}
static void null_kernel(hsa_kernel_dispatch_packet_t *p) { dispatch_base(p); p->kernel_object = 0; }
static void unaligned_kernel(hsa_kernel_dispatch_packet_t *p) { dispatch_base(p); p->kernel_object = 0x10020; }
static void too_much_lds(hsa_kernel_dispatch_packet_t *p) { dispatch_base(p); p->group_segment_size = 65537; }
static void unknown_vendor(hsa_kernel_dispatch_packet_t *p) {
  memset(p, 0, sizeof *p);
  hsa_amd_vendor_packet_header_t h = {rig_header(HSA_PACKET_TYPE_VENDOR_SPECIFIC, false), 77, 0};
  memcpy(p, &h, sizeof h);
}

static const struct bad_packet bad_packets[] = {
    {"type 9", VAPU_CP_ERROR_INVALID_FORMAT, bad_type},
    {"agent dispatch", VAPU_CP_ERROR_INVALID_FORMAT, agent_dispatch},
    {"reserved header bit", VAPU_CP_ERROR_INVALID_FORMAT, reserved_bit},
    {"fence scope 3", VAPU_CP_ERROR_INVALID_FORMAT, fence_scope_3},
    {"unknown vendor format", VAPU_CP_ERROR_VENDOR_FORMAT, unknown_vendor},
    {"0 dimensions", VAPU_CP_ERROR_INVALID_DIM, zero_dims},
    {"grid 0", VAPU_CP_ERROR_INVALID_DIM, zero_grid},
    {"work-group 0", VAPU_CP_ERROR_INVALID_DIM, zero_wg},
    {"unused dimension not 1", VAPU_CP_ERROR_INVALID_DIM, unused_dim},
    {"work-group larger than grid", VAPU_CP_ERROR_GROUP_TOO_LARGE, wg_over_grid},
    {"4096 work-items per group", VAPU_CP_ERROR_GROUP_TOO_LARGE, wg_too_big},
    {"null kernel object", VAPU_CP_ERROR_INVALID_CODE, null_kernel},
    {"kernel object not 64-aligned", VAPU_CP_ERROR_INVALID_CODE, unaligned_kernel},
    {"65537 bytes of LDS", VAPU_CP_ERROR_GROUP_MEMORY, too_much_lds},
};

TEST(gpu_cp_refused_packets_stop_only_their_queue) {
  struct rig r;
  ASSERT_TRUE(rig_up(&r, VAPU_RAVEN));
  int good = rig_add_queue(&r, 0, 0);
  ASSERT_EQ(good, 0);
  for (size_t i = 0; i < countof(bad_packets); i++) {
    const struct bad_packet *b = &bad_packets[i];
    /* Reuse one HQD slot: dequeue the previous bad queue first. */
    if (r.queue_count == 2) {
      vapu_cp_queue_stop(r.v, 1, 1, 5, VAPU_CP_RESET);
      uint64_t stop_until = plat_now_ns() + WAIT_NS;
      while (vapu_cp_queue_active(r.v, 1, 1, 5)) {
        ASSERT_LT(plat_now_ns(), stop_until);
        plat_sleep_ns(100000);
      }
      free(r.q[1].amd);
      free(r.q[1].ring);
      free(r.q[1].inactive);
      r.queue_count = 1;
    }
    int bad = rig_add_queue(&r, 1, 5);
    ASSERT_EQ(bad, 1);
    amd_signal_t *done = &r.signals[1];
    __atomic_store_n(&done->value, 1, __ATOMIC_RELEASE);
    int eops = __atomic_load_n(&r.eop_count, __ATOMIC_ACQUIRE);
    *r.mailbox = 0;
    hsa_kernel_dispatch_packet_t p;
    b->make(&p);
    p.completion_signal.handle = (uint64_t)(uintptr_t)done;
    rig_submit(&r, bad, &p);
    if (!rig_wait_value(&r.q[bad].inactive->value, (int64_t)b->code, WAIT_NS))
      FAIL("%s: queue_inactive_signal 0x%llx, want 0x%llx", b->what,
                (unsigned long long)r.q[bad].inactive->value, (unsigned long long)b->code);
    /* Not consumed, not completed; the error's event was raised (the
     * CP writes the mailbox after the code, then posts the interrupt). */
    ASSERT_EQ(r.q[bad].amd->read_dispatch_id, 0);
    ASSERT_EQ(done->value, 1);
    uint64_t until = plat_now_ns() + WAIT_NS;
    while (__atomic_load_n(&r.eop_count, __ATOMIC_ACQUIRE) == eops) {
      ASSERT_LT(plat_now_ns(), until);
      plat_sleep_ns(100000);
    }
    ASSERT_EQ(*r.mailbox, 7);
    ASSERT_EQ(__atomic_load_n(&r.last_eop_context, __ATOMIC_RELAXED), 7); /* the event id */
    /* The healthy queue still runs packets. */
    amd_signal_t *ok = &r.signals[0];
    __atomic_store_n(&ok->value, 1, __ATOMIC_RELEASE);
    hsa_barrier_and_packet_t pb = barrier(HSA_PACKET_TYPE_BARRIER_AND, ok);
    rig_submit(&r, good, &pb);
    ASSERT_TRUE(rig_wait_value(&ok->value, 0, WAIT_NS));
  }
  rig_down(&r);
}

/* A signal handle is an amd_signal_t's address, 64-byte aligned: any other
 * value in a packet makes it malformed, before anything is read there. */
TEST(gpu_cp_misaligned_signal_handle_is_a_malformed_packet) {
  struct rig r;
  ASSERT_TRUE(rig_up(&r, VAPU_RAVEN));
  int q = rig_add_queue(&r, 0, 3);
  ASSERT_EQ(q, 0);
  hsa_barrier_and_packet_t p = barrier(HSA_PACKET_TYPE_BARRIER_OR, &r.signals[0]);
  p.dep_signal[3].handle = (uint64_t)(uintptr_t)&r.signals[1] + 8; /* inside a real signal */
  rig_submit(&r, q, &p);
  ASSERT_TRUE(rig_wait_value(&r.q[q].inactive->value, (int64_t)VAPU_CP_ERROR_INVALID_FORMAT, WAIT_NS));
  ASSERT_EQ(r.signals[0].value, 1);
  ASSERT_EQ(r.signals[1].value, 1);
  ASSERT_EQ(__atomic_load_n(&r.vm_faults, __ATOMIC_ACQUIRE), 0);
  rig_down(&r);
}

TEST(gpu_cp_fault_on_a_signal_halts_the_queue_through_the_gmc) {
  struct rig r;
  ASSERT_TRUE(rig_up(&r, VAPU_RAVEN));
  int q = rig_add_queue(&r, 0, 2);
  ASSERT_EQ(q, 0);
  hsa_barrier_and_packet_t p = barrier(HSA_PACKET_TYPE_BARRIER_AND, &r.signals[0]);
  p.dep_signal[0].handle = 0x0000700000000000ull; /* mapped nowhere */
  rig_submit(&r, q, &p);
  /* The GMC raised it: a VM fault by the CP (client CPC) at that page. */
  uint64_t until = plat_now_ns() + WAIT_NS;
  while (__atomic_load_n(&r.vm_faults, __ATOMIC_ACQUIRE) == 0) {
    ASSERT_LT(plat_now_ns(), until);
    plat_sleep_ns(100000);
  }
  ASSERT_EQ(r.last_fault.vm.vmid, RIG_VMID);
  ASSERT_EQ_U(r.last_fault.vm.address, 0x0000700000000000ull);
  ASSERT_EQ(r.last_fault.vm.client_id, VAPU_CLIENT_CPC);
  /* The queue halted without a firmware code and completed nothing. */
  struct vapu_cp_stats st;
  until = plat_now_ns() + WAIT_NS;
  do {
    vapu_cp_get_stats(r.v, &st);
    ASSERT_LT(plat_now_ns(), until);
  } while (st.queue_errors == 0);
  hsa_barrier_and_packet_t next = barrier(HSA_PACKET_TYPE_BARRIER_AND, &r.signals[1]);
  rig_submit(&r, q, &next);
  plat_sleep_ns(SETTLE_NS);
  ASSERT_EQ(r.q[q].inactive->value, 0);
  ASSERT_EQ(r.signals[0].value, 1);
  ASSERT_EQ(r.signals[1].value, 1);
  ASSERT_EQ(r.q[q].amd->read_dispatch_id, 0);
  rig_down(&r);
}

TEST(gpu_cp_dequeue_leaves_the_queue) {
  struct rig r;
  ASSERT_TRUE(rig_up(&r, VAPU_RAVEN));
  int q = rig_add_queue(&r, 0, 0);
  ASSERT_EQ(q, 0);
  hsa_barrier_and_packet_t p = barrier(HSA_PACKET_TYPE_BARRIER_AND, &r.signals[0]);
  p.dep_signal[0].handle = (uint64_t)(uintptr_t)&r.signals[1]; /* never satisfied */
  rig_submit(&r, q, &p);
  ASSERT_TRUE(vapu_cp_queue_active(r.v, 1, 0, 0));
  vapu_cp_queue_stop(r.v, 1, 0, 0, VAPU_CP_RESET);
  uint64_t until = plat_now_ns() + WAIT_NS;
  while (vapu_cp_queue_active(r.v, 1, 0, 0)) {
    ASSERT_LT(plat_now_ns(), until);
    plat_sleep_ns(100000);
  }
  /* Gone: a satisfied dependency no longer moves it. */
  __atomic_store_n(&r.signals[1].value, 0, __ATOMIC_RELEASE);
  vapu_kick(r.v);
  plat_sleep_ns(SETTLE_NS);
  ASSERT_EQ(r.signals[0].value, 1);
  ASSERT_EQ(r.q[q].amd->read_dispatch_id, 0);
  /* The slot can be started again, from where the queue left off: its
   * read and write pointers as the dequeue left them. */
  uint64_t read_index, write_index;
  vapu_cp_queue_pointers(r.v, 1, 0, 0, &read_index, &write_index);
  ASSERT_EQ(read_index, 0);
  ASSERT_EQ(write_index, 1);
  struct vapu_cp_queue_regs regs = {
      .ring_address = (uint64_t)(uintptr_t)r.q[q].ring, .ring_bytes = RIG_RING_PACKETS * 64,
      .rptr_report_address = (uint64_t)(uintptr_t)&r.q[q].amd->read_dispatch_id,
      .wptr_poll_address = (uint64_t)(uintptr_t)&r.q[q].amd->write_dispatch_id,
      .read_index = read_index, .write_index = write_index,
      .vmid = RIG_VMID, .aql = true, .sh_mem_bases = RIG_SH_MEM_BASES};
  ASSERT_EQ(vapu_cp_queue_start(r.v, 1, 0, 0, &regs), 0);
  ASSERT_TRUE(rig_wait_value(&r.signals[0].value, 0, WAIT_NS));
  rig_down(&r);
}

TEST(gpu_cp_start_refuses_what_the_firmware_cannot_run) {
  struct rig r;
  ASSERT_TRUE(rig_up(&r, VAPU_RAVEN));
  amd_queue_t *amd = rig_alloc(&r, sizeof *amd);
  void *ring = rig_alloc(&r, 4096);
  ASSERT_NOT_NULL(amd);
  ASSERT_NOT_NULL(ring);
  const struct vapu_cp_queue_regs good = {
      .ring_address = (uint64_t)(uintptr_t)ring, .ring_bytes = 4096,
      .rptr_report_address = (uint64_t)(uintptr_t)&amd->read_dispatch_id,
      .wptr_poll_address = (uint64_t)(uintptr_t)&amd->write_dispatch_id,
      .vmid = RIG_VMID, .aql = true, .sh_mem_bases = RIG_SH_MEM_BASES};
  struct vapu_cp_queue_regs bad = good;
  bad.aql = false;
  ASSERT_EQ(vapu_cp_queue_start(r.v, 1, 0, 0, &bad), -EINVAL);
  bad = good;
  bad.ring_bytes = 3 * 1024;
  ASSERT_EQ(vapu_cp_queue_start(r.v, 1, 0, 0, &bad), -EINVAL);
  bad = good;
  bad.ring_address += 64;
  ASSERT_EQ(vapu_cp_queue_start(r.v, 1, 0, 0, &bad), -EINVAL);
  bad = good;
  bad.read_index = 2; /* beyond the write pointer */
  ASSERT_EQ(vapu_cp_queue_start(r.v, 1, 0, 0, &bad), -EINVAL);
  ASSERT_EQ(vapu_cp_queue_start(r.v, 3, 0, 0, &good), -EINVAL); /* no ME 3 */
  ASSERT_EQ(vapu_cp_queue_start(r.v, 1, 4, 0, &good), -EINVAL);
  ASSERT_EQ(vapu_cp_queue_start(r.v, 1, 0, 8, &good), -EINVAL);
  ASSERT_FALSE(vapu_cp_queue_active(r.v, 1, 0, 0));
  ASSERT_EQ(vapu_cp_queue_start(r.v, 1, 0, 0, &good), 0);
  ASSERT_EQ(vapu_cp_queue_start(r.v, 1, 0, 0, &good), -EBUSY);
  vapu_cp_queue_stop(r.v, 1, 0, 0, VAPU_CP_RESET);
  uint64_t until = plat_now_ns() + WAIT_NS;
  while (vapu_cp_queue_active(r.v, 1, 0, 0)) {
    ASSERT_LT(plat_now_ns(), until);
    plat_sleep_ns(100000);
  }
  rig_down(&r);
  free(amd);
  free(ring);
}

/* Memory the process maps after the driver's bring-up is not in the GPU's
 * page tables: the first GPU access is a retry fault, the driver maps the
 * mapping it lies in, and the access goes on (XNACK replay). */
static void retry_fault_maps_memory_mapped_later(const struct vapu_config *model) {
  struct rig r;
  ASSERT_TRUE(rig_up_with(&r, model));
  int q = rig_add_queue(&r, 0, 0);
  ASSERT_EQ(q, 0);
  amd_signal_t *late = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_TRUE(late != MAP_FAILED);
  late[5].kind = AMD_SIGNAL_KIND_USER;
  late[5].value = 1; /* no event mailbox: the only interrupt is the retry fault's */
  struct vapu_stats before, after;
  vapu_get_stats(r.v, &before);
  hsa_barrier_and_packet_t p = barrier(HSA_PACKET_TYPE_BARRIER_AND, &late[5]);
  rig_submit(&r, q, &p);
  ASSERT_TRUE(rig_wait_value(&late[5].value, 0, WAIT_NS));
  vapu_get_stats(r.v, &after);
  ASSERT_GE(after.ih_entries, before.ih_entries + 1);
  ASSERT_EQ(__atomic_load_n(&r.vm_faults, __ATOMIC_ACQUIRE), 0);
  /* (An address the process never mapped ends in a fault: the test of a
   * dependency at 0x700000000000 above takes that path.) */
  rig_down(&r);
  munmap(late, 1 << 20); /* after the GPU is gone: it still maps the range */
}

TEST(gpu_cp_memory_mapped_later_is_reached_through_a_retry_fault) {
  retry_fault_maps_memory_mapped_later(&(struct vapu_config){.chip = VAPU_RAVEN});
}

/* Another invalidation of the VMID (another queue's fault answered, a
 * remap) while a retry fault waits is not the driver's answer to it: the
 * request waits until the driver has taken its interrupt. (It once took
 * any invalidation for the answer, walked again before the driver had
 * mapped the page and faulted: a program with four producer threads, each
 * creating a queue while another queue's first fetch waited, hit it.) */
TEST(gpu_cp_retry_fault_waits_for_its_own_answer) {
  retry_fault_maps_memory_mapped_later(
      &(struct vapu_config){.chip = VAPU_RAVEN, .faults.invalidation_during_retry = true});
}

/* What the chip accepts, the model accepts (Linux runs its KIQ so): a queue
 * in VMID 0, whose ring, amd_queue_t and signal the CP reaches through the
 * GART, with SH_MEM_BASES 0. */
TEST(gpu_cp_runs_a_vmid0_queue_through_the_gart) {
  struct rig r;
  ASSERT_TRUE(rig_up(&r, VAPU_RAVEN));
  amd_queue_t *amd = rig_alloc(&r, 4096);
  uint8_t *ring = rig_alloc(&r, 4096);
  amd_signal_t *done = rig_alloc(&r, 4096);
  ASSERT_NOT_NULL(amd);
  ASSERT_NOT_NULL(ring);
  ASSERT_NOT_NULL(done);
  uint64_t amd_mc, ring_mc, done_mc;
  ASSERT_EQ(gmc_gart_map(r.dev, amd, 4096, &amd_mc), 0);
  ASSERT_EQ(gmc_gart_map(r.dev, ring, 4096, &ring_mc), 0);
  ASSERT_EQ(gmc_gart_map(r.dev, done, 4096, &done_mc), 0);
  for (int i = 0; i < 64; i++) ((uint16_t *)ring)[i * 32] = HSA_PACKET_TYPE_INVALID << HSA_PACKET_HEADER_TYPE;
  done->kind = AMD_SIGNAL_KIND_USER;
  done->value = 1;
  const struct vapu_cp_queue_regs regs = {
      .ring_address = ring_mc, .ring_bytes = 4096,
      .rptr_report_address = amd_mc + offsetof(amd_queue_t, read_dispatch_id),
      .wptr_poll_address = amd_mc + offsetof(amd_queue_t, write_dispatch_id),
      .vmid = 0, .aql = true, .sh_mem_bases = 0};
  ASSERT_EQ(vapu_cp_queue_start(r.v, 1, 2, 3, &regs), 0);
  hsa_barrier_and_packet_t p = barrier(HSA_PACKET_TYPE_BARRIER_AND, NULL);
  p.completion_signal.handle = done_mc; /* the GPU's address of the signal */
  memcpy(ring + 2, (uint8_t *)&p + 2, 62);
  __atomic_store_n((uint16_t *)ring, p.header, __ATOMIC_RELEASE);
  amd->write_dispatch_id = 1;
  vapu_cp_queue_write_pointer(r.v, 1, 2, 3, 1);
  ASSERT_TRUE(rig_wait_value(&done->value, 0, WAIT_NS));
  ASSERT_EQ(amd->read_dispatch_id, 1);
  vapu_cp_queue_stop(r.v, 1, 2, 3, VAPU_CP_RESET);
  uint64_t until = plat_now_ns() + WAIT_NS;
  while (vapu_cp_queue_active(r.v, 1, 2, 3)) {
    ASSERT_LT(plat_now_ns(), until);
    plat_sleep_ns(100000);
  }
  gmc_gart_unmap(r.dev, amd_mc, 4096);
  gmc_gart_unmap(r.dev, ring_mc, 4096);
  gmc_gart_unmap(r.dev, done_mc, 4096);
  rig_down(&r);
  free(amd);
  free(ring);
  free(done);
}
