/*
 * amdgpu.h - the narrow interface between the HSA runtime (hsa/) and the GPU
 * driver. Nothing else of drivers/amdgpu is visible to hsa/.
 *
 * The driver finds its devices by itself: in the boot image on the PCI bus
 * (Raven, Picasso, Raven2, Renoir and their embedded variants) plus the
 * virtual APU when the boot option `vapu=<chip>` asks for it; on the host
 * always the virtual APU, chip from HSAR_OPTIONS="vapu=<chip>" (default
 * raven). Chips: raven, raven2, picasso, renoir.
 *
 * Every function returns 0 or a negative errno value and logs one line that
 * names what was wrong. Thread safety: amdgpu_init/amdgpu_fini from one
 * thread; the query functions from any thread once init returned.
 */
#ifndef DRIVERS_AMDGPU_AMDGPU_H
#define DRIVERS_AMDGPU_AMDGPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hsa/amd_hsa_queue.h>
#include <hsa/hsa_ext_amd.h>

#define AMDGPU_MAX_DEVICES 4

struct amdgpu_device;

/* Probes and brings up every GPU found (idempotent: a second call returns
 * the count of the first). Returns the number of devices initialised (0 if
 * none) or a negative errno if a device was found and failed to come up. */
int amdgpu_init(void);
/* Stops every device (interrupts off, queues destroyed, memory freed). */
void amdgpu_fini(void);

int amdgpu_device_count(void);
struct amdgpu_device *amdgpu_device_get(int index); /* NULL if out of range */

struct amdgpu_device_info {
  char chip_name[16];       /* "raven", "picasso", "raven2", "renoir" */
  char gfx_target[16];      /* LLVM processor name: "gfx902", "gfx90c" */
  uint32_t gfx_version;     /* major << 16 | minor << 8 | stepping, e.g. 0x090002 */
  uint16_t pci_vendor_id, pci_device_id;
  uint8_t pci_revision;
  bool virtual_apu;         /* the register-level model, not silicon */
  uint32_t shader_engines;
  uint32_t sh_per_se;       /* shader arrays per shader engine */
  uint32_t compute_units;   /* active CUs, all shader engines */
  uint32_t queues_max;      /* AMDGPU_QUEUES_MAX */
  uint32_t simd_per_cu;
  uint32_t waves_per_simd;  /* wave slots per SIMD */
  uint32_t wave_size;       /* 64 */
  uint32_t lds_bytes_per_workgroup;
  uint64_t local_memory_base; /* CPU address of the carve-out (BAR0) */
  uint64_t local_memory_size; /* carve-out bytes */
  uint32_t max_engine_clock_mhz;
  uint32_t max_memory_clock_mhz;
  uint32_t smu_firmware_version;
  uint64_t lds_aperture_base;     /* AMDGPU_LDS_APERTURE_BASE */
  uint64_t scratch_aperture_base; /* AMDGPU_SCRATCH_APERTURE_BASE */
};
int amdgpu_device_query(const struct amdgpu_device *dev, struct amdgpu_device_info *info);

/* ---- Faults and errors ---------------------------------------------------
 * Reported from the interrupt handler (image: interrupt context on the core
 * that took the MSI; host: the virtual APU's thread). The handler must not
 * block. */
enum amdgpu_fault_kind {
  AMDGPU_FAULT_VM = 1,        /* page fault in a GPU virtual address space */
  AMDGPU_FAULT_SQ_ERROR,      /* shader error (illegal instruction, memory violation, ECC) */
  AMDGPU_FAULT_CP_PRIV_REG,   /* command processor: privileged register access */
  AMDGPU_FAULT_CP_PRIV_INSTR, /* command processor: privileged instruction */
  AMDGPU_FAULT_CP_ECC,        /* command processor ECC error */
  AMDGPU_FAULT_DMA,           /* the IOMMU refused a GPU access (vm.address, vm.write; no VMID) */
  AMDGPU_FAULT_CP_BAD_OPCODE, /* the CP refused a packet (bad_opcode_code, doorbell) */
};

