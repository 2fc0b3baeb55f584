/* frame_pool.c - free physical ranges (see frame_pool.h). */
#include "kernel/frame_pool.h"

#include <string.h>

void frame_pool_init(struct frame_pool *p, struct frame_range *storage, size_t capacity) {
  p->ranges = storage;
  p->count = 0;
  p->capacity = capacity;
}

static int insert_at(struct frame_pool *p, size_t i, struct frame_range r) {
  if (p->count == p->capacity) return FRAME_POOL_FULL;
  memmove(&p->ranges[i + 1], &p->ranges[i], (p->count - i) * sizeof r);
  p->ranges[i] = r;
  p->count++;
  return 0;
}

static void remove_at(struct frame_pool *p, size_t i) {
  memmove(&p->ranges[i], &p->ranges[i + 1], (p->count - i - 1) * sizeof p->ranges[0]);
  p->count--;
}

int frame_pool_add(struct frame_pool *p, uint64_t base, uint64_t size) {
  uint64_t end = base + size;
  if (size == 0) return 0;
  if ((base | size) & (FRAME_SIZE - 1) || end < base) return FRAME_POOL_MISALIGNED;
  size_t i = 0; /* first range that starts at or after `base` */
  while (i < p->count && p->ranges[i].base < base) i++;
  if (i > 0 && p->ranges[i - 1].end > base) return FRAME_POOL_OVERLAP;
  if (i < p->count && p->ranges[i].base < end) return FRAME_POOL_OVERLAP;
  bool join_prev = i > 0 && p->ranges[i - 1].end == base;
  bool join_next = i < p->count && p->ranges[i].base == end;
  if (join_prev && join_next) {
    p->ranges[i - 1].end = p->ranges[i].end;
    remove_at(p, i);
  } else if (join_prev) {
    p->ranges[i - 1].end = end;
  } else if (join_next) {
    p->ranges[i].base = base;
  } else {
    return insert_at(p, i, (struct frame_range){base, end});
  }
  return 0;
}

/* Removes [base, end) from range i, which contains it. */
static int take(struct frame_pool *p, size_t i, uint64_t base, uint64_t end) {
  struct frame_range *r = &p->ranges[i];
  if (r->base == base && r->end == end) {
    remove_at(p, i);
  } else if (r->base == base) {
    r->base = end;
  } else if (r->end == end) {
    r->end = base;
  } else {
    struct frame_range upper = {end, r->end};
    if (insert_at(p, i + 1, upper) != 0) return -1;
    p->ranges[i].end = base;
  }
  return 0;
}

uint64_t frame_pool_alloc(struct frame_pool *p, uint64_t size, uint64_t align, uint64_t limit) {
  if (size == 0 || (size & (FRAME_SIZE - 1)) || align < FRAME_SIZE || (align & (align - 1)))
    return 0;
  for (size_t i = p->count; i-- > 0;) {
    struct frame_range r = p->ranges[i];
    uint64_t top = r.end < limit ? r.end : limit;
    if (top < r.base || top - r.base < size) continue;
    uint64_t base = (top - size) & ~(align - 1);
    if (base < r.base || base == 0) continue; /* 0 means failure: never hand it out */
    if (take(p, i, base, base + size) != 0) return 0;
    return base;
  }
  return 0;
}

int frame_pool_claim(struct frame_pool *p, uint64_t base, uint64_t size) {
  uint64_t end = base + size;
  if (size == 0 || ((base | size) & (FRAME_SIZE - 1)) || end < base) return -1;
  for (size_t i = 0; i < p->count; i++)
    if (p->ranges[i].base <= base && end <= p->ranges[i].end) return take(p, i, base, end);
  return -1;
}

uint64_t frame_pool_free_bytes(const struct frame_pool *p) {
  uint64_t total = 0;
  for (size_t i = 0; i < p->count; i++) total += p->ranges[i].end - p->ranges[i].base;
  return total;
}

/* The range that contains `addr`, or NULL. */
static const struct frame_range *containing(const struct frame_pool *p, uint64_t addr) {
  for (size_t i = 0; i < p->count; i++)
    if (p->ranges[i].base <= addr && addr < p->ranges[i].end) return &p->ranges[i];
  return NULL;
}

int frame_pool_claim_either(struct frame_pool *a, struct frame_pool *b, uint64_t base,
                            uint64_t size, bool *from_b) {
  uint64_t end = base + size;
  if (size == 0 || ((base | size) & (FRAME_SIZE - 1)) || end < base) return -1;
  /* First check that the pieces cover the whole run, then take them. A
   * piece is cut from one range; only a run that is one piece can split a
   * range in two (and so fail on a full table) and then nothing else was
   * taken before it. */
  for (uint64_t at = base; at < end;) {
    const struct frame_range *r = containing(a, at);
    if (!r) r = containing(b, at);
    if (!r) return -1;
    at = r->end;
  }
  *from_b = false;
  for (uint64_t at = base; at < end;) {
    struct frame_pool *p = a;
    const struct frame_range *r = containing(a, at);
    if (!r) r = containing(p = b, at);
    uint64_t piece_end = r->end < end ? r->end : end;
    if (frame_pool_claim(p, at, piece_end - at) != 0) return -1;
    if (p == b) *from_b = true;
    at = piece_end;
  }
  return 0;
}

bool frame_pool_overlaps(const struct frame_pool *p, uint64_t base, uint64_t size) {
  for (size_t i = 0; i < p->count; i++)
    if (p->ranges[i].base < base + size && base < p->ranges[i].end) return true;
  return false;
}
