/*
 * placement_model.c - the placement decision (placement_model.h): history
 * per kernel, agent and size class, piecewise-linear prediction, bounded
 * exploration, earliest finish time with the agents' slowdown of each
 * other.
 */
#include "hsa/placement_model.h"

#include <string.h>

_Static_assert(PL_SIZE_CLASSES <= 64, "measured_classes has a bit per size class");

uint32_t pl_size_class(uint64_t items) {
  uint32_t c = items > 1 ? 63 - (uint32_t)__builtin_clzll(items) : 0;
  return c < PL_SIZE_CLASSES ? c : PL_SIZE_CLASSES - 1;
}

/* The measured class nearest above (below) class c, or -1. */
static int measured_above(const struct pl_history *h, int c) {
  uint64_t m = c < 0 ? 0 : h->measured_classes & ~((2ull << c) - 1);
  return m ? __builtin_ctzll(m) : -1;
}
static int measured_below(const struct pl_history *h, int c) {
  uint64_t m = c < 0 ? 0 : h->measured_classes & ((1ull << c) - 1);
  return m ? 63 - __builtin_clzll(m) : -1;
}

/* A point (mean items, mean time) of a measured class. */
struct point {
  double items, ns;
};

/* Puts `ns` into the class's recent times in place of the oldest once
 * there are PL_RECENT, keeping `sorted` in order (a step per time moved:
 * this runs for every measured dispatch), and returns their median. */
static uint64_t recent_add(struct pl_class *c, uint64_t ns) {
  uint32_t n = c->recent_count;
  if (n == PL_RECENT) { /* the oldest leaves sorted[] */
    uint64_t oldest = c->recent[c->recent_next];
    uint32_t i = 0;
    while (c->sorted[i] != oldest) i++;
    for (n--; i < n; i++) c->sorted[i] = c->sorted[i + 1];
  }
  uint32_t j = n;
  for (; j > 0 && c->sorted[j - 1] > ns; j--) c->sorted[j] = c->sorted[j - 1];
  c->sorted[j] = ns;
  c->recent_count = ++n;
  c->recent[c->recent_next] = ns;
  c->recent_next = (c->recent_next + 1) % PL_RECENT;
  return n % 2 ? c->sorted[n / 2] : (c->sorted[n / 2 - 1] + c->sorted[n / 2]) / 2;
}

static struct point class_point(const struct pl_class *c) {
  return (struct point){(double)c->sum_items / c->count, (double)c->median_ns};
}

/* Line through a and b at x; the slope is never negative (more work never
 * takes less time), the result never below zero. */
static double line_at(struct point a, struct point b, double x) {
  double slope = b.items != a.items ? (b.ns - a.ns) / (b.items - a.items) : 0;
  if (slope < 0) slope = 0;
  /* From the nearer point (the same line unless the slope was clamped). */
  struct point from = (x - a.items) * (x - a.items) <= (x - b.items) * (x - b.items) ? a : b;
  double y = from.ns + slope * (x - from.items);
  return y > 0 ? y : 0;
}

bool pl_predict(const struct pl_history *h, uint64_t items, uint64_t *ns) {
  uint32_t own = pl_size_class(items);
  if (h->measured_classes >> own & 1) {
    struct point p = class_point(&h->cls[own]);
    /* Inside its own class: that class's mean, moved along the line to the
     * neighbouring measured class on the side of the size. */
    int other =
        (double)items >= p.items ? measured_above(h, (int)own) : measured_below(h, (int)own);
    double y = p.ns;
    if (other >= 0) {
      struct point q = class_point(&h->cls[other]);
      y = q.items > p.items ? line_at(p, q, (double)items) : line_at(q, p, (double)items);
    }
    *ns = (uint64_t)(y + 0.5);
    return true;
  }
  /* The measured classes nearest below and above the size (two each, for
   * extrapolation at the ends). */
  int below = measured_below(h, (int)own), below2 = measured_below(h, below);
  int above = measured_above(h, (int)own), above2 = measured_above(h, above);
  double x = (double)items, y;
  if (below >= 0 && above >= 0)
    y = line_at(class_point(&h->cls[below]), class_point(&h->cls[above]), x);
  else if (below >= 0 && below2 >= 0)
    y = line_at(class_point(&h->cls[below2]), class_point(&h->cls[below]), x);
  else if (above >= 0 && above2 >= 0)
    y = line_at(class_point(&h->cls[above]), class_point(&h->cls[above2]), x);
  else if (below >= 0) {
    /* One point, smaller: no launch cost known, so scale it with the work
     * (pessimistic for the agent). */
    struct point p = class_point(&h->cls[below]);
    y = p.ns * x / p.items;
  } else if (above >= 0)
    y = class_point(&h->cls[above]).ns; /* one point, larger: at most that */
  else
    return false;
  *ns = (uint64_t)(y + 0.5);
  return true;
}

