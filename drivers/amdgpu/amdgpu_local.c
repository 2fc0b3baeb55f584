/* amdgpu_local.c - allocations in the frame buffer carve-out ("local
 * memory"), at the carve-out's physical address (where the CPU and, in the
 * compute VMIDs, the GPU reach it). The top of the carve-out stays reserved
 * for the firmware (the discovery table lives 64 KiB below the top, Linux
 * amdgpu_discovery.h).
 *
 * First fit over extents. The managed range is cut into extents, each free
 * or allocated, held in an AVL tree by offset (lib/avl_tree.h) in which
 * every node knows the largest free extent of its subtree. An allocation
 * walks down to the lowest free extent that holds it, takes it, and leaves
 * what is left before and after as free extents; with page alignment the
 * walk never backtracks (O(log n)), a larger alignment also visits the
 * subtrees whose large free extents start too far from an aligned address.
 * A free merges the block with the free extents on either side, so free
 * extents are never neighbours. No limit on the number of blocks but the
 * memory.
 *
 * Fragmentation is first fit's (Wilson et al., "Dynamic Storage
 * Allocation: A Survey and Critical Review", 1995, 3.5): the free memory is
 * the holes between live blocks, and a block needs one hole that holds it:
 * with every other block of a full carve-out freed, half of it is free but
 * nothing larger than the freed blocks fits. Blocks never move (their
 * addresses are the program's pointers).
 *
 * The extent records are driver state (plat_protected_alloc, in chunks),
 * reused after a merge and freed at fini: the driver's own memory follows
 * the most extents the carve-out had at once, about two per live block. */
#define LOG_TAG "local"
#include <errno.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "lib/plat.h"
#include "lib/util.h"

#define PAGE_BYTES         4096ull
#define EXTENTS_PER_CHUNK  255 /* a chunk of about 16 KiB */

struct local_extent {
  struct avl_node node;
  uint64_t offset, size;
  uint64_t largest_free; /* the largest free extent of this subtree */
  bool used;
  struct local_extent *next_spare;
};

struct local_extent_chunk {
  struct local_extent_chunk *next;
  struct local_extent extents[EXTENTS_PER_CHUNK];
};

static struct local_extent *extent_of(struct avl_node *n) {
  return n ? avl_entry(n, struct local_extent, node) : NULL;
}

static void update_largest_free(struct avl_node *n) {
  struct local_extent *e = extent_of(n);
  uint64_t largest = e->used ? 0 : e->size;
  if (n->left && extent_of(n->left)->largest_free > largest)
    largest = extent_of(n->left)->largest_free;
  if (n->right && extent_of(n->right)->largest_free > largest)
    largest = extent_of(n->right)->largest_free;
  e->largest_free = largest;
}

static void put_spare(struct amdgpu_local *l, struct local_extent *e) {
  e->next_spare = l->spare;
  l->spare = e;
  l->spare_count++;
}

/* An allocation splits one extent into three at most: two spares are
 * enough. A new chunk is allocated without the lock. false: no memory. */
static bool ensure_spares_locked(struct amdgpu_local *l) {
  while (l->spare_count < 2) {
    lock_release(&l->lock);
    struct local_extent_chunk *c = plat_protected_alloc(sizeof *c);
    lock_acquire(&l->lock);
    if (!c) {
      log_error("no memory for the carve-out allocator's extent records");
      return false;
    }
    c->next = l->chunks;
    l->chunks = c;
    for (int i = 0; i < EXTENTS_PER_CHUNK; i++) put_spare(l, &c->extents[i]);
  }
  return true;
}

/* A spare becomes the extent [offset, offset + size) in the tree. */
static void add_extent(struct amdgpu_local *l, uint64_t offset, uint64_t size, bool used) {
  struct local_extent *e = l->spare;
  l->spare = e->next_spare;
  l->spare_count--;
  *e = (struct local_extent){.offset = offset, .size = size, .used = used};
  struct avl_node *parent = NULL, **link = &l->extents.root;
  while (*link) {
    parent = *link;
    link = offset < extent_of(parent)->offset ? &parent->left : &parent->right;
  }
  avl_insert(&l->extents, parent, link, &e->node);
}

static void drop_extent(struct amdgpu_local *l, struct local_extent *e) {
  avl_remove(&l->extents, &e->node);
  put_spare(l, e);
}

/* Where in free extent e a block of `size` bytes aligned to `align` (as a
 * CPU address: the carve-out starts at `base`) would start; false if it
 * does not fit. */
static bool fits(const struct local_extent *e, uint64_t base, uint64_t size, uint64_t align,
                 uint64_t *start) {
  if (e->used || e->size < size) return false;
  uint64_t s = ALIGN_UP(base + e->offset, align) - base;
  if (s - e->offset > e->size - size) return false;
  *start = s;
  return true;
}

/* The lowest free extent that holds the block, or NULL. */
static struct local_extent *first_fit(struct avl_node *n, uint64_t base, uint64_t size,
                                      uint64_t align, uint64_t *start) {
  if (!n || extent_of(n)->largest_free < size) return NULL;
  struct local_extent *e = first_fit(n->left, base, size, align, start);
  if (e) return e;
  if (fits(extent_of(n), base, size, align, start)) return extent_of(n);
  return first_fit(n->right, base, size, align, start);
}

