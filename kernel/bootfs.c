/* bootfs.c - the boot file system reader (see bootfs.h). */
#include "kernel/bootfs.h"

#include <stdbool.h>
#include <stdio.h>
#include <strings.h>

static const struct bootfs_entry *entries(const struct bootfs_header *fs) {
  return (const struct bootfs_entry *)(fs + 1);
}

int bootfs_check(const struct bootfs_header *fs, uint64_t size, char *err, size_t err_size) {
  if (size < sizeof *fs) {
    snprintf(err, err_size, "boot file system: %llu bytes, smaller than its header",
             (unsigned long long)size);
    return -1;
  }
  if (fs->magic != BOOTFS_MAGIC) {
    snprintf(err, err_size, "boot file system: bad magic 0x%llx", (unsigned long long)fs->magic);
    return -1;
  }
  if (fs->total_size > size) {
    snprintf(err, err_size, "boot file system: total size %llu beyond the %llu bytes given",
             (unsigned long long)fs->total_size, (unsigned long long)size);
    return -1;
  }
  uint64_t total = fs->total_size;
  uint64_t table_end = sizeof *fs + (uint64_t)fs->count * sizeof(struct bootfs_entry);
  if (table_end > total) {
    snprintf(err, err_size, "boot file system: %u entries do not fit in %llu bytes", fs->count,
             (unsigned long long)total);
    return -1;
  }
  const char *base = (const char *)fs;
  for (uint32_t i = 0; i < fs->count; i++) {
    const struct bootfs_entry *e = &entries(fs)[i];
    if (e->name_offset < table_end || e->name_offset >= total) {
      snprintf(err, err_size, "boot file system: entry %u: name offset %llu out of range", i,
               (unsigned long long)e->name_offset);
      return -1;
    }
    bool terminated = false;
    for (uint64_t o = e->name_offset; o < total && !terminated; o++) terminated = base[o] == '\0';
    if (!terminated) {
      snprintf(err, err_size, "boot file system: entry %u: name not terminated", i);
      return -1;
    }
    if (e->data_offset < table_end || e->data_offset > total || e->size > total - e->data_offset) {
      snprintf(err, err_size, "boot file system: entry %u (%s): data %llu+%llu out of range", i,
               base + e->name_offset, (unsigned long long)e->data_offset,
               (unsigned long long)e->size);
      return -1;
    }
  }
  return 0;
}

static const char *skip_slash(const char *p) { return *p == '/' ? p + 1 : p; }

const void *bootfs_find(const struct bootfs_header *fs, const char *path, uint64_t *size) {
  const char *want = skip_slash(path);
  for (uint32_t i = 0; i < fs->count; i++) {
    const struct bootfs_entry *e = &entries(fs)[i];
    if (strcasecmp(skip_slash((const char *)fs + e->name_offset), want) == 0) {
      *size = e->size;
      return (const char *)fs + e->data_offset;
    }
  }
  return NULL;
}

const char *bootfs_name(const struct bootfs_header *fs, uint32_t i, uint64_t *size) {
  *size = entries(fs)[i].size;
  return (const char *)fs + entries(fs)[i].name_offset;
}
