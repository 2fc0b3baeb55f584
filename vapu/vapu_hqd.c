/* vapu_hqd.c - the MEC's hardware queue descriptors and its doorbells: one
 * register file per ME/pipe/queue, reached through the GRBM_GFX_CNTL
 * select, that hands an AQL queue to the command processor's engine when
 * CP_HQD_ACTIVE is set and takes it back on CP_HQD_DEQUEUE_REQUEST; and the
 * decoding of doorbell writes into write pointers.
 *
 * What the chip does, and so the model:
 *   - CP_HQD_ACTIVE is a register: writing 1 activates the queue whatever
 *     the rest holds. Linux activates the KIQ's HQD before it lets the MEC
 *     run (gfx_v9_0_kiq_resume precedes gfx_v9_0_kcq_resume's
 *     cp_compute_enable), so a halted MEC is no reason to refuse; a halted
 *     or firmware-less MEC simply runs nothing, and a dequeue request
 *     waits until it runs. Programming the firmware cannot interpret (not
 *     an AQL queue, a ring size that is no power of two) leaves the queue
 *     active and idle; one log line says why. Wrong addresses fault when
 *     the CP uses them, through the GMC.
 *   - The CP's write pointer is the HQD's CP_HQD_PQ_WPTR: what the driver
 *     loaded, raised by doorbells and by reads of CP_HQD_PQ_WPTR_POLL_ADDR.
 *     The MEC reads that address periodically only while
 *     CP_PQ_WPTR_POLL_CNTL.EN is set (reset value 0: off), and once for
 *     each queue whose bit is written to CP_PQ_WPTR_POLL_CNTL1 (bit =
 *     pipe * 8 + queue of ME1; Linux kgd_gfx_v9_hqd_load "trigger a
 *     one-shot polling read from memory in the CP", written before the
 *     queue is activated, so the request waits for the activation).
 *   - A doorbell write reaches a queue only when (a) the NBIO decodes BAR2
 *     (RCC_DOORBELL_APER_EN.BIF_DOORBELL_APER_EN, reset 0), (b) the MEC
 *     takes doorbells (CP_PQ_STATUS.DOORBELL_ENABLE, reset 0; Linux sets it
 *     in gfx_v9_0_kiq_init_register and nothing else would), (c) the
 *     address lies in CP_MEC_DOORBELL_RANGE_LOWER/UPPER, compared on its
 *     offset within the 4 KiB doorbell page (since SOC15 the BIF routes by
 *     the low 12 bits: Linux amdgpu_amdkfd.c; KFD rings doorbells in later
 *     pages with UPPER left at 0x450), and (d) an active HQD has
 *     DOORBELL_EN with that DOORBELL_OFFSET. Anything else does nothing. A
 *     64-bit AQL doorbell carries the index of the packet just written
 *     (HSA PRM 2.8.3; ROCr amd_aql_queue.cpp writes the program's value
 *     unchanged for doorbell type 2 "AQL semantics"): packets up to it are
 *     published.
 *
 * Registers: Linux include/asic_reg/gc/gc_9_1_offset.h (CP_MQD_BASE_ADDR
 * 0x1245 .. CP_HQD_PQ_WPTR_HI 0x127c, CP_MEC_DOORBELL_RANGE_* 0x105c/d,
 * CP_PQ_WPTR_POLL_CNTL/CNTL1 0x1083/4, CP_PQ_STATUS 0x10b8), fields
 * gc_9_1_sh_mask.h, reset values gc_9_0_default.h (Linux has no default
 * header for GC 9.1-9.3); the meaning of the fields as KFD programs them:
 * kfd_mqd_manager_v9.c, the load and dequeue sequences in
 * amdgpu_amdkfd_gfx_v9.c. */
#define LOG_TAG "vapu"
#include <string.h>

#include "vapu/vapu_internal.h"
#include "lib/util.h"

#define DOORBELL_RANGE_MASK            0x0ffffffcu
#define PQ_STATUS_DOORBELL_ENABLE      0x2u
#define WPTR_POLL_EN                   0x80000000u
#define DOORBELL_PAGE_BYTES            4096u

