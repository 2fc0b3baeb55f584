# drivers/iommu: the AMD IOMMU (AMD-Vi) driver.
# IOMMU_PORTABLE_SRCS run on both platforms (also built into the host unit
# tests against a register model); IOMMU_SRCS is the image-only glue to
# kernel/ (ACPI, PCI, MSI, MMIO, errata, boot option).
IOMMU_PORTABLE_SRCS := $(addprefix drivers/iommu/,ivrs.c io_pgtable.c iommu_memory.c \
                         iommu_unit.c iommu_cmd.c iommu_event.c iommu_domain.c iommu_system.c)
IOMMU_SRCS := drivers/iommu/iommu_efi.c

# One more boot of the test image, with iommu=passthrough: the IOMMU image
# tests (tests/image/iommu_*.c) then check that every DMA lands. The
# image-smp1/smp4 suites run them with the IOMMU on.
TEST_SUITES += image-iommu-passthrough
.PHONY: suite-image-iommu-passthrough
suite-image-iommu-passthrough: $(BUILD)/test.efi
	$(Q)qemu/boot.sh --tests $(if $(TESTS),--allow-empty) --smp 1 --timeout $(IMAGE_TEST_TIMEOUT) \
	    --log $(BUILD)/test-logs/image-iommu-passthrough.serial.log \
	    $(BUILD)/test.efi iommu=passthrough 'test=$(or $(TESTS),iommu_*)'

# libFuzzer target for the IVRS parser (mk/fuzz.mk), seeded with the
# tables recorded from QEMU.
FUZZ_SRCS_fuzz_ivrs  := drivers/iommu/ivrs.c tests/fuzz/fuzz_plat.c
FUZZ_SEEDS_fuzz_ivrs := $(wildcard tests/data/iommu/*.bin)
