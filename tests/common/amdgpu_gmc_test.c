/* The GPU's view of memory after bring-up: the compute VMIDs see the single
 * address space through the page tables the driver built, the model walks
 * them for every access, faults come back through the IH ring decoded. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/amdgpu/amdgpu_vapu.h"
#include "drivers/amdgpu/regs/gc_9_1.h"
#include "drivers/amdgpu/regs/gmc_v9_pte.h"
#include "lib/plat.h"
#include "lib/test.h"
#include "tests/common/amdgpu_test_util.h"

#define UNMAPPED_VA 0x0000800012345000ull /* above every user-space address of the host */

static const struct vapu_requester shader = {VAPU_GFXHUB, 8, VAPU_CLIENT_TCP, false};

TEST(amdgpu_compute_vmids_map_ram_and_carveout) {
  static const enum vapu_chip_id chips[] = {VAPU_RAVEN, VAPU_PICASSO, VAPU_RAVEN2, VAPU_RENOIR};
  for (int c = 0; c < 4; c++) {
    struct amdgpu_fault_log log;
    struct amdgpu_device *dev = amdgpu_test_bring_up(chips[c], &log);
    ASSERT_NOT_NULL(dev);
    struct vapu *v = amdgpu_vapu_of(dev);
    /* RAM: a buffer allocated after bring-up is added to the map. */
    size_t n = 3 * 4096 + 123;
    uint8_t *buf = malloc(n), back[3 * 4096 + 123];
    ASSERT_NOT_NULL(buf);
    for (size_t i = 0; i < n; i++) buf[i] = (uint8_t)(i * 7 + c);
    ASSERT_EQ(amdgpu_map_system_range(dev, buf, n), 0);
    for (uint8_t vmid = 8; vmid < 16; vmid++) {
      struct vapu_requester rq = {VAPU_GFXHUB, vmid, VAPU_CLIENT_TCP, false};
      memset(back, 0, n);
      ASSERT_EQ(vapu_gpu_read(v, &rq, NULL, (uint64_t)(uintptr_t)buf, back, n), 0);
      ASSERT_MEM_EQ(back, buf, n);
    }
    uint32_t word = 0xfeedf00d;
    ASSERT_EQ(vapu_gpu_write(v, &shader, NULL, (uint64_t)(uintptr_t)(buf + 4096), &word, 4), 0);
    ASSERT_EQ(*(uint32_t *)(buf + 4096), 0xfeedf00d);
    /* A stack variable and a global: RAM mapped at bring-up. */
    static uint32_t global_word = 0x600d;
    uint32_t got = 0;
    ASSERT_EQ(vapu_gpu_read(v, &shader, NULL, (uint64_t)(uintptr_t)&global_word, &got, 4), 0);
    ASSERT_EQ(got, 0x600d);
    /* Carve-out: local memory at the CPU's BAR0 address. */
    uint32_t *local = amdgpu_local_alloc(dev, 8192, 4096);
    ASSERT_NOT_NULL(local);
    local[1000] = 0xabcd1234;
    ASSERT_EQ(vapu_gpu_read(v, &shader, NULL, (uint64_t)(uintptr_t)&local[1000], &got, 4), 0);
    ASSERT_EQ(got, 0xabcd1234);
    uint64_t *pte = gmc_vm_pte(&dev->gmc.compute_vm, (uint64_t)(uintptr_t)local);
    ASSERT_NOT_NULL(pte);
    ASSERT_FALSE(*pte & GMC_PTE_SYSTEM); /* local, not snooped system memory */
    amdgpu_local_free(dev, local);
    ASSERT_EQ(log.count, 0);
    free(buf);
    amdgpu_device_remove(dev);
  }
}

