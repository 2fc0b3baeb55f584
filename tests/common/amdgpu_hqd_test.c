/* The MEC's doorbells and hardware queue descriptors as the chip decodes
 * them (vapu_hqd.c): a packet rung after the HQD load reaches the CP only
 * through the NBIO aperture, CP_PQ_STATUS.DOORBELL_ENABLE, the MEC's
 * doorbell range and the HQD's own doorbell; write-pointer polling only
 * when enabled; what the chip accepts (a halted MEC at load, SH_MEM_BASES
 * 0) loads, and wrong programming runs nothing or faults where it is used. */
#include <errno.h>
#include <string.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "drivers/amdgpu/amdgpu_queue_internal.h"
#include "drivers/amdgpu/regs/gc_9_1.h"
#include "drivers/amdgpu/regs/gc_9_1_cp.h"
#include "drivers/amdgpu/regs/nbio_7_0.h"
#include "lib/plat.h"
#include "lib/test.h"
#include "tests/common/amdgpu_test_util.h"
#include "lib/util.h"

#define SECOND_NS 1000000000ull
#define NOT_RUN_NS 100000000ull /* long enough for the model to run a barrier */
#define SIGNALS 32

struct hqd_rig {
  struct amdgpu_fault_log log;
  struct amdgpu_device *dev;
  struct amdgpu_test_queue t;
  struct amdgpu_queue *q;
  struct amdgpu_queue_info info;
  amd_signal_t *signals; /* one per packet, so a packet run late cannot be mistaken for the next */
  unsigned next_signal;
};

static amd_signal_t *next_signal(struct hqd_rig *r) { return &r->signals[r->next_signal++ % SIGNALS]; }

static void rig_up(struct hqd_rig *r, enum vapu_chip_id chip) {
  memset(r, 0, sizeof *r);
  r->dev = amdgpu_test_bring_up(chip, &r->log);
  ASSERT_NOT_NULL(r->dev);
  ASSERT_EQ(amdgpu_test_queue_alloc(&r->t, 64), 0);
  struct amdgpu_queue_desc d = {.amd_queue = r->t.amd, .ring_bytes = r->t.ring_bytes,
                                .priority = AMDGPU_QUEUE_PRIORITY_NORMAL};
  ASSERT_EQ(amdgpu_queue_create(r->dev, &d, &r->q), 0);
  ASSERT_EQ(amdgpu_queue_get_info(r->q, &r->info), 0);
  r->signals = plat_dma_alloc(SIGNALS * sizeof *r->signals, 64);
  ASSERT_NOT_NULL(r->signals);
  ASSERT_EQ(amdgpu_map_system_range(r->dev, r->signals, SIGNALS * sizeof *r->signals), 0);
}

static void rig_down(struct hqd_rig *r) {
  ASSERT_EQ(amdgpu_queue_destroy(r->q, SECOND_NS), 0);
  plat_dma_free(r->signals, SIGNALS * sizeof *r->signals);
  amdgpu_test_queue_free(&r->t);
  amdgpu_device_remove(r->dev);
}

/* Publishes a barrier, rings its doorbell, and says whether the CP retired
 * it within `timeout_ns`. */
static bool rung_barrier_runs(struct hqd_rig *r, uint64_t timeout_ns) {
  amd_signal_t *done = next_signal(r);
  uint64_t index = amdgpu_test_publish_barrier(&r->t, done);
  amdgpu_queue_ring_doorbell(r->q, index);
  return amdgpu_test_retired(&r->t, done, index, timeout_ns);
}

static uint32_t set_gc(struct amdgpu_device *dev, struct amdgpu_reg reg, uint32_t value) {
  uint32_t old = RREG(dev, reg);
  WREG(dev, reg, value);
  return old;
}

