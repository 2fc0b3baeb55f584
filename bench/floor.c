/*
 * floor.c - the floor: a cache-line ping-pong between two cores. One
 * thread writes i, the other sees it and writes -i back: the least a
 * hand-off through memory can cost, what a CPU-agent dispatch (write the
 * packet, see the completion) is compared with.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "bench/bench.h"

static _Alignas(64) _Atomic int64_t ball;

static void *ponger(void *arg) {
  size_t rounds = *(size_t *)arg;
  bench_pin(1);
  for (int64_t i = 1; i <= (int64_t)rounds; i++) {
    while (atomic_load_explicit(&ball, memory_order_acquire) != i) __builtin_ia32_pause();
    atomic_store_explicit(&ball, -i, memory_order_release);
  }
  return NULL;
}

void bench_floor_ping_pong(struct samples *s) {
  size_t rounds = s->count;
  atomic_store(&ball, 0);
  pthread_t t;
  if (pthread_create(&t, NULL, ponger, &rounds) != 0) {
    s->note = "cannot start a thread";
    return;
  }
  bench_pin(0);
  for (int64_t i = 1; i <= (int64_t)rounds; i++) {
    uint64_t t0 = bench_now_ns();
    atomic_store_explicit(&ball, i, memory_order_release);
    while (atomic_load_explicit(&ball, memory_order_acquire) != -i) __builtin_ia32_pause();
    s->ns[i - 1] = bench_now_ns() - t0;
  }
  pthread_join(t, NULL);
}
