/* amdgpu_ih.c - the interrupt handler ring: the GPU writes 32-byte vectors
 * and the write pointer (write-back to memory), raises an MSI; the driver
 * decodes each vector and reports what compute cares about: CP end of pipe,
 * CP bad packets, privileged-access and ECC faults, SQ errors, VM protection faults
 * (address, VMID and reason from the hub's fault status registers).
 * Sequences: Linux vega10_ih.c (vega10_ih_irq_init, enable_ring, rb_cntl,
 * toggle_ring_interrupts, get_wptr with overflow recovery, set_rptr),
 * nbio_v7_0.c ih_control; decoding: amdgpu_ih.c, gmc_v9_0.c
 * gmc_v9_0_process_interrupt, gfx_v9_0.c eop_irq, amdkfd
 * kfd_int_process_v9.c. */
#define LOG_TAG "ih"
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "drivers/amdgpu/regs/gc_9_1.h"
#include "drivers/amdgpu/regs/mmhub_9_1.h"
#include "drivers/amdgpu/regs/nbio_7_0.h"
#include "drivers/amdgpu/regs/osssys_4_0.h"
#include "drivers/amdgpu/regs/soc15_ih.h"
#include "lib/plat.h"
#include "lib/util.h"

#define IH_RING_BYTES (64u << 10)

static int ih_init_sw(struct amdgpu_device *dev) {
  struct amdgpu_ih *ih = &dev->ih;
  ih->ring_bytes = IH_RING_BYTES;
  ih->ring = plat_dma_alloc(IH_RING_BYTES, 4096);
  ih->wptr_writeback = plat_dma_alloc(4096, 4096);
  if (!ih->ring || !ih->wptr_writeback) return -ENOMEM;
  return 0;
}

static void ih_fini_sw(struct amdgpu_device *dev) {
  struct amdgpu_ih *ih = &dev->ih;
  if (ih->ring) plat_dma_free(ih->ring, ih->ring_bytes);
  if (ih->wptr_writeback) plat_dma_free((void *)ih->wptr_writeback, 4096);
  ih->ring = NULL;
  ih->wptr_writeback = NULL;
}

static unsigned log2u(uint32_t x) {
  unsigned n = 0;
  while ((1u << n) < x) n++;
  return n;
}

static void ring_enable(struct amdgpu_device *dev, bool on) {
  uint32_t cntl = RREG(dev, REG_IH_RB_CNTL);
  cntl = on ? cntl | IH_RB_CNTL__RB_ENABLE | IH_RB_CNTL__RB_GPU_TS_ENABLE | IH_RB_CNTL__ENABLE_INTR
            : cntl & ~(IH_RB_CNTL__RB_ENABLE | IH_RB_CNTL__ENABLE_INTR);
  WREG(dev, REG_IH_RB_CNTL, cntl);
  if (!on) {
    WREG(dev, REG_IH_RB_RPTR, 0);
    WREG(dev, REG_IH_RB_WPTR, 0);
  }
}

