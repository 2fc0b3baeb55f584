/* AQL compute queues through the driver: the MQD loaded into an HQD of the
 * model's MEC, which hands the queue to the command processor; doorbells;
 * many queues over pipes and VMIDs; wrongly programmed HQDs; errors routed
 * to the queue they belong to; abort and destroy with their timeouts. */
#include <errno.h>
#include <string.h>

#include <hsa/amd_hsa_signal.h>
#include <hsa/hsa.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "drivers/amdgpu/regs/gc_9_1.h"
#include "drivers/amdgpu/regs/gc_9_1_cp.h"
#include "drivers/amdgpu/regs/soc15_ih.h"
#include "hsa/gpu_agent.h"
#include "lib/plat.h"
#include "lib/test.h"
#include "tests/common/amdgpu_test_util.h"
#include "vapu/cp.h"

#define UNMAPPED_VA 0x0000800012345000ull
#define SECOND_NS 1000000000ull

/* A refused DMA's address: any; the driver only passes it on. */
#define REFUSED_DMA_ADDRESS 0x100000ull

static const enum vapu_chip_id all_chips[] = {VAPU_RAVEN, VAPU_PICASSO, VAPU_RAVEN2, VAPU_RENOIR};

struct queue_errors {
  int count;
  struct amdgpu_queue *q;
  enum amdgpu_queue_error_kind kind;
  hsa_status_t status;
  struct amdgpu_fault fault;
  bool has_fault;
};

static void record_error(void *ctx, struct amdgpu_queue *q, const struct amdgpu_queue_error *e) {
  struct queue_errors *log = ctx;
  log->q = q;
  log->kind = e->kind;
  log->status = gpu_queue_error_status(e);
  log->has_fault = e->fault != NULL;
  if (e->fault) log->fault = *e->fault;
  __atomic_add_fetch(&log->count, 1, __ATOMIC_RELEASE);
}

static struct amdgpu_queue *create(struct amdgpu_device *dev, struct amdgpu_test_queue *t,
                                   struct queue_errors *errors, uint32_t scratch_lane_bytes, int *r) {
  struct amdgpu_queue_desc d = {.amd_queue = t->amd, .ring_bytes = t->ring_bytes,
                                .priority = AMDGPU_QUEUE_PRIORITY_NORMAL,
                                .scratch_bytes_per_lane = scratch_lane_bytes,
                                .error_fn = errors ? record_error : NULL, .error_ctx = errors};
  struct amdgpu_queue *q = NULL;
  *r = amdgpu_queue_create(dev, &d, &q);
  return q;
}

static bool hqd_running(struct amdgpu_device *dev, struct amdgpu_queue *q) {
  struct amdgpu_queue_info info;
  amdgpu_queue_get_info(q, &info);
  return vapu_cp_queue_active(amdgpu_vapu_of(dev), info.me, info.pipe, info.queue);
}

/* Publishes a barrier-AND packet without dependencies whose completion
 * signal is `done`, rings the doorbell and waits for the CP to retire it. */
static bool run_barrier(struct amdgpu_test_queue *t, struct amdgpu_queue *q, amd_signal_t *done) {
  uint64_t index = amdgpu_test_publish_barrier(t, done);
  amdgpu_queue_ring_doorbell(q, index);
  return amdgpu_test_retired(t, done, index, 2 * SECOND_NS);
}

static uint32_t hqd_reg(struct amdgpu_device *dev, struct amdgpu_queue *q, uint32_t reg) {
  struct amdgpu_queue_info info;
  amdgpu_queue_get_info(q, &info);
  grbm_select(dev, info.me, info.pipe, info.queue, 0);
  uint32_t value = RREG(dev, REG_GC_HQD(reg));
  grbm_select(dev, 0, 0, 0, 0);
  return value;
}

