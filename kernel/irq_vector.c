/*
 * irq_vector.c - vector allocation, handler table and counters (portable:
 * host tests allocate and "deliver" vectors by calling irq_handle).
 */
#define LOG_TAG "irq"
#include <errno.h>
#include <stddef.h>

#include "kernel/irq.h"
#include "lib/lock.h"
#include "lib/plat.h"

struct vector_slot {
  irq_handler_fn fn; /* written last when set, first when cleared */
  void *ctx;
  bool allocated;
  uint64_t count;
};

static struct vector_slot slots[IRQ_VECTOR_COUNT];
static struct spinlock alloc_lock = SPINLOCK_INIT;
static uint64_t unexpected_total, spurious_total;

static bool is_device_vector(unsigned v) {
  return v >= IRQ_VECTOR_FIRST && v <= IRQ_VECTOR_ALLOC_LAST;
}

int irq_vector_alloc(unsigned count, unsigned align) {
  if (count == 0 || align == 0 || (align & (align - 1)) != 0) return -EINVAL;
  if (count > IRQ_VECTOR_ALLOC_LAST + 1 - IRQ_VECTOR_FIRST) return -ENOSPC;
  spin_lock(&alloc_lock);
  /* First fit from the top down: low vectors have the lowest priority
   * class, so devices allocated first (IOMMU, GPU) get the higher ones. */
  int top = (int)((IRQ_VECTOR_ALLOC_LAST + 1 - count) & ~(align - 1));
  for (int first = top; first >= IRQ_VECTOR_FIRST; first -= (int)align) {
    bool free = true;
    for (int v = first; v < first + (int)count && free; v++) free = !slots[v].allocated;
    if (free) {
      for (int v = first; v < first + (int)count; v++) slots[v].allocated = true;
      spin_unlock(&alloc_lock);
      return first;
    }
  }
  spin_unlock(&alloc_lock);
  log_warn("no %u free vectors aligned to %u", count, align);
  return -ENOSPC;
}

void irq_vector_free(unsigned first, unsigned count) {
  spin_lock(&alloc_lock);
  for (unsigned v = first; v < first + count && v < IRQ_VECTOR_COUNT; v++) {
    if (!is_device_vector(v)) continue;
    __atomic_store_n(&slots[v].fn, NULL, __ATOMIC_RELEASE);
    slots[v].ctx = NULL;
    slots[v].allocated = false;
  }
  spin_unlock(&alloc_lock);
}

int irq_set_handler(unsigned vector, irq_handler_fn fn, void *ctx) {
  if (vector < IRQ_VECTOR_FIRST || vector >= IRQ_VECTOR_COUNT) return -EINVAL;
  if (is_device_vector(vector) && !slots[vector].allocated) return -EINVAL;
  struct vector_slot *s = &slots[vector];
  if (!fn) {
    __atomic_store_n(&s->fn, NULL, __ATOMIC_RELEASE);
    s->ctx = NULL;
    return 0;
  }
  __atomic_store_n(&s->fn, NULL, __ATOMIC_RELEASE);
  s->ctx = ctx;
  __atomic_store_n(&s->fn, fn, __ATOMIC_RELEASE);
  return 0;
}

bool irq_handle(unsigned vector) {
  if (vector >= IRQ_VECTOR_COUNT) return false;
  struct vector_slot *s = &slots[vector];
  uint64_t before = __atomic_fetch_add(&s->count, 1, __ATOMIC_RELAXED);
  irq_handler_fn fn = __atomic_load_n(&s->fn, __ATOMIC_ACQUIRE);
  if (fn) {
    fn(s->ctx);
    return true;
  }
  __atomic_fetch_add(&unexpected_total, 1, __ATOMIC_RELAXED);
  /* Once per vector: a stuck source must not flood the log. */
  if (before == 0) log_warn("unexpected interrupt on vector 0x%x (no handler)", vector);
  return false;
}

static void resend_by_call(unsigned vector) { irq_handle(vector); }
static void (*resend_fn)(unsigned vector) = resend_by_call;

void irq_set_resend(void (*resend)(unsigned vector)) { resend_fn = resend; }
void irq_resend(unsigned vector) { resend_fn(vector); }

uint64_t irq_count(unsigned vector) {
  return vector < IRQ_VECTOR_COUNT ? __atomic_load_n(&slots[vector].count, __ATOMIC_RELAXED) : 0;
}

uint64_t irq_unexpected_count(void) { return __atomic_load_n(&unexpected_total, __ATOMIC_RELAXED); }
uint64_t irq_spurious_count(void) { return __atomic_load_n(&spurious_total, __ATOMIC_RELAXED); }
void irq_count_spurious(void) {
  if (__atomic_fetch_add(&spurious_total, 1, __ATOMIC_RELAXED) == 0)
    log_warn("spurious interrupt (counted; later ones are not logged)");
}
