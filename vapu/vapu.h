/*
 * vapu.h - the virtual APU: a register-level model of a Raven-class APU's
 * GPU, seen from outside as a PCI function.
 *
 * The driver reaches it exactly as it reaches silicon: PCI configuration
 * space (vendor/device IDs, BARs, command register, MSI capability), 32-bit
 * register reads and writes in BAR5, plain memory for BAR2 (doorbells,
 * with the write told through vapu_doorbell_write) and for BAR0, a window
 * on the carve-out through the HDP: CPU writes there reach the carve-out at
 * an HDP flush, CPU reads see what the HDP read cache held at its last
 * invalidation (the model copies at those register writes). The carve-out
 * itself sits at its system physical address (MC_VM_FB_OFFSET), where the
 * CPU may reach it directly, as Linux does on APUs (gmc_v9_0_mc_init:
 * aper_base = the FB offset). Behind the registers the model
 * runs what the hardware and its firmware do: the PSP and SMU mailboxes, the
 * IP discovery table in the carve-out (Renoir), the GMC with its gfx9
 * page-table walk, TLB invalidation engines and fault status registers, and
 * the IH ring with its MSI.
 *
 * The model knows the documented hardware formats only, never the driver.
 * "Physical" addresses are pointers: the identity map in the boot image, the
 * process's own addresses on the host.
 */
#ifndef VAPU_VAPU_H
#define VAPU_VAPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct vapu;

enum vapu_chip_id { VAPU_RAVEN, VAPU_PICASSO, VAPU_RAVEN2, VAPU_RENOIR, VAPU_CHIP_COUNT };

/* Chip by name ("raven", "picasso", "raven2", "renoir"); -1 if unknown. */
int vapu_chip_by_name(const char *name);
const char *vapu_chip_name(enum vapu_chip_id chip);

/* Where the model's interrupts go: the MSI address/data the driver
 * programmed into the MSI capability. Called on the thread that raised the
 * interrupt (the model's worker, or whoever made the GPU access). */
typedef void (*vapu_msi_fn)(void *ctx, uint64_t address, uint32_t data);

/* Test hooks: make the model misbehave the way broken hardware or firmware
 * would. All false/zero is a healthy chip. */
struct vapu_faults {
  bool psp_dead;              /* sOS never shows a sign of life */
  bool smu_silent;            /* the SMU never answers a message */
  bool bad_discovery_checksum;/* Renoir: corrupt the binary checksum */
  bool bad_discovery_signature;
  uint8_t missing_bars;       /* bit n set: BAR n is not implemented (reads as 0) */
  bool mec_ignores_dequeue;   /* the MEC never lets a queue go (CP_HQD_ACTIVE stays 1) */
  uint32_t psp_firmware_status; /* non-zero: the PSP answers every LOAD_IP_FW with it */
  bool psp_ring_silent;       /* the PSP takes ring frames but never completes them */
  uint8_t psp_drops_fw_type;  /* non-zero: LOAD_IP_FW of this type succeeds but installs nothing */
  bool invalidation_during_retry; /* another invalidation of the VMID lands while a retry
                                     fault waits for the driver (a race, made certain) */
  bool gfxoff_at_start;       /* the SMU allows GFXOFF and the graphics core is powered down, as
                                 an OS that enabled GFXOFF leaves it across a warm reboot */
  uint8_t smu_rejects_message;/* non-zero: the SMU answers this message CmdRejectedPrereq */
};

struct vapu_config {
  enum vapu_chip_id chip;
  uint64_t carveout_bytes;    /* frame buffer carve-out; 0 = default (64 MiB) */
  /* BAR0, the CPU's window on the first bytes of the carve-out through the
   * HDP: a power of two no larger than the carve-out; 0 = a quarter of it
   * (a board's 256 MiB BAR0 in front of a 1 GiB UMA carve-out). */
  uint64_t bar0_bytes;
  uint16_t inactive_cus;      /* harvested CUs (bit n = CU n of each SH), as fused in CC_GC_SHADER_ARRAY_CONFIG */
  /* A model knob, no hardware's: every work-group takes this much longer
   * (a slower GPU, for tests of what depends on its speed); 0 = none. */
  uint32_t workgroup_delay_us;
  struct vapu_faults faults;
  vapu_msi_fn msi;            /* may be NULL: interrupts are then only logged */
  void *msi_ctx;
};

