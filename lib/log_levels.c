/* log_levels.c - the loglevel option (see log_levels.h). */
#include "lib/log_levels.h"

#include <stdio.h>
#include <string.h>

PLAT_OPTION(loglevel, "loglevel",
            "LEVEL[,TAG:LEVEL...]: log level (error|warn|info|debug|trace or 0-4; image default info, "
            "host warn), then per tag, e.g. warn,gmc:trace");

static const char *const names[] = {"error", "warn", "info", "debug", "trace"};

const char *log_level_name(enum log_level level) {
  return (unsigned)level <= LOG_TRACE ? names[level] : "?";
}

/* A level word of `len` bytes: its name or its number. */
static int level_of(const char *s, size_t len) {
  for (int i = 0; i <= LOG_TRACE; i++)
    if ((strlen(names[i]) == len && strncmp(s, names[i], len) == 0) || (len == 1 && s[0] == '0' + i))
      return i;
  return -1;
}

static void reset(struct log_levels *out, enum log_level level) {
  memset(out, 0, sizeof *out);
  out->level = out->most = level;
}

static int refuse(struct log_levels *out, enum log_level fallback, char *err, size_t err_size,
                  const char *spec, const char *what) {
  snprintf(err, err_size, "loglevel: %s in \"%s\" (want LEVEL[,TAG:LEVEL...], LEVEL one of error, "
           "warn, info, debug, trace or 0-4)", what, spec);
  reset(out, fallback);
  return -1;
}

int log_levels_parse(const char *spec, enum log_level fallback, struct log_levels *out, char *err,
                     size_t err_size) {
  reset(out, fallback);
  if (!spec) return 0;
  const char *p = spec;
  for (bool first = true;; first = false) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    const char *colon = memchr(p, ':', len);
    if (!colon) {
      int level = first ? level_of(p, len) : -1;
      if (level < 0) return refuse(out, fallback, err, err_size, spec, first ? "unknown level" : "a tag without its level");
      out->level = (enum log_level)level;
    } else {
      size_t tag_len = (size_t)(colon - p);
      int level = level_of(colon + 1, len - tag_len - 1);
      if (!tag_len || tag_len >= LOG_LEVELS_TAG_BYTES) return refuse(out, fallback, err, err_size, spec, "a tag is empty or too long");
      if (level < 0) return refuse(out, fallback, err, err_size, spec, "unknown level for a tag");
      if (out->tag_count == LOG_LEVELS_TAGS_MAX) return refuse(out, fallback, err, err_size, spec, "too many tags");
      memcpy(out->tags[out->tag_count].tag, p, tag_len);
      out->tags[out->tag_count].tag[tag_len] = '\0';
      out->tags[out->tag_count++].level = (enum log_level)level;
    }
    if (!end) break;
    p = end + 1;
  }
  out->most = out->level;
  for (unsigned i = 0; i < out->tag_count; i++)
    if (out->tags[i].level > out->most) out->most = out->tags[i].level;
  return 0;
}

bool log_levels_enabled(const struct log_levels *l, enum log_level level, const char *tag) {
  if (level > l->most) return false;
  for (unsigned i = l->tag_count; i-- > 0;)
    if (strcmp(l->tags[i].tag, tag) == 0) return level <= l->tags[i].level;
  return level <= l->level;
}
