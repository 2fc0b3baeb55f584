/*
 * placement_model_test.c - the placement decision (hsa/placement_model.h)
 * against injected measurements, deterministic: predictions from measured
 * classes, small grids to the agent with the lower launch cost and large
 * ones to the higher throughput, queued work shifting the choice (and the
 * barrier bit making a queue's earlier work everyone's, and agents that
 * slow each other down keeping work where it is queued),
 * exploration that ends, disallowed agents never chosen, the latency bound.
 * Agent 0 plays a CPU (no launch cost, 10 ns per item), agent 1 a GPU
 * (20 us to launch, 0.5 ns per item): invented figures, the model assumes
 * none.
 */
#include <string.h>

#include "hsa/placement_model.h"
#include "lib/test.h"

static uint64_t cpu_ns(uint64_t items) { return 10 * items; }
static uint64_t gpu_ns(uint64_t items) { return 20000 + items / 2; }

static const struct pl_candidate both[2] = {{true, 0, 1}, {true, 0, 1}};

/* Runs the model's choices for `items` `rounds` times, feeding back the
 * invented times; counts per agent. */
static void drive(struct pl_kernel_model *m, uint64_t items, int rounds,
                  const struct pl_candidate *c, int counts[2], int *explored) {
  for (int r = 0; r < rounds; r++) {
    struct pl_choice ch = pl_choose(m, items, c, 2, 0);
    ASSERT_TRUE(ch.agent == 0 || ch.agent == 1);
    ASSERT_TRUE(c[ch.agent].allowed);
    counts[ch.agent]++;
    if (ch.explored) (*explored)++;
    pl_record(m, (uint32_t)ch.agent, items, ch.agent == 0 ? cpu_ns(items) : gpu_ns(items));
  }
}

TEST(placement_model_size_classes_and_predictions) {
  ASSERT_EQ(pl_size_class(0), 0);
  ASSERT_EQ(pl_size_class(1), 0);
  ASSERT_EQ(pl_size_class(2), 1);
  ASSERT_EQ(pl_size_class(1023), 9);
  ASSERT_EQ(pl_size_class(1024), 10);
  ASSERT_EQ(pl_size_class(UINT64_MAX), PL_SIZE_CLASSES - 1);
  struct pl_kernel_model m;
  pl_reset(&m);
  uint64_t ns;
  ASSERT_FALSE(pl_predict(&m.agent[0], 100, &ns));
  /* Two classes measured: in between, the line through them. */
  pl_record(&m, 0, 1000, 1000);
  pl_record(&m, 0, 100000, 50500);
  ASSERT_TRUE(pl_predict(&m.agent[0], 10000, &ns));
  ASSERT_EQ(ns, 5500); /* 1000 + (9000 * 49500 / 99000) */
  /* Beyond the largest: the same line extrapolated. */
  ASSERT_TRUE(pl_predict(&m.agent[0], 1000000, &ns));
  ASSERT_EQ(ns, 500500);
  /* Below the smallest: the line again, never below zero. */
  ASSERT_TRUE(pl_predict(&m.agent[0], 1, &ns));
  ASSERT_LE(ns, 1000);
  /* One point only: larger sizes scale with the work, smaller stay at it. */
  pl_reset(&m);
  pl_record(&m, 1, 1000, 4000);
  ASSERT_TRUE(pl_predict(&m.agent[1], 4000, &ns));
  ASSERT_EQ(ns, 16000);
  ASSERT_TRUE(pl_predict(&m.agent[1], 10, &ns));
  ASSERT_EQ(ns, 4000);
  /* A time that shrinks with more work is taken as flat. */
  pl_reset(&m);
  pl_record(&m, 0, 100, 9000);
  pl_record(&m, 0, 10000, 1000);
  ASSERT_TRUE(pl_predict(&m.agent[0], 100000, &ns));
  ASSERT_EQ(ns, 1000);
  /* Inside a measured class: its mean, moved along the line to the nearest
   * measured class on the size's side (none below: the mean's time). */
  pl_reset(&m);
  pl_record(&m, 0, 600, 600);
  pl_record(&m, 0, 100000, 50500);
  ASSERT_TRUE(pl_predict(&m.agent[0], 900, &ns));
  ASSERT_EQ(ns, 751); /* 600 + 300 * 49900 / 99400 */
  ASSERT_TRUE(pl_predict(&m.agent[0], 550, &ns));
  ASSERT_EQ(ns, 600);
  /* Invalid agents are ignored. */
  pl_record(&m, PL_MAX_AGENTS, 1, 1);
}

