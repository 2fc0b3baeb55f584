/*
 * iommu_event_test.c - event log entries written out from the layouts of
 * the AMD IOMMU specification (48882, 2.5; QEMU 7.2's amd-iommu model
 * writes none): decoding, the printed line, and the log itself (erratum 732,
 * overflow and restart, the interrupt) against the register model.
 */
#include <errno.h>
#include <string.h>

#include "drivers/iommu/amd_iommu_regs.h"
#include "drivers/iommu/iommu_memory.h"
#include "drivers/iommu/iommu_unit.h"
#include "lib/plat.h"
#include "lib/test.h"
#include "tests/host/iommu_fake_hw.h"

/* Entries as the hardware lays them out: dword 0 = device ID (+ PASID
 * 19:16), dword 1 = code << 28 | flags << 16 | domain/PASID 15:0, dwords
 * 2-3 = address. */
static const uint32_t write_not_present[4] = {0x0018, 0x20200001, 0xfffd4000, 0x00000001};
static const uint32_t read_denied[4] = {0x0300, 0x20500002, 0x10000000, 0};
static const uint32_t interrupt_fault[4] = {0x00a0, 0x20080000, 0xfee00000, 0};
static const uint32_t illegal_dte[4] = {0x0010, 0x10200000, 0x00001000, 0};
static const uint32_t illegal_command[4] = {0, 0x50000000, 0x3ff01230, 0};
static const uint32_t command_hw_error[4] = {0, 0x60010000, 0x3ff02000, 0};
static const uint32_t iotlb_timeout[4] = {0x0100, 0x70000000, 0x00200000, 0};
static const uint32_t page_table_hw_error[4] = {0x0018, 0x40000003, 0x7f001008, 0};
static const uint32_t unknown_code[4] = {0x1, 0xf0000000, 0x2, 0x3};

static void expect_line(const uint32_t raw[4], const char *part) {
  struct iommu_event e;
  char line[320];
  iommu_event_decode(raw, &e);
  iommu_event_format(&e, line, sizeof line);
  if (!strstr(line, part)) FAIL("\"%s\" lacks \"%s\"", line, part);
}

TEST(iommu_event_decodes_spec_layouts) {
  struct iommu_event e;
  iommu_event_decode(write_not_present, &e);
  ASSERT_EQ(e.code, EVENT_IO_PAGE_FAULT);
  ASSERT_EQ(e.devid, 0x0018);
  ASSERT_EQ(e.tag, 1);
  ASSERT_EQ(e.flags, EVENT_FLAG_RW);
  ASSERT_EQ_U(e.address, 0x1fffd4000ull);
  iommu_event_decode(read_denied, &e);
  ASSERT_EQ(e.flags, EVENT_FLAG_PR | EVENT_FLAG_PE);
  ASSERT_EQ(e.tag, 2);
  ASSERT_EQ(e.devid, 0x0300);
  iommu_event_decode(illegal_command, &e);
  ASSERT_EQ(e.code, EVENT_ILLEGAL_COMMAND_ERROR);
  ASSERT_EQ_U(e.address, 0x3ff01230);
  /* The PASID's high bits live in dword 0 bits 19:16. */
  const uint32_t with_pasid[4] = {0x50018, 0x20011234, 0, 0};
  iommu_event_decode(with_pasid, &e);
  ASSERT_EQ(e.devid, 0x0018);
  ASSERT_EQ(e.tag, 0x51234);
  ASSERT_EQ(e.flags, EVENT_FLAG_GN);

  expect_line(write_not_present, "IO_PAGE_FAULT device=00:03.0 domain=0x0001 address=0x1fffd4000");
  expect_line(write_not_present, "(write, not present)");
  expect_line(read_denied, "device=03:00.0");
  expect_line(read_denied, "(read, page present, permission denied)");
  expect_line(interrupt_fault, ", interrupt");
  expect_line(illegal_dte, "ILLEGAL_DEV_TABLE_ENTRY device=00:02.0");
  expect_line(illegal_command, "ILLEGAL_COMMAND_ERROR command at 0x3ff01230");
  expect_line(command_hw_error, "COMMAND_HARDWARE_ERROR reading 0x3ff02000");
  expect_line(iotlb_timeout, "IOTLB_INV_TIMEOUT device=01:00.0 address=0x200000");
  expect_line(page_table_hw_error,
              "PAGE_TAB_HARDWARE_ERROR device=00:03.0 domain=0x0003 table entry at 0x7f001008");
  expect_line(unknown_code, "UNKNOWN code 0xf raw 00000001 f0000000 00000002 00000003");
}

/* One IOMMU on the model, brought up by the driver's own sequence. */
static struct fake_iommu fake;
static struct iommu_memory memory;
static struct iommu_unit unit;
static struct ivrs_iommu ivhd;

struct seen_events {
  unsigned count;
  struct iommu_event last;
};

static void record_event(void *ctx, struct iommu_unit *u, const struct iommu_event *e) {
  struct seen_events *seen = ctx;
  seen->count++;
  seen->last = *e;
}

