/*
 * cp_packet.c - the AQL packet processor of one queue, as the MEC firmware
 * runs it (HSA Platform System Architecture 1.2, 2.9; HSA Runtime PRM 1.2,
 * 2.8 for the packet formats; ROCR-Runtime amd_aql_queue.cpp for what the
 * runtime expects of the firmware).
 *
 * Every access goes through the GMC with the queue's VMID: the ring, the
 * read and write pointers, amd_queue_t, signals. Packets of a queue run one
 * at a time and in order, each to its end before the next starts, so the
 * barrier bit always holds and acquire/release fences are the ordering of
 * this thread's accesses (memory is coherent in the model).
 */
#define LOG_TAG "vapu-cp"
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <hsa/amd_hsa_kernel_code.h>
#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>
#include <hsa/hsa_ext_amd.h>

#include "lib/plat.h"
#include "vapu/cp_internal.h"
#include "vapu/vapu_internal.h"

/* Interrupt sources (Linux include/soc15_ih_clientid.h,
 * ivsrcid/gfx/irqsrcs_gfx_9_0.h) and the SQ interrupt word (amdkfd
 * kfd_int_process_v9.c: ENCODING at [27:26], error type in
 * KFD_CONTEXT_ID_GET_SQ_INT_DATA bits [23:20], i.e. context_id1 [7:4]). */
#define IH_CLIENT_SE0SH 0x0a
#define IH_CLIENT_GRBM_CP 0x14
#define SRC_CP_END_OF_PIPE 181
#define SRC_SQ_INTERRUPT_MSG 239
#define SQ_WORD_ENCODING_ERROR (2u << 26)
#define SQ_ERROR_ILLEGAL_INST 1
#define SQ_ERROR_MEMVIOL 2

#define WAVE_LANES 64
#define MAX_WORKGROUP_ITEMS 1024 /* gfx9: 16 waves of 64 (AMDGPUUsage, max flat work-group size) */
#define SIGNAL_VALUE_OFFSET offsetof(amd_signal_t, value)

/* The IH ring ID of a CP interrupt: pipe [1:0], ME [3:2], queue [6:4]
 * (Linux gfx_v9_0.c gfx_v9_0_eop_irq). */
static uint8_t ring_id(const struct hqd *h) {
  return (uint8_t)(h->pipe | h->me << 2 | h->queue << 4);
}

/* ---- The CP's own memory accesses ------------------------------------------ */

static bool cp_read(struct hqd *h, uint64_t va, void *dst, size_t n) {
  return vapu_gpu_read(h->cp->v, &h->rq, &h->tlb, va, dst, n) == 0;
}

static bool cp_write(struct hqd *h, uint64_t va, const void *src, size_t n) {
  return vapu_gpu_write(h->cp->v, &h->rq, &h->tlb, va, src, n) == 0;
}

/* Host pointer of a naturally aligned field, for atomics; NULL after a
 * fault or for a misaligned address (callers check alignment first). */
static void *cp_field(struct hqd *h, uint64_t va, size_t n, unsigned access) {
  if (va & (n - 1)) return NULL;
  size_t run;
  void *p = vapu_translate(h->cp->v, &h->rq, &h->tlb, va, access, &run);
  return p && run >= n ? p : NULL;
}

static bool read_u64(struct hqd *h, uint64_t va, uint64_t *out) {
  uint64_t *p = cp_field(h, va, 8, VAPU_GMC_READ);
  if (!p) return false;
  *out = __atomic_load_n(p, __ATOMIC_ACQUIRE);
  return true;
}

static bool write_u64(struct hqd *h, uint64_t va, uint64_t value) {
  uint64_t *p = cp_field(h, va, 8, VAPU_GMC_WRITE);
  if (!p) return false;
  __atomic_store_n(p, value, __ATOMIC_RELEASE);
  return true;
}

/* ---- Signals and interrupts -------------------------------------------------- */

/* A signal with an event mailbox: write its event id there and raise the
 * end-of-pipe interrupt (ROCr's InterruptSignal; the CP's RELEASE_MEM with
 * an interrupt; the trap handler does the same for queue errors). */
