/*
 * amdgpu_dev.h - the driver's internal view of one GPU: the device struct,
 * the bus binding (the one ops table with two implementations: PCI/MMIO on a
 * board, the virtual APU otherwise), register access, and the block entry
 * points the bring-up sequence (amdgpu_device.c) calls in order.
 */
#ifndef DRIVERS_AMDGPU_AMDGPU_DEV_H
#define DRIVERS_AMDGPU_AMDGPU_DEV_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/amdgpu/amdgpu.h"
#include "drivers/amdgpu/amdgpu_ucode.h"
#include "drivers/amdgpu/regs/soc15_reg.h"
#include "lib/avl_tree.h"
#include "lib/plat.h"
#include "lib/lock.h"

struct amdgpu_device;

/* ---- Bus binding ------------------------------------------------------------ */
struct amdgpu_bus_ops {
  const char *name; /* "pci" or "vapu" */
  bool virtual_apu; /* the device is the model (amdgpu_device_info.virtual_apu) */
  uint32_t (*config_read)(struct amdgpu_device *dev, uint16_t offset);
  void (*config_write)(struct amdgpu_device *dev, uint16_t offset, uint32_t value);
  uint32_t (*mmio_read)(struct amdgpu_device *dev, uint32_t byte_offset);   /* BAR5 */
  void (*mmio_write)(struct amdgpu_device *dev, uint32_t byte_offset, uint32_t value);
  /* The CPU address of a BAR5 register, where a plain store is a register
   * write (the HSA runtime hands the HDP flush registers to programs), or
   * NULL when none. */
  volatile uint32_t *(*mmio_word)(struct amdgpu_device *dev, uint32_t byte_offset);
  /* Routes the function's MSI to amdgpu_ih_interrupt(dev). */
  int (*enable_msi)(struct amdgpu_device *dev);
  void (*disable_msi)(struct amdgpu_device *dev);
  /* After a store of `value` at `byte_offset` of the doorbell BAR: the
   * model learns of the bus write (a board's NBIO sees it itself: NULL). */
  void (*doorbell_written)(struct amdgpu_device *dev, uint32_t byte_offset, uint64_t value);
  void (*release)(struct amdgpu_device *dev); /* the device struct is freed after */
};

/* ---- Chips ---------------------------------------------------------------------- */
/* Which golden register tables the graphics core gets (amdgpu_golden.c). */
enum amdgpu_golden_set {
  AMDGPU_GOLDEN_RV1, /* gc_9_1 + gc_9_1_rv1 + gc_9_x_common (Raven, Picasso) */
  AMDGPU_GOLDEN_RV2, /* gc_9_1 + gc_9_1_rv2 + gc_9_x_common (Raven2) */
  AMDGPU_GOLDEN_RN,  /* gc_9_1_rn alone (Renoir) */
};

/* What sets one chip apart from the others; amdgpu_chip.c has the table
 * and the sources of each fact. */
struct amdgpu_chip_info {
  const char *name;        /* linux-firmware file prefix too */
  const char *gfx_target;
  uint32_t gfx_version;
  bool uses_discovery;     /* IP bases from the discovery table */
  bool raven2_ip_versions; /* the fixed IP table with Raven2's versions */
  bool ati_rev_may_be_raven2; /* an ATI revision strap >= 8 makes the part a Raven2 */
  uint32_t shader_engines, sh_per_se, cu_per_sh; /* when no discovery GC table */
  struct amdgpu_reg gfxoff_status;               /* the register holding PWR_GFXOFF_STATUS */
  enum amdgpu_golden_set golden;
  bool rlc_am4_firmware;      /* <chip>_rlc_am4.bin on AM4 PCI revisions */
  bool rlc_kicker_firmware;   /* <chip>_kicker_rlc.bin with a newer SMU firmware */
  bool aperture_high_erratum; /* SYSTEM_APERTURE_HIGH_ADDR one unit higher */
  bool mmhub_invalidate_semaphore; /* the MM hub's TLB invalidations take the semaphore */
  bool ih_mc_space_gpa;       /* the IH needs IH_CHICKEN.MC_SPACE_GPA_ENABLE for bus addresses */
};

/* Chip for a PCI device ID and the ATI revision from the NBIO strap;
 * NULL if the device is not one of ours. */
