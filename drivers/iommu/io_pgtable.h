/*
 * io_pgtable.h - AMD IOMMU "v1" (host) I/O page tables: the tree the IOMMU
 * walks to translate a device address, built and changed here.
 *
 * Format [48882 2.2.3 "I/O Page Tables for Host Translations"; Linux's
 * amd/io_pgtable.c and amd_iommu_types.h PM_LEVEL_*]: a table is
 * one 4 KiB page of 512 64-bit entries. A tree of N levels (the DTE's Mode,
 * 1..6) covers 12 + 9 * N address bits; level L's index is address bits
 * 12 + 9(L-1) .. 20 + 9(L-1). An entry with Next Level 0 is a leaf; its size
 * is what its level covers: 4 KiB at level 1, 2 MiB at level 2, 1 GiB at
 * level 3 (the sizes used here; Linux avoids 512 GiB leaves because of a
 * hardware bug, AMD_IOMMU_PGSIZES). A request's rights are the AND of IR/IW
 * of the DTE and of every entry on the way down [48882 2.2.3].
 *
 * Portable: tables come from the allocator the caller gives (the IOMMU page
 * pool in the driver, counting or failing ones in host tests), and the
 * address of a table is its pointer (single address space).
 */
#ifndef DRIVERS_IOMMU_IO_PGTABLE_H
#define DRIVERS_IOMMU_IO_PGTABLE_H

#include <stdbool.h>
#include <stdint.h>

#define IOPT_READ  1u /* device may read */
#define IOPT_WRITE 2u /* device may write */

#define IOPT_PAGE_4K (1ull << 12)
#define IOPT_PAGE_2M (1ull << 21)
#define IOPT_PAGE_1G (1ull << 30)

/* Where table pages come from: zeroed, 4 KiB, 4 KiB aligned, the pointer is
 * the bus address. alloc returns NULL when out of memory. */
struct iopt_allocator {
  void *(*alloc)(void *ctx);
  void (*free)(void *ctx, void *table);
  void *ctx;
};

struct io_pgtable {
  uint64_t *root;
  unsigned levels;      /* DTE Mode, 1..6 */
  unsigned table_count; /* pages of tables, root included */
  struct iopt_allocator allocator;
};

/* The fewest levels (at least 3, so 1 GiB leaves exist) whose tree covers
 * addresses below `limit`; 0 when even 6 levels cannot. */
unsigned iopt_levels_for(uint64_t limit);

/* An empty tree of `levels` levels (root allocated). 0, -EINVAL for levels
 * outside 1..6, -ENOMEM. */
int iopt_init(struct io_pgtable *pt, unsigned levels, struct iopt_allocator allocator);
/* Frees every table. The caller has made sure no device walks it any more. */
void iopt_destroy(struct io_pgtable *pt);

/* Maps [iova, iova + size) to [phys, phys + size) with `prot` (IOPT_READ,
 * IOPT_WRITE or both), using the largest pages alignment and size allow.
 * All of it or nothing: -EINVAL (not 4 KiB aligned, empty, wraps, no
 * right), -ERANGE (beyond what the levels cover), -EEXIST (some page of the
 * range is mapped already; nothing changed), -ENOMEM (nothing changed). */
int iopt_map(struct io_pgtable *pt, uint64_t iova, uint64_t phys, uint64_t size, unsigned prot);

/* Unmaps whatever is mapped in [iova, iova + size); a large page the range
 * only partly covers is first split into smaller ones, so the rest of it
 * stays mapped. *unmapped (may be NULL) gets how many bytes were mapped.
 * 0, -EINVAL, -ERANGE, or -ENOMEM when a split needed a table and none was
 * left (then nothing changed). Tables stay allocated until iopt_destroy: an
 * IOMMU may still hold them in its cache until the caller has flushed. */
int iopt_unmap(struct io_pgtable *pt, uint64_t iova, uint64_t size, uint64_t *unmapped);

/* Walks the tree as the IOMMU does for a request at `iova` needing `access`
 * (IOPT_READ and/or IOPT_WRITE): true with the physical address, the leaf's
 * page size and its rights when the request is allowed. */
bool iopt_translate(const struct io_pgtable *pt, uint64_t iova, unsigned access, uint64_t *phys,
                    uint64_t *page_size, unsigned *prot);

/* Calls fn for every mapped range, in address order, with neighbours that
 * continue each other (same rights, contiguous physical) merged. */
void iopt_for_each_range(const struct io_pgtable *pt,
                         void (*fn)(void *ctx, uint64_t iova, uint64_t phys, uint64_t size,
                                    unsigned prot),
                         void *ctx);

/* The DTE fields for this tree: root pointer | Mode, quadword 0 bits 51:9. */
uint64_t iopt_dte_root(const struct io_pgtable *pt);

#endif
