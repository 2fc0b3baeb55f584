/* The symbol tables of the test images (written by kernel/gen_ksyms.py at
 * link time, copied out of the linked image by mk/image.mk) decoded by
 * kernel/ksyms.c, the code that backtraces use, and held against `nm` of
 * the same link: every code symbol's address and name, and the lookup of
 * an address inside each function. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/ksyms.h"
#include "lib/plat.h"
#include "lib/test.h"

struct nm_symbol {
  uint32_t addr;
  char name[KSYM_NAME_MAX];
};

/* The code symbols (types t, T, W) of an `nm -n --defined-only` listing,
 * in its order; a malloc'ed array the caller frees. */
static struct nm_symbol *read_nm(const char *text, size_t size, size_t *count) {
  size_t cap = 256, n = 0;
  struct nm_symbol *out = malloc(cap * sizeof *out);
  const char *end = text + size;
  for (const char *line = text; line < end;) {
    const char *eol = memchr(line, '\n', (size_t)(end - line));
    if (!eol) eol = end;
    char buf[256], type, name[256];
    unsigned long long addr;
    size_t len = (size_t)(eol - line) < sizeof buf - 1 ? (size_t)(eol - line) : sizeof buf - 1;
    memcpy(buf, line, len);
    buf[len] = '\0';
    int fields = sscanf(buf, "%llx %c %255s", &addr, &type, name);
    if (fields == 3 && strchr("tTW", type)) {
      ASSERT_MSG(strlen(name) < KSYM_NAME_MAX, "nm name %s is too long for the table", name);
      if (n == cap) out = realloc(out, (cap *= 2) * sizeof *out);
      out[n].addr = (uint32_t)addr;
      strcpy(out[n].name, name);
      n++;
    }
    line = eol + 1;
  }
  *count = n;
  return out;
}

static void check_image_table(const char *image) {
  char path[64];
  size_t table_size, nm_size, count;
  snprintf(path, sizeof path, "/ksyms/%s.ksyms", image);
  const struct ksym_table *t = plat_file_load(path, &table_size);
  ASSERT_MSG(t != NULL, "%s: not found (built with the test images, mk/image.mk)", path);
  snprintf(path, sizeof path, "/ksyms/%s.nm", image);
  char *listing = plat_file_load(path, &nm_size);
  ASSERT_MSG(listing != NULL, "%s: not found (built with the test images, mk/image.mk)", path);
  struct nm_symbol *want = read_nm(listing, nm_size, &count);
  free(listing);

  ASSERT_GE(table_size, sizeof *t);
  ASSERT_MSG(t->count == count, "%s: the table has %u symbols, nm lists %zu", image, t->count,
             count);
  ASSERT_GT(count, KSYM_MARKER_EVERY); /* names past the first marker too */
  char name[KSYM_NAME_MAX];
  for (uint32_t i = 0; i < count; i++) {
    test_context("%s: symbol %u, nm says %s at 0x%x", image, i, want[i].name, want[i].addr);
    ASSERT_EQ_U(t->addr[i], want[i].addr);
    ASSERT_TRUE(ksym_table_name(t, i, name, sizeof name));
    ASSERT_STR_EQ(name, want[i].name);
    /* An address names the last of the symbols (aliases) that start there,
     * and so does every address up to the next symbol's. */
    uint32_t last = i;
    while (last + 1 < count && want[last + 1].addr == want[i].addr) last++;
    ASSERT_EQ(ksym_table_find(t, want[i].addr), last);
    if (last + 1 < count) ASSERT_EQ(ksym_table_find(t, want[last + 1].addr - 1), last);
  }
  test_context(NULL);
  ASSERT_EQ(ksym_table_find(t, UINT32_MAX), count - 1);
  free(want);
  free((void *)t);
}

TEST(ksyms_test_image_table_decodes_to_its_nm_listing) { check_image_table("test"); }
TEST(ksyms_test_novapu_image_table_decodes_to_its_nm_listing) { check_image_table("test-novapu"); }

/* A name that does not fit the caller's buffer is refused whole, never cut. */
TEST(ksyms_name_longer_than_the_buffer_is_refused) {
  size_t size;
  const struct ksym_table *t = plat_file_load("/ksyms/test.ksyms", &size);
  ASSERT_NOT_NULL(t);
  char name[KSYM_NAME_MAX];
  uint32_t last = t->count - 1;
  ASSERT_TRUE(ksym_table_name(t, last, name, sizeof name));
  size_t len = strlen(name);
  ASSERT_GT(len, 1);
  char small[KSYM_NAME_MAX];
  memset(small, 'x', sizeof small);
  ASSERT_FALSE(ksym_table_name(t, last, small, len)); /* no room for the NUL */
  ASSERT_STR_EQ(small, "");
  ASSERT_FALSE(ksym_table_name(t, last, small, 0));
  ASSERT_TRUE(ksym_table_name(t, last, small, len + 1));
  ASSERT_STR_EQ(small, name);
  free((void *)t);
}

/* Below the first symbol, and in the empty table of the first link, no
 * symbol contains an address. */
TEST(ksyms_address_below_every_symbol_is_not_found) {
  static const struct {
    struct ksym_table t;
    uint32_t addr[1];
  } one = {{1, 0, 0, 0}, {0x1000}};
  ASSERT_EQ(ksym_table_find(&one.t, 0xfff), -1);
  ASSERT_EQ(ksym_table_find(&one.t, 0x1000), 0);
  static const struct ksym_table empty = {0, 0, 0, 0};
  ASSERT_EQ(ksym_table_find(&empty, 0), -1);
  ASSERT_EQ(ksym_table_find(&empty, UINT32_MAX), -1);
}
