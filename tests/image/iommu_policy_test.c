/*
 * iommu_policy_test.c - what a device given "all the application's memory"
 * reaches (kernel/kmem.h). The edu stands in for the GPU: its
 * domain maps every RAM range of the memory map with iommu_map_allowed, as
 * drivers/amdgpu/amdgpu_bus_pci.c does for the GPU. It must reach the
 * heap, plat_dma_alloc's blocks and free RAM, and none of the kernel's own
 * memory (kernel_protected_ranges: image, boot information, page tables,
 * stacks with their guard pages, the IOMMU's tables), including memory the
 * kernel takes after the domain was set up (a new stack, a new chunk of
 * page tables).
 *
 * The edu's DMA reaches only the low 256 MiB (edu_dma.h): the suite
 * image-iommu-policy boots with 256 MiB of RAM, so that all of the kernel
 * lies there and every check is a real DMA. In the other boots, memory
 * above the limit is checked in the IOMMU's tables only (iommu_can_reach).
 */
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "boot/boot_info.h"
#include "drivers/iommu/iommu_system.h"
#include "kernel/frames.h"
#include "kernel/kernel.h"
#include "kernel/kmem.h"
#include "kernel/kstack.h"
#include "kernel/vm.h"
#include "lib/plat.h"
#include "lib/test.h"
#include "tests/image/edu_dma.h"

#define PAGE 4096ull

static uint8_t *scratch_in, *scratch_out; /* free RAM pages the edu reaches */
static int data_word = 7;

static bool dma_possible(uint64_t page) { return page + PAGE <= EDU_DMA_LIMIT; }

/* The edu as the GPU: every RAM range, minus the protected memory. */
static void gpu_like_domain(void) {
  if (!confined()) test_skip("iommu=on only: otherwise every device reaches all memory");
  edu_fresh();
  const struct boot_info *info = kernel_boot_info();
  for (uint32_t i = 0; i < info->mem_count; i++) {
    const struct boot_mem_range *m = &info->mem[i];
    if (boot_mem_type_is_ram(m->type))
      ASSERT_EQ(iommu_map_allowed(edu_dev, m->base, m->pages * PAGE, IOMMU_READ | IOMMU_WRITE), 0);
  }
  ASSERT_EQ(iommu_flush(edu_dev), 0);
  if (!scratch_in) {
    scratch_in = low_buffer(PAGE);
    scratch_out = low_buffer(PAGE);
  }
}

/* Loads the edu's buffer from scratch_in / checks it through scratch_out
 * (both reachable: free RAM the domain maps). */
static void edu_load(uint8_t seed) {
  fill(scratch_in, PAGE, seed);
  edu_dma((uint64_t)(uintptr_t)scratch_in, false, EDU_DMA_LEN);
}
static bool edu_holds(uint8_t seed) {
  memset(scratch_out, 0, PAGE);
  edu_dma((uint64_t)(uintptr_t)scratch_out, true, EDU_DMA_LEN);
  return filled(scratch_out, EDU_DMA_LEN, seed);
}

/* A page of ours the device must be able to write and read. */
static void assert_reachable(uint64_t page, const char *what) {
  if (!iommu_can_reach(edu_dev, page, IOMMU_WRITE) || !iommu_can_reach(edu_dev, page, IOMMU_READ))
    FAIL("the %s at 0x%llx is not mapped for the device", what,
              (unsigned long long)page);
  if (!dma_possible(page)) return;
  uint8_t *p = (uint8_t *)(uintptr_t)page;
  edu_load(0x61);
  memset(p, 0xa5, EDU_DMA_LEN);
  edu_dma(page, true, EDU_DMA_LEN);
  if (!filled(p, EDU_DMA_LEN, 0x61))
    FAIL("DMA into the %s at 0x%llx did not land", what,
              (unsigned long long)page);
  fill(p, EDU_DMA_LEN, 0x62);
  edu_load(0x63);
  edu_dma(page, false, EDU_DMA_LEN);
  if (!edu_holds(0x62))
    FAIL("DMA from the %s at 0x%llx did not read it", what,
              (unsigned long long)page);
}

