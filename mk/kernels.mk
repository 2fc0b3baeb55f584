# GPU kernels, OpenCL C (*.cl) and C (*.c with __attribute__((amdgpu_kernel))),
# built by clang-19 into AMDGPU code objects:
#
#   $(BUILD)/kernels/<mcpu>/<name>.<opt>.v<cov>.co   for every tests/kernels/<name>.{cl,c}
#
# at every optimisation level in GPU_OPTS and code object version in GPU_COVS.
# Always the versioned linker: the unversioned ld.lld may be another LLVM.
GPU_MCPUS        ?= gfx902
GPU_OPTS         ?= O0 O2 O3
GPU_COVS         ?= 4 5
ROCM_DEVICE_LIBS := /usr/lib/x86_64-linux-gnu/amdgcn/bitcode
KERNELS_DIR      := $(BUILD)/kernels

GPU_CFLAGS_cl := -x cl -cl-std=CL2.0 --rocm-device-lib-path=$(ROCM_DEVICE_LIBS)
GPU_CFLAGS_c  := -x c -std=c11 -ffreestanding -nogpulib
GPU_CFLAGS    := -target amdgcn-amd-amdhsa -Wall -Werror=implicit-function-declaration

KERNEL_SRCS_CORPUS := $(sort $(wildcard tests/kernels/*.cl tests/kernels/*.c))
kernel_name = $(basename $(notdir $(1)))

# $(call gpu_kernel_rule,source,mcpu,opt,cov)
define gpu_kernel_rule
$(KERNELS_DIR)/$(2)/$(call kernel_name,$(1)).$(3).v$(4).co: $(1)
	@mkdir -p $$(dir $$@)
	@echo "GPUCC   $$@"
	$(Q)$(GPU_CC) $(GPU_CFLAGS) $$(GPU_CFLAGS_$(patsubst .%,%,$(suffix $(1)))) -mcpu=$(2) \
	    -mcode-object-version=$(4) -$(3) -c $$< -o $$@.o
	$(Q)$(GPU_LD) -shared $$@.o -o $$@ && rm -f $$@.o
endef

KERNEL_CORPUS :=
$(foreach src,$(KERNEL_SRCS_CORPUS),$(foreach m,$(GPU_MCPUS),$(foreach o,$(GPU_OPTS),$(foreach v,$(GPU_COVS),\
  $(eval $(call gpu_kernel_rule,$(src),$(m),$(o),$(v)))\
  $(eval KERNEL_CORPUS += $(KERNELS_DIR)/$(m)/$(call kernel_name,$(src)).$(o).v$(v).co)))))

.PHONY: kernels
kernels: $(KERNEL_CORPUS)

# Offload bundles as HIP makes them: HIP device-only compilation of
# tests/kernels/*.hip for several targets gives an uncompressed clang offload
# bundle (clang runs clang-offload-bundler-19 from clang-tools-19). Code
# object v6 so that a generic target (gfx9-generic) is in it too; clang warns
# that v6 is still in development.
HIP_BUNDLE_ARCHS := gfx902 gfx90c:xnack- gfx9-generic
HIP_BUNDLES := $(patsubst tests/kernels/%.hip,$(KERNELS_DIR)/bundles/%.hipfb,\
                 $(sort $(wildcard tests/kernels/*.hip)))

$(KERNELS_DIR)/bundles/%.hipfb: tests/kernels/%.hip
	@mkdir -p $(dir $@)
	@echo "HIPFB   $@"
	$(Q)$(GPU_CC) -x hip $(foreach a,$(HIP_BUNDLE_ARCHS),--offload-arch=$(a)) \
	    -mcode-object-version=6 --cuda-device-only -nogpuinc -nogpulib -O2 -c $< -o $@

kernels: $(HIP_BUNDLES)

# The loader tests read the corpus and the bundles from the build folder:
# tell their objects where it is (absolute, whatever the working directory).
LOADER_TEST_OBJS := $(call host_asan_obj,$(wildcard tests/host/loader_*.c))
$(LOADER_TEST_OBJS): HOST_CPPFLAGS += -DLOADER_TEST_KERNELS_DIR='"$(abspath $(KERNELS_DIR))"'
TEST_BUILD_DEPS += $(KERNEL_CORPUS) $(HIP_BUNDLES)

