/* fuzz_plat.c - the part of lib/plat.h the loader uses (logging), for the
 * fuzz targets: every message is formatted, so a bad format or argument is
 * caught by the sanitizers, but none is printed, so that libFuzzer's output
 * stays readable at thousands of refused inputs per second. */
#include <stdarg.h>
#include <stdio.h>

#include "lib/plat.h"

bool plat_log_enabled(enum log_level level, const char *tag) { return (void)level, (void)tag, true; }

void plat_vlog(enum log_level level, const char *tag, const char *fmt, va_list ap) {
  char line[512];
  (void)level, (void)tag;
  vsnprintf(line, sizeof line, fmt, ap);
}

void plat_log(enum log_level level, const char *tag, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  plat_vlog(level, tag, fmt, ap);
  va_end(ap);
}