/* gc_9_0_default.h reset values of the GC-wide registers above. */
static const struct vapu_reg_reset cp_resets[] = {
    {GC_CP_MEC_DOORBELL_RANGE_LOWER, 0x00000048u},
    {GC_CP_MEC_DOORBELL_RANGE_UPPER, 0x0ffffffcu},
    {GC_CP_PQ_WPTR_POLL_CNTL, 0x00000001u}, /* PERIOD 1, EN 0 */
    {GC_CP_PQ_WPTR_POLL_CNTL1, 0x00000000u},
    {GC_CP_PQ_STATUS, 0x00000000u},
};

/* HQD registers, as offsets from CP_MQD_BASE_ADDR. */
#define R(reg) ((reg) - VAPU_HQD_FIRST_REG)
#define MQD_BASE_ADDR          R(0x1245)
#define MQD_BASE_ADDR_HI       R(0x1246)
#define HQD_ACTIVE             R(0x1247)
#define HQD_VMID               R(0x1248)
#define HQD_PERSISTENT_STATE   R(0x1249)
#define HQD_PQ_BASE            R(0x124d)
#define HQD_PQ_BASE_HI         R(0x124e)
#define HQD_PQ_RPTR            R(0x124f)
#define HQD_PQ_RPTR_REPORT     R(0x1250)
#define HQD_PQ_RPTR_REPORT_HI  R(0x1251)
#define HQD_PQ_WPTR_POLL       R(0x1252)
#define HQD_PQ_WPTR_POLL_HI    R(0x1253)
#define HQD_PQ_DOORBELL_CONTROL R(0x1254)
#define HQD_PQ_CONTROL         R(0x1256)
#define HQD_IB_CONTROL         R(0x125a)
#define HQD_DEQUEUE_REQUEST    R(0x125d)
#define HQD_HQ_STATUS0         R(0x1262)
#define MQD_CONTROL            R(0x1267)
#define HQD_EOP_BASE_ADDR      R(0x126a)
#define HQD_EOP_BASE_ADDR_HI   R(0x126b)
#define HQD_EOP_CONTROL        R(0x126c)
#define HQD_EOP_RPTR           R(0x126d)
#define HQD_EOP_WPTR           R(0x126e)
#define HQD_AQL_CONTROL        R(0x127a)
#define HQD_PQ_WPTR_LO         R(0x127b)
#define HQD_PQ_WPTR_HI         R(0x127c)

/* The non-zero reset values of gc_9_0_default.h's per-queue registers
 * (every other one resets to 0). */
static const struct vapu_reg_reset hqd_resets[] = {
    {HQD_PERSISTENT_STATE, 0x0be05301u}, {HQD_PQ_CONTROL, 0x00308509u},
    {HQD_IB_CONTROL, 0x00300000u},       {HQD_HQ_STATUS0, 0x40000000u},
    {MQD_CONTROL, 0x00000100u},          {HQD_EOP_CONTROL, 0x00000006u},
    {HQD_EOP_RPTR, 0x40000000u},         {HQD_EOP_WPTR, 0x007f8000u},
};

#define ACTIVE_BIT             0x1u
#define DEQUEUE_REQ_MASK       0x7u
#define DEQUEUE_RESET_WAVES    2u
#define MQD_CONTROL_VMID(c)    ((c) & 0xfu)
#define PQ_QUEUE_SIZE(c)       ((c) & 0x3fu)
#define PQ_SLOT_BASED_WPTR(c)  (((c) >> 25) & 0x3u)
#define DOORBELL_OFFSET(c)     (((c) >> 2) & 0x3ffffffu) /* dwords */
#define DOORBELL_EN            0x40000000u
#define EOP_SIZE(c)            ((c) & 0x3fu)
#define AQL_CONTROL0(c)        ((c) & 0x7fffu)
#define VMID_FIELD(c)          ((c) & 0xfu)

static uint32_t gc_reg(struct vapu *v, uint32_t offset) { return vapu_reg_get(v, v->gfx.gc_base + offset); }

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

/* ---- The MQD in memory ----
 * The CP reads the queue's CU masks from its MQD when the HQD becomes
 * active, and saves the HQD registers back into it when it lets the queue
 * go: Linux reloads a dequeued queue from that image (KFD's restore after
 * an eviction without the HWS calls load_mqd, and kgd_gfx_v9_hqd_load
 * derives the write pointer from the saved cp_hqd_pq_rptr/wptr; amdgpu
 * keeps a backup of its own queues' MQDs for a reset because the CP writes
 * them: gfx_v9_0_kcq_init_queue). Dword offsets: Linux v9_structs.h
 * struct v9_mqd; the MQD address is in the VMID of CP_MQD_CONTROL.VMID. */
