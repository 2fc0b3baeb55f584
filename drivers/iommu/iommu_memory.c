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

/* Called with the lock held. */
static struct iommu_extent *record_extent(struct iommu_memory *m, void *p, size_t size,
                                          const char *what) {
  if (m->extent_count == IOMMU_MEM_MAX_EXTENTS) return NULL;
  struct iommu_extent *e = &m->extents[m->extent_count++];
  *e = (struct iommu_extent){(uint64_t)(uintptr_t)p, size, what};
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

/* One more chunk of page tables on the free list, recorded as IOMMU
 * memory first. Memory a device can already reach is not taken. */
static int add_chunk(struct iommu_memory *m) {
  uint8_t *chunk = plat_dma_alloc(IOMMU_TABLE_CHUNK, IOMMU_TABLE_CHUNK);
  if (!chunk) {
    log_error("out of memory for IOMMU page tables (%u in use)", m->tables_in_use);
    return -ENOMEM;
  }
  if (m->chunk_allowed &&
      !m->chunk_allowed(m->chunk_allowed_ctx, (uint64_t)(uintptr_t)chunk, IOMMU_TABLE_CHUNK)) {
    plat_dma_free(chunk, IOMMU_TABLE_CHUNK);
    return -EPERM;
  }
  spin_lock(&m->lock);
  struct iommu_extent *e = record_extent(m, chunk, IOMMU_TABLE_CHUNK, "page tables");
  if (e) {
    for (size_t off = 0; off < IOMMU_TABLE_CHUNK; off += TABLE_SIZE) {
      *(void **)(chunk + off) = m->free_tables;
      m->free_tables = chunk + off;
    }
  }
  spin_unlock(&m->lock);
  if (!e) {
    plat_dma_free(chunk, IOMMU_TABLE_CHUNK);
    log_error("no room to record more IOMMU page-table memory (%d extents in use)",
              IOMMU_MEM_MAX_EXTENTS);
    return -ENOMEM;
  }
  return 0;
}

int iommu_memory_reserve_tables(struct iommu_memory *m, unsigned chunks) {
  for (unsigned i = 0; i < chunks; i++) {
    int err = add_chunk(m);
    if (err) return err;
  }
  return 0;
}

static void *pop_table(struct iommu_memory *m) {
  spin_lock(&m->lock);
  void *t = m->free_tables;
  if (t) {
    m->free_tables = *(void **)t;
    m->tables_in_use++;
  }
  spin_unlock(&m->lock);
  return t;
}

void *iommu_memory_table(struct iommu_memory *m) {
  void *t = pop_table(m);
  if (!t && add_chunk(m) == 0) t = pop_table(m);
  if (t) memset(t, 0, TABLE_SIZE);
  return t;
}

void iommu_memory_table_free(struct iommu_memory *m, void *table) {
  spin_lock(&m->lock);
  *(void **)table = m->free_tables;
  m->free_tables = table;
  m->tables_in_use--;
  spin_unlock(&m->lock);
}

unsigned iommu_memory_extents(struct iommu_memory *m, struct iommu_extent *out, unsigned max) {
  spin_lock(&m->lock);
  unsigned n = m->extent_count;
  for (unsigned i = 0; i < n && i < max; i++) out[i] = m->extents[i];
  spin_unlock(&m->lock);
  return n;
}

void iommu_memory_release(struct iommu_memory *m) {
  for (unsigned i = 0; i < m->extent_count; i++)
    plat_dma_free((void *)(uintptr_t)m->extents[i].base, m->extents[i].size);
  m->extent_count = 0;
  m->free_tables = NULL;
  m->tables_in_use = 0;
}
