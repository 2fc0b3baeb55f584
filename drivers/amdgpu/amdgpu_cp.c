/* amdgpu_cp.c - the compute part of the command processor: what must hold
 * before any queue is loaded into an HQD.
 *   - SH_MEM_CONFIG / SH_MEM_BASES of every compute VMID (64-bit addressing,
 *     unaligned access, the LDS and scratch apertures),
 *   - the doorbell range the MEC answers to, and doorbells on: the MEC
 *     ignores every doorbell until CP_PQ_STATUS.DOORBELL_ENABLE is set
 *     (reset 0, gc_9_0_default.h; Linux sets it at the end of
 *     gfx_v9_0_kiq_init_register, and KFD's queues rely on that), with
 *     write-pointer polling off as Linux leaves it (queues are told of new
 *     packets by their doorbells; the HQD load asks for one poll),
 *   - end-of-pipe and error interrupts of the MEC1 pipes,
 *   - COMPUTE_TMPRING_SIZE cleared (AQL queues carry their own, MQD),
 *   - MEC1 out of halt (its firmware came through the PSP), and a test
 *     packet through a queue to see that it runs. Linux runs both
 *     MEs (CP_MEC_CNTL = 0) because it loads MEC2's firmware too; here ME2
 *     has none and stays halted. Linux waits 50 us after every change
 *     (gfx_v9_0_cp_compute_enable).
 * Linux brings up the KIQ first (gfx_v9_0_kiq_resume) and maps its own
 * queues through it; this driver, like KFD without the hardware scheduler,
 * loads every queue into an HQD itself, so it sets what the KIQ's
 * register init leaves MEC-wide (doorbell range, CP_PQ_STATUS, polling
 * off) and needs no KIQ.
 * Sequences: Linux gfx_v9_0.c (gfx_v9_0_init_compute_vmid,
 * gfx_v9_0_kiq_init_register's doorbell range, gfx_v9_0_cp_compute_enable,
 * gfx_v9_0_set_compute_eop_interrupt_state), amdgpu_amdkfd_gfx_v9.c
 * (kgd_gfx_v9_program_sh_mem_settings, kgd_gfx_v9_init_interrupts),
 * kfd_device_queue_manager_v9.c and kfd_flat_memory.c (the apertures). */
#define LOG_TAG "cp"
#include <errno.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "drivers/amdgpu/regs/gc_9_1_cp.h"
#include "lib/plat.h"

#define MEC_CNTL_SETTLE_NS 50000ull /* udelay(50) after CP_MEC_CNTL */

void grbm_select(struct amdgpu_device *dev, uint32_t me, uint32_t pipe, uint32_t queue, uint32_t vmid) {
  WREG(dev, REG_GC_GRBM_GFX_CNTL,
       REG_FIELD(GRBM_GFX_CNTL__PIPEID, pipe) | REG_FIELD(GRBM_GFX_CNTL__MEID, me) |
           REG_FIELD(GRBM_GFX_CNTL__VMID, vmid) | REG_FIELD(GRBM_GFX_CNTL__QUEUEID, queue));
}

/* SH_MEM_BASES: bits 63:48 of the shared (LDS) and private (scratch)
 * apertures. */
static uint32_t sh_mem_bases(void) {
  return REG_FIELD(SH_MEM_BASES__SHARED_BASE, AMDGPU_LDS_APERTURE_BASE >> 48) |
         REG_FIELD(SH_MEM_BASES__PRIVATE_BASE, AMDGPU_SCRATCH_APERTURE_BASE >> 48);
}

static void set_pipe_interrupts(struct amdgpu_device *dev, bool on) {
  /* End of pipe (TIME_STAMP) and bad packets (OPCODE_ERROR) of each MEC1
   * pipe; the per-pipe register is reached directly, CPC_INT_CNTL through
   * the pipe select (kgd_gfx_v9_init_interrupts). */
  uint32_t bits = on ? CP_INT_CNTL__TIME_STAMP_INT_ENABLE | CP_INT_CNTL__OPCODE_ERROR_INT_ENABLE |
                           CP_INT_CNTL__PRIV_REG_INT_ENABLE
                     : 0;
  for (uint32_t pipe = 0; pipe < AMDGPU_HQD_PIPES; pipe++) {
    WREG(dev, reg_at(REG_GC_CP_ME1_PIPE0_INT_CNTL, pipe), bits);
    grbm_select(dev, AMDGPU_HQD_ME, pipe, 0, 0);
    WREG(dev, REG_GC_CPC_INT_CNTL, bits);
  }
  grbm_select(dev, 0, 0, 0, 0);
}