#define MQD_STATIC_THREAD_MGMT_SE0 23u
#define MQD_STATIC_THREAD_MGMT_SE1 24u
#define MQD_STATIC_THREAD_MGMT_SE2 26u
#define MQD_STATIC_THREAD_MGMT_SE3 27u
#define MQD_HQD_IMAGE              128u /* cp_mqd_base_addr_lo: the HQD registers from CP_MQD_BASE_ADDR on */

static int mqd_access(struct vapu *v, const struct vapu_hqd_bank *b, uint32_t dword, void *buf, size_t n,
                      bool write) {
  struct vapu_requester rq = {VAPU_GFXHUB, (uint8_t)MQD_CONTROL_VMID(b->reg[MQD_CONTROL]), VAPU_CLIENT_CPC,
                              .coherent = true};
  struct vapu_tlb tlb = {0};
  uint64_t va = pair(b, MQD_BASE_ADDR, MQD_BASE_ADDR_HI) + dword * 4ull;
  return write ? vapu_gpu_write(v, &rq, &tlb, va, buf, n) : vapu_gpu_read(v, &rq, &tlb, va, buf, n);
}

static void mqd_save(struct vapu *v, const struct vapu_grbm_select *s, const struct vapu_hqd_bank *b) {
  if (mqd_access(v, b, MQD_HQD_IMAGE, (void *)b->reg, sizeof b->reg, true))
    log_error("HQD ME%u pipe %u queue %u: its MQD at 0x%llx is unreachable: the queue's state is not saved",
              s->me, s->pipe, s->queue, (unsigned long long)pair(b, MQD_BASE_ADDR, MQD_BASE_ADDR_HI));
}

/* The queue the bank describes, decoded; or why the MEC firmware cannot
 * run it. */
static const char *decode(struct vapu *v, const struct vapu_hqd_bank *b, struct vapu_cp_queue_regs *r) {
  uint32_t pq = b->reg[HQD_PQ_CONTROL], db = b->reg[HQD_PQ_DOORBELL_CONTROL];
  r->mqd_address = pair(b, MQD_BASE_ADDR, MQD_BASE_ADDR_HI);
  r->ring_address = pair(b, HQD_PQ_BASE, HQD_PQ_BASE_HI) << 8;
  /* 2 << QUEUE_SIZE dwords; beyond 4 GiB the size is refused below. */
  r->ring_bytes = PQ_QUEUE_SIZE(pq) < 30 ? 4ull << (PQ_QUEUE_SIZE(pq) + 1) : 0;
  r->rptr_report_address = pair(b, HQD_PQ_RPTR_REPORT, HQD_PQ_RPTR_REPORT_HI) & ~3ull;
  r->wptr_poll_address = pair(b, HQD_PQ_WPTR_POLL, HQD_PQ_WPTR_POLL_HI) & ~7ull;
  r->write_index = pair(b, HQD_PQ_WPTR_LO, HQD_PQ_WPTR_HI);
  /* CP_HQD_PQ_RPTR holds the low 32 bits of the read index: the rest is
   * the write pointer's, the read pointer being at most a ring behind. */
  r->read_index = r->write_index - (uint32_t)(r->write_index - b->reg[HQD_PQ_RPTR]);
  r->doorbell_offset = DOORBELL_OFFSET(db);
  r->eop_address = pair(b, HQD_EOP_BASE_ADDR, HQD_EOP_BASE_ADDR_HI) << 8;
  r->eop_bytes = EOP_SIZE(b->reg[HQD_EOP_CONTROL]) <= 0xa ? 4u << (EOP_SIZE(b->reg[HQD_EOP_CONTROL]) + 1) : 0;
  r->vmid = (uint8_t)VMID_FIELD(b->reg[HQD_VMID]);
  r->aql = AQL_CONTROL0(b->reg[HQD_AQL_CONTROL]) != 0;
  r->sh_mem_bases = vapu_sh_mem_bases(v, r->vmid);

  if (!r->aql) return "not an AQL queue (CP_HQD_AQL_CONTROL.CONTROL0 = 0)";
  if (PQ_SLOT_BASED_WPTR(pq) != 2) return "AQL write pointers must count 64-byte slots (CP_HQD_PQ_CONTROL.SLOT_BASED_WPTR != 2)";
  if (!r->ring_bytes) return "ring larger than 4 GiB (CP_HQD_PQ_CONTROL.QUEUE_SIZE)";
  /* kfd_mqd_manager_v9.c: "HW does not clamp this field correctly". */
  if (!r->eop_bytes) return "EOP_SIZE above 0xA (more EOP entries than the per-SE counters hold)";
  uint32_t se[4];
  if (mqd_access(v, b, MQD_STATIC_THREAD_MGMT_SE0, &se[0], 8, false) ||
      mqd_access(v, b, MQD_STATIC_THREAD_MGMT_SE2, &se[2], 8, false))
    return "its MQD (CP_MQD_BASE_ADDR) is unreachable";
  memcpy(r->cu_enable, se, sizeof se);
  return NULL;
}