/* Test hook: the chip starts misbehaving now (faults read at each use,
 * e.g. mec_ignores_dequeue after a bring-up that needed a working MEC). */
void vapu_inject_faults(struct vapu *v, const struct vapu_faults *faults);

/* Creates the device and its firmware worker. NULL (and a log line) on
 * failure. */
struct vapu *vapu_create(const struct vapu_config *config);
void vapu_destroy(struct vapu *v);
enum vapu_chip_id vapu_chip(const struct vapu *v);

/* ---- PCI function ---- */
uint32_t vapu_pci_config_read(struct vapu *v, uint16_t offset);              /* dword aligned */
void vapu_pci_config_write(struct vapu *v, uint16_t offset, uint32_t value); /* dword aligned */

/* BAR5 register space: byte offset, 32-bit access. Reads return all ones
 * while memory decode is off. */
uint32_t vapu_mmio_read(struct vapu *v, uint32_t byte_offset);
void vapu_mmio_write(struct vapu *v, uint32_t byte_offset, uint32_t value);
/* The register file's word behind a BAR5 byte offset: a store there sets
 * the register as a BAR5 write does, except that no write side effect
 * runs. NULL when unaligned, outside BAR5, or BAR5 is absent. Valid until
 * vapu_destroy. */
volatile uint32_t *vapu_mmio_word(struct vapu *v, uint32_t byte_offset);
#define VAPU_MMIO_BAR_BYTES (512u * 1024) /* BAR5 size of Raven and Renoir */

/* ---- GPU memory accesses ---------------------------------------------------
 * Every access the GPU makes (shader loads and stores, command processor
 * fetches, signal updates) goes through the GMC of a hub, for a VMID.
 * Faults are raised as the hardware does: fault status registers latched,
 * an IV entry in the IH ring, an MSI. */
enum vapu_hub { VAPU_GFXHUB = 0, VAPU_MMHUB = 1 };
enum vapu_gmc_access { VAPU_GMC_READ = 1, VAPU_GMC_WRITE = 2, VAPU_GMC_EXECUTE = 4,
                       VAPU_GMC_NO_FAULT = 8 /* with the others: a failed translation raises nothing */ };

/* UTCL2 client IDs of GFX hub requesters (the CID field of the fault status;
 * Linux gmc_v9_0.c gfxhub_client_ids[]). */
enum vapu_client {
  VAPU_CLIENT_CPF = 4, VAPU_CLIENT_CPC = 5, VAPU_CLIENT_CPG = 6, VAPU_CLIENT_RLC = 7,
  VAPU_CLIENT_TCP = 8, VAPU_CLIENT_SQC_INST = 9, VAPU_CLIENT_SQC_DATA = 10,
};
/* MM hub requesters (gmc_v9_0.c mmhub_client_ids_raven / _renoir). */
enum vapu_mmhub_client { VAPU_MMHUB_CLIENT_MP1 = 0, VAPU_MMHUB_CLIENT_MP0 = 1, VAPU_MMHUB_CLIENT_OSS = 26 };

struct vapu_requester {
  enum vapu_hub hub;
  uint8_t vmid;
  uint16_t client;            /* enum vapu_client on the GFX hub */
  /* The accesses are to memory the CPU reads and writes while the GPU runs
   * (the CP's AQL protocol: rings, amd_queue_t, signals): on GC 9.1-9.3
   * such memory must be MTYPE_UC, or the GPU's L2 keeps stale copies
   * (Linux gmc_v9_0_get_coherence_flags: coherent -> MTYPE_UC). */
  bool coherent;
};

/* A small per-requester TLB (one per queue or wave context): translations
 * are reused until a TLB invalidation for their VMID. Zero-initialise. */
#define VAPU_TLB_ENTRIES 32
struct vapu_tlb_entry {
  uint64_t va, pa, size;      /* size: 4 KiB << fragment; 0 = empty */
  uint32_t generation;
  uint8_t vmid, hub, access;  /* access: VAPU_GMC_* allowed */
  uint8_t mtype;              /* the PTE's MTYPE (NC 0, WC/RW 1, CC 2, UC 3) */
};
struct vapu_tlb { struct vapu_tlb_entry e[VAPU_TLB_ENTRIES]; };

/* Translates `va` for `access`. On success returns the host pointer of the
 * byte and stores in *contiguous how many bytes from there belong to the
 * same translation. On a fault returns NULL after raising it. `tlb` may be
 * NULL (walk every time). */