TEST(amdgpu_queue_is_loaded_into_an_hqd_and_runs_packets) {
  for (int c = 0; c < 4; c++) {
    struct amdgpu_fault_log log;
    struct amdgpu_device *dev = amdgpu_test_bring_up(all_chips[c], &log);
    ASSERT_NOT_NULL(dev);
    struct amdgpu_device_info dinfo;
    ASSERT_EQ(amdgpu_device_query(dev, &dinfo), 0);
    struct amdgpu_test_queue t;
    ASSERT_EQ(amdgpu_test_queue_alloc(&t, 64), 0);
    int r;
    struct amdgpu_queue *q = create(dev, &t, NULL, 256, &r);
    ASSERT_EQ(r, 0);
    struct amdgpu_queue_info info;
    ASSERT_EQ(amdgpu_queue_get_info(q, &info), 0);
    ASSERT_EQ(info.me, 1);
    ASSERT_EQ(info.vmid, AMDGPU_COMPUTE_VMID_FIRST);
    ASSERT_TRUE(info.resident);
    ASSERT_TRUE(info.doorbell_index >= DOORBELL64_USERQUEUE_START && info.doorbell_index <= DOORBELL64_USERQUEUE_END);
    uint64_t bar2_size;
    volatile uint32_t *bar2 = vapu_doorbells(amdgpu_vapu_of(dev), &bar2_size);
    ASSERT_PTR_EQ(info.doorbell, (volatile uint64_t *)bar2 + info.doorbell_index);
    ASSERT_TRUE(hqd_running(dev, q));
    /* The HQD holds what the MQD said (kgd_gfx_v9_hqd_load). */
    uint64_t ring = (uint64_t)(uintptr_t)t.amd->hsa_queue.base_address;
    ASSERT_EQ_U(hqd_reg(dev, q, GC_CP_HQD_PQ_BASE), (uint32_t)(ring >> 8));
    ASSERT_EQ_U(hqd_reg(dev, q, GC_CP_HQD_PQ_CONTROL) & CP_HQD_PQ_CONTROL__QUEUE_SIZE_MASK, 9); /* 4 KiB */
    ASSERT_EQ_U(hqd_reg(dev, q, GC_CP_HQD_PQ_RPTR_REPORT_ADDR), (uint32_t)(uintptr_t)&t.amd->read_dispatch_id);
    ASSERT_EQ_U(hqd_reg(dev, q, GC_CP_HQD_PQ_WPTR_POLL_ADDR), (uint32_t)(uintptr_t)&t.amd->write_dispatch_id);
    ASSERT_EQ_U(hqd_reg(dev, q, GC_CP_HQD_PQ_DOORBELL_CONTROL),
                info.doorbell_index * 2 << 2 | CP_HQD_PQ_DOORBELL_CONTROL__DOORBELL_EN |
                    CP_HQD_PQ_DOORBELL_CONTROL__DOORBELL_BIF_DROP);
    ASSERT_EQ_U(hqd_reg(dev, q, GC_CP_HQD_VMID), info.vmid);
    ASSERT_EQ_U(hqd_reg(dev, q, GC_CP_HQD_ACTIVE), 1);
    /* amd_queue_t's hardware fields (ROCr's AqlQueue). */
    ASSERT_EQ(t.amd->read_dispatch_id_field_base_byte_offset, 128);
    ASSERT_EQ_U(t.amd->group_segment_aperture_base_hi, dinfo.lds_aperture_base >> 32);
    ASSERT_EQ_U(t.amd->private_segment_aperture_base_hi, dinfo.scratch_aperture_base >> 32);
    ASSERT_EQ(t.amd->max_cu_id, dinfo.compute_units - 1);
    ASSERT_EQ(t.amd->max_wave_id, 39);
    /* Scratch: 256 B per lane = 16 KiB per wave, 32 waves per CU. */
    ASSERT_EQ(t.amd->scratch_wave64_lane_byte_size, 256);
    ASSERT_EQ_U(t.amd->scratch_backing_memory_byte_size, 16384ull * 32 * dinfo.compute_units);
    ASSERT_EQ_U(t.amd->compute_tmpring_size, 32 * dinfo.compute_units | 16u << 12);
    ASSERT_EQ_U(t.amd->scratch_resource_descriptor[0], (uint32_t)t.amd->scratch_backing_memory_location);
    ASSERT_EQ_U(t.amd->scratch_resource_descriptor[2], (uint32_t)t.amd->scratch_backing_memory_byte_size);
    /* The CP runs what the runtime publishes after a doorbell. */
    amd_signal_t *done = plat_dma_alloc(sizeof *done, 64);
    ASSERT_EQ(amdgpu_map_system_range(dev, done, sizeof *done), 0);
    for (int i = 0; i < 3; i++) ASSERT_TRUE(run_barrier(&t, q, done));
    ASSERT_EQ(amdgpu_queue_destroy(q, SECOND_NS), 0);
    ASSERT_FALSE(vapu_cp_queue_active(amdgpu_vapu_of(dev), info.me, info.pipe, info.queue));
    ASSERT_EQ(log.count, 0);
    plat_dma_free(done, sizeof *done);
    amdgpu_test_queue_free(&t);
    amdgpu_device_remove(dev);
  }
}