static int ih_init_hw(struct amdgpu_device *dev) {
  struct amdgpu_ih *ih = &dev->ih;
  uint64_t ring = (uint64_t)(uintptr_t)ih->ring, wb = (uint64_t)(uintptr_t)ih->wptr_writeback;
  ring_enable(dev, false);
  /* NBIO: no dummy read override, snooped IH requests; the dummy read
   * address is the GMC's default page. */
  WREG(dev, REG_NBIO_INTERRUPT_CNTL2, (uint32_t)((uint64_t)(uintptr_t)dev->gmc.dummy_page >> 8));
  uint32_t icntl = RREG(dev, REG_NBIO_INTERRUPT_CNTL);
  WREG(dev, REG_NBIO_INTERRUPT_CNTL,
       icntl & ~(INTERRUPT_CNTL__IH_DUMMY_RD_OVERRIDE | INTERRUPT_CNTL__IH_REQ_NONSNOOP_EN));
  /* Renoir's IH takes bus addresses only with MC_SPACE_GPA_ENABLE (Linux
   * vega10_ih_irq_init, CHIP_RENOIR). */
  if (dev->chip->ih_mc_space_gpa)
    WREG(dev, REG_IH_CHICKEN, RREG(dev, REG_IH_CHICKEN) | IH_CHICKEN__MC_SPACE_GPA_ENABLE);

  WREG(dev, REG_IH_RB_BASE, (uint32_t)(ring >> 8));
  WREG(dev, REG_IH_RB_BASE_HI, REG_FIELD(IH_RB_BASE_HI__ADDR, ring >> 40));
  uint32_t cntl = RREG(dev, REG_IH_RB_CNTL);
  /* MSI is edge-triggered: the IH sends the next one only when the read
   * pointer write re-arms it (RPTR_REARM, which Linux sets exactly when it
   * uses MSI, vega10_ih_enable_ring). Overflow detection on, any stale
   * overflow cleared, then WPTR_OVERFLOW_CLEAR back to 0: while it is 1
   * no overflow is flagged (Linux "drm/amdgpu: Reset IH OVERFLOW_CLEAR bit"). */
  cntl &= ~(IH_RB_CNTL__RB_SIZE_MASK | IH_RB_CNTL__MC_SPACE_MASK | IH_RB_CNTL__MC_RO |
            IH_RB_CNTL__MC_VMID_MASK);
  cntl |= REG_FIELD(IH_RB_CNTL__RB_SIZE, log2u(ih->ring_bytes / 4)) |
          REG_FIELD(IH_RB_CNTL__MC_SPACE, IH_MC_SPACE_BUS_ADDRESS) | IH_RB_CNTL__WPTR_OVERFLOW_ENABLE |
          IH_RB_CNTL__WPTR_WRITEBACK_ENABLE | IH_RB_CNTL__MC_SNOOP | IH_RB_CNTL__RPTR_REARM;
  WREG(dev, REG_IH_RB_CNTL, cntl | IH_RB_CNTL__WPTR_OVERFLOW_CLEAR);
  WREG(dev, REG_IH_RB_CNTL, cntl);
  WREG(dev, REG_IH_RB_WPTR_ADDR_LO, (uint32_t)wb);
  WREG(dev, REG_IH_RB_WPTR_ADDR_HI, REG_FIELD(IH_RB_WPTR_ADDR_HI__ADDR, wb >> 32));
  WREG(dev, REG_IH_RB_WPTR, 0);
  WREG(dev, REG_IH_RB_RPTR, 0);
  WREG(dev, REG_IH_DOORBELL_RPTR, 0); /* rptr by register, not doorbell */
  ih->rptr = 0;
  *ih->wptr_writeback = 0;

  int r = dev->bus->enable_msi(dev);
  if (r) {
    log_error("cannot route the GPU's MSI (%d)", r);
    return r;
  }
  ih->msi_enabled = true;
  ring_enable(dev, true);
  log_info("IH ring %u KiB at 0x%llx, write-back at 0x%llx, MSI on", ih->ring_bytes >> 10,
           (unsigned long long)ring, (unsigned long long)wb);
  return 0;
}

static void ih_fini_hw(struct amdgpu_device *dev) {
  ring_enable(dev, false);
  if (dev->ih.msi_enabled) dev->bus->disable_msi(dev);
  dev->ih.msi_enabled = false;
}

/* ---- Decoding ---- */

static const char *const gfxhub_clients[] = {"CB",  "DB",         "IA",         "WD",  "CPF", "CPC", "CPG",
                                             "RLC", "TCP",        "SQC (inst)", "SQC (data)", "SQG", "PA"};

/* The device's fault handler first (it sees every fault), then the queue
 * the fault belongs to is stopped and told. */
static void report(struct amdgpu_device *dev, const struct amdgpu_fault *f) {
  amdgpu_fault_handler fn = __atomic_load_n(&dev->fault_fn, __ATOMIC_ACQUIRE);
  if (fn) fn(dev->fault_ctx, f);
  amdgpu_queue_fault(dev, f);
}

