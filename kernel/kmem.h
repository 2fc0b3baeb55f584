/*
 * kmem.h - the memory the kernel keeps for itself, which no device may
 * reach.
 *
 * The product's promise is that any pointer the application has, the GPU
 * can use: the newlib heap, plat_dma_alloc's blocks and free RAM are all
 * given to it. What the GPU must never reach is the kernel's own
 * memory: its image (text, rodata, data and bss), the boot information and
 * boot file system, its page tables, every stack with its guard page, and
 * per-core state. (The IOMMU keeps its own tables away from devices
 * itself: drivers/iommu/iommu_memory.h.)
 *
 * Every block the kernel takes for itself comes from kmem_alloc (or is
 * recorded with kmem_record when boot/ allocated it), which keeps a list
 * of them. The IOMMU driver protects what kernel_protected_ranges() lists
 * when it starts, and registers a hook (kmem_set_protect_hook) that
 * kmem_alloc calls for every block taken after that, before handing the
 * block out: the block is removed from every device's domain, and the
 * invalidation has completed, before the kernel writes anything into it.
 *
 * A hook rather than a pool reserved at boot: the kernel's later needs
 * (page tables for a driver's new MMIO window or for splitting large pages,
 * stacks of a core started later, the state of each started core) depend
 * on the machine and on what the drivers do, so any fixed reserve is
 * either wasted or too small, and running out of it would fail a mapping
 * for a reason that has nothing to do with the mapping. The hook costs one
 * IOMMU invalidation per block, and blocks are taken rarely and are large
 * (page tables come in 512 KiB chunks). kernel/ never includes drivers/:
 * the hook is how the IOMMU driver plugs in.
 */
#ifndef KERNEL_KMEM_H
#define KERNEL_KMEM_H

#include <stddef.h>
#include <stdint.h>

/* `size` bytes (rounded up to pages), page aligned, not zeroed, for the
 * kernel's own use; `what` names the kind ("page tables", "stacks", ...:
 * a string that lives forever; neighbouring blocks of one kind are listed
 * as one range). 0 when out of memory, when the list is full, or when the
 * protect hook failed (logged; the block is then kept out of use). */
uint64_t kmem_alloc(uint64_t size, const char *what);
/* The same, ending at or below physical address `limit`. */
uint64_t kmem_alloc_below(uint64_t size, uint64_t limit, const char *what);

/* Records memory the kernel owns already (boot/'s allocations). 0, or -1
 * when the list is full (logged). */
int kmem_record(uint64_t base, uint64_t size, const char *what);

/* Called for every block kmem_alloc takes from now on; returns 0 once no
 * device can reach [base, base + size), else a negative errno. Returns the
 * hook it replaces. */
typedef int (*kmem_protect_fn)(uint64_t base, uint64_t size, const char *what);
kmem_protect_fn kmem_set_protect_hook(kmem_protect_fn fn);

/* ---- What no device may reach (for the IOMMU driver) --------------------- */
struct kmem_range {
  uint64_t base, size;
  const char *what; /* "kernel image", "page tables", "stacks", ... */
};
/* The kernel image, boot information, boot file system, and every block
 * kmem_alloc and kmem_record have listed. Fills up to `max` ranges and
 * returns how many there are in all. */
size_t kernel_protected_ranges(struct kmem_range *out, size_t max);

#endif
