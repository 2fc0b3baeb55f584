/*
 * iommu_pgtable_test.c - the v1 I/O page-table builder: entry format against
 * the AMD IOMMU specification (48882 2.2.3), page sizes, alignment,
 * overlaps, splits on partial unmaps, out-of-memory at every step, and a
 * random sequence of maps and unmaps checked page by page against a plain
 * array (the independent reference).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/iommu/amd_iommu_regs.h"
#include "drivers/iommu/io_pgtable.h"
#include "lib/plat.h"
#include "lib/test.h"

/* Table pages from plat_dma_alloc, counted; `fail_after` allocations
 * succeed, then every one fails (-1: never). */
struct test_alloc {
  int live;
  int fail_after;
};

static void *test_alloc_table(void *ctx) {
  struct test_alloc *a = ctx;
  if (a->fail_after == 0) return NULL;
  if (a->fail_after > 0) a->fail_after--;
  void *p = plat_dma_alloc(4096, 4096);
  if (p) a->live++;
  return p;
}

static void test_free_table(void *ctx, void *table) {
  struct test_alloc *a = ctx;
  a->live--;
  plat_dma_free(table, 4096);
}

static struct iopt_allocator allocator_of(struct test_alloc *a) {
  return (struct iopt_allocator){test_alloc_table, test_free_table, a};
}

/* Translates iova and checks the result in one line. */
#define ASSERT_MAPS(pt, iova, access, want_phys, want_size)                      \
  do {                                                                           \
    uint64_t phys_, size_;                                                       \
    unsigned prot_;                                                              \
    ASSERT_TRUE(iopt_translate((pt), (iova), (access), &phys_, &size_, &prot_)); \
    ASSERT_EQ_U(phys_, (want_phys));                                             \
    ASSERT_EQ_U(size_, (want_size));                                             \
  } while (0)

static bool maps(const struct io_pgtable *pt, uint64_t iova, unsigned access) {
  uint64_t phys, size;
  unsigned prot;
  return iopt_translate(pt, iova, access, &phys, &size, &prot);
}

TEST(iommu_pgtable_levels_cover_the_address_space) {
  ASSERT_EQ(iopt_levels_for(1ull << 30), 3);
  ASSERT_EQ(iopt_levels_for(1ull << 39), 3); /* 12 + 27 bits */
  ASSERT_EQ(iopt_levels_for((1ull << 39) + 1), 4);
  ASSERT_EQ(iopt_levels_for(1ull << 48), 4);
  ASSERT_EQ(iopt_levels_for(1ull << 52), 5);
  ASSERT_EQ(iopt_levels_for(1ull << 60), 6);
  struct test_alloc a = {0, -1};
  struct io_pgtable pt;
  ASSERT_EQ(iopt_init(&pt, 0, allocator_of(&a)), -EINVAL);
  ASSERT_EQ(iopt_init(&pt, 7, allocator_of(&a)), -EINVAL);
  ASSERT_EQ(iopt_init(&pt, 3, allocator_of(&a)), 0);
  /* DTE quadword 0: root pointer in bits 51:12, Mode (levels) in 11:9. */
  ASSERT_EQ_U(iopt_dte_root(&pt), (uint64_t)(uintptr_t)pt.root | (3u << 9));
  ASSERT_EQ(iopt_map(&pt, 1ull << 39, 0, 4096, IOPT_READ), -ERANGE);
  ASSERT_EQ(iopt_map(&pt, (1ull << 39) - 4096, 0, 8192, IOPT_READ), -ERANGE);
  ASSERT_FALSE(maps(&pt, 1ull << 39, 0));
  iopt_destroy(&pt);
  ASSERT_EQ(a.live, 0);
}

