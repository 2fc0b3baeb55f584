/* Tests of the test runner itself: pattern matching decides which tests run. */
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
