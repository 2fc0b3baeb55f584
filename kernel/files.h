/*
 * files.h - the boot file system in the image: plat_file_load() and the
 * file descriptors of newlib's open/read/lseek/fstat/close (read-only;
 * descriptors 0-2 are the console).
 */
#ifndef KERNEL_FILES_H
#define KERNEL_FILES_H

#include <stddef.h>

struct boot_info;

/* Checks the block boot/ captured and lists its files at debug level.
 * Returns 0, or -1 (logged) when the block is malformed. */
int files_init(const struct boot_info *info);

/* read() of a boot file descriptor (>= 3), for libc_glue.c's read(). */
int files_read(int fd, void *buf, size_t n);

/* The checked block (for kernel_protected_ranges) and its size. */
const void *files_bootfs(unsigned long long *size);

#endif
