/*
 * iommu_efi.c - the IOMMU driver in the boot image: the boot option, the
 * IVRS table from the ACPI layer, each IOMMU's PCI function (capability,
 * MMIO window, MSI), the errata Linux applies to these parts, and the
 * memory the kernel protects (kernel/kmem.h). The rest is the portable driver.
 *
 * It runs as the PCI driver of the IOMMU functions (class 0806) with
 * PCI_ORDER_IOMMU, so translation is on before any other driver lets a
 * device master the bus. The first probe brings every IOMMU of the IVRS up.
 */
#define LOG_TAG "iommu"

#include <errno.h>
#include <string.h>

#include "drivers/iommu/amd_iommu_regs.h"
#include "drivers/iommu/iommu.h"
#include "drivers/iommu/iommu_system.h"
#include "kernel/acpi.h"
#include "kernel/cpu.h"
#include "kernel/exit.h"
#include "kernel/kmem.h"
#include "kernel/msi.h"
#include "kernel/pci.h"
#include "kernel/vm.h"
#include "lib/plat.h"

PLAT_OPTION(iommu, "iommu",
            "on|passthrough|off: AMD IOMMU (default on: each device reaches only what its driver "
            "maps); passthrough or off for boards whose IVRS table is broken");

static struct ivrs_info ivrs;
static struct iommu_system machine;
static struct iommu_hw hw[IVRS_MAX_IOMMUS];
static struct pci_function *functions[IVRS_MAX_IOMMUS];
static int init_status = 1; /* 1: not run yet */

/* ---- Errata -------------------------------------------------------------- */

/* The IOMMU's indirect L2 registers: index at config 0xF0 (bit 8 enables
 * writing), data at 0xF4 (Linux init.c iommu_read_l2 / iommu_write_l2). */
static uint32_t l2_read(struct pci_function *f, uint8_t reg) {
  pci_write32(f, 0xf0, reg);
  return pci_read32(f, 0xf4);
}
static void l2_write(struct pci_function *f, uint8_t reg, uint32_t v) {
  pci_write32(f, 0xf0, reg | 1u << 8);
  pci_write32(f, 0xf4, v);
  pci_write32(f, 0xf0, reg);
}

static void apply_errata(struct pci_function *f, unsigned index, struct cpu_id cpu) {
  bool applied = false;
  if (cpu.vendor == CPU_VENDOR_AMD && cpu.family == 0x15 && cpu.model >= 0x10 && cpu.model <= 0x1f) {
    /* Family 15h models 10h-1Fh erratum 746 "IOMMU Logging May Stall
     * Translations": set L2_L2B_CK_GATE_CONTROL[CKGateL2BMiscDisable],
     * D0F2xF4_x90 bit 2 (Linux amd_iommu_erratum_746_workaround). */
    uint32_t v = l2_read(f, 0x90);
    if (!(v & 4)) {
      l2_write(f, 0x90, v | 4);
      log_info("IOMMU %u: applied erratum 746 (family 15h models 10h-1fh)", index);
    }
    applied = true;
  }
  if (cpu.vendor == CPU_VENDOR_AMD && cpu.family == 0x15 && cpu.model >= 0x30 && cpu.model <= 0x3f) {
    /* Family 15h models 30h-3Fh "IOMMU Mishandles ATS Write Permission":
     * set L2_DEBUG_3[AtsIgnoreIWDis], D0F2xF4_x47 bit 0 (Linux
     * amd_iommu_ats_write_check_workaround). */
    uint32_t v = l2_read(f, 0x47);
    if (!(v & 1)) {
      l2_write(f, 0x47, v | 1);
      log_info("IOMMU %u: applied the ATS write permission check (family 15h models 30h-3fh)",
               index);
    }
    applied = true;
  }
  if (!applied)
    /* Linux's family 17h check (amd_iommu_sme_check) is about memory
     * encryption, which this kernel does not turn on. */
    log_info("IOMMU %u: CPU %s family %xh model %xh: no IOMMU erratum of Linux init.c applies",
             index, cpu.vendor == CPU_VENDOR_AMD ? "AMD" : "non-AMD", cpu.family, cpu.model);
}

