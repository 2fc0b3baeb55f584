/* event.c - wake-up channels (event.h). */
#include "hsa/event.h"

#include "lib/plat.h"

void event_notify(struct event *e) {
  atomic_thread_fence(memory_order_seq_cst);
  if (atomic_load_explicit(&e->sleepers, memory_order_relaxed) != 0) {
    atomic_fetch_add_explicit(&e->seq, 1, memory_order_seq_cst);
    plat_wake((const volatile uint32_t *)&e->seq);
  }
}

void event_commit_wait(struct event *e, uint32_t seen, uint64_t timeout_ns) {
  plat_wait((const volatile uint32_t *)&e->seq, seen, timeout_ns);
}
