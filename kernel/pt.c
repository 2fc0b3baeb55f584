/* pt.c - the identity-map page-table builder (see pt.h). */
#include "kernel/pt.h"

/* Entry bits (SDM vol. 3A, Tables 4-15..4-20). */
#define E_P       (1ull << 0)
#define E_RW      (1ull << 1)
#define E_PWT     (1ull << 3)
#define E_PCD     (1ull << 4)
#define E_PS      (1ull << 7) /* in PDPTE/PDE: maps a 1 GiB / 2 MiB page */
#define E_NX      (1ull << 63)
#define ADDR_MASK 0x000ffffffffff000ull /* bits 51:12 */

#define LEVELS   4 /* level 3 = PML4 ... level 0 = page table */
#define VA_LIMIT (1ull << 48)

static uint64_t span(int level) { return 1ull << (12 + 9 * level); }
static unsigned index_of(uint64_t addr, int level) { return (addr >> (12 + 9 * level)) & 511; }
static bool is_leaf(uint64_t e, int level) { return level == 0 || (e & E_PS); }

/* Only PAT indexes 0-3 are used, so the PAT bit (bit 7 of a PTE, bit 12 of
 * a large page) stays clear and PCD/PWT alone pick the type. */
static uint64_t cache_bits(unsigned attrs) {
  switch (attrs & PT_CACHE_MASK) {
    case PT_CACHE_WC:
      return E_PWT; /* PAT index 1 */
    case PT_CACHE_UC:
      return E_PCD | E_PWT; /* PAT index 3 */
    default:
      return 0; /* PAT index 0: WB */
  }
}

static uint64_t leaf_entry(uint64_t addr, unsigned attrs, int level) {
  if (!(attrs & PT_PRESENT)) return 0;
  uint64_t e = (addr & ADDR_MASK) | E_P | cache_bits(attrs);
  if (attrs & PT_WRITE) e |= E_RW;
  if (!(attrs & PT_EXEC)) e |= E_NX;
  if (level > 0) e |= E_PS;
  return e;
}

static unsigned leaf_attrs(uint64_t e) {
  if (!(e & E_P)) return 0;
  unsigned a = PT_PRESENT;
  if (e & E_RW) a |= PT_WRITE;
  if (!(e & E_NX)) a |= PT_EXEC;
  if ((e & (E_PCD | E_PWT)) == (E_PCD | E_PWT))
    a |= PT_CACHE_UC;
  else if (e & E_PWT)
    a |= PT_CACHE_WC;
  return a;
}

/* A table entry pointing to a lower table: every right granted, the leaves
 * decide (SDM vol. 3A, 4.6: the effective rights combine all levels). */
static uint64_t table_entry(uint64_t phys) { return (phys & ADDR_MASK) | E_P | E_RW; }

int pt_init(struct pt_ctx *c) {
  c->root = c->alloc_table(c->arg);
  return c->root ? 0 : -1;
}

/* Frees the table at `phys` (level `level`) and every table below it. */
static void free_tree(struct pt_ctx *c, uint64_t phys, int level) {
  uint64_t *t = c->table_ptr(c->arg, phys);
  for (int i = 0; level > 0 && i < 512; i++)
    if ((t[i] & E_P) && !is_leaf(t[i], level)) free_tree(c, t[i] & ADDR_MASK, level - 1);
  c->free_table(c->arg, phys);
}

/* A table of the level below `level` whose 512 leaves reproduce the large
 * page `e` starting at `base`; 0 when out of memory. */
static uint64_t split(struct pt_ctx *c, uint64_t e, uint64_t base, int level) {
  uint64_t phys = c->alloc_table(c->arg);
  if (!phys) return 0;
  uint64_t *t = c->table_ptr(c->arg, phys);
  unsigned attrs = leaf_attrs(e);
  for (int i = 0; i < 512; i++)
    t[i] = leaf_entry(base + (uint64_t)i * span(level - 1), attrs, level - 1);
  return phys;
}

static bool leaf_allowed(const struct pt_ctx *c, int level) {
  return level == 0 || level == 1 || (level == 2 && c->allow_1g);
}

static int map_level(struct pt_ctx *c, uint64_t table, int level, uint64_t start, uint64_t end,
                     unsigned attrs) {
  uint64_t *t = c->table_ptr(c->arg, table);
  while (start < end) {
    uint64_t entry_base = start & ~(span(level) - 1);
    uint64_t entry_end = entry_base + span(level);
    uint64_t sub_end = end < entry_end ? end : entry_end;
    uint64_t *e = &t[index_of(start, level)];
    if (start == entry_base && sub_end == entry_end && leaf_allowed(c, level)) {
      if ((*e & E_P) && !is_leaf(*e, level)) free_tree(c, *e & ADDR_MASK, level - 1);
      *e = leaf_entry(entry_base, attrs, level);
    } else {
      uint64_t sub;
      if ((*e & E_P) && is_leaf(*e, level) && leaf_attrs(*e) == attrs) {
        start = sub_end; /* already mapped so by a larger page: keep it whole */
        continue;
      }
      if (!(*e & E_P)) {
        if (!(attrs & PT_PRESENT)) { /* unmapping what is not mapped */
          start = sub_end;
          continue;
        }
        sub = c->alloc_table(c->arg);
        if (!sub) return -1;
        *e = table_entry(sub);
      } else if (is_leaf(*e, level)) {
        sub = split(c, *e, entry_base, level);
        if (!sub) return -1;
        *e = table_entry(sub);
      } else {
        sub = *e & ADDR_MASK;
      }
      if (map_level(c, sub, level - 1, start, sub_end, attrs) != 0) return -1;
    }
    start = sub_end;
  }
  return 0;
}

int pt_map(struct pt_ctx *c, uint64_t base, uint64_t size, unsigned attrs) {
  if ((base | size) & 0xfff || size == 0 || base >= VA_LIMIT || size > VA_LIMIT - base) return -1;
  attrs = attrs & PT_PRESENT ? attrs & (PT_PRESENT | PT_WRITE | PT_EXEC | PT_CACHE_MASK) : 0;
  return map_level(c, c->root, LEVELS - 1, base, base + size, attrs);
}

unsigned pt_query(const struct pt_ctx *c, uint64_t addr, uint64_t *page_size) {
  *page_size = 0;
  if (addr >= VA_LIMIT) return 0;
  uint64_t table = c->root;
  for (int level = LEVELS - 1; level >= 0; level--) {
    uint64_t e = c->table_ptr(c->arg, table)[index_of(addr, level)];
    if (!(e & E_P)) return 0;
    if (is_leaf(e, level)) {
      *page_size = span(level);
      return leaf_attrs(e);
    }
    table = e & ADDR_MASK;
  }
  return 0;
}
