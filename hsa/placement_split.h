/*
 * placement_split.h - one kernel dispatch shared between the GPU and the CPU
 * agents (co-execution, hsa_ext_placement.h): what hsa/placement.c gives
 * the CPU agents' packet processors (hsa/cpu_agent_queue.c).
 *
 * The grid's work-groups, in linear order (x fastest, then y, then z), are
 * split in two: the GPU runs a prefix of whole slices of the slowest
 * dimension as one dispatch with a smaller grid (its work-group ids are
 * the same as in the whole grid, its sizes come from the hidden arguments
 * the program filled for the whole grid); the CPU agents take the rest in
 * chunks from `next` until `end`, each chunk a share of what is left
 * (guided self-scheduling), so that an agent that finishes early takes
 * more. A forwarded dispatch packet names its split (or its measurement,
 * below) in `reserved2`; only forward queues (queue.h `forwarded_for`) are
 * read that way. Each part gives the parts' signal its end time (the
 * latest is the split's), whether or not the program profiles.
 */
#ifndef HSA_PLACEMENT_SPLIT_H
#define HSA_PLACEMENT_SPLIT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <hsa/hsa.h>

#include "hsa/runtime.h"

#define PLACEMENT_SPLIT_MAGIC 0x54494c50534c5048ull /* "HPLSPLIT" */

/* A forwarded dispatch measured without a packet behind it (CPU agents):
 * `reserved2` holds the address of the record's signal (64-byte aligned,
 * amd_hsa_signal.h) with PLACEMENT_MEASURE set, and PLACEMENT_MEASURE_TIMED
 * if its time is wanted. The processor learns all from the packet, without
 * reading a line the placement queue has just written (a round trip
 * between cores before the dispatch could start). It gives the signal the
 * value 0 (a plain store: nothing waits on it, the placement queue polls
 * it) before it completes the packet's own completion signal; if timed,
 * first the packet's end time (and its start when the program profiles).
 * Each time is a clock read on the dispatch's path: the placement queue
 * asks for the samples it needs (placement_model.h, pl_time_due). Any
 * other non-zero reserved2 names a struct placement_split. */
#define PLACEMENT_MEASURE       1ull
#define PLACEMENT_MEASURE_TIMED 2ull

static inline uint64_t placement_measure_word(struct signal *s, bool timed) {
  return (uint64_t)(uintptr_t)s | PLACEMENT_MEASURE | (timed ? PLACEMENT_MEASURE_TIMED : 0);
}

/* The record's signal a forwarded packet's reserved2 names, or NULL. */
static inline struct signal *placement_measure_signal(uint64_t reserved2) {
  return reserved2 & PLACEMENT_MEASURE
             ? (struct signal *)(uintptr_t)(reserved2 &
                                            ~(PLACEMENT_MEASURE | PLACEMENT_MEASURE_TIMED))
             : NULL;
}

struct placement_split {
  uint64_t magic;
  _Atomic uint64_t next; /* the next work-group (linear) the CPU agents may take */
  uint64_t end;          /* the grid's work-group count */
  uint32_t cpu_agents;   /* taking part, for the chunk size */
  _Atomic uint64_t groups[RUNTIME_MAX_AGENTS]; /* work-groups run, per agent node */
};

/* The next chunk [*first, *first + *count) for one CPU agent; false when
 * none is left. */
static inline bool placement_split_claim(struct placement_split *s, uint64_t *first,
                                         uint64_t *count) {
  uint64_t next = atomic_load_explicit(&s->next, memory_order_relaxed);
  for (;;) {
    if (next >= s->end) return false;
    uint64_t left = s->end - next;
    uint64_t take = left / (2 * (uint64_t)(s->cpu_agents ? s->cpu_agents : 1));
    if (take < 1) take = 1;
    if (atomic_compare_exchange_weak_explicit(&s->next, &next, next + take, memory_order_acq_rel,
                                              memory_order_relaxed)) {
      *first = next;
      *count = take;
      return true;
    }
  }
}

#endif
