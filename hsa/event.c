/* event.c - wake-up channels (event.h). */
#include "hsa/event.h"

#include "lib/plat.h"

void event_notify(struct event *e) {
  atomic_fetch_add_explicit(&e->seq, 1, memory_order_seq_cst);
  /* seq_cst on both sides (here and in event_wait) orders "bump seq, read
   * sleepers" against "count me as sleeper, read seq": one of the two sees
   * the other, so a sleeper is never left behind. */
  if (atomic_load_explicit(&e->sleepers, memory_order_seq_cst) != 0)
    plat_wake((const volatile uint32_t *)&e->seq);
}

void event_wait(struct event *e, uint32_t seen, uint64_t timeout_ns) {
  atomic_fetch_add_explicit(&e->sleepers, 1, memory_order_seq_cst);
  if (atomic_load_explicit(&e->seq, memory_order_seq_cst) == seen)
    plat_wait((const volatile uint32_t *)&e->seq, seen, timeout_ns);
  atomic_fetch_sub_explicit(&e->sleepers, 1, memory_order_relaxed);
}