static double slowdown_of(const struct pl_candidate *c) {
  return c->slowdown > 1 ? c->slowdown : 1;
}

/* If candidate i runs a dispatch predicted at `predicted` ns alone: its run
 * (slowed while others have work queued), when it ends (*own), and when
 * every agent's queued work ends (*span): the others' work that overlaps
 * the run is slowed by their own factors. */
static void finish_if_chosen(const struct pl_candidate *c, uint32_t n, uint32_t i,
                             uint64_t predicted, double *run, double *own, double *span) {
  bool others = false;
  for (uint32_t j = 0; j < n; j++) others |= j != i && c[j].queued_ns > c[i].queued_ns;
  *run = (double)predicted * (others ? slowdown_of(&c[i]) : 1);
  *own = (double)c[i].queued_ns + *run;
  *span = *own;
  for (uint32_t j = 0; j < n; j++) {
    if (j == i || !c[j].queued_ns) continue;
    double start = (double)c[i].queued_ns, busy = (double)c[j].queued_ns;
    double overlap = busy > start ? (busy < *own ? busy : *own) - start : 0;
    double end = busy + overlap * (slowdown_of(&c[j]) - 1);
    if (end > *span) *span = end;
  }
}

/* The choice counted: a dispatch sent to its agent, in flight there. */
static struct pl_choice chosen(struct pl_kernel_model *m, uint32_t cls, struct pl_choice choice) {
  if (choice.agent >= 0) {
    m->agent[choice.agent].dispatches++;
    m->agent[choice.agent].cls[cls].inflight++;
    if (choice.explored) m->agent[choice.agent].explored++;
  }
  return choice;
}

struct pl_choice pl_choose(struct pl_kernel_model *m, uint64_t items, const struct pl_candidate *c,
                           uint32_t n, uint64_t latency_bound_ns) {
  struct pl_choice best = {.agent = -1};
  uint32_t cls = pl_size_class(items);
  uint64_t predicted[PL_MAX_AGENTS];
  bool known[PL_MAX_AGENTS], within[PL_MAX_AGENTS];
  bool any_within = false;
  if (n > PL_MAX_AGENTS) n = PL_MAX_AGENTS;
  struct pl_memo *memo = &m->memo;
  bool same = memo->valid && memo->items == items && memo->n == n &&
              memo->latency_bound_ns == latency_bound_ns;
  for (uint32_t i = 0; same && i < n; i++)
    same = memo->c[i].allowed == c[i].allowed && memo->c[i].queued_ns == c[i].queued_ns &&
           memo->c[i].slowdown == c[i].slowdown;
  if (same) return chosen(m, cls, memo->choice);
  for (uint32_t i = 0; i < n; i++) {
    known[i] = c[i].allowed && pl_predict(&m->agent[i], items, &predicted[i]);
    within[i] =
        c[i].allowed && (!latency_bound_ns || !known[i] || predicted[i] <= latency_bound_ns);
    any_within |= within[i] && known[i];
  }
  /* What the best agent can do, to which further samples are compared:
   * its fastest recent time at this size (a slow outlier among its first
   * samples must not make a far slower agent look near), or its
   * prediction. */
  uint64_t best_fastest = UINT64_MAX;
  for (uint32_t i = 0; i < n; i++) {
    if (!known[i] || !within[i]) continue;
    const struct pl_class *k = &m->agent[i].cls[cls];
    uint64_t fastest = predicted[i];
    if (k->recent_count && k->sorted[0] < fastest) fastest = k->sorted[0];
    if (fastest < best_fastest) best_fastest = fastest;
  }
  /* Exploration: an allowed agent (within the bound, or with nothing known
   * yet) with too few measurements of this size class and explorations
   * left, and, past its first sample there, not far slower than the best
   * (PL_EXPLORE_NEAR); the one with the fewest. Past its first sample, an
   * agent none of whose samples is measured yet waits for them while
   * another agent's measurement of the class is in: its own is on the way
   * (a GPU's lags the program's signal), and the next sample depends on it.
   * Before any measurement (dispatches queued back to back) every agent
   * takes its samples. */
  bool class_measured = false;
  for (uint32_t i = 0; i < n; i++) class_measured |= c[i].allowed && m->agent[i].cls[cls].count > 0;
  int explore = -1;
  for (uint32_t i = 0; i < n; i++) {
    const struct pl_history *h = &m->agent[i];
    uint32_t seen = h->cls[cls].count + h->cls[cls].inflight;
    if (!within[i] || h->explored >= PL_EXPLORE_MAX || seen >= PL_EXPLORE_SAMPLES) continue;
    if (seen > 0 && h->cls[cls].count == 0 && class_measured) continue;
    if (seen > 0 && known[i] && predicted[i] / PL_EXPLORE_NEAR > best_fastest) continue;
    const struct pl_class *e = explore < 0 ? NULL : &m->agent[explore].cls[cls];
    if (!e || seen < e->count + e->inflight) explore = (int)i;
  }
  if (explore >= 0) {
    best.agent = explore;
    best.explored = true;
    best.predicted = known[explore];
    best.predicted_ns = known[explore] ? predicted[explore] : 0;
    if (known[explore]) {
      double run, own, span;
      finish_if_chosen(c, n, (uint32_t)explore, predicted[explore], &run, &own, &span);
      best.run_ns = (uint64_t)(run + 0.5);
    }
    return chosen(m, cls, best);
  }
  /* Earliest finish of everything queued, then of this dispatch, among the
   * agents within the bound if there are any. */
  double best_span = 0, best_own = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (!c[i].allowed || (any_within && !within[i])) continue;
    if (!known[i]) {
      if (best.agent < 0) best.agent = (int)i; /* nothing known anywhere: the first */
      continue;
    }
    double run, own, span;
    finish_if_chosen(c, n, i, predicted[i], &run, &own, &span);
    if (!best.predicted || span < best_span || (span == best_span && own < best_own)) {
      best_span = span;
      best_own = own;
      best.agent = (int)i;
      best.predicted = true;
      best.predicted_ns = predicted[i];
      best.run_ns = (uint64_t)(run + 0.5);
    }
  }
  if (best.agent >= 0) {
    memo->valid = true;
    memo->n = n;
    memo->items = items;
    memo->latency_bound_ns = latency_bound_ns;
    memcpy(memo->c, c, n * sizeof *c);
    memo->choice = best;
  }
  return chosen(m, cls, best);
}

