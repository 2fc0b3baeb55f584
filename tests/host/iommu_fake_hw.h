/*
 * iommu_fake_hw.h - a register-level model of an AMD IOMMU for host tests:
 * the driver's portable code runs against it through its register accessor
 * (struct iommu_reg_ops), as it runs against MMIO in the image.
 *
 * It does what the AMD IOMMU specification (48882) says the hardware does
 * with the driver's structures, written independently of the driver:
 * commands execute when the tail register moves (as QEMU's model does),
 * DMA requests are translated through the device table and the page
 * tables in memory, translations and DTEs are cached until the matching
 * invalidation command, refused requests are logged as IO_PAGE_FAULT
 * events, illegal commands halt the command processor.
 */
#ifndef TESTS_HOST_IOMMU_FAKE_HW_H
#define TESTS_HOST_IOMMU_FAKE_HW_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/iommu/iommu_unit.h"

#define FAKE_DTE_CACHE 64
#define FAKE_TLB       256

struct fake_iommu {
  uint64_t regs[0x2040 / 8];
  bool responsive;       /* false: commands are never fetched */
  bool halted;           /* an illegal command stopped the command processor */
  unsigned executed[16]; /* commands run, by opcode */
  unsigned illegal_commands;
  struct {
    bool valid;
    uint16_t devid;
    uint64_t q[4];
  } dte_cache[FAKE_DTE_CACHE];
  struct {
    bool valid;
    uint16_t domain;
    uint64_t page, phys_page;
    unsigned prot;
  } tlb[FAKE_TLB];
  unsigned tlb_next;
  void (*interrupt)(void *ctx); /* the MSI, when the event interrupt is on */
  void *interrupt_ctx;
};

extern const struct iommu_reg_ops fake_iommu_ops;

/* A reset IOMMU with these extended features. */
void fake_iommu_init(struct fake_iommu *f, uint64_t efr);

/* A device's DMA request: true with the physical address when the IOMMU
 * lets it through; false after logging the refusal as an event. */
bool fake_iommu_dma(struct fake_iommu *f, uint16_t devid, uint64_t addr, bool write,
                    uint64_t *phys);

/* Appends an entry to the event log as the hardware does (tail, status,
 * interrupt, overflow). */
void fake_iommu_log_event(struct fake_iommu *f, const uint32_t raw[4]);

#endif