void amdgpu_dma_fault(struct amdgpu_device *dev, uint64_t address, bool write) {
  struct amdgpu_fault f = {.kind = AMDGPU_FAULT_DMA};
  f.vm.address = address;
  f.vm.write = write;
  log_error("%s: the IOMMU refused a GPU %s at 0x%llx", dev->chip->name, write ? "write" : "read",
            (unsigned long long)address);
  report(dev, &f);
}

static void vm_fault(struct amdgpu_device *dev, const uint32_t iv[8]) {
  /* A retry fault latched no status: the request waits for the page
   * (Linux gmc_v9_0_process_interrupt hands it to amdgpu_vm_handle_fault). */
  if (iv[5] & IH_VM_FAULT_RETRY) {
    gmc_handle_retry_fault(dev, IH_IV_VMID(iv[0]),
                           (uint64_t)iv[4] << 12 | (uint64_t)(iv[5] & IH_VM_FAULT_ADDR_HI_MASK) << 44);
    return;
  }
  struct amdgpu_fault f = {.kind = AMDGPU_FAULT_VM, .ih_client_id = IH_IV_CLIENT_ID(iv[0]),
                           .ih_source_id = IH_IV_SOURCE_ID(iv[0])};
  struct amdgpu_vm_fault *vm = &f.vm;
  vm->gfx_hub = f.ih_client_id == SOC15_IH_CLIENTID_UTCL2;
  vm->address = (uint64_t)iv[4] << 12 | (uint64_t)(iv[5] & IH_VM_FAULT_ADDR_HI_MASK) << 44;
  vm->write = iv[5] & IH_VM_FAULT_WRITE;
  vm->vmid = IH_IV_VMID(iv[0]);
  struct amdgpu_reg status_reg =
      vm->gfx_hub ? REG_GC_VM_L2_PROTECTION_FAULT_STATUS : REG_MMHUB_VM_L2_PROTECTION_FAULT_STATUS;
  struct amdgpu_reg cntl_reg =
      vm->gfx_hub ? REG_GC_VM_L2_PROTECTION_FAULT_CNTL : REG_MMHUB_VM_L2_PROTECTION_FAULT_CNTL;
  /* The status register names who faulted and why; clearing it lets the
   * next fault latch its own. */
  if (vm->gfx_hub) (void)RREG(dev, status_reg); /* Linux: dummy read before GC 9.4.2 */
  vm->status = RREG(dev, status_reg);
  WREG(dev, cntl_reg, RREG(dev, cntl_reg) | VM_L2_PROTECTION_FAULT_CNTL__CLEAR_PROTECTION_FAULT_STATUS_ADDR);
  vm->client_id = REG_GET_FIELD(vm->status, VM_L2_PROTECTION_FAULT_STATUS__CID);
  vm->client_name = vm->gfx_hub && vm->client_id < countof(gfxhub_clients)
                        ? gfxhub_clients[vm->client_id] : "unknown";
  vm->permission_fault = vm->status & VM_L2_PROTECTION_FAULT_STATUS__PERMISSION_FAULTS_MASK;
  vm->permission_faults = (vm->status & VM_L2_PROTECTION_FAULT_STATUS__PERMISSION_FAULTS_MASK) >>
                          VM_L2_PROTECTION_FAULT_STATUS__PERMISSION_FAULTS_SHIFT;
  vm->mapping_error = vm->status & VM_L2_PROTECTION_FAULT_STATUS__MAPPING_ERROR;
  vm->walker_error = vm->status & VM_L2_PROTECTION_FAULT_STATUS__WALKER_ERROR_MASK;
  vm->more_faults = vm->status & VM_L2_PROTECTION_FAULT_STATUS__MORE_FAULTS;
  log_error("%s page fault: VMID %u %s at 0x%012llx by %s (CID 0x%x), status 0x%08x%s%s%s%s",
            vm->gfx_hub ? "gfxhub" : "mmhub", vm->vmid, vm->write ? "write" : "read",
            (unsigned long long)vm->address, vm->client_name, vm->client_id, vm->status,
            vm->permission_fault ? " permission" : "", vm->mapping_error ? " mapping" : "",
            vm->walker_error ? " walker" : "", vm->more_faults ? " (more faults)" : "");
  report(dev, &f);
}

