/*
 * log_levels.h - the `loglevel` option, the same on both platforms: a
 * level for every tag, then levels for single tags,
 *
 *   loglevel=info              everything up to info
 *   loglevel=warn,gmc:trace    warnings, and the "gmc" tag up to trace
 *   loglevel=3,ih:debug        levels by number too: 0 error .. 4 trace
 *
 * Parsed once (image: at boot; host: at the first log line); a wrong
 * level or tag is refused with a one-line reason, never read as a default.
 */
#ifndef LIB_LOG_LEVELS_H
#define LIB_LOG_LEVELS_H

#include <stddef.h>

#include "lib/plat.h"

#define LOG_LEVELS_TAGS_MAX 16
#define LOG_LEVELS_TAG_BYTES 24

struct log_levels {
  enum log_level level;      /* of every tag not listed */
  enum log_level most;       /* the most verbose level of any tag: a quick refusal */
  unsigned tag_count;
  struct {
    char tag[LOG_LEVELS_TAG_BYTES];
    enum log_level level;
  } tags[LOG_LEVELS_TAGS_MAX];
};

/* Fills `out` from `spec`; `fallback` is the level of every tag when spec
 * names none first. 0, or -1 with the reason in `err` (`out` is then
 * `fallback` for everything). */
int log_levels_parse(const char *spec, enum log_level fallback, struct log_levels *out, char *err,
                     size_t err_size);

/* Whether a line of `level` from `tag` is written. */
bool log_levels_enabled(const struct log_levels *l, enum log_level level, const char *tag);

/* The level names, for the log line prefix: "error" .. "trace". */
const char *log_level_name(enum log_level level);

#endif
