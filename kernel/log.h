/* log.h - the kernel's side of lib/plat.h logging: the level threshold. */
#ifndef KERNEL_LOG_H
#define KERNEL_LOG_H

/* Applies the `loglevel=` boot option. Returns 0, or -1 (logged) when its
 * value is not a level name (error, warn, info, debug, trace) or 0-4. */
int log_init_from_options(void);

#endif
