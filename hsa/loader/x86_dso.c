/*
 * x86_dso.c - load an x86-64 ELF shared object, one copy per instance
 * (x86_dso.h).
 *
 * Facts: System V gABI, "ELF Header", "Program Header", "Dynamic Section"
 * (DT_* tags), "Hash Table" (DT_HASH: nbucket, nchain = the number of
 * symbols), "Symbol Table"; System V AMD64 psABI 4.4 (R_X86_64_* numbers
 * and their arithmetic). Everything is read through bounds-checked helpers:
 * the file may be truncated or hostile.
 */
#include "hsa/loader/x86_dso.h"

#include <stdlib.h>
#include <string.h>

#include "hsa/loader/elf_format.h"
#include "hsa/loader/report.h"
#include "lib/plat.h"
#include "lib/util.h"

#define LOG_TAG "loader"

#define EM_X86_64          62
#define PT_TLS             7
#define PAGE               4096ull
#define MAX_SPAN           (256ull << 20)
#define MAX_LOAD_SEGMENTS  16
#define MAX_SYMBOLS        (1u << 20)
#define STB_GNU_UNIQUE     10
#define STT_SECTION        3
#define STT_FILE           4
#define STT_TLS            6
#define STT_GNU_IFUNC      10
#define R_X86_64_NONE      0
#define R_X86_64_64        1
#define R_X86_64_GLOB_DAT  6
#define R_X86_64_JUMP_SLOT 7
#define R_X86_64_RELATIVE  8

enum {
  DT_NULL = 0, DT_PLTRELSZ = 2, DT_HASH = 4, DT_STRTAB = 5, DT_SYMTAB = 6, DT_RELA = 7,
  DT_RELASZ = 8, DT_RELAENT = 9, DT_STRSZ = 10, DT_SYMENT = 11, DT_INIT = 12, DT_FINI = 13,
  DT_REL = 17, DT_PLTREL = 20, DT_TEXTREL = 22, DT_JMPREL = 23, DT_INIT_ARRAYSZ = 27,
  DT_FINI_ARRAYSZ = 28, DT_PREINIT_ARRAYSZ = 33, DT_RELR = 36,
};

struct dso_symbol {
  const char *name; /* into strtab */
  uint64_t value, size;
  uint16_t shndx;
  uint8_t bind, type;
};

struct dso_segment {
  uint64_t vaddr, memsz, offset, filesz;
  uint32_t flags;
};

struct dso_rela {
  uint64_t offset;
  uint32_t type, sym;
  int64_t addend;
};

struct x86_dso {
  uint64_t span; /* bytes of every instance; vaddr 0 is the instance's base */
  uint32_t instances;
  uint8_t **base;
  uint32_t segment_count;
  struct dso_segment segments[MAX_LOAD_SEGMENTS];
  char *strtab;
  uint64_t strsz;
  struct dso_symbol *symbols;
  uint32_t symbol_count;
  uint64_t *imports; /* resolved address of each undefined symbol */
  struct dso_rela *relas;
  uint64_t rela_count;
};

struct parse {
  const uint8_t *img;
  size_t size;
  const char *source;
  char *why;
  size_t why_size;
  struct x86_dso *dso;
};

#define BAD(p, ...) \
  loader_report(LOADER_ERROR_INVALID_CODE_OBJECT, (p)->source, (p)->why, (p)->why_size, __VA_ARGS__)

static uint64_t rd(const uint8_t *p, unsigned n) {
  uint64_t v = 0;
  for (unsigned i = n; i-- > 0;) v = (v << 8) | p[i];
  return v;
}

/* The file bytes that hold [vaddr, vaddr + len) of a PT_LOAD segment. */
static const uint8_t *file_at(const struct parse *p, uint64_t vaddr, uint64_t len) {
  const struct x86_dso *d = p->dso;
  for (uint32_t i = 0; i < d->segment_count; i++) {
    const struct dso_segment *s = &d->segments[i];
    if (vaddr >= s->vaddr && vaddr - s->vaddr <= s->filesz && len <= s->filesz - (vaddr - s->vaddr))
      return p->img + s->offset + (vaddr - s->vaddr);
  }
  return NULL;
}

