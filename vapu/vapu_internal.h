/*
 * vapu_internal.h - the model's state, shared by its blocks (the vapu_*.c files).
 * Not for the driver: it sees vapu.h only.
 */
#ifndef VAPU_VAPU_INTERNAL_H
#define VAPU_VAPU_INTERNAL_H

#include "vapu/vapu.h"

#include <stdint.h>

#include "vapu/cp.h"
#include "vapu/vapu_regs.h"

#include "lib/lock.h"
#include "lib/plat.h"

/* ---- Chips ------------------------------------------------------------------ */

/* Hardware IDs of the IP discovery table (Linux include/soc15_hw_ip.h). */
enum vapu_hw_id {
  HWID_MP1 = 1, HWID_THM = 3, HWID_SMUIO = 4, HWID_GC = 11, HWID_MMHUB = 34,
  HWID_ATHUB = 35, HWID_OSSSYS = 40, HWID_HDP = 41, HWID_SDMA0 = 42, HWID_DF = 46,
  HWID_NBIF = 108, HWID_UMC = 150, HWID_MP0 = 255,
};

#define VAPU_MAX_SEGMENTS 5
struct vapu_ip {
  uint16_t hw_id;
  uint8_t instance, major, minor, revision;
  uint8_t segments;
  uint32_t base[VAPU_MAX_SEGMENTS]; /* dword index of each register segment */
};

#define VAPU_MAX_IPS 16
struct vapu_chip_desc {
  const char *name;
  uint16_t pci_device_id;
  uint8_t pci_revision;
  uint8_t ati_rev_id;         /* RCC_DEV0_EPF0_STRAP0.STRAP_ATI_REV_ID: Raven2 is >= 8 */
  bool discovery_table;       /* the IP discovery binary sits at the end of the carve-out */
  bool aperture_high_exclusive; /* Raven2/Renoir erratum: MC_VM_SYSTEM_APERTURE_HIGH_ADDR is exclusive */
  bool ih_needs_gpa_enable;   /* Renoir: IH_CHICKEN.MC_SPACE_GPA_ENABLE gates bus addresses */
  uint32_t shader_engines, sh_per_se, cu_per_sh;
  uint32_t max_waves_per_simd, lds_bytes, max_scratch_slots_per_cu;
  uint32_t max_gfxclk_mhz;
  uint32_t gb_addr_config;    /* GB_ADDR_CONFIG as the VBIOS leaves it */
  uint32_t gfxoff_status_reg; /* absolute dword index of the register whose PWR_GFXOFF_STATUS
                                 field (bits 2:1, 2 = on) tells the graphics core's power */
  uint32_t smu_version, sos_version;
  bool sos_sign_of_life;      /* C2PMSG_81 holds the sOS version (psp_v12_0 reads it; psp_v10_0 has no such register) */
  uint32_t psp_success_status;/* status word the sOS writes for a command that succeeded (Linux
                                 amdgpu_psp.c: "Some version of PSP FW doesn't write 0 to that field") */
  int ip_count;
  struct vapu_ip ips[VAPU_MAX_IPS];
};

extern const struct vapu_chip_desc vapu_chips[VAPU_CHIP_COUNT];
const struct vapu_ip *vapu_chip_ip(const struct vapu_chip_desc *chip, uint16_t hw_id);

/* ---- Registers ----------------------------------------------------------------
 * A flat array of dwords: BAR5's 512 KiB window and, beyond it, what only
 * the PCIE_INDEX2/DATA2 pair reaches. Registers with behaviour have hooks. */
#define VAPU_REG_DWORDS (0x40000u)
#define VAPU_MAX_HOOKS 1000

typedef uint32_t (*vapu_reg_read_fn)(struct vapu *v, uint32_t index, void *arg);
typedef void (*vapu_reg_write_fn)(struct vapu *v, uint32_t index, uint32_t value, void *arg);