/* What the VM fault status register said (VM_L2_PROTECTION_FAULT_STATUS). */
struct amdgpu_vm_fault {
  uint64_t address;           /* faulting page address */
  uint32_t vmid;
  bool write;
  bool gfx_hub;               /* false: the multimedia hub */
  uint32_t status;            /* raw status register */
  uint32_t client_id;         /* CID field */
  const char *client_name;    /* "TCP", "CPC", ... or "unknown" */
  bool permission_fault, mapping_error, walker_error, more_faults;
  uint32_t permission_faults; /* the PERMISSION_FAULTS field: AMDGPU_VM_DENIED_* */
};
/* PERMISSION_FAULTS bits (VM_L2_PROTECTION_FAULT_STATUS[7:4], gc_9_1_sh_mask.h),
 * in the order of VM_CONTEXT*_CNTL's VALID/READ/WRITE/EXECUTE
 * _PROTECTION_FAULT_ENABLE bits: what the PTE did not allow. */
#define AMDGPU_VM_DENIED_INVALID 0x1u /* the PTE is not valid */
#define AMDGPU_VM_DENIED_READ 0x2u
#define AMDGPU_VM_DENIED_WRITE 0x4u
#define AMDGPU_VM_DENIED_EXECUTE 0x8u

struct amdgpu_fault {
  enum amdgpu_fault_kind kind;
  uint32_t ih_client_id, ih_source_id;
  uint32_t me, pipe, queue;   /* CP faults and EOP: which hardware queue */
  uint32_t sq_error_type;     /* SQ errors: SQ_INTERRUPT_ERROR_TYPE_* */
  uint32_t se, cu, simd, wave;
  uint32_t bad_opcode_code, doorbell; /* CP_BAD_OPCODE: error code and the queue's doorbell id */
  struct amdgpu_vm_fault vm;  /* AMDGPU_FAULT_VM; address and write of AMDGPU_FAULT_DMA */
};

typedef void (*amdgpu_fault_handler)(void *ctx, const struct amdgpu_fault *fault);
/* One handler per device; NULL removes it. Faults are always logged. */
void amdgpu_set_fault_handler(struct amdgpu_device *dev, amdgpu_fault_handler fn, void *ctx);

/* Called for each CP end-of-pipe interrupt (a completion signal's event)
 * with the IH entry's context id: the event id the CP wrote into the
 * signal's mailbox (src_data[0]; Linux amdkfd kfd_int_process_v9.c). */
typedef void (*amdgpu_eop_handler)(void *ctx, uint32_t me, uint32_t pipe, uint32_t queue,
                                   uint32_t context_id);
void amdgpu_set_eop_handler(struct amdgpu_device *dev, amdgpu_eop_handler fn, void *ctx);

/* ---- HDP flush -------------------------------------------------------------
 * CPU addresses of NBIO's HDP_MEM_COHERENCY_FLUSH_CNTL and
 * HDP_REG_COHERENCY_FLUSH_CNTL: a 32-bit store to either flushes the host
 * data path, as ROCr's HSA_AMD_AGENT_INFO_HDP_FLUSH pointers do (KFD's MMIO
 * remap page). Valid until amdgpu_fini. 0, or -ENODEV (logged) when the
 * CPU cannot reach them. */
int amdgpu_hdp_flush_registers(struct amdgpu_device *dev, uint32_t **mem_flush,
                               uint32_t **reg_flush);

/* ---- Local memory (the carve-out) ------------------------------------------
 * Allocations in the frame buffer carve-out; the returned pointer is the
 * CPU's address of the block (the carve-out's physical address), which the
 * compute VMIDs map to the same virtual address. Sizes round up to 4 KiB
 * pages, `align` (a power of two) to at least 4 KiB. As many blocks as the
 * memory holds, from any thread, O(log n) in the live blocks: first fit
 * (the lowest address where the block fits), freed neighbours merged.
 * NULL when no free extent holds the block (logged by the caller: the
 * carve-out may be full or only fragmented). */
void *amdgpu_local_alloc(struct amdgpu_device *dev, size_t size, size_t align);
/* 0, or -EINVAL (logged) when p is not the start of a live block. */
int amdgpu_local_free(struct amdgpu_device *dev, void *p);
/* Bytes no block holds (the carve-out less its firmware reserve and every
 * live block, each counted in whole pages), and the live blocks. */
