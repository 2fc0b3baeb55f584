/*
 * placement.c - the placement agent and its queues (hsa_ext_placement.h).
 *
 * Design. A placement queue is an ordinary runtime queue (hsa/queue.c) whose
 * agent is the placement agent; attaching it creates one queue of its own
 * on every real agent ("forward queues") and points the
 * doorbell's ring hook (signal.h) at forward(): the thread that stores to
 * the doorbell copies each valid packet out of the placement ring, hands
 * the slot back (INVALID, read index + 1) and writes the packet, with the
 * chosen agent's kernel object, into that agent's forward queue. No thread
 * of the runtime's own takes part; the real agents' packet processors run
 * the forwarded packets as they run any.
 *
 * AQL order across agents (HSA Runtime PRM 1.2, 2.5; the barrier bit,
 * barrier-AND/OR; the AMD barrier-value packet, ROCr's hsa_ext_amd.h):
 *   - every forward queue has a counter signal that starts at COUNTER_START;
 *     a "mark" on agent A is a barrier-AND with the barrier bit and no
 *     dependency whose completion decrements A's counter: once it
 *     completes, everything forwarded to A before it has completed. Marks
 *     are numbered 1, 2, ... per agent.
 *   - before a packet goes to agent B, B waits (an AMD barrier-value packet:
 *     counter < COUNTER_START - k + 1, i.e. mark k done) for every mark of
 *     another agent that it owes and has not waited for yet;
 *   - a packet with the barrier bit first marks every other agent that got
 *     packets since its last mark, and owes their newest marks;
 *   - a barrier packet of the program goes to one agent (the last one used)
 *     and is followed there by a mark that every other agent then owes: no
 *     later packet starts anywhere before it completed.
 * Within one forward queue the real agent keeps AQL's order itself.
 *
 * Measurements. A forwarded kernel dispatch ends an internal signal of a
 * record (its end time stamp is a GPU's profiling time, or the CPU agent's
 * clock when it finished; what it cost
 * is counted from when the agent could start it, service_ns). On a GPU the
 * dispatch completes the program's completion signal, as on the GPU's own
 * queue, and a barrier-AND with the barrier bit behind it completes the
 * record's (a dispatch without a signal completes the record's itself); a
 * CPU agent's processor sets the record's signal and completes the
 * program's itself (the packet names the record's signal,
 * placement_split.h).
 * Records are harvested (the time goes to the kernel's model,
 * placement_model.h) after each doorbell's packets are forwarded, those at
 * the front of the list that completed before a decision while much work
 * is pending (so that it does not count finished work as queued:
 * STALE_PENDING_NS), and on a statistics query or queue destruction. When
 * every record is in flight a dispatch is forwarded as it is, unmeasured.
 * A CPU agent's dispatch is timed only as the model asks (pl_time_due):
 * its clock reads are on the dispatch's path.
 */
#define LOG_TAG "placement"
#include "hsa/placement.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_placement.h>

#include <hsa/amd_hsa_kernel_code.h>

#include "hsa/agent.h"
#include "hsa/placement_split.h"
#include "hsa/queue.h"
#include "hsa/runtime.h"
#include "hsa/signal.h"
#include "lib/plat.h"

PLAT_OPTION(placement_log, "placement_log",
            "log every placement decision (kernel, work-items, agent, predicted and measured ns)");

#define PLACEMENT_KERNEL_MAGIC 0x4b4c4350u /* "PCLK" */
#define PLACEMENT_QUEUES_MAX   64
#define RECORDS_MAX            1024
#define COUNTER_START          ((hsa_signal_value_t)1 << 62)
#define FORWARD_SPACE_WAIT_NS  (10ull * 1000 * 1000 * 1000) /* a forward queue that never drains */
/* A decision first takes in the finished dispatches at the front of the
 * in-flight list when an agent has this much predicted work pending: a
 * finished dispatch still counted as queued (a program that waits for each
 * one) makes its agent look up to twice as slow for the next, which sends
 * it elsewhere; below this the record's cache line, read on every
 * dispatch's path, would cost more than 1% of the work it corrects. */
#define STALE_PENDING_NS 10000

struct pl_kernel {
  uint32_t magic;
  char name[64];
  uint64_t object[PL_MAX_AGENTS];
  uint32_t kinds;
  uint64_t latency_bound_ns;
  bool splittable;     /* a GPU part that takes a part-grid, and a CPU part */
  uint32_t split_mode; /* HSA_EXT_PLACEMENT_SPLIT_* */
  /* Size classes where a split took longer than the best agent alone was
   * predicted to (AUTO splits them no more; reset forgets). */
  uint64_t split_slower;
  struct pl_kernel_model model;
  uint64_t split_dispatches;
  uint64_t split_groups[PL_MAX_AGENTS];
  struct pl_kernel *next;
};

/* A split dispatch in flight: freed once every part and the barrier that
 * completes the program's signal are done. */
struct split_record {
  struct placement_split split;
  struct signal *parts; /* every part decrements it */
  struct pl_kernel *kernel;
  struct pl_queue *pq;
  hsa_queue_t *chain_queue; /* NULL: no chain (no completion signal) */
  uint64_t chain_index;
  uint64_t gpu_groups;
  uint32_t gpu_agent;
  uint64_t items, forwarded_ns;
  uint64_t best_single_ns; /* the best single agent's prediction (0: none) */
  struct split_record *next;
};

struct pl_queue;

struct pl_record {
  struct signal *signal;    /* a CPU agent names it in the packet (placement_measure_word) */
  struct pl_kernel *kernel; /* NULL once the kernel is gone or reset */
  struct pl_queue *pq;
  uint32_t agent;
  uint64_t items, predicted_ns;
  uint64_t pending_ns; /* what it added to its agent's pending work */
  bool others_busy;    /* other agents had work queued when it was forwarded */
  uint64_t forwarded_ns;
  bool measured;
  /* timed: its agent reads its clock for it (PLACEMENT_MEASURE_TIMED).
   * chained: its time is its own, its queue's earlier dispatches on that
   * agent being timed too (their end is known, service_ns) or harvested. */
  bool timed, chained;
  struct pl_record *next;
};

struct pl_queue {
  struct queue *q;
  struct lock lock; /* forwarding and the order state below */
  bool detached;
  _Atomic uint32_t kinds;
  hsa_queue_t *fwd[PL_MAX_AGENTS];
  struct signal *counter[PL_MAX_AGENTS];
  uint64_t marks[PL_MAX_AGENTS];
  bool since_mark[PL_MAX_AGENTS];
  /* Its share of the agents' pending work (under rt.placement.lock). */
  uint64_t pending_ns[PL_MAX_AGENTS];
  uint64_t owed[PL_MAX_AGENTS][PL_MAX_AGENTS];   /* [b][a]: mark of a that b must wait for */
  uint64_t waited[PL_MAX_AGENTS][PL_MAX_AGENTS]; /* [b][a]: the one b waits for already */
  uint64_t last_write[PL_MAX_AGENTS];            /* written, not yet rung: index + 1 */
  /* The end of its last measured dispatch (under rt.placement.lock). */
  uint64_t last_end[PL_MAX_AGENTS];
  /* Per agent, under rt.placement.lock: its records not yet harvested;
   * whether the last one was timed; whether the next must be (a timed
   * dispatch that was not chained is no sample: the one after it is). */
  uint32_t unharvested[PL_MAX_AGENTS];
  bool last_timed[PL_MAX_AGENTS], chain_wanted[PL_MAX_AGENTS];
  uint64_t read_seen[PL_MAX_AGENTS];             /* forward queues' read index, as last read */
  int last_agent;
  struct pl_queue *next; /* rt.placement.queues */
};

