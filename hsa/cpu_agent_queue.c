/*
 * cpu_agent_queue.c - a CPU agent's AQL packet processing (HSA Runtime
 * PRM 1.2, 2.5 for packet semantics).
 *
 * Core 0 of the agent's workers (cpu_agent.h) is the packet processor:
 * it walks the agent's queues, runs barrier, agent-dispatch and vendor
 * packets itself and shares each kernel dispatch's work-groups with the
 * other cores (helpers) through a claim counter, a run of work-groups per
 * claim (CLAIMS_PER_CORE). Packets of one queue run
 * in order, one at a time, so the barrier bit always holds; a packet whose
 * dependencies are not met blocks only its queue.
 *
 * Idle cores spin briefly (latency) and then sleep on an event (no core is
 * burnt forever); a doorbell store wakes the processor, a published
 * dispatch wakes the helpers.
 */
#define LOG_TAG "cpu-agent"
#include <string.h>

#include <hsa/hsa_ext_amd.h>

#include "hsa/cl_program.h"
#include "hsa/cpu_agent.h"
#include "hsa/cpu_kernel.h"
#include "hsa/placement_split.h"
#include "hsa/signal.h"
#include "lib/plat.h"

/* Keep polling this long after the last packet (processor) or dispatch
 * (helpers) before sleeping: longer than the gap between the packets of a
 * program that dispatches in a loop, short enough to give an idle core up. */
#define IDLE_SPIN_NS           1000000u
#define HELPER_IDLE_SPIN_NS    200000u
#define DEPENDENCY_POLL_MAX_NS 100000u /* longest nap while a barrier waits */
#define PACKETS_PER_VISIT      16      /* then look at the next queue (fairness) */

/* ---- Kernel dispatch ----------------------------------------------------- */

/* Claims a core makes of a dispatch's work-groups, about: each claim takes
 * total / (cores * CLAIMS_PER_CORE) groups at once, at least one, so that
 * the shared claim word is written a few dozen times per core rather than
 * once per group (its cache line moves between the cores at each claim),
 * while the last claims stay small enough that the cores finish close
 * together. */
#define CLAIMS_PER_CORE 32u

/* Runs `count` work-groups of the job from linear index `g` (relative to
 * job->first), x fastest: the ids of the first divided out, the others
 * counted on. An OpenCL C kernel's go to its CPU code as one run
 * (cl_program.h); a C kernel's entry is called once per group. */
static void run_groups_from(struct cpu_core *core, const struct dispatch_job *job, uint64_t g,
                            uint64_t count) {
  const hsa_kernel_dispatch_packet_t *p = job->packet;
  g += job->first;
  hsa_cpu_dispatch_t d;
  uint32_t id[3] = {(uint32_t)(g % job->groups[0]), (uint32_t)(g / job->groups[0] % job->groups[1]),
                    (uint32_t)(g / ((uint64_t)job->groups[0] * job->groups[1]))};
  const uint32_t grid[3] = {p->grid_size_x, p->grid_size_y, p->grid_size_z};
  const uint32_t wg[3] = {p->workgroup_size_x, p->workgroup_size_y, p->workgroup_size_z};
  for (int i = 0; i < 3; i++) {
    d.grid_size[i] = grid[i];
    d.workgroup_size[i] = wg[i];
  }
  d.kernarg = p->kernarg_address;
  d.dimensions = p->setup & 3;
  d.group_segment = core->group_segment;
  d.group_segment_size = job->group_segment_size;
  d.core = core->index;
  d.packet = p;
  if (job->kernel->magic == HSA_CL_KERNEL_MAGIC) {
    for (int i = 0; i < 3; i++) d.workgroup_id[i] = id[i];
    cl_kernel_run_groups(&d, count, job->groups);
    return;
  }
  for (uint64_t n = 0; n < count; n++) {
    for (int i = 0; i < 3; i++) {
      d.workgroup_id[i] = id[i];
      d.global_offset[i] = id[i] * wg[i];
      uint32_t left = grid[i] - d.global_offset[i];
      d.item_count[i] = left < wg[i] ? left : wg[i];
    }
    job->kernel->entry(&d);
    for (int i = 0; i < 3 && ++id[i] == job->groups[i]; i++) id[i] = 0;
  }
}