TEST(iommu_pgtable_entries_match_the_spec_format) {
  struct test_alloc a = {0, -1};
  struct io_pgtable pt;
  ASSERT_EQ(iopt_init(&pt, 3, allocator_of(&a)), 0);
  /* A 4 KiB read-only page at 0x40201000: root[1] -> level 2 [1] -> level 1 [1]. */
  ASSERT_EQ(iopt_map(&pt, 0x40201000, 0x12345000, 4096, IOPT_READ), 0);
  uint64_t l3 = pt.root[1];
  ASSERT_EQ_U(l3 & 0x7000000000000e01ull, (1ull << 62) | (1ull << 61) | (2u << 9) | 1);
  uint64_t *t2 = (uint64_t *)(uintptr_t)(l3 & 0x000ffffffffff000ull);
  uint64_t l2 = t2[1];
  ASSERT_EQ_U(l2 & 0x7000000000000e01ull, (1ull << 62) | (1ull << 61) | (1u << 9) | 1);
  uint64_t *t1 = (uint64_t *)(uintptr_t)(l2 & 0x000ffffffffff000ull);
  /* Leaf: address | PR | FC | IR, Next Level 0, no IW. */
  ASSERT_EQ_U(t1[1], 0x12345000ull | 1 | (1ull << 60) | (1ull << 61));
  ASSERT_EQ_U(t1[0], 0);
  ASSERT_EQ(pt.table_count, 3);
  /* A 2 MiB read-write leaf sits in the level-2 table with Next Level 0. */
  ASSERT_EQ(iopt_map(&pt, 0x40400000, 0x80000000, IOPT_PAGE_2M, IOPT_READ | IOPT_WRITE), 0);
  ASSERT_EQ_U(t2[2], 0x80000000ull | 1 | (1ull << 60) | (1ull << 61) | (1ull << 62));
  /* A 1 GiB leaf sits in the root of a 3-level tree. */
  ASSERT_EQ(iopt_map(&pt, 0x80000000, 0x80000000, IOPT_PAGE_1G, IOPT_WRITE), 0);
  ASSERT_EQ_U(pt.root[2], 0x80000000ull | 1 | (1ull << 60) | (1ull << 62));
  ASSERT_EQ(pt.table_count, 3);
  iopt_destroy(&pt);
  ASSERT_EQ(a.live, 0);
}

struct seen_ranges {
  uint64_t iova[4], phys[4], size[4];
  unsigned prot[4], n;
};

static void collect_range(void *ctx, uint64_t iova, uint64_t phys, uint64_t sz, unsigned prot) {
  struct seen_ranges *seen = ctx;
  if (seen->n == 4) return;
  seen->iova[seen->n] = iova;
  seen->phys[seen->n] = phys;
  seen->size[seen->n] = sz;
  seen->prot[seen->n++] = prot;
}

TEST(iommu_pgtable_picks_the_largest_pages) {
  struct test_alloc a = {0, -1};
  struct io_pgtable pt;
  ASSERT_EQ(iopt_init(&pt, 4, allocator_of(&a)), 0);
  /* 4 KiB .. 2 MiB .. 1 GiB .. 2 MiB .. 4 KiB across [1 GiB - 2 MiB - 4 KiB, ...). */
  uint64_t start = IOPT_PAGE_1G - IOPT_PAGE_2M - 4096;
  uint64_t size = 4096 + IOPT_PAGE_2M + IOPT_PAGE_1G + IOPT_PAGE_2M + 4096;
  ASSERT_EQ(iopt_map(&pt, start, start, size, IOPT_READ | IOPT_WRITE), 0);
  ASSERT_MAPS(&pt, start, IOPT_READ, start, 4096);
  ASSERT_MAPS(&pt, start + 4096 + 0x1234, IOPT_WRITE, start + 4096 + 0x1234, IOPT_PAGE_2M);
  ASSERT_MAPS(&pt, IOPT_PAGE_1G + 0x3456789, IOPT_READ, IOPT_PAGE_1G + 0x3456789, IOPT_PAGE_1G);
  ASSERT_MAPS(&pt, 2 * IOPT_PAGE_1G + 5, IOPT_READ, 2 * IOPT_PAGE_1G + 5, IOPT_PAGE_2M);
  ASSERT_MAPS(&pt, 2 * IOPT_PAGE_1G + IOPT_PAGE_2M, IOPT_READ, 2 * IOPT_PAGE_1G + IOPT_PAGE_2M,
              4096);
  ASSERT_FALSE(maps(&pt, start - 4096, 0));
  ASSERT_FALSE(maps(&pt, start + size, 0));
  /* Device address and physical address aligned differently: 4 KiB pages. */
  ASSERT_EQ(iopt_map(&pt, 16 * IOPT_PAGE_1G, 0x7ff000, IOPT_PAGE_2M, IOPT_READ), 0);
  ASSERT_MAPS(&pt, 16 * IOPT_PAGE_1G + 0x1000, IOPT_READ, 0x800000, 4096);
  ASSERT_FALSE(maps(&pt, 16 * IOPT_PAGE_1G, IOPT_WRITE)); /* read only */
  /* The ranges, merged, in address order. */
  struct seen_ranges seen = {.n = 0};
  iopt_for_each_range(&pt, collect_range, &seen);
  ASSERT_EQ(seen.n, 2);
  ASSERT_EQ_U(seen.iova[0], start);
  ASSERT_EQ_U(seen.size[0], size);
  ASSERT_EQ(seen.prot[0], IOPT_READ | IOPT_WRITE);
  ASSERT_EQ_U(seen.iova[1], 16 * IOPT_PAGE_1G);
  ASSERT_EQ_U(seen.phys[1], 0x7ff000);
  ASSERT_EQ(seen.prot[1], IOPT_READ);
  iopt_destroy(&pt);
  ASSERT_EQ(a.live, 0);
}