static uint32_t kind_of(const struct agent *a) {
  return a->device_type == HSA_DEVICE_TYPE_GPU ? HSA_EXT_PLACEMENT_KIND_GPU
                                               : HSA_EXT_PLACEMENT_KIND_CPU;
}

/* ---- The agent -------------------------------------------------------------- */

struct agent *placement_agent_from_handle(uint64_t handle) {
  return rt.placement.ready && handle == (uint64_t)(uintptr_t)&rt.placement.agent
             ? &rt.placement.agent
             : NULL;
}

bool placement_is_agent(const struct agent *agent) { return agent && agent == &rt.placement.agent; }
uint32_t placement_agent_count(void) { return rt.placement.ready ? rt.placement.count : 0; }
struct agent *placement_agent_at(uint32_t index) {
  return index < rt.placement.count ? rt.placement.real[index] : NULL;
}

hsa_status_t hsa_ext_placement_agent(hsa_agent_t *agent) {
  RETURN_IF_NOT_INITIALIZED();
  if (!agent) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *agent = agent_handle(&rt.placement.agent);
  return HSA_STATUS_SUCCESS;
}

/* ---- Records and harvest (rt.placement.lock held) ------------------------------------------ */

static void saturating_sub(uint64_t *from, uint64_t ns) { *from -= ns < *from ? ns : *from; }

/* A record's dispatch is measured or never will be: its predicted work is
 * no longer pending. */
static void pending_sub(const struct pl_record *r) {
  saturating_sub(&rt.placement.pending_ns[r->agent], r->pending_ns);
  saturating_sub(&r->pq->pending_ns[r->agent], r->pending_ns);
}

/* Takes *link's record off the in-flight list onto the free list, its
 * signal armed again: here, where the harvest has just read that signal,
 * rather than when the record is next taken, on a dispatch's path, where
 * the line would still be the agent's (a cross-core miss). */
static void record_release(struct pl_record **link) {
  struct pl_record *r = *link;
  *link = r->next;
  if (!*link) rt.placement.inflight_tail = link;
  r->pq->unharvested[r->agent]--;
  __atomic_store_n(&r->signal->amd.value, 1, __ATOMIC_RELAXED);
  r->signal->amd.start_ts = r->signal->amd.end_ts = 0;
  r->next = rt.placement.free_records;
  rt.placement.free_records = r;
}

/* What a dispatch cost its agent: from when the agent could start it (it
 * was forwarded, and the agent's previous dispatch of that queue ended) to
 * its end, so that the launch (doorbell, packet fetch, set-up) counts as
 * well as the execution between the agent's own time stamps. Records are
 * harvested oldest first, so the previous end is known. */
static uint64_t service_ns(struct pl_record *r, uint64_t end) {
  uint64_t *last = &r->pq->last_end[r->agent];
  uint64_t from = r->forwarded_ns > *last ? r->forwarded_ns : *last;
  if (end > *last) *last = end;
  return end > from ? end - from : 0;
}

/* Takes in the measurements of the dispatches that completed: all of them,
 * or (`front_only`) those at the front of the in-flight list, oldest first,
 * up to the first still running (STALE_PENDING_NS): one record's signal
 * read when the oldest is running, not the whole list. */
static void harvest_locked(bool front_only) {
  struct pl_record **link = &rt.placement.inflight;
  while (*link) {
    struct pl_record *r = *link;
    if (__atomic_load_n(&r->signal->amd.value, __ATOMIC_ACQUIRE) > 0) {
      if (front_only) return;
      link = &r->next;
      continue;
    }
    if (!r->measured) {
      r->measured = true;
      pending_sub(r);
      uint64_t start = r->signal->amd.start_ts, end = r->signal->amd.end_ts;
      uint64_t ns = r->timed ? service_ns(r, end) : 0;
      bool sample = r->timed && r->chained && end >= start;
      if (r->kernel && !sample) pl_drop(&r->kernel->model, r->agent, r->items);
      if (r->kernel && sample) {
        /* A time taken while other agents ran goes into the history as the
         * time alone it stands for, and teaches the agent's slowdown. */
        uint64_t alone_ns = ns;
        if (r->others_busy && r->predicted_ns) {
          alone_ns = (uint64_t)((double)ns / rt.placement.slowdown[r->agent] + 0.5);
          pl_slowdown_update(&rt.placement.slowdown[r->agent], ns, r->predicted_ns);
        }
        pl_record(&r->kernel->model, r->agent, r->items, alone_ns);
        if (rt.placement.log) {
          char stamps[48] = ""; /* a CPU agent's measurement has no start unless profiled */
          if (start)
            snprintf(stamps, sizeof stamps, " (%llu ns between its time stamps)",
                     (unsigned long long)(end - start));
          log_info(
              "%s: %llu items on agent %u (%s): predicted %llu ns, measured %llu ns%s%s, "
              "slowdown now %.2f",
              r->kernel->name, (unsigned long long)r->items, rt.placement.real[r->agent]->node,
              rt.placement.real[r->agent]->name, (unsigned long long)r->predicted_ns,
              (unsigned long long)ns, stamps, r->others_busy ? " with others busy" : "",
              rt.placement.slowdown[r->agent]);
        }
      }
    }
    record_release(link);
  }
}

static void split_free(struct split_record *r) {
  signal_destroy(r->parts);
  free(r);
}

/* Splits whose parts and chain are done: their work-group counts go to the
 * kernel's statistics. `pq`: also those of that queue, done or not (its
 * forward queues are gone). */
static void harvest_splits_locked(const struct pl_queue *gone) {
  struct split_record **link = &rt.placement.splits;
  while (*link) {
    struct split_record *r = *link;
    bool done =
        r->pq != gone && __atomic_load_n(&r->parts->amd.value, __ATOMIC_ACQUIRE) <= 0 &&
        (!r->chain_queue || hsa_queue_load_read_index_scacquire(r->chain_queue) > r->chain_index);
    if (!done && r->pq != gone) {
      link = &r->next;
      continue;
    }
    *link = r->next;
    if (r->kernel && done) {
      /* The parts write their end time stamps as they complete: the
       * latest is the split's end. */
      uint64_t end = r->parts->amd.end_ts;
      if (r->best_single_ns && end > r->forwarded_ns && end - r->forwarded_ns > r->best_single_ns) {
        r->kernel->split_slower |= 1ull << pl_size_class(r->items);
        if (rt.placement.log)
          log_info(
              "%s: %llu items split took %llu ns, one agent was predicted %llu ns: "
              "not split at this size again",
              r->kernel->name, (unsigned long long)r->items,
              (unsigned long long)(end - r->forwarded_ns), (unsigned long long)r->best_single_ns);
      }
      r->kernel->split_dispatches++;
      r->kernel->split_groups[r->gpu_agent] += r->gpu_groups;
      for (uint32_t a = 0; a < rt.placement.count; a++)
        r->kernel->split_groups[a] +=
            atomic_load(&r->split.groups[rt.placement.real[a]->node % RUNTIME_MAX_AGENTS]);
    }
    split_free(r);
  }
}

