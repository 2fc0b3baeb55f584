/*
 * libc_reent.h - newlib's per-thread state, one per core (libc_reent.c).
 */
#ifndef KERNEL_LIBC_REENT_H
#define KERNEL_LIBC_REENT_H

/* Before core `core` (not 0) is started, on the starting core: gives it
 * its own state if it has none yet. 0, or -ENOMEM (logged). */
int libc_reent_prepare(unsigned core);

/* On each core once it runs the kernel (core 0: before main()): its
 * stdout and stderr become line buffered. */
void libc_reent_start_core(void);

/* At the end of the run: writes out what each core's stdout and stderr
 * still buffer, skipping a stream some core is in the middle of using. */
void libc_flush_all_cores(void);

#endif
