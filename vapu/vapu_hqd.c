/* vapu_hqd.c - the MEC's hardware queue descriptors: one register file per
 * ME/pipe/queue, reached through the GRBM_GFX_CNTL select, that hands an
 * AQL queue to the command processor's engine when the driver sets
 * CP_HQD_ACTIVE, and takes it back on CP_HQD_DEQUEUE_REQUEST.
 *
 * The queue starts only when its registers are consistent: the MEC with
 * firmware and not halted,
 * an AQL queue with slot-based write pointers, a ring, read and write
 * pointer addresses, an EOP buffer, a VMID whose VM context has
 * a page table covering the ring, the doorbell enabled, 64-bit aligned and
 * inside CP_MEC_DOORBELL_RANGE and the BAR. Otherwise CP_HQD_ACTIVE stays 0
 * and one log line names the first problem.
 *
 * Registers: Linux include/asic_reg/gc/gc_9_1_offset.h (CP_MQD_BASE_ADDR
 * 0x1245 .. CP_HQD_PQ_WPTR_HI 0x127c, CP_MEC_DOORBELL_RANGE_* 0x105c/d),
 * fields gc_9_1_sh_mask.h, reset values gc_9_0_default.h; the meaning of
 * the fields as KFD programs them: kfd_mqd_manager_v9.c, and the load and
 * dequeue sequences in amdgpu_amdkfd_gfx_v9.c. */
#define LOG_TAG "vapu"
#include "vapu/vapu_internal.h"

#define GC_CP_MEC_DOORBELL_RANGE_LOWER 0x105c
#define GC_CP_MEC_DOORBELL_RANGE_UPPER 0x105d
#define DOORBELL_RANGE_LOWER_DEFAULT   0x00000048u
#define DOORBELL_RANGE_UPPER_DEFAULT   0x0ffffffcu

/* HQD registers, as offsets from CP_MQD_BASE_ADDR. */
#define R(reg) ((reg) - VAPU_HQD_FIRST_REG)
#define MQD_BASE_ADDR          R(0x1245)
#define MQD_BASE_ADDR_HI       R(0x1246)
#define HQD_ACTIVE             R(0x1247)
#define HQD_VMID               R(0x1248)
#define HQD_PERSISTENT_STATE   R(0x1249)
#define HQD_PQ_BASE            R(0x124d)
#define HQD_PQ_BASE_HI         R(0x124e)
#define HQD_PQ_RPTR_REPORT     R(0x1250)
#define HQD_PQ_RPTR_REPORT_HI  R(0x1251)
#define HQD_PQ_WPTR_POLL       R(0x1252)
#define HQD_PQ_WPTR_POLL_HI    R(0x1253)
#define HQD_PQ_DOORBELL_CONTROL R(0x1254)
#define HQD_PQ_CONTROL         R(0x1256)
#define HQD_IB_CONTROL         R(0x125a)
#define HQD_DEQUEUE_REQUEST    R(0x125d)
#define MQD_CONTROL            R(0x1267)
#define HQD_EOP_BASE_ADDR      R(0x126a)
#define HQD_EOP_BASE_ADDR_HI   R(0x126b)
#define HQD_EOP_CONTROL        R(0x126c)
#define HQD_AQL_CONTROL        R(0x127a)

#define ACTIVE_BIT             0x1u
#define DEQUEUE_REQ_MASK       0x7u
#define PQ_QUEUE_SIZE(c)       ((c) & 0x3fu)
#define PQ_SLOT_BASED_WPTR(c)  (((c) >> 25) & 0x3u)
#define DOORBELL_OFFSET(c)     (((c) >> 2) & 0x3ffffffu) /* dwords */
#define DOORBELL_EN            0x40000000u
#define EOP_SIZE(c)            ((c) & 0x3fu)
#define AQL_CONTROL0(c)        ((c) & 0x7fffu)
#define VMID_FIELD(c)          ((c) & 0xfu)

/* The bank the GRBM select points at; NULL for ME 0 (graphics) or an ME
 * beyond the MECs. */
