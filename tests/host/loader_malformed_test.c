/* Malformed code objects: real clang output with one field broken at a time.
 * Each must be refused with LOADER_ERROR_INVALID_CODE_OBJECT and a message
 * naming what is wrong; none may crash or leak (ASan/UBSan watch). Field
 * offsets: System V gABI (ELF header, program and section headers, symbols,
 * RELA entries, notes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsa/loader/elf_format.h"
#include "hsa/loader/loader.h"
#include "lib/test.h"
#include "tests/host/loader_test_util.h"

/* Copies `file`, lets `patch` break it, and expects a refusal naming `what`. */
/* NULL if the patched copy of `image` is refused with a message naming
 * `what`, else what went wrong (in msg). */
static const char *refusal_problem(const uint8_t *image, size_t size, const char *what,
                                   void (*patch)(uint8_t *copy, uint64_t arg), uint64_t arg,
                                   char *msg, size_t msg_size) {
  uint8_t *copy = malloc(size);
  memcpy(copy, image, size);
  patch(copy, arg);
  char why[256] = "";
  struct loader_code_object *co = NULL;
  enum loader_status st = loader_code_object_parse(copy, size, "test", &co, why, sizeof why);
  free(copy);
  if (st == LOADER_OK) loader_code_object_destroy(co);
  if (st != LOADER_ERROR_INVALID_CODE_OBJECT)
    snprintf(msg, msg_size, "expected a refusal naming \"%s\", got \"%s\" (%s)", what,
             loader_status_name(st), why);
  else if (!strstr(why, what))
    snprintf(msg, msg_size, "message \"%s\" does not name \"%s\"", why, what);
  else
    return NULL;
  return msg;
}

/* Fails at the caller's line. */
#define REFUSED(image, size, what, patch, arg)                                                \
  do {                                                                                        \
    char msg_[512];                                                                           \
    const char *problem_ = refusal_problem(image, size, what, patch, arg, msg_, sizeof msg_); \
    ASSERT_MSG(!problem_, "%s", problem_);                                                    \
  } while (0)

TEST(loader_malformed_every_truncation_refused) {
  size_t size;
  uint8_t *image = loader_test_read_corpus("vector_add", "O2", 5, &size);
  for (size_t n = 0; n < size; n++) {
    uint8_t *prefix = malloc(n ? n : 1); /* exact size: ASan catches any overread */
    memcpy(prefix, image, n);
    struct loader_code_object *co = NULL;
    enum loader_status st = loader_code_object_parse(prefix, n, "test", &co, NULL, 0);
    free(prefix);
    if (st == LOADER_OK) {
      loader_code_object_destroy(co);
      FAIL("a %zu-byte prefix of a %zu-byte file was accepted", n, size);
    }
    ASSERT_EQ(st, LOADER_ERROR_INVALID_CODE_OBJECT);
  }
  free(image);
}

/* ---- ELF header -------------------------------------------------------------- */

static void set8(uint8_t *c, uint64_t arg) { c[arg >> 32] = (uint8_t)arg; }
static void set16(uint8_t *c, uint64_t arg) { put16(c, arg >> 32, (uint16_t)arg); }
static void set32(uint8_t *c, uint64_t arg) { put32(c, arg >> 32, (uint32_t)arg); }
#define AT(offset, value) (((uint64_t)(offset) << 32) | (uint32_t)(value))

/* Code object v6 (EI_ABIVERSION 4) with the given e_flags. */
static void as_v6(uint8_t *c, uint64_t flags) {
  c[ELF_EI_ABIVERSION] = ELF_ABIVERSION_AMDGPU_HSA_V6;
  put32(c, 48, (uint32_t)flags);
}

TEST(loader_malformed_header_fields) {
  size_t size;
  uint8_t *img = loader_test_read_corpus("vector_add", "O2", 5, &size);
  REFUSED(img, size, "bad magic", set8, AT(1, 'X'));
  REFUSED(img, size, "not ELF64", set8, AT(ELF_EI_CLASS, 1));
  REFUSED(img, size, "little-endian", set8, AT(ELF_EI_DATA, 2));
  REFUSED(img, size, "ELF version", set8, AT(ELF_EI_VERSION, 2));
  REFUSED(img, size, "OS ABI 0", set8, AT(ELF_EI_OSABI, 0));
  REFUSED(img, size, "ABI version 1", set8, AT(ELF_EI_ABIVERSION, 1)); /* code object v3 */
  REFUSED(img, size, "ET_DYN", set16, AT(16, 2));
  REFUSED(img, size, "e_machine 62", set16, AT(18, 62)); /* x86-64 */
  REFUSED(img, size, "unknown processor", set32, AT(48, 0x1ff));
  REFUSED(img, size, "gfx902 does not have", set32,
          AT(48, 0x12d | EF_AMDGPU_FEATURE_SRAMECC_ON_V4));
  REFUSED(img, size, "disagrees with e_flags", set32,
          AT(48, 0x02d | EF_AMDGPU_FEATURE_XNACK_ON_V4));
  REFUSED(img, size, "disagrees with e_flags", set32,
          AT(48, 0x032 | EF_AMDGPU_FEATURE_XNACK_ANY_V4));
  REFUSED(img, size, "generic version 1 on non-generic target gfx902", as_v6, 0x0100012d);
  REFUSED(img, size, "gfx9-generic without a generic version", as_v6, 0x151);
  REFUSED(img, size, "e_phentsize", set16, AT(54, 32));
  REFUSED(img, size, "e_shentsize", set16, AT(58, 40));
  REFUSED(img, size, "program headers", set16, AT(56, 0xffff));
  REFUSED(img, size, "section headers", set16, AT(60, 0xffff));
  REFUSED(img, size, "no section headers", set16, AT(60, 0));
  REFUSED(img, size, "e_shstrndx", set16, AT(62, 0x7fff));
  free(img);
}

