/*
 * io_pgtable.c - building and changing v1 I/O page tables (format and
 * sources in io_pgtable.h; entry bits in amd_iommu_regs.h).
 *
 * Entries are written with release stores: a new table is filled before
 * the entry pointing at it becomes visible, and every entry changes in one
 * 64-bit store, so a walk running at the same time sees the old or the new
 * entry, never a torn one.
 */
#include "drivers/iommu/io_pgtable.h"

#include <errno.h>
#include <stddef.h>

#include "drivers/iommu/amd_iommu_regs.h"

/* Address bits below level L's index: 12 + 9 (L - 1) [48882 2.2.3]. */
static unsigned level_shift(unsigned level) { return 12 + 9 * (level - 1); }
static uint64_t level_span(unsigned level) { return 1ull << level_shift(level); }
static unsigned level_index(unsigned level, uint64_t iova) {
  return (unsigned)((iova >> level_shift(level)) & (IOPTE_ENTRIES - 1));
}

/* The largest leaf used: 1 GiB at level 3 (see io_pgtable.h). */
#define MAX_LEAF_LEVEL 3

/* One past the highest address the tree covers, or 0 when it covers all 64
 * bits (6 levels cover 66). */
static uint64_t coverage_limit(unsigned levels) {
  unsigned bits = 12 + 9 * levels;
  return bits >= 64 ? 0 : 1ull << bits;
}

static bool within_coverage(const struct io_pgtable *pt, uint64_t iova, uint64_t size) {
  uint64_t limit = coverage_limit(pt->levels);
  return limit == 0 || (iova < limit && size <= limit - iova);
}

static bool present(uint64_t e) { return e & IOPTE_PR; }
static unsigned next_level(uint64_t e) {
  return (unsigned)((e & IOPTE_NEXT_MASK) >> IOPTE_NEXT_SHIFT);
}
static bool is_leaf(uint64_t e) { return present(e) && next_level(e) == 0; }
static uint64_t *table_of(uint64_t e) { return (uint64_t *)(uintptr_t)(e & IOMMU_ADDR_MASK); }

static unsigned entry_prot(uint64_t e) {
  return (e & IOPTE_IR ? IOPT_READ : 0) | (e & IOPTE_IW ? IOPT_WRITE : 0);
}

/* A leaf: present, Next Level 0, force coherent as Linux sets it
 * (io_pgtable.c iommu_v1_map_pages: IOMMU_PTE_PR | IOMMU_PTE_FC). */
static uint64_t make_leaf(uint64_t phys, unsigned prot) {
  return (phys & IOMMU_ADDR_MASK) | IOPTE_PR | IOPTE_FC | (prot & IOPT_READ ? IOPTE_IR : 0) |
         (prot & IOPT_WRITE ? IOPTE_IW : 0);
}

/* A directory entry for a table of level `child_level`. It grants both
 * rights: the leaves decide (Linux PM_LEVEL_PDE does the same). */
static uint64_t make_directory(const uint64_t *child, unsigned child_level) {
  return ((uint64_t)(uintptr_t)child & IOMMU_ADDR_MASK) | IOPTE_PR | IOPTE_IR | IOPTE_IW |
         ((uint64_t)child_level << IOPTE_NEXT_SHIFT);
}

static void set_entry(uint64_t *slot, uint64_t e) { __atomic_store_n(slot, e, __ATOMIC_RELEASE); }

static uint64_t *new_table(struct io_pgtable *pt) {
  uint64_t *t = pt->allocator.alloc(pt->allocator.ctx);
  if (t) pt->table_count++;
  return t;
}

unsigned iopt_levels_for(uint64_t limit) {
  for (unsigned levels = MAX_LEAF_LEVEL; levels <= IOPT_MAX_LEVELS; levels++) {
    uint64_t covered = coverage_limit(levels);
    if (covered == 0 || limit <= covered) return levels;
  }
  return 0;
}

int iopt_init(struct io_pgtable *pt, unsigned levels, struct iopt_allocator allocator) {
  if (levels < 1 || levels > IOPT_MAX_LEVELS) return -EINVAL;
  pt->levels = levels;
  pt->table_count = 0;
  pt->allocator = allocator;
  pt->root = new_table(pt);
  return pt->root ? 0 : -ENOMEM;
}

