# tests/programs/: programs written for ROCr's API, built by suite
# hsa-programs exactly as an application would build against the host
# library (tests/programs/run.sh) and run with the folder of their code
# objects (mk/kernels.mk, PROGRAM_KERNELS); check_api.sh first checks that
# every function the public headers declare is in the library.
HSA_PROGRAMS := $(sort $(wildcard tests/programs/*.c))
HSA_PROGRAMS_LIB = $(BUILD)/host/lib/libhsa-runtime64.a

TEST_SUITES += hsa-programs
TEST_BUILD_DEPS += $(BUILD)/host/lib/libhsa-runtime64.a

.PHONY: suite-hsa-programs
suite-hsa-programs: $(BUILD)/host/lib/libhsa-runtime64.a program-kernels
	$(Q)status=0; tests/programs/check_api.sh $(HSA_PROGRAMS_LIB) || status=1; \
	tests/programs/run.sh $(HSA_PROGRAMS_LIB) $(BUILD)/programs $(abspath $(PROGRAM_KERNELS_DIR)) \
	    $(HSA_PROGRAMS) || status=1; \
	exit $$status