uint64_t amdgpu_local_free_bytes(struct amdgpu_device *dev);
uint64_t amdgpu_local_block_count(struct amdgpu_device *dev);

/* ---- Compute address space ------------------------------------------------
 * The compute VMIDs map every RAM page at the CPU's address (snooped system
 * memory) and the carve-out at its BAR0 address. On the host, memory mapped
 * into the process after amdgpu_init is added with this call. */
int amdgpu_map_system_range(struct amdgpu_device *dev, const void *start, size_t size);

/* Flat-address apertures of the compute VMIDs (SH_MEM_BASES): a flat
 * access whose bits 63:48 match goes to LDS (group segment) or to the
 * wave's scratch (private segment). KFD's gfx9 values (Linux
 * kfd_flat_memory.c MAKE_LDS_APP_BASE_V9 / MAKE_SCRATCH_APP_BASE_V9), far
 * above any CPU address of the single address space. */
#define AMDGPU_LDS_APERTURE_BASE (1ull << 48)
#define AMDGPU_SCRATCH_APERTURE_BASE (2ull << 48)

/* First and number of VMIDs reserved for compute (8..15). */
#define AMDGPU_COMPUTE_VMID_FIRST 8
#define AMDGPU_COMPUTE_VMID_COUNT 8

/* ---- AQL compute queues ----------------------------------------------------
 * A queue is the runtime's AQL ring and amd_queue_t, loaded by the driver
 * into a hardware queue descriptor (HQD) of the first MEC (4 pipes x 8
 * queues): the v9 MQD filled for AQL (ring base and size, EOP buffer, read
 * pointer reported to amd_queue_t.read_dispatch_id, write pointer polled
 * from amd_queue_t.write_dispatch_id, doorbell, VMID, AQL control, CU
 * masks) and written into the HQD registers of the chosen pipe/queue. The
 * command processor then reads packets from read_dispatch_id up to the
 * value last written to the queue's doorbell (the write index, 64 bits),
 * advances read_dispatch_id, and completes signals; nothing of it runs on
 * the CPU.
 *
 * A device has up to AMDGPU_QUEUES_MAX queues (one per doorbell of the
 * MEC's user-queue range; ROCr reports 128 as HSA_AGENT_INFO_QUEUES_MAX
 * on KFD too) for its 32 HQD slots. With at most 32 every queue keeps a
 * slot. Beyond that the driver swaps them (amdgpu_queue_sched.c): a queue
 * with work and no slot waits; it gets a free slot, or one whose queue
 * has no work, or one whose queue has had a 10 ms turn while others wait
 * (drained: its dispatch in progress finishes first); priority first.
 * Swapped out, a queue keeps its doorbell, its read and write indices, its
 * packets and its errors. Passes run from the doorbell call, from the
 * calls below and, while queues wait, when the schedule handler asks for
 * them: the driver has no timer of its own.
 *
 * Ring and amd_queue_t may be anywhere the compute VMIDs map (any RAM, the
 * carve-out): their CPU address is their GPU address.
 *
 * Each queue gets a compute VMID of its own while there are free ones (8),
 * then shares the least used one. VM faults and shader errors name a VMID,
 * not a queue (the hardware's interrupt vectors carry no queue number), so
 * an error stops every queue of that VMID: with up to 8 queues, exactly
 * the faulting one; beyond that, its VMID partners too. Queues on other
 * VMIDs go on. */
struct amdgpu_queue;

#define AMDGPU_QUEUES_MAX 128

enum amdgpu_queue_priority {
  AMDGPU_QUEUE_PRIORITY_LOW = 0,
  AMDGPU_QUEUE_PRIORITY_NORMAL = 1,
  AMDGPU_QUEUE_PRIORITY_HIGH = 2,
};

/* Why a queue was stopped: what the hardware (or amdgpu_queue_abort) did.
 * What a program sees of it is the runtime's choice (hsa/gpu_agent_queue.c
 * maps each kind to an HSA status). */
