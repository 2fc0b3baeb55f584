/*
 * exit.h - the end of the run.
 *
 * kernel_exit(status) ends the run with an exit status: QEMU's isa-debug-exit
 * device when running under a hypervisor (QEMU then exits with
 * (status << 1) | 1), else ACPI power-off (S5, kernel/power.c), else a
 * reset (ACPI reset register, 8042, 0xCF9, triple fault). The status is in
 * the log's last line either way. Application statuses are 0-127; the
 * kernel uses the top of that range for its own failures.
 */
#ifndef KERNEL_EXIT_H
#define KERNEL_EXIT_H

#define EXIT_STATUS_MAX              127 /* larger statuses are reported as this */
#define EXIT_STATUS_BAD_COMMAND_LINE 120 /* unknown or malformed boot option */
#define EXIT_STATUS_SIGNAL           121 /* abort() or kill() of the application */
#define EXIT_STATUS_PANIC            125 /* panic(): the kernel cannot go on */
#define EXIT_STATUS_CPU_EXCEPTION    126 /* an exception outside a test */

void kernel_exit(int status) __attribute__((noreturn));

/* Prints "PANIC: <reason>" and a backtrace, then ends the run with
 * EXIT_STATUS_PANIC. */
void panic(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

#endif
