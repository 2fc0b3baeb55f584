# kernel/: image-only sources (KERNEL_SRCS) and the portable ones that the
# host unit tests build too (KERNEL_PORTABLE_SRCS).
KERNEL_SRCS += kernel/main.c kernel/cpu.c kernel/serial.c kernel/console.c kernel/log.c \
               kernel/time.c kernel/exit.c kernel/frames.c kernel/heap.c kernel/files.c \
               kernel/boot_options.c kernel/libc_glue.c
KERNEL_PORTABLE_SRCS += kernel/options.c kernel/frame_pool.c kernel/bootfs.c