static const struct dso_segment *segment_of(const struct x86_dso *d, uint64_t vaddr, uint64_t len) {
  for (uint32_t i = 0; i < d->segment_count; i++) {
    const struct dso_segment *s = &d->segments[i];
    if (vaddr >= s->vaddr && vaddr - s->vaddr <= s->memsz && len <= s->memsz - (vaddr - s->vaddr))
      return s;
  }
  return NULL;
}

static enum loader_status parse_header(struct parse *p, uint64_t *phoff, uint32_t *phnum) {
  const uint8_t *h = p->img;
  if (p->size < 64) return BAD(p, "truncated: %zu bytes, an ELF64 header needs 64", p->size);
  if (memcmp(h, "\177ELF", 4) != 0) return BAD(p, "not an ELF file (bad magic)");
  if (h[ELF_EI_CLASS] != ELF_CLASS64 || h[ELF_EI_DATA] != ELF_DATA2LSB ||
      h[ELF_EI_VERSION] != ELF_EV_CURRENT)
    return BAD(p, "not a little-endian ELF64 file (class %u, data %u, version %u)", h[ELF_EI_CLASS],
               h[ELF_EI_DATA], h[ELF_EI_VERSION]);
  uint16_t type = (uint16_t)rd(h + 16, 2), machine = (uint16_t)rd(h + 18, 2);
  if (machine != EM_X86_64)
    return loader_report(LOADER_ERROR_INCOMPATIBLE_ISA, p->source, p->why, p->why_size,
                         "ELF machine %u is not x86-64 (%u)%s", machine, EM_X86_64,
                         machine == ELF_EM_AMDGPU ? ": a GPU code object, for a GPU agent" : "");
  if (type != ELF_ET_DYN) return BAD(p, "ELF type %u is not a shared object (ET_DYN)", type);
  *phoff = rd(h + 32, 8);
  *phnum = (uint32_t)rd(h + 56, 2);
  uint16_t phentsize = (uint16_t)rd(h + 54, 2);
  if (phentsize != 56) return BAD(p, "program header entry size %u, not 56", phentsize);
  /* The section headers are the file's last part: a file cut short loses
   * them first (gABI "Sections"; lld writes them at the end). */
  uint64_t shoff = rd(h + 40, 8);
  uint16_t shentsize = (uint16_t)rd(h + 58, 2), shnum = (uint16_t)rd(h + 60, 2);
  if (shnum && (shentsize != 64 || shoff > p->size || (uint64_t)shnum * 64 > p->size - shoff))
    return BAD(p, "truncated or malformed: %u section headers of %u bytes at 0x%llx, file of %zu bytes",
               shnum, shentsize, (unsigned long long)shoff, p->size);
  if (*phoff > p->size || (uint64_t)*phnum * 56 > p->size - *phoff)
    return BAD(p, "truncated: %u program headers at 0x%llx run past the %zu bytes", *phnum,
               (unsigned long long)*phoff, p->size);
  return LOADER_OK;
}