static struct local_extent *find_block(struct amdgpu_local *l, uint64_t offset) {
  struct avl_node *n = l->extents.root;
  while (n && extent_of(n)->offset != offset)
    n = offset < extent_of(n)->offset ? n->left : n->right;
  struct local_extent *e = extent_of(n);
  return e && e->used ? e : NULL;
}

int amdgpu_local_init(struct amdgpu_device *dev, uint64_t reserved_top_bytes) {
  amdgpu_local_fini(dev);
  struct amdgpu_local *l = &dev->local;
  uint64_t size =
      dev->gmc.vram_size > reserved_top_bytes ? dev->gmc.vram_size - reserved_top_bytes : 0;
  l->size = size & ~(PAGE_BYTES - 1);
  if (!l->size) return 0;
  lock_acquire(&l->lock);
  bool ok = ensure_spares_locked(l);
  if (ok) add_extent(l, 0, l->size, false);
  lock_release(&l->lock);
  return ok ? 0 : -ENOMEM;
}

void amdgpu_local_fini(struct amdgpu_device *dev) {
  struct amdgpu_local *l = &dev->local;
  while (l->chunks) {
    struct local_extent_chunk *next = l->chunks->next;
    plat_protected_free(l->chunks);
    l->chunks = next;
  }
  *l = (struct amdgpu_local){.extents = {NULL, update_largest_free}};
}

uint64_t amdgpu_local_mc_address(const struct amdgpu_device *dev, const void *p) {
  return dev->gmc.fb_start + ((uint64_t)(uintptr_t)p - dev->gmc.fb_physical);
}

uint64_t amdgpu_local_physical_address(const struct amdgpu_device *dev, const void *p) {
  (void)dev;
  return (uint64_t)(uintptr_t)p;
}

void *amdgpu_local_alloc(struct amdgpu_device *dev, size_t size, size_t align) {
  if (!dev || !size || (align & (align - 1)) || size > UINT64_MAX - PAGE_BYTES) return NULL;
  struct amdgpu_local *l = &dev->local;
  uint64_t bytes = ALIGN_UP((uint64_t)size, PAGE_BYTES);
  uint64_t alignment = align < PAGE_BYTES ? PAGE_BYTES : align, start = 0;
  if (bytes > l->size) return NULL;
  void *block = NULL;
  lock_acquire(&l->lock);
  struct local_extent *e =
      ensure_spares_locked(l)
          ? first_fit(l->extents.root, dev->gmc.fb_physical, bytes, alignment, &start)
          : NULL;
  if (e) {
    /* e becomes the block; what is left on either side stays free. Its
     * new offset keeps the tree's order: the front part goes before it. */
    uint64_t front = e->offset, end = e->offset + e->size;
    e->offset = start;
    e->size = bytes;
    e->used = true;
    avl_update_path(&l->extents, &e->node);
    if (start > front) add_extent(l, front, start - front, false);
    if (start + bytes < end) add_extent(l, start + bytes, end - start - bytes, false);
    l->allocated += bytes;
    l->blocks++;
    block = (void *)(uintptr_t)(dev->gmc.fb_physical + start);
  }
  lock_release(&l->lock);
  return block;
}

int amdgpu_local_free(struct amdgpu_device *dev, void *p) {
  if (!p) return 0;
  if (!dev) return -EINVAL;
  struct amdgpu_local *l = &dev->local;
  uint64_t address = (uint64_t)(uintptr_t)p;
  lock_acquire(&l->lock);
  struct local_extent *e =
      address >= dev->gmc.fb_physical ? find_block(l, address - dev->gmc.fb_physical) : NULL;
  if (e) {
    e->used = false;
    l->allocated -= e->size;
    l->blocks--;
    /* Extents tile the range: the tree's neighbours are the memory's. */
    struct local_extent *next = extent_of(avl_next(&e->node)),
                        *prev = extent_of(avl_prev(&e->node));
    if (next && !next->used) {
      e->size += next->size;
      drop_extent(l, next);
    }
    if (prev && !prev->used) {
      prev->size += e->size;
      drop_extent(l, e);
      e = prev;
    }
    avl_update_path(&l->extents, &e->node);
  }
  lock_release(&l->lock);
  if (!e) {
    log_error("free of %p: not the start of a block of the carve-out", p);
    return -EINVAL;
  }
  return 0;
}

uint64_t amdgpu_local_free_bytes(struct amdgpu_device *dev) {
  lock_acquire(&dev->local.lock);
  uint64_t free_bytes = dev->local.size - dev->local.allocated;
  lock_release(&dev->local.lock);
  return free_bytes;
}

uint64_t amdgpu_local_block_count(struct amdgpu_device *dev) {
  lock_acquire(&dev->local.lock);
  uint64_t n = dev->local.blocks;
  lock_release(&dev->local.lock);
  return n;
}