/* Linux detect_ivrs: the IOMMU is not used on Stoney Ridge (its GPU,
 * 1002:98e4, on bus 0) unless forced (amd_iommu=force_enable; here
 * iommu=on). */
static bool stoney_ridge_present(void) {
  for (unsigned dev = 0; dev < 32; dev++) {
    struct pci_function *f = pci_find_address(0, 0, (uint8_t)dev, 0);
    if (f && f->vendor_id == 0x1002 && f->device_id == 0x98e4) return true;
  }
  return false;
}

/* ---- One IOMMU's PCI function ---------------------------------------------- */

static int bind_function(unsigned i) {
  const struct ivrs_iommu *m = &ivrs.iommus[i];
  char bdf[16];
  iommu_format_bdf(bdf, m->segment, m->devid);
  struct pci_function *f = pci_find_address(m->segment, (uint8_t)(m->devid >> 8),
                                            (uint8_t)((m->devid >> 3) & 0x1f), m->devid & 7);
  if (!f) {
    log_error("IVRS names IOMMU %u at %s, but PCI has no function there", i, bdf);
    return -ENODEV;
  }
  /* The capability block (48882 3.3): ID 0Fh, type 011b in bits 18:16. */
  uint32_t header = pci_read32(f, m->cap_offset);
  if ((header & 0xff) != PCI_CAP_SECURE || ((header >> 16) & 7) != 3) {
    log_error(
        "IOMMU %u at %s: config offset 0x%x holds capability header 0x%08x, not the "
        "IOMMU's (ID 0Fh, type 3)",
        i, bdf, m->cap_offset, header);
    return -ENODEV;
  }
  uint64_t bar = pci_read32(f, m->cap_offset + 4) | (uint64_t)pci_read32(f, m->cap_offset + 8)
                                                        << 32;
  if ((bar & ~0x3fffull) != m->mmio_base)
    log_warn(
        "IOMMU %u at %s: capability base 0x%llx differs from the IVRS's 0x%llx: using the "
        "IVRS's, as Linux does",
        i, bdf, (unsigned long long)(bar & ~0x3fffull), (unsigned long long)m->mmio_base);
  if (vm_map_mmio(m->mmio_base, IOMMU_MMIO_SIZE) != 0) return -ENOMEM;
  pci_enable_memory(f);
  pci_enable_bus_master(f); /* its MSI is a memory write */
  functions[i] = f;
  hw[i] = (struct iommu_hw){&iommu_mmio_ops, (void *)(uintptr_t)m->mmio_base, header};
  return 0;
}

/* The event log interrupt: MSI, as Linux iommu_setup_msi (the IOMMU's own
 * MSI capability; XT mode's INTCAPXT registers are not used). */
static void setup_interrupt(unsigned i) {
  struct pci_function *f = functions[i];
  struct iommu_unit *u = &machine.units[i];
  int n = msi_alloc(f, 1, MSI_ALLOW_MSI);
  if (n < 1 || msi_set_handler(f, 0, iommu_event_interrupt, u) != 0) {
    log_warn("IOMMU %u: no MSI (%d): events are only seen when polled", i, n);
    return;
  }
  iommu_unit_enable_event_interrupt(u);
  log_info("IOMMU %u: event log interrupt on vector %d", i, msi_vector(f, 0));
}

/* The kernel's own memory (kernel/kmem.h): what it holds now, and through
 * kmem's hook every block it takes from now on, before it uses it. The
 * hook goes in first, so that a block taken meanwhile is caught by one
 * or the other. Everything else (the heap, DMA blocks, free RAM) is the
 * application's: a driver may give it to its device (the GPU gets all). */
static void protect_kernel_memory(void) {
  kmem_set_protect_hook(iommu_protect);
  static struct kmem_range ranges[IOMMU_MAX_PROTECTED];
  size_t n = kernel_protected_ranges(ranges, IOMMU_MAX_PROTECTED);
  if (n > IOMMU_MAX_PROTECTED)
    log_error("the kernel has %zu protected ranges, only %d are passed on", n, IOMMU_MAX_PROTECTED);
  for (size_t i = 0; i < n && i < IOMMU_MAX_PROTECTED; i++)
    if (iommu_protect(ranges[i].base, ranges[i].size, ranges[i].what) != 0)
      log_error("cannot protect the %s from devices", ranges[i].what);
}

