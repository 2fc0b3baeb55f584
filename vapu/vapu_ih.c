/* vapu_ih.c - the interrupt handler block (OSSSYS 4.x): writes 32-byte
 * interrupt vectors into the ring the driver programmed, the write pointer
 * to its write-back address, and raises the MSI.
 *
 * What the chip does, and so the model:
 *   - The ring and the write-back address are bus addresses with
 *     IH_RB_CNTL.MC_SPACE 1 (Renoir also needs IH_CHICKEN.MC_SPACE_GPA_ENABLE:
 *     vega10_ih_irq_init), GPU MC addresses translated by the MM hub in
 *     IH_RB_CNTL.MC_VMID with MC_SPACE 4 (Linux writes one or the other,
 *     vega10_ih_rb_cntl); other values are not modelled and write nothing.
 *   - An MSI is edge-triggered: one is sent when an entry is written while
 *     the block is armed, and it is armed again only when the driver writes
 *     IH_RB_RPTR with IH_RB_CNTL.RPTR_REARM set (then at once, if entries
 *     are left). Linux sets RPTR_REARM exactly when it uses MSI
 *     (vega10_ih_enable_ring); without it an MSI driver gets one interrupt.
 *     Enabling the ring's interrupts (ENABLE_INTR) arms it.
 *   - A full ring with WPTR_OVERFLOW_ENABLE is overwritten from its oldest
 *     entry and RB_OVERFLOW is set in IH_RB_WPTR (Linux vega10_ih_get_wptr
 *     resumes "from the last not overwritten vector (wptr + 32)"); without
 *     it the entry is dropped. WPTR_OVERFLOW_CLEAR is a level: while it is
 *     1 the flag is held clear and no overflow is flagged (Linux writes it
 *     back to 0 "so new overflows can be detected": "drm/amdgpu: Reset IH
 *     OVERFLOW_CLEAR bit").
 * Offsets and fields: Linux include/asic_reg/oss/osssys_4_0_offset.h and
 * osssys_4_0_sh_mask.h; no osssys default header exists, registers start
 * at 0. IV layout: amdgpu_ih.c amdgpu_ih_decode_iv_helper. */
#define LOG_TAG "vapu"
#include "vapu/vapu_internal.h"

#define RB_ENABLE 0x00000001u
#define RB_SIZE(c) (((c) >> 1) & 0x1fu)
#define WPTR_WRITEBACK_ENABLE 0x00000100u
#define WPTR_OVERFLOW_ENABLE 0x00010000u
#define ENABLE_INTR 0x00020000u
#define RPTR_REARM 0x00200000u
#define MC_VMID(c) (((c) >> 24) & 0xfu)
#define MC_SPACE(c) (((c) >> 28) & 0x7u)
#define WPTR_OVERFLOW_CLEAR 0x80000000u
#define MC_SPACE_BUS_ADDRESS 1
#define MC_SPACE_GPU_ADDRESS 4
#define WPTR_RB_OVERFLOW 0x1u
#define WPTR_OFFSET_MASK 0x0003fffcu
#define CHICKEN_MC_SPACE_GPA_ENABLE 0x10u
#define IV_BYTES 32
#define GPU_CLOCK_NS 10 /* the 100 MHz reference clock of the IV timestamp */

static uint32_t ih_reg(struct vapu *v, uint32_t offset) { return vapu_reg_index(v, HWID_OSSSYS, 0, offset); }

/* The IH's own requests in GPU address space: the MM hub, VMID MC_VMID
 * (mmhub_client_ids_renoir: OSS is client 26). */
static struct vapu_requester ih_requester(uint32_t cntl) {
  return (struct vapu_requester){VAPU_MMHUB, (uint8_t)MC_VMID(cntl), VAPU_MMHUB_CLIENT_OSS, false};
}

/* Writes `n` bytes at `address` as MC_SPACE says; false if it cannot (an
 * MC address the MM hub does not map: the entry is lost, logged; the IH
 * cannot report a fault of its own ring through that ring). */
