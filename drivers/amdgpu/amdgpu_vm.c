/* amdgpu_vm.c - builds gfx9 page tables: four levels of 512 entries (block
 * size 9), 2 MiB pages as PDB0 entries marked PDE_PTE, 4 KiB pages with the
 * fragment field set to the largest aligned contiguous run so the TLB can
 * hold them as one (Linux amdgpu_vm.c amdgpu_vm_update_range fragment
 * choice, amdgpu_vm_pt.c huge pages; formats in regs/gmc_v9_pte.h).
 * Tables live in write-back system memory (plat_dma_alloc), so PDEs carry
 * VALID | SYSTEM | SNOOPED: the walker must snoop the CPU's caches, which
 * hold the entries the driver just wrote (Linux amdgpu_ttm_tt_pde_flags:
 * SNOOPED for cached system memory). Linux keeps them in the carve-out
 * instead (amdgpu_vm_pt_create, VRAM); system memory here keeps the
 * carve-out for local allocations and lets tables grow with RAM. */
#define LOG_TAG "gmc"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "drivers/amdgpu/regs/gmc_v9_pte.h"
#include "lib/plat.h"

#define PDE_FLAGS (GMC_PTE_VALID | GMC_PTE_SYSTEM | GMC_PTE_SNOOPED)
#define HUGE_BYTES (1ull << GMC_PDE0_PAGE_SHIFT)
#define MAX_FRAGMENT 9 /* a fragment never leaves its page table block */

static uint64_t *new_table(struct gmc_vm *vm) {
  if (vm->table_pages == vm->tables_cap) {
    int cap = vm->tables_cap ? vm->tables_cap * 2 : 16;
    /* Pointers the driver frees: kept from devices like every driver
     * structure (lib/plat.h). */
    void **grown = plat_protected_alloc(sizeof *grown * (size_t)cap);
    if (!grown) return NULL;
    if (vm->table_pages) memcpy(grown, vm->tables, sizeof *grown * (size_t)vm->table_pages);
    plat_protected_free(vm->tables);
    vm->tables = grown;
    vm->tables_cap = cap;
  }
  uint64_t *t = plat_dma_alloc(4096, 4096);
  if (t) vm->tables[vm->table_pages++] = t;
  return t;
}

static unsigned level_shift(int level) { /* level 0 = PDB2 ... 3 = PTB */
  return GMC_PAGE_SHIFT + GMC_VM_BLOCK_BITS * (unsigned)(GMC_VM_LEVELS - 1 - level);
}

static uint64_t *entry_at(uint64_t *table, uint64_t va, int level) {
  return &table[(va >> level_shift(level)) & (GMC_VM_ENTRIES - 1)];
}

/* The table of `level` (1..3) covering va, created when `create`. */
static uint64_t *table_for(struct gmc_vm *vm, uint64_t va, int level, bool create) {
  if (!vm->root) {
    if (!create || !(vm->root = new_table(vm))) return NULL;
  }
  uint64_t *table = vm->root;
  for (int l = 0; l < level; l++) {
    uint64_t *e = entry_at(table, va, l);
    if (*e & GMC_PDE_PTE) return NULL; /* a huge page, not a table */
    if (!(*e & GMC_PTE_VALID)) {
      if (!create) return NULL;
      uint64_t *next = new_table(vm);
      if (!next) return NULL;
      __atomic_store_n(e, ((uint64_t)(uintptr_t)next & GMC_PDE_ADDR_MASK) | PDE_FLAGS, __ATOMIC_RELEASE);
    }
    table = (uint64_t *)(uintptr_t)(*e & GMC_PDE_ADDR_MASK);
  }
  return table;
}

/* Replaces a 2 MiB PDB0 entry by a page table with the same mapping. */
static int split_huge(struct gmc_vm *vm, uint64_t *pde0) {
  uint64_t *ptb = new_table(vm);
  if (!ptb) return -ENOMEM;
  uint64_t huge = *pde0;
  uint64_t flags = huge & ~(GMC_PTE_ADDR_MASK | GMC_PDE_PTE | GMC_PTE_FRAG(0x1f));
  for (uint64_t i = 0; i < GMC_VM_ENTRIES; i++)
    ptb[i] = ((huge & GMC_PTE_ADDR_MASK) + (i << GMC_PAGE_SHIFT)) | flags | GMC_PTE_FRAG(MAX_FRAGMENT);
  __atomic_store_n(pde0, ((uint64_t)(uintptr_t)ptb & GMC_PDE_ADDR_MASK) | PDE_FLAGS, __ATOMIC_RELEASE);
  return 0;
}

