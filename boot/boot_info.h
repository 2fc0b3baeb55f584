/*
 * boot_info.h - what boot/ hands to kernel/ after ExitBootServices.
 *
 * boot/ fills one struct boot_info while the firmware still runs, then leaves
 * the firmware and calls kernel_start() on the stack it allocated. Every
 * pointer is a physical address (the firmware's map and ours are both
 * identity maps) into memory of type EfiLoaderData, which the kernel keeps.
 * Nothing here refers to a UEFI header, so that kernel/ and the host tests
 * can use it without GNU-EFI.
 */
#ifndef BOOT_BOOT_INFO_H
#define BOOT_BOOT_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* UEFI memory types and attributes the kernel cares about (UEFI 2.10,
 * 7.2 "EFI_BOOT_SERVICES.AllocatePages", table "Memory Type Usage"). */
enum efi_memory_type {
  EFI_MEM_RESERVED = 0,
  EFI_MEM_LOADER_CODE = 1,
  EFI_MEM_LOADER_DATA = 2,
  EFI_MEM_BOOT_SERVICES_CODE = 3,
  EFI_MEM_BOOT_SERVICES_DATA = 4,
  EFI_MEM_RUNTIME_SERVICES_CODE = 5,
  EFI_MEM_RUNTIME_SERVICES_DATA = 6,
  EFI_MEM_CONVENTIONAL = 7,
  EFI_MEM_UNUSABLE = 8,
  EFI_MEM_ACPI_RECLAIM = 9,
  EFI_MEM_ACPI_NVS = 10,
  EFI_MEM_MMIO = 11,
  EFI_MEM_MMIO_PORT_SPACE = 12,
  EFI_MEM_PAL_CODE = 13,
  EFI_MEM_PERSISTENT = 14,
  EFI_MEM_TYPE_COUNT
};
/* Memory types that are RAM (everything but reserved, unusable, MMIO, PAL). */
static inline bool boot_mem_type_is_ram(uint32_t type) {
  switch (type) {
    case EFI_MEM_LOADER_CODE:
    case EFI_MEM_LOADER_DATA:
    case EFI_MEM_BOOT_SERVICES_CODE:
    case EFI_MEM_BOOT_SERVICES_DATA:
    case EFI_MEM_RUNTIME_SERVICES_CODE:
    case EFI_MEM_RUNTIME_SERVICES_DATA:
    case EFI_MEM_CONVENTIONAL:
    case EFI_MEM_ACPI_RECLAIM:
    case EFI_MEM_ACPI_NVS:
    case EFI_MEM_PERSISTENT:
      return true;
    default:
      return false;
  }
}
#define EFI_MEM_ATTR_UC 0x1ull /* EFI_MEMORY_UC */
#define EFI_MEM_ATTR_WB 0x8ull /* EFI_MEMORY_WB */

/* One range of the firmware's memory map, in our own fixed layout (the
 * firmware's descriptor stride varies; boot/ copies the fields over). */
struct boot_mem_range {
  uint64_t base;  /* physical, 4 KiB aligned */
  uint64_t pages; /* 4 KiB pages */
  uint32_t type;  /* enum efi_memory_type */
  uint32_t pad;
  uint64_t attr; /* EFI_MEMORY_* capability bits */
};

/* The GOP framebuffer, when the firmware has one (UEFI 2.10, 12.9). */
enum boot_pixel_format { BOOT_PIXEL_RGBX = 0, BOOT_PIXEL_BGRX = 1, BOOT_PIXEL_OTHER = 2 };
struct boot_framebuffer {
  uint64_t base; /* physical; 0 when there is no framebuffer */
  uint64_t size; /* bytes */
  uint32_t width, height;
  uint32_t pixels_per_line;
  uint32_t format; /* enum boot_pixel_format */
};

/* A stack boot/ allocated: [base, base + size) with the lowest page reserved
 * as the guard page that the kernel unmaps. */
struct boot_stack {
  uint64_t base;
  uint64_t size;
};

/* ---- The boot file system ------------------------------------------------
 * Read-only, one contiguous page-aligned block:
 *   struct bootfs_header, header.count x struct bootfs_entry,
 *   the names (NUL-terminated, "/amdgpu/raven_mec.bin"), then the file
 *   contents, each BOOTFS_DATA_ALIGN aligned.
 * Offsets count from the start of the header. The writer is boot/bootfs_build.c,
 * the reader kernel/bootfs.c, which checks every offset before use. */
#define BOOTFS_MAGIC      0x53466f6f42737368ull /* "hssBooFS" */
#define BOOTFS_DATA_ALIGN 64
struct bootfs_header {
  uint64_t magic;
  uint64_t total_size; /* of the whole block, header included */
  uint32_t count;      /* entries */
  uint32_t pad;
};
struct bootfs_entry {
  uint64_t name_offset;
  uint64_t data_offset;
  uint64_t size;
};

/* A step of efi_main and when it ended: the kernel prints the list, so the
 * boot log shows every stage with its time since efi_main. */
#define BOOT_STAGES_MAX 12
struct boot_stage {
  const char *name;
  uint64_t tsc;
};

/* ---- The hand-off ---------------------------------------------------------*/
#define BOOT_INFO_MAGIC 0x6f666e49746f6f42ull /* "BootInfo" */

struct boot_info {
  uint64_t magic;
  uint64_t entry_tsc;         /* TSC when efi_main started: time origin of the log */
  uint64_t tsc_hz;            /* TSC ticks per second, measured with BS->Stall */
  int64_t unix_time;          /* seconds since 1970 at entry (RT->GetTime), 0 if unknown */
  const char *cmdline;        /* boot options, NUL-terminated ASCII ("" if none) */
  const char *cmdline_source; /* "load options", "\cmdline.txt" or "none" */

  struct boot_mem_range *mem; /* the final memory map, sorted by base */
  uint32_t mem_count;
  uint32_t exit_boot_attempts; /* ExitBootServices calls it took (stale map key) */

  uint64_t acpi_rsdp;     /* physical address of the RSDP, 0 if none */
  uint32_t acpi_revision; /* 2 when found through the ACPI 2.0 GUID, else 1 */
  uint32_t pad0;

  struct boot_framebuffer framebuffer;

  uint64_t image_base; /* where the firmware loaded this image */
  uint64_t image_size;

  const struct bootfs_header *bootfs; /* never NULL: empty when no files */

  struct boot_stage stages[BOOT_STAGES_MAX];
  uint32_t stage_count;
  uint32_t pad1;

  struct boot_stack stack; /* the boot core's stack, which kernel_start runs on */
  uint64_t heap_base;      /* the heap's first pages (AllocatePages), */
  uint64_t heap_size;      /* from which the kernel starts before it owns RAM */
};

/* Entered once, on boot_info->stack, with the firmware gone. Never returns. */
void kernel_start(struct boot_info *info) __attribute__((noreturn));

#endif
