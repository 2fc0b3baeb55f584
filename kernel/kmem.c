/* kmem.c - the kernel's own memory and its protection from devices (see kmem.h). */
#include "kernel/kmem.h"

#include <string.h>

#include "boot/boot_info.h"
#include "kernel/files.h"
#include "kernel/frames.h"
#include "kernel/kernel.h"
#include "lib/lock.h"
#include "lib/plat.h"
#include "lib/util.h"

#define LOG_TAG "kmem"
/* Neighbouring blocks of one kind merge, so this is a handful at boot
 * (image regions, stacks, page tables) plus what later allocations add. */
#define KMEM_MAX_RANGES 128

static struct kmem_range ranges[KMEM_MAX_RANGES];
static size_t range_count;
static struct spinlock lock = SPINLOCK_INIT;
static kmem_protect_fn protect_hook;

/* The image's extent (boot/image.lds). */
extern const char ImageBase[] __attribute__((visibility("hidden")));
extern const char __image_end[] __attribute__((visibility("hidden")));

static uint64_t page_up(uint64_t v) { return ALIGN_UP(v, FRAME_SIZE); }

/* Adds [base, base + size) to the list, merged with a neighbour of the
 * same kind. With the lock held. */
static int add_locked(uint64_t base, uint64_t size, const char *what) {
  for (size_t i = 0; i < range_count; i++) {
    struct kmem_range *r = &ranges[i];
    if (r->what != what) continue;
    if (r->base + r->size == base) {
      r->size += size;
      return 0;
    }
    if (base + size == r->base) {
      r->base = base;
      r->size += size;
      return 0;
    }
  }
  if (range_count == KMEM_MAX_RANGES) return -1;
  ranges[range_count++] = (struct kmem_range){base, size, what};
  return 0;
}

static void log_list_full(uint64_t base, const char *what) {
  log_error("more than %d kernel memory ranges: the %s at 0x%llx is not listed", KMEM_MAX_RANGES,
            what, (unsigned long long)base);
}

int kmem_record(uint64_t base, uint64_t size, const char *what) {
  uint64_t flags = spin_lock_irqsave(&lock);
  int rc = add_locked(base, page_up(size), what);
  spin_unlock_irqrestore(&lock, flags);
  if (rc) log_list_full(base, what);
  return rc;
}

uint64_t kmem_alloc_below(uint64_t size, uint64_t limit, const char *what) {
  size = page_up(size);
  uint64_t base = frames_alloc_below(size, FRAME_SIZE, limit);
  if (!base) return 0;
  /* Listed and the hook read in one step: an IOMMU driver that sets the
   * hook and then reads kernel_protected_ranges either finds the block
   * listed or has its hook called for it. */
  uint64_t flags = spin_lock_irqsave(&lock);
  int rc = add_locked(base, size, what);
  kmem_protect_fn hook = protect_hook;
  spin_unlock_irqrestore(&lock, flags);
  if (rc) {
    log_list_full(base, what);
    frames_free(base, size);
    return 0;
  }
  int err = hook ? hook(base, size, what) : 0;
  if (err) {
    /* It may still be reachable: never use it, never give it back. */
    log_error("cannot keep the %s at 0x%llx+0x%llx from devices (%d): not used", what,
              (unsigned long long)base, (unsigned long long)size, err);
    return 0;
  }
  return base;
}

uint64_t kmem_alloc(uint64_t size, const char *what) {
  return kmem_alloc_below(size, UINT64_MAX, what);
}

kmem_protect_fn kmem_set_protect_hook(kmem_protect_fn fn) {
  uint64_t flags = spin_lock_irqsave(&lock);
  kmem_protect_fn old = protect_hook;
  protect_hook = fn;
  spin_unlock_irqrestore(&lock, flags);
  return old;
}

/* ---- kernel_protected_ranges ---- */
struct range_list {
  struct kmem_range *out;
  size_t max, count;
};

static void list_add(struct range_list *l, uint64_t base, uint64_t size, const char *what) {
  if (!size) return;
  if (l->count < l->max) l->out[l->count] = (struct kmem_range){base, page_up(size), what};
  l->count++;
}

size_t kernel_protected_ranges(struct kmem_range *out, size_t max) {
  struct range_list l = {out, max, 0};
  uint64_t image = (uint64_t)(uintptr_t)ImageBase;
  list_add(&l, image, (uint64_t)(uintptr_t)__image_end - image, "kernel image");
  /* What boot/ handed over and the kernel keeps reading (kernel_boot_info). */
  const struct boot_info *info = kernel_boot_info();
  list_add(&l, (uint64_t)(uintptr_t)info, sizeof *info, "boot information");
  list_add(&l, (uint64_t)(uintptr_t)info->mem, info->mem_count * sizeof *info->mem,
           "boot memory map");
  list_add(&l, (uint64_t)(uintptr_t)info->cmdline, strlen(info->cmdline) + 1, "command line");
  unsigned long long fs_size;
  const void *fs = files_bootfs(&fs_size);
  if (fs) list_add(&l, (uint64_t)(uintptr_t)fs, fs_size, "boot file system");
  uint64_t flags = spin_lock_irqsave(&lock);
  for (size_t i = 0; i < range_count; i++)
    list_add(&l, ranges[i].base, ranges[i].size, ranges[i].what);
  spin_unlock_irqrestore(&lock, flags);
  return l.count;
}