const struct amdgpu_chip_info *amdgpu_chip_lookup(uint16_t device_id, uint8_t ati_rev_id);
bool amdgpu_pci_id_supported(uint16_t vendor_id, uint16_t device_id);

/* ---- IP blocks and their register bases ---- */
#define AMDGPU_MAX_SEGMENTS 5
struct amdgpu_ip_block {
  bool present;
  uint8_t major, minor, revision;
  uint32_t segment[AMDGPU_MAX_SEGMENTS];
};
const char *amdgpu_ip_name(enum amdgpu_ip ip);

/* ---- Memory controller state (amdgpu_gmc.c, amdgpu_vm.c) ---- */
struct gmc_vm {
  uint64_t *root;            /* PDB2 */
  int table_pages;
  void **tables;             /* every table page, to free them */
  int tables_cap;
};

struct amdgpu_gmc {
  uint64_t fb_start, fb_end;   /* frame buffer in the MC address space */
  uint64_t fb_physical;        /* its system physical address (MC_VM_FB_OFFSET): the CPU's too */
  uint64_t vram_size;
  enum plat_cache_mode cpu_cache_before; /* the carve-out's CPU mapping before bring-up */
  bool cpu_cache_set;
  uint64_t gart_start, gart_size;
  uint64_t *gart_table;        /* VMID 0, flat */
  void *dummy_page;            /* where faulting accesses land */
  struct gmc_vm compute_vm;    /* VMIDs 8..15: the single address space */
  struct spinlock map_lock;  /* compute_vm updates: callers and retry faults (irqsave) */
  struct spinlock gart_lock; /* gart_table's free pages: queue creation from any thread (irqsave) */
  struct spinlock invalidate_lock; /* the invalidation engine, one request at a time (irqsave) */
  bool hw_up;
};

struct amdgpu_ih {
  uint32_t *ring;
  uint32_t ring_bytes;
  volatile uint32_t *wptr_writeback;
  uint32_t rptr;
  volatile uint32_t busy;      /* one consumer at a time */
  bool msi_enabled;
  uint64_t entries, overflows;
};

/* Hardware queue slots the driver hands out: the first MEC's 4 pipes x 8
 * queues (Linux gfx_v9_0.c num_pipe_per_mec, num_queue_per_pipe; KFD also
 * uses only the first MEC for user queues). */
#define AMDGPU_HQD_PIPES 4
#define AMDGPU_HQD_QUEUES 8
#define AMDGPU_HQD_SLOTS (AMDGPU_HQD_PIPES * AMDGPU_HQD_QUEUES)
#define AMDGPU_HQD_ME 1 /* MEC1 */

/* Errors the interrupt handler saw, waiting for whoever holds the lock:
 * by VMID (VM faults) or by slot (CP and SQ errors name ME/pipe/queue). */
struct amdgpu_queue_errors {
  volatile uint32_t latched; /* bit set: fault[] of that VMID/slot is written */
  volatile uint32_t pending; /* bit set: ready to handle */
  struct amdgpu_fault fault[AMDGPU_HQD_SLOTS];
};

/* The device's queues (amdgpu_queue.c) and which of them hold the HQD
 * slots (amdgpu_queue_sched.c). */
struct amdgpu_queues {
  struct amdgpu_queue *queue[AMDGPU_QUEUES_MAX];  /* by id: doorbell USERQUEUE_START + id */
  struct amdgpu_queue *slot[AMDGPU_HQD_SLOTS];    /* resident ones; slot = pipe * 8 + queue */
  struct amdgpu_queue *waiting[AMDGPU_QUEUES_MAX]; /* a pass's list of queues waiting for a slot */
  uint32_t vmid_users[AMDGPU_COMPUTE_VMID_COUNT];
  uint32_t next_pipe;
  uint64_t swap_ins;         /* loads of a queue that had waited for a slot */
  struct spinlock lock;      /* the tables above, the queues, the GRBM queue select */
  volatile uint32_t pass_pending; /* a scheduling pass is wanted: the lock's holder runs it */
  struct amdgpu_queue_errors by_vmid, by_slot;
};

