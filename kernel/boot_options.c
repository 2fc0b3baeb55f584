/* boot_options.c - the boot command line in the image (see boot_options.h). */
#include "kernel/boot_options.h"

#include "kernel/console.h"
#include "lib/options.h"
#include "lib/plat.h"

#define LOG_TAG "options"

PLAT_OPTION(help, "help", "list the boot options with their descriptions and exit");

/* The registry: every PLAT_OPTION of the image (boot/image.lds). */
extern const struct plat_option_decl __start_plat_options[] __attribute__((visibility("hidden")));
extern const struct plat_option_decl __stop_plat_options[] __attribute__((visibility("hidden")));

static struct options options;

void boot_options_print_help(void) {
  console_printf("boot options (key=value words; application arguments after \"--\"):\n");
  for (const struct plat_option_decl *d = __start_plat_options; d < __stop_plat_options; d++)
    console_printf("  %-12s %s\n", d->key, d->help);
}

int boot_options_init(const char *cmdline) {
  char err[160];
  if (options_parse(&options, cmdline, err, sizeof err) != 0 ||
      options_check(&options, __start_plat_options, __stop_plat_options, err, sizeof err) != 0) {
    log_error("%s (command line: \"%s\")", err, cmdline);
    boot_options_print_help();
    return -1;
  }
  log_info("command line: \"%s\"", cmdline);
  return 0;
}

const char *plat_option(const char *key) { return options_get(&options, key); }

/* A command line that is refused stops the boot (boot_options_init). */
const char *plat_options_problem(void) { return NULL; }

char **boot_options_app_args(int *count) {
  *count = options.arg_count;
  return options.args;
}