struct vapu_reg_hook {
  vapu_reg_read_fn read;   /* NULL: plain storage */
  vapu_reg_write_fn write; /* NULL: plain storage */
  void *arg;
};

/* A register's reset value, by offset from a base (one table per block,
 * each naming the Linux *_default.h it comes from). */
struct vapu_reg_reset { uint32_t offset, value; };
void vapu_regs_reset(struct vapu *v, uint32_t base, const struct vapu_reg_reset *table, size_t count);

/* Absolute dword index of a register: IP segment base + offset. */
uint32_t vapu_reg_index(const struct vapu *v, uint16_t hw_id, int segment, uint32_t offset);
void vapu_reg_hook(struct vapu *v, uint32_t index, vapu_reg_read_fn read, vapu_reg_write_fn write,
                   void *arg);
static inline uint32_t vapu_reg_get(struct vapu *v, uint32_t index);
static inline void vapu_reg_set(struct vapu *v, uint32_t index, uint32_t value);
uint32_t vapu_reg_access_read(struct vapu *v, uint32_t index);
void vapu_reg_access_write(struct vapu *v, uint32_t index, uint32_t value);

/* ---- A spinning lock: the model's blocks are touched by the driver's
 * thread, the worker and GPU requesters at once. Critical sections are a
 * few register updates long and never wait for anything.
 *
 * The driver's interrupt handler runs model code too (its register reads
 * and writes reach the hooks: IH_RB_CNTL, the fault status clear), in
 * interrupt context on the image's boot core, which also makes GPU
 * accesses and register writes of its own. If the handler could interrupt
 * a holder on its own core, it would spin on a lock that core can never
 * release. So the lock is taken with the core's interrupts off
 * (plat_irq_save) and gives them back on release: an interrupt that
 * arrives meanwhile (the model's MSI is an IPI, possibly to its own core)
 * waits until the lock is free. A handler on another core only spins
 * until the holder's few updates are done, and no holder waits for an
 * interrupt. So nothing can deadlock. The waiting itself is done with
 * interrupts on, so a waiting core still answers IPIs. On the host
 * interrupts run on a thread of their own and the masking is a no-op.
 * Every model lock is therefore a struct spinlock taken with
 * spin_lock_irqsave (lib/lock.h). */
/* ---- GMC state per hub ---- */
struct vapu_hub_layout; /* register offsets, vapu_gmc.c */
struct vapu_hub_state {
  const struct vapu_hub_layout *layout;
  uint32_t base;                  /* dword index of the hub's segment 0 */
  uint32_t tlb_generation[16];    /* bumped by each invalidation of that VMID */
  uint32_t semaphore_owner_mask;  /* invalidation engines whose semaphore is taken */
  struct spinlock fault_lock;
};

#define VAPU_MAX_SERVICES 4

/* ---- Graphics core compute state (vapu_gfx.c, vapu_hqd.c) ----
 * Registers banked by GRBM_GFX_CNTL: SH_MEM_* per VMID, the HQD registers
 * CP_MQD_BASE_ADDR..CP_HQD_PQ_WPTR_HI per ME/pipe/queue. */
#define VAPU_HQD_FIRST_REG 0x1245 /* CP_MQD_BASE_ADDR, GC segment 0 */
#define VAPU_HQD_LAST_REG  0x127c /* CP_HQD_PQ_WPTR_HI */
#define VAPU_HQD_REGS (VAPU_HQD_LAST_REG - VAPU_HQD_FIRST_REG + 1)

struct vapu_hqd_bank {
  uint32_t reg[VAPU_HQD_REGS];
  bool active;                    /* CP_HQD_ACTIVE */
  bool engine_owned;              /* handed to the CP engine (vapu_cp_queue_start took it) */
  bool poll_pending;              /* CP_PQ_WPTR_POLL_CNTL1 named it before it was active */
};

