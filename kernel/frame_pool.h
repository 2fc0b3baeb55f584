/*
 * frame_pool.h - a set of free physical ranges: the portable core of the
 * frame allocator (kernel/frames.c wraps one for the image; host tests use
 * it directly).
 *
 * Free memory is a sorted array of disjoint, non-adjacent [base, end)
 * ranges in 4 KiB units. Allocation is first fit from the top of memory
 * down, so that the heap, which grows upwards from the bottom of the
 * largest range, keeps the most room.
 */
#ifndef KERNEL_FRAME_POOL_H
#define KERNEL_FRAME_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FRAME_SIZE 4096ull

struct frame_range {
  uint64_t base, end;
};

struct frame_pool {
  struct frame_range *ranges;
  size_t count, capacity;
};

void frame_pool_init(struct frame_pool *p, struct frame_range *storage, size_t capacity);

/* Why frame_pool_add refused a range. */
enum frame_pool_add_error {
  FRAME_POOL_MISALIGNED = -1, /* not whole pages, or wraps around */
  FRAME_POOL_OVERLAP = -2,    /* some of it is free already */
  FRAME_POOL_FULL = -3,       /* the range array has no room for another range */
};

/* Adds [base, base + size) to the free set (page aligned, not free yet).
 * Returns 0 or an enum frame_pool_add_error. */
int frame_pool_add(struct frame_pool *p, uint64_t base, uint64_t size);

/* Takes `size` bytes (a multiple of FRAME_SIZE) aligned to `align` (a power
 * of two >= FRAME_SIZE), the highest such block that ends at or below
 * `limit`. Returns the base, or 0 when no block fits. */
uint64_t frame_pool_alloc(struct frame_pool *p, uint64_t size, uint64_t align, uint64_t limit);

/* Takes exactly [base, base + size) if all of it is free: 0, else -1. */
int frame_pool_claim(struct frame_pool *p, uint64_t base, uint64_t size);

/* Takes exactly [base, base + size) when every page of it is free in `a` or
 * in `b` (a run may pass from one set to the other): 0, and *from_b tells
 * whether any of it came from `b`; else -1 with nothing taken. */
int frame_pool_claim_either(struct frame_pool *a, struct frame_pool *b, uint64_t base,
                            uint64_t size, bool *from_b);

/* Whether any page of [base, base + size) is free in the set. */
bool frame_pool_overlaps(const struct frame_pool *p, uint64_t base, uint64_t size);

uint64_t frame_pool_free_bytes(const struct frame_pool *p);

#endif