static void signal_event(struct hqd *h, uint64_t signal) {
  uint64_t mailbox;
  uint32_t event_id;
  if (!read_u64(h, signal + offsetof(amd_signal_t, event_mailbox_ptr), &mailbox) ||
      !cp_read(h, signal + offsetof(amd_signal_t, event_id), &event_id, 4))
    return;
  if (!mailbox) return;
  if (!cp_write(h, mailbox, &event_id, 4)) return;
  const uint32_t src_data[4] = {event_id, 0, 0, 0}; /* context_id0 = the event */
  if (vapu_ih_post(h->cp->v, IH_CLIENT_GRBM_CP, SRC_CP_END_OF_PIPE, ring_id(h), h->regs.vmid,
                   false, src_data))
    cp_stat_add(&h->cp->stats.eop_interrupts, 1);
}

/* A signal handle is the address of an amd_signal_t, which is 64-byte
 * aligned (ROCr amd_hsa_signal.h AMD_SIGNAL_ALIGN_BYTES): anything else
 * in a packet is no signal. 0 means none. */
static bool is_signal_handle(uint64_t handle) { return (handle & (AMD_SIGNAL_ALIGN_BYTES - 1)) == 0; }

/* Writes `code` into the queue's queue_inactive_signal and raises its event
 * once (the first code wins, as ROCr's trap handler swaps the value in and
 * stays silent when it was already set). False if the queue has no such
 * signal or it is unreachable. */
static bool post_queue_code(struct hqd *h, uint64_t code) {
  uint64_t signal;
  if (!read_u64(h, h->queue_va + offsetof(amd_queue_t, queue_inactive_signal), &signal)) return false;
  if (!signal || !is_signal_handle(signal)) {
    log_error("queue at 0x%llx has %s queue_inactive_signal (0x%llx): the runtime cannot learn of code 0x%llx",
              (unsigned long long)h->queue_va, signal ? "a misaligned" : "no", (unsigned long long)signal,
              (unsigned long long)code);
    return false;
  }
  int64_t *value = cp_field(h, signal + SIGNAL_VALUE_OFFSET, 8, VAPU_GMC_READ | VAPU_GMC_WRITE);
  if (!value) return false;
  if (__atomic_exchange_n(value, (int64_t)code, __ATOMIC_ACQ_REL) == 0) signal_event(h, signal);
  return true;
}

/* Stops the queue on an error; it stays halted until it is dequeued.
 * `code` 0: a page fault, which the GMC has reported already. */
static void queue_error(struct hqd *h, uint64_t code, const char *what) {
  h->state = HQD_HALTED;
  cp_stat_add(&h->cp->stats.queue_errors, 1);
  log_warn("ME %u pipe %u queue %u halted at packet %llu: %s (code 0x%llx)", h->me, h->pipe,
           h->queue, (unsigned long long)h->read_index, what, (unsigned long long)code);
  if (code) post_queue_code(h, code);
}

/* The CP's own access faulted (the GMC raised it): the queue halts. */
static void fetch_fault(struct hqd *h, const char *what) { queue_error(h, 0, what); }

/* The SQ's error interrupt for a wave that stopped on an exception, with the
 * queue's ME/pipe/queue in the ring ID for the driver's fault report. */
static void sq_error_interrupt(struct hqd *h, uint32_t error_type) {
  const uint32_t src_data[4] = {SQ_WORD_ENCODING_ERROR, error_type << 4, 0, 0};
  vapu_ih_post(h->cp->v, IH_CLIENT_SE0SH, SRC_SQ_INTERRUPT_MSG, ring_id(h), h->regs.vmid, false,
               src_data);
}

/* ---- Packet completion ---------------------------------------------------------- */

/* Hands the slot back and completes the packet's signal: header INVALID,
 * read index advanced (the producer may reuse the slot), then the signal's
 * time stamps, its atomic decrement (release: the packet's writes first)
 * and its event. False if one of these accesses faulted. */
