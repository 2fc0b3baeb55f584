/* kstack.c - kernel stacks with guard pages (see kstack.h). */
#include "kernel/kstack.h"

#include "kernel/cpu.h"
#include "kernel/frames.h"
#include "kernel/kmem.h"
#include "lib/lock.h"
#include "kernel/vm.h"
#include "lib/plat.h"

#define LOG_TAG    "kstack"
#define MAX_STACKS (CPU_MAX * (1 + IST_COUNT) + 64)

static struct kstack stacks[MAX_STACKS];
static volatile uint32_t stack_count; /* entries below it are complete */
static struct spinlock lock = SPINLOCK_INIT;

static int add(uint64_t base, uint64_t size, const char *name) {
  spin_lock(&lock);
  uint32_t n = stack_count;
  if (n == MAX_STACKS) {
    spin_unlock(&lock);
    log_error("more than %d kernel stacks; \"%s\" not registered", MAX_STACKS, name);
    return -1;
  }
  stacks[n] = (struct kstack){base, size, name};
  __atomic_store_n(&stack_count, n + 1, __ATOMIC_RELEASE);
  spin_unlock(&lock);
  return 0;
}

/* Stacks, guard pages included, are kernel memory no device reaches
 * (kmem.h): one kind, so neighbouring stacks are listed as one range. */
static const char kind[] = "stacks";

void kstack_register(uint64_t base, uint64_t size, const char *name) {
  kmem_record(base, size, kind);
  add(base, size, name);
}

uint64_t kstack_alloc(size_t size, const char *name) {
  uint64_t pages = (size + FRAME_SIZE - 1) / FRAME_SIZE + 1;
  uint64_t base = kmem_alloc(pages * FRAME_SIZE, kind);
  if (!base) {
    log_error("no memory for the %zu-byte stack \"%s\"", size, name);
    return 0;
  }
  /* On failure the block stays kernel memory, unused (kmem has no free). */
  if (vm_unmap(base, KSTACK_GUARD_SIZE) != 0 || add(base, pages * FRAME_SIZE, name) != 0) return 0;
  return base + pages * FRAME_SIZE;
}

bool kstack_contains(uint64_t addr, size_t len) {
  uint32_t n = __atomic_load_n(&stack_count, __ATOMIC_ACQUIRE);
  for (uint32_t i = 0; i < n; i++) {
    uint64_t lo = stacks[i].base + KSTACK_GUARD_SIZE, hi = stacks[i].base + stacks[i].size;
    if (addr >= lo && addr <= hi && len <= hi - addr) return true;
  }
  return false;
}

const struct kstack *kstack_guard_at(uint64_t addr) {
  uint32_t n = __atomic_load_n(&stack_count, __ATOMIC_ACQUIRE);
  for (uint32_t i = 0; i < n; i++)
    if (addr >= stacks[i].base && addr < stacks[i].base + KSTACK_GUARD_SIZE) return &stacks[i];
  return NULL;
}

void kstack_for_each(void (*fn)(const struct kstack *s, void *ctx), void *ctx) {
  uint32_t n = __atomic_load_n(&stack_count, __ATOMIC_ACQUIRE);
  for (uint32_t i = 0; i < n; i++) fn(&stacks[i], ctx);
}