/* The PSP's kernel-mode ring and what it needs (amdgpu_psp.c). */
struct psp_rb_frame;
struct psp_cmd_resp;
struct amdgpu_psp {
  struct psp_rb_frame *ring;   /* carve-out */
  volatile uint32_t *fence;    /* carve-out */
  struct psp_cmd_resp *cmd;    /* carve-out */
  void *tmr;                   /* carve-out, PSP_TMR_BYTES */
  uint32_t fence_value;
  bool ring_up;
  bool odd_status_seen;        /* a command that worked answered a non-zero status */
};

/* The carve-out's allocator (amdgpu_local.c): every free and allocated
 * extent, by offset, in a tree that knows the largest free extent below
 * each node; extents come from chunks of protected memory and are reused. */
struct local_extent;
struct local_extent_chunk;
struct amdgpu_local {
  struct avl_tree extents;
  struct local_extent *spare;        /* extents out of the tree, for reuse */
  uint32_t spare_count;
  struct local_extent_chunk *chunks; /* every chunk, freed at fini */
  uint64_t size;                     /* bytes managed (the carve-out but the firmware's top) */
  uint64_t allocated;                /* bytes in allocated extents */
  uint64_t blocks;                   /* allocated extents */
  struct lock lock;                  /* sleeping: many threads allocate at once */
};

struct amdgpu_device {
  const struct amdgpu_bus_ops *bus;
  void *bus_ctx;
  int index;

  /* PCI identity and BARs */
  uint16_t vendor_id, device_id;
  uint8_t revision, ati_rev_id;
  uint64_t bar_address[6], bar_size[6];
  const struct amdgpu_chip_info *chip;

  struct amdgpu_ip_block ip[IP_COUNT];

  /* Facts gathered during bring-up */
  uint32_t shader_engines, sh_per_se, cu_per_sh, active_cus;
  uint16_t active_cu_bitmap[4][2];  /* [SE][SH]: bit n = CU n active (gfx9 has at most 4 x 2) */
  uint32_t waves_per_simd, lds_bytes, wave_size;
  uint32_t sos_version, smu_version, max_gfxclk_mhz;

  struct amdgpu_gmc gmc;
  struct amdgpu_ih ih;
  struct amdgpu_psp psp;
  struct amdgpu_queues queues;

  /* Firmware files (amdgpu_firmware.c), by enum ucode_kind. */
  char firmware_dir[64];
  struct ucode_file firmware[3];

  struct amdgpu_local local;

  amdgpu_fault_handler fault_fn;
  void *fault_ctx;
  amdgpu_schedule_handler schedule_fn;
  void *schedule_ctx;
  amdgpu_eop_handler eop_fn;
  void *eop_ctx;

  int blocks_up;               /* how many bring-up blocks reached init_hw */

  /* Register trace of the bring-up (amdgpu_trace.c). */
  bool tracing;
  const char *trace_step;
  uint32_t trace_seq;
};

/* ---- Register access -------------------------------------------------------------
 * Registers are dword indices (byte offset / 4) in the register space;
 * those beyond BAR5 go through the NBIO PCIE_INDEX2/DATA2 pair. */
uint32_t amdgpu_rreg(struct amdgpu_device *dev, uint32_t index);
void amdgpu_wreg(struct amdgpu_device *dev, uint32_t index, uint32_t value);
/* Dword index of register `reg` (soc15_reg.h) on this device: its offset
 * in its segment of its IP block's bases (Linux SOC15_REG_OFFSET), or its
 * fixed index (SOC15_REG_FIXED). */
static inline uint32_t amdgpu_reg_index(const struct amdgpu_device *dev, struct amdgpu_reg reg) {
  if (reg.seg == SOC15_SEG_FIXED) return reg.offset;
  return dev->ip[reg.ip].segment[reg.seg] + reg.offset;
}
#define RREG(dev, reg) amdgpu_rreg(dev, amdgpu_reg_index(dev, reg))
#define WREG(dev, reg, val) amdgpu_wreg(dev, amdgpu_reg_index(dev, reg), val)
/* The dword at `byte_offset` of a register BAR mapped at `bar` (`bar_bytes`
 * long), or NULL when the BAR is absent or the dword not wholly inside. */
volatile uint32_t *amdgpu_bar_word(volatile uint32_t *bar, uint64_t bar_bytes, uint32_t byte_offset);
/* Polls until (reg & mask) == value; 0 or -ETIMEDOUT after timeout_us
 * (logged, naming the register and what it read). */
