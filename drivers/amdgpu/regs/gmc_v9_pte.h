/*
 * gmc_v9_pte.h - gfx9 GPU page table formats (GMC v9: Vega, Raven, Renoir).
 *
 * Four levels with block size 9 for a 48-bit virtual address: PDB2 (root,
 * VA[47:39]), PDB1 (VA[38:30]), PDB0 (VA[29:21]) and the page table block
 * (VA[20:12]); 512 8-byte entries per 4 KiB table. VM_CONTEXTn_CNTL
 * PAGE_TABLE_DEPTH = 3, PAGE_TABLE_BLOCK_SIZE = 0 (block size - 9).
 * Bits: Linux amdgpu_vm.h (AMDGPU_PTE_*, AMDGPU_PDE_*); address masks from
 * gmc_v9_0_get_vm_pde / gmc_v9_0_get_vm_pte (PDE address 64-byte aligned,
 * PTE address 4 KiB aligned, both 48 bits).
 */
#ifndef DRIVERS_AMDGPU_REGS_GMC_V9_PTE_H
#define DRIVERS_AMDGPU_REGS_GMC_V9_PTE_H

#include <stdint.h>

#define GMC_PTE_VALID        (1ull << 0)
#define GMC_PTE_SYSTEM       (1ull << 1)
#define GMC_PTE_SNOOPED      (1ull << 2)
#define GMC_PTE_EXECUTABLE   (1ull << 4)
#define GMC_PTE_READABLE     (1ull << 5)
#define GMC_PTE_WRITEABLE    (1ull << 6)
#define GMC_PTE_FRAG(x)      (((uint64_t)(x) & 0x1full) << 7) /* 2^x pages are contiguous */
#define GMC_PTE_PRT          (1ull << 51)
#define GMC_PDE_PTE          (1ull << 54) /* a PDB0 entry that maps a 2 MiB page itself */
#define GMC_PTE_MTYPE(a)     ((uint64_t)(a) << 57)
#define GMC_MTYPE_NC         0
#define GMC_MTYPE_UC         3

#define GMC_PDE_ADDR_MASK    0x0000FFFFFFFFFFC0ull
#define GMC_PTE_ADDR_MASK    0x0000FFFFFFFFF000ull

#define GMC_VM_LEVELS        4
#define GMC_VM_BLOCK_BITS    9
#define GMC_VM_ENTRIES       (1u << GMC_VM_BLOCK_BITS)
#define GMC_VM_VA_BITS       48
#define GMC_PAGE_SHIFT       12
#define GMC_PDE0_PAGE_SHIFT  21 /* a PDB0 entry covers 2 MiB */
#define GMC_PAGE_TABLE_DEPTH 3
#define GMC_PAGE_TABLE_BLOCK_SIZE 0

#endif
