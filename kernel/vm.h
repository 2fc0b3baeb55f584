/*
 * vm.h - the kernel's page tables: one identity map (virtual = physical)
 * of all RAM and MMIO, shared by every core.
 *
 *   RAM (every UEFI memory type that is memory)   write-back, read/write, no-execute
 *   holes and MMIO up to the top of the map       uncached, read/write, no-execute
 *   the image: text                               read + execute
 *              rodata, relocation data, symbols   read-only, no-execute
 *              data, bss                          read/write, no-execute
 *   the boot file system                          read-only, no-execute
 *   page 0 and the page below every stack         not mapped (NULL, guard pages)
 *
 * with 1 GiB / 2 MiB pages wherever a whole page has one set of attributes.
 * Drivers map device memory that lies above the initial map with
 * vm_map_mmio() and change a range's attributes with vm_set_attrs().
 * Changes apply to the calling core at once; other cores see them after
 * the TLB shootdown that kernel-platform registers (vm_set_tlb_shootdown).
 */
#ifndef KERNEL_VM_H
#define KERNEL_VM_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/pt.h"

struct boot_info;

/* Attribute sets (PT_* of kernel/pt.h). */
#define VM_RAM      (PT_PRESENT | PT_WRITE | PT_CACHE_WB)
#define VM_MMIO     (PT_PRESENT | PT_WRITE | PT_CACHE_UC)
#define VM_MMIO_WC  (PT_PRESENT | PT_WRITE | PT_CACHE_WC)
#define VM_READONLY (PT_PRESENT | PT_CACHE_WB)
#define VM_TEXT     (PT_PRESENT | PT_EXEC | PT_CACHE_WB)

/* Builds the identity map and loads it on the calling core. Panics when
 * the tables cannot be built (nothing can run without them). */
void vm_init(const struct boot_info *info);

/* The PML4's physical address: what every core loads into CR3 (an AP's
 * trampoline sets EFER.NXE before it loads it: the map uses NX). */
uint64_t vm_root(void);

/* Maps [phys, phys + size) uncached (rounded out to pages) for a device's
 * registers. Returns 0, or -1 (logged) on a bad range or no table memory. */
int vm_map_mmio(uint64_t phys, uint64_t size);

/* Gives [addr, addr + size) the attributes `attrs` (VM_* or PT_* bits;
 * without PT_PRESENT the range is unmapped). Refuses (-1, logged) to make
 * the kernel's text writable or any other range executable. */
int vm_set_attrs(uint64_t addr, uint64_t size, unsigned attrs);

/* The same for pages of code loaded at run time (lib/plat.h plat_code_*):
 * executable is allowed, never together with writable (W^X), and never
 * inside the kernel image. */
int vm_set_code_attrs(uint64_t addr, uint64_t size, unsigned attrs);
/* The same for `count` ranges of `size` bytes, `stride` apart from addr
 * (stride >= size), with one TLB flush for all. */
int vm_set_code_attrs_each(uint64_t addr, uint64_t count, uint64_t stride, uint64_t size,
                           unsigned attrs);

/* Unmaps [addr, addr + size): a guard page. */
int vm_unmap(uint64_t addr, uint64_t size);

/* The attributes at `addr` and the size of the page holding it. */
unsigned vm_query(uint64_t addr, uint64_t *page_size);

/* After a change, the other cores must drop stale translations. */
void vm_set_tlb_shootdown(void (*shootdown)(void));

#endif
