/* vapu_ih.c - the interrupt handler block (OSSSYS 4.x): writes 32-byte
 * interrupt vectors into the ring the driver programmed, the write pointer
 * to its write-back address, and raises the MSI.
 * Offsets and fields: Linux include/asic_reg/oss/osssys_4_0_offset.h and
 * osssys_4_0_sh_mask.h; IV layout: amdgpu_ih.c amdgpu_ih_decode_iv_helper;
 * ring behaviour (byte pointers, overflow flag, write-back): vega10_ih.c. */
#define LOG_TAG "vapu"
#include "vapu/vapu_internal.h"

#define IH_RB_CNTL 0x0080
#define IH_RB_BASE 0x0081
#define IH_RB_BASE_HI 0x0082
#define IH_RB_RPTR 0x0083
#define IH_RB_WPTR 0x0084
#define IH_RB_WPTR_ADDR_HI 0x0085
#define IH_RB_WPTR_ADDR_LO 0x0086
#define IH_CHICKEN 0x018c

#define RB_ENABLE 0x00000001u
#define RB_SIZE(c) (((c) >> 1) & 0x1fu)
#define WPTR_WRITEBACK_ENABLE 0x00000100u
#define WPTR_OVERFLOW_ENABLE 0x00010000u
#define ENABLE_INTR 0x00020000u
#define MC_SPACE(c) (((c) >> 28) & 0x7u)
#define WPTR_OVERFLOW_CLEAR 0x80000000u
#define MC_SPACE_PHYSICAL 1
#define WPTR_RB_OVERFLOW 0x1u
#define WPTR_OFFSET_MASK 0x0003fffcu
#define CHICKEN_MC_SPACE_GPA_ENABLE 0x10u
#define IV_BYTES 32
#define GPU_CLOCK_NS 10 /* the 100 MHz reference clock of the IV timestamp */

static uint32_t ih_reg(struct vapu *v, uint32_t offset) { return vapu_reg_index(v, HWID_OSSSYS, 0, offset); }

static void rb_cntl_write(struct vapu *v, uint32_t index, uint32_t value, void *arg) {
  uint64_t irq = vapu_lock(&v->ih_lock);
  if (value & WPTR_OVERFLOW_CLEAR) {
    uint32_t wptr = ih_reg(v, IH_RB_WPTR);
    vapu_reg_set(v, wptr, vapu_reg_get(v, wptr) & ~WPTR_RB_OVERFLOW);
  }
  vapu_reg_set(v, index, value & ~WPTR_OVERFLOW_CLEAR);
  vapu_unlock(&v->ih_lock, irq);
}

void vapu_ih_init(struct vapu *v) { vapu_reg_hook(v, ih_reg(v, IH_RB_CNTL), NULL, rb_cntl_write, NULL); }

static void write_back(struct vapu *v, uint32_t cntl, uint32_t wptr_value) {
  if (!(cntl & WPTR_WRITEBACK_ENABLE)) return;
  uint64_t address = vapu_reg_get(v, ih_reg(v, IH_RB_WPTR_ADDR_LO)) |
                     (uint64_t)(vapu_reg_get(v, ih_reg(v, IH_RB_WPTR_ADDR_HI)) & 0xffff) << 32;
  if (address & 3) return;
  __atomic_store_n((uint32_t *)(uintptr_t)address, wptr_value, __ATOMIC_RELEASE);
}

bool vapu_ih_post(struct vapu *v, uint8_t client_id, uint8_t source_id, uint8_t ring_id,
                  uint8_t vmid, bool mm_hub, const uint32_t src_data[4]) {
  uint32_t offset;
  return vapu_ih_post_entry(v, client_id, source_id, ring_id, vmid, mm_hub, src_data, &offset);
}

