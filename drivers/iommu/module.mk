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
	    $(BUILD)/test.efi iommu=passthrough test_expect_iommu=passthrough 'test=$(or $(TESTS),iommu_*)'

# One more boot with 256 MiB of RAM, all of it within the edu's 28-bit DMA
# reach: the policy tests (tests/image/iommu_policy_test.c) then check by
# real DMA that a device given all the application's memory reaches none
# of the kernel's (page tables, stacks, text, data, IOMMU tables, memory
# taken later). In the 1 GiB boots most of the kernel lies out of the
# edu's reach and is checked in the IOMMU's tables only.
TEST_SUITES += image-iommu-policy
.PHONY: suite-image-iommu-policy
suite-image-iommu-policy: $(BUILD)/test.efi
	$(Q)qemu/boot.sh --tests $(if $(TESTS),--allow-empty) --smp 2 --memory 256M \
	    --timeout $(IMAGE_TEST_TIMEOUT) --log $(BUILD)/test-logs/image-iommu-policy.serial.log \
	    $(BUILD)/test.efi test_expect_iommu=on 'test=$(or $(TESTS),iommu_*$(comma)kmem_*)'

# libFuzzer target for the IVRS parser (mk/fuzz.mk), seeded with the
# tables recorded from QEMU.
FUZZ_SRCS_fuzz_ivrs  := drivers/iommu/ivrs.c tests/fuzz/fuzz_plat.c
FUZZ_SEEDS_fuzz_ivrs := $(wildcard tests/data/iommu/*.bin)