static void start_unit(struct seen_events *seen) {
  memset(&ivhd, 0, sizeof ivhd);
  ivhd.ivhd_type = 0x10;
  ivhd.devid = 0x0010;
  ivhd.last_devid = 0x00ff;
  ivhd.run_count = 1;
  ivhd.runs[0] = (struct ivrs_devices){.first = 0, .last = 0xff, .entry_type = 2};
  fake_iommu_init(&fake, IOMMU_EFR_IA_SUP);
  iommu_memory_init(&memory);
  ASSERT_EQ(
      iommu_unit_init(&unit, 0, &ivhd, &fake_iommu_ops, &fake, IOMMU_CAP_EFR_SUP, false, &memory),
      0);
  unit.sink = record_event;
  unit.sink_ctx = seen;
}

static void stop_unit(void) {
  iommu_unit_disable(&unit);
  iommu_memory_release(&memory);
}

TEST(iommu_event_log_delivers_and_clears) {
  struct seen_events seen = {0};
  start_unit(&seen);
  fake.interrupt = iommu_event_interrupt;
  fake.interrupt_ctx = &unit;
  /* Interrupt off: entries wait for a poll. */
  fake_iommu_log_event(&fake, write_not_present);
  fake_iommu_log_event(&fake, read_denied);
  ASSERT_EQ(seen.count, 0);
  ASSERT_EQ(iommu_events_process(&unit), 2);
  ASSERT_EQ(seen.count, 2);
  ASSERT_EQ(seen.last.devid, 0x0300);
  ASSERT_EQ(unit.counts.by_code[EVENT_IO_PAGE_FAULT], 2);
  /* Handled entries are zeroed (erratum 732 detection) and the status
   * interrupt bit is clear again. */
  ASSERT_EQ(((uint32_t *)unit.event_log)[1], 0);
  ASSERT_EQ_U(fake.regs[IOMMU_MMIO_STATUS / 8] & IOMMU_STATUS_EVENT_INT, 0);
  ASSERT_EQ_U(fake.regs[IOMMU_MMIO_EVENT_HEAD / 8], 2 * EVENT_SIZE);
  /* Interrupt on: the MSI handler drains the log by itself. */
  iommu_unit_enable_event_interrupt(&unit);
  fake_iommu_log_event(&fake, illegal_dte);
  ASSERT_EQ(seen.count, 3);
  ASSERT_EQ(seen.last.code, EVENT_ILLEGAL_DEV_TABLE_ENTRY);
  ASSERT_EQ(unit.counts.interrupts, 1);
  ASSERT_EQ(unit.counts.total, 3);
  ASSERT_EQ(iommu_events_process(&unit), 0);
  stop_unit();
}

TEST(iommu_event_log_overflow_restarts) {
  struct seen_events seen = {0};
  start_unit(&seen);
  /* 511 entries fill the 512-entry ring; the next ones overflow. */
  for (int i = 0; i < IOMMU_EVENT_ENTRIES + 10; i++) fake_iommu_log_event(&fake, write_not_present);
  ASSERT_TRUE(fake.regs[IOMMU_MMIO_STATUS / 8] & IOMMU_STATUS_EVENT_OVERFLOW);
  ASSERT_FALSE(fake.regs[IOMMU_MMIO_STATUS / 8] & IOMMU_STATUS_EVENT_RUN);
  ASSERT_EQ(iommu_events_process(&unit), IOMMU_EVENT_ENTRIES - 1);
  ASSERT_EQ(unit.counts.overflows, 1);
  /* Restarted: overflow cleared, logging again. */
  ASSERT_FALSE(fake.regs[IOMMU_MMIO_STATUS / 8] & IOMMU_STATUS_EVENT_OVERFLOW);
  ASSERT_TRUE(fake.regs[IOMMU_MMIO_STATUS / 8] & IOMMU_STATUS_EVENT_RUN);
  fake_iommu_log_event(&fake, iotlb_timeout);
  ASSERT_EQ(iommu_events_process(&unit), 1);
  ASSERT_EQ(seen.last.code, EVENT_IOTLB_INV_TIMEOUT);
  stop_unit();
}

TEST(iommu_event_log_waits_for_late_entries) {
  struct seen_events seen = {0};
  start_unit(&seen);
  /* Erratum 732: the tail moves before the entry is written. An entry that
   * never arrives is counted as lost after a bounded wait, and the log goes
   * on with the next one. */
  fake.regs[IOMMU_MMIO_EVENT_TAIL / 8] = EVENT_SIZE;
  uint64_t start = plat_now_ns();
  ASSERT_EQ(iommu_events_process(&unit), 1);
  ASSERT_LT(plat_now_ns() - start, 1000000000ull);
  ASSERT_EQ(unit.counts.lost, 1);
  ASSERT_EQ(seen.count, 0);
  fake_iommu_log_event(&fake, read_denied);
  ASSERT_EQ(iommu_events_process(&unit), 1);
  ASSERT_EQ(seen.count, 1);
  /* A head or tail outside the log is reported, not followed. */
  fake.regs[IOMMU_MMIO_EVENT_TAIL / 8] = 0x7fff0;
  ASSERT_EQ(iommu_events_process(&unit), 0);
  stop_unit();
}
