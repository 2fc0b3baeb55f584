/*
 * heap.h - the heap behind newlib's malloc (sbrk).
 *
 * It starts on the pages boot/ allocated at the bottom of the largest free
 * RAM range and grows upwards into the rest of that range, page by page
 * from the frame allocator, so it can take all the free memory that range
 * holds (the identity map keeps heap pointers usable as device addresses).
 */
#ifndef KERNEL_HEAP_H
#define KERNEL_HEAP_H

#include <stddef.h>
#include <stdint.h>

struct boot_info;

void heap_init(const struct boot_info *info);

/* Extent of the heap so far: [*base, *end) (for kernel_protected_ranges). */
void heap_extent(uint64_t *base, uint64_t *end);

#endif
