/* The kernel's identity map, checked entry by entry against what vm.h
 * promises (W^X image regions, guard pages, uncached MMIO, large pages),
 * and the driver interface (vm_map_mmio, vm_set_attrs and its refusals). */
#include <stdint.h>
#include <stdlib.h>

#include "kernel/frames.h"
#include "kernel/kstack.h"
#include "kernel/vm.h"
#include "lib/plat.h"
#include "lib/test.h"

extern const char __text_start[], __rodata_start[], __data_start[];
static int data_word = 42;

TEST(vm_text_is_read_execute) {
  uint64_t ps;
  unsigned a = vm_query((uint64_t)(uintptr_t)__text_start, &ps);
  ASSERT_EQ(a & (PT_PRESENT | PT_WRITE | PT_EXEC), PT_PRESENT | PT_EXEC);
  ASSERT_EQ(ps, 4096);
}

TEST(vm_rodata_is_read_only_no_execute) {
  uint64_t ps;
  unsigned a = vm_query((uint64_t)(uintptr_t)__rodata_start, &ps);
  ASSERT_EQ(a & (PT_PRESENT | PT_WRITE | PT_EXEC), PT_PRESENT);
}

TEST(vm_data_heap_stack_are_write_no_execute) {
  uint64_t ps;
  int local = 1;
  void *heap = malloc(16);
  ASSERT_NOT_NULL(heap);
  uint64_t addrs[] = {(uint64_t)(uintptr_t)&data_word, (uint64_t)(uintptr_t)heap,
                      (uint64_t)(uintptr_t)&local};
  for (unsigned i = 0; i < 3; i++) {
    unsigned a = vm_query(addrs[i], &ps);
    ASSERT_EQ(a & (PT_PRESENT | PT_WRITE | PT_EXEC), PT_PRESENT | PT_WRITE);
    ASSERT_EQ(a & PT_CACHE_MASK, PT_CACHE_WB);
  }
  free(heap);
}

TEST(vm_page_zero_and_stack_guard_are_unmapped) {
  uint64_t ps;
  ASSERT_EQ(vm_query(0, &ps), 0);
  int local;
  uint64_t sp = (uint64_t)(uintptr_t)&local;
  /* Walk down from here to the first unmapped page: it must be a guard. */
  uint64_t page = sp & ~4095ull;
  while (vm_query(page, &ps) & PT_PRESENT) page -= 4096;
  ASSERT_NOT_NULL(kstack_guard_at(page));
}

/* The local APIC page (Intel SDM vol. 3A, 11.4.1: 0xfee00000 by default) is
 * MMIO: uncached and not executable. */
TEST(vm_mmio_is_uncached) {
  uint64_t ps;
  unsigned a = vm_query(0xfee00000ull, &ps);
  ASSERT_EQ(a & (PT_PRESENT | PT_EXEC), PT_PRESENT);
  ASSERT_EQ(a & PT_CACHE_MASK, PT_CACHE_UC);
}

TEST(vm_ram_uses_large_pages) {
  /* RAM away from the image and stacks sits in 2 MiB or 1 GiB pages, and
   * so does the MMIO hole below 4 GiB. */
  uint64_t ps = 0;
  unsigned a = vm_query(512ull << 20, &ps); /* RAM in a 1 GiB q35 guest */
  ASSERT_EQ(a & PT_CACHE_MASK, PT_CACHE_WB);
  ASSERT_GE(ps, 2ull << 20);
  a = vm_query(3ull << 30, &ps);
  ASSERT_EQ(a & PT_CACHE_MASK, PT_CACHE_UC);
  ASSERT_EQ(ps, 1ull << 30);
}

