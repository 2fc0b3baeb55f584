/*
 * cp.h - the virtual APU's command processor for compute: the MEC
 * firmware's AQL packet processor, as the hardware queue descriptors (HQDs)
 * hand queues to it.
 *
 * Who calls what:
 *   - vapu_create / vapu_destroy call vapu_cp_init / vapu_cp_fini: the
 *     engine registers as a service of the model's worker (vapu_add_service)
 *     and runs there (host: the model's thread; image: its own core).
 *   - The HQD register file (the model's MEC block) calls
 *     vapu_cp_queue_start when the driver activates a queue
 *     (CP_HQD_ACTIVE = 1 over programming the MEC firmware can run:
 *     vapu/vapu_hqd.c says what it checks), with the values the HQD
 *     registers hold, decoded below;
 *     vapu_cp_queue_stop on CP_HQD_DEQUEUE_REQUEST; and reads
 *     vapu_cp_queue_active for CP_HQD_ACTIVE while the driver polls it.
 *   - Where the engine's write pointer comes from, as on gfx9: the HQD's
 *     CP_HQD_PQ_WPTR at activation, then doorbell writes that reach the
 *     queue (decoded by the HQD block: vapu_doorbell_write) and reads of
 *     CP_HQD_PQ_WPTR_POLL_ADDR, which the MEC makes once when asked
 *     (CP_PQ_WPTR_POLL_CNTL1) and periodically only while
 *     CP_PQ_WPTR_POLL_CNTL.EN is set (reset: off). Packets beyond the write
 *     pointer are not seen, whatever amd_queue_t.write_dispatch_id says.
 *     With nothing to do the engine sleeps on the worker (no core spins).
 *
 * What the engine does with a queue (HSA Platform System Architecture 1.2,
 * 2.9 "Architected Queuing Language"; HSA Runtime PRM 1.2, 2.8 packets):
 * packets from its read pointer (CP_HQD_PQ_RPTR at activation, reported to
 * amd_queue_t.read_dispatch_id) up to its write pointer, read
 * through the GMC with the queue's VMID (client CPC); a slot whose header is
 * still INVALID is a packet not yet published (waits); type, reserved
 * header bits and fence scopes checked; kernel dispatch run work-group by
 * work-group on the gfx9 interpreter (vapu/isa/dispatch.h); barrier-AND/OR
 * wait on their dependent signals; the slot handed back (header INVALID,
 * read_dispatch_id advanced); the completion signal decremented atomically,
 * its time stamps written when the queue has profiling on
 * (amd_queue_t.queue_properties ENABLE_PROFILING), its event mailbox
 * written and an end-of-pipe interrupt raised when it has one.
 *
 * Errors: a packet the firmware rejects, or a wave that stops (illegal
 * instruction, memory violation, s_trap 2), halts that queue only; the
 * others go on. What the runtime hears, as on gfx9 with ROCr:
 *   - a rejected packet: the firmware writes its code (below) into
 *     amd_queue_t.queue_inactive_signal (value swapped in, the signal's
 *     event raised), as ROCr's AqlQueue expects;
 *   - a wave error: the SQ error interrupt (IH client SE0SH, source
 *     SQ_INTERRUPT_MSG, ERROR encoding, type ILLEGAL_INST or MEMVIOL) with
 *     the queue's VMID, which the driver's fault path turns into the
 *     queue's error; and, as ROCr's gfx9 trap handler does, the code of an
 *     illegal instruction, an aperture violation or an s_trap 2 in
 *     queue_inactive_signal (a trap raises no SQ error);
 *   - a page fault (a wave's or the CP's own access): the GMC raises it
 *     (fault status registers, IH entry with the VMID) when the access is
 *     made; the queue halts without a code (the trap handler stays silent
 *     on those: the VM fault interrupt reports them).
 */
#ifndef VAPU_CP_H
#define VAPU_CP_H

#include <stdbool.h>
#include <stdint.h>

#include "vapu/vapu.h"

/* HQD slots: MEC1 and MEC2 (me 1, 2), 4 pipes each, 8 queues per pipe
 * (Linux gfx_v9_0.c: mec.num_mec, num_pipe_per_mec, num_queue_per_pipe). */
