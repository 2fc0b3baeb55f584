# drivers/iommu: the AMD IOMMU (AMD-Vi) driver.
# IOMMU_PORTABLE_SRCS run on both platforms (also built into the host unit
# tests); IOMMU_SRCS are the image-only glue to kernel/ (ACPI, PCI, MSI).
IOMMU_PORTABLE_SRCS := $(addprefix drivers/iommu/,ivrs.c io_pgtable.c iommu_memory.c \
                         iommu_unit.c iommu_cmd.c iommu_event.c iommu_domain.c iommu_system.c)
IOMMU_SRCS := $(IOMMU_PORTABLE_SRCS)