static uint32_t get_hqd(struct hqd_rig *r, uint32_t reg) {
  grbm_select(r->dev, r->info.me, r->info.pipe, r->info.queue, 0);
  uint32_t value = RREG(r->dev, REG_GC_HQD(reg));
  grbm_select(r->dev, 0, 0, 0, 0);
  return value;
}

static void set_hqd(struct hqd_rig *r, uint32_t reg, uint32_t value) {
  grbm_select(r->dev, r->info.me, r->info.pipe, r->info.queue, 0);
  WREG(r->dev, REG_GC_HQD(reg), value);
  grbm_select(r->dev, 0, 0, 0, 0);
}

/* The bring-up must let the MEC take doorbells: CP_PQ_STATUS resets with
 * DOORBELL_ENABLE clear (gc_9_0_default.h) and only the driver sets it
 * (Linux gfx_v9_0_kiq_init_register). Without it every packet rung after
 * the HQD load waits forever. */
TEST(amdgpu_packets_rung_after_the_hqd_load_run_on_every_chip) {
  static const enum vapu_chip_id chips[] = {VAPU_RAVEN, VAPU_PICASSO, VAPU_RAVEN2, VAPU_RENOIR};
  for (size_t c = 0; c < countof(chips); c++) {
    struct hqd_rig r;
    rig_up(&r, chips[c]);
    for (int i = 0; i < 3; i++) ASSERT_TRUE(rung_barrier_runs(&r, 2 * SECOND_NS));
    ASSERT_TRUE(RREG(r.dev, REG_GC_CP_PQ_STATUS) & CP_PQ_STATUS__DOORBELL_ENABLE);
    ASSERT_EQ(r.log.count, 0);
    rig_down(&r);
  }
}

TEST(amdgpu_doorbells_reach_a_queue_only_as_the_chip_decodes_them) {
  struct hqd_rig r;
  rig_up(&r, VAPU_RAVEN);
  ASSERT_TRUE(rung_barrier_runs(&r, 2 * SECOND_NS));
  struct amdgpu_device *dev = r.dev;

  /* BAR2 not decoded (NBIO aperture off): the ring is lost, and a later
   * doorbell brings the queue up to date. */
  uint32_t aper = RREG(dev, REG_NBIO_RCC_DOORBELL_APER_EN);
  WREG(dev, REG_NBIO_RCC_DOORBELL_APER_EN, aper & ~RCC_DOORBELL_APER_EN__BIF_DOORBELL_APER_EN);
  ASSERT_FALSE(rung_barrier_runs(&r, NOT_RUN_NS));
  WREG(dev, REG_NBIO_RCC_DOORBELL_APER_EN, aper);
  ASSERT_TRUE(rung_barrier_runs(&r, 2 * SECOND_NS));

  /* The MEC takes no doorbells. */
  uint32_t status = set_gc(dev, REG_GC_CP_PQ_STATUS, 0);
  ASSERT_FALSE(rung_barrier_runs(&r, NOT_RUN_NS));
  set_gc(dev, REG_GC_CP_PQ_STATUS, status);
  ASSERT_TRUE(rung_barrier_runs(&r, 2 * SECOND_NS));

  /* The queue's doorbell lies beyond the MEC's range. */
  uint32_t upper = set_gc(dev, REG_GC_CP_MEC_DOORBELL_RANGE_UPPER, r.info.doorbell_index * 8 - 8);
  ASSERT_FALSE(rung_barrier_runs(&r, NOT_RUN_NS));
  set_gc(dev, REG_GC_CP_MEC_DOORBELL_RANGE_UPPER, upper);
  ASSERT_TRUE(rung_barrier_runs(&r, 2 * SECOND_NS));

  /* The HQD's doorbell is off, or is another one. */
  uint32_t control = get_hqd(&r, GC_CP_HQD_PQ_DOORBELL_CONTROL);
  set_hqd(&r, GC_CP_HQD_PQ_DOORBELL_CONTROL, control & ~CP_HQD_PQ_DOORBELL_CONTROL__DOORBELL_EN);
  ASSERT_FALSE(rung_barrier_runs(&r, NOT_RUN_NS));
  set_hqd(&r, GC_CP_HQD_PQ_DOORBELL_CONTROL, control + (2u << CP_HQD_PQ_DOORBELL_CONTROL__DOORBELL_OFFSET_SHIFT));
  ASSERT_FALSE(rung_barrier_runs(&r, NOT_RUN_NS));
  set_hqd(&r, GC_CP_HQD_PQ_DOORBELL_CONTROL, control);
  ASSERT_TRUE(rung_barrier_runs(&r, 2 * SECOND_NS));
  ASSERT_EQ(r.log.count, 0);
  rig_down(&r);
}

