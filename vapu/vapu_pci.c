/* vapu_pci.c - the model's PCI configuration space: type 0 header, BAR
 * sizing, command register, power management and MSI capabilities.
 * Layout: PCI Local Bus Specification 3.0 (header, section 6.2; MSI,
 * section 6.8.1). BARs as on Raven/Renoir (Linux amdgpu_device.c: BAR0
 * frame buffer, BAR2 doorbells, BAR5 registers). */
#define LOG_TAG "vapu"
#include <string.h>

#include "vapu/vapu_internal.h"

#define PCI_VENDOR_ATI          0x1002
#define PCI_CLASS_VGA           0x030000
#define PCI_COMMAND_MEMORY      0x0002
#define PCI_COMMAND_MASTER      0x0004
#define PCI_STATUS_CAP_LIST     0x0010
#define PCI_BAR_MEM64_PREFETCH  0xc     /* 64-bit, prefetchable memory */
#define PCI_BAR_MEM32           0x0
#define CAP_PM_OFFSET           0x50
#define CAP_MSI_OFFSET          0xa0
#define PCI_CAP_ID_PM           0x01
#define PCI_CAP_ID_MSI          0x05
#define MSI_CONTROL_ENABLE      0x0001
#define MSI_CONTROL_64BIT       0x0080
#define MMIO_BAR5_ADDRESS       0xfe700000u /* where "the BIOS" put BAR5; only ever reached through vapu_mmio_* */

static uint32_t *cfg(struct vapu *v, uint16_t offset) { return &v->pci_config[offset / 4]; }

int vapu_pci_init(struct vapu *v) {
  memset(v->pci_config, 0, sizeof v->pci_config);
  *cfg(v, 0x00) = PCI_VENDOR_ATI | (uint32_t)v->chip->pci_device_id << 16;
  *cfg(v, 0x04) = (uint32_t)PCI_STATUS_CAP_LIST << 16;
  *cfg(v, 0x08) = (uint32_t)PCI_CLASS_VGA << 8 | v->chip->pci_revision;
  *cfg(v, 0x2c) = PCI_VENDOR_ATI | (uint32_t)v->chip->pci_device_id << 16;
  *cfg(v, 0x34) = CAP_PM_OFFSET;
  *cfg(v, 0x3c) = 0x0100; /* interrupt pin INTA */
  *cfg(v, CAP_PM_OFFSET) = PCI_CAP_ID_PM | CAP_MSI_OFFSET << 8 | 0x0003u << 16;
  *cfg(v, CAP_MSI_OFFSET) = PCI_CAP_ID_MSI | 0u << 8 | (uint32_t)MSI_CONTROL_64BIT << 16;

  /* BAR addresses as the firmware assigned them. */
  uint64_t fb = (uint64_t)(uintptr_t)v->bar0, db = (uint64_t)(uintptr_t)v->doorbells;
  v->bar_size[0] = v->bar0_bytes;
  v->bar_size[2] = v->doorbell_bytes;
  v->bar_size[5] = VAPU_MMIO_BAR_BYTES;
  *cfg(v, 0x10) = (uint32_t)fb | PCI_BAR_MEM64_PREFETCH;
  *cfg(v, 0x14) = (uint32_t)(fb >> 32);
  *cfg(v, 0x18) = (uint32_t)db | PCI_BAR_MEM64_PREFETCH;
  *cfg(v, 0x1c) = (uint32_t)(db >> 32);
  *cfg(v, 0x24) = MMIO_BAR5_ADDRESS | PCI_BAR_MEM32;
  return 0;
}

/* The BAR a config offset belongs to (lower dword), -1 if none; *high says
 * it is the upper half of a 64-bit BAR. */
static int bar_of(uint16_t offset, bool *high) {
  *high = false;
  switch (offset) {
    case 0x10: return 0;
    case 0x14: *high = true; return 0;
    case 0x18: return 2;
    case 0x1c: *high = true; return 2;
    case 0x24: return 5;
    default: return -1;
  }
}

