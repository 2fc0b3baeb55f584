/*
 * dispatch.h - the gfx9 (GCN5, "Vega") wave64 interpreter as the command
 * processor sees it: start a dispatch, run its work-groups one at a time,
 * get back completion or the error that stopped it.
 *
 *   struct vapu_exec *x = vapu_exec_create(mem);       // once per CP thread
 *   struct vapu_dispatch d = { .kernel_object = ..., ... };  // from the AQL packet
 *   struct vapu_stop stop;
 *   if (vapu_dispatch_begin(x, &d, &stop) == VAPU_OK)
 *     for each work-group id (x, y, z) in the grid:
 *       if (vapu_run_workgroup(x, wg, &stop) != VAPU_OK) break;  // queue error
 *
 * A work-group runs to completion inside vapu_run_workgroup: its waves are
 * interleaved (round robin, a wave yields at s_barrier, s_sleep, s_endpgm or
 * after a time slice), its LDS is private to the call. Memory is synchronous
 * in the model: s_waitcnt is accepted and returns at once.
 *
 * Everything here is hardware behaviour; the mapping of a stop reason to an
 * HSA status (HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION, _MEMORY_FAULT,
 * _MEMORY_APERTURE_VIOLATION, _EXCEPTION) is the CP's, see vapu_stop_reason.
 */
#ifndef VAPU_ISA_DISPATCH_H
#define VAPU_ISA_DISPATCH_H

#include <stdbool.h>
#include <stdint.h>

#include <hsa/amd_hsa_kernel_code.h>

#include "vapu/isa/mem.h"

/* Why a dispatch or a work-group stopped. */
enum vapu_result {
  VAPU_OK = 0,
  VAPU_ILLEGAL_INSTRUCTION, /* unknown or malformed instruction: pc, words */
  VAPU_MEMORY_FAULT,        /* unmapped VA or access not permitted: address, access */
  VAPU_APERTURE_VIOLATION,  /* FLAT access in the address hole or across regions: address */
  VAPU_TRAP,                /* s_trap that ends the queue (llvm.trap): trap_id */
  VAPU_HALTED,              /* s_sethalt 1: the wave stops for a debugger */
  VAPU_ABORTED,             /* the CP's abort flag was set (queue destroy, timeout) */
  VAPU_BAD_DISPATCH,        /* descriptor or dispatch fields the hardware rejects */
};

/* What stopped the work-group, for the queue's error report. */
struct vapu_stop {
  enum vapu_result result;
  uint32_t workgroup[3]; /* work-group id */
  uint32_t wave;         /* wave index in the work-group */
  uint64_t pc;           /* address of the instruction (GPU VA) */
  uint32_t words[3];     /* its raw dwords (as many as nwords) */
  uint32_t nwords;
  uint64_t address;      /* VAPU_MEMORY_FAULT / VAPU_APERTURE_VIOLATION: the VA */
  uint32_t access;       /* VAPU_ACCESS_* of the faulting access */
  uint32_t trap_id;      /* VAPU_TRAP: the s_trap immediate */
  char detail[96];       /* one line: what was wrong, for logs */
};

/* Shared and private apertures for flat addressing, as SH_MEM_BASES gives
 * them (Vega ISA, "Flat memory: addressing"; AMDGPUUsage "Address Spaces"):
 * a flat address whose bits 63:48 equal a base's bits 63:48 goes to LDS
 * (shared) or to the wave's scratch (private), anything else to global
 * memory. The CP fills these from the queue's apertures (amd_queue_t
 * group_segment_aperture_base_hi / private_segment_aperture_base_hi << 32).
 * Bits 47:0 of each base must be zero. */
struct vapu_apertures {
  uint64_t shared_base;
  uint64_t private_base;
};

/* One AQL kernel dispatch, as the CP has read it from the packet and the
 * queue (HSA "Kernel Dispatch Packet"; amd_queue_t scratch fields). All
 * addresses are GPU VAs. */
