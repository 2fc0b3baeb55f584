/* log.c - plat_log() for the image: one console line per call,
 * "[seconds.micros cN] L tag: message", where the time counts from efi_main,
 * N is the core and L the level. */
#include "kernel/log.h"

#include <stdio.h>
#include <string.h>

#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/time.h"
#include "lib/log_levels.h"
#include "lib/plat.h"

#define LOG_TAG  "log"
#define LINE_MAX 512

static const char level_letters[] = "EWIDT";
static struct log_levels levels = {.level = LOG_INFO, .most = LOG_INFO};

bool plat_log_enabled(enum log_level level, const char *tag) { return log_levels_enabled(&levels, level, tag); }

void plat_vlog(enum log_level level, const char *tag, const char *fmt, va_list ap) {
  if (!plat_log_enabled(level, tag)) return;
  char line[LINE_MAX];
  uint64_t ns = time_ns();
  int n = snprintf(
      line, sizeof line, "[%4llu.%06llu c%u] %c %s: ", (unsigned long long)(ns / 1000000000),
      (unsigned long long)(ns / 1000 % 1000000), cpu_index(), level_letters[level], tag);
  int m = vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
  size_t len = (size_t)n + (m > 0 ? (size_t)m : 0);
  if (len > sizeof line - 2) { /* truncated: say so */
    len = sizeof line - 2;
    memcpy(line + len - 3, "...", 3);
  }
  while (len > (size_t)n && line[len - 1] == '\n') len--; /* one line per call */
  line[len++] = '\n';
  console_write(line, len);
}

void plat_log(enum log_level level, const char *tag, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  plat_vlog(level, tag, fmt, ap);
  va_end(ap);
}

int log_init_from_options(void) {
  char err[200];
  if (log_levels_parse(plat_option("loglevel"), LOG_INFO, &levels, err, sizeof err) == 0) return 0;
  log_error("%s", err);
  return -1;
}
