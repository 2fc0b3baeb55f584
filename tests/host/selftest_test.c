/* Tests of the test runner itself: pattern matching decides which tests
 * run; the checks after each test put back what a test left behind. */
#include <hsa/hsa.h>

#include "lib/test.h"

TEST(test_runner_matches_globs) {
  ASSERT_TRUE(test_name_matches(NULL, "anything"));
  ASSERT_TRUE(test_name_matches("", "anything"));
  ASSERT_TRUE(test_name_matches("pci*", "pci_enumerate"));
  ASSERT_FALSE(test_name_matches("pci*", "acpi_pci"));
  ASSERT_TRUE(test_name_matches("acpi*,pci*", "pci_bar"));
  ASSERT_TRUE(test_name_matches("*_bar", "pci_bar"));
  ASSERT_TRUE(test_name_matches("pci_b?r", "pci_bar"));
  ASSERT_FALSE(test_name_matches("pci_b?r", "pci_baar"));
  ASSERT_STR_EQ(test_current(), "test_runner_matches_globs");
}

/* TEST_AFTER_EACH: what a test leaves open (here the HSA runtime, opened
 * twice) is closed by the checks the runner makes after it, which also
 * say so (a test that passed that way fails). */
TEST(test_runner_after_each_closes_what_a_test_left_open) {
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  const char *check = NULL, *why = test_after_each_checks(&check);
  ASSERT_NOT_NULL(why);
  ASSERT_STR_EQ(check, "hsa_runtime_closed");
  uint16_t major;
  ASSERT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major), HSA_STATUS_ERROR_NOT_INITIALIZED);
  ASSERT_NULL(test_after_each_checks(NULL)); /* nothing left the second time */
}
