/* amdgpu_psp.c - the platform security processor (MP0). Its secure OS was
 * loaded by the BIOS on these APUs; the driver never loads SOS.
 * What must hold before the ring: nothing on psp_v10_0 (Raven), which
 * writes its ring registers at once (Linux psp_v10_0_ring_create). On
 * psp_v12_0 parts (MP0 11.0.3 Renoir, 12.0.1 Green Sardine), C2PMSG_81 is
 * the sOS's sign of life: Linux's bootloader_load_sos loads the sOS only
 * when it reads 0, and this driver never does, so 0 there is an error. */
#define LOG_TAG "psp"
#include <errno.h>
#include <string.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "drivers/amdgpu/regs/mp_10_0.h"
#include "drivers/amdgpu/regs/psp_gfx_if.h"
#include "lib/plat.h"

static bool psp_v12(const struct amdgpu_device *dev) { return dev->ip[IP_MP0].major != 10; }

static int psp_init_hw(struct amdgpu_device *dev) {
  if (!psp_v12(dev)) {
    log_info("PSP %u.%u.%u (psp_v10_0): secure OS started by the BIOS", dev->ip[IP_MP0].major,
             dev->ip[IP_MP0].minor, dev->ip[IP_MP0].revision);
    return 0;
  }
  dev->sos_version = RREG(dev, REG_MP0_SMN_C2PMSG_81);
  if (dev->sos_version == 0 || dev->sos_version == 0xffffffffu) {
    log_error("PSP %u.%u.%u: no secure OS (C2PMSG_81 = 0x%08x); the BIOS must have loaded it",
              dev->ip[IP_MP0].major, dev->ip[IP_MP0].minor, dev->ip[IP_MP0].revision, dev->sos_version);
    return -ENODEV;
  }
  log_info("sOS running, version 0x%08x", dev->sos_version);
  return 0;
}

/* ---- The kernel-mode ring ----
 * Sequences: Linux psp_v10_0.c / psp_v12_0.c ring_create, ring_stop,
 * ring_get/set_wptr; amdgpu_psp.c psp_ring_cmd_submit (frame at the write
 * pointer, write pointer in dwords), psp_cmd_submit_buf (fence polled with
 * a time limit, response status), psp_tmr_init / psp_prep_tmr_cmd_buf
 * (4 MiB TMR in VRAM, 1 MiB aligned, with its system physical address),
 * psp_prep_load_ip_fw_cmd_buf. A ring command succeeded when C2PMSG_64
 * answers with bit 31 and a zero status (psp_v10_0_ring_create waits for
 * 0x80000000 under mask 0x8000FFFF; ring_stop looks at bit 31 only). A
 * non-zero status in a command's response is a warning, as in Linux
 * (psp_cmd_submit_buf: "Some version of PSP FW doesn't write 0 to that
 * field"); only a missing fence is an error. Whether the firmware really
 * runs shows in the MEC's self-test (amdgpu_cp.c). */

#define PSP_RING_HANDSHAKE_NS 20000000ull  /* mdelay(20) after a ring command */
#define PSP_RING_TIMEOUT_US 2000000
#define PSP_CMD_TIMEOUT_NS 2000000000ull

static const char *cmd_name(uint32_t id) {
  switch (id) {
    case PSP_CMD_SETUP_TMR: return "SETUP_TMR";
    case PSP_CMD_LOAD_IP_FW: return "LOAD_IP_FW";
    default: return "command";
  }
}

static int ring_command(struct amdgpu_device *dev, uint32_t command, uint32_t status_mask) {
  uint32_t reg = amdgpu_reg_index(dev, REG_MP0_SMN_C2PMSG_64);
  amdgpu_wreg(dev, reg, command << PSP_RING_CMD_SHIFT);
  plat_sleep_ns(PSP_RING_HANDSHAKE_NS);
  int r = amdgpu_wait_reg(dev, reg, PSP_CMD_RESPONSE, PSP_CMD_RESPONSE, PSP_RING_TIMEOUT_US);
  uint32_t value = amdgpu_rreg(dev, reg);
  if (r) {
    log_error("PSP ring command %u: no response in C2PMSG_64 (0x%08x) after %u ms", command, value,
              PSP_RING_TIMEOUT_US / 1000);
    return r;
  }
  if (value & status_mask & PSP_CMD_STATUS_MASK) {
    log_error("PSP ring command %u refused: status 0x%04x", command, value & PSP_CMD_STATUS_MASK);
    return -EIO;
  }
  return 0;
}

