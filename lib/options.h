/*
 * options.h - the boot command line: `key=value` words (a word without '='
 * has the value ""), double quotes group blanks into one word, and the
 * words after a lone `--` are the application's argv[1..].
 *
 *   loglevel=debug test="pci_*" -- input.bin 3
 *
 * Portable (host unit tests): the parser knows nothing of the firmware. The
 * registry of known keys is the "plat_options" section (PLAT_OPTION in
 * lib/plat.h); options_check() refuses a key that nobody declared.
 */
#ifndef LIB_OPTIONS_H
#define LIB_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "lib/plat.h"

#define OPTIONS_MAX      64
#define OPTIONS_ARGS_MAX 64
#define OPTIONS_TEXT_MAX 4096

struct options {
  char text[OPTIONS_TEXT_MAX]; /* the words, unquoted, NUL-separated */
  struct {
    const char *key, *value;
  } items[OPTIONS_MAX];
  int count;
  char *args[OPTIONS_ARGS_MAX + 1]; /* after "--", NULL-terminated */
  int arg_count;
};

/* Fills `o` from `cmdline`. Returns 0, or -1 with a one-line reason in
 * `err` (unbalanced quote, too many words, line too long, empty key). */
int options_parse(struct options *o, const char *cmdline, char *err, size_t err_size);

/* Returns 0 if every key is declared in [decl_begin, decl_end), else -1 with
 * the first unknown key named in `err`. */
int options_check(const struct options *o, const struct plat_option_decl *decl_begin,
                  const struct plat_option_decl *decl_end, char *err, size_t err_size);

/* The value of the last `key=` given, or NULL. */
const char *options_get(const struct options *o, const char *key);

/* `value` as a number (decimal, or hex with 0x) in [min, max]: 0, or -1
 * (no number, trailing text, a sign, out of range). plat_option_uint
 * (lib/plat.h) applies it to an option. */
int options_uint(const char *value, uint64_t min, uint64_t max, uint64_t *out);

#endif
