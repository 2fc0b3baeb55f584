/* The boot command line parser (lib/options.c) and the registry check. */
#include <stdio.h>
#include <string.h>

#include "lib/log_levels.h"
#include "lib/options.h"
#include "lib/test.h"
#include "lib/util.h"

static struct options o; /* 5 KiB: not on the stack */
static char err[160];

TEST(options_parse_keys_values_and_flags) {
  ASSERT_EQ(options_parse(&o, "  loglevel=debug   iommu=off verbose ", err, sizeof err), 0);
  ASSERT_EQ(o.count, 3);
  ASSERT_STR_EQ(options_get(&o, "loglevel"), "debug");
  ASSERT_STR_EQ(options_get(&o, "iommu"), "off");
  ASSERT_STR_EQ(options_get(&o, "verbose"), ""); /* a key without '=' */
  ASSERT_NULL(options_get(&o, "vapu"));
  ASSERT_EQ(o.arg_count, 0);
  ASSERT_NULL(o.args[0]);
}

TEST(options_parse_quotes_and_equals_in_values) {
  ASSERT_EQ(options_parse(&o, "test=\"pci_*, vm_*\" path=a=b empty=\"\"", err, sizeof err), 0);
  ASSERT_STR_EQ(options_get(&o, "test"), "pci_*, vm_*");
  ASSERT_STR_EQ(options_get(&o, "path"), "a=b");
  ASSERT_STR_EQ(options_get(&o, "empty"), "");
}

TEST(options_parse_application_arguments) {
  ASSERT_EQ(options_parse(&o, "loglevel=info -- input.bin \"two words\" -- x=1", err, sizeof err),
            0);
  ASSERT_EQ(o.count, 1);
  ASSERT_EQ(o.arg_count, 4);
  ASSERT_STR_EQ(o.args[0], "input.bin");
  ASSERT_STR_EQ(o.args[1], "two words");
  ASSERT_STR_EQ(o.args[2], "--"); /* only the first "--" separates */
  ASSERT_STR_EQ(o.args[3], "x=1");
  ASSERT_NULL(o.args[4]);
  ASSERT_NULL(options_get(&o, "x"));
}

TEST(options_last_value_wins) {
  ASSERT_EQ(options_parse(&o, "loglevel=info loglevel=trace", err, sizeof err), 0);
  ASSERT_STR_EQ(options_get(&o, "loglevel"), "trace");
}

TEST(options_empty_and_null_lines) {
  ASSERT_EQ(options_parse(&o, "", err, sizeof err), 0);
  ASSERT_EQ(o.count, 0);
  ASSERT_EQ(options_parse(&o, NULL, err, sizeof err), 0);
  ASSERT_EQ(o.count, 0);
}

TEST(options_parse_errors) {
  ASSERT_EQ(options_parse(&o, "test=\"open", err, sizeof err), -1);
  ASSERT_TRUE(strstr(err, "unbalanced") != NULL);
  ASSERT_EQ(options_parse(&o, "=value", err, sizeof err), -1);
  ASSERT_TRUE(strstr(err, "no key") != NULL);

  static char line[OPTIONS_TEXT_MAX * 2];
  memset(line, 'a', sizeof line - 1);
  line[sizeof line - 1] = '\0';
  ASSERT_EQ(options_parse(&o, line, err, sizeof err), -1);
  ASSERT_TRUE(strstr(err, "longer") != NULL);

  char many[OPTIONS_MAX * 4 + 16] = "";
  for (int i = 0; i <= OPTIONS_MAX; i++) strcat(many, "k=1 ");
  ASSERT_EQ(options_parse(&o, many, err, sizeof err), -1);
  ASSERT_TRUE(strstr(err, "more than") != NULL);
}

