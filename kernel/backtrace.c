/* backtrace.c - symbol lookup and RBP-chain walk (see backtrace.h). */
#include "kernel/backtrace.h"

#include "kernel/console.h"
#include "kernel/kstack.h"

#define MAX_FRAMES 32

/* Layout written by kernel/gen_ksyms.sh: count, then count entries sorted
 * by address (link-time addresses, i.e. offsets from ImageBase: the image
 * is far below 4 GiB), then the NUL-terminated names that name_offset
 * points into. */
struct ksym_entry {
  uint32_t addr;
  uint32_t name_offset;
};
struct ksym_table {
  uint64_t count;
  struct ksym_entry entries[];
};
extern const struct ksym_table ksym_table __attribute__((visibility("hidden")));
extern const char ImageBase[] __attribute__((visibility("hidden")));
extern const char __text_start[] __attribute__((visibility("hidden")));
extern const char __text_end[] __attribute__((visibility("hidden")));

const char *ksym_lookup(uint64_t addr, uint64_t *offset) {
  uint64_t base = (uint64_t)(uintptr_t)ImageBase;
  if (addr < (uint64_t)(uintptr_t)__text_start || addr >= (uint64_t)(uintptr_t)__text_end)
    return NULL;
  uint64_t rel = addr - base;
  const struct ksym_entry *e = ksym_table.entries;
  size_t lo = 0, hi = ksym_table.count; /* find the last entry with addr <= rel */
  if (hi == 0 || e[0].addr > rel) return NULL;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (e[mid].addr <= rel)
      lo = mid;
    else
      hi = mid;
  }
  const char *names = (const char *)&ksym_table.entries[ksym_table.count];
  *offset = rel - e[lo].addr;
  return names + e[lo].name_offset;
}

static void print_frame(int n, uint64_t addr) {
  uint64_t off = 0;
  const char *name = ksym_lookup(addr, &off);
  if (name)
    console_printf("  #%-2d 0x%016llx %s+0x%llx\n", n, (unsigned long long)addr, name,
                   (unsigned long long)off);
  else
    console_printf("  #%-2d 0x%016llx ?\n", n, (unsigned long long)addr);
}

void backtrace_print(uint64_t rip, uint64_t rbp) {
  print_frame(0, rip);
  for (int n = 1; n < MAX_FRAMES; n++) {
    /* A frame is [saved rbp, return address]; both must lie in a stack. */
    if (rbp == 0 || (rbp & 7) || !kstack_contains(rbp, 16)) return;
    const uint64_t *frame = (const uint64_t *)(uintptr_t)rbp;
    uint64_t ret = frame[1];
    if (ret == 0) return;
    print_frame(n, ret);
    if (frame[0] <= rbp) return; /* stacks grow down: callers sit higher */
    rbp = frame[0];
  }
}

__attribute__((noinline)) void backtrace_print_here(void) {
  const uint64_t *frame = __builtin_frame_address(0);
  backtrace_print(frame[1], frame[0]);
}