static bool complete_packet(struct hqd *h, uint64_t slot, uint64_t start_ns) {
  uint64_t signal;
  if (!cp_read(h, slot + offsetof(hsa_kernel_dispatch_packet_t, completion_signal), &signal, 8))
    return false;
  uint16_t *header = cp_field(h, slot, 2, VAPU_GMC_WRITE);
  if (!header) return false;
  __atomic_store_n(header, (uint16_t)(HSA_PACKET_TYPE_INVALID << HSA_PACKET_HEADER_TYPE),
                   __ATOMIC_RELAXED);
  h->read_index++;
  if (!write_u64(h, h->regs.rptr_report_address, h->read_index)) return false;
  cp_stat_add(&h->cp->stats.packets, 1);
  if (!signal) return true;
  uint32_t properties;
  if (!cp_read(h, h->queue_va + offsetof(amd_queue_t, queue_properties), &properties, 4))
    return false;
  if (properties & AMD_QUEUE_PROPERTIES_ENABLE_PROFILING) {
    uint64_t ts[2] = {start_ns, plat_now_ns()};
    if (!cp_write(h, signal + offsetof(amd_signal_t, start_ts), ts, sizeof ts)) return false;
  }
  int64_t *value = cp_field(h, signal + SIGNAL_VALUE_OFFSET, 8, VAPU_GMC_READ | VAPU_GMC_WRITE);
  if (!value) return false;
  __atomic_sub_fetch(value, 1, __ATOMIC_RELEASE);
  signal_event(h, signal);
  return true;
}

/* ---- Barriers ------------------------------------------------------------------- */

enum wait_result { WAIT_DONE, WAIT_BLOCKED, WAIT_FAULT };

/* Barrier-AND: every dependency at 0; barrier-OR: one of them at 0; no
 * dependency at all: satisfied (HSA PRM 2.8.2-2.8.3). */
static enum wait_result barrier_and_or(struct hqd *h, const hsa_barrier_and_packet_t *p,
                                       bool is_or) {
  bool any = false, any_zero = false, all_zero = true;
  for (int i = 0; i < 5; i++) {
    uint64_t dep = p->dep_signal[i].handle, v;
    if (!dep) continue;
    if (!read_u64(h, dep + SIGNAL_VALUE_OFFSET, &v)) return WAIT_FAULT;
    any = true;
    if (v == 0) any_zero = true;
    else all_zero = false;
  }
  bool done = !any || (is_or ? any_zero : all_zero);
  return done ? WAIT_DONE : WAIT_BLOCKED;
}

/* AMD vendor packet: (value & mask) compared with `value` (hsa_ext_amd.h). */
static enum wait_result barrier_value(struct hqd *h, const hsa_amd_barrier_value_packet_t *p) {
  uint64_t v;
  if (!read_u64(h, p->signal.handle + SIGNAL_VALUE_OFFSET, &v)) return WAIT_FAULT;
  int64_t masked = (int64_t)v & p->mask;
  bool done = false;
  switch (p->cond) {
    case HSA_SIGNAL_CONDITION_EQ: done = masked == p->value; break;
    case HSA_SIGNAL_CONDITION_NE: done = masked != p->value; break;
    case HSA_SIGNAL_CONDITION_LT: done = masked < p->value; break;
    case HSA_SIGNAL_CONDITION_GTE: done = masked >= p->value; break;
  }
  return done ? WAIT_DONE : WAIT_BLOCKED;
}

/* ---- Kernel dispatch ----------------------------------------------------------- */

/* The firmware's checks of a dispatch packet; 0 or the error code. */
static uint64_t check_dispatch(const struct hqd *h, const hsa_kernel_dispatch_packet_t *p) {
  uint32_t dims = p->setup & 3;
  const uint32_t grid[3] = {p->grid_size_x, p->grid_size_y, p->grid_size_z};
  const uint32_t wg[3] = {p->workgroup_size_x, p->workgroup_size_y, p->workgroup_size_z};
  if (dims == 0) return VAPU_CP_ERROR_INVALID_DIM;
  uint64_t items = 1;
  for (uint32_t i = 0; i < 3; i++) {
    /* Sizes are > 0, and 1 in the dimensions the packet does not use. */
    if (grid[i] == 0 || wg[i] == 0) return VAPU_CP_ERROR_INVALID_DIM;
    if (i >= dims && (grid[i] != 1 || wg[i] != 1)) return VAPU_CP_ERROR_INVALID_DIM;
    /* PRM 2.8.1: the grid is not smaller than the work-group. */
    if (wg[i] > grid[i]) return VAPU_CP_ERROR_GROUP_TOO_LARGE;
    items *= wg[i];
  }
  if (items > MAX_WORKGROUP_ITEMS) return VAPU_CP_ERROR_GROUP_TOO_LARGE;
  if (p->kernel_object == 0 || (p->kernel_object & 63)) return VAPU_CP_ERROR_INVALID_CODE;
  if (p->group_segment_size > h->cp->v->chip->lds_bytes) return VAPU_CP_ERROR_GROUP_MEMORY;
  return 0;
}