void *vapu_translate(struct vapu *v, const struct vapu_requester *rq, struct vapu_tlb *tlb,
                     uint64_t va, unsigned access, size_t *contiguous);

/* The same for a requester that caches translations itself (the
 * interpreter's TLB): the whole fragment holding `va` and every access it
 * allows, so later accesses of other kinds can be checked without a walk.
 * False after raising the fault, as vapu_translate. */
struct vapu_gmc_page {
  uint64_t va, size;          /* the whole fragment */
  uint8_t *host;              /* host address of va */
  unsigned allowed;           /* VAPU_GMC_* */
};
bool vapu_translate_page(struct vapu *v, const struct vapu_requester *rq, struct vapu_tlb *tlb,
                         uint64_t va, unsigned access, struct vapu_gmc_page *page);

/* Byte copies through the GMC; 0 or -EFAULT (the fault was raised). */
int vapu_gpu_read(struct vapu *v, const struct vapu_requester *rq, struct vapu_tlb *tlb,
                  uint64_t va, void *dst, size_t n);
int vapu_gpu_write(struct vapu *v, const struct vapu_requester *rq, struct vapu_tlb *tlb,
                   uint64_t va, const void *src, size_t n);

/* ---- Interrupts from other blocks ---- */
/* Posts one IV entry (client, source, ring_id, vmid, four src_data words)
 * into the IH ring and raises the MSI; false if the ring is off or full. */
bool vapu_ih_post(struct vapu *v, uint8_t client_id, uint8_t source_id, uint8_t ring_id,
                  uint8_t vmid, bool mm_hub, const uint32_t src_data[4]);

/* ---- Firmware worker services ----
 * Blocks of the model that run "firmware" (the command processor's
 * engine) register a service function; the worker calls each in turn and
 * sleeps when none had work. Returns true if it did work. */
typedef bool (*vapu_service_fn)(struct vapu *v, void *ctx);
int vapu_add_service(struct vapu *v, vapu_service_fn fn, void *ctx);
void vapu_kick(struct vapu *v); /* wakes the worker after a doorbell or register write */

/* A 64-bit write of `value` at `byte_offset` of BAR2 (the doorbells), as
 * the bus delivers it to the NBIO. BAR2 itself is plain memory the
 * program stores into; this is how the model learns of the store (a
 * board's BIF sees the bus write). Decoded as the chip does (vapu_hqd.c):
 * it may reach an AQL queue, or nothing. */
void vapu_doorbell_write(struct vapu *v, uint32_t byte_offset, uint64_t value);

/* The carve-out (at its physical address), BAR0's window and BAR2. */
void *vapu_carveout(struct vapu *v, uint64_t *size);
void *vapu_bar0(struct vapu *v, uint64_t *size);
volatile uint32_t *vapu_doorbells(struct vapu *v, uint64_t *size);

/* What the PSP loaded and which engines run, for tests. */
struct vapu_firmware_state {
  bool psp_ring_up, tmr_set;
  uint32_t loaded_types;      /* bit n: LOAD_IP_FW of PSP firmware type n succeeded */
  uint32_t psp_commands, psp_failed_commands;
  bool mec1_running, rlc_running, sdma_powered, gfxoff_allowed, gfx_powered;
};
void vapu_get_firmware_state(struct vapu *v, struct vapu_firmware_state *out);

/* Every unsnooped walk, unsnooped access and cached coherent access of
 * every model since the process started (tests check none happened). */
uint64_t vapu_incoherence_count(void);

/* Statistics for tests. */
struct vapu_stats {
  uint64_t page_walks, tlb_hits, invalidations, ih_entries, msis, hdp_flushes, smu_messages;
  uint64_t gc_accesses_while_off; /* GC register accesses lost to GFXOFF */
  /* Accesses that would read stale data on silicon: a page walk or an access
   * that does not snoop memory the CPU caches write-back (a system PTE or
   * PDE without SNOOPED, or local memory the CPU maps write-back), and
   * coherent accesses through a PTE whose MTYPE lets the GPU's L2 cache
   * them. Logged at the first of each kind. */
  uint64_t unsnooped_walks, unsnooped_accesses, cached_coherent_accesses;
};
void vapu_get_stats(struct vapu *v, struct vapu_stats *out);

#endif