int amdgpu_wait_reg(struct amdgpu_device *dev, uint32_t index, uint32_t mask, uint32_t value,
                    uint64_t timeout_us);

/* ---- Register trace (amdgpu_trace.c) ---- */
bool amdgpu_trace_enabled(void); /* the amdgpu_trace option */
void amdgpu_trace_access(struct amdgpu_device *dev, char rw, uint32_t index, uint32_t value);
/* "BLOCK NAME" of a register the driver uses, "? ?" for another. */
void amdgpu_register_name(const struct amdgpu_device *dev, uint32_t index, char *out, size_t size);

/* ---- Bus bindings ---- */
int amdgpu_bus_vapu_attach(struct amdgpu_device *dev, const char *chip_name);

/* ---- Blocks (amdgpu_device.c lists them in bring-up order) ----
 * Each IP file exports one block object (Linux amd_ip_funcs: sw_init,
 * hw_init, hw_fini, sw_fini); a NULL step has nothing to do. fini_hw and
 * fini_sw tolerate a half-done init (the bring-up undoes the failed block
 * too). */
struct amdgpu_ip_funcs {
  const char *name;
  int (*init_sw)(struct amdgpu_device *dev);
  int (*init_hw)(struct amdgpu_device *dev);
  void (*fini_hw)(struct amdgpu_device *dev);
  void (*fini_sw)(struct amdgpu_device *dev);
};
extern const struct amdgpu_ip_funcs soc15_block;    /* fixed base table or discovery */
extern const struct amdgpu_ip_funcs psp_block;      /* the PSP's sOS alive */
extern const struct amdgpu_ip_funcs smu_block;      /* the graphics core on (out of GFXOFF) */
extern const struct amdgpu_ip_funcs ucode_block;    /* reads and checks the firmware files */
extern const struct amdgpu_ip_funcs nbio_block;
extern const struct amdgpu_ip_funcs gmc_block;
extern const struct amdgpu_ip_funcs ih_block;
extern const struct amdgpu_ip_funcs psp_ring_block; /* ring, TMR, LOAD_IP_FW of every image */
extern const struct amdgpu_ip_funcs sdma_block;     /* SDMA0 powered up by the SMU */
extern const struct amdgpu_ip_funcs gfx_block;      /* golden settings, active CUs */
extern const struct amdgpu_ip_funcs rlc_block;      /* RLC started */
extern const struct amdgpu_ip_funcs cp_block;       /* apertures, doorbell range, MEC interrupts and run */
int amdgpu_discovery_parse(struct amdgpu_device *dev, const uint8_t *binary, size_t size);
int smu_send_message(struct amdgpu_device *dev, uint32_t message, uint32_t argument,
                     uint32_t *returned);
void hdp_flush(struct amdgpu_device *dev);
/* A queue's CU mask (`count` bits, bit n = the n-th active CU) as the
 * MQD's four per-SE masks; returns how many active CUs it enables. */
uint32_t gfx_cu_mask_to_se_masks(const struct amdgpu_device *dev, const uint32_t *mask, uint32_t count,
                                 uint32_t se_mask[4]);
void gfx_apply_golden_settings(struct amdgpu_device *dev);
const char *gfx_golden_register_name(const struct amdgpu_device *dev, uint32_t index); /* or NULL */

/* ---- GRBM queue/VMID select (amdgpu_cp.c); the caller holds queues.lock ---- */
void grbm_select(struct amdgpu_device *dev, uint32_t me, uint32_t pipe, uint32_t queue, uint32_t vmid);

/* ---- MQD (amdgpu_mqd.c) ---- */
struct mqd_aql {
  uint64_t mqd_address;        /* where the CP finds the MQD (VMID 0: GART) */
  uint64_t ring_address, rptr_address, wptr_address, eop_address; /* queue VMID */
  uint32_t ring_bytes, eop_bytes;
  uint32_t doorbell_index;     /* 64-bit doorbell slot */
  uint32_t vmid;
  enum amdgpu_queue_priority priority;
  uint32_t tmpring_size;       /* COMPUTE_TMPRING_SIZE of the queue's dispatches */
};
void mqd_init_aql(uint32_t *mqd, const struct mqd_aql *q);
/* The MQD fields the driver changes between loads: the queue's CU masks
 * (COMPUTE_STATIC_THREAD_MGMT_SE0..3) and its pipe and queue priority. */
