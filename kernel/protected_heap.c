/* protected_heap.c - plat_protected_alloc/free and plat_irq_save/restore
 * for the image (lib/plat.h).
 *
 * Blocks come from chunks of kernel memory (kmem_alloc, "driver state"),
 * which the IOMMU keeps from every device before the chunk is handed out.
 * kmem has no free: a page given back to the frame allocator would have to
 * be given back to the devices' domains first. So a freed block stays
 * here, on an address-ordered free list (first fit, split, neighbours
 * merged), for the next allocation. */
#include <string.h>

#include "kernel/frames.h"
#include "kernel/kmem.h"
#include "kernel/cpu.h"
#include "lib/lock.h"
#include "lib/plat.h"

#define LOG_TAG "kmem"
#define ALIGN 64u                  /* plat.h's promise; a cache line */
#define CHUNK_BYTES (4ull << 20)   /* kmem blocks are listed one range per neighbour run */
#define IN_USE 0x75736564u         /* header mark of an allocated block */

/* Every block starts with a header of ALIGN bytes; size counts it. */
struct block {
  uint64_t size;
  uint32_t mark; /* IN_USE, or 0 on the free list */
  struct block *next;
} __attribute__((aligned(ALIGN)));

static struct block *free_list; /* by address */
static struct spinlock lock = SPINLOCK_INIT;

/* Inserts b into the free list, merged with the neighbours it touches.
 * With the lock held. */
static void insert_free(struct block *b) {
  b->mark = 0;
  struct block **link = &free_list;
  while (*link && *link < b) link = &(*link)->next;
  struct block *next = *link;
  if (next && (uint8_t *)b + b->size == (uint8_t *)next) {
    b->size += next->size;
    next = next->next;
  }
  b->next = next;
  *link = b;
  /* The block before b, if it ends where b starts. */
  for (struct block *prev = free_list; prev && prev != b; prev = prev->next)
    if (prev->next == b && (uint8_t *)prev + prev->size == (uint8_t *)b) {
      prev->size += b->size;
      prev->next = b->next;
      break;
    }
}

/* First fit; the rest of a larger block goes back to the list. */
static struct block *take(uint64_t need) {
  for (struct block **link = &free_list; *link; link = &(*link)->next) {
    struct block *b = *link;
    if (b->size < need) continue;
    *link = b->next;
    if (b->size - need >= 2 * ALIGN) {
      struct block *rest = (struct block *)((uint8_t *)b + need);
      rest->size = b->size - need;
      b->size = need;
      insert_free(rest);
    }
    b->mark = IN_USE;
    return b;
  }
  return NULL;
}

void *plat_protected_alloc(size_t size) {
  uint64_t need = ((uint64_t)size + ALIGN - 1) / ALIGN * ALIGN + sizeof(struct block);
  if (size == 0 || need < size) return NULL;
  uint64_t flags = spin_lock_irqsave(&lock);
  struct block *b = take(need);
  spin_unlock_irqrestore(&lock, flags);
  while (!b) {
    /* A new chunk, outside the lock: kmem_alloc has the IOMMU take it from
     * every device first, which waits for the invalidation. */
    uint64_t bytes = (need > CHUNK_BYTES ? need : CHUNK_BYTES) + FRAME_SIZE - 1;
    bytes -= bytes % FRAME_SIZE;
    uint64_t base = kmem_alloc(bytes, "driver state");
    if (!base) {
      log_error("no kernel memory for a %zu-byte protected block", size);
      return NULL;
    }
    struct block *chunk = (struct block *)(uintptr_t)base;
    chunk->size = bytes;
    flags = spin_lock_irqsave(&lock);
    insert_free(chunk);
    b = take(need); /* NULL only if other cores took the chunk meanwhile */
    spin_unlock_irqrestore(&lock, flags);
  }
  void *p = b + 1;
  memset(p, 0, b->size - sizeof *b);
  return p;
}

void plat_protected_free(void *p) {
  if (!p) return;
  struct block *b = (struct block *)p - 1;
  if (((uintptr_t)p & (ALIGN - 1)) || b->mark != IN_USE) {
    log_error("plat_protected_free(%p): not a protected block (double free?)", p);
    return;
  }
  uint64_t flags = spin_lock_irqsave(&lock);
  insert_free(b);
  spin_unlock_irqrestore(&lock, flags);
}

uint64_t plat_irq_save(void) {
  uint64_t flags;
  __asm__ volatile("pushfq; popq %0; cli" : "=r"(flags)::"memory");
  return flags;
}

void plat_irq_restore(uint64_t flags) {
  if (flags & RFLAGS_IF_BIT) __asm__ volatile("sti" ::: "memory");
}