static bool cpu_can_read(uint64_t page) {
  uint64_t size;
  return vm_query(page, &size) & PT_PRESENT;
}

/* Not all one byte value: a DMA read of it cannot be mistaken for what a
 * refused read gives (QEMU's unassigned memory reads as zeros). */
static bool distinctive(const uint8_t *p, size_t n) {
  for (size_t i = 1; i < n; i++)
    if (p[i] != p[0]) return true;
  return false;
}

/* A kernel page: neither in the device's tables nor readable by its DMA.
 * A refused read still completes, with zeros (QEMU's unassigned memory),
 * so the check is that the edu did not get the page's contents; pages the
 * CPU cannot read (guard pages) or whose contents are all one value are
 * checked in the tables only. */
static void assert_blocked(uint64_t page, const char *what) {
  if (iommu_can_reach(edu_dev, page, IOMMU_READ) || iommu_can_reach(edu_dev, page, IOMMU_WRITE))
    FAIL("the device can reach the %s at 0x%llx", what,
              (unsigned long long)page);
  if (!dma_possible(page) || !cpu_can_read(page)) return;
  static uint8_t contents[EDU_DMA_LEN];
  memcpy(contents, (const void *)(uintptr_t)page, EDU_DMA_LEN);
  if (!distinctive(contents, EDU_DMA_LEN)) return;
  edu_dma(page, false, EDU_DMA_LEN);
  memset(scratch_out, 0, PAGE);
  edu_dma((uint64_t)(uintptr_t)scratch_out, true, EDU_DMA_LEN);
  if (memcmp(scratch_out, contents, EDU_DMA_LEN) == 0)
    FAIL("DMA read the %s at 0x%llx", what, (unsigned long long)page);
}

/* The same for a kernel page not in use yet, where the test may write:
 * it gets a pattern the device must not read, and the device's write must
 * leave it unchanged. */
static void assert_blocked_unused(uint64_t page, const char *what) {
  if (dma_possible(page) && cpu_can_read(page)) fill((uint8_t *)(uintptr_t)page, PAGE, 0x5c);
  assert_blocked(page, what);
  if (!dma_possible(page) || !cpu_can_read(page)) return;
  edu_load(0x72);
  edu_dma(page, true, EDU_DMA_LEN);
  if (!filled((const uint8_t *)(uintptr_t)page, PAGE, 0x5c))
    FAIL("DMA wrote into the %s at 0x%llx", what,
              (unsigned long long)page);
}

static uint64_t page_of(const void *p) { return (uint64_t)(uintptr_t)p & ~(PAGE - 1); }

TEST(iommu_policy_application_memory_is_reachable) {
  gpu_like_domain();
  void *heap = memalign(PAGE, PAGE);
  ASSERT_NOT_NULL(heap);
  assert_reachable(page_of(heap), "heap block");
  free(heap);
  void *dma = plat_dma_alloc(PAGE, PAGE);
  ASSERT_NOT_NULL(dma);
  assert_reachable(page_of(dma), "plat_dma_alloc block");
  plat_dma_free(dma, PAGE);
  uint8_t *free_ram = low_buffer(PAGE);
  assert_reachable(page_of(free_ram), "free RAM page");
  frames_free((uint64_t)(uintptr_t)free_ram, PAGE);
  /* The heap's growth: a large block past the first 16 MiB of heap. */
  uint8_t *big = malloc(32u << 20);
  ASSERT_NOT_NULL(big);
  assert_reachable(page_of(big + (32u << 20) - PAGE), "grown heap");
  free(big);
}

