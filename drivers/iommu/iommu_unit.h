/*
 * iommu_unit.h - one AMD IOMMU: its registers, device table, command buffer
 * and event log (internal to drivers/iommu; drivers use iommu.h).
 *
 * Portable: registers are reached through an accessor pair, bound to MMIO
 * in the image (iommu_mmio_ops) and to a register model in host tests, so
 * the bring-up sequence, the command ring, the completion wait with its
 * timeout and the event log run the same code on both.
 */
#ifndef DRIVERS_IOMMU_IOMMU_UNIT_H
#define DRIVERS_IOMMU_IOMMU_UNIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drivers/iommu/ivrs.h"
#include "lib/lock.h"

struct iommu_memory;

/* How the driver reaches an IOMMU's registers (64-bit accesses; the
 * offsets are in amd_iommu_regs.h). */
struct iommu_reg_ops {
  uint64_t (*read)(void *ctx, unsigned offset);
  void (*write)(void *ctx, unsigned offset, uint64_t value);
};
/* ctx = the mapped (uncached) register window. */
extern const struct iommu_reg_ops iommu_mmio_ops;

#define IOMMU_CMD_ENTRIES   512 /* 8 KiB, as Linux CMD_BUFFER_SIZE */
#define IOMMU_EVENT_ENTRIES 512 /* 8 KiB, as Linux EVT_BUFFER_SIZE */
/* How long a full command ring or a completion wait may take before the
 * IOMMU counts as not answering (Linux waits about as long: LOOP_TIMEOUT
 * iterations of udelay(1), amd_iommu_types.h). */
#define IOMMU_CMD_TIMEOUT_NS 1000000000ull

struct iommu_cmd {
  uint64_t q[2];
};

/* A decoded event log entry [48882 2.5]. */
struct iommu_event {
  unsigned code;  /* enum iommu_event_code */
  uint16_t devid; /* requester ID (not for command errors) */
  uint32_t tag;   /* domain ID or PASID, per event type */
  uint16_t flags; /* EVENT_FLAG_* for page faults */
  uint64_t address;
  uint32_t raw[4];
};

#define IOMMU_EVENT_CODES 16

struct iommu_event_counts {
  uint64_t by_code[IOMMU_EVENT_CODES];
  uint64_t total;
  uint64_t overflows;  /* times the log filled up and was restarted */
  uint64_t lost;       /* entries the IOMMU announced but never wrote (erratum 732 timeout) */
  uint64_t interrupts; /* event interrupts taken */
};

struct iommu_unit;
/* Called for every event after it was decoded, printed and counted. */
typedef void (*iommu_event_sink)(void *ctx, struct iommu_unit *unit,
                                 const struct iommu_event *event);

struct iommu_unit {
  unsigned index;
  const struct ivrs_iommu *ivhd;
  const struct iommu_reg_ops *regs;
  void *regs_ctx;
  uint32_t cap_header; /* PCI capability header: IOTLB/NpCache/EFR support */
  uint64_t efr;        /* extended features (register, or the IVHD image) */
  bool enabled;
  bool passthrough; /* DTEs let every device through untranslated */

  /* Device table: one 32-byte entry per device ID up to ivhd->last_devid. */
  uint64_t *dev_table;
  size_t dev_table_bytes;
  unsigned dev_entries;
  uint64_t *empty_root; /* an empty page table (erratum 63 blocked DTEs) */

  /* Command ring and completion-wait semaphore. */
  struct spinlock cmd_lock;
  uint8_t *cmd_buf;
  uint32_t cmd_tail, cmd_head; /* byte offsets; head as last read */
  volatile uint64_t *semaphore;
  uint64_t semaphore_value;
  uint64_t timeout_ns; /* IOMMU_CMD_TIMEOUT_NS (tests shorten it) */
  bool dead;           /* stopped answering: no command is sent any more */

  /* Event log. */
  struct spinlock event_lock;
  uint8_t *event_log;
  struct iommu_event_counts counts;
  iommu_event_sink sink;
  void *sink_ctx;
};

/* ---- Bring-up (iommu_unit.c) --------------------------------------------- */