static void cp_event(struct amdgpu_device *dev, const uint32_t iv[8]) {
  uint32_t ring = IH_IV_RING_ID(iv[0]), src = IH_IV_SOURCE_ID(iv[0]);
  uint32_t me = IH_CP_RING_ME(ring), pipe = IH_CP_RING_PIPE(ring), queue = IH_CP_RING_QUEUE(ring);
  if (src == GFX_9_0__SRCID__CP_EOP_INTERRUPT) {
    amdgpu_eop_handler fn = __atomic_load_n(&dev->eop_fn, __ATOMIC_ACQUIRE);
    if (fn) fn(dev->eop_ctx, me, pipe, queue, iv[4]);
    return;
  }
  struct amdgpu_fault f = {.ih_client_id = SOC15_IH_CLIENTID_GRBM_CP, .ih_source_id = src,
                           .me = me, .pipe = pipe, .queue = queue};
  switch (src) {
    case GFX_9_0__SRCID__CP_PRIV_REG_FAULT: f.kind = AMDGPU_FAULT_CP_PRIV_REG; break;
    case GFX_9_0__SRCID__CP_PRIV_INSTR_FAULT: f.kind = AMDGPU_FAULT_CP_PRIV_INSTR; break;
    case GFX_9_0__SRCID__CP_ECC_ERROR: f.kind = AMDGPU_FAULT_CP_ECC; break;
    case GFX_9_0__SRCID__CP_BAD_OPCODE_ERROR: /* KFD turns it into the queue's exception */
      f.kind = AMDGPU_FAULT_CP_BAD_OPCODE;
      f.doorbell = IH_BAD_OPCODE_DOORBELL(iv[4]);
      f.bad_opcode_code = IH_BAD_OPCODE_CODE(iv[4]);
      break;
    case GFX_9_0__SRCID__SQ_INTERRUPT_ID: {
      uint32_t word = iv[4];
      uint32_t encoding = REG_GET_FIELD(word, SQ_INTERRUPT_WORD_ENCODING);
      if (encoding != SQ_INTERRUPT_WORD_ENCODING_ERROR) {
        log_debug("SQ interrupt, encoding %u, word 0x%08x", encoding, word);
        return;
      }
      f.kind = AMDGPU_FAULT_SQ_ERROR;
      f.sq_error_type = SQ_INT_DATA_ERR_TYPE(SQ_INT_DATA(iv[4], iv[5]));
      f.se = (word >> SQ_INTERRUPT_WORD_WAVE_SE_ID_SHIFT) & 0x3;
      f.cu = (word >> SQ_INTERRUPT_WORD_WAVE_CU_ID_SHIFT) & 0xf;
      f.simd = (word >> SQ_INTERRUPT_WORD_WAVE_SIMD_ID_SHIFT) & 0x3;
      f.wave = (word >> SQ_INTERRUPT_WORD_WAVE_WAVE_ID_SHIFT) & 0xf;
      break;
    }
    default: log_debug("CP interrupt source %u ignored", src); return;
  }
  if (f.kind == AMDGPU_FAULT_CP_BAD_OPCODE)
    log_error("CP refused a packet (source %u, code 0x%x, doorbell %u) on ME %u pipe %u queue %u", src,
              f.bad_opcode_code, f.doorbell, me, pipe, queue);
  else
    log_error("%s (source %u) on ME %u pipe %u queue %u",
              f.kind == AMDGPU_FAULT_SQ_ERROR ? "SQ error" : "CP fault", src, me, pipe, queue);
  report(dev, &f);
}