static void activate(struct vapu *v, const struct vapu_grbm_select *s, struct vapu_hqd_bank *b) {
  b->active = true;
  struct vapu_cp_queue_regs regs;
  const char *why = decode(v, b, &regs);
  if (why) {
    log_error("HQD ME%u pipe %u queue %u is active but runs nothing: %s", s->me, s->pipe, s->queue, why);
    return;
  }
  if (vapu_cp_queue_start(v, s->me, s->pipe, s->queue, &regs)) return; /* the engine logged why */
  b->engine_owned = true;
  if (b->poll_pending) {
    b->poll_pending = false;
    vapu_cp_queue_poll_write_pointer(v, s->me, s->pipe, s->queue);
  }
}

/* The engine let go of the queue (a dequeue): what it leaves in the HQD. */
static void deactivate(struct vapu *v, const struct vapu_grbm_select *s, struct vapu_hqd_bank *b) {
  bool ran = b->engine_owned;
  if (ran) {
    uint64_t read_index, write_index;
    vapu_cp_queue_pointers(v, s->me, s->pipe, s->queue, &read_index, &write_index);
    b->reg[HQD_PQ_RPTR] = (uint32_t)read_index;
    b->reg[HQD_PQ_WPTR_LO] = (uint32_t)write_index;
    b->reg[HQD_PQ_WPTR_HI] = (uint32_t)(write_index >> 32);
  }
  b->active = false;
  b->engine_owned = false;
  b->reg[HQD_DEQUEUE_REQUEST] = 0;
  if (ran) mqd_save(v, s, b);
}