struct vapu_gfx {
  uint32_t gc_base;               /* dword index of GC segment 0 */
  uint32_t gc_seg1_base;          /* and of segment 1 */
  uint32_t rlc_cntl;              /* dword index of RLC_CNTL */
  uint32_t sh_mem_config[16], sh_mem_bases[16];
  struct vapu_hqd_bank hqd[VAPU_CP_MES][VAPU_CP_PIPES][VAPU_CP_QUEUES];
};

/* The PSP's secure OS state (vapu_psp.c). */
struct vapu_psp_state {
  struct spinlock lock;          /* command, command_pending: written by the driver's thread */
  uint32_t command;
  bool command_pending;
  bool ring_up;
  uint64_t ring_address;
  uint32_t ring_bytes, rptr;      /* rptr in dwords */
  uint8_t *tmr;                   /* host address of the TMR, NULL before SETUP_TMR */
  uint64_t tmr_mc, tmr_size, tmr_used;
  uint32_t loaded_types;          /* bit per PSP firmware type */
  uint32_t commands, failed_commands;
};

struct vapu {
  const struct vapu_chip_desc *chip;
  struct vapu_config config;

  /* PCI function */
  uint32_t pci_config[64];
  uint64_t bar_size[6];
  struct spinlock pci_lock;

  /* BAR memory */
  uint8_t *carveout;
  uint64_t carveout_bytes;
  uint8_t *bar0, *bar0_synced;    /* BAR0 as the CPU sees it; both sides as of the last HDP sync */
  uint64_t bar0_bytes;
  volatile uint32_t *doorbells;
  uint64_t doorbell_bytes;

  /* Registers */
  uint32_t *regs;
  uint16_t *hook_of;              /* 0 = none, else index + 1 into hooks */
  struct vapu_reg_hook hooks[VAPU_MAX_HOOKS];
  int hook_count;

  /* Blocks */
  struct vapu_hub_state hubs[2];
  struct spinlock ih_lock;
  bool ih_armed;                  /* the IH may send an MSI (vapu_ih.c); under ih_lock */
  struct spinlock smu_lock;
  uint32_t smu_pending;           /* message number + 1, 0 = none */

  /* Firmware worker */
  int worker;
  volatile uint32_t attention;
  volatile uint32_t worker_asleep; /* in plat_wait: a kick must wake it (vapu_kick) */
  volatile bool stopping;
  struct { vapu_service_fn fn; void *ctx; } services[VAPU_MAX_SERVICES];
  int service_count;

  struct vapu_gfx gfx;
  struct vapu_psp_state psp;
  bool sdma_powered, gfxoff_allowed;
  uint64_t gfx_power_up_at;       /* GFX is powered once plat_now_ns() reaches it; UINT64_MAX: off */
  struct vapu_cp *cp;             /* the command processor's engine (vapu/cp*.c) */

  struct vapu_stats stats;
};

static inline uint32_t vapu_reg_get(struct vapu *v, uint32_t index) {
  return __atomic_load_n(&v->regs[index], __ATOMIC_ACQUIRE);
}
static inline void vapu_reg_set(struct vapu *v, uint32_t index, uint32_t value) {
  __atomic_store_n(&v->regs[index], value, __ATOMIC_RELEASE);
}
static inline void vapu_stat_add(uint64_t *counter) { __atomic_add_fetch(counter, 1, __ATOMIC_RELAXED); }

/* The HDP between BAR0 and the carve-out (vapu_nbio.c): CPU writes to
 * BAR0 since the last sync reach the carve-out; the read cache takes the
 * carve-out's current content where the CPU wrote nothing. */
void vapu_hdp_write_back(struct vapu *v);
void vapu_hdp_invalidate(struct vapu *v);
void vapu_hdp_power_on(struct vapu *v); /* empty caches: BAR0 shows the carve-out */

/* PCI state the other blocks check. */
bool vapu_pci_bus_master(struct vapu *v);
bool vapu_pci_memory_decode(struct vapu *v);
void vapu_pci_raise_msi(struct vapu *v);