static struct pl_record *record_take_locked(void) {
  struct pl_record *r = rt.placement.free_records;
  if (r) {
    rt.placement.free_records = r->next;
  } else if (rt.placement.record_count < RECORDS_MAX) {
    r = calloc(1, sizeof *r);
    if (r && signal_create(AMD_SIGNAL_KIND_USER, 1, 0, &r->signal) != HSA_STATUS_SUCCESS) {
      free(r);
      r = NULL;
    }
    if (r) rt.placement.record_count++;
  }
  if (r) r->measured = false; /* its signal is armed (record_release, signal_create) */
  return r;
}

/* ---- Kernels ------------------------------------------------------------------ */

/* Whether a part-grid keeps the GPU part's work-item functions right: its
 * work-group ids come from the hardware (the same as in the whole grid for
 * a prefix of whole slices), its sizes and offsets from hidden kernel
 * arguments (code object v5: hidden_block_count_*, hidden_group_size_*,
 * hidden_remainder_*, hidden_global_offset_*; LLVM AMDGPUUsage "Code Object
 * V5 Metadata") filled for the whole grid, unless it reads the dispatch
 * packet, whose grid is the part's: the kernel descriptor's
 * ENABLE_SGPR_DISPATCH_PTR (AMDGPUUsage "Kernel Descriptor"), which code
 * object v4 kernels set to read their sizes. And there must be a CPU part. */
static bool kernel_splittable(const struct pl_kernel *k) {
  bool gpu = false, cpu = false;
  for (uint32_t a = 0; a < rt.placement.count; a++) {
    if (!k->object[a]) continue;
    if (kind_of(rt.placement.real[a]) == HSA_EXT_PLACEMENT_KIND_CPU) {
      cpu = true;
      continue;
    }
    const amd_kernel_descriptor_t *kd = (const amd_kernel_descriptor_t *)(uintptr_t)k->object[a];
    if (kd->kernel_code_properties & AMD_KD_ENABLE_SGPR_DISPATCH_PTR) return false;
    gpu = true;
  }
  return gpu && cpu;
}

uint64_t placement_kernel_create(const char *name, const uint64_t objects[PL_MAX_AGENTS]) {
  struct pl_kernel *k = calloc(1, sizeof *k);
  if (!k) return 0;
  k->magic = PLACEMENT_KERNEL_MAGIC;
  size_t len = strlen(name);
  if (len > 3 && strcmp(name + len - 3, ".kd") == 0) len -= 3; /* "vadd.kd" is "vadd" */
  if (len >= sizeof k->name) len = sizeof k->name - 1;
  memcpy(k->name, name, len);
  memcpy(k->object, objects, sizeof k->object);
  k->kinds = HSA_EXT_PLACEMENT_KIND_ANY;
  k->splittable = kernel_splittable(k);
  lock_acquire(&rt.placement.lock);
  k->next = rt.placement.kernels;
  rt.placement.kernels = k;
  lock_release(&rt.placement.lock);
  return (uint64_t)(uintptr_t)k;
}

static struct pl_kernel *kernel_find_locked(uint64_t object) {
  for (struct pl_kernel *k = rt.placement.kernels; k; k = k->next)
    if ((uint64_t)(uintptr_t)k == object) return k;
  return NULL;
}

void placement_kernel_free(uint64_t kernel_object) {
  lock_acquire(&rt.placement.lock);
  struct pl_kernel **link = &rt.placement.kernels;
  while (*link && (uint64_t)(uintptr_t)*link != kernel_object) link = &(*link)->next;
  struct pl_kernel *k = *link;
  if (k) {
    *link = k->next;
    for (struct pl_record *r = rt.placement.inflight; r; r = r->next)
      if (r->kernel == k) r->kernel = NULL;
    for (struct split_record *r = rt.placement.splits; r; r = r->next)
      if (r->kernel == k) r->kernel = NULL;
  }
  lock_release(&rt.placement.lock);
  free(k);
}

