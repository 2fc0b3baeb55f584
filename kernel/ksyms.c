/* ksyms.c - lookups in the image's symbol table (layout: kernel/ksyms.h). */
#include "kernel/ksyms.h"

static const uint8_t *table_bytes(const struct ksym_table *t, uint32_t offset) {
  return (const uint8_t *)t + offset;
}

long ksym_table_find(const struct ksym_table *t, uint32_t addr) {
  size_t lo = 0, hi = t->count; /* the answer lies in [lo, hi) */
  if (hi == 0 || t->addr[0] > addr) return -1;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (t->addr[mid] <= addr)
      lo = mid;
    else
      hi = mid;
  }
  return (long)lo;
}

bool ksym_table_name(const struct ksym_table *t, uint32_t index, char *name, size_t size) {
  const uint32_t *markers = (const uint32_t *)table_bytes(t, t->markers);
  const uint16_t *token_index = (const uint16_t *)table_bytes(t, t->tokens);
  const char *token_text = (const char *)(token_index + 256);
  /* From the marker before it, skip the names in between by their lengths. */
  const uint8_t *p = table_bytes(t, t->names) + markers[index / KSYM_MARKER_EVERY];
  for (uint32_t i = index % KSYM_MARKER_EVERY; i > 0; i--) p += 1 + p[0];
  if (size == 0) return false;
  size_t len = 0;
  unsigned tokens = p[0];
  for (unsigned k = 1; k <= tokens; k++) {
    for (const char *s = token_text + token_index[p[k]]; *s; s++) {
      if (len + 1 == size) {
        name[0] = '\0';
        return false;
      }
      name[len++] = *s;
    }
  }
  name[len] = '\0';
  return true;
}
