/*
 * mem.h - how the gfx9 interpreter reaches memory: a translation interface
 * the rest of the virtual APU implements (the GMC page-table walk), and a
 * small identity implementation over registered ranges for tests and for
 * bring-up before the page walk exists.
 *
 * Every GPU virtual address the interpreter touches (instruction fetch,
 * SMEM, FLAT/GLOBAL/SCRATCH, MUBUF, the kernel descriptor) goes through
 * vapu_mem.translate. The answer is a "page": a range of GPU VAs that maps
 * linearly onto host memory, with the accesses it allows. "Physical"
 * addresses are host pointers on both platforms (lib/plat.h: identity map in
 * the image, host VAs on the host), so a page carries a host pointer.
 *
 * Each interpreter context keeps a small software TLB of pages. The owner of
 * the mapping calls vapu_mem_changed() after changing or removing a mapping
 * (a VM invalidation); every context drops its TLB before its next access.
 */
#ifndef VAPU_ISA_MEM_H
#define VAPU_ISA_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Kinds of access, also used as permission bits of a page. An atomic
 * read-modify-write needs READ | WRITE. */
enum vapu_access {
  VAPU_ACCESS_READ = 1u << 0,
  VAPU_ACCESS_WRITE = 1u << 1,
  VAPU_ACCESS_EXEC = 1u << 2,
};

/* A translated range: GPU VAs [va, va + size) are host bytes
 * [host, host + size). Any alignment and size (the GMC gives 4 KiB or 2 MiB
 * pages, the range map gives whole registered ranges). */
struct vapu_page {
  uint64_t va;
  uint64_t size;
  uint8_t *host;
  uint32_t allowed; /* VAPU_ACCESS_* this range permits */
};

struct vapu_mem {
  /* The interpreter is about to make an `access` (VAPU_ACCESS_*; READ |
   * WRITE for an atomic) at `va`: fills *page with the range holding `va`
   * and returns true when the range permits it, else returns false. A
   * false is a fault the owner has raised already, at the access itself
   * and with its kind (the GMC latches the fault status with the R/W bit
   * and posts the IV), so the interpreter only stops the wave. It asks
   * only for accesses it really makes (never a prefetch), once per fault.
   * page->allowed says what else the range permits (the interpreter's TLB
   * keeps it). Called from the thread running the interpreter; it must not
   * block for long (it runs on the GPU's "memory path"). */
  bool (*translate)(void *ctx, uint64_t va, uint32_t access, struct vapu_page *page);
  void *ctx;
  /* Bumped by vapu_mem_changed(); read by every interpreter context. */
  uint32_t generation;
};

/* The owner changed or removed a translation: cached pages are stale. */
static inline void vapu_mem_changed(struct vapu_mem *mem) {
  __atomic_add_fetch(&mem->generation, 1, __ATOMIC_RELEASE);
}

/* ---- Identity translation over registered host ranges -------------------
 * GPU VA == host address, allowed only inside a registered range, with that
 * range's permissions. An access that strays outside every range is a
 * memory fault, never a host crash: the bounds are exact (byte granular),
 * so tests under ASan see GPU overruns as faults. Not thread-safe against
 * concurrent add/remove while an interpreter runs (tests register first). */
#define VAPU_RANGE_MAP_MAX 64

struct vapu_range_map {
  struct vapu_mem mem; /* first: &map->mem is what the interpreter gets */
  struct vapu_range {
    uint64_t va, size;
    uint32_t allowed;
  } ranges[VAPU_RANGE_MAP_MAX];
  unsigned count;
};

void vapu_range_map_init(struct vapu_range_map *map);
/* Registers [host, host + size) with `allowed` accesses. Returns 0, or -1
 * when the table is full, size is 0, or the range overlaps another. */
int vapu_range_map_add(struct vapu_range_map *map, const void *host, size_t size,
                       uint32_t allowed);
/* Removes the range that starts at `host`. Returns 0, or -1 if none does. */
int vapu_range_map_remove(struct vapu_range_map *map, const void *host);

#endif
