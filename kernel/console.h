/*
 * console.h - the kernel console: COM1, shared by every core.
 *
 * console_write() puts its bytes out in one piece: writers on other cores
 * wait, so lines never interleave. A core that faults while it holds the
 * console (an exception in the middle of a log line) goes on writing
 * instead of waiting for itself, and a writer that waits too long (a core
 * stopped with the lock held) takes the console over and says so.
 */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include <stdarg.h>
#include <stddef.h>

void console_init(void);
void console_write(const char *s, size_t n);

/* printf to the console without a log prefix, in one piece; for the
 * exception and panic reports. Bounded to one line buffer per call. */
void console_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* From now on, ignore the lock: used once the run is ending (panic). */
void console_force_unlocked(void);

#endif
