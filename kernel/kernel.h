/* kernel.h - what kernel_start() keeps for the rest of the kernel. */
#ifndef KERNEL_KERNEL_H
#define KERNEL_KERNEL_H

struct boot_info;

/* The hand-off from boot/ (never NULL once kernel_start has begun). */
const struct boot_info *kernel_boot_info(void);

#endif