TEST(iommu_pgtable_rejects_bad_requests) {
  struct test_alloc a = {0, -1};
  struct io_pgtable pt;
  ASSERT_EQ(iopt_init(&pt, 3, allocator_of(&a)), 0);
  ASSERT_EQ(iopt_map(&pt, 0x1000, 0x1000, 0, IOPT_READ), -EINVAL);
  ASSERT_EQ(iopt_map(&pt, 0x1800, 0x1000, 4096, IOPT_READ), -EINVAL);
  ASSERT_EQ(iopt_map(&pt, 0x1000, 0x1800, 4096, IOPT_READ), -EINVAL);
  ASSERT_EQ(iopt_map(&pt, 0x1000, 0x1000, 100, IOPT_READ), -EINVAL);
  ASSERT_EQ(iopt_map(&pt, 0x1000, 0x1000, 4096, 0), -EINVAL);
  ASSERT_EQ(iopt_map(&pt, 0x1000, 0x1000, 4096, 4), -EINVAL);
  ASSERT_EQ(iopt_map(&pt, 0x1000, 0x000ffffffffff000ull, 8192, IOPT_READ), -EINVAL);
  ASSERT_EQ(iopt_map(&pt, 0xfffffffffffff000ull, 0, 8192, IOPT_READ), -EINVAL);
  ASSERT_EQ(iopt_unmap(&pt, 0x1800, 4096, NULL), -EINVAL);
  ASSERT_EQ(iopt_unmap(&pt, 0x1000, 0, NULL), -EINVAL);
  ASSERT_EQ(iopt_unmap(&pt, 1ull << 39, 4096, NULL), -ERANGE);
  ASSERT_EQ(pt.table_count, 1);
  iopt_destroy(&pt);
}

TEST(iommu_pgtable_overlap_changes_nothing) {
  struct test_alloc a = {0, -1};
  struct io_pgtable pt;
  ASSERT_EQ(iopt_init(&pt, 3, allocator_of(&a)), 0);
  ASSERT_EQ(iopt_map(&pt, 0x200000, 0x200000, IOPT_PAGE_2M, IOPT_READ), 0);
  /* Overlaps the 2 MiB page by its last 4 KiB only. */
  ASSERT_EQ(iopt_map(&pt, 0x3ff000, 0x900000, 0x10000, IOPT_WRITE), -EEXIST);
  ASSERT_FALSE(maps(&pt, 0x400000, 0));
  ASSERT_MAPS(&pt, 0x3ff000, IOPT_READ, 0x3ff000, IOPT_PAGE_2M);
  /* Inside a large page. */
  ASSERT_EQ(iopt_map(&pt, 0x300000, 0x300000, 4096, IOPT_READ), -EEXIST);
  /* Large request over a small mapping. */
  ASSERT_EQ(iopt_map(&pt, 0x40000000 + 0x5000, 0, 4096, IOPT_READ), 0);
  ASSERT_EQ(iopt_map(&pt, 0x40000000, 0x40000000, IOPT_PAGE_1G, IOPT_READ), -EEXIST);
  ASSERT_FALSE(maps(&pt, 0x40000000, 0));
  ASSERT_MAPS(&pt, 0x40005000, IOPT_READ, 0, 4096);
  iopt_destroy(&pt);
  ASSERT_EQ(a.live, 0);
}

