/*
 * iommu.h - what drivers ask of the AMD IOMMU: keep each device's DMA to the
 * memory it was given.
 *
 * In the single address space a device address is a physical address. A
 * device a driver attaches gets a domain of its own whose I/O page tables
 * map exactly what the driver maps, at the same address (identity), plus
 * the ranges firmware needs it to keep reaching (IVRS IVMD unity ranges).
 * Every other device the IOMMU translates is blocked. Memory registered as
 * protected (the kernel's page tables, stacks and text, the IOMMU's own
 * tables) is never mapped for any device.
 *
 *   struct iommu_device *gpu;
 *   int err = iommu_attach(0, IOMMU_BDF(0x03, 0, 0), "amdgpu", &gpu);
 *   err = iommu_map(gpu, ring, ring_size, IOMMU_READ | IOMMU_WRITE);
 *   err = iommu_flush(gpu);         // the device may use the ring now
 *   ...
 *   err = iommu_unmap(gpu, ring, ring_size);
 *   err = iommu_flush(gpu);         // only now is the access gone
 *   iommu_set_fault_handler(gpu, gpu_memory_fault, gpu_state);
 *
 * Rules:
 * - Addresses and sizes are multiples of 4 KiB. Mapping a page twice is an
 *   error (-EEXIST), unmapping what is not mapped is not.
 * - iommu_map and iommu_unmap change the tables and queue the invalidations;
 *   iommu_flush waits until the IOMMU has carried them out. Call it before
 *   the device uses a new mapping and before reusing unmapped memory.
 * - With the boot option iommu=off or iommu=passthrough every call succeeds
 *   and devices reach all memory (iommu_mode() says which).
 * - Calls may come from any core; a device's calls are serialised inside.
 *   Fault handlers run in interrupt context: keep them short.
 *
 * Boot option (lib/plat.h PLAT_OPTION): iommu=on (default) | passthrough |
 * off, for boards whose firmware tables are broken; the boot log says which
 * mode is in force and why.
 */
#ifndef DRIVERS_IOMMU_IOMMU_H
#define DRIVERS_IOMMU_IOMMU_H

#include <stdbool.h>
#include <stdint.h>

#define IOMMU_BDF(bus, dev, fn) ((uint16_t)(((bus) << 8) | ((dev) << 3) | (fn)))

#define IOMMU_READ  1u /* the device may read the range */
#define IOMMU_WRITE 2u /* the device may write it */

enum iommu_mode {
  IOMMU_MODE_ON = 0,      /* translation: devices reach what they are given */
  IOMMU_MODE_PASSTHROUGH, /* IOMMU on, every device reaches all memory untranslated */
  IOMMU_MODE_OFF,         /* IOMMU left off (or none found) */
};

struct iommu_device;

/* A DMA request the IOMMU refused, as its event log reported it. */
struct iommu_fault {
  uint16_t segment;
  uint16_t requester; /* the ID the request carried (a bridge's, for aliased devices) */
  uint64_t address;   /* the device address it used */
  bool write;         /* else a read */
  bool present;       /* the page was mapped, the right was missing */
  uint16_t flags;     /* raw event flags (AMD IOMMU spec 48882, 2.5) */
  uint32_t domain;
};
typedef void (*iommu_fault_fn)(void *ctx, const struct iommu_fault *fault);

/* Image bring-up (drivers/iommu/iommu_efi.c): reads the boot option, parses
 * IVRS, brings up every IOMMU (MMIO, device table, command buffer, event log
 * and its MSI, errata), protects the kernel's memory, logs what it did.
 * Without IVRS, or with iommu=off, it leaves the IOMMUs off and returns 0.
 * A broken IVRS or an IOMMU that does not answer is an error: the message
 * says to boot with iommu=off to run without DMA protection. */
int iommu_init(void);

enum iommu_mode iommu_mode(void);

/* Gives device `bdf` of PCI segment `segment` its own domain (initially
 * mapping only its IVMD unity ranges). `owner` names the driver in logs.
 * -ENODEV: no IOMMU translates it (its DMA is not confined: logged);
 * -EIO: the IOMMU bring-up failed (the driver should not start DMA);
 * -EINVAL: it is an IOMMU; -EBUSY: already attached; -ENOMEM. Devices that
 * share a requester ID (behind a PCI bridge) share one domain. */
int iommu_attach(uint16_t segment, uint16_t bdf, const char *owner, struct iommu_device **out);
/* Blocks the device again and frees its domain (when no other device
 * shares it). Waits for the invalidations. */
int iommu_detach(struct iommu_device *dev);

/* Identity mapping of [addr, addr + size) with IOMMU_READ and/or
 * IOMMU_WRITE. -EINVAL (alignment, empty, no right), -EPERM (overlaps
 * protected memory: nothing mapped), -EEXIST, -ERANGE, -ENOMEM. */
int iommu_map(struct iommu_device *dev, uint64_t addr, uint64_t size, unsigned prot);
/* The same, leaving out the protected parts of the range instead of
 * refusing it (for "all the application's memory"). */
int iommu_map_allowed(struct iommu_device *dev, uint64_t addr, uint64_t size, unsigned prot);
int iommu_unmap(struct iommu_device *dev, uint64_t addr, uint64_t size);
/* Waits until the IOMMU has applied every change queued for the device.
 * -ETIMEDOUT/-EIO when the IOMMU does not answer. */
int iommu_flush(struct iommu_device *dev);

/* Memory no device may ever reach. Mappings that overlap it now are
 * removed from every device (and flushed) first. -ENOMEM when the list is
 * full, -EINVAL for a bad range. */
int iommu_protect(uint64_t addr, uint64_t size, const char *what);

/* Called for every refused request of this device (also for the other
 * devices sharing its requester ID). NULL removes the handler. */
int iommu_set_fault_handler(struct iommu_device *dev, iommu_fault_fn fn, void *ctx);

/* Whether the device's tables let it do `access` (IOMMU_READ/WRITE) at
 * addr (also true in passthrough and off modes). */
bool iommu_can_reach(const struct iommu_device *dev, uint64_t addr, unsigned access);
/* Faults reported for this device so far. */
uint64_t iommu_fault_count(const struct iommu_device *dev);

/* Logs every IOMMU, every domain and the ranges each device may reach. */
void iommu_log_state(void);

#endif
