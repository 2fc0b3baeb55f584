/*
 * relocate.c - applies the image's own relative relocations before anything
 * else runs. GNU-EFI's crt0 (crt0-efi-x86_64.S) calls
 * _relocate(ImageBase, _DYNAMIC, image, systab) first; this definition takes
 * the place of GNU-EFI's reloc_x86_64.c, which reads only DT_RELA, because
 * the image is linked with -z pack-relative-relocs (mk/image.mk): its relative
 * relocations are in the packed DT_RELR table, 8 bytes for up to 63
 * consecutive words instead of 24 bytes for each.
 *
 * Both tables, as the System V gABI defines them ("Dynamic Section";
 * DT_RELR = 36, DT_RELRSZ = 35, DT_RELRENT = 37, as in Linux's
 * include/uapi/linux/elf.h):
 *  - DT_RELA: Elf64_Rela {r_offset, r_info, r_addend}; the build accepts
 *    only R_X86_64_RELATIVE (type 8, x86-64 psABI "Relocation Types"),
 *    word at r_offset = base + r_addend (boot/check_image.sh);
 *  - DT_RELR: a word with bit 0 clear is an address: the word there gets
 *    the base added, and the next address is the word after it; a word with
 *    bit 0 set is a bitmap of the 63 words from that next address on (bit
 *    i + 1 for word i), after which the next address moves 63 words on.
 *    Addends are the words' link-time contents.
 *
 * Runs before its own relocations are applied: it reads no pointer from
 * data, only RIP-relative addresses and the firmware's table. A table it
 * cannot apply ends the image at once (EFI_BOOT_SERVICES.Exit, UEFI 2.10
 * 7.4.5): crt0 does not look at the status it returns.
 */
#include <efi.h>
#include <efiapi.h>
#include <stdint.h>

enum {
  DT_NULL = 0, DT_RELA = 7, DT_RELASZ = 8, DT_RELAENT = 9, DT_REL = 17,
  DT_RELRSZ = 35, DT_RELR = 36, DT_RELRENT = 37,
};
#define R_X86_64_RELATIVE 8

struct elf64_dyn {
  int64_t tag;
  uint64_t val;
};

struct elf64_rela {
  uint64_t offset, info;
  int64_t addend;
};

EFI_STATUS _relocate(uint64_t base, const struct elf64_dyn *dyn, EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

static EFI_STATUS relocation_failed(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab, CHAR16 *why) {
  uefi_call_wrapper(systab->ConOut->OutputString, 2, systab->ConOut, why);
  uefi_call_wrapper(systab->BootServices->Exit, 4, image, EFI_LOAD_ERROR, 0, NULL);
  return EFI_LOAD_ERROR;
}

EFI_STATUS _relocate(uint64_t base, const struct elf64_dyn *dyn, EFI_HANDLE image, EFI_SYSTEM_TABLE *systab) {
  uint64_t rela = 0, relasz = 0, relaent = sizeof(struct elf64_rela);
  uint64_t relr = 0, relrsz = 0, relrent = sizeof(uint64_t);
  for (; dyn->tag != DT_NULL; dyn++) {
    switch (dyn->tag) {
      case DT_RELA: rela = dyn->val; break;
      case DT_RELASZ: relasz = dyn->val; break;
      case DT_RELAENT: relaent = dyn->val; break;
      case DT_RELR: relr = dyn->val; break;
      case DT_RELRSZ: relrsz = dyn->val; break;
      case DT_RELRENT: relrent = dyn->val; break;
      case DT_REL:
        return relocation_failed(image, systab, u"image: DT_REL relocations (x86-64 uses RELA)\r\n");
      default: break;
    }
  }
  if (relaent != sizeof(struct elf64_rela) || relrent != sizeof(uint64_t))
    return relocation_failed(image, systab, u"image: unexpected DT_RELAENT or DT_RELRENT\r\n");

  for (uint64_t off = 0; relasz && off < relasz; off += relaent) {
    const struct elf64_rela *r = (const struct elf64_rela *)(base + rela + off);
    if ((uint32_t)r->info != R_X86_64_RELATIVE)
      return relocation_failed(image, systab, u"image: a relocation other than R_X86_64_RELATIVE\r\n");
    *(uint64_t *)(base + r->offset) = base + (uint64_t)r->addend;
  }

  const uint64_t *entry = (const uint64_t *)(base + relr);
  uint64_t *where = NULL;
  for (uint64_t i = 0; i < relrsz / sizeof(uint64_t); i++) {
    uint64_t w = entry[i];
    if (!(w & 1)) {
      where = (uint64_t *)(base + w);
      *where++ += base;
      continue;
    }
    if (!where)
      return relocation_failed(image, systab, u"image: DT_RELR starts with a bitmap\r\n");
    for (unsigned bit = 0; (w >>= 1) != 0; bit++)
      if (w & 1) where[bit] += base;
    where += 63;
  }
  return EFI_SUCCESS;
}
