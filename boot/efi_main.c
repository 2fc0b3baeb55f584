/*
 * efi_main.c - the UEFI entry: gathers what the kernel needs from the
 * firmware, leaves the firmware (ExitBootServices) and enters the kernel on a
 * stack of its own.
 *
 * The steps, in order (each is a function below):
 *   1. the loaded image: where we are, the load options, the boot volume
 *   2. the TSC frequency, measured against efi_bs->Stall
 *   3. the command line: load options, else \cmdline.txt on the boot volume
 *   4. the ACPI RSDP from the configuration table
 *   5. the GOP framebuffer, when there is one
 *   6. the boot file system: files of the ESP folders in bootfs_folders
 *   7. the kernel stack and the first heap pages (AllocatePages)
 *   8. the memory map and ExitBootServices, retried on a stale map key
 *   9. kernel_start(info) on the new stack
 *
 * A failure before step 8 prints one line on the firmware console and
 * shuts the machine down (RT->ResetSystem), so that a test harness sees the
 * error at once instead of a boot menu.
 */
#include <efi.h>
#include <efiapi.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "boot/boot_info.h"
#include "boot/efi_util.h"
#include "lib/util.h"

/* Folders of the boot volume copied into the boot file system, recursively. */
static const CHAR16 *const bootfs_folders[] = {u"\\amdgpu", u"\\data", u"\\kernels"};

#define KERNEL_STACK_SIZE (1024 * 1024) /* the boot core's stack, guard page excluded */
#define INITIAL_HEAP_SIZE (16ull << 20) /* the kernel grows the heap past it later */
#define CMDLINE_MAX       4096

/* Step 1: the loaded image protocol (UEFI 2.10, 9.1). */
static EFI_LOADED_IMAGE *loaded_image(EFI_HANDLE image) {
  EFI_GUID guid = LOADED_IMAGE_PROTOCOL;
  EFI_LOADED_IMAGE *li = NULL;
  EFI_STATUS st = efi_bs->HandleProtocol(image, &guid, (void **)&li);
  if (EFI_ERROR(st)) boot_fatal("no loaded image protocol", st);
  return li;
}

/* Step 2: TSC ticks per second, a first estimate for the kernel's time
 * stamps and time limits until it has measured the TSC against the HPET or
 * PM timer over its first steps. BS->Stall waits at least the given time
 * (UEFI 2.10, 7.5.2) and more when the firmware is interrupted or, in a
 * virtual machine, the virtual CPU is descheduled: the shortest of several
 * short stalls is the closest to the truth. OVMF's Stall polls the ACPI PM
 * timer (3.58 MHz), which puts 500 us within a fraction of a percent. */
#define TSC_STALL_US     500
#define TSC_STALL_ROUNDS 3
static uint64_t measure_tsc_hz(void) {
  uint64_t best = UINT64_MAX;
  for (int i = 0; i < TSC_STALL_ROUNDS; i++) {
    uint64_t t0 = boot_rdtsc();
    efi_bs->Stall(TSC_STALL_US);
    uint64_t ticks = boot_rdtsc() - t0;
    if (ticks < best) best = ticks;
  }
  return best * (1000000 / TSC_STALL_US);
}

/* Step 2b: the wall clock, for gettimeofday (UEFI 2.10, 8.3.1 GetTime).
 * PC firmware keeps the RTC in local time and mostly reports the zone as
 * unspecified; the time is taken as it is (as if UTC). */
static int64_t unix_time_now(void) {
  EFI_TIME t;
  if (EFI_ERROR(efi_rt->GetTime(&t, NULL)) || t.Month < 1 || t.Month > 12) return 0;
  /* Days since 1970-01-01 of a proleptic Gregorian date, counting years
   * from March so that the leap day ends the year. */
  int64_t y = t.Year - (t.Month <= 2);
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (t.Month + (t.Month > 2 ? -3 : 9)) + 2) / 5 + t.Day - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  int64_t days = era * 146097 + doe - 719468;
  return days * 86400 + t.Hour * 3600 + t.Minute * 60 + t.Second;
}

/* Step 3. Load options count only when they are text (UCS-2, printable
 * ASCII up to the first NUL): a firmware boot entry may carry binary
 * OptionalData instead (a GUID, a vendor tag), which is no command line.
 * A UEFI shell passes "program.efi opt=1 ..." (the program name first); a
 * boot entry passes only the options: the first word ending in ".efi" is
 * the shell's program name and is dropped. */