bool vapu_ih_entry_consumed(struct vapu *v, uint32_t offset) {
  uint64_t irq = vapu_lock(&v->ih_lock);
  uint32_t cntl = vapu_reg_get(v, ih_reg(v, IH_RB_CNTL));
  uint32_t size = 4u << RB_SIZE(cntl);
  uint32_t rptr = vapu_reg_get(v, ih_reg(v, IH_RB_RPTR)) & (size - 1);
  uint32_t wptr = vapu_reg_get(v, ih_reg(v, IH_RB_WPTR)) & WPTR_OFFSET_MASK & (size - 1);
  vapu_unlock(&v->ih_lock, irq);
  /* Not consumed while it lies between the read and the write pointer. A
   * ring turned off, or an overflow the driver recovered from by skipping
   * entries, counts as consumed: no answer will come. */
  if (!(cntl & RB_ENABLE)) return true;
  return ((offset - rptr) & (size - 1)) >= ((wptr - rptr) & (size - 1));
}

bool vapu_ih_post_entry(struct vapu *v, uint8_t client_id, uint8_t source_id, uint8_t ring_id,
                        uint8_t vmid, bool mm_hub, const uint32_t src_data[4], uint32_t *offset) {
  uint64_t irq = vapu_lock(&v->ih_lock);
  uint32_t cntl = vapu_reg_get(v, ih_reg(v, IH_RB_CNTL));
  const char *why = NULL;
  if (!(cntl & RB_ENABLE))
    why = "ring disabled";
  else if (!vapu_pci_bus_master(v))
    why = "bus mastering off";
  else if (MC_SPACE(cntl) != MC_SPACE_PHYSICAL)
    why = "ring not in bus-address space (IH_RB_CNTL.MC_SPACE)";
  else if (v->chip->ih_needs_gpa_enable &&
           !(vapu_reg_get(v, ih_reg(v, IH_CHICKEN)) & CHICKEN_MC_SPACE_GPA_ENABLE))
    why = "bus addresses not enabled (IH_CHICKEN.MC_SPACE_GPA_ENABLE)";
  if (why) {
    vapu_unlock(&v->ih_lock, irq);
    log_debug("interrupt (client 0x%x source %u) not written: %s", client_id, source_id, why);
    return false;
  }
  uint32_t size = 4u << RB_SIZE(cntl);
  uint64_t base = (uint64_t)vapu_reg_get(v, ih_reg(v, IH_RB_BASE)) << 8 |
                  (uint64_t)(vapu_reg_get(v, ih_reg(v, IH_RB_BASE_HI)) & 0xff) << 40;
  uint32_t wptr_reg = vapu_reg_get(v, ih_reg(v, IH_RB_WPTR));
  uint32_t wptr = wptr_reg & WPTR_OFFSET_MASK & (size - 1);
  uint32_t rptr = vapu_reg_get(v, ih_reg(v, IH_RB_RPTR)) & (size - 1);
  if (((wptr + IV_BYTES) & (size - 1)) == rptr) {
    if (cntl & WPTR_OVERFLOW_ENABLE) {
      vapu_reg_set(v, ih_reg(v, IH_RB_WPTR), wptr | WPTR_RB_OVERFLOW);
      write_back(v, cntl, wptr | WPTR_RB_OVERFLOW);
    }
    vapu_unlock(&v->ih_lock, irq);
    log_warn("IH ring full: interrupt (client 0x%x source %u) dropped", client_id, source_id);
    return false;
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
  uint32_t *slot = (uint32_t *)(uintptr_t)(base + wptr);
  for (int i = 0; i < 8; i++) slot[i] = iv[i];
  __atomic_thread_fence(__ATOMIC_RELEASE);
  wptr = (wptr + IV_BYTES) & (size - 1);
  uint32_t new_wptr = wptr | (wptr_reg & WPTR_RB_OVERFLOW);
  vapu_reg_set(v, ih_reg(v, IH_RB_WPTR), new_wptr);
  write_back(v, cntl, new_wptr);
  vapu_unlock(&v->ih_lock, irq);
  vapu_stat_add(&v->stats.ih_entries);
  if (cntl & ENABLE_INTR) vapu_pci_raise_msi(v);
  return true;
}
