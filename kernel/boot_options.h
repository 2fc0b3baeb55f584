/* boot_options.h - the boot command line in the image: plat_option() and
 * the application's arguments (the parser is lib/options.c). */
#ifndef KERNEL_BOOT_OPTIONS_H
#define KERNEL_BOOT_OPTIONS_H

/* Parses `cmdline` and checks every key against the PLAT_OPTION registry.
 * Returns 0, or -1 after logging what is wrong and the known options. */
int boot_options_init(const char *cmdline);

/* The words after "--" (NULL-terminated) and their number. */
char **boot_options_app_args(int *count);

/* Prints every declared option with its description (the `help` option). */
void boot_options_print_help(void);

#endif