static void set_shoff(uint8_t *c, uint64_t v) { put64(c, 40, v); }
static void set_phoff(uint8_t *c, uint64_t v) { put64(c, 32, v); }

TEST(loader_malformed_header_offsets) {
  size_t size;
  uint8_t *img = loader_test_read_corpus("vector_add", "O2", 5, &size);
  REFUSED(img, size, "section headers", set_shoff, size - 63);
  REFUSED(img, size, "section headers", set_shoff, ~0ull - 10); /* offset + size wraps */
  REFUSED(img, size, "program headers", set_phoff, ~0ull);
  free(img);
}

/* ---- Program headers -------------------------------------------------------- */

/* p_* field offsets in a program header: offset 8, vaddr 16, filesz 32,
 * memsz 40, align 48. */
static void overlap_segments(uint8_t *c, uint64_t unused) {
  (void)unused;
  uint64_t first = phdr_offset(c, ELF_PT_LOAD, 0), second = phdr_offset(c, ELF_PT_LOAD, 1);
  put64(c, second + 16, get64(c, first + 16) + 8);
}
static void no_load_segments(uint8_t *c, uint64_t unused) {
  (void)unused;
  uint16_t phnum;
  memcpy(&phnum, c + 56, 2);
  for (uint16_t i = 0; i < phnum; i++) {
    uint64_t ph = get64(c, 32) + 56ull * i;
    if (get32(c, ph) == ELF_PT_LOAD) put32(c, ph, 0x70000000); /* a processor-specific type */
  }
}
static void segment_field(uint8_t *c, uint64_t arg) {
  put64(c, phdr_offset(c, ELF_PT_LOAD, (int)(arg >> 56)) + ((arg >> 48) & 0xff),
        arg & 0xffffffffffffull);
}
#define SEG(n, field, value) (((uint64_t)(n) << 56) | ((uint64_t)(field) << 48) | (value))

TEST(loader_malformed_segments) {
  size_t size;
  uint8_t *img = loader_test_read_corpus("vector_add", "O2", 5, &size);
  REFUSED(img, size, "segments overlap", overlap_segments, 0);
  REFUSED(img, size, "no PT_LOAD", no_load_segments, 0);
  REFUSED(img, size, "lies outside", segment_field, SEG(1, 8, size));            /* p_offset */
  REFUSED(img, size, "lies outside", segment_field, SEG(1, 32, size));           /* p_filesz */
  REFUSED(img, size, "exceeds p_memsz", segment_field, SEG(0, 40, 1));           /* p_memsz */
  REFUSED(img, size, "too large", segment_field, SEG(2, 40, 0xffffffffffffull)); /* p_memsz */
  REFUSED(img, size, "p_align", segment_field, SEG(1, 48, 3));
  REFUSED(img, size, "p_align", segment_field, SEG(1, 48, 1ull << 40));
  free(img);
}

/* ---- Sections, notes, symbols ------------------------------------------------ */

static void section_field(uint8_t *c, uint64_t arg) {
  static const char *const names[] = {".note", ".symtab", ".strtab", ".rela.dyn"};
  uint64_t sh = shdr_offset(c, names[arg >> 56]);
  unsigned field = (arg >> 48) & 0xff, width = field == 4 || field == 40 || field == 44 ? 4 : 8;
  if (width == 4)
    put32(c, sh + field, (uint32_t)(arg & 0xffffffffffffull));
  else
    put64(c, sh + field, arg & 0xffffffffffffull);
}
#define SEC(name_index, field, value) SEG(name_index, field, value)
enum { NOTE, SYMTAB, STRTAB, RELA_DYN };

/* The first note of .note: namesz at +0, descsz at +4, type at +8, the
 * owner name at +12, the metadata at +20. */
static void note_field(uint8_t *c, uint64_t arg) {
  uint64_t note = get64(c, shdr_offset(c, ".note") + 24);
  if ((arg >> 32) == 20)
    c[note + 20] = (uint8_t)arg; /* first byte of the MessagePack map */
  else
    put32(c, note + (arg >> 32), (uint32_t)arg);
}

/* st_name of symbol 1 of .symtab (symbols are 24 bytes, st_name first). */
static void symbol_name(uint8_t *c, uint64_t value) {
  put32(c, get64(c, shdr_offset(c, ".symtab") + 24) + 24, (uint32_t)value);
}