TEST(amdgpu_vm_fault_outside_mapped_range_is_decoded) {
  struct amdgpu_fault_log log;
  struct amdgpu_device *dev = amdgpu_test_bring_up(VAPU_RENOIR, &log);
  ASSERT_NOT_NULL(dev);
  struct vapu *v = amdgpu_vapu_of(dev);
  struct vapu_requester rq = {VAPU_GFXHUB, 11, VAPU_CLIENT_TCP, false};
  uint32_t word = 0;
  ASSERT_EQ(vapu_gpu_read(v, &rq, NULL, UNMAPPED_VA + 0x44, &word, 4), -EFAULT);
  ASSERT_EQ(amdgpu_test_wait_count(&log.count, 1), 1);
  ASSERT_EQ(log.last.kind, AMDGPU_FAULT_VM);
  ASSERT_EQ_U(log.last.vm.address, UNMAPPED_VA);
  ASSERT_EQ(log.last.vm.vmid, 11);
  ASSERT_FALSE(log.last.vm.write);
  ASSERT_TRUE(log.last.vm.gfx_hub);
  ASSERT_STR_EQ(log.last.vm.client_name, "TCP");
  ASSERT_TRUE(log.last.vm.walker_error);
  ASSERT_EQ((log.last.vm.status & VM_L2_PROTECTION_FAULT_STATUS__VMID_MASK) >> VM_L2_PROTECTION_FAULT_STATUS__VMID_SHIFT, 11);
  /* The driver cleared the latch: a second fault is reported in full, not as "more faults". */
  ASSERT_EQ(vapu_gpu_write(v, &rq, NULL, UNMAPPED_VA + 0x2000, &word, 4), -EFAULT);
  ASSERT_EQ(amdgpu_test_wait_count(&log.count, 2), 2);
  ASSERT_TRUE(log.last.vm.write);
  ASSERT_EQ_U(log.last.vm.address, UNMAPPED_VA + 0x2000);
  ASSERT_FALSE(log.last.vm.more_faults);
  /* Beyond the context's 48-bit range. */
  ASSERT_EQ(vapu_gpu_read(v, &rq, NULL, 1ull << 48, &word, 4), -EFAULT);
  ASSERT_EQ(amdgpu_test_wait_count(&log.count, 3), 3);
  ASSERT_TRUE(log.last.vm.mapping_error);
  amdgpu_device_remove(dev);
}

TEST(amdgpu_wrong_page_table_faults_at_the_right_address) {
  struct amdgpu_fault_log log;
  struct amdgpu_device *dev = amdgpu_test_bring_up(VAPU_RAVEN, &log);
  ASSERT_NOT_NULL(dev);
  struct vapu *v = amdgpu_vapu_of(dev);
  uint8_t *buf = plat_dma_alloc(4 * 4096, 4096);
  ASSERT_NOT_NULL(buf);
  ASSERT_EQ(amdgpu_map_system_range(dev, buf, 4 * 4096), 0);
  uint64_t target = (uint64_t)(uintptr_t)buf + 2 * 4096;
  uint32_t word = 7;
  ASSERT_EQ(vapu_gpu_write(v, &shader, NULL, target + 16, &word, 4), 0);
  /* The injected driver bug: the PTE loses its write permission (a 2 MiB
   * mapping is split first so only this page changes). */
  ASSERT_EQ(gmc_vm_map(dev, &dev->gmc.compute_vm, target, target, 4096,
                       GMC_PTE_VALID | GMC_PTE_SYSTEM | GMC_PTE_SNOOPED | GMC_PTE_READABLE), 0);
  ASSERT_EQ(gmc_flush_compute_vmids(dev), 0);
  ASSERT_EQ(vapu_gpu_write(v, &shader, NULL, target + 16, &word, 4), -EFAULT);
  ASSERT_EQ(amdgpu_test_wait_count(&log.count, 1), 1);
  ASSERT_EQ_U(log.last.vm.address, target);
  ASSERT_TRUE(log.last.vm.write);
  ASSERT_TRUE(log.last.vm.permission_fault);
  ASSERT_EQ(log.last.vm.vmid, 8);
  /* Neighbours are untouched; reading the page itself still works. */
  ASSERT_EQ(vapu_gpu_write(v, &shader, NULL, target + 4096, &word, 4), 0);
  ASSERT_EQ(vapu_gpu_read(v, &shader, NULL, target + 16, &word, 4), 0);
  ASSERT_EQ(word, 7);
  /* An invalid PTE. On the host VMID 8 retries invalid pages and the
   * driver would map the buffer again (gmc_handle_retry_fault): this check
   * is about the walk, so the context stops retrying. */
  WREG(dev, reg_at(REG_GC_VM_CONTEXT0_CNTL, 8),
       RREG(dev, reg_at(REG_GC_VM_CONTEXT0_CNTL, 8)) & ~VM_CONTEXT_CNTL__RETRY_PERMISSION_OR_INVALID_PAGE_FAULT);
  *gmc_vm_pte(&dev->gmc.compute_vm, target) &= ~GMC_PTE_VALID;
  ASSERT_EQ(gmc_flush_compute_vmids(dev), 0);
  ASSERT_EQ(vapu_gpu_read(v, &shader, NULL, target + 8, &word, 4), -EFAULT);
  ASSERT_EQ(amdgpu_test_wait_count(&log.count, 2), 2);
  ASSERT_EQ_U(log.last.vm.address, target);
  ASSERT_FALSE(log.last.vm.write);
  amdgpu_device_remove(dev);
  plat_dma_free(buf, 4 * 4096);
}

