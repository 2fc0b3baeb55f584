# tests/programs/: programs written for ROCr's API (rules: mk/programs.mk).
# On the host they are built exactly as an application is; in the boot
# image they are linked into the test image, each main() renamed
# hsa_program_<name>_main and called by a generated test of that name.
HSA_PROGRAMS := $(sort $(wildcard tests/programs/*.c))
HSA_PROGRAMS_IMAGE_TESTS := $(BUILD)/programs/image_tests.c
TESTS_IMAGE_SRCS += $(HSA_PROGRAMS) $(HSA_PROGRAMS_IMAGE_TESTS)
$(BUILD)/efi/obj/tests/programs/%.o: EFI_EXTRA_CPPFLAGS += -Dmain=hsa_program_$(notdir $*)_main
