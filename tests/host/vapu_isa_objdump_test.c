/* The decoder against LLVM's: for every corpus code object and every asm
 * test object, llvm-objdump-19 -d --mcpu=gfx902 (its "address mnemonic"
 * listing, <object>.dis, made by mk/vapu-isa.mk) and our decoder walking
 * .text must give the same mnemonic at the same offset. all_opcodes.s holds
 * one instance of every instruction in our tables (checked here too), and
 * every instruction of unsupported.s, and every word llvm-objdump prints as
 * ".long", must decode as unknown. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/test.h"
#include "tests/host/vapu_isa_harness.h"
#include "vapu/isa/disasm.h"
#include "vapu/isa/wave.h"
#include "lib/util.h"

struct listing {
  uint64_t addr;
  char mnemonic[48];
};

/* Reads <object>.dis: "ADDRESS mnemonic" per line. */
static struct listing *read_listing(const char *path, size_t *count) {
  size_t size;
  char *text = vi_read_file(path, &size);
  if (!text) FAIL("cannot read %s (make test builds it)", path);
  size_t cap = 1024, n = 0;
  struct listing *l = malloc(cap * sizeof *l);
  ASSERT_NOT_NULL(l);
  for (char *line = text; line < text + size;) {
    char *end = memchr(line, '\n', (size_t)(text + size - line));
    if (!end) end = text + size;
    *end = 0;
    unsigned long long a;
    char m[48];
    if (sscanf(line, "%llx %47s", &a, m) == 2) {
      if (n == cap) {
        cap *= 2;
        l = realloc(l, cap * sizeof *l);
        ASSERT_NOT_NULL(l);
      }
      l[n].addr = a;
      snprintf(l[n].mnemonic, sizeof l[n].mnemonic, "%s", m);
      n++;
    }
    line = end + 1;
  }
  free(text);
  *count = n;
  return l;
}

/* The instructions we deliberately do not implement (unsupported.s): an
 * object may use them (fail.s does, to test the illegal instruction path),
 * our decoder must call them unknown. */
static struct listing *unsupported;
static size_t unsupported_count;
static bool is_unsupported(const char *mnemonic) {
  if (!unsupported)
    unsupported = read_listing(VAPU_ISA_BUILD_DIR "/vapu-isa/unsupported.o.dis", &unsupported_count);
  for (size_t i = 0; i < unsupported_count; i++)
    if (strcmp(unsupported[i].mnemonic, mnemonic) == 0) return true;
  return false;
}

/* Compares one object with its listing; returns the number of instructions. */
static size_t check_object(const char *object, bool expect_unknown) {
  char dis[600];
  if ((size_t)snprintf(dis, sizeof dis, "%s.dis", object) >= sizeof dis)
    FAIL("path too long: %s", object);
  size_t n, size, bytes;
  struct listing *l = read_listing(dis, &n);
  void *image = vi_read_file(object, &size);
  if (!image) FAIL("cannot read %s", object);
  const uint32_t *words;
  uint64_t base;
  if (!vi_elf_text(image, size, &words, &bytes, &base)) FAIL("%s: no .text", object);
  ASSERT_GT(n, 0);
  uint64_t at = base;
  for (size_t i = 0; i < n; i++) {
    char m[64];
    unsigned isize;
    size_t k = (size_t)(l[i].addr - base) / 4;
    if (expect_unknown) {
      if (k >= bytes / 4) FAIL("%s: 0x%llx past .text", object, (unsigned long long)l[i].addr);
      if (vapu_isa_disasm(words + k, (unsigned)(bytes / 4 - k), m, sizeof m, &isize))
        FAIL("%s: 0x%llx %s decodes as %s; it must be unknown", object,
                  (unsigned long long)l[i].addr, l[i].mnemonic, m);
      continue;
    }
    if (l[i].addr != at)
      FAIL("%s: llvm-objdump has %s at 0x%llx, our decoder is at 0x%llx", object,
                l[i].mnemonic, (unsigned long long)l[i].addr, (unsigned long long)at);
    bool known = vapu_isa_disasm(words + k, (unsigned)(bytes / 4 - k), m, sizeof m, &isize);
    if (strcmp(l[i].mnemonic, ".long") == 0) { /* a word LLVM cannot decode: nor may we */
      if (known)
        FAIL("%s: 0x%llx (%08x) is no gfx9 instruction, our decoder has %s", object,
                  (unsigned long long)at, words[k], m);
      at += 4;
      continue;
    }
    if (!known && is_unsupported(l[i].mnemonic)) { /* skip it as llvm-objdump sizes it */
      at = i + 1 < n ? l[i + 1].addr : at + isize;
      continue;
    }
    if (strcmp(m, l[i].mnemonic) != 0)
      FAIL("%s: at 0x%llx llvm-objdump has %s, our decoder %s (%08x %08x)", object,
                (unsigned long long)at, l[i].mnemonic, m, words[k], k + 1 < bytes / 4 ? words[k + 1] : 0);
    at += isize;
  }
  free(image);
  free(l);
  return n;
}