/* The queue's scratch, as the runtime set it up in amd_queue_t. */
struct queue_scratch {
  uint32_t resource[4];
  uint64_t backing, backing_size;
  uint32_t lane_bytes;
};

static bool read_scratch(struct hqd *h, struct queue_scratch *s) {
  uint64_t q = h->queue_va;
  return cp_read(h, q + offsetof(amd_queue_t, scratch_resource_descriptor), s->resource, 16) &&
         cp_read(h, q + offsetof(amd_queue_t, scratch_backing_memory_location), &s->backing, 8) &&
         cp_read(h, q + offsetof(amd_queue_t, scratch_backing_memory_byte_size), &s->backing_size, 8) &&
         cp_read(h, q + offsetof(amd_queue_t, scratch_wave64_lane_byte_size), &s->lane_bytes, 4);
}

/* HW_ID of the waves of the queue's next work-group: the next CU its
 * masks enable, and the queue's ME, pipe, queue and VMID
 * (gc_9_0_sh_mask.h SQ_WAVE_HW_ID). */
static uint32_t next_placement(struct hqd *h) {
  const struct cp_cu *c = &h->cus[h->next_cu];
  h->next_cu = (h->next_cu + 1) % h->cu_count;
  return (uint32_t)h->pipe << 6 | (uint32_t)c->cu << 8 | (uint32_t)c->sh << 12 | (uint32_t)c->se << 13 |
         (uint32_t)h->regs.vmid << 20 | (uint32_t)h->queue << 24 | (uint32_t)h->me << 30;
}

/* Runs work-groups of the current dispatch until it ends or the budget is
 * spent. */
static void run_workgroups(struct hqd *h, uint64_t deadline) {
  if (!h->cu_count) return; /* no CU may take the work-groups (logged at the start) */
  while (h->next_group < h->group_count) {
    uint64_t g = h->next_group;
    const uint32_t id[3] = {(uint32_t)(g % h->groups[0]), (uint32_t)(g / h->groups[0] % h->groups[1]),
                            (uint32_t)(g / ((uint64_t)h->groups[0] * h->groups[1]))};
    struct vapu_stop stop;
    enum vapu_result r = vapu_run_workgroup(h->exec, id, next_placement(h), &stop);
    if (r == VAPU_OK && h->cp->v->config.workgroup_delay_us)
      plat_sleep_ns((uint64_t)h->cp->v->config.workgroup_delay_us * 1000);
    if (r != VAPU_OK) {
      char what[200];
      snprintf(what, sizeof what, "%s in work-group (%u,%u,%u) wave %u at pc 0x%llx: %s",
               vapu_result_name(r), stop.workgroup[0], stop.workgroup[1], stop.workgroup[2],
               stop.wave, (unsigned long long)stop.pc, stop.detail);
      switch (r) {
        case VAPU_ABORTED: return; /* dequeue: the service lets go of the queue */
        case VAPU_ILLEGAL_INSTRUCTION:
          log_warn("illegal instruction words: 0x%08x 0x%08x 0x%08x (%u)", stop.words[0],
                   stop.words[1], stop.words[2], stop.nwords);
          sq_error_interrupt(h, SQ_ERROR_ILLEGAL_INST);
          queue_error(h, VAPU_CP_ERROR_ILLEGAL_INSTRUCTION, what);
          return;
        case VAPU_MEMORY_FAULT: /* the GMC raised it at the access */
          sq_error_interrupt(h, SQ_ERROR_MEMVIOL);
          queue_error(h, 0, what);
          return;
        case VAPU_APERTURE_VIOLATION:
          sq_error_interrupt(h, SQ_ERROR_MEMVIOL);
          queue_error(h, VAPU_CP_ERROR_MEMORY_VIOLATION, what);
          return;
        case VAPU_TRAP:
        case VAPU_HALTED: queue_error(h, VAPU_CP_ERROR_TRAP, what); return;
        case VAPU_BAD_DISPATCH:
        case VAPU_OK: queue_error(h, VAPU_CP_ERROR_INVALID_CODE, what); return;
      }
    }
    h->next_group++;
    cp_stat_add(&h->cp->stats.workgroups, 1);
    if (plat_now_ns() >= deadline) return;
  }
  /* Release fence: the dispatch's writes before its completion. */
  __atomic_thread_fence(__ATOMIC_RELEASE);
  h->state = HQD_IDLE;
  cp_stat_add(&h->cp->stats.dispatches, 1);
  if (!complete_packet(h, h->packet_va, h->start_ns))
    fetch_fault(h, "completing the dispatch faulted");
}

