/*
 * cp.c - the command processor's compute engine: the HQD slots of MEC1 and
 * MEC2, their activation and dequeue, and the service the model's worker
 * runs (vapu_add_service). The packet processing itself is cp_packet.c.
 *
 * The worker calls the service in a loop; each call gives every active
 * queue a time slice (round robin, so a long dispatch on one queue does not
 * starve the others) and returns whether anything moved. When nothing did,
 * the worker sleeps until vapu_kick (a doorbell, a register write) or its
 * idle tick: no core spins while the queues are empty or blocked.
 *
 * On the chip the queues' work-groups run at once on different CUs; here
 * one runs at a time, so a work-group that runs long (one that waits for
 * memory another queue's kernel writes, say) gives the other queues turns
 * between its time slices: every millisecond each of them runs for up to
 * 200 us, nested at most a few queues deep. Dequeue requests are answered
 * there too.
 */
#define LOG_TAG "vapu-cp"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <hsa/amd_hsa_queue.h>

#include "lib/plat.h"
#include "vapu/cp_internal.h"
#include "vapu/vapu_internal.h"
#include "lib/util.h"

#define SLICE_NS 2000000ull /* longest turn of one queue per service call */
#define TURNS_PERIOD_NS 1000000ull /* other queues' turns inside a long work-group: every 1 ms */
#define NESTED_SLICE_NS 200000ull  /* ... each for up to 200 us */
#define MAX_NESTED_TURNS 4         /* queues running work-groups inside each other's */
#define HQD_COUNT (VAPU_CP_MES * VAPU_CP_PIPES * VAPU_CP_QUEUES)

static struct hqd *hqd_at(struct vapu_cp *cp, unsigned flat) {
  return &cp->hqd[flat / (VAPU_CP_PIPES * VAPU_CP_QUEUES)][flat / VAPU_CP_QUEUES % VAPU_CP_PIPES]
                 [flat % VAPU_CP_QUEUES];
}

/* me is 1-based as in the hardware (MEC1 = ME 1); NULL when out of range. */
static struct hqd *hqd_of(struct vapu *v, unsigned me, unsigned pipe, unsigned queue) {
  if (!v->cp || me < 1 || me > VAPU_CP_MES || pipe >= VAPU_CP_PIPES || queue >= VAPU_CP_QUEUES)
    return NULL;
  return &v->cp->hqd[me - 1][pipe][queue];
}

/* The engine lets go of a queue: after this it touches none of its memory. */
static void hqd_leave(struct hqd *h) {
  if (h->exec) vapu_exec_destroy(h->exec);
  h->exec = NULL;
  h->state = HQD_IDLE;
  __atomic_store_n(&h->active, 0, __ATOMIC_RELEASE);
  log_debug("ME %u pipe %u queue %u: dequeued at packet %llu", h->me, h->pipe, h->queue,
            (unsigned long long)h->read_index);
}

/* One turn of a queue: it leaves if a dequeue asks it to, reads its write
 * pointer when asked or polling, and runs for at most `budget_ns`. True if
 * anything moved. */
static bool serve_turn(struct vapu *v, struct hqd *h, uint64_t budget_ns) {
  if (!__atomic_load_n(&h->active, __ATOMIC_ACQUIRE) || h->in_service) return false;
  /* A halted MEC (CP_MEC_CNTL) touches nothing: its queues wait. */
  if (!vapu_mec_running(v, h->me)) return false;
  if (cp_must_leave(h)) {
    hqd_leave(h);
    return true;
  }
  h->in_service = true;
  bool busy = false;
  if (__atomic_exchange_n(&h->poll_requested, 0, __ATOMIC_ACQ_REL) || vapu_wptr_polling(v, h->me, h->pipe, h->queue))
    busy |= cp_poll_write_pointer(h);
  busy |= cp_serve_queue(h, budget_ns);
  h->in_service = false;
  return busy;
}

void cp_between_slices(struct hqd *running) {
  struct vapu_cp *cp = running->cp;
  for (unsigned n = 0; n < HQD_COUNT; n++) {
    struct hqd *h = hqd_at(cp, n);
    if (h->in_service || !__atomic_load_n(&h->active, __ATOMIC_ACQUIRE) || !vapu_mec_running(cp->v, h->me))
      continue;
    if (cp_must_leave(h)) hqd_leave(h);
  }
  uint64_t now = plat_now_ns();
  if (cp->nested_turns >= MAX_NESTED_TURNS || now - cp->last_turns_ns < TURNS_PERIOD_NS) return;
  cp->last_turns_ns = now;
  cp->nested_turns++;
  for (unsigned n = 0; n < HQD_COUNT; n++) serve_turn(cp->v, hqd_at(cp, n), NESTED_SLICE_NS);
  cp->nested_turns--;
}

