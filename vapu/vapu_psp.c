/* vapu_psp.c - the PSP's secure OS as the driver sees it: the kernel-mode
 * (GPCOM) ring it creates and destroys through C2PMSG_64, the frames the
 * driver queues by moving the write pointer C2PMSG_67, and the commands
 * those frames point at: SETUP_TMR (the trusted memory region, which must
 * lie in the frame buffer) and LOAD_IP_FW (the image is checked, copied
 * into the TMR, and the IP it belongs to counts as having firmware). Each
 * command gets a response status and its frame's fence value, written
 * through the GMC (MMHUB, VMID 0, client MP0) as the PSP does.
 *
 * What the firmware state gates elsewhere in the model: an ME of the MEC
 * runs only with the MEC image and that ME's jump table (vapu_gfx.c); the
 * RLC runs only with RLC_G; SDMA0 only powers up with its image.
 *
 * Formats and values: Linux amdgpu/psp_gfx_if.h (ring frame, command
 * buffer and response offsets, command IDs, firmware types,
 * PSP_ERR_UNKNOWN_COMMAND), amdgpu_psp.h (ring types), psp_v10_0.c /
 * psp_v12_0.c (the ring registers and their handshake); statuses are
 * GlobalPlatform TEE results (TEE_ERROR_NOT_SUPPORTED as in psp_gfx_if.h).
 * The checks on a firmware image are the model's: the real PSP verifies
 * AMD's signature, which synthetic firmware cannot carry. */
#define LOG_TAG "vapu-psp"
#include <string.h>

#include "vapu/vapu_internal.h"
#include "lib/util.h"

#define RESPONSE 0x80000000u
#define RING_TYPE_KM 2u
#define RING_DESTROY 3u
#define GBR_IH_SET 8u                  /* psp_gfx_if.h GFX_CTRL_CMD_ID_GBR_IH_SET: psp_v12_0_reroute_ih */
#define RING_STATUS_BAD_RING 0x1u     /* the model's status for a ring it cannot use */

#define FRAME_BYTES 64u
#define FRAME_CMD_LO 0
#define FRAME_CMD_HI 1
#define FRAME_FENCE_LO 3
#define FRAME_FENCE_HI 4
#define FRAME_FENCE_VALUE 5
#define CMD_BYTES 1024u
#define CMD_ID 2                       /* dword index */
#define CMD_ARGS 7                     /* dword index of the command's fields (+28) */
#define RESP 216                       /* dword index of the response (+864) */

#define CMD_SETUP_TMR 0x5u
#define CMD_LOAD_IP_FW 0x6u
#define TMR_FLAG_VIRT_PHY_ADDR 0x2u
#define TMR_ALIGNMENT 0x100000ull
#define FW_TYPE_MAX 31u                /* "FW types for GFX_CMD_ID_LOAD_IP_FW. Limit 31." */
#define FW_MAX_BYTES (2u << 20)

#define TEE_SUCCESS 0u
#define TEE_ERROR_BAD_FORMAT 0xFFFF0005u
#define TEE_ERROR_BAD_PARAMETERS 0xFFFF0006u
#define TEE_ERROR_BAD_STATE 0xFFFF0007u
#define TEE_ERROR_NOT_SUPPORTED 0xFFFF000Au
#define PSP_ERR_UNKNOWN_COMMAND 0x00000100u

static const struct vapu_requester psp_requester = {VAPU_MMHUB, 0, VAPU_MMHUB_CLIENT_MP0, false};

static uint32_t reg(struct vapu *v, uint32_t offset) { return vapu_reg_index(v, HWID_MP0, 0, offset); }

/* ---- Mailbox: ring create / destroy ---- */

static void ring_command_write(struct vapu *v, uint32_t index, uint32_t value, void *arg) {
  uint64_t irq = spin_lock_irqsave(&v->psp.lock);
  v->psp.command = value;
  v->psp.command_pending = true;
  spin_unlock_irqrestore(&v->psp.lock, irq);
  vapu_reg_set(v, index, value & ~RESPONSE); /* busy until the firmware answers */
  vapu_kick(v);
}

static void wptr_write(struct vapu *v, uint32_t index, uint32_t value, void *arg) {
  vapu_reg_set(v, index, value);
  vapu_kick(v);
}