static unsigned fragment_for(uint64_t va, uint64_t pa, uint64_t pages_left) {
  unsigned k = 0;
  while (k < MAX_FRAGMENT && !(((va | pa) >> GMC_PAGE_SHIFT) & (1ull << k)) && (2ull << k) <= pages_left) k++;
  return k;
}

int gmc_vm_map(struct amdgpu_device *dev, struct gmc_vm *vm, uint64_t va, uint64_t pa, uint64_t size,
               uint64_t flags) {
  if ((va | pa | size) & 0xfff || va + size > (1ull << GMC_VM_VA_BITS) || va + size < va) {
    log_error("cannot map 0x%llx bytes at 0x%llx: unaligned or beyond 48 bits",
              (unsigned long long)size, (unsigned long long)va);
    return -EINVAL;
  }
  uint64_t end = va + size;
  while (va < end) {
    uint64_t *pdb0 = table_for(vm, va, 2, true);
    if (!pdb0) return -ENOMEM;
    uint64_t *pde0 = entry_at(pdb0, va, 2);
    bool aligned = !(va & (HUGE_BYTES - 1)) && !(pa & (HUGE_BYTES - 1)) && end - va >= HUGE_BYTES;
    if (aligned && !(*pde0 & GMC_PTE_VALID)) {
      __atomic_store_n(pde0, (pa & GMC_PTE_ADDR_MASK) | flags | GMC_PDE_PTE | GMC_PTE_FRAG(MAX_FRAGMENT),
                       __ATOMIC_RELEASE);
      va += HUGE_BYTES;
      pa += HUGE_BYTES;
      continue;
    }
    if (*pde0 & GMC_PDE_PTE) {
      uint64_t same = (pa & GMC_PTE_ADDR_MASK) - (va & (HUGE_BYTES - 1));
      bool identical = (*pde0 & GMC_PTE_ADDR_MASK) == same &&
                       (*pde0 & ~(GMC_PTE_ADDR_MASK | GMC_PDE_PTE | GMC_PTE_FRAG(0x1f))) == flags;
      if (identical) { /* already mapped the same way */
        uint64_t step = HUGE_BYTES - (va & (HUGE_BYTES - 1));
        va += step;
        pa += step;
        continue;
      }
      int r = split_huge(vm, pde0);
      if (r) return r;
    }
    uint64_t *ptb = table_for(vm, va, 3, true);
    if (!ptb) return -ENOMEM;
    uint64_t block_end = (va | (HUGE_BYTES - 1)) + 1;
    if (block_end > end) block_end = end;
    while (va < block_end) {
      unsigned frag = fragment_for(va, pa, (block_end - va) >> GMC_PAGE_SHIFT);
      for (uint64_t i = 0; i < (1ull << frag); i++)
        __atomic_store_n(entry_at(ptb, va + (i << GMC_PAGE_SHIFT), 3),
                         ((pa + (i << GMC_PAGE_SHIFT)) & GMC_PTE_ADDR_MASK) | flags | GMC_PTE_FRAG(frag),
                         __ATOMIC_RELEASE);
      va += 1ull << (GMC_PAGE_SHIFT + frag);
      pa += 1ull << (GMC_PAGE_SHIFT + frag);
    }
  }
  (void)dev;
  return 0;
}

uint64_t *gmc_vm_pte(struct gmc_vm *vm, uint64_t va) {
  uint64_t *pdb0 = table_for(vm, va, 2, false);
  if (!pdb0) return NULL;
  uint64_t *pde0 = entry_at(pdb0, va, 2);
  if (*pde0 & GMC_PDE_PTE) return pde0;
  uint64_t *ptb = table_for(vm, va, 3, false);
  return ptb ? entry_at(ptb, va, 3) : NULL;
}

void gmc_vm_free(struct gmc_vm *vm) {
  for (int i = 0; i < vm->table_pages; i++) plat_dma_free(vm->tables[i], 4096);
  plat_protected_free(vm->tables);
  *vm = (struct gmc_vm){0};
}
