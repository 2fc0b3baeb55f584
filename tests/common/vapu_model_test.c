/* The virtual APU seen as hardware, without the driver: PCI behaviour and
 * the errata the driver must work around. */
#include <errno.h>
#include <string.h>

#include "drivers/amdgpu/amdgpu_vapu.h"
#include "drivers/amdgpu/regs/gc_9_1.h"
#include "drivers/amdgpu/regs/gmc_v9_pte.h"
#include "lib/plat.h"
#include "lib/test.h"
#include "tests/common/amdgpu_test_util.h"

TEST(vapu_model_pci_bars_size_and_decode) {
  amdgpu_test_need_model();
  struct vapu_config config = {.chip = VAPU_RENOIR, .carveout_bytes = 16ull << 20};
  struct vapu *v = vapu_create(&config);
  ASSERT_NOT_NULL(v);
  ASSERT_EQ(vapu_pci_config_read(v, 0), 0x16361002u);
  uint32_t bar0 = vapu_pci_config_read(v, 0x10);
  /* BAR0 is a quarter of the carve-out by default (a board's window on the
   * start of a larger UMA frame buffer). */
  vapu_pci_config_write(v, 0x10, 0xffffffff);
  ASSERT_EQ(vapu_pci_config_read(v, 0x10) & ~0xfu, (uint32_t)~((4u << 20) - 1));
  vapu_pci_config_write(v, 0x10, bar0);
  ASSERT_EQ(vapu_pci_config_read(v, 0x10), bar0);
  vapu_pci_config_write(v, 0x24, 0xffffffff);
  ASSERT_EQ(vapu_pci_config_read(v, 0x24), (uint32_t)~(VAPU_MMIO_BAR_BYTES - 1));
  /* Registers answer all ones until memory decode is on. */
  ASSERT_EQ(vapu_mmio_read(v, 0xde3 * 4), 0xffffffffu);
  vapu_pci_config_write(v, 0x04, 0x2);
  ASSERT_EQ(vapu_mmio_read(v, 0xde3 * 4), 16u); /* RCC_CONFIG_MEMSIZE in MiB */
  /* Without bus mastering the GPU makes no memory access. */
  struct vapu_requester rq = {VAPU_GFXHUB, 0, VAPU_CLIENT_CPC, false};
  uint32_t x;
  ASSERT_EQ(vapu_gpu_read(v, &rq, NULL, 0x1000, &x, 4), -EFAULT);
  vapu_destroy(v);
}

/* BAR0 is the carve-out seen through the HDP: CPU writes there reach the
 * frame buffer at an HDP flush, and CPU reads see what the read cache held
 * until HDP_READ_CACHE_INVALIDATE; the carve-out itself, at its physical
 * address (MC_VM_FB_OFFSET), and MM_INDEX/MM_DATA see the memory as it is. */