static struct vapu_hqd_bank *selected(struct vapu *v, struct vapu_grbm_select *s) {
  *s = vapu_grbm_selected(v);
  if (s->me < 1 || s->me > VAPU_CP_MES) return NULL;
  return &v->gfx.hqd[s->me - 1][s->pipe % VAPU_CP_PIPES][s->queue];
}

static uint64_t pair(const struct vapu_hqd_bank *b, unsigned lo, unsigned hi) {
  return (uint64_t)b->reg[hi] << 32 | b->reg[lo];
}

/* The first inconsistency of a bank's programming, or NULL. */
static const char *problem(struct vapu *v, unsigned me, const struct vapu_hqd_bank *b,
                           struct vapu_cp_queue_regs *r) {
  uint32_t pq = b->reg[HQD_PQ_CONTROL], db = b->reg[HQD_PQ_DOORBELL_CONTROL];
  r->mqd_address = pair(b, MQD_BASE_ADDR, MQD_BASE_ADDR_HI);
  r->ring_address = pair(b, HQD_PQ_BASE, HQD_PQ_BASE_HI) << 8;
  /* 2 << QUEUE_SIZE dwords; beyond 4 GiB the size is refused below. */
  r->ring_bytes = PQ_QUEUE_SIZE(pq) < 30 ? 4ull << (PQ_QUEUE_SIZE(pq) + 1) : 0;
  r->rptr_report_address = pair(b, HQD_PQ_RPTR_REPORT, HQD_PQ_RPTR_REPORT_HI) & ~3ull;
  r->wptr_poll_address = pair(b, HQD_PQ_WPTR_POLL, HQD_PQ_WPTR_POLL_HI) & ~7ull;
  r->doorbell_offset = DOORBELL_OFFSET(db);
  r->eop_address = pair(b, HQD_EOP_BASE_ADDR, HQD_EOP_BASE_ADDR_HI) << 8;
  r->eop_bytes = EOP_SIZE(b->reg[HQD_EOP_CONTROL]) <= 0xa ? 4u << (EOP_SIZE(b->reg[HQD_EOP_CONTROL]) + 1) : 0;
  r->vmid = (uint8_t)VMID_FIELD(b->reg[HQD_VMID]);
  r->aql = AQL_CONTROL0(b->reg[HQD_AQL_CONTROL]) != 0;
  r->sh_mem_bases = vapu_sh_mem_bases(v, r->vmid);

  if (!vapu_mec_has_firmware(v, me)) return "the PSP has loaded no MEC firmware with this ME's jump table";
  if (!vapu_mec_unhalted(v, me)) return "the MEC is halted (CP_MEC_CNTL)";
  if (!r->aql) return "not an AQL queue (CP_HQD_AQL_CONTROL.CONTROL0 = 0)";
  if (PQ_SLOT_BASED_WPTR(pq) != 2) return "AQL write pointers must count 64-byte slots (CP_HQD_PQ_CONTROL.SLOT_BASED_WPTR != 2)";
  if (!r->ring_address) return "no ring (CP_HQD_PQ_BASE = 0)";
  if (!r->ring_bytes) return "ring larger than 4 GiB (CP_HQD_PQ_CONTROL.QUEUE_SIZE)";
  if (!r->rptr_report_address || !r->wptr_poll_address)
    return "no read pointer report or write pointer poll address";
  if (!r->eop_address) return "no EOP buffer (CP_HQD_EOP_BASE_ADDR = 0)";
  if (!r->eop_bytes) return "EOP_SIZE above 0xA (more EOP entries than the per-SE counters hold)";
  if (!r->vmid) return "VMID 0 (compute queues run in VMIDs 1-15)";
  const char *vm = vapu_gmc_context_problem(v, VAPU_GFXHUB, r->vmid, r->ring_address, r->ring_bytes);
  if (vm) return vm;
  if (!(db & DOORBELL_EN)) return "doorbell not enabled (CP_HQD_PQ_DOORBELL_CONTROL.DOORBELL_EN)";
  uint64_t db_byte = (uint64_t)r->doorbell_offset * 4;
  uint32_t lower = vapu_reg_get(v, v->gfx.gc_base + GC_CP_MEC_DOORBELL_RANGE_LOWER) & 0x0ffffffcu;
  uint32_t upper = vapu_reg_get(v, v->gfx.gc_base + GC_CP_MEC_DOORBELL_RANGE_UPPER) & 0x0ffffffcu;
  if (db_byte & 7) return "doorbell not 64-bit aligned (odd DOORBELL_OFFSET)";
  if (db_byte < lower || db_byte > upper) return "doorbell outside CP_MEC_DOORBELL_RANGE_LOWER/UPPER";
  if (db_byte + 8 > v->doorbell_bytes) return "doorbell beyond the doorbell BAR";
  return NULL;
}