TEST(amdgpu_queues_spread_over_pipes_and_vmids) {
  struct amdgpu_fault_log log;
  struct amdgpu_device *dev = amdgpu_test_bring_up(VAPU_RAVEN, &log);
  ASSERT_NOT_NULL(dev);
  struct amdgpu_test_queue t[AMDGPU_QUEUES_MAX + 1];
  struct amdgpu_queue *q[AMDGPU_QUEUES_MAX];
  int per_pipe[AMDGPU_HQD_PIPES] = {0}, per_vmid[16] = {0};
  uint64_t slots_seen = 0, doorbells_seen[3] = {0};
  for (int i = 0; i <= AMDGPU_QUEUES_MAX; i++) ASSERT_EQ(amdgpu_test_queue_alloc(&t[i], 16), 0);
  for (int i = 0; i < AMDGPU_QUEUES_MAX; i++) {
    int r;
    q[i] = create(dev, &t[i], NULL, 0, &r);
    ASSERT_EQ(r, 0);
    struct amdgpu_queue_info info;
    amdgpu_queue_get_info(q[i], &info);
    per_vmid[info.vmid]++;
    /* Every queue has a doorbell of its own in the MEC's range. */
    uint32_t bell = info.doorbell_index - DOORBELL64_USERQUEUE_START;
    ASSERT_LT(bell, AMDGPU_QUEUES_MAX);
    ASSERT_FALSE(doorbells_seen[bell / 64] & (1ull << (bell % 64)));
    doorbells_seen[bell / 64] |= 1ull << (bell % 64);
    /* The first 32 get the slots, the pipes taken round robin: the first
     * four are on four pipes; the others wait swapped out. */
    ASSERT_EQ(info.resident, i < AMDGPU_HQD_SLOTS);
    ASSERT_EQ(hqd_running(dev, q[i]), i < AMDGPU_HQD_SLOTS);
    if (!info.resident) continue;
    if (i < AMDGPU_HQD_PIPES) ASSERT_EQ(per_pipe[info.pipe], 0);
    per_pipe[info.pipe]++;
    uint32_t slot = info.pipe * 8 + info.queue;
    ASSERT_FALSE(slots_seen & (1ull << slot));
    slots_seen |= 1ull << slot;
  }
  for (int p = 0; p < AMDGPU_HQD_PIPES; p++) ASSERT_EQ(per_pipe[p], 8);
  for (int v = 0; v < 16; v++) ASSERT_EQ(per_vmid[v], v >= 8 ? AMDGPU_QUEUES_MAX / 8 : 0);
  int r;
  ASSERT_NULL(create(dev, &t[AMDGPU_QUEUES_MAX], NULL, 0, &r));
  ASSERT_EQ(r, -EBUSY);
  /* A freed slot goes to a queue with work, not to one without: the 33rd
   * queue stays swapped out; a new queue takes it at once. */
  ASSERT_EQ(amdgpu_queue_destroy(q[5], SECOND_NS), 0);
  struct amdgpu_queue_info info;
  amdgpu_queue_get_info(q[AMDGPU_HQD_SLOTS], &info);
  ASSERT_FALSE(info.resident);
  q[5] = create(dev, &t[AMDGPU_QUEUES_MAX], NULL, 0, &r);
  ASSERT_EQ(r, 0);
  amdgpu_queue_get_info(q[5], &info);
  ASSERT_TRUE(info.resident);
  for (int i = 0; i < AMDGPU_QUEUES_MAX; i++) ASSERT_EQ(amdgpu_queue_destroy(q[i], SECOND_NS), 0);
  for (int i = 0; i <= AMDGPU_QUEUES_MAX; i++) amdgpu_test_queue_free(&t[i]);
  amdgpu_device_remove(dev);
}