struct vapu_dispatch {
  uint64_t kernel_object;   /* the kernel descriptor (64 bytes, 64-aligned) */
  uint64_t kernarg_address; /* kernarg segment */
  uint64_t packet_address;  /* the AQL packet: the "dispatch ptr" user SGPRs */
  uint64_t queue_address;   /* amd_queue_t: the "queue ptr" user SGPRs */
  uint64_t dispatch_id;     /* the packet's index in the queue */
  uint32_t grid_size[3];    /* work-items per dimension (>= 1) */
  uint16_t workgroup_size[3]; /* work-items per work-group dimension (>= 1) */
  uint32_t group_segment_size;   /* LDS bytes per work-group (packet) */
  uint32_t private_segment_size; /* scratch bytes per work-item (packet) */
  /* Scratch, from amd_queue_t, used when the kernel enables its private
   * segment: the V# given as the private segment buffer, the backing memory
   * (flat scratch init is its address) and the per-lane size of one wave's
   * slot. A wave's slot is (scratch_first_wave + wave index in work-group). */
  uint32_t scratch_resource[4];
  uint64_t scratch_backing;      /* scratch_backing_memory_location */
  uint64_t scratch_backing_size; /* scratch_backing_memory_byte_size */
  uint32_t scratch_lane_bytes;   /* scratch_wave64_lane_byte_size */
  uint32_t scratch_first_wave;   /* first wave slot this context may use */
  struct vapu_apertures apertures;
  /* Set (non-zero) by anyone to stop the running work-group at the next
   * check (at most a few thousand instructions later). May be NULL. */
  const volatile uint32_t *abort_flag;
  /* Called between rounds of time slices while a work-group runs (may be
   * NULL): the command processor answers other queues there (a dequeue
   * request must not wait for this work-group's end). */
  void (*between_slices)(void *ctx);
  void *between_slices_ctx;
};

struct vapu_exec; /* one interpreter context: waves, LDS, TLB, decoded code */

/* Creates a context that reaches memory through `mem` (kept, not copied).
 * NULL when out of memory. */
struct vapu_exec *vapu_exec_create(struct vapu_mem *mem);
void vapu_exec_destroy(struct vapu_exec *x);

/* Why the descriptor read at `kernel_object` cannot be a gfx9 kernel
 * descriptor (AMDGPUUsage: reserved fields, wave64, user SGPR count, code
 * entry), or NULL. vapu_dispatch_begin checks it; the CP too, before it
 * uses the descriptor's segment sizes. */
const char *vapu_kernel_descriptor_problem(const amd_kernel_descriptor_t *kd, uint64_t kernel_object);

/* Reads and checks the kernel descriptor and the dispatch fields, drops the
 * decoded-instruction cache (the packet processor's instruction cache
 * invalidate at dispatch start) and keeps a copy of *d for the work-groups.
 * VAPU_OK, or the reason with `stop` filled (VAPU_BAD_DISPATCH,
 * VAPU_MEMORY_FAULT on the descriptor). */
enum vapu_result vapu_dispatch_begin(struct vapu_exec *x, const struct vapu_dispatch *d,
                                     struct vapu_stop *stop);

/* Runs every wave of work-group `wg` (ids per dimension, each below the
 * grid's work-group count) to its end. `hw_id` holds the HW_ID fields the
 * hardware gives all waves of the group (where it runs: ME_ID, PIPE_ID,
 * QUEUE_ID, VM_ID, SE_ID, SH_ID, CU_ID; gc_9_0_sh_mask.h SQ_WAVE_HW_ID);
 * each wave adds its WAVE_ID and SIMD_ID. VAPU_OK, or the first error,
 * with `stop` filled; the other waves of the work-group are discarded. */
enum vapu_result vapu_run_workgroup(struct vapu_exec *x, const uint32_t wg[3], uint32_t hw_id,
                                    struct vapu_stop *stop);

/* Counters since creation, for benchmarks and logs. */
struct vapu_exec_stats {
  uint64_t instructions;      /* wave instructions executed */
  uint64_t lane_instructions; /* sum over VALU instructions of active lanes */
  uint64_t waves;             /* waves started */
  uint64_t decoded;           /* instructions decoded (cache misses) */
};
void vapu_exec_get_stats(const struct vapu_exec *x, struct vapu_exec_stats *out);

/* Short name of a result ("illegal instruction", ...), for logs. */
const char *vapu_result_name(enum vapu_result r);

#endif
