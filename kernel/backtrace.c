/* backtrace.c - symbol lookup and RBP-chain walk (see backtrace.h). */
#include "kernel/backtrace.h"

#include "kernel/console.h"
#include "kernel/kstack.h"

#define MAX_FRAMES 32

/* Written by kernel/gen_ksyms.py at link time (mk/image.mk). */
extern const struct ksym_table ksym_table __attribute__((visibility("hidden")));
extern const char ImageBase[] __attribute__((visibility("hidden")));
extern const char __text_start[] __attribute__((visibility("hidden")));
extern const char __text_end[] __attribute__((visibility("hidden")));

bool ksym_lookup(uint64_t addr, char name[KSYM_NAME_MAX], uint64_t *offset) {
  name[0] = '\0';
  if (addr < (uint64_t)(uintptr_t)__text_start || addr >= (uint64_t)(uintptr_t)__text_end)
    return false;
  uint32_t rel = (uint32_t)(addr - (uint64_t)(uintptr_t)ImageBase); /* text is below 4 GiB */
  long index = ksym_table_find(&ksym_table, rel);
  if (index < 0 || !ksym_table_name(&ksym_table, (uint32_t)index, name, KSYM_NAME_MAX))
    return false;
  *offset = rel - ksym_table.addr[index];
  return true;
}

static void print_frame(int n, uint64_t addr) {
  uint64_t off = 0;
  char name[KSYM_NAME_MAX];
  if (ksym_lookup(addr, name, &off))
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