TEST(placement_model_small_grids_go_to_the_lower_launch_cost_large_to_the_throughput) {
  struct pl_kernel_model m;
  pl_reset(&m);
  int small[2] = {0}, large[2] = {0}, explored = 0;
  drive(&m, 256, 40, both, small, &explored);     /* CPU 2.5 us, GPU 20 us */
  drive(&m, 1 << 20, 40, both, large, &explored); /* CPU 10 ms, GPU 0.5 ms */
  /* Exploration: PL_EXPLORE_SAMPLES on the faster agent per size, one on
   * the other, 8x (small) and 20x (large) slower, which more samples could
   * not make the better one; then the right agent every time. */
  ASSERT_EQ(explored, 2 * PL_EXPLORE_SAMPLES + 2);
  ASSERT_EQ(small[1], 1);
  ASSERT_EQ(small[0], 39);
  ASSERT_EQ(large[0], 1);
  ASSERT_EQ(large[1], 39);
  /* A size between them, never measured: the lines through the measured
   * classes (exact here, the invented times being linear). */
  uint64_t ns;
  ASSERT_TRUE(pl_predict(&m.agent[0], 65536, &ns));
  ASSERT_EQ(ns, cpu_ns(65536));
  ASSERT_TRUE(pl_predict(&m.agent[1], 65536, &ns));
  ASSERT_EQ(ns, gpu_ns(65536));
  /* Statistics follow. */
  ASSERT_EQ(m.agent[0].dispatches + m.agent[1].dispatches, 80);
  ASSERT_EQ(m.agent[0].measured + m.agent[1].measured, 80);
  ASSERT_EQ(m.agent[0].explored, PL_EXPLORE_SAMPLES + 1);
}

TEST(placement_model_samples_past_the_first_only_an_agent_near_the_best) {
  struct pl_kernel_model m;
  pl_reset(&m);
  /* 4096 items: CPU 41 us, GPU 22 us, within PL_EXPLORE_NEAR of each
   * other: both sampled PL_EXPLORE_SAMPLES times. */
  int counts[2] = {0}, explored = 0;
  drive(&m, 4096, 20, both, counts, &explored);
  ASSERT_EQ(m.agent[0].cls[pl_size_class(4096)].count, PL_EXPLORE_SAMPLES);
  ASSERT_EQ(m.agent[1].cls[pl_size_class(4096)].count, 20 - PL_EXPLORE_SAMPLES);
  ASSERT_EQ(explored, 2 * PL_EXPLORE_SAMPLES);
  /* A GPU 1000x slower at 2^20 items (its first sample says so): it is
   * not sampled again, every later dispatch goes to the CPU. */
  pl_reset(&m);
  pl_record(&m, 0, 1 << 20, cpu_ns(1 << 20));
  pl_record(&m, 1, 1 << 20, 1000 * cpu_ns(1 << 20));
  for (int r = 0; r < 10; r++) {
    struct pl_choice ch = pl_choose(&m, 1 << 20, both, 2, 0);
    ASSERT_EQ(ch.agent, 0);
    pl_record(&m, 0, 1 << 20, cpu_ns(1 << 20));
  }
  ASSERT_EQ(m.agent[1].cls[pl_size_class(1 << 20)].count, 1);
  ASSERT_EQ(m.agent[1].explored, 0);
  /* The CPU's first sample an outlier (5x its time): a GPU 12x slower than
   * its usual time still looks far, as the CPU's fastest sample says. */
  pl_reset(&m);
  pl_record(&m, 0, 1 << 20, 5 * cpu_ns(1 << 20));
  pl_record(&m, 0, 1 << 20, cpu_ns(1 << 20));
  pl_record(&m, 1, 1 << 20, 12 * cpu_ns(1 << 20));
  struct pl_choice ch = pl_choose(&m, 1 << 20, both, 2, 0);
  ASSERT_EQ(ch.agent, 0);
  ASSERT_EQ(m.agent[1].explored, 0);
}