/* ---- Bring-up --------------------------------------------------------------- */

static int parse_mode(const char *value, enum iommu_mode *mode) {
  if (!value || strcmp(value, "on") == 0)
    *mode = IOMMU_MODE_ON;
  else if (strcmp(value, "passthrough") == 0)
    *mode = IOMMU_MODE_PASSTHROUGH;
  else if (strcmp(value, "off") == 0)
    *mode = IOMMU_MODE_OFF;
  else
    return -EINVAL;
  return 0;
}

/* The highest physical address the CPU can form (CPUID Fn8000_0008_EAX
 * bits 7:0): the page tables cover every address a buffer can have. */
static uint64_t physical_address_limit(void) {
  uint32_t r[4];
  cpuid(0x80000000, 0, r);
  if (r[0] < 0x80000008) return 1ull << 36;
  cpuid(0x80000008, 0, r);
  return 1ull << (r[0] & 0xff);
}

static int bring_up(void) {
  const char *option = plat_option("iommu");
  enum iommu_mode mode;
  if (parse_mode(option, &mode) != 0) {
    log_error("boot option iommu=%s: expected on, passthrough or off", option);
    kernel_exit(EXIT_STATUS_BAD_COMMAND_LINE);
  }
  if (mode == IOMMU_MODE_OFF) {
    iommu_system_start_off(&machine, "iommu=off on the command line");
    return 0;
  }
  if (!option && stoney_ridge_present()) {
    iommu_system_start_off(&machine,
                           "Stoney Ridge GPU 1002:98e4 present, as Linux detect_ivrs "
                           "(iommu=on forces it)");
    return 0;
  }
  const struct acpi_table *table = acpi_machine_table("IVRS", 0);
  if (!table) {
    iommu_system_start_off(&machine, "no valid IVRS table: firmware describes no IOMMU");
    return 0;
  }
  if (ivrs_parse(table->data, table->length, &ivrs) != 0) {
    log_error("IVRS: %s", ivrs.error);
    return -EINVAL;
  }
  ivrs_log(&ivrs);
  for (unsigned i = 0; i < ivrs.iommu_count; i++) {
    int err = bind_function(i);
    if (err) return err;
  }
  int err = iommu_system_start(&machine, mode, &ivrs, hw, physical_address_limit());
  if (err) return err;
  struct cpu_id cpu = cpu_identify();
  for (unsigned i = 0; i < ivrs.iommu_count; i++) {
    apply_errata(functions[i], i, cpu);
    setup_interrupt(i);
  }
  protect_kernel_memory();
  log_info("IOMMU %s%s", iommu_mode_name(mode),
           mode == IOMMU_MODE_ON ? ": devices reach only what their drivers map"
                                 : " (iommu=passthrough): every device reaches all memory");
  iommu_log_state();
  return 0;
}

int iommu_init(void) {
  if (init_status == 1) {
    init_status = bring_up();
    if (init_status) {
      iommu_system_set_failed(init_status);
      log_error(
          "IOMMU bring-up failed (%d): no device will be attached; boot with iommu=off to "
          "run without DMA protection",
          init_status);
    }
  }
  return init_status;
}

/* ---- The PCI driver ---------------------------------------------------------- */

static int probe(struct pci_function *f, const struct pci_match *match) {
  int err = iommu_init();
  if (err) return err;
  for (unsigned i = 0; i < ivrs.iommu_count; i++)
    if (functions[i] == f) return 0;
  if (iommu_mode() != IOMMU_MODE_OFF || ivrs.iommu_count)
    log_warn("IOMMU function %04x:%02x:%02x.%u is not described by the IVRS: left alone",
             f->segment, f->bus, f->device, f->function);
  return -ENODEV;
}

/* Class 08h (base system peripheral), subclass 06h (IOMMU): PCI Code and
 * ID Assignment 1.11, 1.9; QEMU's amd-iommu and AMD's IOMMUs use it. */
static const struct pci_match iommu_matches[] = {
    {0x1022, PCI_ANY_ID, 0x080600, 0xffff00},
    {0},
};

PCI_DRIVER(iommu_pci_driver) = {
    .name = "amd-iommu",
    .matches = iommu_matches,
    .probe_order = PCI_ORDER_IOMMU,
    .probe = probe,
};