static enum loader_status parse_segments(struct parse *p, uint64_t phoff, uint32_t phnum,
                                         uint64_t *dyn_off, uint64_t *dyn_size) {
  struct x86_dso *d = p->dso;
  *dyn_size = 0;
  for (uint32_t i = 0; i < phnum; i++) {
    const uint8_t *ph = p->img + phoff + (uint64_t)i * 56;
    uint32_t type = (uint32_t)rd(ph, 4), flags = (uint32_t)rd(ph + 4, 4);
    uint64_t off = rd(ph + 8, 8), vaddr = rd(ph + 16, 8), filesz = rd(ph + 32, 8),
             memsz = rd(ph + 40, 8);
    if (type == PT_TLS) return BAD(p, "thread-local storage (PT_TLS) is not supported");
    if (type == ELF_PT_DYNAMIC) {
      if (off > p->size || filesz > p->size - off || filesz % 16)
        return BAD(p, "PT_DYNAMIC 0x%llx+0x%llx is outside the file or not whole entries",
                   (unsigned long long)off, (unsigned long long)filesz);
      *dyn_off = off;
      *dyn_size = filesz;
    }
    if (type != ELF_PT_LOAD) continue;
    if (d->segment_count == MAX_LOAD_SEGMENTS) return BAD(p, "more than %d PT_LOAD segments", MAX_LOAD_SEGMENTS);
    if (off > p->size || filesz > p->size - off)
      return BAD(p, "truncated: segment %u's 0x%llx bytes at 0x%llx pass the %zu bytes", i,
                 (unsigned long long)filesz, (unsigned long long)off, p->size);
    if (filesz > memsz || vaddr > MAX_SPAN || memsz > MAX_SPAN - vaddr)
      return BAD(p, "segment %u: file size 0x%llx, memory size 0x%llx at 0x%llx", i,
                 (unsigned long long)filesz, (unsigned long long)memsz, (unsigned long long)vaddr);
    if ((flags & ELF_PF_W) && (flags & ELF_PF_X))
      return BAD(p, "segment %u is writable and executable", i);
    d->segments[d->segment_count++] =
        (struct dso_segment){.vaddr = vaddr, .memsz = memsz, .offset = off, .filesz = filesz, .flags = flags};
    uint64_t end = ALIGN_UP(vaddr + memsz, PAGE);
    if (end > d->span) d->span = end;
  }
  if (d->segment_count == 0 || d->span == 0) return BAD(p, "no PT_LOAD segment");
  if (*dyn_size == 0) return BAD(p, "no PT_DYNAMIC segment");
  return LOADER_OK;
}

static enum loader_status parse_symbols(struct parse *p, uint64_t symtab, uint64_t strtab,
                                        uint64_t strsz, uint64_t hash) {
  struct x86_dso *d = p->dso;
  const uint8_t *h = file_at(p, hash, 8);
  if (!h) return BAD(p, "DT_HASH 0x%llx is outside the file's segments", (unsigned long long)hash);
  uint32_t nbucket = (uint32_t)rd(h, 4), nchain = (uint32_t)rd(h + 4, 4);
  if (nchain > MAX_SYMBOLS || !file_at(p, hash, 8 + 4 * ((uint64_t)nbucket + nchain)))
    return BAD(p, "DT_HASH: %u buckets and %u symbols do not fit the file", nbucket, nchain);
  const uint8_t *st = file_at(p, strtab, strsz), *sy = file_at(p, symtab, (uint64_t)nchain * 24);
  if (!st || strsz == 0 || st[strsz - 1] != '\0')
    return BAD(p, "DT_STRTAB 0x%llx (%llu bytes) is outside the file or not terminated",
               (unsigned long long)strtab, (unsigned long long)strsz);
  if (!sy) return BAD(p, "DT_SYMTAB: %u symbols at 0x%llx pass the file", nchain, (unsigned long long)symtab);
  d->strtab = malloc(strsz);
  d->symbols = calloc(nchain ? nchain : 1, sizeof *d->symbols);
  d->imports = calloc(nchain ? nchain : 1, sizeof *d->imports);
  if (!d->strtab || !d->symbols || !d->imports)
    return loader_report(LOADER_ERROR_OUT_OF_MEMORY, p->source, p->why, p->why_size, "no memory for %u symbols", nchain);
  memcpy(d->strtab, st, strsz);
  d->strsz = strsz;
  d->symbol_count = nchain;
  for (uint32_t i = 0; i < nchain; i++) {
    const uint8_t *e = sy + (uint64_t)i * 24;
    uint32_t name = (uint32_t)rd(e, 4);
    struct dso_symbol *s = &d->symbols[i];
    if (name >= strsz) return BAD(p, "symbol %u: name offset %u outside the string table", i, name);
    s->name = d->strtab + name;
    s->bind = e[4] >> 4;
    s->type = e[4] & 0xf;
    s->shndx = (uint16_t)rd(e + 6, 2);
    s->value = rd(e + 8, 8);
    s->size = rd(e + 16, 8);
    if (s->type == STT_TLS || s->type == STT_GNU_IFUNC || s->bind == STB_GNU_UNIQUE)
      return BAD(p, "symbol %s: %s is not supported", s->name,
                 s->type == STT_TLS ? "thread-local storage" : s->type == STT_GNU_IFUNC ? "an indirect function (IFUNC)" : "unique binding");
    if (s->shndx != ELF_SHN_UNDEF && s->shndx != ELF_SHN_ABS && s->type != STT_SECTION &&
        s->type != STT_FILE && (s->value > d->span || s->size > d->span - s->value))
      return BAD(p, "symbol %s at 0x%llx+0x%llx is outside the segments", s->name,
                 (unsigned long long)s->value, (unsigned long long)s->size);
  }
  return LOADER_OK;
}

