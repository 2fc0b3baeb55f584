# Suite rocm-clients: ROCr's binary interface on the host. Debian's own
# clients of ROCr, unmodified (mk/deps.mk installs them), run on
# libhsa-runtime64.so.1 of this build and the virtual APU by LD_LIBRARY_PATH
# alone (tests/rocm_clients/run.sh), and the library's interface is checked
# (tests/rocm_clients/check_library.sh):
#   - HIP 5.2 (libamdhip64-5): programs built as the HIP documentation
#     builds them, clang++-19 -x hip --offload-arch=gfx902 --hip-path=/usr,
#     as code object v4 (the one version clang 19 writes that HIP 5.2's
#     comgr reads: v5 and v6 fail with "COMGR failed to get code object ISA
#     name", hipErrorInvalidDeviceFunction);
#   - LLVM 19's OpenMP offload (libomp-19-dev), clang-19 -fopenmp
#     --offload-arch=gfx902 (its AMDGPU plugin opens libhsa-runtime64.so);
#   - ROCr programs of tests/programs built with Debian's ROCr headers and
#     linked against Debian's libhsa-runtime64.so.1 (ROCM_DEBIAN_PROGRAMS:
#     those that use no hsa-metal extension).
ROCM_CLIENTS_DIR     := $(BUILD)/rocm-clients
ROCM_DEVICE_LIB_FLAG := --rocm-device-lib-path=$(ROCM_DEVICE_LIBS)
ROCM_HIP_FLAGS       := -x hip --offload-arch=$(PROGRAM_KERNEL_MCPU) --hip-path=/usr $(ROCM_DEVICE_LIB_FLAG) \
                        -mcode-object-version=4 -O2 -Wall
ROCM_OPENMP_FLAGS    := -fopenmp --offload-arch=$(PROGRAM_KERNEL_MCPU) $(ROCM_DEVICE_LIB_FLAG) -O2 -Wall
ROCM_HIP_PROGRAMS    := hip_features hip_fault hip_host_unregister hip_printf
ROCM_DEBIAN_PROGRAMS := hip_style hsa_sample_regions hsa_vector_copy
DEBIAN_ROCR          := /usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1

$(ROCM_CLIENTS_DIR)/hip_%: tests/rocm_clients/hip_%.hip
	@mkdir -p $(dir $@)
	@echo "HIPCC   $@"
	$(Q)clang++-19 $(ROCM_HIP_FLAGS) $< -o $@ -lamdhip64

# The code object hip_features loads with hipModuleLoad: device code alone.
$(ROCM_CLIENTS_DIR)/hip_module_kernels.co: tests/rocm_clients/hip_module_kernels.hip
	@mkdir -p $(dir $@)
	@echo "HIPCC   $@"
	$(Q)clang++-19 $(ROCM_HIP_FLAGS) --cuda-device-only --no-gpu-bundle-output -c $< -o $@

$(ROCM_CLIENTS_DIR)/openmp_offload: tests/rocm_clients/openmp_offload.c
	@mkdir -p $(dir $@)
	@echo "OMPCC   $@"
	$(Q)clang-19 $(ROCM_OPENMP_FLAGS) $< -o $@

# Debian's headers (libhsa-runtime-dev), not ours: no -Ihsa/include.
$(ROCM_CLIENTS_DIR)/debian/%: tests/programs/%.c support/program.h
	@mkdir -p $(dir $@)
	@echo "CC      $@ (against Debian's ROCr)"
	$(Q)$(HOST_CC) -std=gnu11 -O2 -Wall -I. $< $(DEBIAN_ROCR) -lm -o $@

ROCM_CLIENTS := $(addprefix $(ROCM_CLIENTS_DIR)/,$(ROCM_HIP_PROGRAMS) hip_module_kernels.co openmp_offload) \
                $(addprefix $(ROCM_CLIENTS_DIR)/debian/,$(ROCM_DEBIAN_PROGRAMS))

.PHONY: rocm-clients suite-rocm-clients
rocm-clients: $(ROCM_CLIENTS)
TEST_SUITES += rocm-clients
TEST_BUILD_DEPS += $(ROCM_CLIENTS) $(HOST_RUNTIME_SO) $(HOST_RUNTIME_SO:.1=) $(HOST_RUNTIME_LIB)
# host-lib: with the synthetic firmware the library finds by default.
suite-rocm-clients: $(ROCM_CLIENTS) host-lib $(PROGRAM_KERNELS)
	$(Q)status=0; tests/rocm_clients/check_library.sh $(HOST_DIR)/lib $(HOST_RUNTIME_API) \
	    $(HOST_RUNTIME_ALL_OBJ) $(ROCM_CLIENTS_DIR)/library || status=1; \
	tests/rocm_clients/run.sh $(ROCM_CLIENTS_DIR) $(abspath $(HOST_DIR)/lib) \
	    $(abspath $(PROGRAM_KERNELS_DIR)) $(ROCM_DEBIAN_PROGRAMS) || status=1; \
	exit $$status