/* Puts one command on the ring, waits for its fence, checks its status. */
static int psp_submit(struct amdgpu_device *dev, const struct psp_cmd_resp *cmd, const char *what) {
  struct amdgpu_psp *p = &dev->psp;
  memset(p->cmd, 0, PSP_CMD_BUFFER_BYTES);
  memcpy(p->cmd, cmd, sizeof *cmd);
  p->cmd->buf_size = sizeof *cmd;
  p->cmd->buf_version = PSP_CMD_BUF_VERSION;
  uint32_t value = ++p->fence_value;
  uint32_t wptr_reg = amdgpu_reg_index(dev, REG_MP0_SMN_C2PMSG_67);
  uint32_t ring_dwords = PSP_RING_BYTES / 4, frame_dwords = sizeof(struct psp_rb_frame) / 4;
  uint32_t wptr = amdgpu_rreg(dev, wptr_reg) % ring_dwords;
  struct psp_rb_frame *f = &p->ring[wptr / frame_dwords];
  uint64_t cmd_mc = amdgpu_local_mc_address(dev, p->cmd), fence_mc = amdgpu_local_mc_address(dev, (void *)p->fence);
  memset(f, 0, sizeof *f);
  f->cmd_buf_addr_lo = (uint32_t)cmd_mc;
  f->cmd_buf_addr_hi = (uint32_t)(cmd_mc >> 32);
  f->cmd_buf_size = sizeof *cmd;
  f->fence_addr_lo = (uint32_t)fence_mc;
  f->fence_addr_hi = (uint32_t)(fence_mc >> 32);
  f->fence_value = value;
  /* The frame and command went out through the CPU's write-combining
   * mapping of the carve-out: drained before the PSP is told. */
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  amdgpu_wreg(dev, wptr_reg, (wptr + frame_dwords) % ring_dwords);
  uint64_t deadline = plat_now_ns() + PSP_CMD_TIMEOUT_NS;
  while (__atomic_load_n(p->fence, __ATOMIC_ACQUIRE) != value) {
    if (plat_now_ns() > deadline) {
      log_error("PSP %s (%s): no fence %u after %llu ms (fence reads %u)", cmd_name(cmd->cmd_id), what,
                value, (unsigned long long)(PSP_CMD_TIMEOUT_NS / 1000000), *p->fence);
      return -ETIMEDOUT;
    }
    plat_sleep_ns(50000);
  }
  uint32_t status = __atomic_load_n(&p->cmd->resp.status, __ATOMIC_ACQUIRE);
  if (status != TEE_SUCCESS) {
    /* Said once at warning level: on such firmware every command does it. */
    plat_log(p->odd_status_seen ? LOG_DEBUG : LOG_WARN, LOG_TAG,
             "PSP %s (%s) answered status 0x%08x: taken as success, as Linux does (some sOS versions "
             "write non-zero); the MEC self-test tells whether the firmware runs",
             cmd_name(cmd->cmd_id), what, status);
    p->odd_status_seen = true;
  }
  return 0;
}

static int setup_tmr(struct amdgpu_device *dev) {
  struct psp_cmd_resp cmd = {.cmd_id = PSP_CMD_SETUP_TMR};
  uint64_t mc = amdgpu_local_mc_address(dev, dev->psp.tmr);
  uint64_t pa = amdgpu_local_physical_address(dev, dev->psp.tmr);
  cmd.cmd.setup_tmr = (struct psp_cmd_setup_tmr){(uint32_t)mc, (uint32_t)(mc >> 32), PSP_TMR_BYTES,
                                                  PSP_TMR_FLAG_VIRT_PHY_ADDR, (uint32_t)pa,
                                                  (uint32_t)(pa >> 32)};
  int r = psp_submit(dev, &cmd, "trusted memory region");
  if (!r) log_info("TMR: %u MiB at MC 0x%llx", PSP_TMR_BYTES >> 20, (unsigned long long)mc);
  return r;
}

/* One image through a GART-mapped staging page run: the PSP copies it into
 * the TMR before it answers. */