static enum loader_status parse_relas(struct parse *p, uint64_t at, uint64_t bytes, const char *what) {
  struct x86_dso *d = p->dso;
  if (bytes == 0) return LOADER_OK;
  const uint8_t *r = file_at(p, at, bytes);
  if (!r || bytes % 24) return BAD(p, "%s: %llu bytes at 0x%llx are outside the file or not whole entries", what,
                                   (unsigned long long)bytes, (unsigned long long)at);
  for (uint64_t i = 0; i < bytes / 24; i++, r += 24) {
    struct dso_rela *x = &d->relas[d->rela_count];
    uint64_t info = rd(r + 8, 8);
    x->offset = rd(r, 8);
    x->type = ELF_R_TYPE(info);
    x->sym = ELF_R_SYM(info);
    x->addend = (int64_t)rd(r + 16, 8);
    if (x->type == R_X86_64_NONE) continue;
    if (x->type != R_X86_64_RELATIVE && x->type != R_X86_64_64 && x->type != R_X86_64_GLOB_DAT &&
        x->type != R_X86_64_JUMP_SLOT)
      return BAD(p, "%s entry %llu: relocation type %u is not supported (RELATIVE, 64, GLOB_DAT, "
                 "JUMP_SLOT are)", what, (unsigned long long)i, x->type);
    const struct dso_segment *s = segment_of(d, x->offset, 8);
    if (!s || !(s->flags & ELF_PF_W))
      return BAD(p, "%s entry %llu: 0x%llx is not in a writable segment", what, (unsigned long long)i,
                 (unsigned long long)x->offset);
    if (x->sym >= d->symbol_count || (x->type != R_X86_64_RELATIVE && x->type != R_X86_64_64 && x->sym == 0))
      return BAD(p, "%s entry %llu: symbol index %u (of %u)", what, (unsigned long long)i, x->sym,
                 d->symbol_count);
    d->rela_count++;
  }
  return LOADER_OK;
}

static enum loader_status parse_dynamic(struct parse *p, uint64_t off, uint64_t size) {
  uint64_t v[DT_RELR + 1] = {0};
  bool seen[DT_RELR + 1] = {false};
  for (uint64_t i = 0; i < size / 16; i++) {
    uint64_t tag = rd(p->img + off + i * 16, 8), val = rd(p->img + off + i * 16 + 8, 8);
    if (tag == DT_NULL) break;
    if (tag > DT_RELR) continue; /* GNU and OS tags: versions, flags, counts */
    v[tag] = val;
    seen[tag] = true;
  }
  if (seen[DT_TEXTREL]) return BAD(p, "relocations of text (DT_TEXTREL) are not supported");
  if (seen[DT_REL] || seen[DT_RELR]) return BAD(p, "REL/RELR relocations are not supported (x86-64 uses RELA)");
  if (seen[DT_INIT] || seen[DT_FINI] || v[DT_INIT_ARRAYSZ] || v[DT_FINI_ARRAYSZ] || v[DT_PREINIT_ARRAYSZ])
    return BAD(p, "initialisers or finalisers (DT_INIT/FINI[_ARRAY]) are not supported: none runs");
  if (!seen[DT_SYMTAB] || !seen[DT_STRTAB] || !seen[DT_STRSZ])
    return BAD(p, "no dynamic symbol table (DT_SYMTAB, DT_STRTAB, DT_STRSZ)");
  if (!seen[DT_HASH]) return BAD(p, "no DT_HASH (link with --hash-style=sysv or both)");
  if (seen[DT_SYMENT] && v[DT_SYMENT] != 24) return BAD(p, "DT_SYMENT %llu, not 24", (unsigned long long)v[DT_SYMENT]);
  if (seen[DT_RELA] && v[DT_RELAENT] != 24) return BAD(p, "DT_RELAENT %llu, not 24", (unsigned long long)v[DT_RELAENT]);
  if (seen[DT_JMPREL] && v[DT_PLTREL] != DT_RELA) return BAD(p, "DT_PLTREL %llu is not DT_RELA", (unsigned long long)v[DT_PLTREL]);
  enum loader_status st = parse_symbols(p, v[DT_SYMTAB], v[DT_STRTAB], v[DT_STRSZ], v[DT_HASH]);
  if (st != LOADER_OK) return st;
  uint64_t rela = seen[DT_RELA] ? v[DT_RELASZ] : 0, plt = seen[DT_JMPREL] ? v[DT_PLTRELSZ] : 0;
  if (rela > p->size || plt > p->size) return BAD(p, "relocation tables larger than the file");
  p->dso->relas = calloc(rela / 24 + plt / 24 + 1, sizeof *p->dso->relas);
  if (!p->dso->relas)
    return loader_report(LOADER_ERROR_OUT_OF_MEMORY, p->source, p->why, p->why_size, "no memory for relocations");
  st = parse_relas(p, v[DT_RELA], rela, "DT_RELA");
  return st != LOADER_OK ? st : parse_relas(p, v[DT_JMPREL], plt, "DT_JMPREL");
}

