/* heap.c - sbrk() for newlib's malloc (see heap.h). */
#include "kernel/heap.h"

#include <errno.h>
#include <stdbool.h>

#include "boot/boot_info.h"
#include "kernel/frames.h"
#include "lib/plat.h"
#include "lib/util.h"

#define LOG_TAG "heap"

static uint64_t heap_base;      /* first byte */
static uint64_t heap_brk;       /* current break */
static uint64_t heap_owned_end; /* end of the memory the heap owns (page aligned) */
static bool out_of_memory_logged;

void heap_init(const struct boot_info *info) {
  heap_base = heap_brk = info->heap_base;
  heap_owned_end = info->heap_base + info->heap_size;
}

/* Called by newlib's malloc with its lock held (one caller at a time:
 * __lock___malloc_recursive_mutex, kernel/libc_locks.c). */
void *sbrk(ptrdiff_t incr);
void *sbrk(ptrdiff_t incr) {
  uint64_t old = heap_brk;
  if (incr < 0) {
    if ((uint64_t)-incr > heap_brk - heap_base) {
      errno = EINVAL;
      return (void *)-1;
    }
    heap_brk -= (uint64_t)-incr; /* the pages stay owned for the next growth */
    return (void *)(uintptr_t)old;
  }
  uint64_t want = heap_brk + (uint64_t)incr;
  if (want > heap_owned_end) {
    uint64_t grow = ALIGN_UP(want - heap_owned_end, (uint64_t)FRAME_SIZE);
    if (frames_claim(heap_owned_end, grow) != 0) {
      if (!out_of_memory_logged)
        log_warn("heap cannot grow past 0x%llx by %llu bytes: the memory above is not free",
                 (unsigned long long)heap_owned_end, (unsigned long long)grow);
      out_of_memory_logged = true;
      errno = ENOMEM;
      return (void *)-1;
    }
    heap_owned_end += grow;
  }
  heap_brk = want;
  return (void *)(uintptr_t)old;
}
