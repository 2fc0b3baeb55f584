/* exit.c - ends the run: debug-exit device, power-off, reset (see exit.h). */
#include "kernel/exit.h"

#include <stdarg.h>
#include <stdio.h>

#include "kernel/backtrace.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/libc_reent.h"
#include "kernel/portio.h"
#include "kernel/power.h"
#include "lib/plat.h"

#define LOG_TAG "exit"

/* QEMU hw/misc/debugexit.c: a write of v to the port makes QEMU exit with
 * (v << 1) | 1; the port is set by -device isa-debug-exit,iobase=0xf4.
 * Without that device the write goes nowhere. */
#define QEMU_DEBUG_EXIT_PORT 0xf4
/* Reset: the 8042 keyboard controller's "pulse reset line" command 0xfe on
 * port 0x64, then the reset control register 0xcf9 (hard reset 0x06) of
 * PC chipsets (Intel ICH9 datasheet 13.7.5 "RST_CNT"). */
#define KBC_COMMAND_PORT   0x64
#define KBC_PULSE_RESET    0xfe
#define RESET_CONTROL_PORT 0xcf9
#define RESET_CONTROL_HARD 0x06

void kernel_exit(int status) {
  if (status < 0 || status > EXIT_STATUS_MAX) {
    log_warn("exit status %d is outside 0-%d; reporting %d", status, EXIT_STATUS_MAX,
             EXIT_STATUS_MAX);
    status = EXIT_STATUS_MAX;
  }
  libc_flush_all_cores(); /* what the cores' stdout/stderr still buffer */
  log_info("run ends with exit status %d", status);
  if (cpu_under_hypervisor()) outb(QEMU_DEBUG_EXIT_PORT, (uint8_t)status);
  /* Still here: no debug-exit device (a board). */
  power_off_acpi();
  log_error("power-off did not happen; resetting");
  reset_acpi();
  outb(KBC_COMMAND_PORT, KBC_PULSE_RESET);
  outb(RESET_CONTROL_PORT, RESET_CONTROL_HARD);
  /* Last resort: a triple fault (an empty IDT cannot deliver int3). */
  static const struct {
    uint16_t limit;
    uint64_t base;
  } __attribute__((packed)) no_idt = {0, 0};
  __asm__ volatile("lidt %0; int3" ::"m"(no_idt));
  for (;;) __asm__ volatile("cli; hlt");
}

void panic(const char *fmt, ...) {
  static volatile int panicking;
  if (__atomic_exchange_n(&panicking, 1, __ATOMIC_SEQ_CST)) {
    /* Another core panics already, or the report itself failed. */
    for (;;) __asm__ volatile("cli; hlt");
  }
  char reason[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(reason, sizeof reason, fmt, ap);
  va_end(ap);
  console_printf("PANIC on core %u: %s\n", cpu_index(), reason);
  backtrace_print_here();
  kernel_exit(EXIT_STATUS_PANIC);
}
