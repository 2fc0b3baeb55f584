/* The hand-off from boot/ (boot/boot_info.h) as the kernel received it in
 * QEMU: every field checked against what the firmware must have given. */
#include <string.h>

#include "boot/boot_info.h"
#include "kernel/kernel.h"
#include "kernel/time.h"
#include "lib/test.h"

extern const char ImageBase[];

TEST(boot_info_rsdp_is_acpi2) {
  const struct boot_info *b = kernel_boot_info();
  ASSERT_NOT_NULL(b);
  ASSERT_EQ_U(b->magic, BOOT_INFO_MAGIC);
  ASSERT_NE(b->acpi_rsdp, 0);
  ASSERT_EQ(b->acpi_revision, 2);
  /* ACPI 6.5, 5.2.5.3: the RSDP starts with "RSD PTR ". */
  ASSERT_MEM_EQ((const void *)(uintptr_t)b->acpi_rsdp, "RSD PTR ", 8);
}

TEST(boot_info_memory_map_sorted_and_sane) {
  const struct boot_info *b = kernel_boot_info();
  ASSERT_GT(b->mem_count, 10);
  uint64_t ram = 0;
  bool image_in_loader_code = false;
  for (uint32_t i = 0; i < b->mem_count; i++) {
    const struct boot_mem_range *r = &b->mem[i];
    ASSERT_EQ(r->base % 4096, 0);
    ASSERT_LT(r->type, EFI_MEM_TYPE_COUNT);
    if (i > 0) ASSERT_LE(b->mem[i - 1].base + b->mem[i - 1].pages * 4096, r->base);
    if (r->type == EFI_MEM_CONVENTIONAL || r->type == EFI_MEM_BOOT_SERVICES_DATA ||
        r->type == EFI_MEM_LOADER_DATA)
      ram += r->pages * 4096;
    if (r->type == EFI_MEM_LOADER_CODE && r->base <= b->image_base &&
        b->image_base < r->base + r->pages * 4096)
      image_in_loader_code = true;
  }
  ASSERT_GT(ram, 256ull << 20);
  ASSERT_TRUE(image_in_loader_code);
  ASSERT_PTR_EQ(b->image_base, (uintptr_t)ImageBase);
  ASSERT_GE(b->exit_boot_attempts, 1);
}

TEST(boot_info_framebuffer_from_gop) {
  /* QEMU's standard VGA (00:01.0) gives OVMF a GOP with a linear framebuffer. */
  const struct boot_framebuffer *fb = &kernel_boot_info()->framebuffer;
  ASSERT_NE(fb->base, 0);
  ASSERT_GE(fb->width, 640);
  ASSERT_GE(fb->height, 480);
  ASSERT_GE(fb->pixels_per_line, fb->width);
  ASSERT_GE(fb->size, (uint64_t)fb->pixels_per_line * fb->height * 4);
  ASSERT_NE(fb->format, BOOT_PIXEL_OTHER);
}

TEST(boot_info_stages_and_clocks) {
  const struct boot_info *b = kernel_boot_info();
  ASSERT_EQ(b->stage_count, 5);
  uint64_t prev = b->entry_tsc;
  for (uint32_t i = 0; i < b->stage_count; i++) {
    ASSERT_NOT_NULL(b->stages[i].name);
    ASSERT_GE(b->stages[i].tsc, prev);
    prev = b->stages[i].tsc;
  }
  /* boot/'s Stall estimate against the calibrated frequency. A Stall lasts
   * at least what was asked, so the estimate is not much below; under
   * emulation on a loaded host it can be far above (the virtual CPU is
   * descheduled during the Stall), so the upper bound only catches unit
   * errors. */
  uint64_t hz = time_tsc_hz();
  ASSERT_GT(b->tsc_hz, hz - hz / 10);
  ASSERT_LT(b->tsc_hz, hz * 20);
  ASSERT_GT(b->unix_time, 1600000000);
}

TEST(boot_info_command_line_and_stack) {
  const struct boot_info *b = kernel_boot_info();
  ASSERT_TRUE(strstr(b->cmdline, "test=") != NULL);
  /* OVMF's boot entry passes binary load options: the line comes from the
   * file, and the source says why. */
  ASSERT_EQ(strncmp(b->cmdline_source, "\\cmdline.txt", 12), 0);
  int local;
  uint64_t sp = (uint64_t)(uintptr_t)&local;
  ASSERT_TRUE(sp > b->stack.base + 4096 && sp < b->stack.base + b->stack.size);
  ASSERT_NOT_NULL(b->bootfs);
  ASSERT_EQ(b->heap_base % 4096, 0);
}