static uint32_t hqd_read(struct vapu *v, uint32_t index, void *arg) {
  struct vapu_grbm_select s;
  struct vapu_hqd_bank *b = selected(v, &s);
  if (!b) return 0;
  unsigned reg = index - v->gfx.gc_base - VAPU_HQD_FIRST_REG;
  if (reg == HQD_ACTIVE) {
    /* A dequeue completes when the engine lets go of the queue; a queue
     * the firmware never ran lets go at once, once the MEC runs. */
    if (b->engine_owned) {
      if (!vapu_cp_queue_active(v, s.me, s.pipe, s.queue)) deactivate(v, &s, b);
    } else if (b->active && (b->reg[HQD_DEQUEUE_REQUEST] & DEQUEUE_REQ_MASK) && vapu_mec_running(v, s.me) &&
               !v->config.faults.mec_ignores_dequeue) {
      deactivate(v, &s, b);
    }
    return b->active ? ACTIVE_BIT : 0;
  }
  if (b->engine_owned && (reg == HQD_PQ_RPTR || reg == HQD_PQ_WPTR_LO || reg == HQD_PQ_WPTR_HI)) {
    uint64_t read_index, write_index;
    vapu_cp_queue_pointers(v, s.me, s.pipe, s.queue, &read_index, &write_index);
    return reg == HQD_PQ_RPTR ? (uint32_t)read_index
           : reg == HQD_PQ_WPTR_LO ? (uint32_t)write_index : (uint32_t)(write_index >> 32);
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
  if (reg == HQD_DEQUEUE_REQUEST && (value & DEQUEUE_REQ_MASK) && b->engine_owned &&
      !v->config.faults.mec_ignores_dequeue)
    vapu_cp_queue_stop(v, s.me, s.pipe, s.queue,
                       (value & DEQUEUE_REQ_MASK) == DEQUEUE_RESET_WAVES ? VAPU_CP_RESET : VAPU_CP_DRAIN);
}

/* CP_PQ_WPTR_POLL_CNTL1: a read of each named ME1 queue's poll address. */
static void poll_cntl1_write(struct vapu *v, uint32_t index, uint32_t value, void *arg) {
  vapu_reg_set(v, index, value);
  for (unsigned bit = 0; bit < VAPU_CP_PIPES * VAPU_CP_QUEUES; bit++) {
    if (!(value & (1u << bit))) continue;
    struct vapu_hqd_bank *b = &v->gfx.hqd[0][bit / VAPU_CP_QUEUES][bit % VAPU_CP_QUEUES];
    if (b->engine_owned)
      vapu_cp_queue_poll_write_pointer(v, 1, bit / VAPU_CP_QUEUES, bit % VAPU_CP_QUEUES);
    else
      b->poll_pending = true;
  }
}

bool vapu_wptr_polling(struct vapu *v, unsigned me, unsigned pipe, unsigned queue) {
  return me == 1 && (gc_reg(v, GC_CP_PQ_WPTR_POLL_CNTL) & WPTR_POLL_EN) &&
         (gc_reg(v, GC_CP_PQ_WPTR_POLL_CNTL1) & (1u << (pipe * VAPU_CP_QUEUES + queue)));
}

void vapu_doorbell_write(struct vapu *v, uint32_t byte_offset, uint64_t value) {
  if (!vapu_pci_memory_decode(v) || !vapu_nbio_doorbell_aperture(v) || byte_offset + 8 > v->doorbell_bytes ||
      (byte_offset & 7))
    return; /* BAR2 does not decode it */
  if (!(gc_reg(v, GC_CP_PQ_STATUS) & PQ_STATUS_DOORBELL_ENABLE)) return;
  uint32_t in_page = byte_offset % DOORBELL_PAGE_BYTES;
  if (in_page < (gc_reg(v, GC_CP_MEC_DOORBELL_RANGE_LOWER) & DOORBELL_RANGE_MASK) ||
      in_page > (gc_reg(v, GC_CP_MEC_DOORBELL_RANGE_UPPER) & DOORBELL_RANGE_MASK))
    return; /* not the MEC's */
  for (unsigned me = 0; me < VAPU_CP_MES; me++)
    for (unsigned pipe = 0; pipe < VAPU_CP_PIPES; pipe++)
      for (unsigned queue = 0; queue < VAPU_CP_QUEUES; queue++) {
        struct vapu_hqd_bank *b = &v->gfx.hqd[me][pipe][queue];
        uint32_t db = b->reg[HQD_PQ_DOORBELL_CONTROL];
        if (!b->engine_owned || !(db & DOORBELL_EN) || DOORBELL_OFFSET(db) * 4 != byte_offset) continue;
        vapu_cp_queue_write_pointer(v, me + 1, pipe, queue, value + 1);
      }
}

void vapu_hqd_init(struct vapu *v) {
  for (unsigned me = 0; me < VAPU_CP_MES; me++)
    for (unsigned pipe = 0; pipe < VAPU_CP_PIPES; pipe++)
      for (unsigned queue = 0; queue < VAPU_CP_QUEUES; queue++) {
        struct vapu_hqd_bank *b = &v->gfx.hqd[me][pipe][queue];
        for (size_t i = 0; i < countof(hqd_resets); i++)
          b->reg[hqd_resets[i].offset] = hqd_resets[i].value;
      }
  vapu_regs_reset(v, v->gfx.gc_base, cp_resets, countof(cp_resets));
  vapu_reg_hook(v, v->gfx.gc_base + GC_CP_PQ_WPTR_POLL_CNTL1, NULL, poll_cntl1_write, NULL);
  for (uint32_t reg = VAPU_HQD_FIRST_REG; reg <= VAPU_HQD_LAST_REG; reg++)
    vapu_reg_hook(v, v->gfx.gc_base + reg, hqd_read, hqd_write, NULL);
}