TEST(iommu_pgtable_partial_unmap_splits_large_pages) {
  struct test_alloc a = {0, -1};
  struct io_pgtable pt;
  ASSERT_EQ(iopt_init(&pt, 3, allocator_of(&a)), 0);
  ASSERT_EQ(iopt_map(&pt, IOPT_PAGE_1G, 0x100000000ull, IOPT_PAGE_1G, IOPT_READ | IOPT_WRITE), 0);
  unsigned before = pt.table_count;
  uint64_t unmapped;
  /* Take out 8 KiB in the middle: 1 GiB -> 2 MiB -> 4 KiB splits. */
  uint64_t hole = IOPT_PAGE_1G + 0x12345000;
  ASSERT_EQ(iopt_unmap(&pt, hole, 0x2000, &unmapped), 0);
  ASSERT_EQ_U(unmapped, 0x2000);
  ASSERT_EQ(pt.table_count, before + 2);
  ASSERT_FALSE(maps(&pt, hole, 0));
  ASSERT_FALSE(maps(&pt, hole + 0x1fff, 0));
  ASSERT_MAPS(&pt, hole - 1, IOPT_WRITE, 0x100000000ull + 0x12345000 - 1, 4096);
  ASSERT_MAPS(&pt, hole + 0x2000, IOPT_WRITE, 0x100000000ull + 0x12347000, 4096);
  ASSERT_MAPS(&pt, IOPT_PAGE_1G, IOPT_READ, 0x100000000ull, IOPT_PAGE_2M);
  ASSERT_MAPS(&pt, 2 * IOPT_PAGE_1G - 1, IOPT_READ, 0x13fffffffull, IOPT_PAGE_2M);
  /* Unmapping a range with holes reports only what was mapped. */
  ASSERT_EQ(iopt_unmap(&pt, hole - 0x1000, 0x4000, &unmapped), 0);
  ASSERT_EQ_U(unmapped, 0x2000);
  ASSERT_EQ(iopt_unmap(&pt, 0, 4 * IOPT_PAGE_1G, &unmapped), 0);
  ASSERT_EQ_U(unmapped, IOPT_PAGE_1G - 0x4000);
  ASSERT_FALSE(maps(&pt, IOPT_PAGE_1G, 0));
  /* The space is free again, even for a large page over the old tables. */
  ASSERT_EQ(iopt_map(&pt, IOPT_PAGE_1G, 0, IOPT_PAGE_1G, IOPT_READ), 0);
  ASSERT_TRUE(maps(&pt, hole, IOPT_READ));
  iopt_destroy(&pt);
  ASSERT_EQ(a.live, 0);
}