TEST(placement_model_queued_work_shifts_the_choice) {
  struct pl_kernel_model m;
  pl_reset(&m);
  int counts[2] = {0}, explored = 0;
  drive(&m, 1 << 16, 10, both, counts, &explored); /* CPU 655 us, GPU 53 us: the GPU */
  struct pl_candidate c[2] = {{true, 0, 1}, {true, 0, 1}};
  ASSERT_EQ(pl_choose(&m, 1 << 16, c, 2, 0).agent, 1);
  c[1].queued_ns = 700000; /* the GPU is busy for 700 us more */
  struct pl_choice ch = pl_choose(&m, 1 << 16, c, 2, 0);
  ASSERT_EQ(ch.agent, 0);
  ASSERT_EQ(ch.predicted_ns, cpu_ns(1 << 16));
  c[0].queued_ns = 200000; /* and the CPU for 200 us: back to the GPU */
  ASSERT_EQ(pl_choose(&m, 1 << 16, c, 2, 0).agent, 1);
}

TEST(placement_model_the_barrier_bit_makes_earlier_work_wait_everywhere) {
  struct pl_kernel_model m;
  pl_reset(&m);
  int counts[2] = {0}, explored = 0;
  drive(&m, 256, 10, both, counts, &explored); /* CPU 2.5 us, GPU 20 us: the CPU */
  struct pl_candidate c[2] = {{true, 700000, 1}, {true, 0, 1}}; /* the CPU is busy for 700 us */
  ASSERT_EQ(pl_choose(&m, 256, c, 2, 0).agent, 1);
  /* With the barrier bit the packet waits for the queue's earlier packets
   * (here the CPU's 700 us) on either agent: the faster one is chosen. */
  pl_after_earlier(c, 2, 700000);
  ASSERT_EQ(c[0].queued_ns, 700000);
  ASSERT_EQ(c[1].queued_ns, 700000);
  struct pl_choice ch = pl_choose(&m, 256, c, 2, 0);
  ASSERT_EQ(ch.agent, 0);
  ASSERT_EQ(ch.predicted_ns, cpu_ns(256));
  /* Work of other queues on an agent still counts beyond it. */
  c[0].queued_ns = 800000;
  pl_after_earlier(c, 2, 700000);
  ASSERT_EQ(c[0].queued_ns, 800000);
  ASSERT_EQ(pl_choose(&m, 256, c, 2, 0).agent, 1);
}

TEST(placement_model_a_slowdown_of_each_other_keeps_work_on_the_busy_agent) {
  struct pl_kernel_model m;
  pl_reset(&m);
  int counts[2] = {0}, explored = 0;
  drive(&m, 256, 10, both, counts, &explored); /* CPU 2.56 us, GPU 20.1 us */
  /* The CPU is busy for 586 us. Independent agents: the idle GPU finishes
   * the dispatch first and nothing else later. */
  struct pl_candidate c[2] = {{true, 586000, 1}, {true, 0, 1}};
  struct pl_choice ch = pl_choose(&m, 256, c, 2, 0);
  ASSERT_EQ(ch.agent, 1);
  ASSERT_EQ(ch.run_ns, gpu_ns(256));
  /* A slight slowdown (5%: shared memory bandwidth) changes nothing. */
  c[0].slowdown = 1.05;
  ASSERT_EQ(pl_choose(&m, 256, c, 2, 0).agent, 1);
  /* Agents that slow each other down a lot (the host, where the GPU's
   * interpreter takes cores from the CPU agent): the GPU's 20 us would cost
   * the CPU's queued work 60 us, all of it done later than with the
   * dispatch queued on the CPU. */
  c[0].slowdown = 4;
  c[1].slowdown = 1.5;
  ch = pl_choose(&m, 256, c, 2, 0);
  ASSERT_EQ(ch.agent, 0);
  ASSERT_EQ(ch.predicted_ns, cpu_ns(256));
  ASSERT_EQ(ch.run_ns, cpu_ns(256)); /* nothing else runs meanwhile */
  /* However long the CPU's queue: the GPU would cost it more than it takes
   * off it. */
  c[0].queued_ns = 100000000;
  ASSERT_EQ(pl_choose(&m, 256, c, 2, 0).agent, 0);
  /* A dispatch the GPU runs in 53 us and the CPU in 655 us: taken off the
   * CPU's queue it saves more than the GPU's slowed run (80 us) costs it
   * (240 us). */
  drive(&m, 1 << 16, 10, both, counts, &explored);
  c[0].queued_ns = 586000;
  ch = pl_choose(&m, 1 << 16, c, 2, 0);
  ASSERT_EQ(ch.agent, 1);
  ASSERT_EQ(ch.predicted_ns, gpu_ns(1 << 16));
  ASSERT_EQ(ch.run_ns, gpu_ns(1 << 16) * 3 / 2);
}

