# drivers/iommu: the AMD IOMMU (AMD-Vi) driver.
# IOMMU_PORTABLE_SRCS run on both platforms (also built into the host unit
# tests); IOMMU_SRCS are the image-only glue to kernel/ (ACPI, PCI, MSI).
IOMMU_PORTABLE_SRCS := drivers/iommu/ivrs.c drivers/iommu/io_pgtable.c
IOMMU_SRCS := $(IOMMU_PORTABLE_SRCS)
