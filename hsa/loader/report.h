/* report.h - the loader's one way to fail: log one line (tag "loader") that
 * names the code object and the problem, copy it to the caller's `why`
 * buffer (may be NULL), return `status`. Internal to hsa/loader/. */
#ifndef HSA_LOADER_REPORT_H
#define HSA_LOADER_REPORT_H

#include <stddef.h>

#include "hsa/loader/loader.h"

enum loader_status loader_report(enum loader_status status, const char *source, char *why,
                                 size_t why_size, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif
