/*
 * frames.h - the physical frame allocator of the image.
 *
 * Free memory comes from the UEFI map: EfiConventionalMemory at
 * frames_init(), EfiBootServicesCode/Data added by
 * frames_reclaim_boot_services() once nothing of the firmware is in use
 * (our page tables, GDT, IDT and stack are loaded). The firmware's code
 * pages are handed out only when no other memory fits a request, and are
 * cleared first (frames.c says why). Everything the boot code
 * allocated (EfiLoaderData: boot info, boot file system, stacks, heap) and
 * the firmware's runtime and ACPI memory are never handed out.
 *
 * Blocks come from the top of memory down (frame_pool.h); the heap grows
 * from the bottom of the largest range with frames_claim().
 */
#ifndef KERNEL_FRAMES_H
#define KERNEL_FRAMES_H

#include <stdint.h>

#include "kernel/frame_pool.h"

struct boot_info;

void frames_init(const struct boot_info *info);
void frames_reclaim_boot_services(const struct boot_info *info);

/* `size` bytes (rounded up to pages) aligned to `align` (power of two;
 * below FRAME_SIZE means FRAME_SIZE). Not zeroed. 0 when out of memory. */
uint64_t frames_alloc(uint64_t size, uint64_t align);
/* The same, ending at or below physical address `limit` (e.g. 1 MiB for
 * the SMP trampoline, 4 GiB for 32-bit DMA). */
uint64_t frames_alloc_below(uint64_t size, uint64_t align, uint64_t limit);
void frames_free(uint64_t base, uint64_t size);
/* Takes exactly [base, base + size) if it is all free: 0, else -1. */
int frames_claim(uint64_t base, uint64_t size);

uint64_t frames_free_bytes(void);
/* All RAM the memory map describes (free or not). */
uint64_t frames_ram_bytes(void);
/* Calls fn for each range of the memory map that is RAM
 * (boot_mem_type_is_ram: free, in use, or the firmware's), in map order,
 * one call per map entry; stops at fn's first non-zero result and returns
 * it, else 0. For drivers that map all RAM for a device. */
int frames_for_each_ram_range(int (*fn)(void *ctx, uint64_t base, uint64_t size), void *ctx);

#endif
