/*
 * elf_format.h - the parts of the ELF64 format an AMDGPU code object uses.
 *
 * Our own definitions, so that the loader builds the same in the image
 * (newlib has no <elf.h>) and on the host. Layouts and values:
 *   - System V ABI, "ELF-64 Object File Format" and gABI chapter 4/5
 *     (header, section header, symbol, relocation with addend, program
 *     header, note);
 *   - LLVM AMDGPUUsage, sections "ELF Code Object" (header fields, e_flags,
 *     EF_AMDGPU_MACH values), "Note Records" and "Relocation Records".
 * Every field is read through memcpy (elf_read_* in code_object.c), never by
 * casting into the file, so an unaligned or truncated file cannot fault.
 */
#ifndef HSA_LOADER_ELF_FORMAT_H
#define HSA_LOADER_ELF_FORMAT_H

#include <stdint.h>

/* e_ident[] indexes and values (gABI "ELF Identification"). */
#define ELF_EI_CLASS      4
#define ELF_EI_DATA       5
#define ELF_EI_VERSION    6
#define ELF_EI_OSABI      7
#define ELF_EI_ABIVERSION 8
#define ELF_CLASS64       2
#define ELF_DATA2LSB      1
#define ELF_EV_CURRENT    1

/* AMDGPUUsage "ELF Header": OS ABI and the code object version it implies. */
#define ELF_OSABI_AMDGPU_HSA         64
#define ELF_ABIVERSION_AMDGPU_HSA_V4 2
#define ELF_ABIVERSION_AMDGPU_HSA_V5 3
#define ELF_ABIVERSION_AMDGPU_HSA_V6 4

#define ELF_ET_DYN    3
#define ELF_EM_AMDGPU 224

/* AMDGPUUsage "AMDGPU ELF Header e_flags for Code Object V4 and After" and
 * "... V6 and After". */
#define EF_AMDGPU_MACH                   0x0ffu
#define EF_AMDGPU_FEATURE_XNACK_V4       0x300u
#define EF_AMDGPU_FEATURE_XNACK_ANY_V4   0x100u
#define EF_AMDGPU_FEATURE_XNACK_OFF_V4   0x200u
#define EF_AMDGPU_FEATURE_XNACK_ON_V4    0x300u
#define EF_AMDGPU_FEATURE_SRAMECC_V4     0xc00u
#define EF_AMDGPU_FEATURE_SRAMECC_ANY_V4 0x400u
#define EF_AMDGPU_FEATURE_SRAMECC_OFF_V4 0x800u
#define EF_AMDGPU_FEATURE_SRAMECC_ON_V4  0xc00u
#define EF_AMDGPU_GENERIC_VERSION        0xff000000u
#define EF_AMDGPU_GENERIC_VERSION_SHIFT  24

/* Program header types and flags (gABI "Program Header"). */
#define ELF_PT_LOAD    1
#define ELF_PT_DYNAMIC 2
#define ELF_PF_X       1
#define ELF_PF_W       2
#define ELF_PF_R       4

/* Section header types and flags (gABI "Sections"). */
#define ELF_SHN_UNDEF     0
#define ELF_SHN_LORESERVE 0xff00
#define ELF_SHN_ABS       0xfff1
#define ELF_SHN_COMMON    0xfff2
#define ELF_SHT_NULL      0
#define ELF_SHT_PROGBITS  1
#define ELF_SHT_SYMTAB    2
#define ELF_SHT_STRTAB    3
#define ELF_SHT_RELA      4
#define ELF_SHT_NOTE      7
#define ELF_SHT_NOBITS    8
#define ELF_SHT_REL       9
#define ELF_SHT_DYNSYM    11
#define ELF_SHF_WRITE     0x1
#define ELF_SHF_ALLOC     0x2
#define ELF_SHF_EXECINSTR 0x4

/* Symbol binding, type and visibility (gABI "Symbol Table"). */
#define ELF_STB_LOCAL            0
#define ELF_STB_GLOBAL           1
#define ELF_STB_WEAK             2
#define ELF_STT_NOTYPE           0
#define ELF_STT_OBJECT           1
#define ELF_STT_FUNC             2
#define ELF_STT_COMMON           5
#define ELF_ST_BIND(info)        ((info) >> 4)
#define ELF_ST_TYPE(info)        ((info)&0xf)
#define ELF_ST_VISIBILITY(other) ((other)&0x3)
#define ELF_R_SYM(info)          ((uint32_t)((info) >> 32))
#define ELF_R_TYPE(info)         ((uint32_t)(info))

/* AMDGPUUsage "AMDGPU ELF Relocation Records". */
#define R_AMDGPU_NONE          0
#define R_AMDGPU_ABS32_LO      1
#define R_AMDGPU_ABS32_HI      2
#define R_AMDGPU_ABS64         3
#define R_AMDGPU_REL32         4
#define R_AMDGPU_REL64         5
#define R_AMDGPU_ABS32         6
#define R_AMDGPU_GOTPCREL      7
#define R_AMDGPU_GOTPCREL32_LO 8
#define R_AMDGPU_GOTPCREL32_HI 9
#define R_AMDGPU_REL32_LO      10
#define R_AMDGPU_REL32_HI      11
#define R_AMDGPU_RELATIVE64    13
#define R_AMDGPU_REL16         14

/* AMDGPUUsage "Code Object V3 and Above Note Records": owner "AMDGPU". */
#define NT_AMDGPU_METADATA 32

/* On-disk sizes of the records (ELF-64 Object File Format, tables 2-8). */
#define ELF64_EHDR_SIZE 64
#define ELF64_PHDR_SIZE 56
#define ELF64_SHDR_SIZE 64
#define ELF64_SYM_SIZE  24
#define ELF64_RELA_SIZE 24
#define ELF64_REL_SIZE  16

/* Decoded records: the loader fills these from the file's bytes. */
struct elf64_ehdr {
  uint8_t ident[16];
  uint16_t type, machine;
  uint32_t version;
  uint64_t entry, phoff, shoff;
  uint32_t flags;
  uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct elf64_phdr {
  uint32_t type, flags;
  uint64_t offset, vaddr, paddr, filesz, memsz, align;
};

struct elf64_shdr {
  uint32_t name, type;
  uint64_t flags, addr, offset, size;
  uint32_t link, info;
  uint64_t addralign, entsize;
};

struct elf64_sym {
  uint32_t name;
  uint8_t info, other;
  uint16_t shndx;
  uint64_t value, size;
};

struct elf64_rela {
  uint64_t offset, info;
  int64_t addend;
};

#endif
