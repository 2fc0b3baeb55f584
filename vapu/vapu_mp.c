/* vapu_mp.c - the two microcontrollers that the BIOS has already started:
 * MP0 (PSP, running its secure OS) and MP1 (SMU, running the power
 * management firmware). The driver talks to them through C2PMSG mailbox
 * registers; the firmware answers from the model's worker, some time later,
 * as the real microcontrollers do.
 * Offsets: Linux include/asic_reg/mp/mp_10_0_offset.h and mp_12_0_0_offset.h
 * (same values); reset values mp_10_0_default.h (the mailboxes reset to 0).
 * What the BIOS's firmware leaves: the IFWI's "initialised" flag, bit 31 of
 * C2PMSG_33 (Linux amdgpu_discovery.c waits for it before reading the
 * discovery table); on psp_v12_0 parts the running sOS's version in
 * C2PMSG_81 ("sOS sign of life", psp_v12_0_bootloader_load_sos: non-zero =
 * already loaded), which psp_v10_0 does not have. C2PMSG_64 holds no
 * precondition: psp_v10_0/v12_0 write their ring commands at once.
 * SMU: smu10_smumgr.c / smu_v12_0.c
 * (message in C2PMSG_66, argument in C2PMSG_82, response in C2PMSG_90) and
 * the message numbers of rv_ppsmc.h / smu_v12_0_ppsmc.h. */
#define LOG_TAG "vapu"
#include "vapu/vapu_internal.h"

#define IFWI_INITIALISED 0x80000000u

#define SMU_MSG_TestMessage 0x1
#define SMU_MSG_GetSmuVersion 0x2
#define SMU_MSG_PowerUpGfx 0x6
#define SMU_MSG_EnableGfxOff 0x7
#define SMU_MSG_DisableGfxOff 0x8
#define SMU_MSG_PowerDownSdma 0xD
#define SMU_MSG_PowerUpSdma 0xE
#define SMU_MSG_GetMaxGfxclkFrequency 0x2D
#define SMU_RESULT_OK 0x1
#define SMU_RESULT_UNKNOWN_CMD 0xFE
#define SMU_RESULT_CMD_REJECTED_PREREQ 0xFD
#define GFXOFF_STATUS_ON (2u << 1) /* PWR_GFXOFF_STATUS [2:1] = 2: the graphics core is on */
#define GFX_POWER_UP_NS 2000000ull /* how long the model's SMU takes to power the core up */

/* Writing the message register hands the message to the SMU. */
static void smu_message_write(struct vapu *v, uint32_t index, uint32_t value, void *arg) {
  vapu_reg_set(v, index, value);
  uint64_t irq = spin_lock_irqsave(&v->smu_lock);
  v->smu_pending = value + 1;
  spin_unlock_irqrestore(&v->smu_lock, irq);
  vapu_kick(v);
}

bool vapu_gfx_powered(struct vapu *v) {
  return plat_now_ns() >= __atomic_load_n(&v->gfx_power_up_at, __ATOMIC_ACQUIRE);
}

static uint32_t gfxoff_status_read(struct vapu *v, uint32_t index, void *arg) {
  return vapu_gfx_powered(v) ? GFXOFF_STATUS_ON : 0;
}

void vapu_mp_init(struct vapu *v) {
  vapu_reg_set(v, vapu_reg_index(v, HWID_MP0, 0, MP0_SMN_C2PMSG_33), IFWI_INITIALISED);
  if (!v->config.faults.psp_dead && v->chip->sos_sign_of_life)
    vapu_reg_set(v, vapu_reg_index(v, HWID_MP0, 0, MP0_SMN_C2PMSG_81), v->chip->sos_version);
  /* The SMU left its last response (OK) in place after the BIOS's messages. */
  vapu_reg_set(v, vapu_reg_index(v, HWID_MP1, 0, MP1_SMN_C2PMSG_90), SMU_RESULT_OK);
  vapu_reg_hook(v, vapu_reg_index(v, HWID_MP1, 0, MP1_SMN_C2PMSG_66), NULL, smu_message_write,
                NULL);
  /* GFXOFF is not allowed until a driver allows it (Linux amdgpu_gfx_off_ctrl:
   * gfx_off_state starts false, DisableGfxOff is only sent after an
   * EnableGfxOff) and the core is on, unless an OS that allowed it left it
   * so across a warm reboot (the SMU keeps running). */
  v->gfxoff_allowed = v->config.faults.gfxoff_at_start;
  v->gfx_power_up_at = v->config.faults.gfxoff_at_start ? UINT64_MAX : 0;
  vapu_reg_hook(v, v->chip->gfxoff_status_reg, gfxoff_status_read, NULL, NULL);
  if (!v->config.faults.psp_dead) vapu_psp_init(v);
}

/* The SMU firmware: one message at a time, answer in the argument and
 * response registers. */
bool vapu_mp_service(struct vapu *v, void *ctx) {
  bool psp_busy = v->config.faults.psp_dead ? false : vapu_psp_service(v);
  uint64_t irq = spin_lock_irqsave(&v->smu_lock);
  uint32_t pending = v->smu_pending;
  v->smu_pending = 0;
  spin_unlock_irqrestore(&v->smu_lock, irq);
  if (!pending || v->config.faults.smu_silent) return psp_busy;
  uint32_t message = pending - 1;
  uint32_t arg_reg = vapu_reg_index(v, HWID_MP1, 0, MP1_SMN_C2PMSG_82);
  uint32_t response = SMU_RESULT_OK;
  if (message && message == v->config.faults.smu_rejects_message) message = 0; /* answered below */
  switch (message) {
    case 0: response = SMU_RESULT_CMD_REJECTED_PREREQ; break;
    case SMU_MSG_TestMessage: vapu_reg_set(v, arg_reg, vapu_reg_get(v, arg_reg) + 1); break;
    case SMU_MSG_GetSmuVersion: vapu_reg_set(v, arg_reg, v->chip->smu_version); break;
    case SMU_MSG_GetMaxGfxclkFrequency: vapu_reg_set(v, arg_reg, v->chip->max_gfxclk_mhz); break;
    case SMU_MSG_PowerUpGfx: break;
    case SMU_MSG_EnableGfxOff: /* the idle core powers down at once in the model */
      v->gfxoff_allowed = true;
      __atomic_store_n(&v->gfx_power_up_at, UINT64_MAX, __ATOMIC_RELEASE);
      break;
    case SMU_MSG_DisableGfxOff:
      v->gfxoff_allowed = false;
      if (!vapu_gfx_powered(v)) __atomic_store_n(&v->gfx_power_up_at, plat_now_ns() + GFX_POWER_UP_NS, __ATOMIC_RELEASE);
      break;
    /* SDMA0 comes up only with firmware to run (loaded through the PSP). */
    case SMU_MSG_PowerUpSdma: v->sdma_powered = vapu_psp_firmware_loaded(v, 1u << VAPU_FW_SDMA0); break;
    case SMU_MSG_PowerDownSdma: v->sdma_powered = false; break;
    default: response = SMU_RESULT_UNKNOWN_CMD; break;
  }
  vapu_stat_add(&v->stats.smu_messages);
  vapu_reg_set(v, vapu_reg_index(v, HWID_MP1, 0, MP1_SMN_C2PMSG_90), response);
  return true;
}