void amdgpu_ih_dispatch(struct amdgpu_device *dev, const uint32_t iv[8]) {
  uint32_t client = IH_IV_CLIENT_ID(iv[0]);
  switch (client) {
    case SOC15_IH_CLIENTID_VMC:
    case SOC15_IH_CLIENTID_UTCL2: vm_fault(dev, iv); break;
    case SOC15_IH_CLIENTID_GRBM_CP:
    case SOC15_IH_CLIENTID_SE0SH:
    case SOC15_IH_CLIENTID_SE1SH:
    case SOC15_IH_CLIENTID_SE2SH:
    case SOC15_IH_CLIENTID_SE3SH: cp_event(dev, iv); break;
    default: log_debug("interrupt from client 0x%x source %u ignored", client, IH_IV_SOURCE_ID(iv[0])); break;
  }
}

/* The MSI handler: drain the ring up to the written-back write pointer. */
void amdgpu_ih_interrupt(struct amdgpu_device *dev) {
  struct amdgpu_ih *ih = &dev->ih;
  if (__atomic_exchange_n(&ih->busy, 1, __ATOMIC_ACQUIRE)) return; /* the other consumer drains */
  uint32_t mask = ih->ring_bytes - 1;
  for (;;) {
    uint32_t wptr = __atomic_load_n(ih->wptr_writeback, __ATOMIC_ACQUIRE);
    if (wptr & IH_RB_WPTR__RB_OVERFLOW) {
      /* The write-back copy keeps the flag until the next entry: the
       * register says whether the overflow is still to be handled (Linux
       * vega10_ih_get_wptr "double check"). */
      wptr = RREG(dev, REG_IH_RB_WPTR);
      if (wptr & IH_RB_WPTR__RB_OVERFLOW) {
        /* Entries were lost: resume after the oldest one not overwritten
         * and clear the flag, then drop WPTR_OVERFLOW_CLEAR so the next
         * overflow is flagged (vega10_ih_get_wptr). */
        ih->rptr = ((wptr & ~IH_RB_WPTR__RB_OVERFLOW) + IH_IV_ENTRY_BYTES) & mask;
        ih->overflows++;
        log_warn("IH ring overflow: interrupts were lost");
        uint32_t cntl = RREG(dev, REG_IH_RB_CNTL);
        WREG(dev, REG_IH_RB_CNTL, cntl | IH_RB_CNTL__WPTR_OVERFLOW_CLEAR);
        WREG(dev, REG_IH_RB_CNTL, cntl & ~IH_RB_CNTL__WPTR_OVERFLOW_CLEAR);
      }
    }
    wptr &= mask & IH_RB_WPTR__OFFSET_MASK;
    if (ih->rptr == wptr) break;
    while (ih->rptr != wptr) {
      uint32_t iv[8];
      memcpy(iv, (const uint8_t *)ih->ring + ih->rptr, sizeof iv);
      ih->rptr = (ih->rptr + IH_IV_ENTRY_BYTES) & mask;
      ih->entries++;
      amdgpu_ih_dispatch(dev, iv);
    }
    WREG(dev, REG_IH_RB_RPTR, ih->rptr);
  }
  __atomic_store_n(&ih->busy, 0, __ATOMIC_RELEASE);
  /* An entry written after our last look but before busy was cleared
   * raised an MSI that returned early: look once more. The fence keeps
   * that look after the store: x86 lets a load pass an earlier store to
   * another address (Intel SDM vol. 3A, 9.2.3.4 "Loads May Be Reordered with
   * Earlier Stores to Different Locations"), and then this look and
   * the other consumer's exchange could both see the old values and leave
   * the entry in the ring until some later interrupt. */
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  uint32_t wptr = __atomic_load_n(ih->wptr_writeback, __ATOMIC_ACQUIRE) & mask & IH_RB_WPTR__OFFSET_MASK;
  if (wptr != ih->rptr) amdgpu_ih_interrupt(dev);
}

/* interrupt ring + MSI */
const struct amdgpu_ip_funcs ih_block = {
    .name = "ih", .init_sw = ih_init_sw, .init_hw = ih_init_hw,
    .fini_hw = ih_fini_hw, .fini_sw = ih_fini_sw,
};