TEST(amdgpu_queue_bad_descriptors_are_rejected) {
  struct amdgpu_fault_log log;
  struct amdgpu_device *dev = amdgpu_test_bring_up(VAPU_RAVEN, &log);
  ASSERT_NOT_NULL(dev);
  struct amdgpu_test_queue t;
  ASSERT_EQ(amdgpu_test_queue_alloc(&t, 64), 0);
  struct amdgpu_queue *q = (struct amdgpu_queue *)1;
  struct amdgpu_queue_desc d = {.amd_queue = t.amd, .ring_bytes = t.ring_bytes};
  ASSERT_EQ(amdgpu_queue_create(dev, NULL, &q), -EINVAL);
  ASSERT_NULL(q);
  d.amd_queue = NULL;
  ASSERT_EQ(amdgpu_queue_create(dev, &d, &q), -EINVAL);
  d.amd_queue = (amd_queue_t *)((uint8_t *)t.amd + 8);
  ASSERT_EQ(amdgpu_queue_create(dev, &d, &q), -EINVAL);
  d.amd_queue = t.amd;
  d.ring_bytes = t.ring_bytes / 2; /* not what hsa_queue.size says */
  ASSERT_EQ(amdgpu_queue_create(dev, &d, &q), -EINVAL);
  d.ring_bytes = 64 * 3;
  t.amd->hsa_queue.size = 3;
  ASSERT_EQ(amdgpu_queue_create(dev, &d, &q), -EINVAL);
  t.amd->hsa_queue.size = 64;
  d.ring_bytes = t.ring_bytes;
  t.amd->write_dispatch_id = 5;
  ASSERT_EQ(amdgpu_queue_create(dev, &d, &q), -EINVAL);
  t.amd->write_dispatch_id = 0;
  d.priority = (enum amdgpu_queue_priority)7;
  ASSERT_EQ(amdgpu_queue_create(dev, &d, &q), -EINVAL);
  d.priority = AMDGPU_QUEUE_PRIORITY_HIGH;
  d.scratch_bytes_per_lane = 1u << 20; /* a wave of 64 MiB: more than WAVESIZE holds */
  ASSERT_EQ(amdgpu_queue_create(dev, &d, &q), -EINVAL);
  d.scratch_bytes_per_lane = 0;
  ASSERT_EQ(amdgpu_queue_create(dev, &d, &q), 0);
  ASSERT_EQ(hqd_reg(dev, q, GC_CP_HQD_PIPE_PRIORITY), CP_HQD_PIPE_PRIORITY_HIGH);
  ASSERT_EQ(hqd_reg(dev, q, GC_CP_HQD_QUEUE_PRIORITY), 15);
  ASSERT_EQ(amdgpu_queue_destroy(q, SECOND_NS), 0);
  amdgpu_test_queue_free(&t);
  amdgpu_device_remove(dev);
}

/* A driver bug the test injects before a create: the HQD must not start,
 * the create must fail with -EIO, and with the bug undone the same queue
 * starts in the same slot. */
/* Two queues, a and b, on a new device, each with its error log. */
struct two_queues {
  struct amdgpu_fault_log log;
  struct amdgpu_device *dev;
  struct amdgpu_test_queue ta, tb;
  struct queue_errors ea, eb;
  struct amdgpu_queue *a, *b;
};

static void two_queues_up(struct two_queues *t, enum vapu_chip_id chip) {
  memset(t, 0, sizeof *t);
  t->dev = amdgpu_test_bring_up(chip, &t->log);
  ASSERT_NOT_NULL(t->dev);
  ASSERT_EQ(amdgpu_test_queue_alloc(&t->ta, 64), 0);
  ASSERT_EQ(amdgpu_test_queue_alloc(&t->tb, 64), 0);
  int r;
  t->a = create(t->dev, &t->ta, &t->ea, 0, &r);
  ASSERT_EQ(r, 0);
  t->b = create(t->dev, &t->tb, &t->eb, 0, &r);
  ASSERT_EQ(r, 0);
}

/* After the test destroyed both queues. */
static void two_queues_down(struct two_queues *t) {
  amdgpu_test_queue_free(&t->ta);
  amdgpu_test_queue_free(&t->tb);
  amdgpu_device_remove(t->dev);
}