static void activate(struct vapu *v, const struct vapu_grbm_select *s, struct vapu_hqd_bank *b) {
  struct vapu_cp_queue_regs regs;
  const char *why = problem(v, s->me, b, &regs);
  if (why) {
    log_error("HQD ME%u pipe %u queue %u not activated: %s", s->me, s->pipe, s->queue, why);
    return;
  }
  if (vapu_cp_queue_start(v, s->me, s->pipe, s->queue, &regs)) return; /* the engine logged why */
  b->active = true;
}

static uint32_t hqd_read(struct vapu *v, uint32_t index, void *arg) {
  struct vapu_grbm_select s;
  struct vapu_hqd_bank *b = selected(v, &s);
  if (!b) return 0;
  unsigned reg = index - v->gfx.gc_base - VAPU_HQD_FIRST_REG;
  if (reg == HQD_ACTIVE) {
    /* A dequeue completes when the engine lets go of the queue. */
    if (b->active && !vapu_cp_queue_active(v, s.me, s.pipe, s.queue)) {
      b->active = false;
      b->reg[HQD_DEQUEUE_REQUEST] = 0;
    }
    return b->active ? ACTIVE_BIT : 0;
  }
  return b->reg[reg];
}

static void hqd_write(struct vapu *v, uint32_t index, uint32_t value, void *arg) {
  struct vapu_grbm_select s;
  struct vapu_hqd_bank *b = selected(v, &s);
  if (!b) return;
  unsigned reg = index - v->gfx.gc_base - VAPU_HQD_FIRST_REG;
  if (reg == HQD_ACTIVE) {
    if ((value & ACTIVE_BIT) && !b->active) activate(v, &s, b);
    return;
  }
  b->reg[reg] = value;
  if (reg == HQD_DEQUEUE_REQUEST && (value & DEQUEUE_REQ_MASK) && b->active &&
      !v->config.faults.mec_ignores_dequeue)
    vapu_cp_queue_stop(v, s.me, s.pipe, s.queue);
}

void vapu_hqd_init(struct vapu *v) {
  for (unsigned me = 0; me < VAPU_CP_MES; me++)
    for (unsigned pipe = 0; pipe < VAPU_CP_PIPES; pipe++)
      for (unsigned queue = 0; queue < VAPU_CP_QUEUES; queue++) {
        struct vapu_hqd_bank *b = &v->gfx.hqd[me][pipe][queue];
        /* gc_9_0_default.h */
        b->reg[HQD_PERSISTENT_STATE] = 0x0be05301u;
        b->reg[HQD_PQ_CONTROL] = 0x00308509u;
        b->reg[HQD_IB_CONTROL] = 0x00300000u;
        b->reg[MQD_CONTROL] = 0x00000100u;
        b->reg[HQD_EOP_CONTROL] = 0x00000006u;
      }
  vapu_reg_set(v, v->gfx.gc_base + GC_CP_MEC_DOORBELL_RANGE_LOWER, DOORBELL_RANGE_LOWER_DEFAULT);
  vapu_reg_set(v, v->gfx.gc_base + GC_CP_MEC_DOORBELL_RANGE_UPPER, DOORBELL_RANGE_UPPER_DEFAULT);
  for (uint32_t reg = VAPU_HQD_FIRST_REG; reg <= VAPU_HQD_LAST_REG; reg++)
    vapu_reg_hook(v, v->gfx.gc_base + reg, hqd_read, hqd_write, NULL);
}