/* vapu_dispatch's between_slices hook (its context is the running HQD). */
static void between_slices(void *running) { cp_between_slices(running); }

/* Starts the dispatch at `slot` (already copied to h->packet). */
static void start_dispatch(struct hqd *h, uint64_t slot) {
  const hsa_kernel_dispatch_packet_t *p = &h->packet;
  uint64_t code = check_dispatch(h, p);
  if (code) {
    queue_error(h, code, "kernel dispatch packet rejected");
    return;
  }
  /* The segment sizes the packet allocates must hold what the kernel
   * uses (its descriptor's fixed sizes, AMDGPUUsage): with less, LDS or
   * scratch accesses would land outside the allocation or in another
   * wave's scratch, a silent wrong result. */
  amd_kernel_descriptor_t kd;
  if (vapu_gpu_read(h->cp->v, &h->rq_code, &h->tlb, p->kernel_object, &kd, sizeof kd)) {
    fetch_fault(h, "kernel descriptor unreachable");
    return;
  }
  const char *why = vapu_kernel_descriptor_problem(&kd, p->kernel_object);
  if (why) {
    queue_error(h, VAPU_CP_ERROR_INVALID_CODE, why);
    return;
  }
  if (p->group_segment_size < kd.group_segment_fixed_size ||
      p->private_segment_size < kd.private_segment_fixed_size) {
    char what[160];
    snprintf(what, sizeof what, "segments of %u group / %u private bytes, the kernel needs %u / %u",
             p->group_segment_size, p->private_segment_size, kd.group_segment_fixed_size,
             kd.private_segment_fixed_size);
    queue_error(h, VAPU_CP_ERROR_GROUP_MEMORY, what);
    return;
  }
  uint64_t wg_items = (uint64_t)p->workgroup_size_x * p->workgroup_size_y * p->workgroup_size_z;
  struct queue_scratch s = {0};
  if (!read_scratch(h, &s)) {
    fetch_fault(h, "amd_queue_t scratch fields unreachable");
    return;
  }
  if (p->private_segment_size) {
    /* One work-group runs at a time: it needs a slot per wave, each of
     * 64 lanes of the queue's lane size. Too little: ROCr's protocol asks
     * the runtime for more and the packet waits. */
    uint64_t waves = (wg_items + WAVE_LANES - 1) / WAVE_LANES;
    if (!s.backing || p->private_segment_size > s.lane_bytes ||
        waves * WAVE_LANES * s.lane_bytes > s.backing_size) {
      log_debug("ME %u pipe %u queue %u: dispatch needs %u scratch bytes per lane, queue has %u",
                h->me, h->pipe, h->queue, p->private_segment_size, s.lane_bytes);
      if (post_queue_code(h, VAPU_CP_ERROR_SCRATCH)) h->state = HQD_SCRATCH_WAIT;
      else queue_error(h, VAPU_CP_ERROR_SCRATCH, "no scratch and no way to ask for it");
      return;
    }
  }
  struct vapu_dispatch d = {
      .kernel_object = p->kernel_object,
      .kernarg_address = (uint64_t)(uintptr_t)p->kernarg_address,
      .packet_address = slot,
      .queue_address = h->queue_va,
      .dispatch_id = h->read_index,
      .grid_size = {p->grid_size_x, p->grid_size_y, p->grid_size_z},
      .workgroup_size = {p->workgroup_size_x, p->workgroup_size_y, p->workgroup_size_z},
      .group_segment_size = p->group_segment_size,
      .private_segment_size = p->private_segment_size,
      .scratch_backing = s.backing,
      .scratch_backing_size = s.backing_size,
      .scratch_lane_bytes = s.lane_bytes,
      .scratch_first_wave = 0,
      .apertures = {(uint64_t)(h->regs.sh_mem_bases >> 16) << 48,
                    (uint64_t)(h->regs.sh_mem_bases & 0xffff) << 48},
      .abort_flag = &h->stop_requested,
      .between_slices = between_slices,
      .between_slices_ctx = h,
  };
  memcpy(d.scratch_resource, s.resource, sizeof d.scratch_resource);
  /* Translations cached by the interpreter may predate a remap. */
  cp_mem_sync(&h->mem);
  struct vapu_stop stop;
  enum vapu_result r = vapu_dispatch_begin(h->exec, &d, &stop);
  if (r == VAPU_MEMORY_FAULT) { /* the GMC raised it at the read */
    fetch_fault(h, "kernel descriptor unreachable");
    return;
  }
  if (r != VAPU_OK) {
    queue_error(h, VAPU_CP_ERROR_INVALID_CODE, stop.detail);
    return;
  }
  for (int i = 0; i < 3; i++) h->groups[i] = (d.grid_size[i] + d.workgroup_size[i] - 1) / d.workgroup_size[i];
  h->group_count = (uint64_t)h->groups[0] * h->groups[1] * h->groups[2];
  h->next_group = 0;
  h->next_cu = 0;
  h->packet_va = slot;
  h->state = HQD_DISPATCHING;
}

