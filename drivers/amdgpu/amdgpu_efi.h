/*
 * amdgpu_efi.h - the driver's image-only glue: the PCI binding of a board's
 * GPU (amdgpu_bus_pci.c) and the functions the PCI probe found
 * (amdgpu_probe_efi.c).
 */
#ifndef DRIVERS_AMDGPU_AMDGPU_EFI_H
#define DRIVERS_AMDGPU_AMDGPU_EFI_H

#include "drivers/amdgpu/amdgpu_dev.h"
#include "drivers/iommu/iommu.h"
#include "kernel/pci.h"

/* Binds `dev` to PCI function `f`: configuration space through ECAM,
 * BAR5 registers and BAR0/BAR2 mapped uncached, DMA through the IOMMU
 * (every RAM range but the kernel's protected memory), MSI through
 * kernel/msi.h. 0 or a negative errno (logged). */
int amdgpu_bus_pci_attach(struct amdgpu_device *dev, struct pci_function *f);

/* The GPU's IOMMU domain: every RAM range at its own address, so the GPU
 * reaches the application's memory (the compute VMIDs map it all), and
 * never the kernel's protected memory (kernel/kmem.h), where the driver's
 * and the model's own state lives (plat_protected_alloc). 0 or a negative
 * errno. */
int amdgpu_pci_map_ram_for_dma(struct iommu_device *iommu);

/* The boot option vapu=<chip>: the virtual APU of that chip added as a GPU
 * (amdgpu_vapu_efi.c), or, in an image built without the model (make
 * VAPU=no, amdgpu_vapu_none_efi.c), refused. *asked says whether the
 * option was given. 0 when nothing was asked or the GPU was added, else a
 * negative errno (logged). */
int amdgpu_vapu_option_probe(bool *asked);

#endif