static bool load_options_as_text(const EFI_LOADED_IMAGE *li, char *line) {
  const CHAR16 *opt = li->LoadOptions;
  size_t chars = li->LoadOptionsSize / sizeof(CHAR16);
  if (!opt || chars == 0 || li->LoadOptionsSize % sizeof(CHAR16)) return false;
  size_t len = 0;
  for (size_t i = 0; i < chars && opt[i]; i++) {
    CHAR16 c = opt[i] == u'\t' ? u' ' : opt[i];
    if (c < 0x20 || c > 0x7e || len + 1 >= CMDLINE_MAX) return false;
    line[len++] = (char)c;
  }
  line[len] = '\0';
  const char *first_end = strchr(line, ' ');
  size_t first_len = first_end ? (size_t)(first_end - line) : len;
  if (first_len >= 4 && strncasecmp(line + first_len - 4, ".efi", 4) == 0)
    memmove(line, line + first_len, len - first_len + 1);
  boot_trim(line);
  return true;
}

static const char *command_line(const EFI_LOADED_IMAGE *li, EFI_FILE_HANDLE root,
                                const char **source) {
  char *line = boot_alloc_pages(CMDLINE_MAX, "command line");
  bool text = load_options_as_text(li, line);
  if (text && line[0]) {
    *source = "load options";
    return line;
  }
  line[0] = '\0';
  size_t size = 0;
  void *file = root ? boot_read_file(root, u"\\cmdline.txt", &size, false) : NULL;
  if (file) {
    if (size >= CMDLINE_MAX)
      boot_fatal("\\cmdline.txt: longer than 4095 bytes", EFI_BAD_BUFFER_SIZE);
    memcpy(line, file, size);
    line[size] = '\0';
    for (char *c = line; *c; c++)
      if (*c == '\r' || *c == '\n' || *c == '\t') *c = ' ';
    boot_trim(line);
    boot_free_pages(file, size);
    *source = text ? "\\cmdline.txt" : "\\cmdline.txt (load options were not text)";
    return line;
  }
  *source = text ? "none" : "none (load options were not text)";
  return line;
}

/* Step 4: the RSDP, preferring the ACPI 2.0 entry (UEFI 2.10, 4.6
 * "EFI Configuration Table"). */
static void find_rsdp(struct boot_info *info) {
  EFI_GUID acpi20 = ACPI_20_TABLE_GUID, acpi10 = ACPI_TABLE_GUID;
  for (UINTN i = 0; i < efi_st->NumberOfTableEntries; i++) {
    EFI_CONFIGURATION_TABLE *t = &efi_st->ConfigurationTable[i];
    if (memcmp(&t->VendorGuid, &acpi20, sizeof acpi20) == 0) {
      info->acpi_rsdp = (uint64_t)(uintptr_t)t->VendorTable;
      info->acpi_revision = 2;
      return;
    }
    if (memcmp(&t->VendorGuid, &acpi10, sizeof acpi10) == 0 && !info->acpi_rsdp) {
      info->acpi_rsdp = (uint64_t)(uintptr_t)t->VendorTable;
      info->acpi_revision = 1;
    }
  }
}

/* Step 5: the GOP's current mode (UEFI 2.10, 12.9). */
static void find_framebuffer(struct boot_info *info) {
  EFI_GUID guid = EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID;
  EFI_GRAPHICS_OUTPUT_PROTOCOL *gop = NULL;
  if (EFI_ERROR(efi_bs->LocateProtocol(&guid, NULL, (void **)&gop)) || !gop || !gop->Mode) return;
  EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE *mode = gop->Mode;
  if (mode->Info->PixelFormat == PixelBltOnly) return; /* no linear framebuffer */
  struct boot_framebuffer *fb = &info->framebuffer;
  fb->base = mode->FrameBufferBase;
  fb->size = mode->FrameBufferSize;
  fb->width = mode->Info->HorizontalResolution;
  fb->height = mode->Info->VerticalResolution;
  fb->pixels_per_line = mode->Info->PixelsPerScanLine;
  fb->format = mode->Info->PixelFormat == PixelRedGreenBlueReserved8BitPerColor ? BOOT_PIXEL_RGBX
               : mode->Info->PixelFormat == PixelBlueGreenRedReserved8BitPerColor
                   ? BOOT_PIXEL_BGRX
                   : BOOT_PIXEL_OTHER;
}

/* Step 7: the kernel stack with one guard page below it, and the first heap
 * block at the bottom of the largest free range, so that the kernel can
 * grow the heap upwards into the rest of that range after the exit. */
static void allocate_stack_and_heap(struct boot_info *info) {
  size_t stack_total = KERNEL_STACK_SIZE + EFI_PAGE_SIZE;
  info->stack.base = (uint64_t)(uintptr_t)boot_alloc_pages(stack_total, "kernel stack");
  info->stack.size = stack_total;

  uint64_t base = 0, pages = 0;
  boot_largest_free_range(&base, &pages);
  uint64_t want = INITIAL_HEAP_SIZE / EFI_PAGE_SIZE;
  if (pages < want) boot_fatal("no free memory range for the heap", EFI_OUT_OF_RESOURCES);
  EFI_PHYSICAL_ADDRESS addr = base;
  EFI_STATUS st = efi_bs->AllocatePages(AllocateAddress, EfiLoaderData, want, &addr);
  if (EFI_ERROR(st)) boot_fatal("AllocatePages for the heap", st);
  info->heap_base = addr;
  info->heap_size = INITIAL_HEAP_SIZE;
}

