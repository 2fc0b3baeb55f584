/*
 * code_object.c - parse and check an AMDGPU code object (no GPU memory yet).
 *
 * Facts: System V gABI / ELF-64 Object File Format (headers, sections,
 * symbols, notes, RELA records); LLVM AMDGPUUsage "ELF Code Object" (header
 * values, e_flags), "Note Records" (owner "AMDGPU", NT_AMDGPU_METADATA,
 * 4-byte padding), "Relocation Records", "Kernel Descriptor". Which symbols
 * become HSA symbols follows ROCR-Runtime loader/executable.cpp: kernels are
 * the "<name>.kd" descriptor objects, variables the other global objects;
 * unlike ROCr, kernels are found through the metadata's ".symbol" in the full
 * symbol table, because clang-19 gives C kernels LOCAL/HIDDEN binding.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsa/loader/elf_format.h"
#include "hsa/loader/loader.h"
#include "hsa/loader/report.h"
#include "lib/plat.h"
#include "lib/util.h"

#define LOG_TAG "loader"

/* Limits that keep a hostile file from asking for absurd amounts of memory. */
#define MAX_SEGMENT_SPAN  (1ull << 30) /* vaddr range of all PT_LOAD segments */
#define MAX_SEGMENT_ALIGN (1ull << 20)

/* AMDGPUUsage "Kernel Descriptor": the entry point "must be 256 byte aligned". */
#define KERNEL_CODE_ALIGN 256

struct parse_ctx {
  const uint8_t *img;
  size_t size;
  const char *source;
  char *why;
  size_t why_size;
  struct elf64_ehdr eh;
  uint32_t shnum;
  struct elf64_shdr *sh;
  struct loader_code_object *co;
};

const char *loader_status_name(enum loader_status status) {
  switch (status) {
    case LOADER_OK:
      return "ok";
    case LOADER_ERROR_INVALID_CODE_OBJECT:
      return "invalid code object";
    case LOADER_ERROR_INCOMPATIBLE_ISA:
      return "incompatible ISA";
    case LOADER_ERROR_INVALID_ISA_NAME:
      return "invalid ISA name";
    case LOADER_ERROR_VARIABLE_UNDEFINED:
      return "undefined variable";
    case LOADER_ERROR_OUT_OF_MEMORY:
      return "out of memory";
  }
  return "unknown status";
}

