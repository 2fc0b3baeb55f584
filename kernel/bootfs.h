/*
 * bootfs.h - reads the boot file system block that boot/ captured (format
 * in boot/boot_info.h). Portable: host tests feed it good and broken blocks.
 *
 * Names are "/folder/file" as on the ESP; lookups ignore ASCII case (FAT
 * does) and accept the path with or without its leading '/'.
 */
#ifndef KERNEL_BOOTFS_H
#define KERNEL_BOOTFS_H

#include <stddef.h>
#include <stdint.h>

#include "boot/boot_info.h"

/* Checks every offset and size of the block against `size` (the bytes that
 * are readable there). Returns 0, or -1 with the reason in `err`. */
int bootfs_check(const struct bootfs_header *fs, uint64_t size, char *err, size_t err_size);

/* The contents of `path` and its size, or NULL. Only on a checked block. */
const void *bootfs_find(const struct bootfs_header *fs, const char *path, uint64_t *size);

/* Entry i (< fs->count): its name and size. */
const char *bootfs_name(const struct bootfs_header *fs, uint32_t i, uint64_t *size);

#endif