static bool bar_missing(struct vapu *v, int bar) { return v->config.faults.missing_bars & (1u << bar); }

uint32_t vapu_pci_config_read(struct vapu *v, uint16_t offset) {
  if (offset >= 256 || (offset & 3)) return 0xffffffffu;
  bool high;
  int bar = bar_of(offset, &high);
  if (bar >= 0 && bar_missing(v, bar)) return 0;
  uint64_t irq = spin_lock_irqsave(&v->pci_lock);
  uint32_t value = *cfg(v, offset);
  spin_unlock_irqrestore(&v->pci_lock, irq);
  return value;
}

void vapu_pci_config_write(struct vapu *v, uint16_t offset, uint32_t value) {
  if (offset >= 256 || (offset & 3)) return;
  bool high;
  int bar = bar_of(offset, &high);
  uint64_t irq = spin_lock_irqsave(&v->pci_lock);
  if (bar >= 0) {
    if (!bar_missing(v, bar)) {
      /* Size bits read back as zero: writing all ones reveals the size. */
      uint64_t mask = ~(v->bar_size[bar] - 1);
      if (high)
        *cfg(v, offset) = value & (uint32_t)(mask >> 32);
      else
        *cfg(v, offset) = (value & (uint32_t)mask & ~0xfu) | (*cfg(v, offset) & 0xfu);
    }
  } else if (offset == 0x04) {
    *cfg(v, offset) = (*cfg(v, offset) & 0xffff0000u) | (value & 0x0547u); /* io/mem/master/parity/serr/intx */
  } else if (offset == CAP_MSI_OFFSET) {
    uint32_t control = (value >> 16) & (MSI_CONTROL_ENABLE | 0x0070u);
    *cfg(v, offset) = (*cfg(v, offset) & 0x0080ffffu) | control << 16;
  } else if (offset == CAP_MSI_OFFSET + 4) {
    *cfg(v, offset) = value & ~3u; /* message address is dword aligned */
  } else if (offset == CAP_MSI_OFFSET + 8 || offset == CAP_MSI_OFFSET + 12) {
    *cfg(v, offset) = value;
  } else if (offset == 0x3c) {
    *cfg(v, offset) = (*cfg(v, offset) & ~0xffu) | (value & 0xffu);
  }
  spin_unlock_irqrestore(&v->pci_lock, irq);
}

bool vapu_pci_bus_master(struct vapu *v) {
  return __atomic_load_n(cfg(v, 0x04), __ATOMIC_ACQUIRE) & PCI_COMMAND_MASTER;
}

bool vapu_pci_memory_decode(struct vapu *v) {
  return __atomic_load_n(cfg(v, 0x04), __ATOMIC_ACQUIRE) & PCI_COMMAND_MEMORY;
}

/* An MSI is a posted memory write of the message data to the message
 * address; it needs bus mastering and the MSI enable bit. */
void vapu_pci_raise_msi(struct vapu *v) {
  uint64_t irq = spin_lock_irqsave(&v->pci_lock);
  uint32_t control = *cfg(v, CAP_MSI_OFFSET) >> 16;
  uint64_t address = *cfg(v, CAP_MSI_OFFSET + 4) | (uint64_t)*cfg(v, CAP_MSI_OFFSET + 8) << 32;
  uint32_t data = *cfg(v, CAP_MSI_OFFSET + 12) & 0xffffu;
  bool master = *cfg(v, 0x04) & PCI_COMMAND_MASTER;
  spin_unlock_irqrestore(&v->pci_lock, irq);
  if (!(control & MSI_CONTROL_ENABLE) || !master) {
    log_trace("interrupt not delivered: MSI %s, bus master %s",
              control & MSI_CONTROL_ENABLE ? "on" : "off", master ? "on" : "off");
    return;
  }
  vapu_stat_add(&v->stats.msis);
  if (v->config.msi) v->config.msi(v->config.msi_ctx, address, data);
}