/* Block set-up, called by vapu_create in order. */
int vapu_pci_init(struct vapu *v);
void vapu_regs_init(struct vapu *v);   /* reset values of the blocks without their own file */
void vapu_mp_init(struct vapu *v);
bool vapu_mp_service(struct vapu *v, void *ctx);
void vapu_discovery_write(struct vapu *v);
void vapu_gmc_init(struct vapu *v);
void vapu_ih_init(struct vapu *v);
/* vapu_ih_post that also gives the entry's byte offset in the ring, and
 * whether the driver has consumed that entry (IH_RB_RPTR moved past it):
 * by then it has done whatever it does about it. */
bool vapu_ih_post_entry(struct vapu *v, uint8_t client_id, uint8_t source_id, uint8_t ring_id,
                        uint8_t vmid, bool mm_hub, const uint32_t src_data[4], uint32_t *offset);
bool vapu_ih_entry_consumed(struct vapu *v, uint32_t offset);
void vapu_gfx_init(struct vapu *v);
void vapu_hqd_init(struct vapu *v);
/* The GRBM_GFX_CNTL selection (vapu_gfx.c). */
struct vapu_grbm_select { uint32_t me, pipe, queue, vmid; };
struct vapu_grbm_select vapu_grbm_selected(struct vapu *v);
/* ME `me` (1 or 2) of the MEC: CP_MEC_CNTL lets it run; the PSP loaded
 * its firmware; both (vapu_gfx.c). */
bool vapu_mec_unhalted(struct vapu *v, unsigned me);
bool vapu_mec_has_firmware(struct vapu *v, unsigned me);
bool vapu_mec_running(struct vapu *v, unsigned me);
uint32_t vapu_sh_mem_bases(struct vapu *v, unsigned vmid);
/* CP_PQ_WPTR_POLL_CNTL.EN with the queue's bit in CP_PQ_WPTR_POLL_CNTL1:
 * the MEC reads its write pointer poll address on every turn (vapu_hqd.c). */
bool vapu_wptr_polling(struct vapu *v, unsigned me, unsigned pipe, unsigned queue);
/* RCC_DOORBELL_APER_EN: BAR2 decodes doorbell writes (vapu_nbio.c). */
bool vapu_nbio_doorbell_aperture(struct vapu *v);
/* The PSP (vapu_psp.c): ring and command processing on the worker. */
void vapu_psp_init(struct vapu *v);
bool vapu_psp_service(struct vapu *v);
/* Every PSP firmware type in `types_mask` (bit per type) has been loaded. */
bool vapu_psp_firmware_loaded(struct vapu *v, uint32_t types_mask);
/* The graphics core is powered (not in GFXOFF): its registers answer. */
bool vapu_gfx_powered(struct vapu *v);
/* PSP firmware types (Linux psp_gfx_if.h enum psp_gfx_fw_type). */
#define VAPU_FW_CP_MEC 4
#define VAPU_FW_CP_MEC_ME1 5
#define VAPU_FW_CP_MEC_ME2 6
#define VAPU_FW_RLC_G 8
#define VAPU_FW_SDMA0 9
/* The frame buffer's MC range (MC_VM_FB_LOCATION as the BIOS set it). */
void vapu_gmc_frame_buffer(struct vapu *v, uint64_t *mc_base, uint64_t *size);
/* RLC_CNTL.RLC_ENABLE_F32 with RLC firmware loaded (vapu_gfx.c). */
bool vapu_rlc_running(struct vapu *v);
/* Why the hub's VM context `vmid` cannot translate [va, va + size), or NULL
 * if it can (enabled, valid page table base, range inside it). */
const char *vapu_gmc_context_problem(struct vapu *v, enum vapu_hub hub, unsigned vmid, uint64_t va,
                                     uint64_t size);

#endif