TEST(placement_model_slowdown_follows_the_measured_ratio) {
  double s = 1;
  for (int i = 0; i < 100; i++) pl_slowdown_update(&s, 3000, 1000);
  ASSERT_TRUE(s > 2.99 && s < 3.01);
  for (int i = 0; i < 100; i++) pl_slowdown_update(&s, 500, 1000); /* faster than alone: noise */
  ASSERT_TRUE(s >= 1 && s < 1.01);
  for (int i = 0; i < 100; i++) pl_slowdown_update(&s, 1000000, 1000);
  ASSERT_TRUE(s <= PL_SLOWDOWN_MAX && s > PL_SLOWDOWN_MAX - 0.01);
  double before = s;
  pl_slowdown_update(&s, 5000, 0); /* nothing predicted: no ratio */
  ASSERT_TRUE(s == before);
}

TEST(placement_model_exploration_is_bounded) {
  struct pl_kernel_model m;
  pl_reset(&m);
  /* A new size class every time: each explores until the per-agent bound. */
  int explored = 0;
  for (int cls = 4; cls < 4 + 30; cls++) {
    int counts[2] = {0};
    drive(&m, (uint64_t)1 << (cls % 28 + 2), 4, both, counts, &explored);
  }
  ASSERT_EQ(m.agent[0].explored, PL_EXPLORE_MAX);
  ASSERT_EQ(m.agent[1].explored, PL_EXPLORE_MAX);
  ASSERT_EQ(explored, 2 * PL_EXPLORE_MAX);
  /* After the bound a new size is predicted, not explored. */
  struct pl_choice c = pl_choose(&m, 3, both, 2, 0);
  ASSERT_FALSE(c.explored);
  ASSERT_TRUE(c.predicted);
  /* reset forgets everything: exploring again. */
  pl_reset(&m);
  c = pl_choose(&m, 3, both, 2, 0);
  ASSERT_TRUE(c.explored);
  ASSERT_FALSE(c.predicted);
}

TEST(placement_model_disallowed_agents_are_never_chosen) {
  struct pl_kernel_model m;
  pl_reset(&m);
  struct pl_candidate cpu_only[2] = {{true, 0, 1}, {false, 0, 1}};
  struct pl_candidate gpu_only[2] = {{false, 0, 1}, {true, 0, 1}};
  struct pl_candidate none[2] = {{false, 0, 1}, {false, 0, 1}};
  int counts[2] = {0}, explored = 0;
  drive(&m, 1 << 20, 20, cpu_only, counts, &explored); /* the GPU would win: banned */
  ASSERT_EQ(counts[1], 0);
  ASSERT_EQ(counts[0], 20);
  drive(&m, 16, 20, gpu_only, counts, &explored); /* the CPU would win: banned */
  ASSERT_EQ(counts[0], 20);
  ASSERT_EQ(counts[1], 20);
  ASSERT_EQ(pl_choose(&m, 16, none, 2, 0).agent, -1);
}

TEST(placement_model_latency_bound_keeps_exploration_off_a_slow_agent) {
  struct pl_kernel_model m;
  pl_reset(&m);
  /* Both measured at two small sizes; a large size (a new class) would
   * explore the CPU, predicted at 10 ms, beyond a 1 ms bound: it is not
   * explored, the GPU (predicted within) takes it. */
  int counts[2] = {0}, explored = 0;
  drive(&m, 1 << 12, 10, both, counts, &explored);
  drive(&m, 1 << 14, 10, both, counts, &explored);
  struct pl_choice c = pl_choose(&m, 1 << 20, both, 2, 1000000);
  ASSERT_EQ(c.agent, 1);
  ASSERT_TRUE(c.explored); /* the GPU explores the new class */
  pl_record(&m, 1, 1 << 20, gpu_ns(1 << 20));
  c = pl_choose(&m, 1 << 20, both, 2, 1000000);
  ASSERT_EQ(c.agent, 1);
  /* Without the bound the CPU is explored there too. */
  uint64_t cpu_explored = m.agent[0].explored;
  c = pl_choose(&m, 1 << 20, both, 2, 0);
  ASSERT_EQ(c.agent, 0);
  ASSERT_TRUE(c.explored);
  ASSERT_EQ(m.agent[0].explored, cpu_explored + 1);
  /* A bound no agent meets: the earliest finish anyway. */
  pl_record(&m, 0, 1 << 20, cpu_ns(1 << 20));
  pl_record(&m, 0, 1 << 20, cpu_ns(1 << 20));
  pl_record(&m, 1, 1 << 20, gpu_ns(1 << 20));
  c = pl_choose(&m, 1 << 20, both, 2, 1);
  ASSERT_EQ(c.agent, 1);
}