TEST(iommu_policy_kernel_memory_is_not) {
  gpu_like_domain();
  /* Everything the kernel lists, first, middle and last page of each. */
  static struct kmem_range r[64];
  size_t n = kernel_protected_ranges(r, 64);
  ASSERT_LE(n, 64);
  for (size_t i = 0; i < n; i++) {
    for (uint64_t p = r[i].base; p < r[i].base + r[i].size; p += PAGE)
      if (iommu_can_reach(edu_dev, p, IOMMU_READ))
        FAIL("the device can reach the %s at 0x%llx", r[i].what,
                  (unsigned long long)p);
    assert_blocked(r[i].base, r[i].what); /* and by DMA, at both ends */
    assert_blocked(r[i].base + r[i].size - PAGE, r[i].what);
  }
  /* Named ones, whatever the list says. */
  int local = 0;
  assert_blocked(vm_root(), "top page table");
  assert_blocked(page_of(&local), "running stack");
  assert_blocked(kernel_boot_info()->stack.base, "boot stack's guard page");
  assert_blocked(page_of((const void *)gpu_like_domain), "kernel text");
  assert_blocked(page_of(&data_word), "kernel data");
  assert_blocked(page_of(kernel_boot_info()), "boot information");
  struct iommu_extent ext[IOMMU_MEM_MAX_EXTENTS];
  unsigned m = iommu_memory_extents(&iommu_current()->memory, ext, IOMMU_MEM_MAX_EXTENTS);
  ASSERT_GT(m, 0);
  for (unsigned i = 0; i < m && i < IOMMU_MEM_MAX_EXTENTS; i++)
    assert_blocked(ext[i].base, ext[i].what);
  /* And a driver cannot map any of it for its device. */
  ASSERT_EQ(iommu_map(edu_dev, vm_root(), PAGE, IOMMU_READ), -EPERM);
  ASSERT_EQ(iommu_map(edu_dev, page_of(&local), PAGE, IOMMU_READ), -EPERM);
}

/* The "page tables" ranges of kernel_protected_ranges. */
static size_t table_ranges(struct kmem_range *out, size_t max) {
  static struct kmem_range all[64];
  size_t n = kernel_protected_ranges(all, 64), k = 0;
  for (size_t i = 0; i < n && i < 64; i++)
    if (strcmp(all[i].what, "page tables") == 0 && k < max) out[k++] = all[i];
  return k;
}

static bool covered(const struct kmem_range *r, size_t n, uint64_t page) {
  for (size_t i = 0; i < n; i++)
    if (page >= r[i].base && page < r[i].base + r[i].size) return true;
  return false;
}

TEST(iommu_policy_memory_the_kernel_takes_later_is_not) {
  gpu_like_domain();
  /* A block of kernel memory: free RAM (reachable) until kmem takes it. */
  uint64_t peek = frames_alloc(PAGE, PAGE);
  ASSERT_NE(peek, 0);
  ASSERT_TRUE(iommu_can_reach(edu_dev, peek, IOMMU_WRITE));
  frames_free(peek, PAGE);
  uint64_t block = kmem_alloc(PAGE, "iommu policy test");
  ASSERT_NE(block, 0);
  if (block == peek) ASSERT_FALSE(iommu_can_reach(edu_dev, peek, IOMMU_WRITE));
  assert_blocked_unused(block, "kernel block taken after the domain");

  /* A new stack (as for a core started later): guard page included. */
  uint64_t top = kstack_alloc(16 * 1024, "iommu policy test stack");
  ASSERT_NE(top, 0);
  for (uint64_t p = top - 16 * 1024 - KSTACK_GUARD_SIZE; p < top; p += PAGE)
    assert_blocked_unused(p, "new stack");

  /* New page tables: mappings of far-apart MMIO windows need new tables
   * (a PDPT, a PD and a PT each) until the kernel takes a new chunk. */
  struct kmem_range before[16], after[16];
  size_t nb = table_ranges(before, 16), na = nb;
  uint64_t new_page = 0;
  for (uint64_t region = 8; region < 256 && !new_page; region++) {
    ASSERT_EQ(vm_map_mmio(region << 39, PAGE), 0);
    na = table_ranges(after, 16);
    for (size_t i = 0; i < na && !new_page; i++)
      for (uint64_t p = after[i].base; p < after[i].base + after[i].size && !new_page; p += PAGE)
        if (!covered(before, nb, p)) new_page = p;
  }
  ASSERT_NE(new_page, 0);
  /* Its pages: the first ones are tables in use now, the last unused. */
  uint64_t chunk_end = new_page;
  while (covered(after, na, chunk_end) && !covered(before, nb, chunk_end)) chunk_end += PAGE;
  assert_blocked(new_page, "new page-table chunk");
  assert_blocked_unused(chunk_end - PAGE, "new page-table chunk");
}
