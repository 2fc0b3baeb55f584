/* amdgpu_probe_efi.c - the boot image's GPUs: the PCI functions of the
 * supported APUs (claimed by the PCI driver registry at boot, brought up by
 * amdgpu_init), and the virtual APU when the boot option vapu=<chip> asks
 * for it (QEMU has no model of these GPUs; amdgpu_vapu_efi.c). */
#define LOG_TAG "amdgpu"
#include <errno.h>

#include "drivers/amdgpu/amdgpu_efi.h"
#include "drivers/amdgpu/amdgpu_vapu.h"
#include "lib/plat.h"


static struct pci_function *claimed[AMDGPU_MAX_DEVICES];
static unsigned claimed_count;

/* Display controllers of AMD/ATI (class 03h, PCI Code and ID Assignment
 * 1.11, 1.4); the device ID decides (amdgpu_chip.c). */
static const struct pci_match gpu_matches[] = {
    {0x1002, PCI_ANY_ID, 0x030000, 0xff0000},
    {0},
};

static int claim(struct pci_function *f, const struct pci_match *match) {
  if (!amdgpu_pci_id_supported(f->vendor_id, f->device_id)) return -ENODEV;
  if (claimed_count == AMDGPU_MAX_DEVICES) return -ENOSPC;
  claimed[claimed_count++] = f;
  return 0;
}

PCI_DRIVER(amdgpu_pci_driver) = {
    .name = "amdgpu",
    .matches = gpu_matches,
    .probe_order = PCI_ORDER_DEVICE,
    .probe = claim,
};

static int bring_up_pci(struct pci_function *f) {
  struct amdgpu_device *dev = plat_protected_alloc(sizeof *dev);
  if (!dev) return -ENOMEM;
  int r = amdgpu_bus_pci_attach(dev, f);
  if (!r) r = amdgpu_device_bring_up(dev);
  if (!r) r = amdgpu_device_register(dev);
  if (r) {
    char name[16];
    pci_function_name(f, name);
    log_error("GPU %s (%04x:%04x) not started (%d)", name, f->vendor_id, f->device_id, r);
    if (dev->bus) {
      amdgpu_device_remove(dev);
    } else {
      plat_protected_free(dev);
    }
  }
  return r;
}

int amdgpu_platform_probe(void) {
  int first_error = 0;
  for (unsigned i = 0; i < claimed_count; i++) {
    int r = bring_up_pci(claimed[i]);
    if (r && !first_error) first_error = r;
  }
  bool asked = false;
  int r = amdgpu_vapu_option_probe(&asked);
  if (r && !first_error) first_error = r;
  if (!claimed_count && !asked) log_info("no supported GPU on the PCI bus, no vapu= option: no GPU");
  return first_error;
}