TEST(vm_set_attrs_changes_and_restores) {
  uint64_t page = frames_alloc(4096, 4096);
  ASSERT_NE(page, 0);
  uint64_t ps;
  ASSERT_EQ(vm_set_attrs(page, 4096, VM_READONLY), 0);
  ASSERT_EQ(vm_query(page, &ps) & (PT_PRESENT | PT_WRITE), PT_PRESENT);
  ASSERT_EQ(ps, 4096);
  ASSERT_EQ(vm_set_attrs(page, 4096, VM_MMIO_WC), 0);
  ASSERT_EQ(vm_query(page, &ps) & PT_CACHE_MASK, PT_CACHE_WC);
  ASSERT_EQ(vm_set_attrs(page, 4096, VM_RAM), 0);
  *(volatile uint64_t *)(uintptr_t)page = 7;
  frames_free(page, 4096);
}

TEST(vm_set_attrs_refuses_wx_and_bad_ranges) {
  uint64_t page = frames_alloc(4096, 4096);
  ASSERT_NE(page, 0);
  ASSERT_EQ(vm_set_attrs(page, 4096, VM_RAM | PT_EXEC), -1);
  ASSERT_EQ(vm_set_attrs((uint64_t)(uintptr_t)__text_start, 4096, VM_RAM), -1);
  ASSERT_EQ(vm_set_attrs(page + 1, 4096, VM_RAM), -1);
  ASSERT_EQ(vm_set_attrs(page, 0, VM_RAM), -1);
  frames_free(page, 4096);
}

TEST(vm_map_mmio_above_the_map) {
  /* 64 GiB is above what a 1 GiB guest's map covers; a BAR could be there. */
  uint64_t bar = 64ull << 30, ps;
  ASSERT_EQ(vm_map_mmio(bar + 0x10, 0x2000), 0);
  unsigned a = vm_query(bar, &ps);
  ASSERT_EQ(a & (PT_PRESENT | PT_WRITE | PT_EXEC), PT_PRESENT | PT_WRITE);
  ASSERT_EQ(a & PT_CACHE_MASK, PT_CACHE_UC);
  ASSERT_EQ(vm_map_mmio((uint64_t)(uintptr_t)__text_start, 4096), -1);
  ASSERT_EQ(vm_map_mmio(bar, 0), -1);
}

/* Guard pages for a batch of stacks (plat_code_protect_each, the CPU
 * agents' work-item stacks): every range of the batch changes, the pages
 * between them do not, and bad batches are refused. */
TEST(vm_set_code_attrs_each_changes_every_range_of_a_batch) {
  uint64_t base = frames_alloc(6 * 4096, 4096), ps;
  ASSERT_NE(base, 0);
  ASSERT_EQ(vm_set_code_attrs_each(base, 3, 2 * 4096, 4096, 0), 0);
  for (uint64_t i = 0; i < 6; i++) {
    unsigned a = vm_query(base + i * 4096, &ps);
    test_context("page %llu", (unsigned long long)i);
    ASSERT_EQ(a & (PT_PRESENT | PT_WRITE), i % 2 ? PT_PRESENT | PT_WRITE : 0);
  }
  ASSERT_EQ(vm_set_code_attrs_each(base, 0, 4096, 4096, 0), -1);     /* no range */
  ASSERT_EQ(vm_set_code_attrs_each(base, 2, 4096, 8192, 0), -1);     /* overlapping */
  ASSERT_EQ(vm_set_code_attrs_each(base, 2, 4096 + 8, 4096, 0), -1); /* misaligned stride */
  ASSERT_EQ(vm_set_code_attrs_each(base, 2, 8192, 4096, VM_RAM | PT_EXEC), -1); /* W+X */
  ASSERT_EQ(vm_set_code_attrs_each((uint64_t)(uintptr_t)__text_start, 2, 8192, 4096, 0), -1);
  ASSERT_EQ(vm_set_code_attrs_each(base, UINT64_MAX / 4096, 8192, 4096, 0), -1); /* wraps */
  ASSERT_EQ(vm_set_code_attrs(base, 6 * 4096, VM_RAM), 0);
  *(volatile uint64_t *)(uintptr_t)base = 7;
  frames_free(base, 6 * 4096);
}