enum loader_status loader_report(enum loader_status status, const char *source, char *why,
                                 size_t why_size, const char *fmt, ...) {
  char line[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  log_error("%s: %s", source, line);
  if (why && why_size) snprintf(why, why_size, "%s: %s", source, line);
  return status;
}

#define BAD(ctx, ...)                                                                         \
  loader_report(LOADER_ERROR_INVALID_CODE_OBJECT, (ctx)->source, (ctx)->why, (ctx)->why_size, \
                __VA_ARGS__)

/* ---- Little-endian field access (never casts into the file) ------------- */

static uint64_t rd(const uint8_t *p, unsigned n) {
  uint64_t v = 0;
  for (unsigned i = n; i-- > 0;) v = (v << 8) | p[i];
  return v;
}
#define RD16(p) ((uint16_t)rd((p), 2))
#define RD32(p) ((uint32_t)rd((p), 4))
#define RD64(p) rd((p), 8)

static bool in_file(const struct parse_ctx *c, uint64_t off, uint64_t len) {
  return off <= c->size && len <= c->size - off;
}

/* A NUL-terminated string at `off` inside string table section `strtab`. */
static const char *string_at(const struct parse_ctx *c, uint32_t strtab, uint64_t off) {
  if (strtab == 0 || strtab >= c->shnum || c->sh[strtab].type != ELF_SHT_STRTAB) return NULL;
  const struct elf64_shdr *s = &c->sh[strtab];
  if (off >= s->size) return NULL;
  const char *p = (const char *)c->img + s->offset + off;
  return memchr(p, '\0', s->size - off) ? p : NULL;
}

static const char *section_name(const struct parse_ctx *c, uint32_t index) {
  const char *n = string_at(c, c->eh.shstrndx, c->sh[index].name);
  return n ? n : "(unnamed)";
}

/* The PT_LOAD segment holding [vaddr, vaddr + len), NULL if none. With
 * `file_backed`, the bytes must also be in the file (not zero fill). */
static const struct loader_segment *segment_at(const struct loader_code_object *co, uint64_t vaddr,
                                               uint64_t len, bool file_backed) {
  for (uint32_t i = 0; i < co->segment_count; i++) {
    const struct loader_segment *s = &co->segments[i];
    uint64_t limit = file_backed ? s->filesz : s->memsz;
    if (vaddr >= s->vaddr && vaddr - s->vaddr <= limit && len <= limit - (vaddr - s->vaddr))
      return s;
  }
  return NULL;
}

/* ---- ELF header ------------------------------------------------------------ */

static enum loader_status check_header(struct parse_ctx *c) {
  const uint8_t *p = c->img;
  struct elf64_ehdr *eh = &c->eh;
  if (c->size < ELF64_EHDR_SIZE)
    return BAD(c, "truncated: %zu bytes, an ELF64 header needs %d", c->size, ELF64_EHDR_SIZE);
  if (memcmp(p, "\177ELF", 4) != 0) return BAD(c, "not an ELF file (bad magic)");
  memcpy(eh->ident, p, 16);
  eh->type = RD16(p + 16);
  eh->machine = RD16(p + 18);
  eh->version = RD32(p + 20);
  eh->entry = RD64(p + 24);
  eh->phoff = RD64(p + 32);
  eh->shoff = RD64(p + 40);
  eh->flags = RD32(p + 48);
  eh->ehsize = RD16(p + 52);
  eh->phentsize = RD16(p + 54);
  eh->phnum = RD16(p + 56);
  eh->shentsize = RD16(p + 58);
  eh->shnum = RD16(p + 60);
  eh->shstrndx = RD16(p + 62);

  if (eh->ident[ELF_EI_CLASS] != ELF_CLASS64)
    return BAD(c, "not ELF64 (EI_CLASS %u)", eh->ident[ELF_EI_CLASS]);
  if (eh->ident[ELF_EI_DATA] != ELF_DATA2LSB)
    return BAD(c, "not little-endian (EI_DATA %u)", eh->ident[ELF_EI_DATA]);
  if (eh->ident[ELF_EI_VERSION] != ELF_EV_CURRENT || eh->version != ELF_EV_CURRENT)
    return BAD(c, "unknown ELF version %u", eh->version);
  if (eh->machine != ELF_EM_AMDGPU)
    return BAD(c, "wrong machine: e_machine %u is not EM_AMDGPU (%d)", eh->machine, ELF_EM_AMDGPU);
  if (eh->ident[ELF_EI_OSABI] != ELF_OSABI_AMDGPU_HSA)
    return BAD(c, "OS ABI %u is not ELFOSABI_AMDGPU_HSA (%d)", eh->ident[ELF_EI_OSABI],
               ELF_OSABI_AMDGPU_HSA);
  switch (eh->ident[ELF_EI_ABIVERSION]) {
    case ELF_ABIVERSION_AMDGPU_HSA_V4:
      c->co->version = 4;
      break;
    case ELF_ABIVERSION_AMDGPU_HSA_V5:
      c->co->version = 5;
      break;
    case ELF_ABIVERSION_AMDGPU_HSA_V6:
      c->co->version = 6;
      break;
    default:
      return BAD(c, "code object ABI version %u is not supported (v4, v5 and v6 are: 2, 3, 4)",
                 eh->ident[ELF_EI_ABIVERSION]);
  }
  if (eh->type != ELF_ET_DYN)
    return BAD(c, "e_type %u is not ET_DYN (a linked code object)", eh->type);
  if (eh->phnum && eh->phentsize != ELF64_PHDR_SIZE)
    return BAD(c, "e_phentsize %u is not %d", eh->phentsize, ELF64_PHDR_SIZE);
  if (eh->shnum && eh->shentsize != ELF64_SHDR_SIZE)
    return BAD(c, "e_shentsize %u is not %d", eh->shentsize, ELF64_SHDR_SIZE);
  if (!in_file(c, eh->phoff, (uint64_t)eh->phnum * ELF64_PHDR_SIZE))
    return BAD(c, "program headers (offset 0x%llx, %u entries) lie outside the %zu-byte file",
               (unsigned long long)eh->phoff, eh->phnum, c->size);
  if (!in_file(c, eh->shoff, (uint64_t)eh->shnum * ELF64_SHDR_SIZE))
    return BAD(c, "section headers (offset 0x%llx, %u entries) lie outside the %zu-byte file",
               (unsigned long long)eh->shoff, eh->shnum, c->size);
  if (eh->shnum == 0) return BAD(c, "no section headers: the symbols cannot be found");
  if (eh->shstrndx >= eh->shnum) return BAD(c, "e_shstrndx %u out of range", eh->shstrndx);

  char why[160];
  if (!loader_isa_from_elf(eh->flags, eh->ident[ELF_EI_ABIVERSION], &c->co->isa, why, sizeof why))
    return BAD(c, "%s", why);
  c->co->e_flags = eh->flags;
  return LOADER_OK;
}

/* ---- Program headers: the PT_LOAD segments -------------------------------- */

static int compare_segments(const void *a, const void *b) {
  const struct loader_segment *x = a, *y = b;
  return x->vaddr < y->vaddr ? -1 : x->vaddr > y->vaddr;
}

static enum loader_status read_segments(struct parse_ctx *c) {
  struct loader_code_object *co = c->co;
  co->segments = calloc(c->eh.phnum ? c->eh.phnum : 1, sizeof *co->segments);
  if (!co->segments)
    return loader_report(LOADER_ERROR_OUT_OF_MEMORY, c->source, c->why, c->why_size,
                         "out of memory");
  co->segment_align = 1;
  for (uint32_t i = 0; i < c->eh.phnum; i++) {
    const uint8_t *p = c->img + c->eh.phoff + (uint64_t)i * ELF64_PHDR_SIZE;
    struct elf64_phdr ph = {.type = RD32(p),
                            .flags = RD32(p + 4),
                            .offset = RD64(p + 8),
                            .vaddr = RD64(p + 16),
                            .paddr = RD64(p + 24),
                            .filesz = RD64(p + 32),
                            .memsz = RD64(p + 40),
                            .align = RD64(p + 48)};
    if (ph.type != ELF_PT_LOAD) continue;
    if (!in_file(c, ph.offset, ph.filesz))
      return BAD(c, "segment %u: file range 0x%llx+0x%llx lies outside the %zu-byte file", i,
                 (unsigned long long)ph.offset, (unsigned long long)ph.filesz, c->size);
    if (ph.filesz > ph.memsz)
      return BAD(c, "segment %u: p_filesz 0x%llx exceeds p_memsz 0x%llx", i,
                 (unsigned long long)ph.filesz, (unsigned long long)ph.memsz);
    if (ph.memsz > MAX_SEGMENT_SPAN || ph.vaddr > UINT64_MAX - ph.memsz)
      return BAD(c, "segment %u: p_vaddr 0x%llx + p_memsz 0x%llx is too large", i,
                 (unsigned long long)ph.vaddr, (unsigned long long)ph.memsz);
    if (ph.align > 1 && ((ph.align & (ph.align - 1)) || ph.align > MAX_SEGMENT_ALIGN))
      return BAD(c, "segment %u: p_align 0x%llx is not a power of two up to 0x%llx", i,
                 (unsigned long long)ph.align, MAX_SEGMENT_ALIGN);
    if (ph.memsz == 0) continue;
    if (ph.align > co->segment_align) co->segment_align = ph.align;
    co->segments[co->segment_count++] = (struct loader_segment){.vaddr = ph.vaddr,
                                                                .memsz = ph.memsz,
                                                                .offset = ph.offset,
                                                                .filesz = ph.filesz,
                                                                .flags = ph.flags};
  }
  if (co->segment_count == 0) return BAD(c, "no PT_LOAD segment with contents");

  qsort(co->segments, co->segment_count, sizeof *co->segments, compare_segments);
  for (uint32_t i = 1; i < co->segment_count; i++) {
    const struct loader_segment *prev = &co->segments[i - 1], *s = &co->segments[i];
    if (s->vaddr < prev->vaddr + prev->memsz)
      return BAD(c, "segments overlap: [0x%llx, 0x%llx) and [0x%llx, 0x%llx)",
                 (unsigned long long)prev->vaddr, (unsigned long long)(prev->vaddr + prev->memsz),
                 (unsigned long long)s->vaddr, (unsigned long long)(s->vaddr + s->memsz));
  }
  const struct loader_segment *last = &co->segments[co->segment_count - 1];
  co->span_start = co->segments[0].vaddr & ~(co->segment_align - 1);
  co->span_end = last->vaddr + last->memsz;
  if (co->span_end - co->span_start > MAX_SEGMENT_SPAN)
    return BAD(c, "segments span 0x%llx bytes, more than the 0x%llx this loader places",
               (unsigned long long)(co->span_end - co->span_start), MAX_SEGMENT_SPAN);
  return LOADER_OK;
}

/* ---- Section headers -------------------------------------------------------- */

static enum loader_status read_sections(struct parse_ctx *c) {
  c->shnum = c->eh.shnum;
  c->sh = calloc(c->shnum, sizeof *c->sh);
  if (!c->sh)
    return loader_report(LOADER_ERROR_OUT_OF_MEMORY, c->source, c->why, c->why_size,
                         "out of memory");
  for (uint32_t i = 0; i < c->shnum; i++) {
    const uint8_t *p = c->img + c->eh.shoff + (uint64_t)i * ELF64_SHDR_SIZE;
    struct elf64_shdr *s = &c->sh[i];
    *s = (struct elf64_shdr){.name = RD32(p),
                             .type = RD32(p + 4),
                             .flags = RD64(p + 8),
                             .addr = RD64(p + 16),
                             .offset = RD64(p + 24),
                             .size = RD64(p + 32),
                             .link = RD32(p + 40),
                             .info = RD32(p + 44),
                             .addralign = RD64(p + 48),
                             .entsize = RD64(p + 56)};
    if (s->type != ELF_SHT_NOBITS && s->type != ELF_SHT_NULL && !in_file(c, s->offset, s->size))
      return BAD(c, "section %u: range 0x%llx+0x%llx lies outside the %zu-byte file", i,
                 (unsigned long long)s->offset, (unsigned long long)s->size, c->size);
  }
  /* Names are only checked now that every section is known to be in bounds. */
  for (uint32_t i = 0; i < c->shnum; i++) {
    const struct elf64_shdr *s = &c->sh[i];
    bool symbols = s->type == ELF_SHT_SYMTAB || s->type == ELF_SHT_DYNSYM;
    if (symbols && (s->entsize != ELF64_SYM_SIZE || s->size % ELF64_SYM_SIZE))
      return BAD(c, "symbol table %s: entry size %llu or size %llu is not a multiple of %d",
                 section_name(c, i), (unsigned long long)s->entsize, (unsigned long long)s->size,
                 ELF64_SYM_SIZE);
    if (symbols && (s->link >= c->shnum || c->sh[s->link].type != ELF_SHT_STRTAB))
      return BAD(c, "symbol table %s: sh_link %u is not a string table", section_name(c, i),
                 s->link);
  }
  return LOADER_OK;
}

/* ---- The metadata note ------------------------------------------------------ */

/* Walks the notes of SHT_NOTE section `index`; sets *desc and *desc_size to an
 * NT_AMDGPU_METADATA descriptor. Notes are namesz, descsz, type, then name
 * and descriptor each padded to 4 bytes (AMDGPUUsage "Note Records"). */
static enum loader_status scan_notes(struct parse_ctx *c, uint32_t index, const uint8_t **desc,
                                     uint64_t *desc_size) {
  const struct elf64_shdr *s = &c->sh[index];
  const uint8_t *p = c->img + s->offset;
  uint64_t pos = 0;
  while (pos < s->size) {
    if (s->size - pos < 12)
      return BAD(c, "note section %s: truncated note header at +0x%llx", section_name(c, index),
                 (unsigned long long)pos);
    uint32_t namesz = RD32(p + pos), descsz = RD32(p + pos + 4), type = RD32(p + pos + 8);
    uint64_t name_at = pos + 12, desc_at = name_at + ALIGN_UP((uint64_t)namesz, 4);
    uint64_t next = desc_at + ALIGN_UP((uint64_t)descsz, 4);
    if (next > s->size)
      return BAD(c, "note section %s: note at +0x%llx (namesz %u, descsz %u) runs past the section",
                 section_name(c, index), (unsigned long long)pos, namesz, descsz);
    bool amdgpu = namesz == 7 && memcmp(p + name_at, "AMDGPU", 7) == 0;
    if (amdgpu && type == NT_AMDGPU_METADATA) {
      if (*desc) return BAD(c, "two NT_AMDGPU_METADATA notes");
      *desc = p + desc_at;
      *desc_size = descsz;
    }
    pos = next;
  }
  return LOADER_OK;
}

static enum loader_status read_metadata(struct parse_ctx *c) {
  const uint8_t *desc = NULL;
  uint64_t desc_size = 0;
  for (uint32_t i = 0; i < c->shnum; i++) {
    if (c->sh[i].type != ELF_SHT_NOTE) continue;
    enum loader_status st = scan_notes(c, i, &desc, &desc_size);
    if (st != LOADER_OK) return st;
  }
  if (!desc) return BAD(c, "no NT_AMDGPU_METADATA note (owner \"AMDGPU\", type 32)");

  char why[200];
  if (!loader_metadata_parse(desc, desc_size, &c->co->metadata, why, sizeof why))
    return BAD(c, "%s", why);

  /* The note repeats the target (v4+ "amdhsa.target"); it must agree with
   * e_flags, or one of them was damaged. */
  const char *target = c->co->metadata.target;
  struct loader_isa named;
  if (target) {
    if (!loader_isa_from_name(target, &named))
      return BAD(c, "metadata amdhsa.target \"%s\" is not a target ID", target);
    if (named.mach != c->co->isa.mach || named.xnack != c->co->isa.xnack ||
        named.sramecc != c->co->isa.sramecc) {
      char from_flags[64];
      loader_isa_name(&c->co->isa, from_flags, sizeof from_flags);
      return BAD(c, "metadata amdhsa.target \"%s\" disagrees with e_flags (%s)", target,
                 from_flags);
    }
  }
  return LOADER_OK;
}

/* ---- Symbols ---------------------------------------------------------------- */

struct symtab_view {
  uint32_t index; /* section */
  uint32_t count;
};

static bool decode_symbol(const struct parse_ctx *c, const struct symtab_view *t, uint32_t i,
                          struct elf64_sym *sym, const char **name) {
  const uint8_t *p = c->img + c->sh[t->index].offset + (uint64_t)i * ELF64_SYM_SIZE;
  *sym = (struct elf64_sym){.name = RD32(p),
                            .info = p[4],
                            .other = p[5],
                            .shndx = RD16(p + 6),
                            .value = RD64(p + 8),
                            .size = RD64(p + 16)};
  *name = string_at(c, c->sh[t->index].link, sym->name);
  return *name != NULL;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

static enum loader_status add_symbol(struct parse_ctx *c, const struct loader_symbol *sym) {
  struct loader_code_object *co = c->co;
  for (uint32_t i = 0; i < co->symbol_count; i++)
    if (!strcmp(co->symbols[i].name, sym->name))
      return BAD(c, "symbol %s is defined twice", sym->name);
  struct loader_symbol *grown = realloc(co->symbols, (co->symbol_count + 1) * sizeof *grown);
  char *name = strdup(sym->name);
  if (!grown || !name) {
    free(name);
    if (grown) co->symbols = grown;
    return loader_report(LOADER_ERROR_OUT_OF_MEMORY, c->source, c->why, c->why_size,
                         "out of memory");
  }
  co->symbols = grown;
  co->symbols[co->symbol_count] = *sym;
  co->symbols[co->symbol_count].name = name;
  co->symbol_count++;
  return LOADER_OK;
}

/* A kernel: its descriptor symbol, descriptor bytes and code, checked
 * against what the metadata says about it. */
static enum loader_status add_kernel(struct parse_ctx *c, const struct symtab_view *t,
                                     const struct loader_kernel_meta *km) {
  struct elf64_sym es;
  const char *name = NULL;
  uint32_t i;
  for (i = 1; i < t->count; i++)
    if (decode_symbol(c, t, i, &es, &name) && !strcmp(name, km->symbol)) break;
  if (i == t->count)
    return BAD(c, "kernel %s: descriptor symbol %s not in %s", km->name, km->symbol,
               section_name(c, t->index));
  if (es.shndx == ELF_SHN_UNDEF || es.shndx >= ELF_SHN_LORESERVE)
    return BAD(c, "kernel %s: descriptor symbol %s is not defined in a section", km->name,
               km->symbol);

  const struct loader_segment *seg =
      segment_at(c->co, es.value, sizeof(amd_kernel_descriptor_t), true);
  if (!seg)
    return BAD(c, "kernel %s: descriptor at 0x%llx is not inside a loadable segment's file bytes",
               km->name, (unsigned long long)es.value);
  struct loader_symbol sym = {.name = (char *)km->symbol,
                              .kind = LOADER_SYMBOL_KERNEL,
                              .vaddr = es.value,
                              .size = es.size,
                              .alignment = AMD_KERNEL_DESCRIPTOR_ALIGN_BYTES,
                              .program_linkage = ELF_ST_BIND(es.info) != ELF_STB_LOCAL,
                              .is_const = true,
                              .meta = km};
  /* Both the file and the descriptor are little-endian (x86 and AMDGPU). */
  memcpy(&sym.kd, c->img + seg->offset + (es.value - seg->vaddr), sizeof sym.kd);
  const amd_kernel_descriptor_t *kd = &sym.kd;

  /* The entry point: inside an executable segment, 256-byte aligned. */
  uint64_t entry = es.value + (uint64_t)kd->kernel_code_entry_byte_offset;
  const struct loader_segment *code = segment_at(c->co, entry, 4, true);
  if (!code || !(code->flags & ELF_PF_X) || entry % KERNEL_CODE_ALIGN)
    return BAD(c,
               "kernel %s: entry point 0x%llx (descriptor 0x%llx %+lld) is not 256-byte aligned "
               "code in an executable segment",
               km->name, (unsigned long long)entry, (unsigned long long)es.value,
               (long long)kd->kernel_code_entry_byte_offset);
  /* The descriptor and the metadata describe the same kernel. */
  if (kd->group_segment_fixed_size != km->group_segment_fixed_size ||
      kd->private_segment_fixed_size != km->private_segment_fixed_size ||
      (kd->kernarg_size != 0 && kd->kernarg_size != km->kernarg_segment_size))
    return BAD(c,
               "kernel %s: descriptor (group %u, private %u, kernarg %u bytes) disagrees with "
               "metadata (group %u, private %u, kernarg %u bytes)",
               km->name, kd->group_segment_fixed_size, kd->private_segment_fixed_size,
               kd->kernarg_size, km->group_segment_fixed_size, km->private_segment_fixed_size,
               km->kernarg_segment_size);
  bool wave32 = kd->kernel_code_properties & AMD_KD_ENABLE_WAVEFRONT_SIZE32;
  if ((wave32 ? 32u : 64u) != km->wavefront_size)
    return BAD(c, "kernel %s: descriptor is wave%d, metadata says .wavefront_size %u", km->name,
               wave32 ? 32 : 64, km->wavefront_size);
  return add_symbol(c, &sym);
}

/* A variable: a global or weak data object defined in a loadable segment. */
static enum loader_status add_variable(struct parse_ctx *c, const struct elf64_sym *es,
                                       const char *name) {
  if (es->shndx >= c->shnum)
    return BAD(c, "variable %s: section index %u out of range", name, es->shndx);
  if (!segment_at(c->co, es->value, es->size, false))
    return BAD(c, "variable %s at 0x%llx size 0x%llx is outside every loadable segment", name,
               (unsigned long long)es->value, (unsigned long long)es->size);
  const struct elf64_shdr *sec = &c->sh[es->shndx];
  struct loader_symbol sym = {.name = (char *)name,
                              .kind = LOADER_SYMBOL_VARIABLE,
                              .vaddr = es->value,
                              .size = es->size,
                              .alignment = sec->addralign > 1 && sec->addralign <= UINT32_MAX
                                               ? (uint32_t)sec->addralign
                                               : 1,
                              .program_linkage = true,
                              .is_const = !(sec->flags & ELF_SHF_WRITE)};
  return add_symbol(c, &sym);
}

static enum loader_status read_symbols(struct parse_ctx *c) {
  /* The full table (.symtab) when present, else the dynamic one. */
  struct symtab_view t = {0, 0};
  for (uint32_t i = 0; i < c->shnum && !t.index; i++)
    if (c->sh[i].type == ELF_SHT_SYMTAB) t.index = i;
  for (uint32_t i = 0; i < c->shnum && !t.index; i++)
    if (c->sh[i].type == ELF_SHT_DYNSYM) t.index = i;
  if (!t.index) return BAD(c, "no symbol table (.symtab or .dynsym)");
  if (c->sh[t.index].size / ELF64_SYM_SIZE > UINT32_MAX)
    return BAD(c, "symbol table %s is too large", section_name(c, t.index));
  t.count = (uint32_t)(c->sh[t.index].size / ELF64_SYM_SIZE);

  const struct loader_metadata *md = &c->co->metadata;
  for (uint32_t k = 0; k < md->kernel_count; k++) {
    enum loader_status st = add_kernel(c, &t, &md->kernels[k]);
    if (st != LOADER_OK) return st;
  }
  for (uint32_t i = 1; i < t.count; i++) {
    struct elf64_sym es;
    const char *name;
    if (!decode_symbol(c, &t, i, &es, &name))
      return BAD(c, "symbol %u of %s: name offset %u is outside its string table", i,
                 section_name(c, t.index), es.name);
    unsigned bind = ELF_ST_BIND(es.info);
    if (ELF_ST_TYPE(es.info) != ELF_STT_OBJECT || es.shndx == ELF_SHN_UNDEF ||
        es.shndx >= ELF_SHN_LORESERVE || (bind != ELF_STB_GLOBAL && bind != ELF_STB_WEAK))
      continue;
    if (ends_with(name, ".kd")) {
      if (!loader_metadata_kernel_by_symbol(md, name))
        log_warn("%s: kernel descriptor %s has no metadata; it is not made a kernel symbol",
                 c->source, name);
      continue;
    }
    enum loader_status st = add_variable(c, &es, name);
    if (st != LOADER_OK) return st;
  }
  return LOADER_OK;
}

/* ---- Dynamic relocations ------------------------------------------------------- */

static const char *relocation_name(uint32_t type) {
  static const char *const names[] = {
      "R_AMDGPU_NONE",          "R_AMDGPU_ABS32_LO",      "R_AMDGPU_ABS32_HI", "R_AMDGPU_ABS64",
      "R_AMDGPU_REL32",         "R_AMDGPU_REL64",         "R_AMDGPU_ABS32",    "R_AMDGPU_GOTPCREL",
      "R_AMDGPU_GOTPCREL32_LO", "R_AMDGPU_GOTPCREL32_HI", "R_AMDGPU_REL32_LO", "R_AMDGPU_REL32_HI",
      "reserved relocation 12", "R_AMDGPU_RELATIVE64",    "R_AMDGPU_REL16"};
  return type < countof(names) ? names[type] : "unknown relocation";
}

static enum loader_status add_relocation(struct parse_ctx *c, uint32_t section, uint64_t at) {
  const struct elf64_shdr *s = &c->sh[section];
  const uint8_t *p = c->img + s->offset + at;
  struct elf64_rela r = {.offset = RD64(p), .info = RD64(p + 8), .addend = (int64_t)RD64(p + 16)};
  uint32_t type = ELF_R_TYPE(r.info), symi = ELF_R_SYM(r.info);
  unsigned width;
  switch (type) {
    case R_AMDGPU_NONE:
      return LOADER_OK;
    case R_AMDGPU_ABS32_LO:
    case R_AMDGPU_ABS32_HI:
    case R_AMDGPU_ABS32:
      width = 4;
      break;
    case R_AMDGPU_ABS64:
    case R_AMDGPU_RELATIVE64:
      width = 8;
      break;
    default:
      return BAD(c, "%s: unsupported relocation %s (type %u) at 0x%llx", section_name(c, section),
                 relocation_name(type), type, (unsigned long long)r.offset);
  }
  if (!segment_at(c->co, r.offset, width, false))
    return BAD(c, "%s: %s at 0x%llx is outside every loadable segment", section_name(c, section),
               relocation_name(type), (unsigned long long)r.offset);

  struct loader_relocation rel = {.vaddr = r.offset, .type = type, .addend = r.addend};
  if (type == R_AMDGPU_RELATIVE64 || symi == 0) {
    rel.sym_absolute = type != R_AMDGPU_RELATIVE64; /* S = 0 */
  } else {
    if (s->link >= c->shnum ||
        (c->sh[s->link].type != ELF_SHT_SYMTAB && c->sh[s->link].type != ELF_SHT_DYNSYM))
      return BAD(c, "%s: sh_link %u is not a symbol table", section_name(c, section), s->link);
    struct symtab_view t = {s->link, (uint32_t)(c->sh[s->link].size / ELF64_SYM_SIZE)};
    struct elf64_sym es;
    const char *name;
    if (symi >= t.count || !decode_symbol(c, &t, symi, &es, &name))
      return BAD(c, "%s: %s at 0x%llx names symbol %u, which %s does not have",
                 section_name(c, section), relocation_name(type), (unsigned long long)r.offset,
                 symi, section_name(c, s->link));
    if (es.shndx == ELF_SHN_UNDEF) {
      if (!*name)
        return BAD(c, "%s: %s at 0x%llx against an undefined symbol without a name",
                   section_name(c, section), relocation_name(type), (unsigned long long)r.offset);
      rel.sym_name = name;
    } else if (es.shndx == ELF_SHN_ABS) {
      rel.sym_absolute = true;
      rel.sym_vaddr = es.value;
    } else {
      if (es.value < c->co->span_start || es.value > c->co->span_end)
        return BAD(c, "%s: %s against %s at 0x%llx, outside the loaded image",
                   section_name(c, section), relocation_name(type), name,
                   (unsigned long long)es.value);
      rel.sym_vaddr = es.value;
    }
  }
  struct loader_code_object *co = c->co;
  struct loader_relocation *grown =
      realloc(co->relocations, (co->relocation_count + 1) * sizeof *grown);
  if (!grown)
    return loader_report(LOADER_ERROR_OUT_OF_MEMORY, c->source, c->why, c->why_size,
                         "out of memory");
  co->relocations = grown;
  co->relocations[co->relocation_count++] = rel;
  return LOADER_OK;
}

static enum loader_status read_relocations(struct parse_ctx *c) {
  for (uint32_t i = 0; i < c->shnum; i++) {
    const struct elf64_shdr *s = &c->sh[i];
    /* Dynamic relocations are the ones the linker placed in the loaded
     * image; non-allocated .rela<name> sections (--emit-relocs) were
     * already applied by the linker. */
    if (!(s->flags & ELF_SHF_ALLOC)) continue;
    if (s->type == ELF_SHT_REL)
      return BAD(c, "%s: SHT_REL relocations (without addend) are not used by AMDGPU",
                 section_name(c, i));
    if (s->type != ELF_SHT_RELA) continue;
    if (s->entsize != ELF64_RELA_SIZE || s->size % ELF64_RELA_SIZE)
      return BAD(c, "%s: entry size %llu or size %llu is not a multiple of %d", section_name(c, i),
                 (unsigned long long)s->entsize, (unsigned long long)s->size, ELF64_RELA_SIZE);
    for (uint64_t at = 0; at < s->size; at += ELF64_RELA_SIZE) {
      enum loader_status st = add_relocation(c, i, at);
      if (st != LOADER_OK) return st;
    }
  }
  return LOADER_OK;
}

/* ---- Entry points ------------------------------------------------------------------ */

enum loader_status loader_code_object_parse(const void *image, size_t size, const char *source,
                                            struct loader_code_object **out, char *why,
                                            size_t why_size) {
  *out = NULL;
  if (why && why_size) why[0] = '\0';
  struct loader_code_object *co = calloc(1, sizeof *co);
  if (!co) return loader_report(LOADER_ERROR_OUT_OF_MEMORY, source, why, why_size, "out of memory");
  co->source = source;
  co->image = image;
  co->image_size = size;
  struct parse_ctx c = {
      .img = image, .size = size, .source = source, .why = why, .why_size = why_size, .co = co};
  enum loader_status st = image ? check_header(&c) : BAD(&c, "no code object bytes");
  if (st == LOADER_OK) st = read_segments(&c);
  if (st == LOADER_OK) st = read_sections(&c);
  if (st == LOADER_OK) st = read_metadata(&c);
  if (st == LOADER_OK) st = read_symbols(&c);
  if (st == LOADER_OK) st = read_relocations(&c);
  free(c.sh);
  if (st != LOADER_OK) {
    loader_code_object_destroy(co);
    return st;
  }
  *out = co;
  return LOADER_OK;
}

enum loader_status loader_code_object_check_isa(const struct loader_code_object *co,
                                                const char *agent_isa_name, char *why,
                                                size_t why_size) {
  struct loader_isa agent;
  if (!agent_isa_name || !loader_isa_from_name(agent_isa_name, &agent))
    return loader_report(LOADER_ERROR_INVALID_ISA_NAME, co->source, why, why_size,
                         "agent ISA \"%s\" is not a target ID",
                         agent_isa_name ? agent_isa_name : "(null)");
  /* An agent runs with each feature its processor has either on or off
   * (ROCr asserts as much in Isa::IsCompatible): a name that leaves one
   * out is not an agent's ISA. */
  if (agent.xnack == LOADER_FEATURE_ANY || agent.sramecc == LOADER_FEATURE_ANY)
    return loader_report(LOADER_ERROR_INVALID_ISA_NAME, co->source, why, why_size,
                         "agent ISA \"%s\" leaves a target feature neither on nor off",
                         agent_isa_name);
  char reason[200];
  if (!loader_isa_compatible(&co->isa, &agent, reason, sizeof reason))
    return loader_report(LOADER_ERROR_INCOMPATIBLE_ISA, co->source, why, why_size, "%s", reason);
  return LOADER_OK;
}

const struct loader_symbol *loader_code_object_symbol(const struct loader_code_object *co,
                                                      const char *name) {
  for (uint32_t i = 0; i < co->symbol_count; i++)
    if (!strcmp(co->symbols[i].name, name)) return &co->symbols[i];
  return NULL;
}

void loader_code_object_destroy(struct loader_code_object *co) {
  if (!co) return;
  if (co->base) co->mem.free(co->mem.ctx, co->base, co->base_size);
  for (uint32_t i = 0; i < co->symbol_count; i++) free(co->symbols[i].name);
  free(co->symbols);
  free(co->relocations);
  free(co->segments);
  loader_metadata_free(&co->metadata);
  free(co);
}