static uint32_t ring_create(struct vapu *v) {
  uint64_t address = vapu_reg_get(v, reg(v, MP0_SMN_C2PMSG_69)) |
                     (uint64_t)vapu_reg_get(v, reg(v, MP0_SMN_C2PMSG_70)) << 32;
  uint32_t bytes = vapu_reg_get(v, reg(v, MP0_SMN_C2PMSG_71));
  size_t run = 0;
  if (!bytes || bytes % FRAME_BYTES || (address & 0xfff) ||
      !vapu_translate(v, &psp_requester, NULL, address, VAPU_GMC_READ, &run) || run < bytes) {
    log_error("PSP ring at 0x%llx of %u bytes refused: not whole 64-byte frames, not page aligned, "
              "or not reachable in VMID 0", (unsigned long long)address, bytes);
    return RING_STATUS_BAD_RING;
  }
  v->psp.ring_address = address;
  v->psp.ring_bytes = bytes;
  v->psp.rptr = 0;
  v->psp.ring_up = true;
  vapu_reg_set(v, reg(v, MP0_SMN_C2PMSG_67), 0);
  return 0;
}

/* ---- Commands ---- */

static uint32_t setup_tmr(struct vapu *v, const uint32_t *args) {
  uint64_t mc = args[0] | (uint64_t)args[1] << 32, size = args[2];
  uint64_t pa = args[4] | (uint64_t)args[5] << 32;
  uint64_t fb_mc, fb_size;
  vapu_gmc_frame_buffer(v, &fb_mc, &fb_size);
  uint64_t fb_pa = (uint64_t)(uintptr_t)v->carveout;
  /* Linux allocates the TMR in VRAM with PSP_TMR_ALIGNMENT (1 MiB,
   * amdgpu_psp.h psp_tmr_init): what the sOS is known to take. */
  if ((mc & (TMR_ALIGNMENT - 1)) || !size || (size & 0xfff) || mc < fb_mc || mc + size > fb_mc + fb_size) {
    log_error("SETUP_TMR refused: 0x%llx + %llu bytes is not 1 MiB-aligned frame buffer memory",
              (unsigned long long)mc, (unsigned long long)size);
    return TEE_ERROR_BAD_PARAMETERS;
  }
  if ((args[3] & TMR_FLAG_VIRT_PHY_ADDR) && pa != fb_pa + (mc - fb_mc)) {
    log_error("SETUP_TMR refused: system address 0x%llx is not where MC 0x%llx lives",
              (unsigned long long)pa, (unsigned long long)mc);
    return TEE_ERROR_BAD_PARAMETERS;
  }
  v->psp.tmr = v->carveout + (mc - fb_mc);
  v->psp.tmr_mc = mc;
  v->psp.tmr_size = size;
  v->psp.tmr_used = 0;
  v->psp.loaded_types = 0;
  return TEE_SUCCESS;
}

static uint32_t load_ip_fw(struct vapu *v, const uint32_t *args, uint32_t *resp) {
  uint64_t address = args[0] | (uint64_t)args[1] << 32;
  uint32_t size = args[2], type = args[3];
  if (!v->psp.tmr) {
    log_error("LOAD_IP_FW (type %u) before SETUP_TMR", type);
    return TEE_ERROR_BAD_STATE;
  }
  if (!type || type > FW_TYPE_MAX) {
    log_error("LOAD_IP_FW of unknown firmware type %u", type);
    return TEE_ERROR_NOT_SUPPORTED;
  }
  if ((address & 0xfff) || !size || (size & 3) || size > FW_MAX_BYTES) {
    log_error("LOAD_IP_FW type %u refused: %u bytes at 0x%llx (empty, not whole dwords, larger than "
              "%u MiB or not page aligned)", type, size, (unsigned long long)address, FW_MAX_BYTES >> 20);
    return TEE_ERROR_BAD_FORMAT;
  }
  if (v->config.faults.psp_firmware_status) return v->config.faults.psp_firmware_status;
  uint64_t at = ALIGN_UP(v->psp.tmr_used, 0x1000);
  if (at + size > v->psp.tmr_size) {
    log_error("LOAD_IP_FW type %u: %u bytes do not fit in the TMR", type, size);
    return TEE_ERROR_BAD_PARAMETERS;
  }
  if (vapu_gpu_read(v, &psp_requester, NULL, address, v->psp.tmr + at, size)) return TEE_ERROR_BAD_PARAMETERS;
  v->psp.tmr_used = at + size;
  uint64_t fw_mc = v->psp.tmr_mc + at;
  resp[2] = (uint32_t)fw_mc;
  resp[3] = (uint32_t)(fw_mc >> 32);
  if (type != v->config.faults.psp_drops_fw_type)
    __atomic_or_fetch(&v->psp.loaded_types, 1u << type, __ATOMIC_RELEASE);
  return TEE_SUCCESS;
}

