/* efi_util.c - firmware tables, pages, fatal errors, the memory map. */
#include "boot/efi_util.h"

#include <efiapi.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

EFI_SYSTEM_TABLE *efi_st;
EFI_BOOT_SERVICES *efi_bs;
EFI_RUNTIME_SERVICES *efi_rt;

void boot_util_init(EFI_SYSTEM_TABLE *systab) {
  efi_st = systab;
  efi_bs = systab->BootServices;
  efi_rt = systab->RuntimeServices;
}

void boot_print(const char *fmt, ...) {
  char line[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  /* The firmware console takes UCS-2 and wants CR LF. */
  CHAR16 out[2 * sizeof line + 3];
  size_t n = 0;
  for (const char *c = line; *c; c++) {
    if (*c == '\n') out[n++] = u'\r';
    out[n++] = (CHAR16)(unsigned char)*c;
  }
  out[n++] = u'\r';
  out[n++] = u'\n';
  out[n] = 0;
  efi_st->ConOut->OutputString(efi_st->ConOut, out);
}

void boot_fatal(const char *what, EFI_STATUS st) {
  boot_print("boot: %s failed: EFI status 0x%llx", what, (unsigned long long)st);
  /* UEFI 2.10, 8.5.1: ResetSystem is a runtime service, usable before and
   * after ExitBootServices. In QEMU with -no-reboot a shutdown ends QEMU. */
  efi_rt->ResetSystem(EfiResetShutdown, st, 0, NULL);
  for (;;) __asm__ volatile("cli; hlt");
}

void *boot_alloc_pages(size_t size, const char *what) {
  EFI_PHYSICAL_ADDRESS addr = 0;
  EFI_STATUS st =
      efi_bs->AllocatePages(AllocateAnyPages, EfiLoaderData, EFI_SIZE_TO_PAGES(size), &addr);
  if (EFI_ERROR(st)) {
    boot_print("boot: cannot allocate %zu bytes for the %s", size, what);
    boot_fatal("AllocatePages", st);
  }
  return (void *)(uintptr_t)addr;
}

void boot_free_pages(void *p, size_t size) {
  efi_bs->FreePages((EFI_PHYSICAL_ADDRESS)(uintptr_t)p, EFI_SIZE_TO_PAGES(size));
}

void boot_trim(char *s) {
  size_t start = 0, len = strlen(s);
  while (s[start] == ' ') start++;
  while (len > start && s[len - 1] == ' ') len--;
  memmove(s, s + start, len - start);
  s[len - start] = '\0';
}

void boot_largest_free_range(uint64_t *base, uint64_t *pages) {
  UINTN map_size = 0, key, desc_size;
  UINT32 version;
  efi_bs->GetMemoryMap(&map_size, NULL, &key, &desc_size, &version);
  map_size += 8 * desc_size;
  UINT8 *raw = NULL;
  EFI_STATUS st = efi_bs->AllocatePool(EfiLoaderData, map_size, (void **)&raw);
  if (EFI_ERROR(st)) boot_fatal("AllocatePool for the memory map", st);
  st = efi_bs->GetMemoryMap(&map_size, (EFI_MEMORY_DESCRIPTOR *)raw, &key, &desc_size, &version);
  if (EFI_ERROR(st)) boot_fatal("GetMemoryMap", st);
  *base = 0;
  *pages = 0;
  for (UINTN off = 0; off + desc_size <= map_size; off += desc_size) {
    const EFI_MEMORY_DESCRIPTOR *d = (const EFI_MEMORY_DESCRIPTOR *)(raw + off);
    if (d->Type == EfiConventionalMemory && d->NumberOfPages > *pages) {
      *base = d->PhysicalStart;
      *pages = d->NumberOfPages;
    }
  }
  efi_bs->FreePool(raw);
}

uint32_t boot_convert_memory_map(const void *raw, size_t raw_size, size_t desc_size,
                                 struct boot_mem_range *out, size_t max_out) {
  uint32_t n = 0;
  for (size_t off = 0; off + desc_size <= raw_size && n < max_out; off += desc_size) {
    const EFI_MEMORY_DESCRIPTOR *d = (const EFI_MEMORY_DESCRIPTOR *)((const UINT8 *)raw + off);
    struct boot_mem_range r = {
        .base = d->PhysicalStart, .pages = d->NumberOfPages, .type = d->Type, .attr = d->Attribute};
    /* Insertion sort: the map has a few hundred entries at most. */
    uint32_t i = n++;
    while (i > 0 && out[i - 1].base > r.base) {
      out[i] = out[i - 1];
      i--;
    }
    out[i] = r;
  }
  return n;
}
