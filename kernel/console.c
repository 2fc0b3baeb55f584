/* console.c - COM1 shared by every core; see console.h. */
#include "kernel/console.h"

#include <stdio.h>

#include "kernel/cpu.h"
#include "kernel/serial.h"
#include "lib/lock.h"
#include "kernel/time.h"

/* How long a writer waits for the console before it takes it over: far
 * longer than any line takes at 115200 baud (~90 us per byte). */
#define CONSOLE_WAIT_NS (2ull * 1000 * 1000 * 1000)

static struct spinlock lock = SPINLOCK_INIT;
static volatile int owner = -1; /* core holding the lock */
static volatile bool forced;

void console_init(void) { serial_init(); }

void console_force_unlocked(void) { forced = true; }

/* Returns true when this call took the lock (and must release it). */
static bool acquire(void) {
  int me = (int)cpu_index();
  if (forced || owner == me) return false; /* re-entered from an exception */
  uint64_t start = time_ns();
  while (!spin_trylock(&lock)) {
    if (time_ns() - start > CONSOLE_WAIT_NS) {
      static const char msg[] = "\n[console: a core held the console too long; taking it over]\n";
      forced = true;
      serial_write(msg, sizeof msg - 1);
      return false;
    }
    __builtin_ia32_pause();
  }
  owner = me;
  return true;
}

static void release(bool taken) {
  if (!taken) return;
  owner = -1;
  spin_unlock(&lock);
}

void console_write(const char *s, size_t n) {
  /* With interrupts off, an interrupt handler that logs cannot cut into a
   * line of its own core. */
  uint64_t flags = read_rflags();
  __asm__ volatile("cli" ::: "memory");
  bool taken = acquire();
  serial_write(s, n);
  release(taken);
  if (flags & RFLAGS_IF_BIT) __asm__ volatile("sti" ::: "memory");
}

void console_printf(const char *fmt, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  console_write(buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}
