/* options.c - parses and checks the boot command line (see options.h). */
#include "lib/options.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* Copies the next word of *line into `out` (unquoted, NUL-terminated) and
 * advances *line. Returns the word's length, 0 at the end, -1 on an error. */
static int next_word(const char **line, char *out, size_t room, char *err, size_t err_size,
                     bool *was_quoted) {
  const char *p = *line;
  while (*p == ' ' || *p == '\t') p++;
  if (!*p) return 0;
  size_t n = 0;
  bool quoted = false;
  *was_quoted = false;
  for (; *p && (quoted || (*p != ' ' && *p != '\t')); p++) {
    if (*p == '"') {
      quoted = !quoted;
      *was_quoted = true;
      continue;
    }
    if (n + 1 >= room) {
      snprintf(err, err_size, "command line longer than %d bytes", OPTIONS_TEXT_MAX);
      return -1;
    }
    out[n++] = *p;
  }
  if (quoted) {
    snprintf(err, err_size, "unbalanced '\"' in the command line");
    return -1;
  }
  out[n] = '\0';
  *line = p;
  return (int)n + 1; /* a quoted empty word still counts */
}

int options_parse(struct options *o, const char *cmdline, char *err, size_t err_size) {
  memset(o, 0, sizeof *o);
  size_t used = 0;
  bool in_args = false;
  const char *p = cmdline ? cmdline : "";
  for (;;) {
    char *word = o->text + used;
    bool was_quoted;
    int len = next_word(&p, word, sizeof o->text - used, err, err_size, &was_quoted);
    if (len < 0) return -1;
    if (len == 0) break;
    used += (size_t)len;
    if (!in_args && !was_quoted && strcmp(word, "--") == 0) {
      in_args = true;
      continue;
    }
    if (in_args) {
      if (o->arg_count == OPTIONS_ARGS_MAX) {
        snprintf(err, err_size, "more than %d application arguments", OPTIONS_ARGS_MAX);
        return -1;
      }
      o->args[o->arg_count++] = word;
      continue;
    }
    if (o->count == OPTIONS_MAX) {
      snprintf(err, err_size, "more than %d boot options", OPTIONS_MAX);
      return -1;
    }
    char *eq = strchr(word, '=');
    if (eq == word) {
      snprintf(err, err_size, "boot option \"%s\" has no key before '='", word);
      return -1;
    }
    if (eq) *eq = '\0';
    o->items[o->count].key = word;
    o->items[o->count].value = eq ? eq + 1 : word + strlen(word);
    o->count++;
  }
  o->args[o->arg_count] = NULL;
  return 0;
}

int options_check(const struct options *o, const struct plat_option_decl *decl_begin,
                  const struct plat_option_decl *decl_end, char *err, size_t err_size) {
  for (int i = 0; i < o->count; i++) {
    bool known = false;
    for (const struct plat_option_decl *d = decl_begin; d < decl_end && !known; d++)
      known = strcmp(d->key, o->items[i].key) == 0;
    if (!known) {
      snprintf(err, err_size, "unknown boot option \"%s\"", o->items[i].key);
      return -1;
    }
  }
  return 0;
}

const char *options_get(const struct options *o, const char *key) {
  for (int i = o->count - 1; i >= 0; i--)
    if (strcmp(o->items[i].key, key) == 0) return o->items[i].value;
  return NULL;
}

int options_uint(const char *value, uint64_t min, uint64_t max, uint64_t *out) {
  if (!value || !*value || *value == '-' || *value == '+') return -1;
  char *end = NULL;
  errno = 0;
  unsigned long long n = strtoull(value, &end, 0);
  if (*end || errno || n < min || n > max) return -1;
  *out = n;
  return 0;
}

uint64_t plat_option_uint(const char *key, uint64_t min, uint64_t max, uint64_t fallback) {
  const char *v = plat_option(key);
  uint64_t n;
  if (!v) return fallback;
  if (options_uint(v, min, max, &n) == 0) return n;
  plat_log(LOG_WARN, "options", "%s=%s ignored: want a number in %llu..%llu", key, v, (unsigned long long)min,
           (unsigned long long)max);
  return fallback;
}