static bool cp_service(struct vapu *v, void *ctx) {
  struct vapu_cp *cp = ctx;
  bool busy = false;
  for (unsigned n = 0; n < HQD_COUNT; n++) busy |= serve_turn(v, hqd_at(cp, (cp->next + n) % HQD_COUNT), SLICE_NS);
  cp->next = (cp->next + 1) % HQD_COUNT;
  return busy;
}

int vapu_cp_init(struct vapu *v) {
  struct vapu_cp *cp = plat_protected_alloc(sizeof *cp);
  if (!cp) return -ENOMEM;
  cp->v = v;
  for (unsigned i = 0; i < HQD_COUNT; i++) {
    struct hqd *h = hqd_at(cp, i);
    h->cp = cp;
    h->me = i / (VAPU_CP_PIPES * VAPU_CP_QUEUES) + 1;
    h->pipe = i / VAPU_CP_QUEUES % VAPU_CP_PIPES;
    h->queue = i % VAPU_CP_QUEUES;
  }
  v->cp = cp;
  int r = vapu_add_service(v, cp_service, cp);
  if (r) {
    v->cp = NULL;
    plat_protected_free(cp);
  }
  return r;
}

/* After the worker stopped: frees what active queues still hold. */
void vapu_cp_fini(struct vapu *v) {
  struct vapu_cp *cp = v->cp;
  if (!cp) return;
  for (unsigned i = 0; i < HQD_COUNT; i++)
    if (hqd_at(cp, i)->exec) vapu_exec_destroy(hqd_at(cp, i)->exec);
  plat_protected_free(cp);
  v->cp = NULL;
}


/* What the firmware refuses to run; the HQD model checks the registers'
 * own consistency before it calls us. */
static const char *regs_problem(const struct vapu_cp_queue_regs *r) {
  if (!r->aql) return "not an AQL queue (CP_HQD_AQL_CONTROL.CONTROL0 = 0): PM4 queues are not modelled";
  if (!IS_POW2(r->ring_bytes) || r->ring_bytes < 64 * 2)
    return "ring size is not a power of two of at least two 64-byte packets";
  if (r->ring_address & 0xff) return "ring base not 256-byte aligned";
  /* The CP finds amd_queue_t from the read pointer's address: ROCr sets
   * read_dispatch_id_field_base_byte_offset to its offset, 128. */
  if ((r->rptr_report_address & 7) || r->rptr_report_address < offsetof(amd_queue_t, read_dispatch_id))
    return "read pointer report address is not amd_queue_t.read_dispatch_id";
  if (r->wptr_poll_address & 7) return "write pointer poll address not 8-byte aligned";
  if (r->vmid > 15) return "VMID beyond 15";
  if (r->read_index > r->write_index) return "read pointer beyond the write pointer";
  return NULL;
}

/* The CUs the masks enable, in the order the work-groups go to them: CU
 * by CU, each spread over the SHs and SEs (the order in which Linux's
 * mqd_symmetrically_map_cu_mask hands out a queue's CU mask bits). A mask
 * bit counts the active CUs of its SH; harvested ones (INACTIVE_CUS of
 * CC_GC_SHADER_ARRAY_CONFIG, and GC_USER_SHADER_ARRAY_CONFIG for the ones
 * the driver turns off; gc_9_1_sh_mask.h) are skipped. */
static unsigned enabled_cus(struct vapu *v, const uint32_t cu_enable[4], struct cp_cu *out) {
  const struct vapu_chip_desc *chip = v->chip;
  uint32_t inactive = (vapu_reg_get(v, v->gfx.gc_base + GC_CC_GC_SHADER_ARRAY_CONFIG) |
                       vapu_reg_get(v, v->gfx.gc_base + GC_GC_USER_SHADER_ARRAY_CONFIG)) >> 16;
  unsigned ses = chip->shader_engines < 4 ? chip->shader_engines : 4;
  unsigned shs = chip->sh_per_se < 2 ? chip->sh_per_se : 2;
  unsigned cus = chip->cu_per_sh < 16 ? chip->cu_per_sh : 16;
  uint8_t physical[16];
  unsigned active = 0;
  for (unsigned cu = 0; cu < cus; cu++)
    if (!(inactive & (1u << cu))) physical[active++] = (uint8_t)cu;
  unsigned n = 0;
  for (unsigned logical = 0; logical < active; logical++)
    for (unsigned sh = 0; sh < shs; sh++)
      for (unsigned se = 0; se < ses; se++)
        if (cu_enable[se] >> (sh * 16) & (1u << logical))
          out[n++] = (struct cp_cu){(uint8_t)se, (uint8_t)sh, physical[logical]};
  return n;
}

