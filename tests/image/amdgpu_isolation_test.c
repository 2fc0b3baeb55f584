/* The GPU driver's and the model's own state is out of every device's
 * reach (lib/plat.h plat_protected_alloc): the application's memory is the
 * GPU's (its IOMMU domain maps all RAM but the kernel's), so a structure
 * with function pointers or control state there could be rewritten by the
 * GPU or any device the IOMMU lets in. QEMU has no AMD GPU: the edu device
 * stands in for one, with the domain the driver gives a board's GPU
 * (amdgpu_pci_map_ram_for_dma), and the virtual APU's device, bus binding,
 * queue bookkeeping, model registers and engines must all be outside it. */
#include <stdlib.h>

#include "drivers/amdgpu/amdgpu_efi.h"
#include "drivers/amdgpu/amdgpu_vapu.h"
#include "kernel/kmem.h"
#include "lib/plat.h"
#include "lib/test.h"
#include "tests/common/amdgpu_test_util.h"
#include "tests/image/edu_dma.h"
#include "vapu/cp_internal.h"
#include "vapu/vapu_internal.h"

/* No byte of [p, p + size) is reachable, first and last page checked. */
static void expect_unreachable(const char *what, const void *p, size_t size) {
  uint64_t a = (uint64_t)(uintptr_t)p, last = a + size - 1;
  if (iommu_can_reach(edu_dev, a, IOMMU_WRITE) || iommu_can_reach(edu_dev, last, IOMMU_WRITE) ||
      iommu_can_reach(edu_dev, a, IOMMU_READ))
    FAIL("the %s at 0x%llx is in the GPU's domain", what, (unsigned long long)a);
}

static void gpu_domain(void) {
  if (!confined()) test_skip("iommu=on only: otherwise every device reaches all memory");
  edu_fresh();
  ASSERT_EQ(amdgpu_pci_map_ram_for_dma(edu_dev), 0);
}

static void drop_domain(void) {
  ASSERT_EQ(iommu_detach(edu_dev), 0);
  edu_dev = NULL;
}

TEST(amdgpu_driver_and_model_state_is_out_of_the_gpu_domain) {
  amdgpu_test_need_model();
  gpu_domain();
  struct amdgpu_fault_log log;
  struct amdgpu_device *dev = amdgpu_test_bring_up(VAPU_RAVEN, &log);
  ASSERT_NOT_NULL(dev);
  struct amdgpu_test_queue t;
  ASSERT_EQ(amdgpu_test_queue_alloc(&t, 64), 0);
  struct amdgpu_queue_desc desc = {.amd_queue = t.amd, .ring_bytes = t.ring_bytes};
  struct amdgpu_queue *q;
  ASSERT_EQ(amdgpu_queue_create(dev, &desc, &q), 0);
  struct amdgpu_queue_info info;
  ASSERT_EQ(amdgpu_queue_get_info(q, &info), 0);
  struct vapu *v = amdgpu_vapu_of(dev);
  struct hqd *h = &v->cp->hqd[info.me - 1][info.pipe][info.queue];

  expect_unreachable("device struct", dev, sizeof *dev);
  expect_unreachable("model (bus binding)", v, sizeof *v);
  expect_unreachable("queue bookkeeping", q, 64);
  expect_unreachable("page-table list", dev->gmc.compute_vm.tables, sizeof(void *));
  expect_unreachable("model registers", v->regs, VAPU_REG_DWORDS * sizeof *v->regs);
  expect_unreachable("register hooks", v->hook_of, VAPU_REG_DWORDS * sizeof *v->hook_of);
  expect_unreachable("command processor", v->cp, sizeof *v->cp);
  ASSERT_NOT_NULL(h->exec);
  expect_unreachable("interpreter state", h->exec, 4096);
  /* What the GPU must reach stays reachable: the queue's amd_queue_t and
   * ring, the application's heap. */
  void *heap = malloc(64);
  ASSERT_NOT_NULL(heap);
  ASSERT_TRUE(iommu_can_reach(edu_dev, (uint64_t)(uintptr_t)t.amd, IOMMU_WRITE));
  ASSERT_TRUE(iommu_can_reach(edu_dev, (uint64_t)(uintptr_t)t.amd->hsa_queue.base_address, IOMMU_READ));
  ASSERT_TRUE(iommu_can_reach(edu_dev, (uint64_t)(uintptr_t)heap, IOMMU_WRITE));
  free(heap);

  ASSERT_EQ(amdgpu_queue_destroy(q, 1000000000ull), 0);
  amdgpu_test_queue_free(&t);
  amdgpu_device_remove(dev);
  drop_domain();
}

/* plat_protected_alloc itself: zeroed, aligned, listed as kernel memory,
 * a freed block used again (kmem has no free: nothing leaks to devices). */
TEST(amdgpu_protected_memory_is_kernel_memory_and_reused) {
  gpu_domain();
  uint8_t *a = plat_protected_alloc(100);
  ASSERT_NOT_NULL(a);
  ASSERT_EQ((uintptr_t)a % 64, 0);
  for (int i = 0; i < 100; i++) ASSERT_EQ(a[i], 0);
  expect_unreachable("protected block", a, 100);
  struct kmem_range ranges[256];
  size_t n = kernel_protected_ranges(ranges, 256);
  bool listed = false;
  for (size_t i = 0; i < n && i < 256; i++)
    listed |= (uint64_t)(uintptr_t)a >= ranges[i].base && (uint64_t)(uintptr_t)a + 100 <= ranges[i].base + ranges[i].size;
  ASSERT_TRUE(listed);
  a[5] = 0xab;
  plat_protected_free(a);
  uint8_t *b = plat_protected_alloc(100);
  ASSERT_PTR_EQ(b, a); /* first fit: the block just freed */
  ASSERT_EQ(b[5], 0);  /* zeroed again */
  /* A block larger than a chunk gets one of its own, out of reach too. */
  uint8_t *big = plat_protected_alloc(5u << 20);
  ASSERT_NOT_NULL(big);
  expect_unreachable("large protected block", big, 5u << 20);
  plat_protected_free(big);
  plat_protected_free(b);
  ASSERT_NULL(plat_protected_alloc(0));
  drop_domain();
}