/* Every object with a .dis in `dir`; returns how many were checked. */
static unsigned check_dir(const char *dir, const char *suffix, size_t *insts) {
  DIR *d = opendir(dir);
  if (!d) FAIL("cannot open %s (make test builds it)", dir);
  unsigned objects = 0;
  struct dirent *de;
  char path[600];
  while ((de = readdir(d)) != NULL) {
    size_t len = strlen(de->d_name), sl = strlen(suffix);
    if (len <= sl || strcmp(de->d_name + len - sl, suffix) != 0) continue;
    snprintf(path, sizeof path, "%s/%.*s", dir, (int)(len - 4), de->d_name); /* drop ".dis" */
    bool unknown = strstr(de->d_name, "unsupported") != NULL;
    *insts += check_object(path, unknown);
    objects++;
  }
  closedir(d);
  return objects;
}

TEST(vapu_isa_objdump_corpus) {
  size_t insts = 0;
  unsigned n = check_dir(VAPU_ISA_BUILD_DIR "/kernels/gfx902", ".co.dis", &insts);
  ASSERT_GE(n, 90); /* 15 kernels x 3 optimisation levels x 2 code object versions */
  ASSERT_GT(insts, 10000);
}

TEST(vapu_isa_objdump_asm_objects) {
  size_t insts = 0;
  ASSERT_GE(check_dir(VAPU_ISA_BUILD_DIR "/vapu-isa", ".o.dis", &insts), 2);
  ASSERT_GE(check_dir(VAPU_ISA_BUILD_DIR "/vapu-isa", ".co.dis", &insts), 4); /* cl_ops.cl builds */
}

/* Each table entry names an instruction llvm-objdump printed for
 * all_opcodes.o (with its encoding suffix or segment prefix). */
static bool listed(const struct listing *l, size_t n, const char *prefix, const char *name) {
  static const char *const suffixes[] = {"", "_e32", "_e64", "_sdwa", "_dpp"};
  char want[64];
  for (unsigned s = 0; s < 5; s++) {
    snprintf(want, sizeof want, "%s%s%s", prefix, name, suffixes[s]);
    for (size_t i = 0; i < n; i++)
      if (strcmp(l[i].mnemonic, want) == 0) return true;
  }
  return false;
}

TEST(vapu_isa_objdump_tables_complete) {
  size_t n;
  struct listing *l = read_listing(VAPU_ISA_BUILD_DIR "/vapu-isa/all_opcodes.o.dis", &n);
  const struct {
    const struct optable *t;
    const char *prefix;
  } tables[] = {
      {&optab_sop2, ""},  {&optab_sopk, ""},    {&optab_sop1, ""},    {&optab_sopc, ""},
      {&optab_sopp, ""},  {&optab_smem, ""},    {&vop_cmp_ops, ""},   {&vop_int_ops, ""},
      {&vop_float_ops, ""}, {&vop_conv_ops, ""}, {&vop_lane_ops, ""}, {&optab_vop3p, ""},
      {&optab_ds, ""},    {&optab_flat, "global_"}, {&optab_flat, "flat_"}, {&optab_mubuf, ""},
  };
  unsigned entries = 0, missing = 0;
  char names[200] = "";
  for (unsigned t = 0; t < countof(tables); t++) {
    for (unsigned i = 0; i < tables[t].t->count; i++) {
      const struct opinfo *op = &tables[t].t->ops[i];
      ASSERT_NOT_NULL(op->name);
      entries++;
      /* Each opcode once per table: the first entry is the one decoded. */
      if (optable_find(tables[t].t, op->opcode) != op)
        FAIL("opcode 0x%x is in a table twice (%s)", op->opcode, op->name);
      if (listed(l, n, tables[t].prefix, op->name)) continue;
      if (!missing++) printf("table entries not in all_opcodes.s:");
      printf(" %s%s", tables[t].prefix, op->name);
      if (strlen(names) + strlen(op->name) + 2 < sizeof names)
        strcat(strcat(names, " "), op->name);
    }
  }
  if (missing) {
    printf("\n");
    FAIL("%u table entries not in all_opcodes.s:%s", missing, names);
  }
  ASSERT_GT(entries, 850); /* 898 when written (flat counted as flat_ and global_) */
  /* The VALU opcode space is split over several tables: never twice, and
   * the compares only below 0x100, the rest only from 0x100 on. */
  const struct optable *valu[] = {&vop_int_ops, &vop_float_ops, &vop_conv_ops, &vop_lane_ops};
  for (unsigned i = 0; i < vop_cmp_ops.count; i++) ASSERT_LT(vop_cmp_ops.ops[i].opcode, 0x100);
  for (unsigned op = 0; op < 1024; op++) {
    unsigned defs = op < 256 && optable_find(&vop_cmp_ops, op);
    for (unsigned t = 0; t < 4; t++) {
      const struct opinfo *o = optable_find(valu[t], op);
      defs += o != NULL;
      if (o) ASSERT_GE(o->opcode, 0x100);
    }
    if (defs > 1) FAIL("VALU opcode 0x%x defined %u times", op, defs);
  }
  free(l);
}
