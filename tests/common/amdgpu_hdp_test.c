/* The HDP flush registers the driver hands to the runtime: NBIO's
 * HDP_MEM/REG_COHERENCY_FLUSH_CNTL at their BAR5 byte offsets (NBIO segment
 * 2 is at dword 0xd20 on every supported chip, Linux vega10_ip_offset.h and
 * renoir_ip_offset.h; offsets 0xf7 and 0xf6 from nbio_7_0_offset.h), and
 * the BAR arithmetic a board's PCI binding uses for them. */
#include <stdint.h>

#include "drivers/amdgpu/amdgpu_vapu.h"
#include "drivers/amdgpu/regs/nbio_7_0.h"
#include "lib/test.h"
#include "tests/common/amdgpu_test_util.h"

#define NBIO_SEG2_DWORD 0x0d20u

TEST(amdgpu_hdp_flush_registers_are_nbio_registers_on_every_chip) {
  static const enum vapu_chip_id chips[] = {VAPU_RAVEN, VAPU_PICASSO, VAPU_RAVEN2, VAPU_RENOIR};
  for (int c = 0; c < 4; c++) {
    struct amdgpu_fault_log log;
    struct amdgpu_device *dev = amdgpu_test_bring_up(chips[c], &log);
    ASSERT_NOT_NULL(dev);
    uint32_t *mem = NULL, *reg = NULL;
    ASSERT_EQ(amdgpu_hdp_flush_registers(dev, &mem, &reg), 0);
    volatile uint32_t *bar = vapu_mmio_word(amdgpu_vapu_of(dev), 0);
    ASSERT_NOT_NULL(bar);
    ASSERT_EQ_U((uint64_t)(mem - (uint32_t *)bar), NBIO_SEG2_DWORD + 0xf7);
    ASSERT_EQ_U((uint64_t)(reg - (uint32_t *)bar), NBIO_SEG2_DWORD + 0xf6);
    /* A store through them lands in the register the driver reads (the
     * model runs no write hook for it: its memory is coherent), and the
     * driver's own flush goes on working. */
    *(volatile uint32_t *)mem = 1;
    *(volatile uint32_t *)reg = 1;
    ASSERT_EQ_U(amdgpu_rreg(dev, NBIO_SEG2_DWORD + NBIO_HDP_MEM_COHERENCY_FLUSH_CNTL), 1);
    ASSERT_EQ_U(amdgpu_rreg(dev, NBIO_SEG2_DWORD + NBIO_HDP_REG_COHERENCY_FLUSH_CNTL), 1);
    struct vapu_stats before, after;
    vapu_get_stats(amdgpu_vapu_of(dev), &before);
    hdp_flush(dev);
    vapu_get_stats(amdgpu_vapu_of(dev), &after);
    ASSERT_EQ_U(after.hdp_flushes, before.hdp_flushes + 1);
    ASSERT_EQ(log.count, 0);
    amdgpu_device_remove(dev);
  }
}

/* A board's registers: BAR5's CPU mapping plus the byte offset, inside the
 * BAR and dword-aligned only. */
TEST(amdgpu_bar_word_is_bar_plus_offset_inside_the_bar) {
  static uint32_t bar[1024];
  ASSERT_TRUE(amdgpu_bar_word(bar, sizeof bar, 0) == &bar[0]);
  ASSERT_TRUE(amdgpu_bar_word(bar, sizeof bar, (NBIO_SEG2_DWORD - 0xd00 + 0xf7) * 4) ==
              &bar[NBIO_SEG2_DWORD - 0xd00 + 0xf7]);
  ASSERT_TRUE(amdgpu_bar_word(bar, sizeof bar, sizeof bar - 4) == &bar[1023]);
  ASSERT_NULL(amdgpu_bar_word(bar, sizeof bar, sizeof bar));     /* past the end */
  ASSERT_NULL(amdgpu_bar_word(bar, sizeof bar, sizeof bar - 2)); /* straddles the end */
  ASSERT_NULL(amdgpu_bar_word(bar, sizeof bar, 6));              /* not a dword */
  ASSERT_NULL(amdgpu_bar_word(bar, sizeof bar, UINT32_MAX - 3));
  ASSERT_NULL(amdgpu_bar_word(NULL, 0, 0)); /* no BAR5 */
}