static int cp_init_hw(struct amdgpu_device *dev) {
  uint32_t config = SH_MEM_CONFIG__ADDRESS_MODE_64 |
                    REG_FIELD(SH_MEM_CONFIG__ALIGNMENT_MODE, SH_MEM_ALIGNMENT_MODE_UNALIGNED) |
                    SH_MEM_CONFIG__RETRY_DISABLE; /* a fault is an error, never retried */
  for (uint32_t i = 0; i < AMDGPU_COMPUTE_VMID_COUNT; i++) {
    grbm_select(dev, 0, 0, 0, AMDGPU_COMPUTE_VMID_FIRST + i);
    WREG(dev, REG_GC_SH_MEM_CONFIG, config);
    WREG(dev, REG_GC_SH_MEM_BASES, sh_mem_bases());
  }
  grbm_select(dev, 0, 0, 0, 0);
  WREG(dev, REG_GC_CP_PQ_WPTR_POLL_CNTL,
       RREG(dev, REG_GC_CP_PQ_WPTR_POLL_CNTL) & ~CP_PQ_WPTR_POLL_CNTL__EN);
  /* The first and last 64-bit doorbell the MEC takes, as dword indices. */
  WREG(dev, REG_GC_CP_MEC_DOORBELL_RANGE_LOWER,
       REG_FIELD(CP_MEC_DOORBELL_RANGE_LOWER__DOORBELL_RANGE_LOWER, DOORBELL64_KIQ * 2));
  WREG(dev, REG_GC_CP_MEC_DOORBELL_RANGE_UPPER,
       REG_FIELD(CP_MEC_DOORBELL_RANGE_UPPER__DOORBELL_RANGE_UPPER, DOORBELL64_USERQUEUE_END * 2));
  WREG(dev, REG_GC_CP_PQ_STATUS, RREG(dev, REG_GC_CP_PQ_STATUS) | CP_PQ_STATUS__DOORBELL_ENABLE);
  WREG(dev, REG_GC_COMPUTE_TMPRING_SIZE, 0);
  set_pipe_interrupts(dev, true);
  /* ME1 runs the queues; ME2 has no firmware loaded and stays halted. */
  WREG(dev, REG_GC_CP_MEC_CNTL, CP_MEC_CNTL__MEC_ME2_HALT);
  plat_sleep_ns(MEC_CNTL_SETTLE_NS);
  int r = amdgpu_queue_self_test(dev);
  if (r) return r;
  log_info("MEC running: %d HQDs on ME%d, doorbells %u-%u, LDS aperture 0x%llx, scratch 0x%llx",
           AMDGPU_HQD_SLOTS, AMDGPU_HQD_ME, DOORBELL64_USERQUEUE_START, DOORBELL64_USERQUEUE_END,
           (unsigned long long)AMDGPU_LDS_APERTURE_BASE, (unsigned long long)AMDGPU_SCRATCH_APERTURE_BASE);
  return 0;
}

static void cp_fini_hw(struct amdgpu_device *dev) {
  amdgpu_queues_dequeue_all(dev);
  set_pipe_interrupts(dev, false);
  WREG(dev, REG_GC_CP_MEC_CNTL, CP_MEC_CNTL__MEC_ME1_HALT | CP_MEC_CNTL__MEC_ME2_HALT);
  plat_sleep_ns(MEC_CNTL_SETTLE_NS);
  amdgpu_queues_free_all(dev);
}

/* apertures, doorbells, MEC1 running */
const struct amdgpu_ip_funcs cp_block = {
    .name = "cp",
    .init_hw = cp_init_hw,
    .fini_hw = cp_fini_hw,
};
