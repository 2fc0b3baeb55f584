/* amdgpu_reg.c - register access through the bound bus: direct within BAR5,
 * through the PCIE_INDEX2/DATA2 pair beyond it (Linux amdgpu_device_rreg:
 * offsets past rmmio_size use adev->pcie_rreg, which on NBIO 7.0 is the
 * INDEX2/DATA2 pair, nbio_v7_0_get_pcie_index_offset). */
#define LOG_TAG "amdgpu"
#include <errno.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "drivers/amdgpu/regs/nbio_7_0.h"
#include "lib/plat.h"

static bool beyond_bar(const struct amdgpu_device *dev, uint32_t index) {
  return (uint64_t)index * 4 >= dev->bar_size[5];
}

static uint32_t read_register(struct amdgpu_device *dev, uint32_t index) {
  if (!beyond_bar(dev, index)) return dev->bus->mmio_read(dev, index * 4);
  uint32_t idx = amdgpu_reg_index(dev, REG_NBIO_PCIE_INDEX2);
  uint32_t data = amdgpu_reg_index(dev, REG_NBIO_PCIE_DATA2);
  dev->bus->mmio_write(dev, idx * 4, index * 4);
  (void)dev->bus->mmio_read(dev, idx * 4); /* posts the index write */
  return dev->bus->mmio_read(dev, data * 4);
}

uint32_t amdgpu_rreg(struct amdgpu_device *dev, uint32_t index) {
  uint32_t value = read_register(dev, index);
  if (dev->tracing) amdgpu_trace_access(dev, 'R', index, value);
  return value;
}

void amdgpu_wreg(struct amdgpu_device *dev, uint32_t index, uint32_t value) {
  if (dev->tracing) amdgpu_trace_access(dev, 'W', index, value);
  if (!beyond_bar(dev, index)) {
    dev->bus->mmio_write(dev, index * 4, value);
    return;
  }
  uint32_t idx = amdgpu_reg_index(dev, REG_NBIO_PCIE_INDEX2);
  uint32_t data = amdgpu_reg_index(dev, REG_NBIO_PCIE_DATA2);
  dev->bus->mmio_write(dev, idx * 4, index * 4);
  (void)dev->bus->mmio_read(dev, idx * 4);
  dev->bus->mmio_write(dev, data * 4, value);
}

volatile uint32_t *amdgpu_bar_word(volatile uint32_t *bar, uint64_t bar_bytes, uint32_t byte_offset) {
  if (!bar || (byte_offset & 3) || (uint64_t)byte_offset + 4 > bar_bytes) return NULL;
  return bar + byte_offset / 4;
}

int amdgpu_wait_reg(struct amdgpu_device *dev, uint32_t index, uint32_t mask, uint32_t value,
                    uint64_t timeout_us) {
  uint64_t deadline = plat_now_ns() + timeout_us * 1000;
  for (;;) {
    uint32_t now = amdgpu_rreg(dev, index);
    if ((now & mask) == value) return 0;
    if (plat_now_ns() > deadline) {
      char name[96];
      amdgpu_register_name(dev, index, name, sizeof name);
      log_error("timed out after %llu us waiting for %s (0x%05x) & 0x%08x == 0x%08x: it reads 0x%08x",
                (unsigned long long)timeout_us, name, index, mask, value, now);
      return -ETIMEDOUT;
    }
    plat_sleep_ns(1000);
  }
}
