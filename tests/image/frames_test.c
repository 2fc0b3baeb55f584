/* The frame allocator's handling of the firmware's boot-services code
 * (kernel/frames.c): such memory is free but handed out only when nothing
 * else fits, and cleared before it is. */
#include <string.h>

#include "boot/boot_info.h"
#include "kernel/frames.h"
#include "kernel/kernel.h"
#include "lib/test.h"

/* A page of the firmware's code that is still free: claimed, so it is ours. */
static uint64_t claim_firmware_code_page(void) {
  const struct boot_info *info = kernel_boot_info();
  for (uint32_t i = 0; i < info->mem_count; i++) {
    const struct boot_mem_range *r = &info->mem[i];
    if (r->type != EFI_MEM_BOOT_SERVICES_CODE) continue;
    for (uint64_t p = 0; p < r->pages; p++) {
      uint64_t page = r->base + p * FRAME_SIZE;
      if (page != 0 && frames_claim(page, FRAME_SIZE) == 0) return page;
    }
  }
  return 0;
}

TEST(frames_firmware_code_is_cleared_when_handed_out) {
  uint64_t free_before = frames_free_bytes();
  uint64_t page = claim_firmware_code_page();
  if (!page) test_skip("the memory map has no free boot-services code page");
  const uint8_t *bytes = (const uint8_t *)(uintptr_t)page;
  for (size_t i = 0; i < FRAME_SIZE; i++)
    if (bytes[i]) FAIL("byte %zu of 0x%llx is 0x%02x, not cleared", i,
                            (unsigned long long)page, bytes[i]);
  ASSERT_EQ_U(frames_free_bytes(), free_before - FRAME_SIZE);
  memset((void *)(uintptr_t)page, 0x5a, FRAME_SIZE);
  frames_free(page, FRAME_SIZE); /* back as ordinary memory */
  ASSERT_EQ_U(frames_free_bytes(), free_before);
  /* Freeing it twice is refused, whichever set it is in. */
  frames_free(page, FRAME_SIZE);
  ASSERT_EQ_U(frames_free_bytes(), free_before);
}

/* The last page of a boot-services code range of two pages or more: the
 * test above takes first pages, nothing else takes firmware code while
 * other memory is free. */
static uint64_t last_firmware_code_page(void) {
  const struct boot_info *info = kernel_boot_info();
  for (uint32_t i = 0; i < info->mem_count; i++) {
    const struct boot_mem_range *r = &info->mem[i];
    if (r->type == EFI_MEM_BOOT_SERVICES_CODE && r->pages >= 2 && r->base)
      return r->base + (r->pages - 1) * FRAME_SIZE;
  }
  return 0;
}

TEST(frames_free_refuses_firmware_code_never_handed_out) {
  uint64_t page = last_firmware_code_page();
  if (!page) test_skip("the memory map has no boot-services code range of two pages");
  uint64_t free_before = frames_free_bytes();
  frames_free(page, FRAME_SIZE); /* free already: refused, counted once */
  ASSERT_EQ_U(frames_free_bytes(), free_before);
  ASSERT_EQ(frames_claim(page, FRAME_SIZE), 0); /* still free, still firmware code */
  ASSERT_EQ(*(const volatile uint8_t *)(uintptr_t)page, 0);
  frames_free(page, FRAME_SIZE);
  ASSERT_EQ_U(frames_free_bytes(), free_before);
}
