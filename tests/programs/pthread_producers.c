/*
 * pthread_producers.c - a ROCr program with POSIX threads: each producer
 * thread creates a GPU queue of its own and dispatches its share of fill
 * kernels there; a checker thread waits for all of them on one signal,
 * checks the output and signals main(), which waits meanwhile in
 * hsa_signal_wait. The producers count their dispatches under a mutex and
 * the last one to finish broadcasts a condition variable. Runs unchanged
 * on the host (glibc) and in the image (kernel/pthread.c).
 *
 * Built by `make test` with exactly:
 *   cc -I. -Ihsa/include prog.c build/host/lib/libhsa-runtime64.a -lpthread -lm
 */
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/program.h"

#define PRODUCERS    3
#define PER_PRODUCER 6
#define SLICE        512
#define JOBS         (PRODUCERS * PER_PRODUCER)
#define FILL_BASE    1000 /* tests/programs/kernels/fill.c fill_base */

struct shared {
  hsa_agent_t gpu;
  struct program_kernel fill;
  uint8_t *kernargs; /* one block per job */
  uint32_t *out;
  hsa_signal_t all_done; /* JOBS to 0: every dispatch */
  hsa_signal_t checked;  /* 0 to 1 (good) or 2 (bad): the checker's verdict */
  pthread_mutex_t lock;
  pthread_cond_t producers_finished;
  unsigned dispatched, producers_left;
};

struct producer {
  struct shared *s;
  unsigned index;
  int status; /* 0 when every step worked */
};

static void *produce(void *arg) {
  struct producer *p = arg;
  struct shared *s = p->s;
  hsa_queue_t *q;
  if (hsa_queue_create(s->gpu, 64, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, UINT32_MAX, UINT32_MAX, &q) !=
      HSA_STATUS_SUCCESS) {
    p->status = 1;
    return NULL;
  }
  hsa_signal_t mine;
  if (hsa_signal_create(PER_PRODUCER, 0, NULL, &mine) != HSA_STATUS_SUCCESS) p->status = 2;
  for (unsigned k = 0; k < PER_PRODUCER && !p->status; k++) {
    unsigned job = p->index * PER_PRODUCER + k, step = job + 1, n = SLICE;
    uint8_t *kernarg = s->kernargs + (size_t)job * s->fill.kernarg_size;
    uint32_t *out = s->out + (size_t)job * SLICE;
    memcpy(kernarg, &out, 8);
    memcpy(kernarg + 8, &step, 4);
    memcpy(kernarg + 12, &n, 4);
    /* Two completions per job: the barrier packet after it counts the
     * shared signal, the dispatch itself the producer's own. */
    uint64_t index = hsa_queue_add_write_index_relaxed(q, 2);
    hsa_kernel_dispatch_packet_t *d =
        (hsa_kernel_dispatch_packet_t *)q->base_address + (index & (q->size - 1));
    program_fill_dispatch_1d(d, &s->fill, kernarg, SLICE, 64, mine);
    hsa_barrier_and_packet_t *b =
        (hsa_barrier_and_packet_t *)q->base_address + ((index + 1) & (q->size - 1));
    memset((uint8_t *)b + 4, 0, sizeof *b - 4);
    b->completion_signal = s->all_done;
    __atomic_store_n(
        (uint32_t *)b,
        PROGRAM_PACKET_HEADER(HSA_PACKET_TYPE_BARRIER_AND) | 1 << HSA_PACKET_HEADER_BARRIER,
        __ATOMIC_RELEASE);
    program_publish(q, index, d, PROGRAM_PACKET_HEADER(HSA_PACKET_TYPE_KERNEL_DISPATCH),
                    1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);
    hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)(index + 1));
    pthread_mutex_lock(&s->lock);
    s->dispatched++;
    pthread_mutex_unlock(&s->lock);
  }
  if (!p->status && hsa_signal_wait_scacquire(mine, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                              HSA_WAIT_STATE_BLOCKED) != 0)
    p->status = 3;
  /* The queue goes only once the barrier after the last dispatch is done too. */
  while (hsa_queue_load_read_index_scacquire(q) != hsa_queue_load_write_index_relaxed(q))
    sched_yield();
  hsa_signal_destroy(mine);
  if (hsa_queue_destroy(q) != HSA_STATUS_SUCCESS && !p->status) p->status = 4;
  pthread_mutex_lock(&s->lock);
  if (--s->producers_left == 0) pthread_cond_broadcast(&s->producers_finished);
  pthread_mutex_unlock(&s->lock);
  return NULL;
}

