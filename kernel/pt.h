/*
 * pt.h - x86-64 4-level page tables for an identity map (virtual address =
 * physical address): the portable builder under kernel/vm.c, tested on the
 * host with tables in ordinary memory.
 *
 * pt_map() gives a range its rights and cache type with the largest pages
 * that fit (1 GiB where allowed, 2 MiB, 4 KiB), splitting a larger page
 * that the range only partly covers. A range mapped "not present" is
 * unmapped (guard pages). Tables freed by a remap with larger pages go back
 * through free_table.
 *
 * Entry formats: Intel SDM vol. 3A, 4.5 "4-Level Paging", Tables 4-15 to
 * 4-20; memory types through PAT/PCD/PWT: vol. 3A, 11.12.3 "Selecting a
 * Memory Type from the PAT".
 */
#ifndef KERNEL_PT_H
#define KERNEL_PT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Rights and memory type of a mapping (our encoding, not the entry's). */
#define PT_PRESENT    0x1u
#define PT_WRITE      0x2u
#define PT_EXEC       0x4u
#define PT_CACHE_MASK 0x30u
#define PT_CACHE_WB   0x00u /* write-back: RAM */
#define PT_CACHE_WC   0x10u /* write-combining: framebuffers, doorbell pages */
#define PT_CACHE_UC   0x20u /* uncached: MMIO registers */

/* The PAT layout the kernel programs (cpu.c) and this file encodes: index
 * = PAT*4 + PCD*2 + PWT; entries 0-3 are WB, WC, UC-, UC and 4-7 repeat
 * them. Entries 0, 2 and 3 equal the power-on defaults (SDM vol. 3A,
 * Table 11-12); 1 becomes WC. Type encodings: SDM vol. 3A, Table 11-10
 * (UC 00h, WC 01h, WB 06h, UC- 07h). */
#define PT_PAT_MSR_VALUE 0x0007010600070106ull

struct pt_ctx {
  uint64_t root; /* physical address of the PML4 */
  bool allow_1g; /* CPUID.80000001H:EDX[26] (1-GByte pages) */
  /* A zeroed 4 KiB table: its physical address, 0 when out of memory. */
  uint64_t (*alloc_table)(void *arg);
  void (*free_table)(void *arg, uint64_t phys);
  /* Where the code can read and write the table at `phys`. */
  uint64_t *(*table_ptr)(void *arg, uint64_t phys);
  void *arg;
};

/* Allocates the PML4. Returns 0, or -1 when out of memory. */
int pt_init(struct pt_ctx *c);

/* Maps [base, base + size) identically with `attrs` (PT_*; without
 * PT_PRESENT it unmaps). base and size 4 KiB aligned, the range below
 * 2^48. Returns 0, or -1 (bad range, out of table memory: the range may
 * then be partly changed). */
int pt_map(struct pt_ctx *c, uint64_t base, uint64_t size, unsigned attrs);

/* The attributes of the page holding `addr` and that page's size (0 when
 * not mapped). */
unsigned pt_query(const struct pt_ctx *c, uint64_t addr, uint64_t *page_size);

#endif