TEST(amdgpu_vm_fault_stops_only_the_faulting_queue) {
  struct two_queues t;
  two_queues_up(&t, VAPU_RAVEN2);
  struct amdgpu_device *dev = t.dev;
  struct amdgpu_queue *a = t.a, *b = t.b;
  struct amdgpu_queue_info ia, ib;
  amdgpu_queue_get_info(a, &ia);
  amdgpu_queue_get_info(b, &ib);
  ASSERT_NE(ia.vmid, ib.vmid);
  /* A shader access of queue a's VMID to an unmapped page. */
  struct vapu_requester wave = {VAPU_GFXHUB, (uint8_t)ia.vmid, VAPU_CLIENT_TCP, false};
  uint32_t word;
  ASSERT_EQ(vapu_gpu_read(amdgpu_vapu_of(dev), &wave, NULL, UNMAPPED_VA + 4, &word, 4), -EFAULT);
  ASSERT_EQ(amdgpu_test_wait_count(&t.ea.count, 1), 1);
  ASSERT_PTR_EQ(t.ea.q, a);
  ASSERT_EQ(t.ea.kind, AMDGPU_QUEUE_ERROR_VM_FAULT);
  ASSERT_EQ(t.ea.status, HSA_STATUS_ERROR_MEMORY_FAULT);
  ASSERT_TRUE(t.ea.has_fault);
  ASSERT_EQ_U(t.ea.fault.vm.address, UNMAPPED_VA);
  ASSERT_EQ(t.ea.fault.vm.vmid, ia.vmid);
  ASSERT_FALSE(hqd_running(dev, a));
  /* The other queue goes on. */
  ASSERT_TRUE(hqd_running(dev, b));
  amd_signal_t *done = plat_dma_alloc(sizeof *done, 64);
  ASSERT_EQ(amdgpu_map_system_range(dev, done, sizeof *done), 0);
  ASSERT_TRUE(run_barrier(&t.tb, b, done));
  ASSERT_EQ(t.eb.count, 0);
  ASSERT_EQ(t.log.count, 1);
  ASSERT_EQ(amdgpu_queue_destroy(a, SECOND_NS), 0);
  ASSERT_EQ(amdgpu_queue_destroy(b, SECOND_NS), 0);
  ASSERT_EQ(t.ea.count, 1);
  plat_dma_free(done, sizeof *done);
  two_queues_down(&t);
}

/* The IOMMU's fault handler (amdgpu_bus_pci.c) for a GPU access it
 * refused: the event names the device, not a VMID, so the queues are
 * stopped only while one compute VMID has queues; otherwise the fault is
 * logged and given to the device's fault handler, and the queues go on. */
TEST(amdgpu_iommu_fault_stops_the_queue_it_can_be_attributed_to) {
  struct two_queues t;
  two_queues_up(&t, VAPU_RAVEN);
  struct amdgpu_device *dev = t.dev;
  struct amdgpu_queue *a = t.a, *b = t.b;
  /* Two VMIDs in use: whose access it was is unknown. */
  amdgpu_dma_fault(dev, REFUSED_DMA_ADDRESS, true);
  ASSERT_EQ(t.log.count, 1);
  ASSERT_TRUE(hqd_running(dev, a));
  ASSERT_TRUE(hqd_running(dev, b));
  ASSERT_EQ(t.ea.count + t.eb.count, 0);
  /* One VMID in use: its queue stops with a memory fault. */
  ASSERT_EQ(amdgpu_queue_destroy(b, SECOND_NS), 0);
  amdgpu_dma_fault(dev, REFUSED_DMA_ADDRESS, false);
  ASSERT_EQ(amdgpu_test_wait_count(&t.ea.count, 1), 1);
  ASSERT_PTR_EQ(t.ea.q, a);
  ASSERT_EQ(t.ea.kind, AMDGPU_QUEUE_ERROR_VM_FAULT);
  ASSERT_EQ(t.ea.status, HSA_STATUS_ERROR_MEMORY_FAULT);
  ASSERT_TRUE(t.ea.has_fault);
  ASSERT_EQ(t.ea.fault.kind, AMDGPU_FAULT_DMA);
  ASSERT_EQ_U(t.ea.fault.vm.address, REFUSED_DMA_ADDRESS);
  ASSERT_FALSE(t.ea.fault.vm.write);
  ASSERT_FALSE(hqd_running(dev, a));
  ASSERT_EQ(t.log.count, 2);
  ASSERT_EQ(amdgpu_queue_destroy(a, SECOND_NS), 0);
  ASSERT_EQ(t.eb.count, 0);
  two_queues_down(&t);
}

/* The SQ error interrupt as the CP posts it for a wave of (me, pipe, queue):
 * client SE0SH, SQ_INTERRUPT_ID, ring ID = queue << 4 | me << 2 | pipe,
 * context ID 0 with ERROR encoding, the error type in context ID 1 [7:4]. */
