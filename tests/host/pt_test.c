/* The identity-map page-table builder (kernel/pt.c), checked page by page
 * against a reference array after random remappings, and for the page
 * sizes, splits, table reuse and out-of-memory path. Tables live in
 * aligned host memory; the "physical" address of a table is its pointer. */
#include <stdlib.h>
#include <string.h>

#include "kernel/pt.h"
#include "lib/test.h"

#define GiB    (1ull << 30)
#define MiB    (1ull << 20)
#define WINDOW (4 * GiB) /* the reference covers [0, WINDOW) */
#define PAGES  (WINDOW / 4096)

struct host_tables {
  unsigned live, limit; /* tables allocated now; allocation fails beyond limit */
};

static uint64_t host_alloc(void *arg) {
  struct host_tables *h = arg;
  if (h->live == h->limit) return 0;
  void *p = aligned_alloc(4096, 4096);
  if (!p) return 0;
  memset(p, 0, 4096);
  h->live++;
  return (uint64_t)(uintptr_t)p;
}
static void host_free(void *arg, uint64_t phys) {
  ((struct host_tables *)arg)->live--;
  free((void *)(uintptr_t)phys);
}
static uint64_t *host_ptr(void *arg, uint64_t phys) {
  (void)arg;
  return (uint64_t *)(uintptr_t)phys;
}

static struct pt_ctx make_ctx(struct host_tables *h, bool allow_1g) {
  struct pt_ctx c = {.allow_1g = allow_1g,
                     .alloc_table = host_alloc,
                     .free_table = host_free,
                     .table_ptr = host_ptr,
                     .arg = h};
  ASSERT_EQ(pt_init(&c), 0);
  return c;
}

/* Frees every table of the tree (entry bit 0 present, bit 7 a large page,
 * bits 51:12 the next table: SDM vol. 3A, Tables 4-15..4-19). */
static void free_tree(struct pt_ctx *c, uint64_t table, int level) {
  uint64_t *t = host_ptr(NULL, table);
  for (int i = 0; level > 0 && i < 512; i++)
    if ((t[i] & 1) && !(t[i] & 0x80)) free_tree(c, t[i] & 0x000ffffffffff000ull, level - 1);
  host_free(c->arg, table);
}
static void destroy(struct pt_ctx *c) { free_tree(c, c->root, 3); }

static unsigned norm(unsigned attrs) {
  return attrs & PT_PRESENT ? attrs & (PT_PRESENT | PT_WRITE | PT_EXEC | PT_CACHE_MASK) : 0;
}

TEST(pt_large_pages_where_aligned) {
  struct host_tables h = {0, 1000};
  struct pt_ctx c = make_ctx(&h, true);
  uint64_t ps;
  ASSERT_EQ(pt_map(&c, 0, 4 * GiB, PT_PRESENT | PT_WRITE | PT_CACHE_UC), 0);
  ASSERT_EQ(h.live, 2); /* PML4 + one PDPT: four 1 GiB leaves */
  ASSERT_EQ(pt_query(&c, 3 * GiB + 5, &ps), PT_PRESENT | PT_WRITE | PT_CACHE_UC);
  ASSERT_EQ_U(ps, GiB);
  /* 2 MiB-aligned RAM inside: that 1 GiB page splits into 2 MiB pages only. */
  ASSERT_EQ(pt_map(&c, 2 * MiB, 6 * MiB, PT_PRESENT | PT_WRITE), 0);
  ASSERT_EQ(h.live, 3);
  ASSERT_EQ(pt_query(&c, 3 * MiB, &ps), PT_PRESENT | PT_WRITE);
  ASSERT_EQ_U(ps, 2 * MiB);
  ASSERT_EQ(pt_query(&c, 10 * MiB, &ps), PT_PRESENT | PT_WRITE | PT_CACHE_UC);
  ASSERT_EQ_U(ps, 2 * MiB);
  /* A guard page splits one 2 MiB page into 4 KiB pages. */
  ASSERT_EQ(pt_map(&c, 4 * MiB, 4096, 0), 0);
  ASSERT_EQ(h.live, 4);
  ASSERT_EQ(pt_query(&c, 4 * MiB + 100, &ps), 0);
  ASSERT_EQ(pt_query(&c, 4 * MiB + 4096, &ps), PT_PRESENT | PT_WRITE);
  ASSERT_EQ_U(ps, 4096);
  /* Mapping the whole 1 GiB again frees the tables below it. */
  ASSERT_EQ(pt_map(&c, 0, GiB, PT_PRESENT), 0);
  ASSERT_EQ(h.live, 2);
  destroy(&c);
  ASSERT_EQ(h.live, 0);
}

