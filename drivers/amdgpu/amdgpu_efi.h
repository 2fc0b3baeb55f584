/*
 * amdgpu_efi.h - the driver's image-only glue: the PCI binding of a board's
 * GPU (amdgpu_bus_pci.c) and the functions the PCI probe found
 * (amdgpu_probe_efi.c).
 */
#ifndef DRIVERS_AMDGPU_AMDGPU_EFI_H
#define DRIVERS_AMDGPU_AMDGPU_EFI_H

#include "drivers/amdgpu/amdgpu_dev.h"
#include "kernel/pci.h"

/* Binds `dev` to PCI function `f`: configuration space through ECAM,
 * BAR5 registers and BAR0/BAR2 mapped uncached, DMA through the IOMMU
 * (every RAM range but the kernel's protected memory), MSI through
 * kernel/msi.h. 0 or a negative errno (logged). */
int amdgpu_bus_pci_attach(struct amdgpu_device *dev, struct pci_function *f);

#endif
