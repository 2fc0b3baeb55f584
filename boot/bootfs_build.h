/*
 * bootfs_build.h - writes the boot file system block (format in
 * boot/boot_info.h). Portable: used by boot/efi_files.c and by host tests.
 *
 *   struct bootfs_plan plan = {0};
 *   bootfs_plan_add(&plan, strlen(name), size);          for every file
 *   buf = allocate(bootfs_plan_size(&plan));
 *   bootfs_writer_begin(&w, buf, bootfs_plan_size(&plan), &plan);
 *   memcpy(bootfs_writer_add(&w, name, size), data, size); for every file
 *   bootfs_writer_finish(&w);
 */
#ifndef BOOT_BOOTFS_BUILD_H
#define BOOT_BOOTFS_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "boot/boot_info.h"

struct bootfs_plan {
  uint32_t count;
  uint64_t names_bytes; /* NULs included */
  uint64_t data_bytes;  /* each file rounded up to BOOTFS_DATA_ALIGN */
};

void bootfs_plan_add(struct bootfs_plan *plan, size_t name_len, uint64_t size);
/* Bytes the whole block needs. */
uint64_t bootfs_plan_size(const struct bootfs_plan *plan);

struct bootfs_writer {
  uint8_t *base;
  uint64_t capacity;
  uint32_t max_count;
  uint32_t count;
  uint64_t names_at; /* next free byte for a name */
  uint64_t names_end;
  uint64_t data_at; /* next free byte for contents */
};

/* Returns 0, or -1 when `capacity` is smaller than the plan needs. */
int bootfs_writer_begin(struct bootfs_writer *w, void *buf, uint64_t capacity,
                        const struct bootfs_plan *plan);
/* Adds an entry and returns where its `size` bytes of contents go, or NULL
 * when the entry does not fit the plan. */
void *bootfs_writer_add(struct bootfs_writer *w, const char *name, uint64_t size);
/* Writes the header; the block is complete. Returns its size. */
uint64_t bootfs_writer_finish(struct bootfs_writer *w);

#endif