void pl_after_earlier(struct pl_candidate *c, uint32_t n, uint64_t earlier_ns) {
  for (uint32_t i = 0; i < n && i < PL_MAX_AGENTS; i++)
    if (c[i].queued_ns < earlier_ns) c[i].queued_ns = earlier_ns;
}

void pl_slowdown_update(double *slowdown, uint64_t ns, uint64_t predicted_ns) {
  if (!predicted_ns) return;
  double ratio = (double)ns / (double)predicted_ns, s = *slowdown > 1 ? *slowdown : 1;
  s += (ratio - s) / 8;
  *slowdown = s < 1 ? 1 : s > PL_SLOWDOWN_MAX ? PL_SLOWDOWN_MAX : s;
}

void pl_record(struct pl_kernel_model *m, uint32_t agent, uint64_t items, uint64_t ns) {
  if (agent >= PL_MAX_AGENTS) return;
  struct pl_history *h = &m->agent[agent];
  struct pl_class *c = &h->cls[pl_size_class(items)];
  struct point before = c->count ? class_point(c) : (struct point){0, 0};
  uint64_t fastest = c->recent_count ? c->sorted[0] : 0, classes = h->measured_classes;
  /* Keep the recent past: halve a class's sums once it holds 64 samples,
   * so a changed speed (another load, another clock) shows. */
  if (c->count >= 64) {
    c->count /= 2;
    c->sum_items /= 2;
    c->sum_ns /= 2;
  }
  if (c->inflight) c->inflight--;
  c->count++;
  c->sum_items += items;
  c->sum_ns += ns;
  c->median_ns = recent_add(c, ns);
  h->measured_classes |= 1ull << (c - h->cls);
  /* The choice pl_choose remembers stays what it would choose afresh
   * unless something it reads moved: this class's point (a prediction's
   * input), its fastest recent time (the exploration's yardstick), or the
   * set of measured classes (a first sample, which also lets an agent that
   * waited for it be explored). Its count does not matter once it has a
   * sample: a sample in flight became a measured one. In a stream of one
   * size on a clock of coarse ticks most samples move none of them. */
  struct point after = class_point(c);
  if (after.items != before.items || after.ns != before.ns || c->sorted[0] != fastest ||
      h->measured_classes != classes)
    m->memo.valid = false;
  h->measured++;
  h->total_ns += ns;
  h->total_items += items;
}

bool pl_time_due(struct pl_kernel_model *m, uint32_t agent, uint64_t items) {
  if (agent >= PL_MAX_AGENTS) return false;
  struct pl_class *c = &m->agent[agent].cls[pl_size_class(items)];
  if (c->recent_count < PL_RECENT || ++c->untimed >= PL_TIME_EVERY) {
    c->untimed = 0;
    return true;
  }
  return false;
}

void pl_drop(struct pl_kernel_model *m, uint32_t agent, uint64_t items) {
  if (agent >= PL_MAX_AGENTS) return;
  struct pl_class *c = &m->agent[agent].cls[pl_size_class(items)];
  if (c->inflight) c->inflight--;
  /* Fewer in flight may let exploration send it another sample; once the
   * class holds PL_EXPLORE_SAMPLES measurements it never does. */
  if (c->count < PL_EXPLORE_SAMPLES) m->memo.valid = false;
}

void pl_reset(struct pl_kernel_model *m) { memset(m, 0, sizeof *m); }