#define VAPU_CP_MES 2
#define VAPU_CP_PIPES 4
#define VAPU_CP_QUEUES 8

/* What an activated HQD holds, decoded from its registers (offsets and
 * fields: Linux gc_9_1_offset.h / gc_9_1_sh_mask.h; how KFD fills them:
 * kfd_mqd_manager_v9.c init_mqd/update_mqd; struct v9_mqd in v9_structs.h).
 * All addresses are GPU virtual addresses in `vmid`. */
struct vapu_cp_queue_regs {
  uint64_t mqd_address;         /* CP_MQD_BASE_ADDR/_HI */
  uint64_t ring_address;        /* CP_HQD_PQ_BASE/_HI << 8: the AQL packet ring */
  uint64_t ring_bytes;          /* 4 << (CP_HQD_PQ_CONTROL.QUEUE_SIZE + 1) */
  uint64_t rptr_report_address; /* CP_HQD_PQ_RPTR_REPORT_ADDR/_HI: amd_queue_t.read_dispatch_id */
  uint64_t wptr_poll_address;   /* CP_HQD_PQ_WPTR_POLL_ADDR/_HI: amd_queue_t.write_dispatch_id */
  uint64_t read_index;          /* CP_HQD_PQ_RPTR: where the queue starts (AQL packets) */
  uint64_t write_index;         /* CP_HQD_PQ_WPTR_LO/_HI: packets before it are published */
  uint32_t doorbell_offset;     /* CP_HQD_PQ_DOORBELL_CONTROL.DOORBELL_OFFSET: dword index in BAR2 */
  uint64_t eop_address;         /* CP_HQD_EOP_BASE_ADDR/_HI << 8 */
  uint32_t eop_bytes;           /* 4 << (CP_HQD_EOP_CONTROL.EOP_SIZE + 1) */
  uint8_t vmid;                 /* CP_HQD_VMID */
  bool aql;                     /* CP_HQD_AQL_CONTROL.CONTROL0 */
  /* The MQD's COMPUTE_STATIC_THREAD_MGMT_SE0..3: SH0_CU_EN [15:0] and
   * SH1_CU_EN [31:16] of each SE, bit n = the n-th active CU of the SH
   * (Linux kfd_mqd_manager.c mqd_symmetrically_map_cu_mask: the hardware
   * places harvested CUs itself, the masks count active ones). */
  uint32_t cu_enable[4];
  /* SH_MEM_BASES of the queue's VMID (SRBM-selected): PRIVATE_BASE [15:0]
   * and SHARED_BASE [31:16] are bits 63:48 of the flat scratch and LDS
   * apertures (gc_9_1_sh_mask.h; Linux gfx_v9_0_init_compute_vmid). */
  uint32_t sh_mem_bases;
};

/* Error codes the engine writes into amd_queue_t.queue_inactive_signal's
 * value, with ROCr's meaning (ROCR-Runtime src/core/runtime/amd_aql_queue.cpp,
 * AqlQueue::DynamicQueueEventsHandler; the gfx9 trap handler's SIGNAL_CODE_*
 * in src/core/inc/amd_blit_shaders.h, kCodeTrapHandler9). */
#define VAPU_CP_ERROR_SCRATCH            0x1ull        /* insufficient scratch: queue waits until the value is 0 again */
#define VAPU_CP_ERROR_INVALID_DIM        0x2ull        /* HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS */
#define VAPU_CP_ERROR_GROUP_MEMORY       0x4ull        /* HSA_STATUS_ERROR_INVALID_ALLOCATION; also
                                                          segments smaller than the kernel's */
