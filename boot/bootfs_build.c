/* bootfs_build.c - writes the boot file system block (see bootfs_build.h). */
#include "boot/bootfs_build.h"
#include "lib/util.h"

#include <string.h>


void bootfs_plan_add(struct bootfs_plan *plan, size_t name_len, uint64_t size) {
  plan->count++;
  plan->names_bytes += name_len + 1;
  plan->data_bytes += ALIGN_UP(size, BOOTFS_DATA_ALIGN);
}

static uint64_t names_start(uint32_t count) {
  return sizeof(struct bootfs_header) + (uint64_t)count * sizeof(struct bootfs_entry);
}

uint64_t bootfs_plan_size(const struct bootfs_plan *plan) {
  return ALIGN_UP(names_start(plan->count) + plan->names_bytes, BOOTFS_DATA_ALIGN) +
         plan->data_bytes;
}

int bootfs_writer_begin(struct bootfs_writer *w, void *buf, uint64_t capacity,
                        const struct bootfs_plan *plan) {
  if (capacity < bootfs_plan_size(plan)) return -1;
  w->base = buf;
  w->capacity = capacity;
  w->max_count = plan->count;
  w->count = 0;
  w->names_at = names_start(plan->count);
  w->names_end = w->names_at + plan->names_bytes;
  w->data_at = ALIGN_UP(w->names_end, BOOTFS_DATA_ALIGN);
  memset(w->base, 0, w->data_at);
  return 0;
}

void *bootfs_writer_add(struct bootfs_writer *w, const char *name, uint64_t size) {
  size_t name_len = strlen(name);
  uint64_t padded = ALIGN_UP(size, BOOTFS_DATA_ALIGN);
  if (w->count == w->max_count || name_len + 1 > w->names_end - w->names_at ||
      padded > w->capacity - w->data_at)
    return NULL;
  struct bootfs_entry *e =
      (struct bootfs_entry *)(w->base + sizeof(struct bootfs_header)) + w->count++;
  e->name_offset = w->names_at;
  e->data_offset = w->data_at;
  e->size = size;
  memcpy(w->base + w->names_at, name, name_len + 1);
  w->names_at += name_len + 1;
  uint8_t *data = w->base + w->data_at;
  memset(data + size, 0, padded - size);
  w->data_at += padded;
  return data;
}

uint64_t bootfs_writer_finish(struct bootfs_writer *w) {
  struct bootfs_header *h = (struct bootfs_header *)w->base;
  h->magic = BOOTFS_MAGIC;
  h->total_size = w->data_at;
  h->count = w->count;
  h->pad = 0;
  return w->data_at;
}
