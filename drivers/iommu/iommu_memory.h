/*
 * iommu_memory.h - the memory the IOMMUs read: device tables, command rings,
 * event logs, semaphores and I/O page tables (internal to drivers/iommu).
 *
 * All of it comes from plat_dma_alloc and is kept in a short list of
 * extents that no device may be given (iommu_map refuses them): a device
 * that could write the IOMMU's tables could give itself any access. Page
 * tables come from chunks of IOMMU_TABLE_CHUNK bytes carved into 4 KiB
 * pages, so that the list stays short however many tables there are
 * (neighbouring chunks are one extent). A reserve of them is taken before
 * any device is attached. A chunk taken later may be memory a device
 * reaches (a GPU is given all free RAM): it is recorded first (so no new
 * mapping takes it), the domain code removes it from every domain and
 * waits for the IOMMU (iommu_domain.c refill_tables), and only then are
 * its tables handed out.
 */
#ifndef DRIVERS_IOMMU_IOMMU_MEMORY_H
#define DRIVERS_IOMMU_IOMMU_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/lock.h"

#define IOMMU_TABLE_CHUNK     (256u << 10)
#define IOMMU_MEM_MAX_EXTENTS 64

struct iommu_extent {
  uint64_t base, size;
  const char *what; /* "device table", "page tables", ... */
};

struct iommu_memory {
  struct spinlock lock;
  struct iommu_extent extents[IOMMU_MEM_MAX_EXTENTS];
  unsigned extent_count;
  void *free_tables; /* free 4 KiB table pages, linked through their first word */
  unsigned free_count;
  unsigned tables_in_use;
};

void iommu_memory_init(struct iommu_memory *m);

/* Zeroed, physically contiguous, `align`-aligned memory for the IOMMU,
 * recorded as an extent. NULL when out of memory or extents. */
void *iommu_memory_alloc(struct iommu_memory *m, size_t size, size_t align, const char *what);

/* Puts `chunks` chunks of page tables on the free list, for when no device
 * can reach anything yet. 0 or -ENOMEM. */
int iommu_memory_reserve_tables(struct iommu_memory *m, unsigned chunks);

/* A new chunk of IOMMU_TABLE_CHUNK bytes, recorded as IOMMU memory but
 * not yet on the free list; NULL when out of memory (logged). */
void *iommu_memory_take_table_chunk(struct iommu_memory *m);
/* Puts a chunk from iommu_memory_take_table_chunk on the free list, once
 * no device can reach it. */
void iommu_memory_add_tables(struct iommu_memory *m, void *chunk);

/* A zeroed 4 KiB page table from the free list; NULL when it is empty. */
void *iommu_memory_table(struct iommu_memory *m);
void iommu_memory_table_free(struct iommu_memory *m, void *table);
unsigned iommu_memory_free_tables(struct iommu_memory *m);

/* Copies up to `max` extents to `out`; returns how many there are. */
unsigned iommu_memory_extents(struct iommu_memory *m, struct iommu_extent *out, unsigned max);

/* Gives every allocation back (host tests; the image keeps its IOMMUs). */
void iommu_memory_release(struct iommu_memory *m);

#endif