static bool ih_write(struct vapu *v, uint32_t cntl, uint64_t address, const void *src, size_t n) {
  if (MC_SPACE(cntl) == MC_SPACE_BUS_ADDRESS) {
    __builtin_memcpy((void *)(uintptr_t)address, src, n);
    return true;
  }
  struct vapu_requester rq = ih_requester(cntl);
  for (size_t done = 0; done < n;) {
    size_t run;
    uint8_t *p = vapu_translate(v, &rq, NULL, address + done, VAPU_GMC_WRITE | VAPU_GMC_NO_FAULT, &run);
    if (!p) {
      log_warn("IH write at MC 0x%llx (VMID %u) not mapped by the MM hub: interrupt lost",
               (unsigned long long)(address + done), rq.vmid);
      return false;
    }
    if (run > n - done) run = n - done;
    __builtin_memcpy(p, (const uint8_t *)src + done, run);
    done += run;
  }
  return true;
}

static void rb_cntl_write(struct vapu *v, uint32_t index, uint32_t value, void *arg) {
  uint64_t irq = spin_lock_irqsave(&v->ih_lock);
  uint32_t old = vapu_reg_get(v, index);
  if (value & WPTR_OVERFLOW_CLEAR) {
    uint32_t wptr = ih_reg(v, IH_RB_WPTR);
    vapu_reg_set(v, wptr, vapu_reg_get(v, wptr) & ~WPTR_RB_OVERFLOW);
  }
  if ((value & ENABLE_INTR) && !(old & ENABLE_INTR)) v->ih_armed = true;
  vapu_reg_set(v, index, value);
  spin_unlock_irqrestore(&v->ih_lock, irq);
}

/* Raises the MSI if the block is armed; the caller holds ih_lock and sends
 * it after releasing it. */
static bool take_interrupt(struct vapu *v, uint32_t cntl) {
  if (!(cntl & ENABLE_INTR) || !v->ih_armed) return false;
  v->ih_armed = false;
  return true;
}

static void rptr_write(struct vapu *v, uint32_t index, uint32_t value, void *arg) {
  uint64_t irq = spin_lock_irqsave(&v->ih_lock);
  vapu_reg_set(v, index, value);
  uint32_t cntl = vapu_reg_get(v, ih_reg(v, IH_RB_CNTL));
  bool send = false;
  if (cntl & RPTR_REARM) {
    v->ih_armed = true;
    uint32_t size = 4u << RB_SIZE(cntl);
    uint32_t wptr = vapu_reg_get(v, ih_reg(v, IH_RB_WPTR)) & WPTR_OFFSET_MASK & (size - 1);
    if ((value & (size - 1)) != wptr) send = take_interrupt(v, cntl); /* entries are left */
  }
  spin_unlock_irqrestore(&v->ih_lock, irq);
  if (send) vapu_pci_raise_msi(v);
}

void vapu_ih_init(struct vapu *v) {
  vapu_reg_hook(v, ih_reg(v, IH_RB_CNTL), NULL, rb_cntl_write, NULL);
  vapu_reg_hook(v, ih_reg(v, IH_RB_RPTR), NULL, rptr_write, NULL);
}

static void write_back(struct vapu *v, uint32_t cntl, uint32_t wptr_value) {
  if (!(cntl & WPTR_WRITEBACK_ENABLE)) return;
  uint64_t address = vapu_reg_get(v, ih_reg(v, IH_RB_WPTR_ADDR_LO)) |
                     (uint64_t)(vapu_reg_get(v, ih_reg(v, IH_RB_WPTR_ADDR_HI)) & 0xffff) << 32;
  if (address & 3) return;
  if (MC_SPACE(cntl) == MC_SPACE_BUS_ADDRESS)
    __atomic_store_n((uint32_t *)(uintptr_t)address, wptr_value, __ATOMIC_RELEASE);
  else
    ih_write(v, cntl, address, &wptr_value, 4);
}

bool vapu_ih_post(struct vapu *v, uint8_t client_id, uint8_t source_id, uint8_t ring_id,
                  uint8_t vmid, bool mm_hub, const uint32_t src_data[4]) {
  uint32_t offset;
  return vapu_ih_post_entry(v, client_id, source_id, ring_id, vmid, mm_hub, src_data, &offset);
}

bool vapu_ih_entry_consumed(struct vapu *v, uint32_t offset) {
  uint64_t irq = spin_lock_irqsave(&v->ih_lock);
  uint32_t cntl = vapu_reg_get(v, ih_reg(v, IH_RB_CNTL));
  uint32_t size = 4u << RB_SIZE(cntl);
  uint32_t rptr = vapu_reg_get(v, ih_reg(v, IH_RB_RPTR)) & (size - 1);
  uint32_t wptr = vapu_reg_get(v, ih_reg(v, IH_RB_WPTR)) & WPTR_OFFSET_MASK & (size - 1);
  spin_unlock_irqrestore(&v->ih_lock, irq);
  /* Not consumed while it lies between the read and the write pointer. A
   * ring turned off, or an overflow the driver recovered from by skipping
   * entries, counts as consumed: no answer will come. */
  if (!(cntl & RB_ENABLE)) return true;
  return ((offset - rptr) & (size - 1)) >= ((wptr - rptr) & (size - 1));
}