TEST(vapu_model_bar0_goes_through_the_hdp) {
  amdgpu_test_need_model();
  struct vapu_config config = {.chip = VAPU_RAVEN, .carveout_bytes = 32ull << 20, .bar0_bytes = 8ull << 20};
  struct vapu *v = vapu_create(&config);
  ASSERT_NOT_NULL(v);
  uint64_t fb_bytes, bar0_bytes;
  volatile uint32_t *fb = vapu_carveout(v, &fb_bytes), *bar0 = vapu_bar0(v, &bar0_bytes);
  ASSERT_EQ_U(fb_bytes, 32ull << 20);
  ASSERT_EQ_U(bar0_bytes, 8ull << 20);
  ASSERT_TRUE((void *)fb != (void *)bar0);
  vapu_pci_config_write(v, 0x04, 0x2);
  /* MC_VM_FB_OFFSET (GC 0x096b) holds the carve-out's physical address >> 24. */
  ASSERT_EQ_U((uint64_t)vapu_mmio_read(v, (0x2000 + 0x096b) * 4) << 24, (uint64_t)(uintptr_t)fb);
  const uint32_t fb_en = (0xd20 + 0xff) * 4, flush = (0xd20 + 0xf7) * 4, invalidate = (0xf20 + 0xd1) * 4;
  vapu_mmio_write(v, fb_en, 0x3); /* BIF_FB_EN: reads and writes */
  /* GPU side writes: BAR0 reads stay stale until the read cache is invalidated. */
  fb[100] = 0x1234;
  ASSERT_EQ_U(bar0[100], 0);
  vapu_mmio_write(v, invalidate, 1);
  ASSERT_EQ_U(bar0[100], 0x1234);
  /* CPU writes through BAR0: in memory only after a flush. */
  bar0[200] = 0xabcd;
  ASSERT_EQ_U(fb[200], 0);
  vapu_mmio_write(v, flush, 0);
  ASSERT_EQ_U(fb[200], 0xabcd);
  /* What the CPU wrote and did not flush survives an invalidation. */
  bar0[300] = 0x5555;
  fb[301] = 0x6666;
  vapu_mmio_write(v, invalidate, 1);
  ASSERT_EQ_U(bar0[300], 0x5555);
  ASSERT_EQ_U(bar0[301], 0x6666);
  /* FB writes off: a flush moves nothing. */
  bar0[400] = 0x7777;
  vapu_mmio_write(v, fb_en, 0x1);
  vapu_mmio_write(v, flush, 0);
  ASSERT_EQ_U(fb[400], 0);
  /* Beyond BAR0, MM_INDEX/MM_DATA reach the frame buffer (bit 31: memory). */
  uint64_t far = fb_bytes - 8;
  fb[far / 4] = 0xfeedface;
  vapu_mmio_write(v, 0x0 * 4, (uint32_t)far | 0x80000000u);
  vapu_mmio_write(v, 0x6 * 4, (uint32_t)(far >> 31));
  ASSERT_EQ_U(vapu_mmio_read(v, 0x1 * 4), 0xfeedface);
  vapu_mmio_write(v, 0x1 * 4, 0x0badcafe);
  ASSERT_EQ_U(fb[far / 4], 0x0badcafe);
  vapu_mmio_write(v, 0x0 * 4, (uint32_t)fb_bytes | 0x80000000u); /* past the end */
  ASSERT_EQ_U(vapu_mmio_read(v, 0x1 * 4), 0);
  vapu_destroy(v);
}

/* The model reports what silicon would do silently (vapu_gmc.c): a GPU
 * access that does not snoop memory the CPU caches write-back, and a
 * coherent (AQL) access through an MTYPE the GPU's L2 may cache. Frame
 * buffer accesses through VMID 0's system aperture: local memory, never
 * snooped, with the MTYPE of MC_VM_MX_L1_TLB_CNTL. */
