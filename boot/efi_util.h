/*
 * efi_util.h - small helpers of the UEFI entry (boot/ only): the firmware
 * tables, page allocation, fatal errors, files of the boot volume.
 */
#ifndef BOOT_EFI_UTIL_H
#define BOOT_EFI_UTIL_H

#include <efi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "boot/boot_info.h"

extern EFI_SYSTEM_TABLE *efi_st;
extern EFI_BOOT_SERVICES *efi_bs;
extern EFI_RUNTIME_SERVICES *efi_rt;

void boot_util_init(EFI_SYSTEM_TABLE *systab);

/* One line on the firmware console (before ExitBootServices). */
void boot_print(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "boot: <what> failed: <status>" and shuts the machine down. */
void boot_fatal(const char *what, EFI_STATUS st) __attribute__((noreturn));

/* Whole pages of EfiLoaderData (the kernel keeps them); fatal when out of
 * memory. */
void *boot_alloc_pages(size_t size, const char *what);
void boot_free_pages(void *p, size_t size);

static inline uint64_t boot_rdtsc(void) {
  uint32_t lo, hi;
  __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
  return (uint64_t)hi << 32 | lo;
}

/* Removes leading and trailing blanks in place. */
void boot_trim(char *s);

/* The largest EfiConventionalMemory range of the current memory map. */
void boot_largest_free_range(uint64_t *base, uint64_t *pages);

/* Copies the firmware's descriptors (stride desc_size) into `out`, sorted by
 * base address; returns how many. */
uint32_t boot_convert_memory_map(const void *raw, size_t raw_size, size_t desc_size,
                                 struct boot_mem_range *out, size_t max_out);

/* ---- Files of the boot volume (efi_files.c) ---- */
/* The root directory of the volume this image was loaded from, or NULL
 * when that device has no file system. */
EFI_FILE_HANDLE boot_open_volume(EFI_HANDLE device);

/* A whole file in fresh pages, or NULL when it does not exist. Any other
 * error is fatal. */
void *boot_read_file(EFI_FILE_HANDLE root, const CHAR16 *path, size_t *size, bool required);

/* Every file under the given folders (recursively) in one read-only boot
 * file system block; folders that do not exist are skipped; root NULL
 * gives an empty block. */
const struct bootfs_header *boot_capture_folders(EFI_FILE_HANDLE root, const CHAR16 *const *folders,
                                                 size_t count);

#endif