/* Step 8. The map key changes with every allocation, and a firmware event
 * may allocate between GetMemoryMap and ExitBootServices; the call then
 * fails with EFI_INVALID_PARAMETER and we fetch the map again, without
 * allocating (UEFI 2.10, 7.4.6: only GetMemoryMap and ExitBootServices may
 * be called after a failed ExitBootServices). */
static void exit_boot_services(EFI_HANDLE image, struct boot_info *info) {
  UINTN map_size = 0, key = 0, desc_size = 0;
  UINT32 desc_version = 0;
  efi_bs->GetMemoryMap(&map_size, NULL, &key, &desc_size, &desc_version);
  /* Room for what the two allocations below add, and some slack. */
  UINTN capacity = map_size + 32 * desc_size;
  UINT8 *raw = boot_alloc_pages(capacity, "memory map");
  size_t max_ranges = capacity / desc_size;
  struct boot_mem_range *ranges = boot_alloc_pages(max_ranges * sizeof *ranges, "memory ranges");

  for (uint32_t attempt = 1;; attempt++) {
    map_size = capacity;
    EFI_STATUS st = efi_bs->GetMemoryMap(&map_size, (EFI_MEMORY_DESCRIPTOR *)raw, &key, &desc_size,
                                         &desc_version);
    if (EFI_ERROR(st)) boot_fatal("GetMemoryMap", st);
    st = efi_bs->ExitBootServices(image, key);
    if (!EFI_ERROR(st)) {
      info->exit_boot_attempts = attempt;
      break;
    }
    if (st != EFI_INVALID_PARAMETER || attempt == 8) {
      /* The console may be gone already; the kernel never starts. */
      boot_fatal("ExitBootServices", st);
    }
  }
  /* The firmware is gone: no more boot services, no more console. */
  __asm__ volatile("cli");
  info->mem = ranges;
  info->mem_count = boot_convert_memory_map(raw, map_size, desc_size, ranges, max_ranges);
}

static void stage_done(struct boot_info *info, const char *name) {
  if (info->stage_count < BOOT_STAGES_MAX)
    info->stages[info->stage_count++] = (struct boot_stage){name, boot_rdtsc()};
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

/* Zero-initialised data (boot/image.lds): the PE loader zero-fills it, as
 * the PE/COFF specification says; cleared here too, as a C start-up does,
 * before anything uses it (crt0 relocated only initialised data). */
extern char __bss_start[], __bss_end[];

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab) {
  uint64_t entry_tsc = boot_rdtsc();
  memset(__bss_start, 0, (size_t)(__bss_end - __bss_start));
  boot_util_init(systab);

  EFI_LOADED_IMAGE *li = loaded_image(image);
  struct boot_info *info = boot_alloc_pages(sizeof *info, "boot info");
  memset(info, 0, sizeof *info);
  info->magic = BOOT_INFO_MAGIC;
  info->entry_tsc = entry_tsc;
  info->image_base = (uint64_t)(uintptr_t)li->ImageBase;
  info->image_size = li->ImageSize;
  info->tsc_hz = measure_tsc_hz();
  info->unix_time = unix_time_now();
  stage_done(info, "TSC measured, clock read");

  EFI_FILE_HANDLE root = boot_open_volume(li->DeviceHandle); /* NULL: no file system */
  info->cmdline = command_line(li, root, &info->cmdline_source);
  find_rsdp(info);
  find_framebuffer(info);
  stage_done(info, "command line, RSDP, GOP");
  info->bootfs =
      boot_capture_folders(root, bootfs_folders, countof(bootfs_folders));
  if (root) root->Close(root);
  stage_done(info, "boot files captured");
  allocate_stack_and_heap(info);
  stage_done(info, "stack and heap allocated");

  exit_boot_services(image, info);
  stage_done(info, "firmware left (ExitBootServices)");

  /* Enter the kernel on its own stack: the firmware's stack is boot-services
   * memory, which the kernel reclaims. The SysV ABI wants RSP 16-aligned at
   * the call, which a page-aligned stack top is. */
  uint64_t top = info->stack.base + info->stack.size;
  __asm__ volatile(
      "mov %0, %%rsp\n\t"
      "xor %%ebp, %%ebp\n\t"
      "call *%1\n\t"
      "ud2"
      :
      : "r"(top), "r"(kernel_start), "D"(info)
      : "memory");
  __builtin_unreachable();
}