TEST(amdgpu_tlb_keeps_translations_until_invalidated) {
  struct amdgpu_fault_log log;
  struct amdgpu_device *dev = amdgpu_test_bring_up(VAPU_PICASSO, &log);
  ASSERT_NOT_NULL(dev);
  struct vapu *v = amdgpu_vapu_of(dev);
  uint32_t *a = plat_dma_alloc(4096, 4096), *b = plat_dma_alloc(4096, 4096);
  ASSERT_TRUE(a && b);
  a[0] = 0xaaaa;
  b[0] = 0xbbbb;
  ASSERT_EQ(amdgpu_map_system_range(dev, a, 4096), 0);
  struct vapu_tlb tlb;
  memset(&tlb, 0, sizeof tlb);
  uint64_t va = (uint64_t)(uintptr_t)a;
  uint32_t got;
  ASSERT_EQ(vapu_gpu_read(v, &shader, &tlb, va, &got, 4), 0);
  ASSERT_EQ(got, 0xaaaa);
  /* Remap the page to b without telling the GPU: the TLB still answers a. */
  ASSERT_EQ(gmc_vm_map(dev, &dev->gmc.compute_vm, va, (uint64_t)(uintptr_t)b, 4096,
                       GMC_PTE_VALID | GMC_PTE_SYSTEM | GMC_PTE_SNOOPED | GMC_PTE_READABLE | GMC_PTE_WRITEABLE), 0);
  ASSERT_EQ(vapu_gpu_read(v, &shader, &tlb, va, &got, 4), 0);
  ASSERT_EQ(got, 0xaaaa);
  struct vapu_stats before, after;
  vapu_get_stats(v, &before);
  /* The invalidation engine handshake makes the new mapping visible. */
  ASSERT_EQ(gmc_flush_tlb(dev, GMC_GFXHUB, 8), 0);
  ASSERT_EQ(vapu_gpu_read(v, &shader, &tlb, va, &got, 4), 0);
  ASSERT_EQ(got, 0xbbbb);
  vapu_get_stats(v, &after);
  ASSERT_EQ_U(after.invalidations, before.invalidations + 1);
  ASSERT_EQ_U(after.page_walks, before.page_walks + 1);
  amdgpu_device_remove(dev);
  plat_dma_free(a, 4096);
  plat_dma_free(b, 4096);
}

TEST(amdgpu_vmid0_reaches_gart_and_frame_buffer_aperture) {
  static const enum vapu_chip_id chips[] = {VAPU_RAVEN, VAPU_RAVEN2, VAPU_RENOIR};
  for (int c = 0; c < 3; c++) {
    struct amdgpu_fault_log log;
    struct amdgpu_device *dev = amdgpu_test_bring_up(chips[c], &log);
    ASSERT_NOT_NULL(dev);
    struct vapu *v = amdgpu_vapu_of(dev);
    struct vapu_requester cp = {VAPU_GFXHUB, 0, VAPU_CLIENT_CPC, false};
    uint32_t *page = plat_dma_alloc(8192, 4096);
    ASSERT_NOT_NULL(page);
    page[1024 + 3] = 0x5eed;
    uint64_t mc = ~0ull;
    ASSERT_EQ(gmc_gart_map(dev, page, 8192, &mc), 0);
    ASSERT_LT(mc, dev->gmc.gart_start + dev->gmc.gart_size);
    uint32_t got = 0;
    ASSERT_EQ(vapu_gpu_read(v, &cp, NULL, mc + 4096 + 12, &got, 4), 0);
    ASSERT_EQ(got, 0x5eed);
    gmc_gart_unmap(dev, mc, 8192);
    ASSERT_EQ(vapu_gpu_read(v, &cp, NULL, mc + 4096 + 12, &got, 4), -EFAULT);
    ASSERT_EQ(amdgpu_test_wait_count(&log.count, 1), 1);
    /* The frame buffer through the system aperture, up to its last page
     * (Raven2/Renoir need the high-address workaround for that). */
    uint8_t *fb = (uint8_t *)(uintptr_t)dev->gmc.fb_physical; /* the CPU reaches it there */
    uint64_t last = dev->gmc.vram_size - 4096;
    fb[last + 8] = 0x77;
    uint8_t byte = 0;
    ASSERT_EQ(vapu_gpu_read(v, &cp, NULL, dev->gmc.fb_start + last + 8, &byte, 1), 0);
    ASSERT_EQ(byte, 0x77);
    amdgpu_device_remove(dev);
    plat_dma_free(page, 8192);
  }
}

TEST(amdgpu_registers_beyond_the_bar_use_the_index_pair) {
  struct amdgpu_fault_log log;
  struct amdgpu_device *dev = amdgpu_test_bring_up(VAPU_RAVEN, &log);
  ASSERT_NOT_NULL(dev);
  uint32_t beyond = (uint32_t)(dev->bar_size[5] / 4) + 0x1234;
  amdgpu_wreg(dev, beyond, 0xc0ffee);
  ASSERT_EQ(amdgpu_rreg(dev, beyond), 0xc0ffee);
  /* Not reachable directly through BAR5. */
  ASSERT_EQ(vapu_mmio_read(amdgpu_vapu_of(dev), beyond * 4), 0xffffffffu);
  amdgpu_device_remove(dev);
}