TEST(options_check_against_registry) {
  static const struct plat_option_decl decls[] = {{"loglevel", "x"}, {"test", "y"}};
  ASSERT_EQ(options_parse(&o, "loglevel=1 test=*", err, sizeof err), 0);
  ASSERT_EQ(options_check(&o, decls, decls + 2, err, sizeof err), 0);
  ASSERT_EQ(options_parse(&o, "loglevel=1 tset=*", err, sizeof err), 0);
  ASSERT_EQ(options_check(&o, decls, decls + 2, err, sizeof err), -1);
  ASSERT_TRUE(strstr(err, "\"tset\"") != NULL);
  /* Application arguments are not options: never checked. */
  ASSERT_EQ(options_parse(&o, "-- anything=goes", err, sizeof err), 0);
  ASSERT_EQ(options_check(&o, decls, decls + 2, err, sizeof err), 0);
}

TEST(options_numbers_in_range) {
  uint64_t n = 7;
  ASSERT_EQ(options_uint("42", 0, 100, &n), 0);
  ASSERT_EQ(n, 42);
  ASSERT_EQ(options_uint("0x124", 0, 0xffff, &n), 0);
  ASSERT_EQ(n, 0x124);
  const char *bad[] = {"", "-1", "+3", "12x", "101", "0x", "99999999999999999999"};
  for (size_t i = 0; i < countof(bad); i++) {
    n = 7;
    ASSERT_EQ(options_uint(bad[i], 0, 100, &n), -1);
    ASSERT_EQ(n, 7); /* untouched */
  }
  ASSERT_EQ(options_uint("0", 1, 8, &n), -1); /* below the minimum */
}

/* loglevel: a level for every tag, then single tags; a wrong word is an
 * error, never a default (the host took "3" or a typo for warn). */
TEST(log_levels_per_tag) {
  struct log_levels l;
  ASSERT_EQ(log_levels_parse(NULL, LOG_INFO, &l, err, sizeof err), 0);
  ASSERT_TRUE(log_levels_enabled(&l, LOG_INFO, "gmc"));
  ASSERT_FALSE(log_levels_enabled(&l, LOG_DEBUG, "gmc"));
  ASSERT_EQ(log_levels_parse("warn,gmc:trace,ih:debug", LOG_INFO, &l, err, sizeof err), 0);
  ASSERT_TRUE(log_levels_enabled(&l, LOG_TRACE, "gmc"));
  ASSERT_TRUE(log_levels_enabled(&l, LOG_DEBUG, "ih"));
  ASSERT_FALSE(log_levels_enabled(&l, LOG_TRACE, "ih"));
  ASSERT_FALSE(log_levels_enabled(&l, LOG_INFO, "queue"));
  ASSERT_TRUE(log_levels_enabled(&l, LOG_WARN, "queue"));
  ASSERT_EQ(log_levels_parse("3", LOG_INFO, &l, err, sizeof err), 0); /* numbers too */
  ASSERT_TRUE(log_levels_enabled(&l, LOG_DEBUG, "any"));
  ASSERT_EQ(log_levels_parse("queue:error", LOG_WARN, &l, err, sizeof err), 0); /* tags only */
  ASSERT_FALSE(log_levels_enabled(&l, LOG_WARN, "queue"));
  ASSERT_TRUE(log_levels_enabled(&l, LOG_WARN, "gmc"));
  const char *bad[] = {"3x", "verbose", "info,gmc", "info,:debug", "info,gmc:loud", "info,,gmc:debug", ""};
  for (size_t i = 0; i < countof(bad); i++) {
    ASSERT_EQ(log_levels_parse(bad[i], LOG_INFO, &l, err, sizeof err), -1);
    ASSERT_TRUE(strstr(err, "loglevel: ") != NULL);
    ASSERT_TRUE(log_levels_enabled(&l, LOG_INFO, "gmc")); /* left at the fallback */
    ASSERT_FALSE(log_levels_enabled(&l, LOG_DEBUG, "gmc"));
  }
  char many[512] = "info";
  for (int i = 0; i <= LOG_LEVELS_TAGS_MAX; i++) sprintf(many + strlen(many), ",t%d:debug", i);
  ASSERT_EQ(log_levels_parse(many, LOG_INFO, &l, err, sizeof err), -1);
  ASSERT_TRUE(strstr(err, "too many") != NULL);
}