static void free_tree(struct io_pgtable *pt, uint64_t *table, unsigned level) {
  if (level > 1)
    for (unsigned i = 0; i < IOPTE_ENTRIES; i++)
      if (present(table[i]) && !is_leaf(table[i])) free_tree(pt, table_of(table[i]), level - 1);
  pt->allocator.free(pt->allocator.ctx, table);
  pt->table_count--;
}

void iopt_destroy(struct io_pgtable *pt) {
  if (pt->root) free_tree(pt, pt->root, pt->levels);
  pt->root = NULL;
}

uint64_t iopt_dte_root(const struct io_pgtable *pt) {
  return ((uint64_t)(uintptr_t)pt->root & IOMMU_ADDR_MASK) |
         ((uint64_t)pt->levels << DTE0_MODE_SHIFT);
}

/* ---- Checks on a range ------------------------------------------------ */

static int check_range(const struct io_pgtable *pt, uint64_t iova, uint64_t size) {
  if (size == 0 || ((iova | size) & (IOPT_PAGE_4K - 1)) || iova + size < iova) return -EINVAL;
  return within_coverage(pt, iova, size) ? 0 : -ERANGE;
}

/* True when some leaf of `table` (level `level`) maps a byte of the range. */
static bool range_has_mapping(const uint64_t *table, unsigned level, uint64_t iova, uint64_t size) {
  while (size) {
    uint64_t span = level_span(level), slot_end = (iova & ~(span - 1)) + span;
    uint64_t chunk = slot_end - iova < size ? slot_end - iova : size;
    uint64_t e = table[level_index(level, iova)];
    if (is_leaf(e)) return true;
    if (present(e) && range_has_mapping(table_of(e), level - 1, iova, chunk)) return true;
    iova += chunk;
    size -= chunk;
  }
  return false;
}

/* ---- Map -------------------------------------------------------------- */

static int map_range(struct io_pgtable *pt, uint64_t *table, unsigned level, uint64_t iova,
                     uint64_t phys, uint64_t size, unsigned prot) {
  while (size) {
    uint64_t span = level_span(level), slot_base = iova & ~(span - 1);
    uint64_t chunk = slot_base + span - iova < size ? slot_base + span - iova : size;
    uint64_t *slot = &table[level_index(level, iova)];
    bool whole_slot = iova == slot_base && chunk == span && (phys & (span - 1)) == 0;
    if (!present(*slot) && whole_slot && level <= MAX_LEAF_LEVEL) {
      set_entry(slot, make_leaf(phys, prot));
    } else {
      if (is_leaf(*slot)) return -EEXIST; /* excluded by the caller's check */
      if (!present(*slot)) {
        uint64_t *child = new_table(pt);
        if (!child) return -ENOMEM;
        set_entry(slot, make_directory(child, level - 1));
      }
      int err = map_range(pt, table_of(*slot), level - 1, iova, phys, chunk, prot);
      if (err) return err;
    }
    iova += chunk;
    phys += chunk;
    size -= chunk;
  }
  return 0;
}

int iopt_map(struct io_pgtable *pt, uint64_t iova, uint64_t phys, uint64_t size, unsigned prot) {
  int err = check_range(pt, iova, size);
  if (err) return err;
  if ((phys & (IOPT_PAGE_4K - 1)) || phys + size < phys || phys + size - 1 >= (1ull << 52) ||
      prot == 0 || (prot & ~(IOPT_READ | IOPT_WRITE)))
    return -EINVAL;
  if (range_has_mapping(pt->root, pt->levels, iova, size)) return -EEXIST;
  err = map_range(pt, pt->root, pt->levels, iova, phys, size, prot);
  if (err) {
    /* Everything this call mapped lies inside the range and was whole
     * leaves, so unmapping the range needs no split and cannot fail. */
    iopt_unmap(pt, iova, size, NULL);
  }
  return err;
}

/* ---- Unmap ------------------------------------------------------------ */

/* Makes `boundary` fall between leaves: a leaf that straddles it is
 * replaced by a table of the next smaller leaves with the same rights and
 * physical pages, which translates exactly as before. */
static int split_at(struct io_pgtable *pt, uint64_t boundary) {
  uint64_t *table = pt->root;
  for (unsigned level = pt->levels; level > 1; level--) {
    uint64_t *slot = &table[level_index(level, boundary)];
    uint64_t e = *slot;
    if (!present(e)) return 0;
    if (is_leaf(e)) {
      if ((boundary & (level_span(level) - 1)) == 0) return 0;
      uint64_t *child = new_table(pt);
      if (!child) return -ENOMEM;
      uint64_t base = e & IOMMU_ADDR_MASK & ~(level_span(level) - 1), small = level_span(level - 1);
      for (unsigned i = 0; i < IOPTE_ENTRIES; i++)
        child[i] = make_leaf(base + i * small, entry_prot(e));
      set_entry(slot, make_directory(child, level - 1));
    }
    table = table_of(*slot);
  }
  return 0;
}

