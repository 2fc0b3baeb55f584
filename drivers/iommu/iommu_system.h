/*
 * iommu_system.h - the driver's state: the IOMMUs of the machine, their
 * domains and attached devices, the protected memory (internal to
 * drivers/iommu; drivers use iommu.h).
 *
 * Portable: iommu_system_start() takes each IOMMU's register accessors, so
 * host tests start a whole system on register models and then use the
 * iommu.h API against it; the image glue (iommu_efi.c) starts it on MMIO.
 */
#ifndef DRIVERS_IOMMU_IOMMU_SYSTEM_H
#define DRIVERS_IOMMU_IOMMU_SYSTEM_H

#include "drivers/iommu/io_pgtable.h"
#include "drivers/iommu/iommu.h"
#include "drivers/iommu/iommu_memory.h"
#include "drivers/iommu/iommu_unit.h"
#include "drivers/iommu/ivrs.h"
#include "lib/util.h"

#define IOMMU_MAX_DEVICES 64
/* The kernel protects 4 stacks per core (kernel/cpu.h CPU_MAX = 64) and a
 * few regions more. */
#define IOMMU_MAX_PROTECTED 320
#define IOMMU_MAX_UNITY     32
/* Page tables reserved before any device is attached: 4 MiB, 1024 tables.
 * A domain mapping all RAM with large pages needs a few tables per
 * protected range it skips. After each change the free tables are topped
 * up to the low-water mark, with memory removed from every domain first
 * (iommu_domain.c refill_tables): one change may use that many, and taking
 * a chunk away from domains that map it with large pages takes two per
 * domain. */
#define IOMMU_TABLE_RESERVE_CHUNKS 16
#define IOMMU_TABLE_LOW_WATER      (2 * (IOMMU_MAX_DEVICES + IOMMU_MAX_UNITY) + 64)

struct iommu_domain {
  bool in_use;
  uint16_t id;
  unsigned users; /* attached devices */
  struct iommu_unit *unit;
  struct io_pgtable pt;
};

/* Read by the event interrupt without the lock: it is double buffered, a
 * new handler goes into the unused copy and then becomes the current one. */
struct iommu_fault_handler {
  iommu_fault_fn fn;
  void *ctx;
};

struct iommu_device {
  bool in_use;
  uint16_t segment, bdf, requester;
  char owner[24];
  struct iommu_unit *unit;     /* NULL in off mode */
  struct iommu_domain *domain; /* NULL unless translating */
  struct iommu_fault_handler handlers[2];
  unsigned handler_index;
  uint64_t faults;
};

struct iommu_protected {
  uint64_t base, size;
  const char *what;
};

/* How to reach one IOMMU of the IVRS (same order as ivrs->iommus). */
struct iommu_hw {
  const struct iommu_reg_ops *regs;
  void *regs_ctx;
  uint32_t cap_header;
};

struct iommu_system {
  enum iommu_mode mode;
  const struct ivrs_info *ivrs;
  unsigned levels; /* of every domain's page tables */
  struct iommu_memory memory;
  unsigned unit_count;
  struct iommu_unit units[IVRS_MAX_IOMMUS];
  /* One lock for devices, domains, page tables and the protected list:
   * changes are rare (driver set-up, buffer allocation) and never wait for
   * the IOMMU while holding it. Order: this lock, then the memory pool's. */
  struct spinlock lock;
  struct iommu_device devices[IOMMU_MAX_DEVICES];
  /* Every domain there can be (one per device, one per unity set): in the
   * driver's own data, not the heap, which devices may be given. */
  struct iommu_domain domain_pool[IOMMU_MAX_DEVICES + IOMMU_MAX_UNITY];
  unsigned protected_count;
  struct iommu_protected protected_ranges[IOMMU_MAX_PROTECTED];
  uint16_t next_domain_id;
  /* Domains holding only IVMD unity ranges, for the devices no driver
   * attached: one per IOMMU and set of IVMD blocks that apply. */
  unsigned unity_count;
  struct iommu_unity {
    struct iommu_unit *unit;
    uint32_t ivmd_mask; /* bit i: s->ivrs->ivmds[i] applies */
    unsigned devices;
    struct iommu_domain *domain;
  } unity[IOMMU_MAX_UNITY];
};

/* Brings up every IOMMU of `ivrs` (hw[i] for ivrs->iommus[i]) in `mode`,
 * domains with page tables covering addresses below `max_address`, and
 * makes it the system iommu.h works on. In ON mode, devices with IVMD
 * unity ranges get them mapped at once. 0 or a negative errno (logged); on
 * error every IOMMU is left disabled. */
int iommu_system_start(struct iommu_system *s, enum iommu_mode mode, const struct ivrs_info *ivrs,
                       const struct iommu_hw *hw, uint64_t max_address);
/* Disables every IOMMU and frees everything (host tests). */
void iommu_system_stop(struct iommu_system *s);
/* OFF mode without any IOMMU (no IVRS, iommu=off). */
void iommu_system_start_off(struct iommu_system *s, const char *why);
/* The image's bring-up failed with `err`: attach then says so (-EIO)
 * instead of "no IOMMU" (-ENODEV). */
void iommu_system_set_failed(int err);
bool iommu_system_failed(void);

/* ---- Shared by the driver's files ----------------------------------------- */

static inline uint64_t iommu_page_down(uint64_t v) { return v & ~0xfffull; }
/* Rounds up to 4 KiB, saturating at the last page of the address space. */
static inline uint64_t iommu_page_up(uint64_t v) {
  return v > ~0xfffull ? ~0xfffull : ALIGN_UP(v, 0x1000);
}

/* The system iommu.h works on (NULL before iommu_init). */
struct iommu_system *iommu_current(void);
const char *iommu_mode_name(enum iommu_mode mode);
void iommu_format_bdf(char buf[16], uint16_t segment, uint16_t bdf);

/* A new domain (ID and empty page table) / its end. With the lock held. */
int iommu_domain_create(struct iommu_system *s, struct iommu_unit *unit, struct iommu_domain **out);
void iommu_domain_destroy(struct iommu_domain *d);
/* Maps what of [addr, addr + size) is not protected. With the lock held. */
int iommu_map_unprotected_locked(struct iommu_system *s, struct iommu_domain *d, uint64_t addr,
                                 uint64_t size, unsigned prot, uint64_t *skipped);
/* Maps the IVMD unity ranges that apply to `devid` or its `requester`
 * into d. With the lock held. */
int iommu_map_unity_locked(struct iommu_system *s, struct iommu_domain *d, uint16_t segment,
                           uint16_t devid, uint16_t requester, const char *who);
/* Every domain in use, each once: the attached devices' and the unity
 * ones. With the lock held. */
unsigned iommu_all_domains(struct iommu_system *s, struct iommu_domain **out, unsigned max);
/* Points a device ID's DTE at what it has without a driver: its unity
 * domain, or blocked (passthrough mode: untranslated). With the lock held. */
void iommu_set_default_dte(struct iommu_system *s, struct iommu_unit *unit, uint16_t devid);

#endif