static enum loader_status resolve_imports(struct parse *p, x86_dso_resolve_fn resolve, void *ctx) {
  struct x86_dso *d = p->dso;
  for (uint64_t i = 0; i < d->rela_count; i++) {
    const struct dso_symbol *s = &d->symbols[d->relas[i].sym];
    if (d->relas[i].sym == 0 || s->shndx != ELF_SHN_UNDEF || d->imports[d->relas[i].sym]) continue;
    uint64_t a = 0;
    if ((!resolve || !resolve(ctx, s->name, &a) || a == 0) && s->bind != ELF_STB_WEAK)
      return loader_report(LOADER_ERROR_VARIABLE_UNDEFINED, p->source, p->why, p->why_size,
                           "imports %s, which neither the C library nor the executable defines",
                           s->name);
    d->imports[d->relas[i].sym] = a;
  }
  return LOADER_OK;
}

/* S of a relocation in `instance`. */
static uint64_t symbol_address(const struct x86_dso *d, uint32_t instance, uint32_t index) {
  const struct dso_symbol *s = &d->symbols[index];
  if (s->shndx == ELF_SHN_UNDEF) return d->imports[index];
  if (s->shndx == ELF_SHN_ABS) return s->value;
  bool shared = s->type == ELF_STT_OBJECT && s->bind != ELF_STB_LOCAL;
  return (uint64_t)(uintptr_t)d->base[shared ? 0 : instance] + s->value;
}

static void write64(uint8_t *at, uint64_t v) { memcpy(at, &v, 8); }

