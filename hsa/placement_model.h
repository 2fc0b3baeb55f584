/*
 * placement_model.h - the placement queue's decision (hsa_ext_placement.h),
 * kept apart from the forwarding so that it can be tested against injected
 * measurements: what each agent took for a kernel, per size class, and the
 * choice of the agent predicted to finish a dispatch first (earliest finish
 * time, as StarPU's "dmda" scheduler; with no copy to count on an APU).
 */
#ifndef HSA_PLACEMENT_MODEL_H
#define HSA_PLACEMENT_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#define PL_MAX_AGENTS      8
#define PL_SIZE_CLASSES    33 /* floor(log2(work-items)): 0..32 */
#define PL_EXPLORE_SAMPLES 3  /* measurements per size class before trusting it */
/* Beyond the first, a size class is sampled on an agent only while that
 * agent is predicted within this factor of the best one's fastest recent
 * time: a wider gap is not noise that more samples could close, and each
 * sample costs the gap. */
#define PL_EXPLORE_NEAR 4
#define PL_RECENT          8  /* a class predicts the median of its last 8 times */
#define PL_EXPLORE_MAX     16 /* explorations per kernel and agent, at most */
/* Timing a dispatch costs a CPU agent's dispatch its clock reads (a GPU's
 * time stamps come free): once a class holds PL_RECENT times on an agent,
 * one of its dispatches in PL_TIME_EVERY there is timed (pl_time_due). */
#define PL_TIME_EVERY 8

struct pl_class {
  uint32_t count;
  uint32_t inflight; /* chosen, not yet measured (exploration counts them) */
  uint64_t sum_items, sum_ns;
  /* The last PL_RECENT times: their median is the class's time, so that a
   * few outliers (a core taken away, a wake-up) do not decide for long. */
  uint64_t recent[PL_RECENT];
  uint64_t sorted[PL_RECENT]; /* the same times in ascending order */
  uint32_t recent_count, recent_next;
  uint64_t median_ns; /* of recent[], kept by pl_record: a prediction only reads it */
  uint32_t untimed;   /* dispatches since the last timed one (pl_time_due) */
};

struct pl_history {
  struct pl_class cls[PL_SIZE_CLASSES];
  /* Bit c: cls[c] holds a measurement (pl_record). A prediction finds the
   * measured classes nearest its size from this word, not by walking the
   * classes (a cache line each), as it runs before every dispatch. */
  uint64_t measured_classes;
  uint64_t dispatches, measured, explored, total_ns, total_items;
};

/* One agent as the decision sees it: may it run the dispatch, how much
 * predicted work is queued there already, and how much slower it runs
 * while other agents run (pl_slowdown_update; 0 or 1: not at all). */
struct pl_candidate {
  bool allowed;
  uint64_t queued_ns;
  double slowdown;
};

/* The last choice pl_choose made without exploring: the same choice again
 * for the same work-items, candidates and bound until something else it
 * read changes (pl_record when a sample moved what the choice reads,
 * pl_reset, and pl_drop while the class is still being explored clear
 * `valid`). A stream of dispatches of one size then costs one decision
 * between the samples that move it, not one per dispatch. */
struct pl_choice {
  int agent;             /* index into the candidates; -1: none allowed */
  bool explored;         /* sent there to measure it */
  bool predicted;        /* predicted_ns is a prediction (false: no data yet) */
  uint64_t predicted_ns; /* its predicted execution time, alone on the machine */
  uint64_t run_ns;       /* the same, slowed by the other agents' queued work */
};
struct pl_memo {
  bool valid;
  uint32_t n;
  uint64_t items, latency_bound_ns;
  struct pl_candidate c[PL_MAX_AGENTS];
  struct pl_choice choice;
};

struct pl_kernel_model {
  struct pl_history agent[PL_MAX_AGENTS];
  struct pl_memo memo;
};

uint32_t pl_size_class(uint64_t items);
/* The predicted time of `items` work-items from what `h` holds; false when
 * it holds no measurement. */
bool pl_predict(const struct pl_history *h, uint64_t items, uint64_t *ns);
/* Chooses among `n` candidates (n <= PL_MAX_AGENTS); latency_bound_ns 0: none.
 * Earliest finish, with what the choice does to the others: agents that
 * share the machine (cores, memory bandwidth, power) slow each other down,
 * so the agent is chosen for which all queued work, this dispatch's
 * included, is predicted to be done first, and among those the one that
 * finishes this dispatch first. With no slowdown that is the agent that
 * finishes it first. */
struct pl_choice pl_choose(struct pl_kernel_model *m, uint64_t items, const struct pl_candidate *c,
                           uint32_t n, uint64_t latency_bound_ns);
/* A packet with the barrier bit starts, wherever it goes, only once every
 * packet before it in its queue has completed (hsa.h,
 * HSA_PACKET_HEADER_BARRIER), on whichever agents those went to: each
 * candidate's queued work is then at least `earlier_ns`, what the queue's
 * earlier packets are predicted to take. */
void pl_after_earlier(struct pl_candidate *c, uint32_t n, uint64_t earlier_ns);
/* An agent's slowdown (*slowdown, from 1) after a dispatch that ran while
 * other agents had work took `ns` where `predicted_ns` was predicted from
 * its times alone: a moving average of the ratio, at least 1, at most
 * PL_SLOWDOWN_MAX. */
#define PL_SLOWDOWN_MAX 16.0
void pl_slowdown_update(double *slowdown, uint64_t ns, uint64_t predicted_ns);
/* A measurement: agent `agent` ran `items` work-items in `ns`. */
void pl_record(struct pl_kernel_model *m, uint32_t agent, uint64_t items, uint64_t ns);
/* Whether to time the dispatch of `items` work-items just chosen for
 * `agent`: while the class holds fewer than PL_RECENT times there, every
 * one; then one in PL_TIME_EVERY (it counts the dispatch). */
bool pl_time_due(struct pl_kernel_model *m, uint32_t agent, uint64_t items);
/* A dispatch chosen for `agent` that will never be measured. */
void pl_drop(struct pl_kernel_model *m, uint32_t agent, uint64_t items);
void pl_reset(struct pl_kernel_model *m);

#endif