void mqd_set_cu_masks(uint32_t *mqd, const uint32_t se_mask[4]);
void mqd_set_priority(uint32_t *mqd, enum amdgpu_queue_priority priority);

/* ---- Queues (amdgpu_queue.c) ---- */
/* From the interrupt handler: stop the queues a fault belongs to and call
 * their error callbacks (now, or by whoever holds queues.lock). */
void amdgpu_queue_fault(struct amdgpu_device *dev, const struct amdgpu_fault *fault);
/* The IOMMU refused a DMA of the GPU at `address` (its fault handler, in
 * interrupt context): logged, given to the device's fault handler and to
 * the queues (amdgpu_ih.c). */
void amdgpu_dma_fault(struct amdgpu_device *dev, uint64_t address, bool write);
/* Device removal: every queue still there is dequeued; once the MEC is
 * halted (it touches no queue memory then, even one it did not let go),
 * they are freed. */
void amdgpu_queues_dequeue_all(struct amdgpu_device *dev);
/* One packet through a queue of the driver's own: 0 when the MEC ran it,
 * -ETIMEDOUT (logged) when it did not within a second. */
int amdgpu_queue_self_test(struct amdgpu_device *dev);
void amdgpu_queues_free_all(struct amdgpu_device *dev);

/* ---- GMC services for other blocks and tests ---- */
enum gmc_hub { GMC_GFXHUB = 0, GMC_MMHUB = 1 };
int gmc_flush_tlb(struct amdgpu_device *dev, enum gmc_hub hub, uint32_t vmid);
int gmc_flush_compute_vmids(struct amdgpu_device *dev);
/* Maps page-aligned CPU memory into VMID 0 (the GART) at *mc_address. */
int gmc_gart_map(struct amdgpu_device *dev, const void *cpu, size_t size, uint64_t *mc_address);
void gmc_gart_unmap(struct amdgpu_device *dev, uint64_t mc_address, size_t size);

int gmc_vm_map(struct amdgpu_device *dev, struct gmc_vm *vm, uint64_t va, uint64_t pa,
               uint64_t size, uint64_t flags);
uint64_t *gmc_vm_pte(struct gmc_vm *vm, uint64_t va); /* the entry mapping va, or NULL */
void gmc_vm_free(struct gmc_vm *vm);

/* RAM of the single address space (platform file): calls fn for each range. */
int amdgpu_for_each_ram_range(int (*fn)(void *ctx, uint64_t start, uint64_t size), void *ctx);
/* Whether RAM can appear after bring-up (host: the process maps memory as
 * it runs; image: every range is known at boot), and the range holding
 * `address` now: 0, or -ENOENT if the address is no RAM of the platform. */
bool amdgpu_ram_grows(void);
int amdgpu_ram_range_of(uint64_t address, uint64_t *start, uint64_t *size);
/* A retry fault in a compute VMID (amdgpu_gmc.c): maps the RAM range
 * holding `address` if the platform has one there, then invalidates the
 * VMID so the waiting request walks again. */
void gmc_handle_retry_fault(struct amdgpu_device *dev, uint32_t vmid, uint64_t address);

/* ---- Interrupts ---- */
void amdgpu_ih_interrupt(struct amdgpu_device *dev); /* the MSI handler */
void amdgpu_ih_dispatch(struct amdgpu_device *dev, const uint32_t iv[8]);

/* The carve-out's allocator (amdgpu_local.c): init makes the carve-out
 * but its top `reserved_top_bytes` one free extent (0, or -ENOMEM); fini
 * forgets every block and frees the allocator's own memory. */
int amdgpu_local_init(struct amdgpu_device *dev, uint64_t reserved_top_bytes);
void amdgpu_local_fini(struct amdgpu_device *dev);
/* The MC (VMID 0) address of carve-out memory at CPU address p (its system
 * physical address: the CPU reaches the carve-out there), and that address. */
uint64_t amdgpu_local_mc_address(const struct amdgpu_device *dev, const void *p);
uint64_t amdgpu_local_physical_address(const struct amdgpu_device *dev, const void *p);

#endif