#define VAPU_CP_ERROR_INVALID_CODE       0x8ull        /* HSA_STATUS_ERROR_INVALID_CODE_OBJECT */
#define VAPU_CP_ERROR_INVALID_FORMAT     0x20ull       /* HSA_STATUS_ERROR_INVALID_PACKET_FORMAT */
#define VAPU_CP_ERROR_GROUP_TOO_LARGE    0x40ull       /* HSA_STATUS_ERROR_INVALID_ARGUMENT */
#define VAPU_CP_ERROR_OUT_OF_VGPRS       0x80ull       /* HSA_STATUS_ERROR_OUT_OF_REGISTERS */
#define VAPU_CP_ERROR_VENDOR_FORMAT      0x100ull      /* HSA_STATUS_ERROR_INVALID_PACKET_FORMAT */
#define VAPU_CP_ERROR_MEMORY_VIOLATION   0x20000000ull /* HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION */
#define VAPU_CP_ERROR_ILLEGAL_INSTRUCTION 0x40000000ull /* HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION */
#define VAPU_CP_ERROR_TRAP               0x80000000ull /* s_trap 2 (llvm.trap): HSA_STATUS_ERROR_EXCEPTION */
/* Creates the engine of `v` and registers it with the model's worker.
 * 0 or a negative errno. */
int vapu_cp_init(struct vapu *v);
void vapu_cp_fini(struct vapu *v);

/* The HQD (me, pipe, queue) became active with `regs`. 0, -EINVAL (slot out
 * of range, not an AQL queue, ring size not a power of two of 64-byte
 * packets, unaligned addresses: logged), -EBUSY (the slot is active). */
int vapu_cp_queue_start(struct vapu *v, unsigned me, unsigned pipe, unsigned queue,
                        const struct vapu_cp_queue_regs *regs);

/* Dequeue requests (CP_HQD_DEQUEUE_REQUEST.DEQUEUE_REQ; Linux
 * amdgpu_amdkfd_gfx_v9.c: DRAIN_PIPE 1, RESET_WAVES 2, SAVE_WAVES 3).
 *   - VAPU_CP_RESET: the engine leaves the queue at its next check (a
 *     running work-group is abandoned within a few thousand instructions;
 *     the packet stays unfinished: the read pointer stays at it).
 *   - VAPU_CP_DRAIN: no packet starts any more; a kernel dispatch in
 *     progress runs to its end and completes, then the engine leaves (a
 *     barrier still waiting, or a dispatch waiting for scratch, is left
 *     unstarted). Nothing is lost or done twice when the queue is loaded
 *     again from its saved read and write pointers. KFD evicts and
 *     restores queues this way without the HWS (kfd_device_queue_manager.c
 *     evict_process_queues_nocpsch: WAVEFRONT_DRAIN, then load_mqd of the
 *     MQD the CP left). SAVE_WAVES (context save, which needs a save area
 *     the model does not implement) is taken as a drain.
 * A reset overrides a drain in progress. Returns at once;
 * vapu_cp_queue_active turns false when the engine no longer touches the
 * queue. Safe from any thread, including the engine's own (an interrupt
 * handler that destroys the queue). */
enum vapu_cp_dequeue { VAPU_CP_DRAIN, VAPU_CP_RESET };
void vapu_cp_queue_stop(struct vapu *v, unsigned me, unsigned pipe, unsigned queue,
                        enum vapu_cp_dequeue how);
bool vapu_cp_queue_active(struct vapu *v, unsigned me, unsigned pipe, unsigned queue);

/* A doorbell write that reached the queue, or a write pointer the MEC read:
 * packets before `write_index` are published (a doorbell carries the index
 * of the packet just written, HSA PRM 2.8.3, so the caller passes it + 1).
 * The write pointer never moves back: producers may ring out of order. */
void vapu_cp_queue_write_pointer(struct vapu *v, unsigned me, unsigned pipe, unsigned queue,
                                 uint64_t write_index);
/* A one-shot read of the queue's CP_HQD_PQ_WPTR_POLL_ADDR (through the GMC,
 * at the engine's next turn). */
void vapu_cp_queue_poll_write_pointer(struct vapu *v, unsigned me, unsigned pipe, unsigned queue);
/* The queue's read and write pointers now, as the HQD registers show them. */
void vapu_cp_queue_pointers(struct vapu *v, unsigned me, unsigned pipe, unsigned queue,
                            uint64_t *read_index, uint64_t *write_index);

/* Counters, for tests and benchmarks. */
struct vapu_cp_stats {
  uint64_t packets, dispatches, workgroups, barriers, queue_errors, eop_interrupts;
};
void vapu_cp_get_stats(struct vapu *v, struct vapu_cp_stats *out);

#endif