static uint64_t clear_range(uint64_t *table, unsigned level, uint64_t iova, uint64_t size) {
  uint64_t cleared = 0;
  while (size) {
    uint64_t span = level_span(level), slot_end = (iova & ~(span - 1)) + span;
    uint64_t chunk = slot_end - iova < size ? slot_end - iova : size;
    uint64_t *slot = &table[level_index(level, iova)];
    if (is_leaf(*slot)) {
      set_entry(slot, 0); /* split_at made the range cover it whole */
      cleared += span;
    } else if (present(*slot)) {
      cleared += clear_range(table_of(*slot), level - 1, iova, chunk);
    }
    iova += chunk;
    size -= chunk;
  }
  return cleared;
}

int iopt_unmap(struct io_pgtable *pt, uint64_t iova, uint64_t size, uint64_t *unmapped) {
  if (unmapped) *unmapped = 0;
  int err = check_range(pt, iova, size);
  if (err) return err;
  uint64_t end = iova + size;
  err = split_at(pt, iova);
  if (!err && end != coverage_limit(pt->levels)) err = split_at(pt, end);
  if (err) return err;
  uint64_t cleared = clear_range(pt->root, pt->levels, iova, size);
  if (unmapped) *unmapped = cleared;
  return 0;
}

/* ---- Walks ------------------------------------------------------------ */

bool iopt_translate(const struct io_pgtable *pt, uint64_t iova, unsigned access, uint64_t *phys,
                    uint64_t *page_size, unsigned *prot) {
  /* Address bits above what the levels cover must be zero [48882 2.2.3]. */
  if (!pt->root || !within_coverage(pt, iova, 1)) return false;
  const uint64_t *table = pt->root;
  unsigned rights = IOPT_READ | IOPT_WRITE;
  for (unsigned level = pt->levels; level >= 1; level--) {
    uint64_t e = table[level_index(level, iova)];
    if (!present(e)) return false;
    rights &= entry_prot(e);
    if (next_level(e) == 0) {
      if (level > MAX_LEAF_LEVEL || (access & ~rights)) return false;
      uint64_t span = level_span(level);
      *phys = (e & IOMMU_ADDR_MASK & ~(span - 1)) | (iova & (span - 1));
      *page_size = span;
      *prot = rights;
      return true;
    }
    if (next_level(e) != level - 1) return false; /* never built here */
    table = table_of(e);
  }
  return false;
}

struct range_walk {
  void (*fn)(void *ctx, uint64_t iova, uint64_t phys, uint64_t size, unsigned prot);
  void *ctx;
  bool open;
  uint64_t iova, phys, size;
  unsigned prot;
};

static void walk_leaf(struct range_walk *w, uint64_t iova, uint64_t phys, uint64_t size,
                      unsigned prot) {
  if (w->open && w->iova + w->size == iova && w->phys + w->size == phys && w->prot == prot) {
    w->size += size;
    return;
  }
  if (w->open) w->fn(w->ctx, w->iova, w->phys, w->size, w->prot);
  *w = (struct range_walk){w->fn, w->ctx, true, iova, phys, size, prot};
}

static void walk_table(struct range_walk *w, const uint64_t *table, unsigned level, uint64_t base) {
  for (unsigned i = 0; i < IOPTE_ENTRIES; i++) {
    uint64_t e = table[i], iova = base + i * level_span(level);
    if (!present(e)) continue;
    if (is_leaf(e))
      walk_leaf(w, iova, e & IOMMU_ADDR_MASK, level_span(level), entry_prot(e));
    else
      walk_table(w, table_of(e), level - 1, iova);
  }
}

void iopt_for_each_range(const struct io_pgtable *pt,
                         void (*fn)(void *ctx, uint64_t iova, uint64_t phys, uint64_t size,
                                    unsigned prot),
                         void *ctx) {
  struct range_walk w = {.fn = fn, .ctx = ctx};
  if (pt->root) walk_table(&w, pt->root, pt->levels, 0);
  if (w.open) fn(ctx, w.iova, w.phys, w.size, w.prot);
}