TEST(vapu_model_reports_incoherent_accesses) {
  amdgpu_test_need_model();
  struct vapu_config config = {.chip = VAPU_RAVEN, .carveout_bytes = 16ull << 20};
  struct vapu *v = vapu_create(&config);
  ASSERT_NOT_NULL(v);
  uint64_t fb_bytes;
  uint8_t *fb = vapu_carveout(v, &fb_bytes);
  vapu_pci_config_write(v, 0x04, 0x6); /* memory decode, bus master */
  /* The GFX hub (GC segment 0 at 0x2000): L1 TLB on with MTYPE NC, system
   * aperture = the frame buffer's MC range (gc_9_1_offset.h offsets). */
  const uint32_t gc = 0x2000, l1_tlb = gc + 0x0987, sys_low = gc + 0x0985, sys_high = gc + 0x0986;
  uint64_t mc = (uint64_t)vapu_mmio_read(v, (gc + 0x0980) * 4) << 24; /* MC_VM_FB_LOCATION_BASE */
  vapu_mmio_write(v, sys_low * 4, (uint32_t)(mc >> 18));
  vapu_mmio_write(v, sys_high * 4, (uint32_t)((mc + fb_bytes - 1) >> 18));
  vapu_mmio_write(v, l1_tlb * 4, 0x1); /* ENABLE_L1_TLB, MTYPE 0 (NC) */
  struct vapu_requester plain = {VAPU_GFXHUB, 0, VAPU_CLIENT_CPC, false};
  struct vapu_requester aql = {VAPU_GFXHUB, 0, VAPU_CLIENT_CPC, true};
  uint32_t x;
  struct vapu_stats st;
  /* The carve-out as the host CPU has it (write-back): incoherent. */
  ASSERT_EQ(vapu_gpu_read(v, &plain, NULL, mc + 64, &x, 4), 0);
  vapu_get_stats(v, &st);
  ASSERT_EQ(st.unsnooped_accesses, 1);
  /* Mapped write-combining for the CPU, as a driver must: coherent. */
  ASSERT_EQ(plat_set_cpu_cache_mode((uint64_t)(uintptr_t)fb, fb_bytes, PLAT_CACHE_WRITE_COMBINING), 0);
  ASSERT_EQ(vapu_gpu_read(v, &plain, NULL, mc + 64, &x, 4), 0);
  vapu_get_stats(v, &st);
  ASSERT_EQ(st.unsnooped_accesses, 1);
  ASSERT_EQ(st.cached_coherent_accesses, 0);
  /* An AQL access through MTYPE NC, then UC. */
  ASSERT_EQ(vapu_gpu_read(v, &aql, NULL, mc + 64, &x, 4), 0);
  vapu_get_stats(v, &st);
  ASSERT_EQ(st.cached_coherent_accesses, 1);
  vapu_mmio_write(v, l1_tlb * 4, 0x1 | 3u << 11); /* MTYPE UC */
  ASSERT_EQ(vapu_gpu_read(v, &aql, NULL, mc + 64, &x, 4), 0);
  vapu_get_stats(v, &st);
  ASSERT_EQ(st.cached_coherent_accesses, 1);
  ASSERT_EQ(plat_set_cpu_cache_mode((uint64_t)(uintptr_t)fb, fb_bytes, PLAT_CACHE_WRITE_BACK), 0);
  vapu_destroy(v);
  amdgpu_test_incoherence_expected();
}

TEST(vapu_model_raven2_aperture_erratum) {
  amdgpu_test_need_model();
  /* Without the driver's +1 the last 256 KiB of the frame buffer are out of
   * the system aperture on Raven2, not on Raven. */
  static const enum vapu_chip_id chips[] = {VAPU_RAVEN, VAPU_RAVEN2};
  for (int c = 0; c < 2; c++) {
    struct vapu_config config = {.chip = chips[c], .carveout_bytes = 16ull << 20};
    struct amdgpu_device *dev;
    ASSERT_EQ(amdgpu_vapu_probe(&config, NULL, &dev), 0);
    WREG(dev, REG_GC_MC_VM_SYSTEM_APERTURE_HIGH_ADDR, (uint32_t)(dev->gmc.fb_end >> 18));
    struct vapu_requester rq = {VAPU_GFXHUB, 0, VAPU_CLIENT_CPC, false};
    uint8_t b;
    int r = vapu_gpu_read(amdgpu_vapu_of(dev), &rq, NULL, dev->gmc.fb_end - 16, &b, 1);
    ASSERT_EQ(r, chips[c] == VAPU_RAVEN2 ? -EFAULT : 0);
    amdgpu_device_remove(dev);
  }
}

/* The GMC translates for the access the requester makes and raises a
 * fault at that access: a write to a page the PTE makes read-only latches
 * the fault status with its R/W bit before the call returns (vapu/isa's
 * memory asks this way, so a shader's store faults as the store). */
