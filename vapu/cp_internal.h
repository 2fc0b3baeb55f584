/*
 * cp_internal.h - the command processor engine's state, shared by its
 * files: cp.c (HQD slots, the worker service, start/stop), cp_packet.c
 * (the AQL packet processor), cp_mem.c (the interpreter's memory through
 * the GMC).
 */
#ifndef VAPU_CP_INTERNAL_H
#define VAPU_CP_INTERNAL_H

#include <hsa/hsa.h>

#include "vapu/cp.h"
#include "vapu/isa/dispatch.h"
#include "vapu/vapu.h"

/* The interpreter's view of memory for one queue: GPU virtual addresses of
 * the queue's VMID, translated by the GMC as the shader's requests (client
 * TCP) so that faults are raised with status registers and an IH entry. */
struct cp_mem {
  struct vapu_mem mem; /* first: what vapu_exec_create gets */
  struct vapu *v;
  struct vapu_requester rq;
  struct vapu_tlb tlb;
  uint32_t hub_generation; /* of the VMID's invalidations, when the interpreter last synced */
};

void cp_mem_init(struct cp_mem *m, struct vapu *v, uint8_t vmid);
/* Before a dispatch: the translations the interpreter keeps are dropped
 * when the VMID was invalidated since the last dispatch (a remap comes with
 * an invalidation, as on silicon, where the TLBs keep their entries across
 * dispatches until one). */
void cp_mem_sync(struct cp_mem *m);

/* Where a queue is in its packet stream. */
enum hqd_state {
  HQD_IDLE,         /* between packets */
  HQD_DISPATCHING,  /* a kernel dispatch has work-groups left */
  HQD_SCRATCH_WAIT, /* asked the runtime for scratch; waits for queue_inactive_signal == 0 */
  HQD_HALTED,       /* stopped on an error; waits to be dequeued */
};

/* A CU a queue's work-groups may run on: its shader engine, shader array
 * and physical CU number (the HW_ID fields SE_ID, SH_ID, CU_ID). */
struct cp_cu {
  uint8_t se, sh, cu;
};
/* COMPUTE_STATIC_THREAD_MGMT_SE0..3 name 16 CUs of each of 2 SHs of 4 SEs. */
#define CP_MAX_CUS (4 * 2 * 16)

struct hqd {
  struct vapu_cp *cp;
  unsigned me, pipe, queue;
  uint32_t active;                 /* HQD owned by the engine (CP_HQD_ACTIVE); __atomic accesses */
  bool in_service;                 /* its turn is under way (maybe with others' inside) */
  /* Dequeue requests (CP_HQD_DEQUEUE_REQUEST): reset, which is also the
   * interpreter's abort flag, and drain, which lets the dispatch in
   * progress finish and the queue go at the next packet boundary. */
  volatile uint32_t stop_requested;
  volatile uint32_t drain_requested;
  struct vapu_cp_queue_regs regs;
  uint64_t queue_va;     /* amd_queue_t */
  uint64_t packet_count; /* ring slots */
  uint64_t read_index;   /* CP_HQD_PQ_RPTR: the next packet */
  uint64_t write_index;  /* CP_HQD_PQ_WPTR: packets before it are published; __atomic accesses */
  volatile uint32_t poll_requested; /* a one-shot read of the write pointer poll address */
  struct vapu_requester rq; /* the CP's own accesses: client CPC, coherent (AQL memory) */
  struct vapu_requester rq_code; /* its kernel descriptor fetches: not coherent */
  struct vapu_tlb tlb;
  struct cp_mem mem;
  struct vapu_exec *exec; /* created at start, for the queue's lifetime */
  enum hqd_state state;
  /* Where its work-groups run: the CUs its MQD's CU masks enable, in the
   * order work-groups are handed out (round robin from the dispatch's
   * first group). */
  struct cp_cu cus[CP_MAX_CUS];
  unsigned cu_count, next_cu;
  /* The kernel dispatch in progress. */
  hsa_kernel_dispatch_packet_t packet;
  uint64_t packet_va;
  uint32_t groups[3];
  uint64_t next_group, group_count;
  uint64_t start_ns;
};

struct vapu_cp {
  struct vapu *v;
  struct hqd hqd[VAPU_CP_MES][VAPU_CP_PIPES][VAPU_CP_QUEUES];
  unsigned next; /* round-robin cursor over the flat HQD index */
  unsigned nested_turns;  /* turns given inside a long work-group, now */
  uint64_t last_turns_ns; /* when they were last given */
  struct vapu_cp_stats stats;
};

/* A dequeue request the queue must answer now: a reset at once, a drain
 * unless a dispatch is in progress. */
static inline bool cp_must_leave(const struct hqd *h) {
  return __atomic_load_n(&h->stop_requested, __ATOMIC_ACQUIRE) ||
         (__atomic_load_n(&h->drain_requested, __ATOMIC_ACQUIRE) && h->state != HQD_DISPATCHING);
}

/* cp.c: called by a long work-group of `running` between its time slices:
 * lets go of every other queue with a dequeue request (a queue can be
 * destroyed or aborted while another one runs), and gives the others their
 * turns (cp.c says how often). */
void cp_between_slices(struct hqd *running);

/* cp_packet.c: serves one queue for at most `budget_ns`; true if it made
 * progress (a packet or a work-group). */
bool cp_serve_queue(struct hqd *h, uint64_t budget_ns);
/* cp_packet.c: reads the queue's write pointer poll address once; true if
 * the write pointer moved (false too when the read faulted: the queue halts). */
bool cp_poll_write_pointer(struct hqd *h);

static inline void cp_stat_add(uint64_t *counter, uint64_t n) {
  __atomic_add_fetch(counter, n, __ATOMIC_RELAXED);
}

#endif