static void post_sq_error(struct vapu *v, const struct amdgpu_queue_info *info, uint32_t type) {
  uint32_t data[4] = {SQ_INTERRUPT_WORD_ENCODING_ERROR << SQ_INTERRUPT_WORD_ENCODING_SHIFT, type << 4, 0, 0};
  uint8_t ring = (uint8_t)(info->queue << 4 | info->me << 2 | info->pipe);
  ASSERT_TRUE(vapu_ih_post(v, SOC15_IH_CLIENTID_SE0SH, GFX_9_0__SRCID__SQ_INTERRUPT_ID, ring,
                           (uint8_t)info->vmid, false, data));
}

TEST(amdgpu_shader_errors_stop_the_queue_the_interrupt_names) {
  struct amdgpu_fault_log log;
  struct amdgpu_device *dev = amdgpu_test_bring_up(VAPU_PICASSO, &log);
  ASSERT_NOT_NULL(dev);
  struct amdgpu_test_queue t[3];
  struct queue_errors e[3] = {0};
  struct amdgpu_queue *q[3];
  struct amdgpu_queue_info info[3];
  for (int i = 0; i < 3; i++) {
    ASSERT_EQ(amdgpu_test_queue_alloc(&t[i], 64), 0);
    int r;
    q[i] = create(dev, &t[i], &e[i], 0, &r);
    ASSERT_EQ(r, 0);
    amdgpu_queue_get_info(q[i], &info[i]);
  }
  struct vapu *v = amdgpu_vapu_of(dev);
  post_sq_error(v, &info[0], SQ_INTERRUPT_ERROR_TYPE_ILLEGAL_INST);
  ASSERT_EQ(amdgpu_test_wait_count(&e[0].count, 1), 1);
  ASSERT_EQ(e[0].kind, AMDGPU_QUEUE_ERROR_ILLEGAL_INSTRUCTION);
  ASSERT_EQ(e[0].status, HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION);
  post_sq_error(v, &info[1], SQ_INTERRUPT_ERROR_TYPE_MEMVIOL);
  ASSERT_EQ(amdgpu_test_wait_count(&e[1].count, 1), 1);
  ASSERT_EQ(e[1].kind, AMDGPU_QUEUE_ERROR_MEMORY_VIOLATION);
  ASSERT_EQ(e[1].status, HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION);
  ASSERT_FALSE(hqd_running(dev, q[0]));
  ASSERT_FALSE(hqd_running(dev, q[1]));
  ASSERT_TRUE(hqd_running(dev, q[2]));
  ASSERT_EQ(e[2].count, 0);
  /* A second error of a stopped queue is not reported again. */
  post_sq_error(v, &info[0], SQ_INTERRUPT_ERROR_TYPE_ILLEGAL_INST);
  ASSERT_EQ(amdgpu_test_wait_count(&log.count, 3), 3);
  ASSERT_EQ(e[0].count, 1);
  /* The CP refusing one of q[2]'s packets (CP_BAD_OPCODE, source 183,
   * handled by KFD): that queue stops with INVALID_PACKET_FORMAT. */
  const uint32_t bad[4] = {info[2].doorbell_index * 2 | 0x5u << 10, 0, 0, 0};
  ASSERT_TRUE(vapu_ih_post(v, SOC15_IH_CLIENTID_GRBM_CP, GFX_9_0__SRCID__CP_BAD_OPCODE_ERROR,
                           (uint8_t)(info[2].pipe | info[2].me << 2 | info[2].queue << 4), (uint8_t)info[2].vmid,
                           false, bad));
  ASSERT_EQ(amdgpu_test_wait_count(&e[2].count, 1), 1);
  ASSERT_EQ(e[2].kind, AMDGPU_QUEUE_ERROR_BAD_PACKET);
  ASSERT_EQ(e[2].status, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  ASSERT_EQ(e[2].fault.bad_opcode_code, 5);
  ASSERT_FALSE(hqd_running(dev, q[2]));
  for (int i = 0; i < 3; i++) {
    ASSERT_EQ(amdgpu_queue_destroy(q[i], SECOND_NS), 0);
    amdgpu_test_queue_free(&t[i]);
  }
  amdgpu_device_remove(dev);
}

TEST(amdgpu_queue_abort_reports_the_runtime_status) {
  struct amdgpu_fault_log log;
  struct amdgpu_device *dev = amdgpu_test_bring_up(VAPU_RAVEN, &log);
  ASSERT_NOT_NULL(dev);
  struct amdgpu_test_queue t;
  ASSERT_EQ(amdgpu_test_queue_alloc(&t, 64), 0);
  struct queue_errors e = {0};
  int r;
  struct amdgpu_queue *q = create(dev, &t, &e, 0, &r);
  ASSERT_EQ(r, 0);
  ASSERT_EQ(amdgpu_queue_abort(q, SECOND_NS), 0);
  ASSERT_EQ(e.count, 1);
  ASSERT_EQ(e.kind, AMDGPU_QUEUE_ERROR_ABORTED);
  ASSERT_EQ(e.status, HSA_STATUS_ERROR_EXCEPTION);
  ASSERT_FALSE(e.has_fault);
  ASSERT_FALSE(hqd_running(dev, q));
  ASSERT_EQ(amdgpu_queue_abort(q, SECOND_NS), -EALREADY);
  ASSERT_EQ(amdgpu_queue_destroy(q, SECOND_NS), 0);
  ASSERT_EQ(e.count, 1);
  amdgpu_test_queue_free(&t);
  amdgpu_device_remove(dev);
}

TEST(amdgpu_queue_destroy_times_out_when_the_mec_holds_on) {
  amdgpu_test_need_model();
  struct vapu_config config = {.chip = VAPU_RAVEN, .carveout_bytes = AMDGPU_TEST_CARVEOUT};
  struct amdgpu_device *dev;
  ASSERT_EQ(amdgpu_vapu_probe(&config, NULL, &dev), 0);
  vapu_inject_faults(amdgpu_vapu_of(dev), &(struct vapu_faults){.mec_ignores_dequeue = true});
  struct amdgpu_test_queue t;
  ASSERT_EQ(amdgpu_test_queue_alloc(&t, 64), 0);
  int r;
  struct amdgpu_queue *q = create(dev, &t, NULL, 0, &r);
  ASSERT_EQ(r, 0);
  uint64_t t0 = plat_now_ns();
  ASSERT_EQ(amdgpu_queue_destroy(q, 20000000), -ETIMEDOUT);
  ASSERT_GE(plat_now_ns() - t0, 20000000);
  /* The queue is lost, its memory kept: a second destroy says so again. */
  ASSERT_EQ(amdgpu_queue_destroy(q, 20000000), -ETIMEDOUT);
  ASSERT_TRUE(hqd_running(dev, q));
  amdgpu_device_remove(dev); /* MEC halted, then the queue freed */
  amdgpu_test_queue_free(&t);
}

TEST(amdgpu_queue_scratch_can_be_replaced) {
  struct amdgpu_fault_log log;
  struct amdgpu_device *dev = amdgpu_test_bring_up(VAPU_RENOIR, &log);
  ASSERT_NOT_NULL(dev);
  struct amdgpu_device_info dinfo;
  ASSERT_EQ(amdgpu_device_query(dev, &dinfo), 0);
  struct amdgpu_test_queue t;
  ASSERT_EQ(amdgpu_test_queue_alloc(&t, 64), 0);
  int r;
  struct amdgpu_queue *q = create(dev, &t, NULL, 0, &r);
  ASSERT_EQ(r, 0);
  ASSERT_EQ_U(t.amd->scratch_backing_memory_byte_size, 0);
  ASSERT_EQ_U(t.amd->compute_tmpring_size, 0);
  /* ROCr's scratch request answered: 1 KiB per lane = 64 KiB per wave. */
  ASSERT_EQ(amdgpu_queue_set_scratch(q, 1024, 0), 0);
  ASSERT_EQ(t.amd->scratch_wave64_lane_byte_size, 1024);
  ASSERT_EQ_U(t.amd->compute_tmpring_size, 32 * dinfo.compute_units | 64u << 12);
  ASSERT_EQ_U(t.amd->scratch_backing_memory_byte_size, 65536ull * 32 * dinfo.compute_units);
  /* The queue's VMID reaches the last byte of it. */
  struct amdgpu_queue_info info;
  amdgpu_queue_get_info(q, &info);
  struct vapu_requester wave = {VAPU_GFXHUB, (uint8_t)info.vmid, VAPU_CLIENT_TCP, false};
  uint8_t byte = 0x5a;
  ASSERT_EQ(vapu_gpu_write(amdgpu_vapu_of(dev), &wave, NULL,
                           t.amd->scratch_backing_memory_location + t.amd->scratch_backing_memory_byte_size - 1,
                           &byte, 1), 0);
  /* Too much is refused and the old scratch stays. */
  uint64_t before = t.amd->scratch_backing_memory_location;
  ASSERT_EQ(amdgpu_queue_set_scratch(q, 1u << 20, 0), -EINVAL);
  ASSERT_EQ_U(t.amd->scratch_backing_memory_location, before);
  /* Reduced scratch: 4 waves of 512 KiB (8 KiB per lane). */
  ASSERT_EQ(amdgpu_queue_set_scratch(q, 8192, 4), 0);
  ASSERT_EQ_U(t.amd->compute_tmpring_size, 4u | 512u << 12);
  ASSERT_EQ_U(t.amd->scratch_backing_memory_byte_size, 4ull * 512 * 1024);
  ASSERT_EQ(amdgpu_queue_set_scratch(q, 0, 0), 0);
  ASSERT_EQ_U(t.amd->scratch_backing_memory_byte_size, 0);
  ASSERT_EQ(amdgpu_queue_destroy(q, SECOND_NS), 0);
  ASSERT_EQ(log.count, 0);
  amdgpu_test_queue_free(&t);
  amdgpu_device_remove(dev);
}

TEST(amdgpu_queue_over_its_time_limit_is_aborted) {
  struct two_queues t;
  two_queues_up(&t, VAPU_RAVEN);
  struct amdgpu_device *dev = t.dev;
  struct amdgpu_queue *a = t.a, *b = t.b;
  amdgpu_queue_set_time_limit(a, 50000000);
  amdgpu_queue_set_time_limit(b, 50000000);
  /* Queue a waits on a barrier whose dependency never reaches 0. */
  amd_signal_t *never = plat_dma_alloc(2 * sizeof *never, 64), *done = never + 1;
  ASSERT_EQ(amdgpu_map_system_range(dev, never, 2 * sizeof *never), 0);
  never->kind = AMD_SIGNAL_KIND_USER;
  never->value = 1;
  hsa_barrier_and_packet_t *p = t.ta.amd->hsa_queue.base_address;
  memset((uint8_t *)p + 2, 0, sizeof *p - 2);
  p->dep_signal[0].handle = (uint64_t)(uintptr_t)never;
  done->kind = AMD_SIGNAL_KIND_USER;
  done->value = 1;
  p->completion_signal.handle = (uint64_t)(uintptr_t)done;
  __atomic_store_n(&t.ta.amd->write_dispatch_id, 1, __ATOMIC_RELEASE);
  __atomic_store_n(&p->header, (uint16_t)(HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE),
                   __ATOMIC_RELEASE);
  amdgpu_queue_ring_doorbell(a, 0);
  /* Within the limit nothing happens; past it queue a is stopped and
   * reported, queue b (idle) is left alone. */
  uint64_t t0 = plat_now_ns();
  ASSERT_EQ(amdgpu_queues_check_progress(dev, t0), 0);
  ASSERT_EQ(amdgpu_queues_check_progress(dev, t0 + 20000000), 0);
  ASSERT_EQ(t.ea.count, 0);
  ASSERT_EQ(amdgpu_queues_check_progress(dev, t0 + 200000000), 1);
  ASSERT_EQ(t.ea.count, 1);
  ASSERT_EQ(t.ea.kind, AMDGPU_QUEUE_ERROR_ABORTED);
  ASSERT_EQ(t.ea.status, HSA_STATUS_ERROR_EXCEPTION);
  ASSERT_FALSE(hqd_running(dev, a));
  ASSERT_EQ(done->value, 1); /* the barrier never completed */
  ASSERT_TRUE(hqd_running(dev, b));
  ASSERT_TRUE(run_barrier(&t.tb, b, done));
  ASSERT_EQ(amdgpu_queues_check_progress(dev, t0 + 400000000), 0);
  ASSERT_EQ(t.eb.count, 0);
  ASSERT_EQ(amdgpu_queue_destroy(a, SECOND_NS), 0);
  ASSERT_EQ(amdgpu_queue_destroy(b, SECOND_NS), 0);
  plat_dma_free(never, 2 * sizeof *never);
  two_queues_down(&t);
}