/* Executes one frame: the command buffer read and answered through the
 * GMC, then the fence. */
static void run_frame(struct vapu *v, const uint32_t frame[16]) {
  uint64_t cmd_address = frame[FRAME_CMD_LO] | (uint64_t)frame[FRAME_CMD_HI] << 32;
  uint64_t fence_address = frame[FRAME_FENCE_LO] | (uint64_t)frame[FRAME_FENCE_HI] << 32;
  uint32_t cmd[CMD_BYTES / 4];
  if (vapu_gpu_read(v, &psp_requester, NULL, cmd_address, cmd, sizeof cmd)) return; /* fault raised */
  uint32_t *resp = &cmd[RESP], status;
  memset(resp, 0, 32);
  switch (cmd[CMD_ID]) {
    case CMD_SETUP_TMR: status = setup_tmr(v, &cmd[CMD_ARGS]); break;
    case CMD_LOAD_IP_FW: status = load_ip_fw(v, &cmd[CMD_ARGS], resp); break;
    default: status = PSP_ERR_UNKNOWN_COMMAND; break;
  }
  v->psp.commands++;
  if (status) v->psp.failed_commands++;
  resp[0] = status ? status : v->chip->psp_success_status;
  if (vapu_gpu_write(v, &psp_requester, NULL, cmd_address + RESP * 4, resp, 32)) return;
  __atomic_thread_fence(__ATOMIC_RELEASE);
  vapu_gpu_write(v, &psp_requester, NULL, fence_address, &frame[FRAME_FENCE_VALUE], 4);
}

/* The PSP firmware's turn on the model's worker. */
bool vapu_psp_service(struct vapu *v) {
  bool busy = false;
  uint64_t irq = spin_lock_irqsave(&v->psp.lock);
  bool pending = v->psp.command_pending;
  uint32_t command = v->psp.command;
  v->psp.command_pending = false;
  spin_unlock_irqrestore(&v->psp.lock, irq);
  if (pending) {
    uint32_t status = 0, type = (command >> 16) & 0xff;
    if (type == RING_TYPE_KM)
      status = ring_create(v);
    else if (type == RING_DESTROY)
      v->psp.ring_up = false;
    else if (type == GBR_IH_SET)
      status = 0; /* an IH client rerouted: the model has one IH ring, nothing to change */
    else
      status = RING_STATUS_BAD_RING;
    vapu_reg_set(v, reg(v, MP0_SMN_C2PMSG_64), RESPONSE | status);
    busy = true;
  }
  if (!v->psp.ring_up || v->config.faults.psp_ring_silent) return busy;
  uint32_t ring_dwords = v->psp.ring_bytes / 4;
  uint32_t wptr = vapu_reg_get(v, reg(v, MP0_SMN_C2PMSG_67)) % ring_dwords;
  while (v->psp.rptr != wptr) {
    uint32_t frame[16];
    if (vapu_gpu_read(v, &psp_requester, NULL, v->psp.ring_address + v->psp.rptr * 4, frame, sizeof frame))
      break;
    run_frame(v, frame);
    v->psp.rptr = (v->psp.rptr + FRAME_BYTES / 4) % ring_dwords;
    busy = true;
  }
  return busy;
}

void vapu_psp_init(struct vapu *v) {
  vapu_reg_hook(v, reg(v, MP0_SMN_C2PMSG_64), NULL, ring_command_write, NULL);
  vapu_reg_hook(v, reg(v, MP0_SMN_C2PMSG_67), NULL, wptr_write, NULL);
}

bool vapu_psp_firmware_loaded(struct vapu *v, uint32_t types_mask) {
  return (__atomic_load_n(&v->psp.loaded_types, __ATOMIC_ACQUIRE) & types_mask) == types_mask;
}

void vapu_get_firmware_state(struct vapu *v, struct vapu_firmware_state *out) {
  *out = (struct vapu_firmware_state){
      .psp_ring_up = v->psp.ring_up,
      .tmr_set = v->psp.tmr != NULL,
      .loaded_types = __atomic_load_n(&v->psp.loaded_types, __ATOMIC_ACQUIRE),
      .psp_commands = v->psp.commands,
      .psp_failed_commands = v->psp.failed_commands,
      .mec1_running = vapu_mec_running(v, 1),
      .rlc_running = vapu_rlc_running(v),
      .sdma_powered = v->sdma_powered,
      .gfxoff_allowed = v->gfxoff_allowed,
      .gfx_powered = vapu_gfx_powered(v),
  };
}