enum amdgpu_queue_error_kind {
  AMDGPU_QUEUE_ERROR_VM_FAULT = 1,          /* page fault in the queue's VMID */
  AMDGPU_QUEUE_ERROR_ILLEGAL_INSTRUCTION,   /* SQ error: illegal instruction */
  AMDGPU_QUEUE_ERROR_MEMORY_VIOLATION,      /* SQ error: memory violation (aperture) */
  AMDGPU_QUEUE_ERROR_HARDWARE,              /* ECC or a CP privileged-access fault */
  AMDGPU_QUEUE_ERROR_ABORTED,               /* amdgpu_queue_abort, or a dispatch overran the
                                               queue's time limit */
  AMDGPU_QUEUE_ERROR_BAD_PACKET,            /* the CP refused a packet (CP_BAD_OPCODE) */
};

struct amdgpu_queue_error {
  enum amdgpu_queue_error_kind kind;
  const struct amdgpu_fault *fault; /* what the interrupt said; NULL for ABORTED */
};

/* Called once per stopped queue, after the hardware no longer runs it
 * (HQD dequeued), from the interrupt handler (image: interrupt context;
 * host: the driver's interrupt thread) or from amdgpu_queue_abort's
 * caller, with the driver's queue lock held: it must not block nor call
 * amdgpu_queue_* (record the error and act on it elsewhere). The queue
 * must still be destroyed. */
typedef void (*amdgpu_queue_error_fn)(void *ctx, struct amdgpu_queue *q,
                                      const struct amdgpu_queue_error *error);

struct amdgpu_queue_desc {
  amd_queue_t *amd_queue;     /* 64-byte aligned; its hsa_queue.base_address is the ring */
  uint32_t ring_bytes;        /* power of two, 256 B (4 packets) to 4 MiB */
  enum amdgpu_queue_priority priority;
  /* Scratch for the queue's dispatches: bytes per work-item the queue must
   * support (private segment); 0 = no scratch (dispatches that need it
   * fail). The driver allocates it and fills amd_queue_t's scratch fields. */
  uint32_t scratch_bytes_per_lane;
  amdgpu_queue_error_fn error_fn; /* may be NULL: errors are then only logged */
  void *error_ctx;
};

struct amdgpu_queue_info {
  volatile uint64_t *doorbell; /* store the write index here (BAR2 or the model's page) */
  uint32_t doorbell_index;     /* its 64-bit slot number in the doorbell BAR */
  bool resident;               /* in a hardware slot now */
  uint32_t me, pipe, queue;    /* that slot (me 1 = MEC1); 0 when swapped out */
  uint32_t vmid;
};

/* Creates the queue and starts it in a free hardware slot (pipes are used
 * round robin), or swapped out until one frees. Fills the hardware-owned
 * fields of amd_queue_t: scratch descriptor, backing memory and sizes,
 * compute_tmpring_size, the group and private aperture bases,
 * max_cu_id/max_wave_id and read_dispatch_id_field_base_byte_offset.
 * read_dispatch_id and write_dispatch_id must be equal (normally 0).
 * Every CU runs its work-groups until amdgpu_queue_set_cu_mask. Errors:
 * -EINVAL (bad descriptor), -EBUSY (AMDGPU_QUEUES_MAX queues exist),
 * -ENOMEM. */
int amdgpu_queue_create(struct amdgpu_device *dev, const struct amdgpu_queue_desc *desc,
                        struct amdgpu_queue **out);
int amdgpu_queue_get_info(const struct amdgpu_queue *q, struct amdgpu_queue_info *info);

/* Stores `value` (what hsa_signal_store puts in a queue's doorbell signal:
 * the index of the last packet written) to the doorbell, release order:
 * packets written before are visible to the GPU first. On a board a plain
 * store to info.doorbell is the same doorbell for a resident queue; the
 * virtual APU's BAR2 is memory, and it learns of the write only through
 * this call. For a queue swapped out it also runs a scheduling pass (a
 * plain store reaches no HQD: its packets then wait for the next pass). */
void amdgpu_queue_ring_doorbell(struct amdgpu_queue *q, uint64_t value);

/* A scheduling pass: queues that wait get free slots, drains complete, new
 * drains are asked for. Never waits for the hardware; callable from any
 * context, also while another caller holds the driver's queue lock (the
 * holder runs it then). */