/* Runs work-groups of dispatch `generation` until none is left. */
static void claim_and_run(struct cpu_core *core, struct dispatch_job *job, uint32_t generation) {
  uint64_t ran = 0;
  for (;;) {
    uint64_t c = atomic_load_explicit(&job->claim, memory_order_acquire);
    /* The claim word of this generation was published after the job's
     * total (run_groups): read after it, the total is this dispatch's. */
    uint64_t at = c & 0xffffffffu, total = atomic_load_explicit(&job->total, memory_order_relaxed);
    if ((uint32_t)(c >> 32) != generation || at >= total) break;
    uint64_t chunk = total / ((uint64_t)core->agent->cores * CLAIMS_PER_CORE);
    uint64_t n = chunk == 0 ? 1 : total - at < chunk ? total - at : chunk;
    if (!atomic_compare_exchange_weak_explicit(&job->claim, &c, c + n, memory_order_acq_rel,
                                               memory_order_acquire))
      continue;
    run_groups_from(core, job, at, n);
    ran += n;
  }
  if (ran) atomic_fetch_add_explicit(&job->done, ran, memory_order_release);
}

static hsa_status_t check_dispatch(const struct cpu_agent *ca,
                                   const hsa_kernel_dispatch_packet_t *p,
                                   const hsa_cpu_kernel_descriptor_t **kernel) {
  const struct agent *a = &ca->agent;
  uint32_t dims = p->setup & 3;
  const uint32_t grid[3] = {p->grid_size_x, p->grid_size_y, p->grid_size_z};
  const uint32_t wg[3] = {p->workgroup_size_x, p->workgroup_size_y, p->workgroup_size_z};
  if (dims < 1) return HSA_STATUS_ERROR_INVALID_PACKET_FORMAT;
  uint64_t items = 1, wg_items = 1;
  for (uint32_t i = 0; i < 3; i++) {
    /* PRM 2.5.2: sizes > 0, grid >= work-group; unused dimensions are 1. */
    if (grid[i] == 0 || wg[i] == 0 || wg[i] > grid[i] || wg[i] > a->workgroup_max_dim[i])
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    if (i >= dims && (grid[i] != 1 || wg[i] != 1)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    items *= grid[i];
    wg_items *= wg[i];
  }
  if (items > a->grid_max_size || wg_items > a->workgroup_max_size)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (p->kernel_object == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *kernel = cpu_kernel_from_object(p->kernel_object);
  if (!*kernel) *kernel = cl_kernel_from_object(p->kernel_object);
  if (!*kernel) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  if ((*kernel)->kernarg_segment_size && !p->kernarg_address)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if ((*kernel)->magic == HSA_CL_KERNEL_MAGIC)
    return cl_kernel_check_dispatch(*kernel, p, CPU_GROUP_SEGMENT_BYTES);
  if ((uint64_t)p->group_segment_size + (*kernel)->group_segment_size > CPU_GROUP_SEGMENT_BYTES)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return HSA_STATUS_SUCCESS;
}

/* What a dispatch that ran ends with: an OpenCL C kernel's work-groups may
 * have failed (cl_program.h). */
static hsa_status_t dispatch_result(const hsa_cpu_kernel_descriptor_t *kernel) {
  return kernel->magic == HSA_CL_KERNEL_MAGIC ? cl_kernel_take_error(kernel) : HSA_STATUS_SUCCESS;
}

static void run_groups(struct cpu_agent *ca, uint64_t first, uint64_t total);

static hsa_status_t run_dispatch(struct cpu_agent *ca, struct queue *q,
                                 const hsa_kernel_dispatch_packet_t *p) {
  const hsa_cpu_kernel_descriptor_t *kernel;
  hsa_status_t st = check_dispatch(ca, p, &kernel);
  if (st != HSA_STATUS_SUCCESS) return st;
  struct dispatch_job *job = &ca->job;
  job->packet = p;
  job->kernel = kernel;
  for (int w = 0; w < QUEUE_MAX_CU_MASK_WORDS; w++)
    atomic_store_explicit(&job->cu_mask[w], __atomic_load_n(&q->cu_mask[w], __ATOMIC_RELAXED),
                          memory_order_relaxed);
  /* A C kernel's packet gives the dynamic size only (hsa_cpu_kernel.h);
   * an OpenCL C kernel's, as a GPU kernel's, the whole group segment (HSA
   * Runtime PRM 1.2, 2.6.1: "at least GROUP_SEGMENT_SIZE"). */
  if (kernel->magic == HSA_CL_KERNEL_MAGIC)
    job->group_segment_size = p->group_segment_size > kernel->group_segment_size
                                  ? p->group_segment_size
                                  : kernel->group_segment_size;
  else
    job->group_segment_size = p->group_segment_size + kernel->group_segment_size;
  job->groups[0] = (p->grid_size_x + p->workgroup_size_x - 1) / p->workgroup_size_x;
  job->groups[1] = (p->grid_size_y + p->workgroup_size_y - 1) / p->workgroup_size_y;
  job->groups[2] = (p->grid_size_z + p->workgroup_size_z - 1) / p->workgroup_size_z;
  uint64_t total = (uint64_t)job->groups[0] * job->groups[1] * job->groups[2];
  /* A share of a split dispatch (placement_split.h): chunks of the
   * work-groups the GPU does not run, until none is left. */
  struct placement_split *split = NULL;
  if (q->forwarded_for && p->reserved2 && !placement_measure_signal(p->reserved2)) {
    split = (struct placement_split *)(uintptr_t)p->reserved2;
    if (split->magic != PLACEMENT_SPLIT_MAGIC || split->end != total)
      return HSA_STATUS_ERROR_INVALID_PACKET_FORMAT;
  }
  if (!split) {
    run_groups(ca, 0, total);
    return dispatch_result(kernel);
  }
  uint64_t first, count;
  while (placement_split_claim(split, &first, &count)) {
    run_groups(ca, first, count);
    atomic_fetch_add_explicit(&split->groups[ca->agent.node % RUNTIME_MAX_AGENTS], count,
                              memory_order_relaxed);
  }
  return dispatch_result(kernel);
}

/* Runs `total` work-groups of the job from linear index `first` on the
 * agent's cores. */
static void run_groups(struct cpu_agent *ca, uint64_t first, uint64_t total) {
  struct dispatch_job *job = &ca->job;
  job->first = first;
  atomic_store_explicit(&job->total, total, memory_order_relaxed);
  struct cpu_core *self = &ca->core[0];
  if (total == 1 || ca->cores == 1) {
    run_groups_from(self, job, 0, total);
    return;
  }
  /* Publish: fields first, then the claim word of the new generation. */
  uint32_t gen = atomic_load_explicit(&ca->job_generation, memory_order_relaxed) + 1;
  atomic_store_explicit(&job->done, 0, memory_order_relaxed);
  atomic_store_explicit(&job->claim, (uint64_t)gen << 32, memory_order_release);
  atomic_store_explicit(&ca->job_generation, gen, memory_order_release);
  event_notify(&ca->job_event);
  claim_and_run(self, job, gen);
  while (atomic_load_explicit(&job->done, memory_order_acquire) != total) plat_cpu_relax();
  atomic_store_explicit(&job->claim, (uint64_t)gen << 32 | CLAIM_EXHAUSTED, memory_order_release);
}

void cpu_helper_main(void *arg) {
  struct cpu_core *core = arg;
  struct cpu_agent *ca = core->agent;
  uint32_t seen = 0;
  uint64_t idle_since = plat_now_ns();
  while (!atomic_load_explicit(&ca->stopping, memory_order_acquire)) {
    uint32_t gen = atomic_load_explicit(&ca->job_generation, memory_order_acquire);
    if (gen != seen) {
      seen = gen;
      /* A late helper may read a newer dispatch's mask: harmless, its claim
       * fails on the generation. */
      uint32_t mask =
          atomic_load_explicit(&ca->job.cu_mask[core->index / 32], memory_order_relaxed);
      if (mask & (1u << (core->index % 32))) claim_and_run(core, &ca->job, gen);
      idle_since = plat_now_ns();
      continue;
    }
    if (plat_now_ns() - idle_since < HELPER_IDLE_SPIN_NS) {
      plat_cpu_relax();
      continue;
    }
    uint32_t ev = event_prepare_wait(&ca->job_event);
    if (atomic_load(&ca->job_generation) == seen && !atomic_load(&ca->stopping))
      event_commit_wait(&ca->job_event, ev, UINT64_MAX);
    event_cancel_wait(&ca->job_event);
  }
}

/* ---- Other packets -------------------------------------------------------------- */

enum packet_result { PACKET_DONE, PACKET_BLOCKED, PACKET_ERROR };

/* Value of a dependency signal, or an error for a handle that names none. */
static bool dependency_value(hsa_signal_t h, hsa_signal_value_t *value) {
  if (!signal_is_valid(h)) return false;
  *value = __atomic_load_n(&signal_from_handle(h)->amd.value, __ATOMIC_ACQUIRE);
  return true;
}

static enum packet_result run_barrier(const hsa_barrier_and_packet_t *p, bool is_or,
                                      hsa_status_t *err) {
  bool any_dep = false, any_zero = false, all_zero = true;
  for (int i = 0; i < 5; i++) {
    if (p->dep_signal[i].handle == 0) continue;
    hsa_signal_value_t v;
    if (!dependency_value(p->dep_signal[i], &v)) {
      *err = HSA_STATUS_ERROR_INVALID_SIGNAL;
      return PACKET_ERROR;
    }
    any_dep = true;
    if (v == 0)
      any_zero = true;
    else
      all_zero = false;
  }
  /* AND: all dependencies at 0; OR: one of them; none given: satisfied. */
  bool satisfied = !any_dep || (is_or ? any_zero : all_zero);
  return satisfied ? PACKET_DONE : PACKET_BLOCKED;
}

static enum packet_result run_barrier_value(const hsa_amd_barrier_value_packet_t *p,
                                            hsa_status_t *err) {
  hsa_signal_value_t v;
  if (p->cond > HSA_SIGNAL_CONDITION_GTE) {
    *err = HSA_STATUS_ERROR_INVALID_PACKET_FORMAT;
    return PACKET_ERROR;
  }
  if (!dependency_value(p->signal, &v)) {
    *err = HSA_STATUS_ERROR_INVALID_SIGNAL;
    return PACKET_ERROR;
  }
  return signal_condition_holds((hsa_signal_condition_t)p->cond, v & p->mask, p->value)
             ? PACKET_DONE
             : PACKET_BLOCKED;
}

static enum packet_result run_agent_dispatch(const hsa_agent_dispatch_packet_t *p,
                                             hsa_status_t *err) {
  const hsa_cpu_agent_function_t *f = cpu_agent_function_find(p->type);
  if (!f) {
    log_warn("agent dispatch: no function registered for type 0x%x", p->type);
    *err = HSA_STATUS_ERROR_INVALID_PACKET_FORMAT;
    return PACKET_ERROR;
  }
  f->fn(p->arg, p->return_address);
  return PACKET_DONE;
}

/* Runs the packet at `slot` if it can run now. */
static enum packet_result run_packet(struct cpu_agent *ca, struct queue *q, const uint8_t *slot,
                                     uint16_t header, hsa_status_t *err) {
  uint32_t type = (header >> HSA_PACKET_HEADER_TYPE) & 0xff;
  uint32_t acquire = (header >> HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) & 3;
  uint32_t release = (header >> HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE) & 3;
  *err = HSA_STATUS_ERROR_INVALID_PACKET_FORMAT;
  if (acquire > HSA_FENCE_SCOPE_SYSTEM || release > HSA_FENCE_SCOPE_SYSTEM || (header >> 13) != 0)
    return PACKET_ERROR;
  /* Acquire fence: see the producer's writes before reading memory. */
  atomic_thread_fence(memory_order_acquire);
  switch (type) {
    case HSA_PACKET_TYPE_KERNEL_DISPATCH:
      if (!(q->packet_features & HSA_QUEUE_FEATURE_KERNEL_DISPATCH)) return PACKET_ERROR;
      *err = run_dispatch(ca, q, (const hsa_kernel_dispatch_packet_t *)slot);
      return *err == HSA_STATUS_SUCCESS ? PACKET_DONE : PACKET_ERROR;
    case HSA_PACKET_TYPE_BARRIER_AND:
    case HSA_PACKET_TYPE_BARRIER_OR:
      return run_barrier((const hsa_barrier_and_packet_t *)slot, type == HSA_PACKET_TYPE_BARRIER_OR,
                         err);
    case HSA_PACKET_TYPE_AGENT_DISPATCH:
      if (!(q->packet_features & HSA_QUEUE_FEATURE_AGENT_DISPATCH)) return PACKET_ERROR;
      return run_agent_dispatch((const hsa_agent_dispatch_packet_t *)slot, err);
    case HSA_PACKET_TYPE_VENDOR_SPECIFIC:
      if (((const hsa_amd_vendor_packet_header_t *)slot)->AmdFormat !=
          HSA_AMD_PACKET_TYPE_BARRIER_VALUE)
        return PACKET_ERROR;
      return run_barrier_value((const hsa_amd_barrier_value_packet_t *)slot, err);
    default:
      return PACKET_ERROR; /* INVALID is never passed here; > 5 is unknown */
  }
}

enum serve_result { SERVE_IDLE, SERVE_PROGRESS, SERVE_BLOCKED, SERVE_DROPPED };

static enum serve_result serve_queue(struct cpu_agent *ca, struct queue *q) {
  if (atomic_load_explicit(&q->state, memory_order_relaxed) != QUEUE_ACTIVE) return SERVE_DROPPED;
  enum serve_result result = SERVE_IDLE;
  uint64_t mask = q->ring_mask;
  for (int n = 0; n < PACKETS_PER_VISIT; n++) {
    uint64_t read = q->amd.read_dispatch_id; /* only this core writes it */
    uint8_t *slot = (uint8_t *)q->ring + (read & mask) * 64;
    uint16_t header = __atomic_load_n((uint16_t *)slot, __ATOMIC_ACQUIRE);
    if (((header >> HSA_PACKET_HEADER_TYPE) & 0xff) == HSA_PACKET_TYPE_INVALID) return result;
    /* A forward queue stamps the program's signals as its placement
     * queue says; a placement measurement needs only the end. */
    bool profile = atomic_load_explicit(
        q->forwarded_for ? &q->forwarded_for->profiling : &q->profiling, memory_order_relaxed);
    uint64_t start = profile ? plat_now_ns() : 0;
    hsa_status_t err;
    enum packet_result pr = run_packet(ca, q, slot, header, &err);
    if (pr == PACKET_BLOCKED) return result == SERVE_PROGRESS ? SERVE_PROGRESS : SERVE_BLOCKED;
    if (pr == PACKET_ERROR) {
      queue_report_error(q, err);
      return SERVE_DROPPED;
    }
    /* Every AQL packet type keeps its completion signal at byte 56. */
    hsa_signal_t done = *(const hsa_signal_t *)(slot + 56);
    /* A placement queue's measurement of a forwarded dispatch, or a part
     * of a split one, whose signal's end time is the split's end
     * (placement_split.h): read before the slot goes back. */
    struct signal *measure = NULL;
    bool timed = false, split_part = false;
    if (q->forwarded_for &&
        ((header >> HSA_PACKET_HEADER_TYPE) & 0xff) == HSA_PACKET_TYPE_KERNEL_DISPATCH) {
      uint64_t extra = ((const hsa_kernel_dispatch_packet_t *)slot)->reserved2;
      measure = placement_measure_signal(extra);
      timed = measure && (extra & PLACEMENT_MEASURE_TIMED);
      split_part = extra && !measure; /* its magic was checked before it ran */
    }
    /* Hand the slot back (INVALID, then the read index) before completing,
     * as a hardware processor does: a waiter may reuse it at once. */
    __atomic_store_n((uint16_t *)slot, HSA_PACKET_TYPE_INVALID << HSA_PACKET_HEADER_TYPE,
                     __ATOMIC_RELAXED);
    __atomic_store_n(&q->amd.read_dispatch_id, read + 1, __ATOMIC_RELEASE);
    if (done.handle) {
      if (!signal_is_valid_cached(done, &q->completion_check)) {
        log_warn("queue %llu packet %llu: completion signal 0x%llx is not a live signal",
                 (unsigned long long)q->amd.hsa_queue.id, (unsigned long long)read,
                 (unsigned long long)done.handle);
        queue_report_error(q, HSA_STATUS_ERROR_INVALID_SIGNAL);
        return SERVE_DROPPED;
      }
    }
    uint64_t end = profile || timed || split_part ? plat_now_ns() : 0;
    if (measure) { /* first: a program that saw its signal finds the measurement */
      measure->amd.start_ts = start;
      measure->amd.end_ts = end;
      /* Only the placement queue's harvest polls it: no waiter to wake. */
      __atomic_store_n(&measure->amd.value, 0, __ATOMIC_RELEASE);
    }
    if (done.handle) {
      if (profile) signal_from_handle(done)->amd.start_ts = start;
      if (profile || split_part) signal_from_handle(done)->amd.end_ts = end;
      signal_complete(done); /* release: the packet's writes first */
    }
    result = SERVE_PROGRESS;
  }
  return result;
}

static bool queue_has_packet(struct queue *q) {
  if (atomic_load_explicit(&q->state, memory_order_relaxed) != QUEUE_ACTIVE) return false;
  const uint8_t *slot =
      (const uint8_t *)q->ring + (q->amd.read_dispatch_id & q->ring_mask) * 64;
  return ((__atomic_load_n((const uint16_t *)slot, __ATOMIC_ACQUIRE) >> HSA_PACKET_HEADER_TYPE) &
          0xff) != HSA_PACKET_TYPE_INVALID;
}

void cpu_processor_main(void *arg) {
  struct cpu_core *core = arg;
  struct cpu_agent *ca = core->agent;
  struct queue *local[CPU_AGENT_MAX_QUEUES];
  uint32_t count = 0, version = UINT32_MAX;
  uint64_t idle_since = 0, nap_ns = 1000;
  uint32_t idle_polls = 0;
  for (;;) {
    uint32_t v = atomic_load_explicit(&ca->queues_version, memory_order_acquire);
    if (v != version) {
      lock_acquire(&ca->queues_lock);
      count = ca->queue_count;
      memcpy(local, ca->queues, count * sizeof local[0]);
      version = atomic_load(&ca->queues_version);
      lock_release(&ca->queues_lock);
      atomic_store_explicit(&ca->processor_version, version, memory_order_release);
    }
    if (atomic_load_explicit(&ca->stopping, memory_order_acquire)) break;
    bool progress = false, blocked = false;
    for (uint32_t i = 0; i < count; i++) {
      if (!local[i]) continue;
      enum serve_result r = serve_queue(ca, local[i]);
      if (r == SERVE_DROPPED) local[i] = NULL; /* stopped: never touched again */
      progress |= r == SERVE_PROGRESS;
      blocked |= r == SERVE_BLOCKED;
    }
    if (atomic_load_explicit(&ca->serves_async, memory_order_relaxed)) {
      progress |= async_work_poll();
      blocked |= async_work_pending(); /* handlers wait on signals: nap */
    }
    if (progress) {
      idle_since = 0;
      idle_polls = 0;
      nap_ns = 1000;
      continue;
    }
    /* Idle: poll; read the clock only every 64 polls (it costs a poll). */
    if (!idle_since) idle_since = plat_now_ns();
    if ((++idle_polls & 63) != 0 || plat_now_ns() - idle_since < IDLE_SPIN_NS) {
      plat_cpu_relax();
      continue;
    }
    /* Sleep until a doorbell rings (or, while a barrier waits on signals
     * that may change without a doorbell, for a growing nap). */
    uint32_t seen = event_prepare_wait(&ca->doorbell);
    bool work = atomic_load(&ca->stopping) || atomic_load(&ca->queues_version) != version;
    for (uint32_t i = 0; i < count && !work; i++)
      work = local[i] && queue_has_packet(local[i]) && !blocked;
    if (!work) event_commit_wait(&ca->doorbell, seen, blocked ? nap_ns : UINT64_MAX);
    event_cancel_wait(&ca->doorbell);
    if (blocked && nap_ns < DEPENDENCY_POLL_MAX_NS) nap_ns *= 2;
    if (!blocked) idle_since = 0; /* woken by a doorbell: spin again for the burst */
  }
}

/* ---- Async work without a core of its own ----------------------------------------- */

static struct cpu_agent *first_cpu_agent(void) {
  for (uint32_t i = 0; i < agent_count(); i++)
    if (agent_at(i)->device_type == HSA_DEVICE_TYPE_CPU) return agent_at(i)->impl;
  return NULL;
}

bool cpu_agent_serve_async_work(void) {
  struct cpu_agent *ca = first_cpu_agent();
  if (ca) atomic_store(&ca->serves_async, true);
  return ca != NULL;
}

void cpu_agent_kick_async_server(void) {
  struct cpu_agent *ca = first_cpu_agent();
  if (ca) event_notify(&ca->doorbell);
}

/* ---- Queue hooks (agent_ops) ---------------------------------------------------- */

static void ring_doorbell(struct signal *s, int64_t value) {
  (void)value;
  event_notify(&((struct cpu_agent *)s->ring_arg)->doorbell);
}

hsa_status_t cpu_queue_attach(struct agent *agent, struct queue *q) {
  struct cpu_agent *ca = cpu_agent_of(agent);
  q->doorbell->ring = ring_doorbell;
  q->doorbell->ring_arg = ca;
  lock_acquire(&ca->queues_lock);
  bool full = ca->queue_count == CPU_AGENT_MAX_QUEUES;
  if (!full) {
    ca->queues[ca->queue_count++] = q;
    atomic_fetch_add(&ca->queues_version, 1);
  }
  lock_release(&ca->queues_lock);
  if (full) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  event_notify(&ca->doorbell);
  return HSA_STATUS_SUCCESS;
}

void cpu_queue_detach(struct agent *agent, struct queue *q) {
  struct cpu_agent *ca = cpu_agent_of(agent);
  lock_acquire(&ca->queues_lock);
  uint32_t version = 0;
  for (uint32_t i = 0; i < ca->queue_count; i++)
    if (ca->queues[i] == q) {
      ca->queues[i] = ca->queues[--ca->queue_count];
      version = atomic_fetch_add(&ca->queues_version, 1) + 1;
      break;
    }
  lock_release(&ca->queues_lock);
  /* Wait until the processor works from a list without q; an errored queue
   * was dropped already (its callback may be the one destroying it). */
  if (version == 0 || atomic_load(&q->state) == QUEUE_ERROR) return;
  while ((int32_t)(atomic_load_explicit(&ca->processor_version, memory_order_acquire) - version) <
         0) {
    event_notify(&ca->doorbell);
    plat_sleep_ns(1000);
  }
}