/* CP_PQ_WPTR_POLL_CNTL.EN resets to 0 (gc_9_0_default.h): a published
 * packet without a doorbell waits; with polling on (and the queue in
 * CP_PQ_WPTR_POLL_CNTL1) the MEC finds it in write_dispatch_id. */
TEST(amdgpu_write_pointer_is_polled_only_when_enabled) {
  struct hqd_rig r;
  rig_up(&r, VAPU_RENOIR);
  struct amdgpu_device *dev = r.dev;
  ASSERT_FALSE(RREG(dev, REG_GC_CP_PQ_WPTR_POLL_CNTL) & CP_PQ_WPTR_POLL_CNTL__EN);
  /* A rung packet first: the HQD load's one poll is over by then. */
  ASSERT_TRUE(rung_barrier_runs(&r, 2 * SECOND_NS));
  amd_signal_t *done = next_signal(&r);
  uint64_t index = amdgpu_test_publish_barrier(&r.t, done);
  ASSERT_FALSE(amdgpu_test_retired(&r.t, done, index, NOT_RUN_NS));
  uint32_t cntl = RREG(dev, REG_GC_CP_PQ_WPTR_POLL_CNTL);
  WREG(dev, REG_GC_CP_PQ_WPTR_POLL_CNTL1, 1u << (r.info.pipe * 8 + r.info.queue));
  WREG(dev, REG_GC_CP_PQ_WPTR_POLL_CNTL, cntl | CP_PQ_WPTR_POLL_CNTL__EN);
  ASSERT_TRUE(amdgpu_test_retired(&r.t, done, index, 2 * SECOND_NS));
  done = next_signal(&r);
  index = amdgpu_test_publish_barrier(&r.t, done);
  ASSERT_TRUE(amdgpu_test_retired(&r.t, done, index, 2 * SECOND_NS));
  WREG(dev, REG_GC_CP_PQ_WPTR_POLL_CNTL, cntl);
  plat_sleep_ns(NOT_RUN_NS / 10); /* a poll already under way finishes */
  done = next_signal(&r);
  index = amdgpu_test_publish_barrier(&r.t, done);
  ASSERT_FALSE(amdgpu_test_retired(&r.t, done, index, NOT_RUN_NS));
  amdgpu_queue_ring_doorbell(r.q, index);
  ASSERT_TRUE(amdgpu_test_retired(&r.t, done, index, 2 * SECOND_NS));
  rig_down(&r);
}

/* A new hardware queue starts at packet 0 (the MQD's CP_HQD_PQ_RPTR): a
 * runtime queue whose read and write indices are already past 0 would have
 * the CP wait at slot 0 forever, so the driver refuses it. */
TEST(amdgpu_queue_with_used_indices_is_refused) {
  struct amdgpu_fault_log log;
  struct amdgpu_device *dev = amdgpu_test_bring_up(VAPU_RAVEN, &log);
  ASSERT_NOT_NULL(dev);
  struct amdgpu_test_queue t;
  ASSERT_EQ(amdgpu_test_queue_alloc(&t, 64), 0);
  t.amd->read_dispatch_id = t.amd->write_dispatch_id = 3;
  struct amdgpu_queue_desc d = {.amd_queue = t.amd, .ring_bytes = t.ring_bytes};
  struct amdgpu_queue *q = NULL;
  ASSERT_EQ(amdgpu_queue_create(dev, &d, &q), -EINVAL);
  ASSERT_NULL(q);
  amdgpu_test_queue_free(&t);
  amdgpu_device_remove(dev);
}