hsa_status_t hsa_ext_placement_kernel_set_policy(uint64_t kernel_object, uint32_t kinds,
                                                 uint64_t latency_bound_ns) {
  RETURN_IF_NOT_INITIALIZED();
  lock_acquire(&rt.placement.lock);
  struct pl_kernel *k = kernel_find_locked(kernel_object);
  bool any = false;
  for (uint32_t i = 0; k && i < rt.placement.count; i++)
    any |= k->object[i] && (kind_of(rt.placement.real[i]) & kinds);
  if (any) {
    k->kinds = kinds;
    k->latency_bound_ns = latency_bound_ns;
  }
  lock_release(&rt.placement.lock);
  return any ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t hsa_ext_placement_kernel_set_split(uint64_t kernel_object, uint32_t mode) {
  RETURN_IF_NOT_INITIALIZED();
  lock_acquire(&rt.placement.lock);
  struct pl_kernel *k = kernel_find_locked(kernel_object);
  bool ok = k && mode <= HSA_EXT_PLACEMENT_SPLIT_ALWAYS &&
            (mode != HSA_EXT_PLACEMENT_SPLIT_ALWAYS || k->splittable);
  if (ok) k->split_mode = mode;
  lock_release(&rt.placement.lock);
  return ok ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t hsa_ext_placement_reset(uint64_t kernel_object) {
  RETURN_IF_NOT_INITIALIZED();
  lock_acquire(&rt.placement.lock);
  struct pl_kernel *k = kernel_object ? kernel_find_locked(kernel_object) : NULL;
  for (struct pl_record *r = rt.placement.inflight; r; r = r->next)
    if (r->kernel && (!kernel_object || r->kernel == k)) r->kernel = NULL;
  for (struct split_record *r = rt.placement.splits; r; r = r->next)
    if (r->kernel && (!kernel_object || r->kernel == k)) r->kernel = NULL;
  for (struct pl_kernel *j = rt.placement.kernels; j; j = j->next)
    if (!kernel_object || j == k) {
      pl_reset(&j->model);
      j->split_dispatches = 0;
      j->split_slower = 0;
      memset(j->split_groups, 0, sizeof j->split_groups);
    }
  lock_release(&rt.placement.lock);
  return kernel_object && !k ? HSA_STATUS_ERROR_INVALID_ARGUMENT : HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_ext_placement_kernel_stats(uint64_t kernel_object,
                                            hsa_ext_placement_agent_stats_t *stats,
                                            uint32_t capacity, uint32_t *count) {
  RETURN_IF_NOT_INITIALIZED();
  if (!count || (capacity && !stats)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  lock_acquire(&rt.placement.lock);
  harvest_locked(false);
  harvest_splits_locked(NULL);
  struct pl_kernel *k = kernel_find_locked(kernel_object);
  uint32_t n = 0;
  for (uint32_t i = 0; k && i < rt.placement.count; i++) {
    if (!k->object[i]) continue;
    if (n < capacity) {
      const struct pl_history *h = &k->model.agent[i];
      stats[n] = (hsa_ext_placement_agent_stats_t){
          .agent = agent_handle(rt.placement.real[i]),
          .dispatches = h->dispatches,
          .measured = h->measured,
          .explored = h->explored,
          .total_ns = h->total_ns,
          .total_items = h->total_items,
          .split_dispatches = k->split_groups[i] ? k->split_dispatches : 0,
          .split_groups = k->split_groups[i],
      };
    }
    n++;
  }
  lock_release(&rt.placement.lock);
  if (!k) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *count = n;
  return HSA_STATUS_SUCCESS;
}

bool placement_hidden_target(uint64_t kernel_object, const hsa_queue_t *queue, uint64_t *part,
                             const hsa_queue_t **part_queue) {
  lock_acquire(&rt.placement.lock);
  struct pl_kernel *k = kernel_find_locked(kernel_object);
  int chosen = -1;
  for (uint32_t a = 0; k && a < rt.placement.count; a++) {
    if (!k->object[a]) continue;
    /* The GPU part's layout: the CPU part reads the same arguments. */
    if (chosen < 0 || (kind_of(rt.placement.real[a]) == HSA_EXT_PLACEMENT_KIND_GPU &&
                       kind_of(rt.placement.real[chosen]) != HSA_EXT_PLACEMENT_KIND_GPU))
      chosen = (int)a;
  }
  if (chosen >= 0) *part = k->object[chosen];
  lock_release(&rt.placement.lock);
  if (chosen < 0) return false;
  *part_queue = queue;
  struct queue *q = queue_from_hsa(queue);
  if (queue && object_set_contains(&rt.queues, q) && q->agent == &rt.placement.agent &&
      q->doorbell->ring_arg) {
    struct pl_queue *pq = q->doorbell->ring_arg;
    *part_queue = pq->fwd[chosen];
  }
  return true;
}

/* ---- Forwarding (pq->lock held) ---------------------------------------------------- */

static uint16_t header_of(uint32_t type, bool barrier, uint32_t acquire, uint32_t release) {
  return (uint16_t)(type << HSA_PACKET_HEADER_TYPE |
                    (barrier ? 1u : 0u) << HSA_PACKET_HEADER_BARRIER |
                    acquire << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
                    release << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
}

static void ring_forward_queue(struct pl_queue *pq, uint32_t a) {
  if (!pq->last_write[a]) return;
  hsa_signal_store_screlease(pq->fwd[a]->doorbell_signal,
                             (hsa_signal_value_t)(pq->last_write[a] - 1));
  pq->last_write[a] = 0;
}

/* Writes one packet into agent a's forward queue (its doorbell rings at the
 * end of the batch, or now if the queue is full). An error status if that
 * queue stopped or never drains. */
static hsa_status_t emit(struct pl_queue *pq, uint32_t a, const void *packet, uint16_t header) {
  hsa_queue_t *fq = pq->fwd[a];
  struct queue *f = queue_from_hsa(fq);
  /* The forwarding (under pq->lock) is the forward queue's only producer:
   * a plain store of the write index, and the read index read again only
   * when the one seen last says the ring may be full (the processor writes
   * that line). */
  uint64_t index = f->amd.write_dispatch_id;
  __atomic_store_n(&f->amd.write_dispatch_id, index + 1, __ATOMIC_RELAXED);
  uint64_t deadline = 0;
  while (index - pq->read_seen[a] >= fq->size &&
         index - (pq->read_seen[a] = hsa_queue_load_read_index_scacquire(fq)) >= fq->size) {
    if (atomic_load(&f->state) != QUEUE_ACTIVE) return HSA_STATUS_ERROR_INVALID_QUEUE;
    ring_forward_queue(pq, a);
    uint64_t now = plat_now_ns();
    if (!deadline) deadline = now + FORWARD_SPACE_WAIT_NS;
    if (now > deadline) {
      log_error("queue %llu: the forward queue of agent %u has not drained in %llu ms",
                (unsigned long long)pq->q->amd.hsa_queue.id, rt.placement.real[a]->node,
                (unsigned long long)(FORWARD_SPACE_WAIT_NS / 1000000));
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
    plat_sleep_ns(1000);
  }
  uint8_t *slot = (uint8_t *)fq->base_address + (index & (fq->size - 1)) * 64;
  memcpy(slot + 2, (const uint8_t *)packet + 2, 62);
  __atomic_store_n((uint16_t *)slot, header, __ATOMIC_RELEASE);
  pq->last_write[a] = index + 1;
  return HSA_STATUS_SUCCESS;
}

/* A mark on agent a: done when everything forwarded there before it is. */
static hsa_status_t mark(struct pl_queue *pq, uint32_t a) {
  hsa_barrier_and_packet_t m = {0};
  m.completion_signal = signal_handle(pq->counter[a]);
  hsa_status_t st = emit(
      pq, a, &m,
      header_of(HSA_PACKET_TYPE_BARRIER_AND, true, HSA_FENCE_SCOPE_NONE, HSA_FENCE_SCOPE_SYSTEM));
  if (st == HSA_STATUS_SUCCESS) {
    pq->marks[a]++;
    pq->since_mark[a] = false;
  }
  return st;
}

/* Before a packet goes to agent b: the marks it owes, and with the barrier
 * bit every other agent's work so far. */
static hsa_status_t order_before(struct pl_queue *pq, uint32_t b, bool barrier) {
  for (uint32_t a = 0; a < rt.placement.count; a++) {
    if (a == b || !pq->fwd[a]) continue;
    if (barrier) {
      if (pq->since_mark[a]) {
        hsa_status_t st = mark(pq, a);
        if (st != HSA_STATUS_SUCCESS) return st;
      }
      if (pq->marks[a] > pq->owed[b][a]) pq->owed[b][a] = pq->marks[a];
    }
    if (pq->owed[b][a] <= pq->waited[b][a]) continue;
    hsa_amd_barrier_value_packet_t w = {0};
    w.header.AmdFormat = HSA_AMD_PACKET_TYPE_BARRIER_VALUE;
    w.signal = signal_handle(pq->counter[a]);
    w.value = COUNTER_START - (hsa_signal_value_t)pq->owed[b][a] + 1;
    w.mask = -1;
    w.cond = HSA_SIGNAL_CONDITION_LT;
    hsa_status_t st = emit(pq, b, &w,
                           header_of(HSA_PACKET_TYPE_VENDOR_SPECIFIC, false, HSA_FENCE_SCOPE_SYSTEM,
                                     HSA_FENCE_SCOPE_NONE));
    if (st != HSA_STATUS_SUCCESS) return st;
    pq->waited[b][a] = pq->owed[b][a];
  }
  return HSA_STATUS_SUCCESS;
}

static bool agent_allowed(const struct pl_queue *pq, uint32_t a, uint32_t kinds) {
  return pq->fwd[a] && (kind_of(rt.placement.real[a]) & kinds & atomic_load(&pq->kinds));
}

/* Whether to split this dispatch (rt.placement.lock held): the kernel allows it,
 * a GPU agent and a CPU agent may run it, the grid has 2 slices or more,
 * and either the program asks for it or every agent taking part is
 * measured at this size, idle, and predicted to finish it sooner together
 * (1 / the sum of their rates) than the best one alone, by a fifth. The
 * GPU's share of the slices, from the predicted rates (half when the
 * program asks and nothing is known). */
static bool want_split(struct pl_kernel *k, const struct pl_candidate *c, uint64_t items,
                       uint64_t slices, double *gpu_share, uint64_t *best_ns) {
  if (!k->splittable || k->split_mode == HSA_EXT_PLACEMENT_SPLIT_NEVER || slices < 2) return false;
  bool gpu = false, cpu = false;
  for (uint32_t a = 0; a < rt.placement.count; a++)
    if (c[a].allowed) {
      if (kind_of(rt.placement.real[a]) == HSA_EXT_PLACEMENT_KIND_GPU)
        gpu = true;
      else
        cpu = true;
    }
  if (!gpu || !cpu) return false; /* before any prediction: a pinned queue pays nothing */
  bool known = true, idle = true;
  double gpu_rate = 0, rate = 0, best = 0;
  uint32_t cls = pl_size_class(items);
  for (uint32_t a = 0; a < rt.placement.count; a++) {
    if (!c[a].allowed) continue;
    bool is_gpu = kind_of(rt.placement.real[a]) == HSA_EXT_PLACEMENT_KIND_GPU;
    uint64_t ns;
    const struct pl_history *h = &k->model.agent[a];
    if (!pl_predict(h, items, &ns) || ns == 0) {
      known = false;
      continue;
    }
    known &= h->cls[cls].count >= PL_EXPLORE_SAMPLES; /* enough to decide */
    idle &= c[a].queued_ns == 0;
    rate += 1.0 / (double)ns;
    if (is_gpu) gpu_rate += 1.0 / (double)ns;
    if (best == 0 || (double)ns < best) best = (double)ns;
  }
  *best_ns = (uint64_t)best;
  if (k->split_mode == HSA_EXT_PLACEMENT_SPLIT_ALWAYS) {
    *gpu_share = gpu_rate > 0 && rate > gpu_rate ? gpu_rate / rate : 0.5;
    return true;
  }
  if (!known || !idle || rate == 0 || 1.0 / rate > 0.8 * best) return false;
  if (k->split_slower & 1ull << cls) return false; /* tried: slower */
  *gpu_share = gpu_rate / rate;
  return true;
}

/* One dispatch on a GPU agent and every allowed CPU agent at once
 * (placement_split.h); *forwarded false when the grid gives the GPU no
 * whole slice (then it goes to one agent as usual). */
static hsa_status_t forward_split(struct pl_queue *pq, hsa_kernel_dispatch_packet_t *p,
                                  uint16_t header, struct pl_kernel *k,
                                  const struct pl_candidate *c, double gpu_share,
                                  uint64_t best_single_ns, bool *forwarded) {
  *forwarded = false;
  uint32_t dims = p->setup & 3;
  uint32_t *grid[3] = {&p->grid_size_x, &p->grid_size_y, &p->grid_size_z};
  const uint16_t wg[3] = {p->workgroup_size_x, p->workgroup_size_y, p->workgroup_size_z};
  uint64_t groups[3], total = 1;
  for (int d = 0; d < 3; d++) {
    groups[d] = (*grid[d] + wg[d] - 1) / wg[d];
    total *= groups[d];
  }
  uint32_t slow = dims - 1;
  uint64_t slices = groups[slow], per_slice = total / slices;
  uint64_t gpu_slices = (uint64_t)((double)slices * gpu_share);
  if (gpu_slices >= slices) gpu_slices = slices - 1; /* the CPU agents get one at least */
  if (gpu_slices == 0) return HSA_STATUS_SUCCESS;
  int gpu = -1;
  uint32_t cpus = 0;
  for (uint32_t a = 0; a < rt.placement.count; a++) {
    if (!c[a].allowed) continue;
    if (kind_of(rt.placement.real[a]) == HSA_EXT_PLACEMENT_KIND_GPU) {
      if (gpu < 0) gpu = (int)a;
    } else {
      cpus++;
    }
  }
  struct split_record *r = calloc(1, sizeof *r);
  if (!r) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  if (signal_create(AMD_SIGNAL_KIND_USER, 1 + cpus, 0, &r->parts) != HSA_STATUS_SUCCESS) {
    free(r);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  r->split.magic = PLACEMENT_SPLIT_MAGIC;
  r->split.end = total;
  r->split.cpu_agents = cpus;
  atomic_store(&r->split.next, gpu_slices * per_slice);
  r->kernel = k;
  r->pq = pq;
  r->gpu_agent = (uint32_t)gpu;
  r->gpu_groups = gpu_slices * per_slice;
  r->items = (uint64_t)p->grid_size_x * p->grid_size_y * p->grid_size_z;
  r->best_single_ns = best_single_ns;
  r->forwarded_ns = plat_now_ns();
  *forwarded = true;
  if (rt.placement.log)
    log_info(
        "%s: %llu work-groups split: %llu on agent %u (%s), the rest in chunks on %u CPU agents",
        k->name, (unsigned long long)total, (unsigned long long)r->gpu_groups,
        rt.placement.real[gpu]->node, rt.placement.real[gpu]->name, cpus);
  bool barrier = header >> HSA_PACKET_HEADER_BARRIER & 1;
  uint32_t release = header >> HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE & 3;
  hsa_status_t st = HSA_STATUS_SUCCESS;
  /* Every part's agent waits for what it owes before any part starts, so
   * that the parts do not wait for each other. */
  for (uint32_t a = 0; a < rt.placement.count && st == HSA_STATUS_SUCCESS; a++)
    if (c[a].allowed &&
        (kind_of(rt.placement.real[a]) == HSA_EXT_PLACEMENT_KIND_CPU || (int)a == gpu))
      st = order_before(pq, a, barrier);
  hsa_signal_t done = p->completion_signal;
  int last_cpu = -1;
  for (uint32_t a = 0; a < rt.placement.count && st == HSA_STATUS_SUCCESS; a++) {
    if (!c[a].allowed) continue;
    bool is_gpu = kind_of(rt.placement.real[a]) == HSA_EXT_PLACEMENT_KIND_GPU;
    if (is_gpu && (int)a != gpu) continue;
    hsa_kernel_dispatch_packet_t part = *p;
    part.kernel_object = k->object[a];
    part.completion_signal = signal_handle(r->parts);
    if (is_gpu) {
      uint32_t part_grid = (uint32_t)(gpu_slices * wg[slow]);
      if (slow == 0)
        part.grid_size_x = part_grid;
      else if (slow == 1)
        part.grid_size_y = part_grid;
      else
        part.grid_size_z = part_grid;
      part.reserved2 = 0;
    } else {
      part.reserved2 = (uint64_t)(uintptr_t)&r->split;
      last_cpu = (int)a;
    }
    st = emit(pq, a, &part, header);
    pq->since_mark[a] = true;
  }
  if (st == HSA_STATUS_SUCCESS && done.handle) {
    hsa_barrier_and_packet_t chain = {0};
    chain.dep_signal[0] = signal_handle(r->parts);
    chain.completion_signal = done;
    st = emit(pq, (uint32_t)last_cpu, &chain,
              header_of(HSA_PACKET_TYPE_BARRIER_AND, false, HSA_FENCE_SCOPE_NONE, release));
    r->chain_queue = pq->fwd[last_cpu];
    r->chain_index = pq->last_write[last_cpu] - 1;
  }
  pq->last_agent = last_cpu;
  lock_acquire(&rt.placement.lock);
  r->next = rt.placement.splits;
  rt.placement.splits = r;
  lock_release(&rt.placement.lock);
  return st;
}

static hsa_status_t forward_dispatch(struct pl_queue *pq, hsa_kernel_dispatch_packet_t *p,
                                     uint16_t header) {
  bool barrier = header >> HSA_PACKET_HEADER_BARRIER & 1;
  uint64_t items = (uint64_t)p->grid_size_x * p->grid_size_y * p->grid_size_z;
  lock_acquire(&rt.placement.lock);
  for (uint32_t a = 0; a < rt.placement.count; a++)
    if (rt.placement.pending_ns[a] >= STALE_PENDING_NS) {
      harvest_locked(true);
      break;
    }
  struct pl_kernel *k = kernel_find_locked(p->kernel_object);
  if (!k) {
    lock_release(&rt.placement.lock);
    log_warn("queue %llu: kernel object 0x%llx is not a placement kernel",
             (unsigned long long)pq->q->amd.hsa_queue.id, (unsigned long long)p->kernel_object);
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }
  struct pl_candidate c[PL_MAX_AGENTS]; /* the first rt.placement.count */
  bool any = false;
  uint64_t earlier_ns = 0; /* this queue's work before the packet, the longest agent's */
  for (uint32_t a = 0; a < rt.placement.count; a++) {
    c[a].allowed = k->object[a] && agent_allowed(pq, a, k->kinds);
    c[a].queued_ns = rt.placement.pending_ns[a];
    c[a].slowdown = rt.placement.slowdown[a];
    any |= c[a].allowed;
    if (pq->pending_ns[a] > earlier_ns) earlier_ns = pq->pending_ns[a];
  }
  if (barrier) pl_after_earlier(c, rt.placement.count, earlier_ns);
  if (!any) {
    lock_release(&rt.placement.lock);
    log_warn("queue %llu: kernel %s has no code for the agents this queue and kernel allow",
             (unsigned long long)pq->q->amd.hsa_queue.id, k->name);
    return HSA_STATUS_ERROR_INVALID_ISA;
  }
  uint32_t dims = p->setup & 3;
  double gpu_share = 0;
  if (dims >= 1 && dims <= 3) {
    const uint32_t grid[3] = {p->grid_size_x, p->grid_size_y, p->grid_size_z};
    const uint16_t wg[3] = {p->workgroup_size_x, p->workgroup_size_y, p->workgroup_size_z};
    uint64_t slices = wg[dims - 1] ? (grid[dims - 1] + wg[dims - 1] - 1) / wg[dims - 1] : 0;
    if (rt.placement.splits) harvest_splits_locked(NULL);
    uint64_t best_ns = 0;
    if (want_split(k, c, items, slices, &gpu_share, &best_ns)) {
      lock_release(&rt.placement.lock);
      bool forwarded;
      hsa_status_t st = forward_split(pq, p, header, k, c, gpu_share, best_ns, &forwarded);
      if (forwarded || st != HSA_STATUS_SUCCESS) return st;
      lock_acquire(&rt.placement.lock);
    }
  }
  struct pl_choice choice = pl_choose(&k->model, items, c, rt.placement.count, k->latency_bound_ns);
  uint32_t a = (uint32_t)choice.agent;
  bool cpu = kind_of(rt.placement.real[a]) == HSA_EXT_PLACEMENT_KIND_CPU;
  struct pl_record *r = record_take_locked();
  if (!r) pl_drop(&k->model, a, items); /* chosen, never measured */
  if (r) {
    /* A CPU agent's time costs its dispatch two clock reads (here and
     * there): timed as the model wants samples (pl_time_due), and the one
     * after a timed dispatch whose time would not be its own. */
    r->timed = !cpu || pl_time_due(&k->model, a, items) || pq->chain_wanted[a];
    r->chained = r->timed && (pq->last_timed[a] || !pq->unharvested[a]);
    if (r->timed) pq->chain_wanted[a] = !r->chained;
    pq->last_timed[a] = r->timed;
    pq->unharvested[a]++;
    r->kernel = k;
    r->pq = pq;
    r->agent = a;
    r->items = items;
    r->predicted_ns = choice.predicted_ns;
    r->others_busy = false;
    for (uint32_t b = 0; b < rt.placement.count; b++)
      r->others_busy |= b != a && rt.placement.pending_ns[b] > 0;
    r->forwarded_ns = r->timed ? plat_now_ns() : 0;
    r->next = NULL;
    *rt.placement.inflight_tail = r;
    rt.placement.inflight_tail = &r->next;
    /* Its agent is busy until the work queued before it, and what it
     * waits for, is done, and then for its own time. */
    r->pending_ns = c[a].queued_ns - rt.placement.pending_ns[a] + choice.run_ns;
    rt.placement.pending_ns[a] += r->pending_ns;
    pq->pending_ns[a] += r->pending_ns;
  }
  if (rt.placement.log)
    log_info(
        "%s: %llu items -> agent %u (%s)%s, predicted %llu ns%s (%llu ns with the others "
        "running), queued there %llu ns",
        k->name, (unsigned long long)items, rt.placement.real[a]->node, rt.placement.real[a]->name,
        choice.explored ? " to explore" : "", (unsigned long long)choice.predicted_ns,
        choice.predicted ? "" : " (nothing known yet)", (unsigned long long)choice.run_ns,
        (unsigned long long)c[a].queued_ns);
  uint64_t object = k->object[a];
  lock_release(&rt.placement.lock);

  hsa_status_t st = order_before(pq, a, barrier);
  if (st != HSA_STATUS_SUCCESS) return st;
  p->kernel_object = object;
  /* A CPU agent completes the record's signal itself (no packet behind
   * the dispatch). On a GPU the program's signal stays on the dispatch
   * (its time stamps are the dispatch's, as on the GPU's own queue) and a
   * barrier-AND behind it, which completes once the dispatch has, ends the
   * record; a dispatch without a signal ends the record itself. */
  p->reserved2 = r && cpu ? placement_measure_word(r->signal, r->timed) : 0;
  bool record_behind = r && !cpu && p->completion_signal.handle;
  if (r && !cpu && !record_behind) p->completion_signal = signal_handle(r->signal);
  st = emit(pq, a, p, header);
  if (st == HSA_STATUS_SUCCESS && record_behind) {
    hsa_barrier_and_packet_t end = {0};
    end.completion_signal = signal_handle(r->signal);
    st = emit(pq, a, &end,
              header_of(HSA_PACKET_TYPE_BARRIER_AND, true, HSA_FENCE_SCOPE_NONE, HSA_FENCE_SCOPE_NONE));
  }
  pq->since_mark[a] = true;
  pq->last_agent = (int)a;
  return st;
}

/* A barrier packet of the program: on the last agent used (one allowed by
 * the queue), then a mark every other agent owes. */
static hsa_status_t forward_barrier(struct pl_queue *pq, const void *packet, uint16_t header) {
  int a = pq->last_agent;
  if (a < 0 || !agent_allowed(pq, (uint32_t)a, HSA_EXT_PLACEMENT_KIND_ANY))
    for (a = 0;
         a < (int)rt.placement.count && !agent_allowed(pq, (uint32_t)a, HSA_EXT_PLACEMENT_KIND_ANY);
         a++)
      ;
  if (a >= (int)rt.placement.count) return HSA_STATUS_ERROR_INVALID_ISA;
  bool barrier = header >> HSA_PACKET_HEADER_BARRIER & 1;
  hsa_status_t st = order_before(pq, (uint32_t)a, barrier);
  if (st == HSA_STATUS_SUCCESS) st = emit(pq, (uint32_t)a, packet, header);
  if (st == HSA_STATUS_SUCCESS) st = mark(pq, (uint32_t)a);
  if (st != HSA_STATUS_SUCCESS) return st;
  for (uint32_t b = 0; b < rt.placement.count; b++)
    if (b != (uint32_t)a) pq->owed[b][a] = pq->marks[a];
  pq->last_agent = a;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t forward_packet(struct pl_queue *pq, uint8_t *packet, uint16_t header) {
  uint32_t type = header >> HSA_PACKET_HEADER_TYPE & 0xff;
  uint32_t acquire = header >> HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE & 3;
  uint32_t release = header >> HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE & 3;
  if (acquire > HSA_FENCE_SCOPE_SYSTEM || release > HSA_FENCE_SCOPE_SYSTEM || (header >> 13) != 0)
    return HSA_STATUS_ERROR_INVALID_PACKET_FORMAT;
  switch (type) {
    case HSA_PACKET_TYPE_KERNEL_DISPATCH:
      return forward_dispatch(pq, (hsa_kernel_dispatch_packet_t *)packet, header);
    case HSA_PACKET_TYPE_BARRIER_AND:
    case HSA_PACKET_TYPE_BARRIER_OR:
      return forward_barrier(pq, packet, header);
    case HSA_PACKET_TYPE_VENDOR_SPECIFIC:
      if (((const hsa_amd_vendor_packet_header_t *)packet)->AmdFormat !=
          HSA_AMD_PACKET_TYPE_BARRIER_VALUE)
        return HSA_STATUS_ERROR_INVALID_PACKET_FORMAT;
      return forward_barrier(pq, packet, header);
    default: /* agent dispatch names one agent's function; others are unknown */
      return HSA_STATUS_ERROR_INVALID_PACKET_FORMAT;
  }
}

/* The doorbell's ring hook: forwards every packet written so far. */
static void forward(struct signal *s, int64_t value) {
  (void)value;
  struct pl_queue *pq = s->ring_arg;
  lock_acquire(&pq->lock);
  struct queue *q = pq->q;
  while (!pq->detached && atomic_load_explicit(&q->state, memory_order_acquire) == QUEUE_ACTIVE) {
    uint64_t read = q->amd.read_dispatch_id;
    uint8_t *slot = (uint8_t *)q->ring + (read & q->ring_mask) * 64;
    uint16_t header = __atomic_load_n((uint16_t *)slot, __ATOMIC_ACQUIRE);
    if ((header >> HSA_PACKET_HEADER_TYPE & 0xff) == HSA_PACKET_TYPE_INVALID) break;
    _Alignas(64) uint8_t packet[64];
    memcpy(packet, slot, sizeof packet);
    hsa_status_t st = forward_packet(pq, packet, header);
    if (st != HSA_STATUS_SUCCESS) {
      for (uint32_t a = 0; a < rt.placement.count; a++)
        if (pq->fwd[a]) ring_forward_queue(pq, a);
      lock_release(&pq->lock);
      queue_report_error(q, st);
      return;
    }
    __atomic_store_n((uint16_t *)slot, HSA_PACKET_TYPE_INVALID << HSA_PACKET_HEADER_TYPE,
                     __ATOMIC_RELAXED);
    __atomic_store_n(&q->amd.read_dispatch_id, read + 1, __ATOMIC_RELEASE);
  }
  for (uint32_t a = 0; a < rt.placement.count; a++)
    if (pq->fwd[a]) ring_forward_queue(pq, a);
  lock_release(&pq->lock);
  /* The agents run what was forwarded while the measurements of earlier
   * dispatches are taken in: not on a dispatch's path. */
  lock_acquire(&rt.placement.lock);
  harvest_locked(false);
  lock_release(&rt.placement.lock);
}

/* ---- Queue hooks (agent_ops) ---------------------------------------------------- */

/* A forward queue failed: the placement queue reports it, with its status. */
static void forward_queue_error(hsa_status_t status, hsa_queue_t *source, void *data) {
  (void)source;
  struct pl_queue *pq = data;
  queue_report_error(pq->q, status);
}

static void release_forward_queues(struct pl_queue *pq) {
  for (uint32_t a = 0; a < rt.placement.count; a++) {
    if (pq->fwd[a]) queue_destroy(queue_from_hsa(pq->fwd[a]));
    pq->fwd[a] = NULL;
    if (pq->counter[a]) signal_destroy(pq->counter[a]);
    pq->counter[a] = NULL;
  }
  /* Its dispatches that were still in flight are measured never. */
  lock_acquire(&rt.placement.lock);
  harvest_splits_locked(pq);
  struct pl_record **link = &rt.placement.inflight;
  while (*link) {
    struct pl_record *r = *link;
    if (r->pq != pq) {
      link = &r->next;
      continue;
    }
    if (!r->measured) {
      pending_sub(r);
      if (r->kernel) pl_drop(&r->kernel->model, r->agent, r->items);
    }
    record_release(link);
  }
  harvest_locked(false);
  lock_release(&rt.placement.lock);
}

static hsa_status_t pl_queue_update(struct agent *agent, struct queue *q);

static hsa_status_t pl_queue_attach(struct agent *agent, struct queue *q) {
  (void)agent;
  struct pl_queue *pq = calloc(1, sizeof *pq);
  if (!pq) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  pq->q = q;
  pq->lock = (struct lock)LOCK_INIT;
  pq->last_agent = -1;
  atomic_store(&pq->kinds, HSA_EXT_PLACEMENT_KIND_ANY);
  hsa_status_t st = HSA_STATUS_SUCCESS;
  for (uint32_t a = 0; a < rt.placement.count && st == HSA_STATUS_SUCCESS; a++) {
    struct agent *r = rt.placement.real[a];
    uint32_t size = q->amd.hsa_queue.size;
    if (size < r->queue_min_size) size = r->queue_min_size;
    st = hsa_queue_create(agent_handle(r), size, HSA_QUEUE_TYPE_MULTI, forward_queue_error, pq,
                          UINT32_MAX, UINT32_MAX, &pq->fwd[a]);
    /* A GPU's measurement is its time stamps: profiling always on. A CPU
     * agent takes a measurement's end itself and stamps the program's
     * signals as the placement queue's profiling says (forwarded_for). */
    if (st == HSA_STATUS_SUCCESS) {
      queue_from_hsa(pq->fwd[a])->forwarded_for = q;
      if (kind_of(r) != HSA_EXT_PLACEMENT_KIND_CPU)
        st = hsa_amd_profiling_set_profiler_enabled(pq->fwd[a], 1);
    }
    if (st == HSA_STATUS_SUCCESS)
      st = signal_create(AMD_SIGNAL_KIND_USER, COUNTER_START, 0, &pq->counter[a]);
  }
  if (st != HSA_STATUS_SUCCESS) {
    log_error("placement queue: no forward queue on every agent (status 0x%x)", (unsigned)st);
    release_forward_queues(pq);
    free(pq);
    return st;
  }
  q->doorbell->ring_arg = pq;
  q->doorbell->ring = forward;
  lock_acquire(&rt.placement.lock);
  pq->next = rt.placement.queues;
  rt.placement.queues = pq;
  lock_release(&rt.placement.lock);
  return HSA_STATUS_SUCCESS;
}

static void pl_queue_detach(struct agent *agent, struct queue *q) {
  (void)agent;
  struct pl_queue *pq = q->doorbell->ring_arg;
  if (!pq) return; /* detached before */
  lock_acquire(&pq->lock);
  pq->detached = true;
  lock_release(&pq->lock);
  lock_acquire(&rt.placement.lock);
  struct pl_queue **link = &rt.placement.queues;
  while (*link && *link != pq) link = &(*link)->next;
  if (*link) *link = pq->next;
  lock_release(&rt.placement.lock);
  q->doorbell->ring = NULL;
  q->doorbell->ring_arg = NULL;
  release_forward_queues(pq);
  free(pq);
}

static hsa_status_t pl_queue_update(struct agent *agent, struct queue *q) {
  (void)agent;
  struct pl_queue *pq = q->doorbell->ring_arg;
  if (!pq) return HSA_STATUS_ERROR_INVALID_QUEUE;
  hsa_status_t first = HSA_STATUS_SUCCESS;
  for (uint32_t a = 0; a < rt.placement.count; a++) {
    if (!pq->fwd[a]) continue;
    uint32_t mask[QUEUE_MAX_CU_MASK_WORDS];
    for (int w = 0; w < QUEUE_MAX_CU_MASK_WORDS; w++)
      mask[w] = __atomic_load_n(&q->cu_mask[w], __ATOMIC_RELAXED);
    bool all = true;
    for (int w = 0; w < QUEUE_MAX_CU_MASK_WORDS; w++) all &= mask[w] == UINT32_MAX;
    hsa_status_t st = hsa_amd_queue_cu_set_mask(pq->fwd[a], all ? 0 : 32 * QUEUE_MAX_CU_MASK_WORDS,
                                                all ? NULL : mask);
    if (st == (hsa_status_t)HSA_STATUS_CU_MASK_REDUCED) st = HSA_STATUS_SUCCESS;
    if (st == HSA_STATUS_SUCCESS) st = hsa_amd_queue_set_priority(pq->fwd[a], q->priority);
    if (st != HSA_STATUS_SUCCESS && first == HSA_STATUS_SUCCESS) first = st;
  }
  return first;
}

hsa_status_t hsa_ext_placement_queue_set_kinds(hsa_queue_t *queue, uint32_t kinds) {
  RETURN_IF_NOT_INITIALIZED();
  struct queue *q = queue_from_hsa(queue);
  if (!queue || !object_set_contains(&rt.queues, q) || q->agent != &rt.placement.agent)
    return HSA_STATUS_ERROR_INVALID_QUEUE;
  if (!(kinds & HSA_EXT_PLACEMENT_KIND_ANY)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct pl_queue *pq = q->doorbell->ring_arg;
  if (!pq) return HSA_STATUS_ERROR_INVALID_QUEUE;
  atomic_store(&pq->kinds, kinds);
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t pl_get_info(const struct agent *agent, int attribute, void *value) {
  (void)agent, (void)attribute, (void)value;
  return HSA_STATUS_ERROR_INVALID_ARGUMENT; /* no AMD attribute: it is no device */
}

static void pl_shut_down(struct agent *agent) { (void)agent; }

static const struct agent_ops placement_ops = {
    .queue_attach = pl_queue_attach,
    .queue_detach = pl_queue_detach,
    .queue_update = pl_queue_update,
    .get_info = pl_get_info,
    .shut_down = pl_shut_down,
};

/* ---- Set-up ----------------------------------------------------------------------- */

void placement_init(void) {
  struct agent *a = &rt.placement.agent;
  memset(a, 0, sizeof *a);
  a->ops = &placement_ops;
  a->device_type = HSA_EXT_PLACEMENT_DEVICE_TYPE;
  a->node = UINT32_MAX;
  strcpy(a->name, "placement");
  strcpy(a->vendor_name, "hsa-metal");
  strcpy(a->product_name, "placement agent");
  a->features = HSA_AGENT_FEATURE_KERNEL_DISPATCH;
  a->profile = HSA_PROFILE_FULL;
  a->queues_max = PLACEMENT_QUEUES_MAX;
  a->queue_min_size = 64;
  a->queue_max_size = 1u << 16;
  a->compute_units = 0;
  rt.placement.inflight_tail = &rt.placement.inflight;
  for (uint32_t i = 0; i < agent_count() && rt.placement.count < PL_MAX_AGENTS; i++) {
    struct agent *r = agent_at(i);
    if (!(r->features & HSA_AGENT_FEATURE_KERNEL_DISPATCH)) continue;
    rt.placement.real[rt.placement.count++] = r;
    /* CU masks set on a placement queue go to every agent's queue: their
     * bits reach as far as the largest agent's. */
    if (r->compute_units > a->compute_units) a->compute_units = r->compute_units;
    /* What every real agent can take (ROCr's agent attributes). */
    if (r->queue_max_size < a->queue_max_size) a->queue_max_size = r->queue_max_size;
    if (r->queue_min_size > a->queue_min_size) a->queue_min_size = r->queue_min_size;
    if (!a->workgroup_max_size || r->workgroup_max_size < a->workgroup_max_size) {
      a->workgroup_max_size = r->workgroup_max_size;
      memcpy(a->workgroup_max_dim, r->workgroup_max_dim, sizeof a->workgroup_max_dim);
      a->grid_max_dim = r->grid_max_dim;
      a->grid_max_size = r->grid_max_size;
      a->wavefront_size = r->wavefront_size;
    }
  }
  memset(rt.placement.pending_ns, 0, sizeof rt.placement.pending_ns);
  for (uint32_t i = 0; i < PL_MAX_AGENTS; i++) rt.placement.slowdown[i] = 1;
  rt.placement.log = plat_option("placement_log") != NULL;
  rt.placement.ready = true;
}

void placement_queues_fini(void) {
  for (;;) {
    lock_acquire(&rt.placement.lock);
    struct pl_queue *pq = rt.placement.queues;
    lock_release(&rt.placement.lock);
    if (!pq) return;
    queue_destroy(pq->q); /* detaches: off the list */
  }
}

void placement_fini(void) {
  lock_acquire(&rt.placement.lock);
  rt.placement.ready = false;
  struct pl_record *lists[2] = {rt.placement.inflight, rt.placement.free_records};
  for (int l = 0; l < 2; l++)
    while (lists[l]) {
      struct pl_record *r = lists[l];
      lists[l] = r->next;
      signal_destroy(r->signal);
      free(r);
    }
  while (rt.placement.splits) {
    struct split_record *r = rt.placement.splits;
    rt.placement.splits = r->next;
    split_free(r);
  }
  while (rt.placement.kernels) { /* executables_fini freed theirs; none should be left */
    struct pl_kernel *k = rt.placement.kernels;
    rt.placement.kernels = k->next;
    free(k);
  }
  lock_release(&rt.placement.lock);
  /* Back to the state before the first hsa_init: what the lists held is
   * freed, the queues went before (placement_queues_fini), and a free lock
   * is all zero too. */
  rt.placement = (struct placement_state){0};
}
