/*
 * iommu_memory.c - the IOMMUs' own memory, kept as a list of extents that
 * no device may reach (see iommu_memory.h).
 */
#define LOG_TAG "iommu"

#include "drivers/iommu/iommu_memory.h"

#include <errno.h>
#include <string.h>

#include "lib/plat.h"

#define TABLE_SIZE 4096u

void iommu_memory_init(struct iommu_memory *m) {
  memset(m, 0, sizeof *m);
  m->lock = (struct spinlock)SPINLOCK_INIT;
}

static const char table_extent[] = "page tables";

/* Called with the lock held. A chunk of page tables right after or before
 * another one extends its extent. */
static struct iommu_extent *record_extent(struct iommu_memory *m, void *p, size_t size,
                                          const char *what) {
  uint64_t base = (uint64_t)(uintptr_t)p;
  for (unsigned i = 0; what == table_extent && i < m->extent_count; i++) {
    struct iommu_extent *e = &m->extents[i];
    if (e->what != table_extent) continue;
    if (e->base + e->size == base) {
      e->size += size;
      return e;
    }
    if (base + size == e->base) {
      e->base = base;
      e->size += size;
      return e;
    }
  }
  if (m->extent_count == IOMMU_MEM_MAX_EXTENTS) return NULL;
  struct iommu_extent *e = &m->extents[m->extent_count++];
  *e = (struct iommu_extent){base, size, what};
  return e;
}

void *iommu_memory_alloc(struct iommu_memory *m, size_t size, size_t align, const char *what) {
  void *p = plat_dma_alloc(size, align);
  if (!p) {
    log_error("out of memory for the %s (%zu bytes)", what, size);
    return NULL;
  }
  spin_lock(&m->lock);
  struct iommu_extent *e = record_extent(m, p, size, what);
  spin_unlock(&m->lock);
  if (!e) {
    plat_dma_free(p, size);
    log_error("no room to record IOMMU memory for the %s (%d extents in use)", what,
              IOMMU_MEM_MAX_EXTENTS);
    return NULL;
  }
  return p;
}

void *iommu_memory_take_table_chunk(struct iommu_memory *m) {
  return iommu_memory_alloc(m, IOMMU_TABLE_CHUNK, IOMMU_TABLE_CHUNK, table_extent);
}

void iommu_memory_add_tables(struct iommu_memory *m, void *chunk) {
  spin_lock(&m->lock);
  for (size_t off = 0; off < IOMMU_TABLE_CHUNK; off += TABLE_SIZE) {
    *(void **)((uint8_t *)chunk + off) = m->free_tables;
    m->free_tables = (uint8_t *)chunk + off;
  }
  m->free_count += IOMMU_TABLE_CHUNK / TABLE_SIZE;
  spin_unlock(&m->lock);
}

int iommu_memory_reserve_tables(struct iommu_memory *m, unsigned chunks) {
  for (unsigned i = 0; i < chunks; i++) {
    void *chunk = iommu_memory_take_table_chunk(m);
    if (!chunk) return -ENOMEM;
    iommu_memory_add_tables(m, chunk);
  }
  return 0;
}

void *iommu_memory_table(struct iommu_memory *m) {
  spin_lock(&m->lock);
  void *t = m->free_tables;
  if (t) {
    m->free_tables = *(void **)t;
    m->free_count--;
    m->tables_in_use++;
  }
  spin_unlock(&m->lock);
  if (t) memset(t, 0, TABLE_SIZE);
  return t;
}

void iommu_memory_table_free(struct iommu_memory *m, void *table) {
  spin_lock(&m->lock);
  *(void **)table = m->free_tables;
  m->free_tables = table;
  m->free_count++;
  m->tables_in_use--;
  spin_unlock(&m->lock);
}

unsigned iommu_memory_free_tables(struct iommu_memory *m) {
  spin_lock(&m->lock);
  unsigned n = m->free_count;
  spin_unlock(&m->lock);
  return n;
}

unsigned iommu_memory_extents(struct iommu_memory *m, struct iommu_extent *out, unsigned max) {
  spin_lock(&m->lock);
  unsigned n = m->extent_count;
  for (unsigned i = 0; i < n && i < max; i++) out[i] = m->extents[i];
  spin_unlock(&m->lock);
  return n;
}

void iommu_memory_release(struct iommu_memory *m) {
  for (unsigned i = 0; i < m->extent_count; i++) {
    const struct iommu_extent *e = &m->extents[i];
    /* A page-table extent is chunks allocated one by one (merged only in
     * the list): each goes back as it came. */
    size_t piece = e->what == table_extent ? IOMMU_TABLE_CHUNK : e->size;
    for (uint64_t off = 0; off < e->size; off += piece)
      plat_dma_free((void *)(uintptr_t)(e->base + off), piece);
  }
  m->extent_count = 0;
  m->free_tables = NULL;
  m->free_count = 0;
  m->tables_in_use = 0;
}