/* Reads the features, allocates the device table (every entry blocking DMA,
 * with the IVHD's interrupt settings), the command ring, the semaphore and
 * the event log, programs and enables them, enables translation (unless
 * `passthrough`: then every DTE lets DMA through untranslated) and
 * invalidates every cache. The IOMMU may have been left enabled by firmware:
 * it is disabled first. 0, -ENOMEM, -ETIMEDOUT (the IOMMU did not start its
 * command buffer or complete the first commands). */
int iommu_unit_init(struct iommu_unit *u, unsigned index, const struct ivrs_iommu *ivhd,
                    const struct iommu_reg_ops *regs, void *regs_ctx, uint32_t cap_header,
                    bool passthrough, struct iommu_memory *mem);
/* Turns translation, the command buffer and the event log off. */
void iommu_unit_disable(struct iommu_unit *u);
/* Turns on the event interrupt (after its MSI vector is installed). */
void iommu_unit_enable_event_interrupt(struct iommu_unit *u);

/* Device table entries. A DTE is written quadword 3 to 0, the valid bits
 * last; the caller invalidates it (iommu_inv_dte) and syncs. */
void iommu_dte_set_translated(struct iommu_unit *u, uint16_t devid, uint16_t domain_id,
                              uint64_t root_and_mode);
/* The entry of a device without a domain: blocked, or untranslated when
 * the unit is in passthrough mode. */
void iommu_dte_set_default(struct iommu_unit *u, uint16_t devid);
/* The DTE as the IOMMU sees it (tests, logs). */
const uint64_t *iommu_dte(const struct iommu_unit *u, uint16_t devid);

/* ---- Commands (iommu_cmd.c) ---------------------------------------------- */

/* Queue commands; they run in order. -ETIMEDOUT when the ring stays full,
 * -EIO once the IOMMU has stopped answering. */
int iommu_cmd_queue(struct iommu_unit *u, struct iommu_cmd cmd);
int iommu_inv_dte(struct iommu_unit *u, uint16_t devid);
int iommu_inv_irt(struct iommu_unit *u, uint16_t devid);
/* Pages of `domain_id` covering [address, address + size); size 0 = all. */
int iommu_inv_pages(struct iommu_unit *u, uint16_t domain_id, uint64_t address, uint64_t size);
/* Every cached DTE, interrupt table and translation: INVALIDATE_IOMMU_ALL
 * when EFR.IA says it exists, else each DTE, interrupt table and domain one
 * by one (Linux amd_iommu_flush_all_caches). Waits for completion. */
int iommu_inv_all(struct iommu_unit *u);
/* Waits until every command queued before has completed: COMPLETION_WAIT
 * storing a new value to the semaphore, polled with IOMMU_CMD_TIMEOUT_NS. */
int iommu_sync(struct iommu_unit *u);

/* The encoders, for tests. */
struct iommu_cmd iommu_cmd_completion_wait(uint64_t semaphore, uint64_t value);
struct iommu_cmd iommu_cmd_inv_dte(uint16_t devid);
struct iommu_cmd iommu_cmd_inv_pages(uint16_t domain_id, uint64_t address, uint64_t size);
struct iommu_cmd iommu_cmd_inv_irt(uint16_t devid);
struct iommu_cmd iommu_cmd_inv_all(void);

/* ---- Events (iommu_event.c) ---------------------------------------------- */

void iommu_event_decode(const uint32_t raw[4], struct iommu_event *out);
/* One line: "IO_PAGE_FAULT device=00:03.0 domain=0x0001 address=0x... flags=0x0030
 * (write, present, ...)". Returns the length as snprintf does. */
int iommu_event_format(const struct iommu_event *e, char *buf, size_t size);
const char *iommu_event_name(unsigned code);
/* Reads, prints, counts and hands to the sink every new entry of the log,
 * clears the status bits (re-reading them: erratum ERBT1312), restarts the
 * log after an overflow. Safe to call from the interrupt handler and from
 * threads at once. Returns how many entries it handled. */
unsigned iommu_events_process(struct iommu_unit *u);
/* The MSI handler: counts the interrupt and processes the log. */
void iommu_event_interrupt(void *unit);

#endif
