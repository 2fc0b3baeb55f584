# drivers/amdgpu: the GPU driver. AMDGPU_SRCS go into the boot image,
# AMDGPU_HOST_SRCS into the host library; both share the portable files.
AMDGPU_PORTABLE_SRCS := drivers/amdgpu/amdgpu_chip.c drivers/amdgpu/amdgpu_reg.c \
    drivers/amdgpu/amdgpu_soc15.c drivers/amdgpu/amdgpu_discovery.c drivers/amdgpu/amdgpu_psp.c \
    drivers/amdgpu/amdgpu_smu.c drivers/amdgpu/amdgpu_sdma.c drivers/amdgpu/amdgpu_nbio.c \
    drivers/amdgpu/amdgpu_gmc.c \
    drivers/amdgpu/amdgpu_vm.c drivers/amdgpu/amdgpu_ih.c drivers/amdgpu/amdgpu_gfx.c \
    drivers/amdgpu/amdgpu_local.c drivers/amdgpu/amdgpu_device.c drivers/amdgpu/amdgpu_bus_vapu.c \
    drivers/amdgpu/amdgpu_cp.c drivers/amdgpu/amdgpu_mqd.c drivers/amdgpu/amdgpu_queue.c \
    drivers/amdgpu/amdgpu_queue_sched.c drivers/amdgpu/amdgpu_hqd.c \
    drivers/amdgpu/amdgpu_ucode.c drivers/amdgpu/amdgpu_firmware.c drivers/amdgpu/amdgpu_golden.c \
    drivers/amdgpu/amdgpu_rlc.c drivers/amdgpu/amdgpu_trace.c
# The image gets the driver with its platform files: the PCI probe and the
# vapu= option, the PCI binding, the RAM map from the firmware's memory
# map, the model's MSI as an IPI.
AMDGPU_SRCS      := $(AMDGPU_PORTABLE_SRCS) drivers/amdgpu/amdgpu_probe_efi.c \
    drivers/amdgpu/amdgpu_bus_pci.c drivers/amdgpu/amdgpu_ram_efi.c drivers/amdgpu/amdgpu_msi_efi.c \
    drivers/amdgpu/amdgpu_vapu_efi.c
# An image without the virtual APU (make VAPU=no, mk/image.mk) has neither
# the model's binding nor its interrupt path, and refuses vapu=.
AMDGPU_NOVAPU_SRCS := $(filter-out drivers/amdgpu/amdgpu_bus_vapu.c drivers/amdgpu/amdgpu_msi_efi.c \
    drivers/amdgpu/amdgpu_vapu_efi.c,$(AMDGPU_SRCS)) drivers/amdgpu/amdgpu_vapu_none_efi.c
AMDGPU_HOST_SRCS := $(AMDGPU_PORTABLE_SRCS) drivers/amdgpu/amdgpu_ram_host.c \
    drivers/amdgpu/amdgpu_msi_host.c drivers/amdgpu/amdgpu_probe_host.c

# The boot image with the virtual APU, the whole driver in QEMU on every
# chip: for each chip, a boot with
# vapu=<chip> whose log must show every block of the bring-up, the compute
# VMIDs' page tables mapping the address space and the MEC running; raven
# runs all the driver's and model's tests (its corpus runs in
# image-gpu-corpus, mk/gpu-agent.mk), every other chip the driver's init,
# the GPU agent's tests, the whole corpus for its processor and the fault
# tests (the runtime on the driver's queues).
AMDGPU_IMAGE_CHIPS := raven picasso raven2 renoir
AMDGPU_IMAGE_TESTS_raven := amdgpu_*,vapu_model_*,gpu_agent_*
AMDGPU_IMAGE_TESTS_OTHER := amdgpu_init_*,amdgpu_firmware_reaches_*,gpu_agent_*,gpu_corpus_*,gpu_fault_*
AMDGPU_IMAGE_LOG_CHECKS := --expect-log 'soc15 init_sw done' --expect-log 'psp init_hw done' \
    --expect-log 'smu init_hw done' --expect-log 'ucode init_hw done' --expect-log 'nbio init_hw done' \
    --expect-log 'gmc init_sw done' --expect-log 'gmc init_hw done' --expect-log 'ih init_hw done' \
    --expect-log 'psp-ring init_hw done' --expect-log 'sdma init_hw done' --expect-log 'gfx init_hw done' \
    --expect-log 'rlc init_hw done' --expect-log 'cp init_hw done' \
    --expect-log 'page-table pages map RAM at CPU addresses' --expect-log 'MEC running'
TEST_SUITES += $(addprefix image-vapu-,$(AMDGPU_IMAGE_CHIPS))
.PHONY: $(addprefix suite-image-vapu-,$(AMDGPU_IMAGE_CHIPS))
$(addprefix suite-image-vapu-,$(AMDGPU_IMAGE_CHIPS)): suite-image-vapu-%: $(BUILD)/test.efi $(IMAGE_TEST_GEN_FILES)
	$(Q)qemu/boot.sh --tests $(if $(TESTS),--allow-empty) --smp 4 --timeout $(IMAGE_TEST_TIMEOUT) \
	    --log $(BUILD)/test-logs/image-vapu-$*.serial.log \
	    $(foreach t,$(IMAGE_TEST_ESP_TREES),--tree $(t)) --add kernels=$(KERNELS_DIR) \
	    $(AMDGPU_IMAGE_LOG_CHECKS) --expect-log '$* up in' \
	    $(BUILD)/test.efi vapu=$* $(GPU_LOCAL_POOL_$*) test_expect_iommu=on \
	    'test=$(or $(TESTS),$(or $(AMDGPU_IMAGE_TESTS_$*),$(AMDGPU_IMAGE_TESTS_OTHER)))'

# Synthetic firmware with the real header formats (never real firmware, never
# committed): generated into the test ESP tree, where the image finds it under
# \amdgpu\ and the host tests through HSAR_FILES (mk/test.mk), with the
# failure cases; and, without them, into the tree `make run` adds to a QEMU
# boot's ESP copy (the virtual APU needs firmware as a board does).
AMDGPU_TEST_FIRMWARE := $(BUILD)/test-esp/amdgpu/raven_mec.bin
$(AMDGPU_TEST_FIRMWARE): tools/make-firmware.py
	$(Q)python3 $< --failure-cases $(BUILD)/test-esp
AMDGPU_RUN_FIRMWARE := $(BUILD)/vapu-firmware/amdgpu/raven_mec.bin
$(AMDGPU_RUN_FIRMWARE): tools/make-firmware.py
	$(Q)python3 $< $(BUILD)/vapu-firmware
IMAGE_TEST_GEN_FILES += $(AMDGPU_TEST_FIRMWARE)
TEST_BUILD_DEPS += $(AMDGPU_TEST_FIRMWARE)
RUN_ESP_TREES += $(BUILD)/vapu-firmware
suite-host-unit suite-gpu-chips $(addprefix suite-image-vapu-,$(AMDGPU_IMAGE_CHIPS)): $(AMDGPU_TEST_FIRMWARE)
run: $(AMDGPU_RUN_FIRMWARE)

# The register trace for a board owner (amdgpu_trace=on) and the tool that
# diffs it with Linux's: tested on the virtual APU's own trace.
TEST_SUITES += amdgpu-trace
.PHONY: suite-amdgpu-trace
suite-amdgpu-trace: $(HOST_UNIT_TESTS) $(AMDGPU_TEST_FIRMWARE)
	$(Q)HSAR_FILES=$(abspath $(BUILD)/test-esp) tests/amdgpu/trace_diff_test.sh $(HOST_UNIT_TESTS)