/* ---- The packet loop -------------------------------------------------------------- */


static bool packet_signals_valid(const uint8_t raw[64], uint32_t type) {
  hsa_signal_t s[6];
  unsigned n = 0;
  memcpy(&s[n++], raw + offsetof(hsa_kernel_dispatch_packet_t, completion_signal), 8);
  if (type == HSA_PACKET_TYPE_BARRIER_AND || type == HSA_PACKET_TYPE_BARRIER_OR) {
    memcpy(&s[n], raw + offsetof(hsa_barrier_and_packet_t, dep_signal), 5 * 8);
    n += 5;
  } else if (type == HSA_PACKET_TYPE_VENDOR_SPECIFIC) {
    memcpy(&s[n++], raw + offsetof(hsa_amd_barrier_value_packet_t, signal), 8);
  }
  for (unsigned i = 0; i < n; i++)
    if (!is_signal_handle(s[i].handle)) return false;
  return true;
}

/* Looks at the packet at the read index and runs it if it can. True if the
 * queue moved (a packet finished or started). */
static bool next_packet(struct hqd *h) {
  if (__atomic_load_n(&h->write_index, __ATOMIC_ACQUIRE) <= h->read_index) return false;
  uint64_t slot = h->regs.ring_address + (h->read_index & (h->packet_count - 1)) * 64;
  uint16_t *header_ptr = cp_field(h, slot, 2, VAPU_GMC_READ);
  if (!header_ptr) {
    fetch_fault(h, "ring unreachable");
    return true;
  }
  /* Acquire: the packet body was written before its header. */
  uint16_t header = __atomic_load_n(header_ptr, __ATOMIC_ACQUIRE);
  uint32_t type = (header >> HSA_PACKET_HEADER_TYPE) & 0xff;
  if (type == HSA_PACKET_TYPE_INVALID) return false; /* reserved, not yet published */
  uint8_t raw[64];
  if (!cp_read(h, slot, raw, sizeof raw)) {
    fetch_fault(h, "packet unreachable");
    return true;
  }
  uint32_t acquire = (header >> HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) & 3;
  uint32_t release = (header >> HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE) & 3;
  if (acquire > HSA_FENCE_SCOPE_SYSTEM || release > HSA_FENCE_SCOPE_SYSTEM || (header >> 13)) {
    queue_error(h, VAPU_CP_ERROR_INVALID_FORMAT, "reserved fence scope or header bits");
    return true;
  }
  if (!packet_signals_valid(raw, type)) {
    queue_error(h, VAPU_CP_ERROR_INVALID_FORMAT, "a signal handle is not an amd_signal_t address");
    return true;
  }
  uint64_t start_ns = plat_now_ns();
  enum wait_result w;
  switch (type) {
    case HSA_PACKET_TYPE_KERNEL_DISPATCH:
      memcpy(&h->packet, raw, sizeof h->packet);
      h->start_ns = start_ns;
      start_dispatch(h, slot);
      return true;
    case HSA_PACKET_TYPE_BARRIER_AND:
    case HSA_PACKET_TYPE_BARRIER_OR: {
      hsa_barrier_and_packet_t p;
      memcpy(&p, raw, sizeof p);
      w = barrier_and_or(h, &p, type == HSA_PACKET_TYPE_BARRIER_OR);
      break;
    }
    case HSA_PACKET_TYPE_VENDOR_SPECIFIC: {
      hsa_amd_barrier_value_packet_t p;
      memcpy(&p, raw, sizeof p);
      if (p.header.AmdFormat != HSA_AMD_PACKET_TYPE_BARRIER_VALUE || p.cond > HSA_SIGNAL_CONDITION_GTE) {
        queue_error(h, VAPU_CP_ERROR_VENDOR_FORMAT, "unknown AMD vendor packet");
        return true;
      }
      w = barrier_value(h, &p);
      break;
    }
    default: /* agent dispatch (a GPU queue has no agent-dispatch feature) and unknown types */
      queue_error(h, VAPU_CP_ERROR_INVALID_FORMAT, "packet type not supported by the GPU");
      return true;
  }
  if (w == WAIT_FAULT) {
    fetch_fault(h, "dependent signal unreachable");
    return true;
  }
  if (w == WAIT_BLOCKED) return false;
  cp_stat_add(&h->cp->stats.barriers, 1);
  if (!complete_packet(h, slot, start_ns))
    fetch_fault(h, "completing the barrier faulted");
  return true;
}