/* What the chip accepts loads: an HQD while the MEC is halted (Linux loads
 * the KIQ's before it lets the MEC run) runs once the MEC runs; a VMID
 * without SH_MEM_BASES still runs a barrier. Programming that is wrong
 * shows where it is used: a VMID without a page table faults on the ring
 * fetch. */
TEST(amdgpu_hqd_programmed_wrongly_runs_nothing_or_faults) {
  struct hqd_rig r;
  rig_up(&r, VAPU_RENOIR);
  struct amdgpu_device *dev = r.dev;
  uint32_t mec = set_gc(dev, REG_GC_CP_MEC_CNTL, CP_MEC_CNTL__MEC_ME1_HALT | CP_MEC_CNTL__MEC_ME2_HALT);
  ASSERT_FALSE(rung_barrier_runs(&r, NOT_RUN_NS));
  set_gc(dev, REG_GC_CP_MEC_CNTL, mec);
  ASSERT_TRUE(amdgpu_test_retired(&r.t, &r.signals[(r.next_signal - 1) % SIGNALS], r.t.amd->write_dispatch_id - 1,
                                  2 * SECOND_NS));

  grbm_select(dev, 0, 0, 0, r.info.vmid);
  uint32_t bases = set_gc(dev, REG_GC_SH_MEM_BASES, 0);
  grbm_select(dev, 0, 0, 0, 0);
  ASSERT_TRUE(rung_barrier_runs(&r, 2 * SECOND_NS));
  grbm_select(dev, 0, 0, 0, r.info.vmid);
  set_gc(dev, REG_GC_SH_MEM_BASES, bases);
  grbm_select(dev, 0, 0, 0, 0);
  ASSERT_EQ(r.log.count, 0);

  /* No valid page table for the queue's VMID: the CP's fetch of the next
   * packet faults (a VM fault on the GFX hub for that VMID). */
  struct amdgpu_reg base_reg = reg_at(REG_GC_VM_CONTEXT0_PAGE_TABLE_BASE_ADDR_LO32, 2 * r.info.vmid);
  uint32_t base = set_gc(dev, base_reg, 0);
  ASSERT_EQ(gmc_flush_tlb(dev, GMC_GFXHUB, r.info.vmid), 0);
  ASSERT_FALSE(rung_barrier_runs(&r, NOT_RUN_NS));
  ASSERT_EQ(amdgpu_test_wait_count(&r.log.count, 1), 1);
  ASSERT_EQ(r.log.last.kind, AMDGPU_FAULT_VM);
  ASSERT_EQ(r.log.last.vm.vmid, r.info.vmid);
  set_gc(dev, base_reg, base);
  ASSERT_EQ(gmc_flush_tlb(dev, GMC_GFXHUB, r.info.vmid), 0);
  rig_down(&r);
}

/* Coherence as silicon has it (vapu_gmc.c): the page walker reads the
 * driver's tables in write-back system memory, which it snoops only
 * through PDEs and bases with SNOOPED (Linux amdgpu_ttm_tt_pde_flags); the
 * CP reads and writes AQL memory (ring, amd_queue_t, signals) that the
 * CPU shares while the GPU runs, which must be MTYPE_UC on GC 9.1-9.3 or
 * the GPU's L2 keeps stale copies (gmc_v9_0_get_coherence_flags). A queue
 * running barriers on every chip makes none of those accesses. */