TEST(placement_model_follows_recent_measurements_and_ignores_outliers) {
  struct pl_kernel_model m;
  pl_reset(&m);
  for (int i = 0; i < 200; i++) pl_record(&m, 0, 1000, 1000);
  ASSERT_LE(m.agent[0].cls[pl_size_class(1000)].count, 64);
  /* The agent became 10x slower: the median of the recent times follows. */
  for (int i = 0; i < 64; i++) pl_record(&m, 0, 1000, 10000);
  uint64_t ns;
  ASSERT_TRUE(pl_predict(&m.agent[0], 1000, &ns));
  ASSERT_EQ(ns, 10000);
  ASSERT_EQ(m.agent[0].measured, 264);
  /* A few outliers among the last times do not move it. */
  pl_record(&m, 0, 1000, 900000);
  pl_record(&m, 0, 1000, 800000);
  ASSERT_TRUE(pl_predict(&m.agent[0], 1000, &ns));
  ASSERT_EQ(ns, 10000);
}

TEST(placement_model_exploration_counts_dispatches_not_yet_measured) {
  struct pl_kernel_model m;
  pl_reset(&m);
  /* Ten dispatches chosen before any is measured (a program that queues
   * them all, then waits): PL_EXPLORE_SAMPLES explorations per agent. */
  int explored = 0, counts[2] = {0};
  for (int i = 0; i < 10; i++) {
    struct pl_choice c = pl_choose(&m, 4096, both, 2, 0);
    ASSERT_TRUE(c.agent == 0 || c.agent == 1);
    counts[c.agent]++;
    explored += c.explored;
  }
  ASSERT_EQ(explored, 2 * PL_EXPLORE_SAMPLES);
  ASSERT_EQ(m.agent[0].explored, PL_EXPLORE_SAMPLES);
  ASSERT_EQ(m.agent[1].explored, PL_EXPLORE_SAMPLES);
  ASSERT_EQ(
      m.agent[0].cls[pl_size_class(4096)].inflight + m.agent[1].cls[pl_size_class(4096)].inflight,
      10);
  /* Dropped ones (a queue destroyed) leave exploration open again. */
  for (int i = 0; i < counts[1]; i++) pl_drop(&m, 1, 4096);
  pl_drop(&m, 1, 4096); /* one too many: ignored */
  ASSERT_EQ(m.agent[1].cls[pl_size_class(4096)].inflight, 0);
  struct pl_choice c = pl_choose(&m, 4096, both, 2, 0);
  ASSERT_EQ(c.agent, 1);
  ASSERT_TRUE(c.explored);
  pl_drop(&m, PL_MAX_AGENTS, 1); /* invalid agent: ignored */
}

/* A class's time is the median of its last PL_RECENT times, repeated
 * values and all, whatever order they come in. */
TEST(placement_model_class_time_is_the_median_of_the_last_times) {
  static const uint64_t times[] = {50, 10, 50, 90, 10, 10, 70,  30,  50, 20, 90, 90, 5,  60,
                                   60, 60, 1,  2,  3,  4,  100, 100, 7,  50, 50, 10, 10, 10};
  struct pl_kernel_model m;
  pl_reset(&m);
  const struct pl_class *c = &m.agent[0].cls[pl_size_class(1000)];
  for (uint32_t t = 0; t < sizeof times / sizeof times[0]; t++) {
    pl_record(&m, 0, 1000, times[t]);
    uint32_t n = t + 1 < PL_RECENT ? t + 1 : PL_RECENT;
    uint64_t last[PL_RECENT];
    for (uint32_t i = 0; i < n; i++) last[i] = times[t + 1 - n + i];
    for (uint32_t i = 1; i < n; i++)
      for (uint32_t j = i; j > 0 && last[j - 1] > last[j]; j--) {
        uint64_t x = last[j];
        last[j] = last[j - 1];
        last[j - 1] = x;
      }
    uint64_t median = n % 2 ? last[n / 2] : (last[n / 2 - 1] + last[n / 2]) / 2;
    if (c->median_ns != median)
      FAIL("after %u times: median %llu, expected %llu", t + 1, (unsigned long long)c->median_ns,
           (unsigned long long)median);
  }
}

