/* edu_dma.c - QEMU's edu as the IOMMU tests' DMA master (see edu_dma.h). */
#include "tests/image/edu_dma.h"

#include "kernel/frames.h"
#include "kernel/pci.h"
#include "lib/plat.h"
#include "lib/test.h"

static struct pci_function *edu_fn;
struct iommu_device *edu_dev; /* attached by edu_fresh(), kept between tests */

static void edu_w64(unsigned off, uint64_t v) {
  *(volatile uint64_t *)(uintptr_t)(edu_fn->bars[0].base + off) = v;
}
static uint64_t edu_r64(unsigned off) {
  return *(volatile uint64_t *)(uintptr_t)(edu_fn->bars[0].base + off);
}

void edu_fresh(void) {
  if (!edu_fn) {
    edu_fn = pci_find_device(EDU_VENDOR, EDU_DEVICE, 0);
    ASSERT_NOT_NULL(edu_fn);
    ASSERT_EQ(pci_function_bars(edu_fn), 0);
    pci_enable_memory(edu_fn);
    pci_enable_bus_master(edu_fn);
  }
  if (edu_dev) {
    ASSERT_EQ(iommu_detach(edu_dev), 0);
    edu_dev = NULL;
  }
  ASSERT_EQ(iommu_attach(edu_fn->segment, IOMMU_BDF(edu_fn->bus, edu_fn->device, edu_fn->function),
                         "edu test", &edu_dev),
            0);
}

void edu_dma(uint64_t ram, bool to_ram, uint32_t count) {
  ASSERT_LE(ram + count, EDU_DMA_LIMIT);
  ASSERT_LE(count, EDU_DMA_LEN);
  edu_w64(EDU_DMA_SRC, to_ram ? EDU_BUFFER : ram);
  edu_w64(EDU_DMA_DST, to_ram ? ram : EDU_BUFFER);
  edu_w64(EDU_DMA_COUNT, count);
  edu_w64(EDU_DMA_CMD, EDU_DMA_RUN | (to_ram ? EDU_DMA_TO_RAM : 0));
  uint64_t end = plat_now_ns() + EDU_DMA_TIMEOUT_NS;
  while (edu_r64(EDU_DMA_CMD) & EDU_DMA_RUN) {
    if (plat_now_ns() > end) FAIL("edu DMA did not finish in 5 s");
    plat_sleep_ns(1000000);
  }
}

uint8_t *low_buffer(size_t size) {
  uint64_t base = frames_alloc_below(size, 4096, EDU_DMA_LIMIT);
  ASSERT_NE(base, 0);
  return (uint8_t *)(uintptr_t)base;
}

bool confined(void) { return iommu_mode() == IOMMU_MODE_ON; }

void fill(uint8_t *p, size_t n, uint8_t seed) {
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(seed + i * 13);
}
bool filled(const uint8_t *p, size_t n, uint8_t seed) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != (uint8_t)(seed + i * 13)) return false;
  return true;
}
bool all(const uint8_t *p, size_t n, uint8_t v) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != v) return false;
  return true;
}

void load_edu_buffer(uint8_t seed) {
  uint8_t *src = low_buffer(4096);
  fill(src, 4096, seed);
  ASSERT_EQ(iommu_map(edu_dev, (uint64_t)(uintptr_t)src, 4096, IOMMU_READ), 0);
  ASSERT_EQ(iommu_flush(edu_dev), 0);
  edu_dma((uint64_t)(uintptr_t)src, false, EDU_DMA_LEN);
  ASSERT_EQ(iommu_unmap(edu_dev, (uint64_t)(uintptr_t)src, 4096), 0);
  ASSERT_EQ(iommu_flush(edu_dev), 0);
  frames_free((uint64_t)(uintptr_t)src, 4096);
}