/* Waits for every dispatch, checks each element, tells main(). */
static void *check(void *arg) {
  struct shared *s = arg;
  hsa_signal_value_t v = hsa_signal_wait_scacquire(s->all_done, HSA_SIGNAL_CONDITION_EQ, 0,
                                                   UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
  unsigned bad = v != 0;
  for (unsigned job = 0; job < JOBS && !bad; job++)
    for (unsigned i = 0; i < SLICE; i++)
      if (s->out[job * SLICE + i] != FILL_BASE + i * (job + 1)) {
        fprintf(stderr, "job %u element %u: %u, want %u\n", job, i, s->out[job * SLICE + i],
                FILL_BASE + i * (job + 1));
        bad = 1;
        break;
      }
  hsa_signal_store_screlease(s->checked, bad ? 2 : 1);
  return (void *)(uintptr_t)bad;
}

static hsa_status_t find_agents(hsa_agent_t agent, void *data) {
  hsa_agent_t *agents = data; /* [0] CPU, [1] GPU */
  hsa_device_type_t type;
  CHECK(hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type));
  if (type == HSA_DEVICE_TYPE_CPU && !agents[0].handle) agents[0] = agent;
  if (type == HSA_DEVICE_TYPE_GPU && !agents[1].handle) agents[1] = agent;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_kernarg_pool(hsa_amd_memory_pool_t pool, void *data) {
  if (program_pool_global_flags(pool) & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) {
    *(hsa_amd_memory_pool_t *)data = pool;
    return HSA_STATUS_INFO_BREAK;
  }
  return HSA_STATUS_SUCCESS;
}

int main(int argc, char **argv) {
  CHECK(hsa_init());
  hsa_agent_t agents[2] = {{0}, {0}};
  CHECK(hsa_iterate_agents(find_agents, agents));
  EXPECT(agents[0].handle && agents[1].handle, "need a CPU agent and a GPU agent");
  hsa_amd_memory_pool_t pool = {0};
  CHECK(hsa_amd_agent_iterate_memory_pools(agents[0], find_kernarg_pool, &pool));
  EXPECT(pool.handle, "no kernarg pool");

  size_t size;
  void *blob = program_read_file(program_kernel_path(argc, argv, "fill.v4.co"), &size);
  EXPECT(blob, "cannot read fill.v4.co");
  hsa_code_object_reader_t reader;
  CHECK(hsa_code_object_reader_create_from_memory(blob, size, &reader));
  hsa_executable_t exec;
  CHECK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL,
                                  &exec));
  CHECK(hsa_executable_load_agent_code_object(exec, agents[1], reader, NULL, NULL));
  CHECK(hsa_executable_freeze(exec, NULL));
  hsa_executable_symbol_t symbol;
  CHECK(hsa_executable_get_symbol_by_name(exec, "fill.kd", &agents[1], &symbol));

  static struct shared s;
  s.gpu = agents[1];
  s.fill = program_kernel_info(symbol);
  CHECK(
      hsa_amd_memory_pool_allocate(pool, (size_t)JOBS * SLICE * sizeof *s.out, 0, (void **)&s.out));
  CHECK(hsa_amd_memory_pool_allocate(pool, (size_t)JOBS * s.fill.kernarg_size, 0,
                                     (void **)&s.kernargs));
  CHECK(hsa_amd_agents_allow_access(2, agents, NULL, s.out));
  memset(s.kernargs, 0, (size_t)JOBS * s.fill.kernarg_size);
  memset(s.out, 0xff, (size_t)JOBS * SLICE * sizeof *s.out);
  CHECK(hsa_signal_create(JOBS, 0, NULL, &s.all_done));
  CHECK(hsa_signal_create(0, 0, NULL, &s.checked));
  EXPECT(pthread_mutex_init(&s.lock, NULL) == 0, "pthread_mutex_init");
  EXPECT(pthread_cond_init(&s.producers_finished, NULL) == 0, "pthread_cond_init");
  s.dispatched = 0;
  s.producers_left = PRODUCERS;

  pthread_t checker, producers[PRODUCERS];
  struct producer p[PRODUCERS];
  EXPECT(pthread_create(&checker, NULL, check, &s) == 0, "pthread_create (checker)");
  for (unsigned i = 0; i < PRODUCERS; i++) {
    p[i] = (struct producer){&s, i, 0};
    EXPECT(pthread_create(&producers[i], NULL, produce, &p[i]) == 0, "pthread_create (producer)");
  }
  /* main() waits for the checker's verdict while the threads work. */
  hsa_signal_value_t verdict = hsa_signal_wait_scacquire(s.checked, HSA_SIGNAL_CONDITION_NE, 0,
                                                         UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
  pthread_mutex_lock(&s.lock);
  while (s.producers_left) pthread_cond_wait(&s.producers_finished, &s.lock);
  unsigned dispatched = s.dispatched;
  pthread_mutex_unlock(&s.lock);
  int status = 0;
  for (unsigned i = 0; i < PRODUCERS; i++) {
    EXPECT(pthread_join(producers[i], NULL) == 0, "pthread_join");
    if (p[i].status) fprintf(stderr, "producer %u failed at step %d\n", i, p[i].status), status = 1;
  }
  void *bad;
  EXPECT(pthread_join(checker, &bad) == 0, "pthread_join (checker)");
  if (verdict != 1 || bad) fprintf(stderr, "checker: verdict %ld\n", (long)verdict), status = 1;
  if (dispatched != JOBS) fprintf(stderr, "%u dispatches, want %u\n", dispatched, JOBS), status = 1;

  pthread_cond_destroy(&s.producers_finished);
  pthread_mutex_destroy(&s.lock);
  CHECK(hsa_signal_destroy(s.all_done));
  CHECK(hsa_signal_destroy(s.checked));
  CHECK(hsa_amd_memory_pool_free(s.out));
  CHECK(hsa_amd_memory_pool_free(s.kernargs));
  CHECK(hsa_executable_destroy(exec));
  CHECK(hsa_code_object_reader_destroy(reader));
  free(blob);
  CHECK(hsa_shut_down());
  if (!status)
    printf("pthread_producers: %u threads filled %u slices on their own GPU queues: ok\n",
           PRODUCERS, JOBS);
  return status;
}