enum loader_status x86_dso_load(const void *data, size_t size, const char *source,
                                uint32_t instances, x86_dso_resolve_fn resolve, void *resolve_ctx,
                                struct x86_dso **out, char *why, size_t why_size) {
  *out = NULL;
  struct x86_dso *d = calloc(1, sizeof *d);
  if (!d) return loader_report(LOADER_ERROR_OUT_OF_MEMORY, source, why, why_size, "no memory");
  struct parse p = {data, size, source, why, why_size, d};
  uint64_t phoff = 0, dyn_off = 0, dyn_size = 0;
  uint32_t phnum = 0;
  enum loader_status st = parse_header(&p, &phoff, &phnum);
  if (st == LOADER_OK) st = parse_segments(&p, phoff, phnum, &dyn_off, &dyn_size);
  if (st == LOADER_OK) st = parse_dynamic(&p, dyn_off, dyn_size);
  if (st == LOADER_OK) st = resolve_imports(&p, resolve, resolve_ctx);
  if (st == LOADER_OK && (instances == 0 || !(d->base = calloc(instances, sizeof *d->base))))
    st = loader_report(LOADER_ERROR_OUT_OF_MEMORY, source, why, why_size, "no memory for %u instances", instances);
  if (st != LOADER_OK) {
    x86_dso_unload(d);
    return st;
  }
  d->instances = instances;
  /* Every instance's memory first: a relocation of data names instance 0. */
  for (uint32_t i = 0; i < instances; i++) {
    if (!(d->base[i] = plat_code_alloc(d->span))) {
      x86_dso_unload(d);
      return loader_report(LOADER_ERROR_OUT_OF_MEMORY, source, why, why_size,
                           "no memory for instance %u (%llu bytes)", i, (unsigned long long)d->span);
    }
    for (uint32_t s = 0; s < d->segment_count; s++)
      memcpy(d->base[i] + d->segments[s].vaddr, p.img + d->segments[s].offset, d->segments[s].filesz);
  }
  for (uint32_t i = 0; i < instances; i++) {
    uint8_t *b = d->base[i];
    for (uint64_t r = 0; r < d->rela_count; r++) {
      const struct dso_rela *x = &d->relas[r];
      uint64_t value;
      if (x->type == R_X86_64_RELATIVE)
        value = (uint64_t)(uintptr_t)b + (uint64_t)x->addend; /* B + A */
      else if (x->type == R_X86_64_64)
        value = (x->sym ? symbol_address(d, i, x->sym) : 0) + (uint64_t)x->addend; /* S + A */
      else
        value = symbol_address(d, i, x->sym); /* GLOB_DAT, JUMP_SLOT: S */
      write64(b + x->offset, value);
    }
    /* Each page gets the union of the permissions of the segments on it. */
    for (uint32_t s = 0; s < d->segment_count; s++) {
      const struct dso_segment *g = &d->segments[s];
      uint64_t start = ALIGN_DOWN(g->vaddr, PAGE), end = ALIGN_UP(g->vaddr + g->memsz, PAGE);
      unsigned prot = PLAT_PROT_READ;
      for (uint32_t o = 0; o < d->segment_count; o++) {
        const struct dso_segment *h = &d->segments[o];
        if (h->vaddr < end && h->vaddr + h->memsz > start)
          prot |= (h->flags & ELF_PF_W ? PLAT_PROT_WRITE : 0) | (h->flags & ELF_PF_X ? PLAT_PROT_EXEC : 0);
      }
      if (end > start && plat_code_protect(b + start, end - start, prot) != 0) {
        x86_dso_unload(d);
        return loader_report(LOADER_ERROR_OUT_OF_MEMORY, source, why, why_size,
                             "cannot set the permissions of segment %u", s);
      }
    }
  }
  free(d->relas);
  d->relas = NULL;
  log_debug("%s: %u instances of %llu bytes, %u symbols", source, instances,
            (unsigned long long)d->span, d->symbol_count);
  *out = d;
  return LOADER_OK;
}

uint64_t x86_dso_symbol(const struct x86_dso *d, uint32_t instance, const char *name) {
  if (instance >= d->instances) return 0;
  for (uint32_t i = 1; i < d->symbol_count; i++) {
    const struct dso_symbol *s = &d->symbols[i];
    if (s->shndx != ELF_SHN_UNDEF && s->bind != ELF_STB_LOCAL && strcmp(s->name, name) == 0)
      return s->shndx == ELF_SHN_ABS ? s->value : (uint64_t)(uintptr_t)d->base[instance] + s->value;
  }
  return 0;
}

void x86_dso_for_each_object(const struct x86_dso *d,
                             void (*fn)(void *ctx, const char *name, uint64_t address,
                                        uint64_t size, bool writable),
                             void *ctx) {
  for (uint32_t i = 1; i < d->symbol_count; i++) {
    const struct dso_symbol *s = &d->symbols[i];
    if (s->shndx == ELF_SHN_UNDEF || s->shndx == ELF_SHN_ABS || s->bind == ELF_STB_LOCAL ||
        s->type != ELF_STT_OBJECT)
      continue;
    const struct dso_segment *g = segment_of(d, s->value, s->size);
    fn(ctx, s->name, (uint64_t)(uintptr_t)d->base[0] + s->value, s->size, g && (g->flags & ELF_PF_W));
  }
}

void x86_dso_unload(struct x86_dso *d) {
  if (!d) return;
  if (d->base)
    for (uint32_t i = 0; i < d->instances; i++) plat_code_free(d->base[i], d->span);
  free(d->base);
  free(d->strtab);
  free(d->symbols);
  free(d->imports);
  free(d->relas);
  free(d);
}