TEST(pt_same_attributes_keep_the_large_page) {
  struct host_tables h = {0, 1000};
  struct pt_ctx c = make_ctx(&h, true);
  ASSERT_EQ(pt_map(&c, 0, GiB, PT_PRESENT | PT_WRITE), 0);
  unsigned before = h.live;
  ASSERT_EQ(pt_map(&c, 12 * 4096, 4096, PT_PRESENT | PT_WRITE), 0);
  ASSERT_EQ(h.live, before);
  destroy(&c);
}

TEST(pt_without_1g_pages_uses_2m) {
  struct host_tables h = {0, 1000};
  struct pt_ctx c = make_ctx(&h, false);
  uint64_t ps;
  ASSERT_EQ(pt_map(&c, 0, 2 * GiB, PT_PRESENT), 0);
  ASSERT_EQ(pt_query(&c, GiB + 7, &ps), PT_PRESENT);
  ASSERT_EQ_U(ps, 2 * MiB);
  destroy(&c);
}

TEST(pt_rejects_bad_ranges) {
  struct host_tables h = {0, 1000};
  struct pt_ctx c = make_ctx(&h, true);
  ASSERT_EQ(pt_map(&c, 1, 4096, PT_PRESENT), -1);
  ASSERT_EQ(pt_map(&c, 0, 4095, PT_PRESENT), -1);
  ASSERT_EQ(pt_map(&c, 0, 0, PT_PRESENT), -1);
  ASSERT_EQ(pt_map(&c, 1ull << 48, 4096, PT_PRESENT), -1);
  ASSERT_EQ(pt_map(&c, (1ull << 48) - 4096, 8192, PT_PRESENT), -1);
  uint64_t ps;
  ASSERT_EQ(pt_query(&c, 1ull << 50, &ps), 0);
  destroy(&c);
}

TEST(pt_out_of_table_memory_fails_cleanly) {
  struct host_tables h = {0, 3}; /* PML4, PDPT, PD: no page table */
  struct pt_ctx c = make_ctx(&h, true);
  ASSERT_EQ(pt_map(&c, 0, GiB, PT_PRESENT), 0);
  ASSERT_EQ(pt_map(&c, 2 * MiB, 2 * MiB, PT_PRESENT | PT_WRITE), 0); /* needs the PD */
  ASSERT_EQ(pt_map(&c, 4096, 4096, 0), -1);                          /* needs a PT */
  uint64_t ps;
  ASSERT_EQ(pt_query(&c, 4096, &ps), PT_PRESENT); /* unchanged */
  h.limit = 100;
  destroy(&c);
}

static uint32_t seed = 99;
static uint32_t rnd(void) {
  seed ^= seed << 13;
  seed ^= seed >> 17;
  seed ^= seed << 5;
  return seed;
}

TEST(pt_random_remaps_match_reference) {
  static uint8_t ref[PAGES];
  static const unsigned attr_set[] = {0,
                                      PT_PRESENT,
                                      PT_PRESENT | PT_WRITE,
                                      PT_PRESENT | PT_EXEC,
                                      PT_PRESENT | PT_WRITE | PT_CACHE_UC,
                                      PT_PRESENT | PT_WRITE | PT_CACHE_WC};
  static const uint64_t grains[] = {4096, 2 * MiB, GiB};
  struct host_tables h = {0, 100000};
  struct pt_ctx c = make_ctx(&h, true);
  memset(ref, 0, sizeof ref);
  for (int op = 0; op < 400; op++) {
    uint64_t grain = grains[rnd() % 3];
    uint64_t base = (uint64_t)rnd() % (WINDOW / grain) * grain;
    uint64_t size = ((uint64_t)rnd() % 8 + 1) * (grain == GiB ? GiB : grain * (rnd() % 64 + 1));
    if (size > WINDOW - base) size = WINDOW - base;
    unsigned attrs = attr_set[rnd() % 6];
    ASSERT_EQ(pt_map(&c, base, size, attrs), 0);
    memset(ref + base / 4096, (int)norm(attrs), size / 4096);
    for (int k = 0; k < 64; k++) {
      uint64_t page = rnd() % PAGES, ps;
      ASSERT_EQ(pt_query(&c, page * 4096 + rnd() % 4096, &ps), ref[page]);
    }
  }
  for (uint64_t page = 0; page < PAGES; page++) {
    uint64_t ps;
    unsigned got = pt_query(&c, page * 4096, &ps);
    if (got != ref[page])
      FAIL("page 0x%llx: 0x%x, reference 0x%x",
                (unsigned long long)page * 4096, got, ref[page]);
    if (got && ps != 4096 && ps != 2 * MiB && ps != GiB)
      FAIL("page size %llu at 0x%llx", (unsigned long long)ps,
                (unsigned long long)page * 4096);
  }
  destroy(&c);
  ASSERT_EQ(h.live, 0);
}