static int load_piece(struct amdgpu_device *dev, const struct ucode_piece *piece, uint8_t *staging,
                      uint64_t staging_mc) {
  memcpy(staging, piece->data, piece->size);
  struct psp_cmd_resp cmd = {.cmd_id = PSP_CMD_LOAD_IP_FW};
  cmd.cmd.load_ip_fw = (struct psp_cmd_load_ip_fw){(uint32_t)staging_mc, (uint32_t)(staging_mc >> 32),
                                                    piece->size, piece->psp_type};
  int r = psp_submit(dev, &cmd, piece->name);
  if (!r)
    log_info("loaded %s (%u bytes, PSP type %u) at TMR 0x%llx", piece->name, piece->size, piece->psp_type,
             (unsigned long long)dev->psp.cmd->resp.fw_addr_hi << 32 | dev->psp.cmd->resp.fw_addr_lo);
  return r;
}

/* Images in Linux's ucode ID order: SDMA0, MEC1, MEC1 jump table, RLC
 * save/restore lists, RLC_G. */
static int load_firmware(struct amdgpu_device *dev) {
  static const enum ucode_kind order[] = {UCODE_SDMA, UCODE_MEC, UCODE_RLC};
  size_t largest = 0;
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < dev->firmware[order[k]].piece_count; i++)
      if (dev->firmware[order[k]].pieces[i].size > largest) largest = dev->firmware[order[k]].pieces[i].size;
  size_t bytes = (largest + 4095) & ~(size_t)4095;
  uint8_t *staging = plat_dma_alloc(bytes, 4096);
  if (!staging) return -ENOMEM;
  uint64_t mc = 0;
  int r = gmc_gart_map(dev, staging, bytes, &mc);
  bool mapped = !r;
  for (int k = 0; !r && k < 3; k++)
    for (int i = 0; !r && i < dev->firmware[order[k]].piece_count; i++)
      r = load_piece(dev, &dev->firmware[order[k]].pieces[i], staging, mc);
  if (mapped) gmc_gart_unmap(dev, mc, bytes);
  plat_dma_free(staging, bytes);
  return r;
}

static int psp_ring_init_hw(struct amdgpu_device *dev) {
  struct amdgpu_psp *p = &dev->psp;
  p->ring = amdgpu_local_alloc(dev, PSP_RING_BYTES, 4096);
  p->fence = amdgpu_local_alloc(dev, PSP_FENCE_BUFFER_BYTES, 4096);
  p->cmd = amdgpu_local_alloc(dev, PSP_CMD_BUFFER_BYTES, 4096);
  p->tmr = amdgpu_local_alloc(dev, PSP_TMR_BYTES, PSP_TMR_ALIGNMENT);
  if (!p->ring || !p->fence || !p->cmd || !p->tmr) {
    log_error("no room in the carve-out for the PSP ring, fence, command buffer and %u MiB TMR",
              PSP_TMR_BYTES >> 20);
    return -ENOMEM;
  }
  memset(p->ring, 0, PSP_RING_BYTES);
  *p->fence = 0;
  p->fence_value = 0;
  uint64_t ring_mc = amdgpu_local_mc_address(dev, p->ring);
  WREG(dev, REG_MP0_SMN_C2PMSG_69, (uint32_t)ring_mc);
  WREG(dev, REG_MP0_SMN_C2PMSG_70, (uint32_t)(ring_mc >> 32));
  WREG(dev, REG_MP0_SMN_C2PMSG_71, PSP_RING_BYTES);
  int r = ring_command(dev, PSP_RING_TYPE_KM, PSP_CMD_STATUS_MASK);
  if (r) return r;
  p->ring_up = true;
  log_info("kernel-mode ring of %u bytes at MC 0x%llx", PSP_RING_BYTES, (unsigned long long)ring_mc);
  r = setup_tmr(dev);
  if (!r) r = load_firmware(dev);
  return r;
}

static void psp_ring_fini_hw(struct amdgpu_device *dev) {
  struct amdgpu_psp *p = &dev->psp;
  if (p->ring_up) ring_command(dev, PSP_RING_CMD_DESTROY, 0);
  p->ring_up = false;
  amdgpu_local_free(dev, p->tmr);
  amdgpu_local_free(dev, p->cmd);
  amdgpu_local_free(dev, (void *)p->fence);
  amdgpu_local_free(dev, p->ring);
  memset(p, 0, sizeof *p);
}

/* sOS alive (never loaded by us) */
const struct amdgpu_ip_funcs psp_block = {.name = "psp", .init_hw = psp_init_hw};

/* TMR, SDMA/MEC/RLC firmware */
const struct amdgpu_ip_funcs psp_ring_block = {
    .name = "psp-ring",
    .init_hw = psp_ring_init_hw,
    .fini_hw = psp_ring_fini_hw,
};
