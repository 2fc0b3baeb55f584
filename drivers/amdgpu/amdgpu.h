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
  uint32_t compute_units;   /* active CUs, all shader engines */
  uint32_t simd_per_cu;
  uint32_t waves_per_simd;  /* wave slots per SIMD */
  uint32_t wave_size;       /* 64 */
  uint32_t lds_bytes_per_workgroup;
  uint64_t local_memory_base; /* CPU address of the carve-out (BAR0) */
  uint64_t local_memory_size; /* carve-out bytes */
  uint32_t max_engine_clock_mhz;
  uint32_t max_memory_clock_mhz;
  uint32_t smu_firmware_version;
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
};

struct amdgpu_fault {
  enum amdgpu_fault_kind kind;
  uint32_t ih_client_id, ih_source_id;
  uint32_t me, pipe, queue;   /* CP faults and EOP: which hardware queue */
  uint32_t sq_error_type;     /* SQ errors: SQ_INTERRUPT_ERROR_TYPE_* */
  uint32_t se, cu, simd, wave;
  struct amdgpu_vm_fault vm;  /* AMDGPU_FAULT_VM */
};

typedef void (*amdgpu_fault_handler)(void *ctx, const struct amdgpu_fault *fault);
/* One handler per device; NULL removes it. Faults are always logged. */
void amdgpu_set_fault_handler(struct amdgpu_device *dev, amdgpu_fault_handler fn, void *ctx);

/* Called for each CP end-of-pipe interrupt (a completion signal's event). */
typedef void (*amdgpu_eop_handler)(void *ctx, uint32_t me, uint32_t pipe, uint32_t queue);
void amdgpu_set_eop_handler(struct amdgpu_device *dev, amdgpu_eop_handler fn, void *ctx);

/* ---- Local memory (the carve-out) ------------------------------------------
 * Allocations in the frame buffer carve-out; the returned pointer is the
 * CPU's (BAR0) address, which the compute VMIDs map to the same virtual
 * address. NULL when full. */
void *amdgpu_local_alloc(struct amdgpu_device *dev, size_t size, size_t align);
void amdgpu_local_free(struct amdgpu_device *dev, void *p);

/* ---- Compute address space ------------------------------------------------
 * The compute VMIDs map every RAM page at the CPU's address (snooped system
 * memory) and the carve-out at its BAR0 address. On the host, memory mapped
 * into the process after amdgpu_init is added with this call. */
int amdgpu_map_system_range(struct amdgpu_device *dev, const void *start, size_t size);

/* First and number of VMIDs reserved for compute (8..15). */
#define AMDGPU_COMPUTE_VMID_FIRST 8
#define AMDGPU_COMPUTE_VMID_COUNT 8

/* Queues, doorbells and firmware (issue 6) are added here. */

#endif