/* A program that waits for each dispatch: the GPU's first sample is still
 * being measured (its measurement lags the program's signal) when the next
 * dispatch is placed, while the CPU's is in. The GPU is not sampled again
 * blindly; the CPU takes its samples. */
TEST(placement_model_an_agent_waits_for_its_first_sample_once_another_is_measured) {
  struct pl_kernel_model m;
  pl_reset(&m);
  struct pl_choice c = pl_choose(&m, 4096, both, 2, 0); /* CPU: agent 0 */
  ASSERT_EQ(c.agent, 0);
  pl_record(&m, 0, 4096, cpu_ns(4096));
  c = pl_choose(&m, 4096, both, 2, 0);
  ASSERT_EQ(c.agent, 1); /* the GPU's first sample, in flight from here on */
  ASSERT_TRUE(c.explored);
  for (int i = 0; i < 6; i++) {
    c = pl_choose(&m, 4096, both, 2, 0);
    test_context("dispatch %d", i);
    ASSERT_EQ(c.agent, 0);
    pl_record(&m, 0, 4096, cpu_ns(4096));
  }
  ASSERT_EQ(m.agent[1].explored, 1);
  /* Its measurement in: far slower (PL_EXPLORE_NEAR), never sampled again. */
  pl_record(&m, 1, 4096, gpu_ns(4096) * 100);
  for (int i = 0; i < 6; i++) ASSERT_EQ(pl_choose(&m, 4096, both, 2, 0).agent, 0);
  ASSERT_EQ(m.agent[1].explored, 1);
}

/* Every dispatch of a class is timed until the class holds PL_RECENT times
 * on that agent, then one in PL_TIME_EVERY, counted per agent and class;
 * a reset starts over. */
TEST(placement_model_a_known_class_is_timed_one_dispatch_in_every_few) {
  struct pl_kernel_model m;
  pl_reset(&m);
  for (int i = 0; i < PL_RECENT; i++) {
    test_context("dispatch %d while the class fills", i);
    ASSERT_TRUE(pl_time_due(&m, 0, 4096));
    pl_record(&m, 0, 4096, cpu_ns(4096));
  }
  int timed = 0;
  for (int i = 0; i < 10 * PL_TIME_EVERY; i++) timed += pl_time_due(&m, 0, 4096);
  ASSERT_EQ(timed, 10);
  /* Another class and another agent fill their own histories first. */
  ASSERT_TRUE(pl_time_due(&m, 0, 64));
  ASSERT_TRUE(pl_time_due(&m, 1, 4096));
  ASSERT_FALSE(pl_time_due(&m, PL_MAX_AGENTS, 4096));
  pl_reset(&m);
  ASSERT_TRUE(pl_time_due(&m, 0, 4096));
  ASSERT_TRUE(pl_time_due(&m, 0, 4096));
}

/* A sample that leaves a class's point as it was but takes its fastest
 * recent time out of the window raises the yardstick of exploration: an
 * agent that was too far from the best to be sampled again is now near
 * enough, and the remembered choice must not hide that. */
TEST(placement_model_the_fastest_time_leaving_the_window_ends_the_remembered_choice) {
  static struct pl_kernel_model m;
  pl_reset(&m);
  const uint64_t fast = 1000, usual = 10000, other = 3 * usual; /* fast < other / NEAR < usual */
  pl_record(&m, 0, 4096, fast);
  for (int i = 1; i < PL_RECENT; i++) pl_record(&m, 0, 4096, usual);
  pl_record(&m, 1, 4096, other);
  struct pl_choice first = pl_choose(&m, 4096, both, 2, 0);
  ASSERT_EQ(first.agent, 0);
  ASSERT_FALSE(first.explored);
  ASSERT_TRUE(m.memo.valid);
  pl_record(&m, 0, 4096, usual); /* `fast` leaves; the median stays `usual` */
  ASSERT_EQ_U(m.agent[0].cls[pl_size_class(4096)].median_ns, usual);
  struct pl_choice next = pl_choose(&m, 4096, both, 2, 0);
  ASSERT_EQ(next.agent, 1);
  ASSERT_TRUE(next.explored);
}