TEST(loader_malformed_sections_notes_symbols) {
  size_t size;
  uint8_t *img = loader_test_read_corpus("vector_add", "O2", 5, &size);
  REFUSED(img, size, "lies outside", section_field, SEC(NOTE, 24, size));          /* sh_offset */
  REFUSED(img, size, "lies outside", section_field, SEC(NOTE, 32, 0xffffffffull)); /* sh_size */
  REFUSED(img, size, "runs past the section", note_field, AT(4, 0x7fffffff));      /* descsz */
  REFUSED(img, size, "runs past the section", note_field, AT(0, 0xfffffff0));      /* namesz */
  REFUSED(img, size, "no NT_AMDGPU_METADATA", note_field, AT(8, 33));              /* type */
  REFUSED(img, size, "metadata: ", note_field, AT(20, 0xc1));           /* never-used byte */
  REFUSED(img, size, "metadata: ", note_field, AT(20, 0x90));           /* an array, not a map */
  REFUSED(img, size, "entry size", section_field, SEC(SYMTAB, 56, 16)); /* sh_entsize */
  REFUSED(img, size, "not a string table", section_field, SEC(SYMTAB, 40, 0)); /* sh_link */
  REFUSED(img, size, "name offset", symbol_name, 0x7fffffff);
  free(img);
}

/* ---- Kernel descriptor ------------------------------------------------------- */

static uint64_t kd_file_offset; /* of vector_add.kd in the image */
static void kd_field(uint8_t *c, uint64_t arg) {
  uint64_t at = kd_file_offset + (arg >> 32);
  if ((arg >> 32) == 16)
    put64(c, at, get64(c, at) + (uint32_t)arg);
  else
    put32(c, at, (uint32_t)arg);
}

TEST(loader_malformed_kernel_descriptor) {
  size_t size;
  uint8_t *img = loader_test_read_corpus("vector_add", "O2", 5, &size);
  char why[256];
  struct loader_code_object *co = loader_test_parse(img, size, LOADER_OK, why, sizeof why);
  const struct loader_symbol *k = loader_code_object_symbol(co, "vector_add.kd");
  for (uint32_t i = 0; i < co->segment_count; i++)
    if (k->vaddr >= co->segments[i].vaddr &&
        k->vaddr < co->segments[i].vaddr + co->segments[i].filesz)
      kd_file_offset = co->segments[i].offset + (k->vaddr - co->segments[i].vaddr);
  loader_code_object_destroy(co);
  REFUSED(img, size, "entry point", kd_field, AT(16, 4));               /* misaligned entry */
  REFUSED(img, size, "entry point", kd_field, AT(16, 0x100000));        /* past the code */
  REFUSED(img, size, "disagrees with metadata", kd_field, AT(0, 4096)); /* group size */
  REFUSED(img, size, "disagrees with metadata", kd_field, AT(8, 8));    /* kernarg size */
  REFUSED(img, size, "wave32", kd_field, AT(56, 1u << 10 | 0x8));       /* wave32 bit */
  free(img);
}

/* ---- Relocations (global_vars has RELATIVE64 and ABS64) ---------------------------- */

/* An entry of .rela.dyn (24 bytes): r_offset +0, r_info +8 (type in the low
 * 32 bits, symbol index in the high 32), r_addend +16. Entry 0 is the
 * RELATIVE64, entry 1 the ABS64 against ext_offset. */
static void rela_field(uint8_t *c, uint64_t arg) {
  uint64_t rela = get64(c, shdr_offset(c, ".rela.dyn") + 24) + 24 * (arg >> 56);
  arg &= (1ull << 56) - 1;
  unsigned field = (unsigned)(arg >> 48);
  uint64_t value = arg & 0xffffffffffffull;
  if (field == 8) /* type */
    put32(c, rela + 8, (uint32_t)value);
  else if (field == 12) /* symbol index */
    put32(c, rela + 12, (uint32_t)value);
  else
    put64(c, rela + field, value);
}
#define REL(field, value) (((uint64_t)(field) << 48) | (value))

TEST(loader_malformed_relocations) {
  size_t size;
  uint8_t *img = loader_test_read_corpus("global_vars", "O2", 5, &size);
  REFUSED(img, size, "unsupported relocation R_AMDGPU_REL32 (type 4)", rela_field, REL(8, 4));
  REFUSED(img, size, "R_AMDGPU_GOTPCREL32_LO", rela_field, REL(8, 8));
  REFUSED(img, size, "unknown relocation (type 200)", rela_field, REL(8, 200));
  REFUSED(img, size, "outside every loadable segment", rela_field, REL(0, 0x7fffffffffffull));
  REFUSED(img, size, "names symbol", rela_field, (1ull << 56) | REL(12, 0xffff));
  REFUSED(img, size, "SHT_REL", section_field, SEC(RELA_DYN, 4, ELF_SHT_REL));
  REFUSED(img, size, "entry size", section_field, SEC(RELA_DYN, 56, 16));
  free(img);
}
