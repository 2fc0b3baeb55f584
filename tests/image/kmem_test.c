/*
 * kmem_test.c - the kernel's own memory (kernel/kmem.h): what
 * kernel_protected_ranges lists for the IOMMU (the image, the boot
 * information, page tables, every stack with its guard page) and what it
 * leaves to the application (the heap, plat_dma_alloc's blocks); blocks
 * taken with kmem_alloc, merged with their neighbours, handed to the
 * protect hook before use, and kept out of use when the hook fails.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "boot/boot_info.h"
#include "kernel/cpu.h"
#include "kernel/kernel.h"
#include "kernel/kmem.h"
#include "kernel/vm.h"
#include "lib/plat.h"
#include "lib/test.h"

static int data_word = 3;
static struct kmem_range ranges[64];
static size_t range_count;

static void read_ranges(void) {
  range_count = kernel_protected_ranges(ranges, 64);
  ASSERT_LE(range_count, 64);
}

/* The kind of the listed range holding addr, or NULL. */
static const char *listed_as(const void *p) {
  uint64_t a = (uint64_t)(uintptr_t)p;
  for (size_t i = 0; i < range_count; i++)
    if (a >= ranges[i].base && a < ranges[i].base + ranges[i].size) return ranges[i].what;
  return NULL;
}

TEST(kmem_protected_ranges_cover_the_kernel_not_the_application) {
  read_ranges();
  int local = 0;
  const struct boot_info *info = kernel_boot_info();
  ASSERT_STR_EQ(listed_as((const void *)read_ranges), "kernel image"); /* text */
  ASSERT_STR_EQ(listed_as(&data_word), "kernel image");                /* data */
  ASSERT_STR_EQ(listed_as(&ranges), "kernel image");                   /* bss */
  ASSERT_STR_EQ(listed_as((const void *)(uintptr_t)vm_root()), "page tables");
  ASSERT_STR_EQ(listed_as(&local), "stacks");
  ASSERT_STR_EQ(listed_as((const void *)(uintptr_t)info->stack.base), "stacks"); /* guard */
  ASSERT_STR_EQ(listed_as((const void *)(uintptr_t)cpu_cores[0].ist_stack_base[0]), "stacks");
  ASSERT_STR_EQ(listed_as(info), "boot information");
  ASSERT_STR_EQ(listed_as(info->mem), "boot memory map");
  ASSERT_STR_EQ(listed_as(info->cmdline), "command line");
  ASSERT_STR_EQ(listed_as(info->bootfs), "boot file system");
  /* The application's memory is not the kernel's. */
  void *heap = malloc(64);
  void *dma = plat_dma_alloc(4096, 4096);
  ASSERT_NOT_NULL(heap);
  ASSERT_NOT_NULL(dma);
  ASSERT_NULL(listed_as(heap));
  ASSERT_NULL(listed_as((const uint8_t *)(uintptr_t)info->heap_base));
  ASSERT_NULL(listed_as(dma));
  free(heap);
  plat_dma_free(dma, 4096);
}

static unsigned hook_calls;
static uint64_t hook_base, hook_size;
static const char *hook_what;
static int hook_result;

static int recording_hook(uint64_t base, uint64_t size, const char *what) {
  hook_calls++;
  hook_base = base, hook_size = size, hook_what = what;
  return hook_result;
}

TEST(kmem_alloc_lists_each_block_and_calls_the_hook_first) {
  static const char kind[] = "kmem test blocks";
  hook_calls = 0;
  hook_result = 0;
  kmem_protect_fn previous = kmem_set_protect_hook(recording_hook);
  uint64_t a = kmem_alloc(100, kind); /* rounded up to a page */
  uint64_t b = kmem_alloc(2 * 4096, kind);
  uint64_t low = kmem_alloc_below(4096, 1ull << 32, kind);
  hook_result = -EIO; /* e.g. the IOMMU did not answer */
  uint64_t refused = kmem_alloc(4096, kind);
  kmem_set_protect_hook(previous);
  ASSERT_NE(a, 0);
  ASSERT_NE(b, 0);
  ASSERT_EQ(a % 4096, 0);
  ASSERT_NE(low, 0);
  ASSERT_LE(low + 4096, 1ull << 32);
  ASSERT_EQ(refused, 0);
  ASSERT_EQ(hook_calls, 4);
  ASSERT_EQ(hook_size, 4096);
  ASSERT_PTR_EQ(hook_what, kind);
  read_ranges();
  ASSERT_PTR_EQ(listed_as((const void *)(uintptr_t)a), kind);
  ASSERT_PTR_EQ(listed_as((const void *)(uintptr_t)(b + 4096)), kind);
  ASSERT_PTR_EQ(listed_as((const void *)(uintptr_t)low), kind);
  /* The refused block may still be reachable: listed, never handed out. */
  ASSERT_PTR_EQ(listed_as((const void *)(uintptr_t)hook_base), kind);
  /* Neighbours of one kind are one range: as many ranges as the four
   * blocks form runs of adjacent pages. */
  struct {
    uint64_t base, size;
  } blocks[4] = {{a, 4096}, {b, 2 * 4096}, {low, 4096}, {hook_base, 4096}};
  for (int i = 0; i < 4; i++) /* sort by base */
    for (int j = i + 1; j < 4; j++)
      if (blocks[j].base < blocks[i].base) {
        typeof(blocks[0]) t = blocks[i];
        blocks[i] = blocks[j], blocks[j] = t;
      }
  unsigned runs = 1, of_kind = 0;
  for (int i = 0; i + 1 < 4; i++) runs += blocks[i].base + blocks[i].size != blocks[i + 1].base;
  for (size_t i = 0; i < range_count; i++) of_kind += ranges[i].what == kind;
  ASSERT_EQ(of_kind, runs);
}
