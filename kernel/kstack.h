/*
 * kstack.h - kernel stacks: each one has an unmapped guard page below it,
 * so that an overflow faults at once instead of overwriting memory. The
 * registry lets the backtrace stay inside real stacks and lets the
 * exception report say "stack overflow" when a fault hits a guard page.
 */
#ifndef KERNEL_KSTACK_H
#define KERNEL_KSTACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KSTACK_GUARD_SIZE 4096

struct kstack {
  uint64_t base; /* the guard page; the stack is [base + guard, base + size) */
  uint64_t size; /* guard page included */
  const char *name;
};

/* Records a stack whose lowest page is already the guard (the boot stack). */
void kstack_register(uint64_t base, uint64_t size, const char *name);

/* A new stack of `size` usable bytes (rounded up to pages) plus its guard
 * page, from kernel memory (kmem.h); the guard is unmapped. Returns the top
 * (the initial RSP, 16-byte aligned), or 0 when out of memory. */
uint64_t kstack_alloc(size_t size, const char *name);

/* True if [addr, addr + len) lies in the usable part of a known stack. */
bool kstack_contains(uint64_t addr, size_t len);

/* The stack whose guard page holds `addr`, or NULL. */
const struct kstack *kstack_guard_at(uint64_t addr);

/* Calls fn for every stack (vm_init unmaps their guard pages). */
void kstack_for_each(void (*fn)(const struct kstack *s, void *ctx), void *ctx);

#endif