/* The remembered choice (pl_memo) is the choice the model would make
 * afresh: two models fed the same dispatches, measurements, drops and
 * queued work, one of them forgetting its memo before every choice, make
 * the same choices all along (sizes repeat, so the memo is used). Times
 * with fine noise move a class's median with most samples; times on a
 * coarse clock often leave it, and the memo, as it was. */
TEST(placement_model_a_remembered_choice_is_the_fresh_one) {
  static struct pl_kernel_model remembering, fresh;
  for (int coarse = 0; coarse < 2; coarse++) {
    pl_reset(&remembering);
    pl_reset(&fresh);
    uint64_t seed = 12345;
    const uint64_t sizes[4] = {64, 4096, 4096 + 512, 1u << 20};
    int reused = 0, kept_past_a_sample = 0;
    for (int step = 0; step < 4000; step++) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      uint32_t r = (uint32_t)(seed >> 33);
      uint64_t items = sizes[r % 4];
      struct pl_candidate c[2] = {{true, 0, 1.5}, {(r >> 2) % 16 != 0, 0, 2}};
      if ((r >> 6) % 8 == 0) c[(r >> 9) & 1].queued_ns = 1000 + r % 4 * 20000;
      uint64_t bound = (r >> 10) % 32 == 0 ? 30000 : 0;
      fresh.memo.valid = false;
      const struct pl_memo *memo = &remembering.memo;
      bool same = memo->valid && memo->items == items && memo->latency_bound_ns == bound;
      for (int i = 0; i < 2; i++)
        same = same && memo->c[i].allowed == c[i].allowed && memo->c[i].queued_ns == c[i].queued_ns;
      reused += same;
      struct pl_choice a = pl_choose(&remembering, items, c, 2, bound);
      struct pl_choice b = pl_choose(&fresh, items, c, 2, bound);
      test_context("step %d: %llu items%s", step, (unsigned long long)items,
                   coarse ? ", coarse times" : "");
      ASSERT_EQ(a.agent, b.agent);
      ASSERT_EQ(a.explored, b.explored);
      ASSERT_EQ(a.predicted, b.predicted);
      ASSERT_EQ_U(a.predicted_ns, b.predicted_ns);
      ASSERT_EQ_U(a.run_ns, b.run_ns);
      if (a.agent < 0) continue;
      /* Most dispatches are measured, some dropped, some stay in flight. */
      uint32_t fate = (r >> 15) % 8;
      uint64_t noise = coarse ? (r >> 18) % 2 * 1000 : (r >> 18) % 500;
      uint64_t ns = (a.agent == 0 ? cpu_ns(items) : gpu_ns(items)) + noise;
      if (fate < 5) {
        pl_record(&remembering, (uint32_t)a.agent, items, ns);
        pl_record(&fresh, (uint32_t)a.agent, items, ns);
        kept_past_a_sample += remembering.memo.valid;
      } else if (fate < 7) {
        pl_drop(&remembering, (uint32_t)a.agent, items);
        pl_drop(&fresh, (uint32_t)a.agent, items);
      }
    }
    ASSERT_EQ(memcmp(remembering.agent, fresh.agent, sizeof fresh.agent), 0);
    ASSERT_GT(reused, 100);
    if (coarse) ASSERT_GT(kept_past_a_sample, 100);
  }
  /* Every sample of a class in flight, none measured: no exploration, the
   * first agent, remembered. One sample dropped: that agent is explored
   * again, not the remembered choice repeated. */
  test_context("every sample in flight");
  pl_reset(&remembering);
  for (int i = 0; i < 2 * PL_EXPLORE_SAMPLES; i++)
    ASSERT_TRUE(pl_choose(&remembering, 4096, both, 2, 0).explored);
  struct pl_choice first = pl_choose(&remembering, 4096, both, 2, 0);
  ASSERT_EQ(first.agent, 0);
  ASSERT_FALSE(first.explored);
  ASSERT_TRUE(remembering.memo.valid);
  pl_drop(&remembering, 1, 4096);
  struct pl_choice again = pl_choose(&remembering, 4096, both, 2, 0);
  ASSERT_EQ(again.agent, 1);
  ASSERT_TRUE(again.explored);
}