TEST(amdgpu_gpu_accesses_are_coherent_with_the_cpu_on_every_chip) {
  static const enum vapu_chip_id chips[] = {VAPU_RAVEN, VAPU_PICASSO, VAPU_RAVEN2, VAPU_RENOIR};
  for (size_t c = 0; c < countof(chips); c++) {
    struct hqd_rig r;
    rig_up(&r, chips[c]);
    for (int i = 0; i < 4; i++) ASSERT_TRUE(rung_barrier_runs(&r, 2 * SECOND_NS));
    struct vapu_stats st;
    vapu_get_stats(amdgpu_vapu_of(r.dev), &st);
    ASSERT_EQ(st.unsnooped_walks, 0);
    ASSERT_EQ(st.unsnooped_accesses, 0);
    ASSERT_EQ(st.cached_coherent_accesses, 0);
    rig_down(&r);
  }
}

/* A drain request (CP_HQD_DEQUEUE_REQUEST.DRAIN_PIPE, as KFD evicts a queue
 * without the HWS) lets a queue go at the packet it waits at: a barrier
 * whose dependency is not met stays unstarted. The CP saves the HQD in the
 * MQD, where the driver's next load takes it from (kgd_gfx_v9_hqd_load
 * reads cp_hqd_pq_rptr/wptr there): the queue goes on where it was. */
TEST(amdgpu_drained_queue_is_saved_in_its_mqd_and_goes_on_from_there) {
  struct hqd_rig r;
  rig_up(&r, VAPU_RAVEN);
  amd_signal_t *gate = next_signal(&r), *first = next_signal(&r), *second = next_signal(&r);
  gate->kind = AMD_SIGNAL_KIND_USER;
  gate->value = 1;
  amdgpu_test_publish_barrier(&r.t, first);
  hsa_barrier_and_packet_t *p = (hsa_barrier_and_packet_t *)r.t.amd->hsa_queue.base_address;
  p->dep_signal[0].handle = (uint64_t)(uintptr_t)gate; /* before the doorbell: the CP has not looked */
  uint64_t last = amdgpu_test_publish_barrier(&r.t, second);
  amdgpu_queue_ring_doorbell(r.q, last);
  plat_sleep_ns(NOT_RUN_NS);
  ASSERT_EQ(r.t.amd->read_dispatch_id, 0);
  queues_lock(r.dev);
  set_hqd(&r, GC_CP_HQD_DEQUEUE_REQUEST, CP_HQD_DEQUEUE_DRAIN_PIPE);
  uint64_t until = plat_now_ns() + SECOND_NS;
  while (get_hqd(&r, GC_CP_HQD_ACTIVE) & CP_HQD_ACTIVE__ACTIVE) ASSERT_LT(plat_now_ns(), until);
  ASSERT_EQ_U(r.q->mqd[MQD_HQD(GC_CP_HQD_PQ_RPTR)], 0);
  ASSERT_EQ_U(r.q->mqd[MQD_HQD(GC_CP_HQD_PQ_WPTR_LO)], 2);
  ASSERT_EQ_U(r.q->mqd[MQD_HQD(GC_CP_HQD_PQ_WPTR_HI)], 0);
  ASSERT_EQ_U(r.q->mqd[MQD_HQD(GC_CP_HQD_DEQUEUE_REQUEST)], 0);
  /* Let go: the dependency met now moves nothing. */
  __atomic_store_n(&gate->value, 0, __ATOMIC_RELEASE);
  plat_sleep_ns(NOT_RUN_NS);
  ASSERT_EQ(r.t.amd->read_dispatch_id, 0);
  ASSERT_EQ(first->value, 1);
  /* Loaded again from the MQD: both packets, once each. */
  hqd_load(r.q);
  queues_unlock(r.dev);
  ASSERT_TRUE(amdgpu_test_retired(&r.t, second, last, 2 * SECOND_NS));
  ASSERT_EQ(first->value, 0);
  ASSERT_EQ(r.t.amd->read_dispatch_id, 2);
  ASSERT_EQ(r.log.count, 0);
  rig_down(&r);
}