TEST(vapu_model_translate_page_faults_at_the_access_with_its_kind) {
  amdgpu_test_need_model();
  struct amdgpu_fault_log log;
  struct amdgpu_device *dev = amdgpu_test_bring_up(VAPU_RAVEN, &log);
  ASSERT_NOT_NULL(dev);
  struct vapu *v = amdgpu_vapu_of(dev);
  uint8_t *page = plat_dma_alloc(8192, 4096);
  ASSERT_NOT_NULL(page);
  ASSERT_EQ(amdgpu_map_system_range(dev, page, 8192), 0);
  uint64_t va = (uint64_t)(uintptr_t)page + 4096;
  ASSERT_EQ(gmc_vm_map(dev, &dev->gmc.compute_vm, va, va, 4096,
                       GMC_PTE_VALID | GMC_PTE_SYSTEM | GMC_PTE_SNOOPED | GMC_PTE_READABLE), 0);
  ASSERT_EQ(gmc_flush_compute_vmids(dev), 0);
  struct vapu_requester rq = {VAPU_GFXHUB, 9, VAPU_CLIENT_TCP, false};
  struct vapu_gmc_page p;
  /* A read: the whole page, read-only, nothing raised. */
  ASSERT_TRUE(vapu_translate_page(v, &rq, NULL, va + 4, VAPU_GMC_READ, &p));
  ASSERT_EQ_U(p.va, va);
  ASSERT_EQ_U(p.size, 4096);
  ASSERT_PTR_EQ(p.host, page + 4096);
  ASSERT_EQ(p.allowed & (VAPU_GMC_READ | VAPU_GMC_WRITE), VAPU_GMC_READ);
  plat_sleep_ns(20000000);
  ASSERT_EQ(log.count, 0);
  /* A write: refused and raised by the call (status latched with RW set,
   * IV posted; the driver's interrupt handler reads and clears it). */
  ASSERT_FALSE(vapu_translate_page(v, &rq, NULL, va + 4, VAPU_GMC_WRITE, &p));
  ASSERT_EQ(amdgpu_test_wait_count(&log.count, 1), 1);
  ASSERT_EQ_U(log.last.vm.address, va);
  ASSERT_TRUE(log.last.vm.write);
  ASSERT_TRUE(log.last.vm.permission_fault);
  ASSERT_EQ(log.last.vm.vmid, 9);
  /* Unmapped: refused and raised as a read. */
  ASSERT_FALSE(vapu_translate_page(v, &rq, NULL, 0x0000700012345000ull, VAPU_GMC_READ, &p));
  ASSERT_EQ(amdgpu_test_wait_count(&log.count, 2), 2);
  ASSERT_FALSE(log.last.vm.write);
  amdgpu_device_remove(dev);
  plat_dma_free(page, 8192);
}

/* MC_VM_FB_LOCATION_BASE/TOP are registers a driver may write (Linux does
 * under SR-IOV): the hubs place the frame buffer where they say. */
TEST(vapu_model_frame_buffer_moves_where_the_registers_say) {
  amdgpu_test_need_model();
  struct vapu_config config = {.chip = VAPU_RENOIR, .carveout_bytes = 16ull << 20};
  struct vapu *v = vapu_create(&config);
  ASSERT_NOT_NULL(v);
  uint64_t fb_bytes;
  uint32_t *fb = vapu_carveout(v, &fb_bytes);
  ASSERT_EQ(plat_set_cpu_cache_mode((uint64_t)(uintptr_t)fb, fb_bytes, PLAT_CACHE_WRITE_COMBINING), 0);
  vapu_pci_config_write(v, 0x04, 0x6);
  const uint32_t gc = 0x2000, base = gc + 0x0980, top = gc + 0x0981, l1_tlb = gc + 0x0987;
  const uint64_t moved = 0x0000008000000000ull; /* 512 GiB */
  vapu_mmio_write(v, base * 4, (uint32_t)(moved >> 24));
  vapu_mmio_write(v, top * 4, (uint32_t)((moved + fb_bytes - 1) >> 24));
  vapu_mmio_write(v, (gc + 0x0985) * 4, (uint32_t)(moved >> 18));                 /* aperture low */
  vapu_mmio_write(v, (gc + 0x0986) * 4, (uint32_t)((moved + fb_bytes - 1) >> 18)); /* and high */
  vapu_mmio_write(v, l1_tlb * 4, 0x1 | 3u << 11);
  ASSERT_EQ_U(vapu_mmio_read(v, base * 4), (uint32_t)(moved >> 24));
  fb[10] = 0x600dcafe;
  struct vapu_requester rq = {VAPU_GFXHUB, 0, VAPU_CLIENT_CPC, false};
  uint32_t x = 0;
  ASSERT_EQ(vapu_gpu_read(v, &rq, NULL, moved + 40, &x, 4), 0);
  ASSERT_EQ_U(x, 0x600dcafe);
  ASSERT_EQ(plat_set_cpu_cache_mode((uint64_t)(uintptr_t)fb, fb_bytes, PLAT_CACHE_WRITE_BACK), 0);
  vapu_destroy(v);
}