void amdgpu_queues_schedule(struct amdgpu_device *dev);
/* Called (with the driver's queue lock held: it must not block nor call
 * amdgpu_*; possibly from interrupt context) when a pass wants the next
 * one at `when_ns` (plat_now_ns time) or soon after: while queues wait for
 * slots or drain. One handler per device; NULL removes it. */
typedef void (*amdgpu_schedule_handler)(void *ctx, uint64_t when_ns);
void amdgpu_set_schedule_handler(struct amdgpu_device *dev, amdgpu_schedule_handler fn, void *ctx);
/* Loads of a queue that had waited for a slot, since the device came up. */
uint64_t amdgpu_queues_swap_ins(struct amdgpu_device *dev);

/* The CUs the queue's work-groups may run on, as hsa_amd_queue_cu_set_mask
 * names them: bit n of mask[n / 32], `count` bits (a multiple of 32), bit
 * n = the n-th active CU, mapped over the shader engines and arrays as KFD
 * maps a queue's CU mask (kfd_mqd_manager.c
 * mqd_symmetrically_map_cu_mask) into the MQD's
 * COMPUTE_STATIC_THREAD_MGMT_SE0..3; count 0 or all ones: every CU. A
 * resident queue is drained and loaded again with the new masks, so every
 * packet not yet started when this returns runs with them. -EINVAL (no
 * active CU left, or count not a multiple of 32). */
int amdgpu_queue_set_cu_mask(struct amdgpu_queue *q, const uint32_t *mask, uint32_t count);
/* The queue's priority (its MQD's pipe and queue priority, and its rank
 * among queues waiting for a slot), from its next load on. */
int amdgpu_queue_set_priority(struct amdgpu_queue *q, enum amdgpu_queue_priority priority);

/* Gives the queue scratch for `bytes_per_lane` per work-item (0: none),
 * replacing what it had: new backing memory, amd_queue_t's descriptor and
 * sizes rewritten, for `max_waves` waves that may use scratch at once
 * (COMPUTE_TMPRING_SIZE.WAVES; 0: every wave slot of the chip, ROCr's
 * normal scratch; fewer: ROCr's reduced scratch for large per-item sizes,
 * dispatches then run fewer waves at a time). Only while the CP does not
 * dispatch from the queue: idle, or waiting after asking for scratch
 * (ROCr's protocol: the queue's inactive signal holds 1 until the runtime
 * stores 0). -EINVAL (too large), -ENOMEM (the old scratch is kept). */
int amdgpu_queue_set_scratch(struct amdgpu_queue *q, uint32_t bytes_per_lane, uint32_t max_waves);

/* Stops the queue's waves at once (dequeue with reset, bounded by
 * timeout_ns) and reports AMDGPU_QUEUE_ERROR_ABORTED to its error
 * callback. For a queue the runtime gives up on (the CP reported an
 * error). 0, -EALREADY if the queue was already stopped, -ETIMEDOUT. */
int amdgpu_queue_abort(struct amdgpu_queue *q, uint64_t timeout_ns);

/* Dispatch time limit of the queue (0: none; like Linux amdgpu's
 * lockup_timeout for its own rings, here per queue). The driver has no
 * timer of its own: the runtime calls amdgpu_queues_check_progress
 * periodically (e.g. from its signal-wait or async thread), which aborts
 * (as amdgpu_queue_abort) every queue whose read index has
 * not moved for longer than its limit while packets wait. Returns how many
 * it aborted. */
void amdgpu_queue_set_time_limit(struct amdgpu_queue *q, uint64_t limit_ns);
int amdgpu_queues_check_progress(struct amdgpu_device *dev, uint64_t now_ns);

/* Dequeues (its waves reset at once, as KFD destroys a queue; bounded by
 * timeout_ns) and frees the slot, the MQD, EOP buffer and scratch. On
 * -ETIMEDOUT the hardware still owns the queue: its slot and memory stay
 * reserved (leaked on purpose) and the ring must not be reused. */
int amdgpu_queue_destroy(struct amdgpu_queue *q, uint64_t timeout_ns);

#endif
