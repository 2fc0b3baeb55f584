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

/* TEST_AFTER_EACH: a test that leaves in its middle (here a skip) with the
 * HSA runtime open does not leave it open for the next test
 * (tests/common/hsa_test_util.c closes it). The two run in this order. */
TEST(test_runner_after_each_1_leaves_the_runtime_open) {
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  test_skip("on purpose, with the runtime opened twice: the next test checks it was closed");
}

TEST(test_runner_after_each_2_found_the_runtime_closed) {
  uint16_t major;
  ASSERT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major),
            HSA_STATUS_ERROR_NOT_INITIALIZED);
}
