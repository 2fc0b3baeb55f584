/* Tests of the PCI driver registry: matching rules, drivers declared with
 * PCI_DRIVER() found in the linker section, probe order, failed probes. */
#include <errno.h>

#include "kernel/pci.h"
#include "lib/test.h"

/* IDs no real device has (0xfffe is not an assigned vendor), so these test
 * drivers never bind anything of the image or of other tests. */
#define TEST_VENDOR 0xfffe

static int probe_calls, probe_sequence[8];

static int probe_ok(struct pci_function *f, const struct pci_match *m) {
  probe_sequence[probe_calls++ % 8] = f->device_id;
  f->driver_data = (void *)m;
  return 0;
}

static int probe_fails(struct pci_function *f, const struct pci_match *m) {
  (void)m;
  probe_sequence[probe_calls++ % 8] = -f->device_id;
  return -EIO;
}

static const struct pci_match late_matches[] = {PCI_MATCH_ID(TEST_VENDOR, PCI_ANY_ID), {0}};
static const struct pci_match early_matches[] = {PCI_MATCH_ID(TEST_VENDOR, 2), {0}};
static const struct pci_match failing_matches[] = {PCI_MATCH_ID(TEST_VENDOR, 3), {0}};

PCI_DRIVER(test_late_driver) = {
    .name = "test-late", .matches = late_matches, .probe_order = PCI_ORDER_DEVICE, .probe = probe_ok};
PCI_DRIVER(test_early_driver) = {
    .name = "test-early", .matches = early_matches, .probe_order = PCI_ORDER_IOMMU, .probe = probe_ok};
PCI_DRIVER(test_failing_driver) = {
    .name = "test-failing", .matches = failing_matches, .probe_order = -1, .probe = probe_fails};

static struct pci_function fake(uint16_t vendor, uint16_t device, uint32_t class24) {
  struct pci_function f = {0};
  f.vendor_id = vendor;
  f.device_id = device;
  f.class_code = (uint8_t)(class24 >> 16);
  f.subclass = (uint8_t)(class24 >> 8);
  f.prog_if = (uint8_t)class24;
  return f;
}

TEST(pci_match_by_id_and_class) {
  const struct pci_match matches[] = {
      PCI_MATCH_ID(0x1002, 0x15dd),
      PCI_MATCH_CLASS(0x080600, 0xffff00), /* any IOMMU (class 08, subclass 06) */
      {0x1234, PCI_ANY_ID, 0x030000, 0xff0000},
      {0},
  };
  struct pci_function gpu = fake(0x1002, 0x15dd, 0x030000);
  struct pci_function other_gpu = fake(0x1002, 0x1234, 0x030000);
  struct pci_function iommu = fake(0x1022, 0x1419, 0x080600);
  struct pci_function display = fake(0x1234, 0x1111, 0x038000);
  struct pci_function not_display = fake(0x1234, 0x1111, 0x020000);
  ASSERT_PTR_EQ(pci_match_function(matches, &gpu), &matches[0]);
  ASSERT_NULL(pci_match_function(matches, &other_gpu));
  ASSERT_PTR_EQ(pci_match_function(matches, &iommu), &matches[1]);
  ASSERT_PTR_EQ(pci_match_function(matches, &display), &matches[2]);
  ASSERT_NULL(pci_match_function(matches, &not_display));
}

TEST(pci_drivers_probe_in_order_and_failures_stay_unbound) {
  struct pci_function fs[4] = {
      fake(TEST_VENDOR, 1, 0), fake(TEST_VENDOR, 2, 0), fake(TEST_VENDOR, 3, 0),
      fake(0x1234, 4, 0), /* nobody's */
  };
  probe_calls = 0;
  unsigned bound = pci_probe_function_list(fs, 4);
  /* failing (order -1) offered device 3 first, then early (0) took device 2,
   * then late (100) took 1 and 3 (which the failing driver left unbound). */
  ASSERT_EQ(probe_calls, 4);
  ASSERT_EQ(probe_sequence[0], -3);
  ASSERT_EQ(probe_sequence[1], 2);
  ASSERT_EQ(probe_sequence[2], 1);
  ASSERT_EQ(probe_sequence[3], 3);
  ASSERT_EQ(bound, 3);
  ASSERT_PTR_EQ(fs[1].driver, &test_early_driver);
  ASSERT_PTR_EQ(fs[0].driver, &test_late_driver);
  ASSERT_PTR_EQ(fs[2].driver, &test_late_driver);
  ASSERT_PTR_EQ(fs[0].driver_data, &late_matches[0]);
  ASSERT_NULL(fs[3].driver);
  /* Bound functions are not offered again. */
  probe_calls = 0;
  ASSERT_EQ(pci_probe_function_list(fs, 4), 3);
  ASSERT_EQ(probe_calls, 0);
}