bool vapu_ih_post_entry(struct vapu *v, uint8_t client_id, uint8_t source_id, uint8_t ring_id,
                        uint8_t vmid, bool mm_hub, const uint32_t src_data[4], uint32_t *offset) {
  uint64_t irq = spin_lock_irqsave(&v->ih_lock);
  uint32_t cntl = vapu_reg_get(v, ih_reg(v, IH_RB_CNTL));
  const char *why = NULL;
  if (!(cntl & RB_ENABLE))
    why = "ring disabled";
  else if (!vapu_pci_bus_master(v))
    why = "bus mastering off";
  else if (MC_SPACE(cntl) != MC_SPACE_BUS_ADDRESS && MC_SPACE(cntl) != MC_SPACE_GPU_ADDRESS)
    why = "IH_RB_CNTL.MC_SPACE is neither 1 (bus address) nor 4 (MC address): not modelled";
  else if (MC_SPACE(cntl) == MC_SPACE_BUS_ADDRESS && v->chip->ih_needs_gpa_enable &&
           !(vapu_reg_get(v, ih_reg(v, IH_CHICKEN)) & CHICKEN_MC_SPACE_GPA_ENABLE))
    why = "bus addresses not enabled (IH_CHICKEN.MC_SPACE_GPA_ENABLE)";
  if (why) {
    spin_unlock_irqrestore(&v->ih_lock, irq);
    log_debug("interrupt (client 0x%x source %u) not written: %s", client_id, source_id, why);
    return false;
  }
  uint32_t size = 4u << RB_SIZE(cntl);
  uint64_t base = (uint64_t)vapu_reg_get(v, ih_reg(v, IH_RB_BASE)) << 8 |
                  (uint64_t)(vapu_reg_get(v, ih_reg(v, IH_RB_BASE_HI)) & 0xff) << 40;
  uint32_t wptr_reg = vapu_reg_get(v, ih_reg(v, IH_RB_WPTR));
  uint32_t wptr = wptr_reg & WPTR_OFFSET_MASK & (size - 1);
  uint32_t rptr = vapu_reg_get(v, ih_reg(v, IH_RB_RPTR)) & (size - 1);
  uint32_t overflow = wptr_reg & WPTR_RB_OVERFLOW;
  if (((wptr + IV_BYTES) & (size - 1)) == rptr) {
    if (!(cntl & WPTR_OVERFLOW_ENABLE)) {
      spin_unlock_irqrestore(&v->ih_lock, irq);
      log_warn("IH ring full: interrupt (client 0x%x source %u) dropped", client_id, source_id);
      return false;
    }
    if (!(cntl & WPTR_OVERFLOW_CLEAR)) overflow = WPTR_RB_OVERFLOW; /* the oldest entry is overwritten */
  }
  uint64_t ts = plat_now_ns() / GPU_CLOCK_NS;
  uint32_t iv[8] = {
      client_id | (uint32_t)source_id << 8 | (uint32_t)ring_id << 16 | (uint32_t)(vmid & 0xf) << 24 |
          (mm_hub ? 1u << 31 : 0),
      (uint32_t)ts,
      (uint32_t)(ts >> 32) & 0xffff,
      0, /* pasid: not used on bare metal */
      src_data[0], src_data[1], src_data[2], src_data[3],
  };
  *offset = wptr;
  if (!ih_write(v, cntl, base + wptr, iv, sizeof iv)) {
    spin_unlock_irqrestore(&v->ih_lock, irq);
    return false; /* the MM hub raised the fault */
  }
  __atomic_thread_fence(__ATOMIC_RELEASE);
  wptr = (wptr + IV_BYTES) & (size - 1);
  uint32_t new_wptr = wptr | overflow;
  vapu_reg_set(v, ih_reg(v, IH_RB_WPTR), new_wptr);
  write_back(v, cntl, new_wptr);
  bool send = take_interrupt(v, cntl);
  spin_unlock_irqrestore(&v->ih_lock, irq);
  vapu_stat_add(&v->stats.ih_entries);
  if (send) vapu_pci_raise_msi(v);
  return true;
}