TEST(iommu_pgtable_out_of_memory_changes_nothing) {
  /* Map 4 KiB pages spread over several tables with every possible number
   * of successful allocations: either all is mapped or nothing is. */
  for (int budget = 0; budget < 8; budget++) {
    struct test_alloc a = {0, -1};
    struct io_pgtable pt;
    ASSERT_EQ(iopt_init(&pt, 4, allocator_of(&a)), 0);
    a.fail_after = budget;
    uint64_t iova = (1ull << 39) - 0x3000; /* crosses a level-4 boundary */
    int rc = iopt_map(&pt, iova, 0x5000, 0x6000, IOPT_READ);
    if (rc == 0) {
      for (uint64_t off = 0; off < 0x6000; off += 4096)
        ASSERT_TRUE(maps(&pt, iova + off, IOPT_READ));
    } else {
      ASSERT_EQ(rc, -ENOMEM);
      for (uint64_t off = 0; off < 0x6000; off += 4096) ASSERT_FALSE(maps(&pt, iova + off, 0));
    }
    a.fail_after = -1;
    iopt_destroy(&pt);
    ASSERT_EQ(a.live, 0);
  }
  /* A split that finds no table leaves the large page as it was. */
  struct test_alloc a = {0, -1};
  struct io_pgtable pt;
  ASSERT_EQ(iopt_init(&pt, 3, allocator_of(&a)), 0);
  ASSERT_EQ(iopt_map(&pt, 0, 0, IOPT_PAGE_1G, IOPT_READ), 0);
  a.fail_after = 1; /* 1 GiB -> 2 MiB works, 2 MiB -> 4 KiB does not */
  ASSERT_EQ(iopt_unmap(&pt, 0x201000, 4096, NULL), -ENOMEM);
  for (uint64_t addr = 0; addr < IOPT_PAGE_1G; addr += 0x1000 * 97)
    ASSERT_MAPS(&pt, addr, IOPT_READ, addr, IOPT_PAGE_2M);
  a.fail_after = -1;
  iopt_destroy(&pt);
  ASSERT_EQ(a.live, 0);
}

/* Random maps and unmaps over 64 MiB (with 2 MiB and 1 GiB sized requests
 * too), checked page by page against an array of what each page should
 * translate to. */
#define REF_PAGES (64u << 8) /* 64 MiB of 4 KiB pages */
struct ref_page {
  uint64_t phys;
  unsigned prot;
};

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

TEST(iommu_pgtable_random_walks_match_reference) {
  static struct ref_page ref[REF_PAGES];
  memset(ref, 0, sizeof ref);
  struct test_alloc a = {0, -1};
  struct io_pgtable pt;
  ASSERT_EQ(iopt_init(&pt, 3, allocator_of(&a)), 0);
  for (int step = 0; step < 3000; step++) {
    uint64_t first = rng() % REF_PAGES, pages = 1 + rng() % 1200;
    if (rng() % 4 == 0) { /* a 2 MiB aligned request, so large pages appear */
      first &= ~511ull;
      pages = 512 * (1 + rng() % 3);
    }
    if (first + pages > REF_PAGES) pages = REF_PAGES - first;
    uint64_t phys_first =
        (rng() % 4 == 0) ? 0x10000000ull / 4096 + rng() % 100000 : first + 0x40000;
    if (rng() % 2) {
      unsigned prot = 1 + (unsigned)(rng() % 3);
      bool free = true;
      for (uint64_t p = first; p < first + pages; p++) free = free && ref[p].prot == 0;
      int rc = iopt_map(&pt, first * 4096, phys_first * 4096, pages * 4096, prot);
      ASSERT_EQ(rc, free ? 0 : -EEXIST);
      if (free)
        for (uint64_t p = 0; p < pages; p++)
          ref[first + p] = (struct ref_page){(phys_first + p) * 4096, prot};
    } else {
      uint64_t expected = 0, unmapped;
      for (uint64_t p = first; p < first + pages; p++) {
        expected += ref[p].prot ? 4096 : 0;
        ref[p].prot = 0;
      }
      ASSERT_EQ(iopt_unmap(&pt, first * 4096, pages * 4096, &unmapped), 0);
      ASSERT_EQ_U(unmapped, expected);
    }
    if (step % 100 == 99) {
      for (uint64_t p = 0; p < REF_PAGES; p++) {
        uint64_t phys, size;
        unsigned prot;
        bool ok = iopt_translate(&pt, p * 4096 + 8, IOPT_READ, &phys, &size, &prot);
        bool want = (ref[p].prot & IOPT_READ) != 0;
        if (ok != want)
          FAIL("step %d page %llu: read %d, want %d", step,
                    (unsigned long long)p, ok, want);
        if (ok) {
          ASSERT_EQ_U(phys, ref[p].phys + 8);
          ASSERT_EQ(prot, ref[p].prot);
        }
        ok = iopt_translate(&pt, p * 4096, IOPT_WRITE, &phys, &size, &prot);
        ASSERT_EQ(ok, (ref[p].prot & IOPT_WRITE) != 0);
      }
    }
  }
  iopt_destroy(&pt);
  ASSERT_EQ(a.live, 0);
}