int vapu_cp_queue_start(struct vapu *v, unsigned me, unsigned pipe, unsigned queue,
                        const struct vapu_cp_queue_regs *regs) {
  struct hqd *h = hqd_of(v, me, pipe, queue);
  if (!h || !regs) {
    log_error("queue start: no HQD ME %u pipe %u queue %u", me, pipe, queue);
    return -EINVAL;
  }
  if (__atomic_load_n(&h->active, __ATOMIC_ACQUIRE)) return -EBUSY;
  const char *why = regs_problem(regs);
  if (why) {
    log_error("ME %u pipe %u queue %u not started: %s", me, pipe, queue, why);
    return -EINVAL;
  }
  h->regs = *regs;
  h->queue_va = regs->rptr_report_address - offsetof(amd_queue_t, read_dispatch_id);
  h->packet_count = regs->ring_bytes / 64;
  /* The CP's AQL accesses are to memory the runtime shares while the GPU
   * runs; the kernel descriptor it fetches is code-object data. */
  h->rq = (struct vapu_requester){VAPU_GFXHUB, regs->vmid, VAPU_CLIENT_CPC, .coherent = true};
  h->rq_code = (struct vapu_requester){VAPU_GFXHUB, regs->vmid, VAPU_CLIENT_CPC, false};
  memset(&h->tlb, 0, sizeof h->tlb);
  cp_mem_init(&h->mem, v, regs->vmid);
  h->exec = vapu_exec_create(&h->mem.mem);
  if (!h->exec) {
    log_error("ME %u pipe %u queue %u not started: out of memory", me, pipe, queue);
    return -ENOMEM;
  }
  /* Where the HQD registers say the queue is (0 and 0 for a new queue). */
  h->read_index = regs->read_index;
  __atomic_store_n(&h->write_index, regs->write_index, __ATOMIC_RELEASE);
  __atomic_store_n(&h->poll_requested, 0, __ATOMIC_RELAXED);
  h->state = HQD_IDLE;
  h->cu_count = enabled_cus(v, regs->cu_enable, h->cus);
  h->next_cu = 0;
  if (!h->cu_count)
    log_error("ME %u pipe %u queue %u: its MQD's COMPUTE_STATIC_THREAD_MGMT_SE* enable no active CU: "
              "its dispatches never start", me, pipe, queue);
  __atomic_store_n(&h->stop_requested, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&h->drain_requested, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&h->active, 1, __ATOMIC_RELEASE);
  log_debug("ME %u pipe %u queue %u: AQL ring 0x%llx, %llu packets, VMID %u, doorbell %u", me, pipe,
            queue, (unsigned long long)regs->ring_address, (unsigned long long)h->packet_count,
            regs->vmid, regs->doorbell_offset);
  vapu_kick(v);
  return 0;
}

void vapu_cp_queue_stop(struct vapu *v, unsigned me, unsigned pipe, unsigned queue,
                        enum vapu_cp_dequeue how) {
  struct hqd *h = hqd_of(v, me, pipe, queue);
  if (!h) return;
  __atomic_store_n(how == VAPU_CP_RESET ? &h->stop_requested : &h->drain_requested, 1, __ATOMIC_RELEASE);
  vapu_kick(v);
}

bool vapu_cp_queue_active(struct vapu *v, unsigned me, unsigned pipe, unsigned queue) {
  struct hqd *h = hqd_of(v, me, pipe, queue);
  return h && __atomic_load_n(&h->active, __ATOMIC_ACQUIRE);
}

void vapu_cp_queue_write_pointer(struct vapu *v, unsigned me, unsigned pipe, unsigned queue,
                                 uint64_t write_index) {
  struct hqd *h = hqd_of(v, me, pipe, queue);
  if (!h || !__atomic_load_n(&h->active, __ATOMIC_ACQUIRE)) return;
  uint64_t seen = __atomic_load_n(&h->write_index, __ATOMIC_ACQUIRE);
  while (write_index > seen &&
         !__atomic_compare_exchange_n(&h->write_index, &seen, write_index, false, __ATOMIC_ACQ_REL,
                                      __ATOMIC_ACQUIRE)) {
  }
  vapu_kick(v);
}

void vapu_cp_queue_poll_write_pointer(struct vapu *v, unsigned me, unsigned pipe, unsigned queue) {
  struct hqd *h = hqd_of(v, me, pipe, queue);
  if (!h) return;
  __atomic_store_n(&h->poll_requested, 1, __ATOMIC_RELEASE);
  vapu_kick(v);
}

void vapu_cp_queue_pointers(struct vapu *v, unsigned me, unsigned pipe, unsigned queue,
                            uint64_t *read_index, uint64_t *write_index) {
  struct hqd *h = hqd_of(v, me, pipe, queue);
  *read_index = h ? h->read_index : 0;
  *write_index = h ? __atomic_load_n(&h->write_index, __ATOMIC_ACQUIRE) : 0;
}

void vapu_cp_get_stats(struct vapu *v, struct vapu_cp_stats *out) {
  memset(out, 0, sizeof *out);
  if (!v->cp) return;
  const uint64_t *src = (const uint64_t *)&v->cp->stats;
  uint64_t *dst = (uint64_t *)out;
  for (size_t i = 0; i < sizeof *out / sizeof(uint64_t); i++)
    dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
}
