/*
 * heap.h - the heap behind newlib's malloc (sbrk).
 *
 * It starts on the pages boot/ allocated at the bottom of the largest free
 * RAM range and grows upwards into the rest of that range, page by page
 * from the frame allocator, so it can take all the free memory that range
 * holds (the identity map keeps heap pointers usable as device addresses).
 * It is the application's memory: a device such as the GPU may be given
 * any of it (kernel/kmem.h says what no device reaches).
 */
#ifndef KERNEL_HEAP_H
#define KERNEL_HEAP_H

#include <stddef.h>
#include <stdint.h>

struct boot_info;

void heap_init(const struct boot_info *info);

#endif