bool cp_poll_write_pointer(struct hqd *h) {
  uint64_t write_index;
  if (!read_u64(h, h->regs.wptr_poll_address, &write_index)) {
    fetch_fault(h, "write pointer poll address unreachable");
    return true;
  }
  uint64_t seen = __atomic_load_n(&h->write_index, __ATOMIC_ACQUIRE);
  if (write_index <= seen) return false;
  vapu_cp_queue_write_pointer(h->cp->v, h->me, h->pipe, h->queue, write_index);
  return true;
}

bool cp_serve_queue(struct hqd *h, uint64_t budget_ns) {
  uint64_t deadline = plat_now_ns() + budget_ns;
  bool progress = false;
  for (;;) {
    if (cp_must_leave(h)) return progress;
    switch (h->state) {
      case HQD_HALTED: return progress;
      case HQD_SCRATCH_WAIT: {
        /* The runtime stores 0 into queue_inactive_signal once it grew
         * the scratch; then the packet is tried again. */
        uint64_t signal, value;
        if (!read_u64(h, h->queue_va + offsetof(amd_queue_t, queue_inactive_signal), &signal) ||
            !read_u64(h, signal + SIGNAL_VALUE_OFFSET, &value)) {
          fetch_fault(h, "queue_inactive_signal unreachable");
          return true;
        }
        if (value != 0) return progress;
        h->state = HQD_IDLE;
        break;
      }
      case HQD_DISPATCHING:
        run_workgroups(h, deadline);
        progress = true;
        break;
      case HQD_IDLE:
        if (!next_packet(h)) return progress;
        progress = true;
        break;
    }
    if (plat_now_ns() >= deadline) return progress;
  }
}
