# GPU kernels, OpenCL C (*.cl) and C (*.c with __attribute__((amdgpu_kernel))),
# built by clang-19 into AMDGPU code objects (the OpenCL C ones through
# tools/hsacc, whose files hold them; HSACC_CORPUS_SRCS):
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

# The OpenCL C kernels tools/hsacc builds (below) for every agent: their
# GPU code objects are the GPU entries of its files, the same bytes clang
# and ld.lld give with the same flags. Kernels that call math, integer or
# atomic built-ins wait for the built-in library (cl/builtins/): without
# it hsacc refuses them by name, and clang builds their GPU code alone.
HSACC_CORPUS_NEEDS_BUILTINS := float_math half_math histogram histogram_local int64_ops
HSACC_CORPUS_SRCS := $(filter-out $(if $(CL_BUILTIN_SRCS),,$(patsubst %,tests/kernels/%.cl,\
                       $(HSACC_CORPUS_NEEDS_BUILTINS))),$(filter %.cl,$(KERNEL_SRCS_CORPUS)))

# $(call gpu_kernel_rule,source,mcpu,opt,cov)
define gpu_kernel_rule
$(if $(filter $(1),$(HSACC_CORPUS_SRCS)),$(call gpu_kernel_from_hsacc,$(1),$(2),$(3),$(4)),\
  $(call gpu_kernel_clang,$(1),$(2),$(3),$(4)))
endef
define gpu_kernel_clang
$(KERNELS_DIR)/$(2)/$(call kernel_name,$(1)).$(3).v$(4).co: $(1)
	@mkdir -p $$(dir $$@)
	@echo "GPUCC   $$@"
	$(Q)$(GPU_CC) $(GPU_CFLAGS) $$(GPU_CFLAGS_$(patsubst .%,%,$(suffix $(1)))) -mcpu=$(2) \
	    -mcode-object-version=$(4) -$(3) -c $$< -o $$@.o
	$(Q)$(GPU_LD) -shared $$@.o -o $$@ && rm -f $$@.o
endef
define gpu_kernel_from_hsacc
$(KERNELS_DIR)/$(2)/$(call kernel_name,$(1)).$(3).v$(4).co: $(KERNELS_DIR)/hsacc/$(call kernel_name,$(1)).$(3).v$(4).hsaco
	@mkdir -p $$(dir $$@)
	@echo "UNBUNDLE $$@"
	$(Q)clang-offload-bundler-19 -unbundle -type=bc -targets=hipv4-amdgcn-amd-amdhsa--$(2) \
	    -input=$$< -output=$$@
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


# ---- One source for every agent: tools/hsacc ---------------------------------
# The OpenCL C side of the CPU agents (cl/module.mk), prebuilt as LLVM
# bitcode for tools/hsacc (HSACC_LIBDIR), which links it with each kernel
# file's own: the work-item library, compiled as C for x86-64 (hidden
# visibility: internal once linked, one copy per loaded instance), and the
# built-in library $(CL_LIB_DIR)/builtins.bc when there is one
# (CL_BUILTIN_SRCS; its rules are the built-in library's own). Not
# -ffreestanding: see CL_BUILTIN_BC.
CL_LIB_DIR   := $(BUILD)/cl
CL_CPU_FLAGS := -target x86_64-unknown-linux-gnu -fPIC -O2 -fvisibility=hidden -mno-red-zone \
                -Wall -Werror -I.

$(CL_LIB_DIR)/hsacl-workitem.bc: $(CL_WORKITEM_SRCS) cl/cpu_abi.h
	@mkdir -p $(dir $@)
	@echo "CPUCC   $@"
	$(Q)$(GPU_CC) $(CL_CPU_FLAGS) -emit-llvm -c $(CL_WORKITEM_SRCS) -o $@

# tools/hsacc's pass that cuts kernels at their work-group barriers
# (HSACL_BARRIERS), a host program on LLVM's C interface (llvm-19-dev).
HSACL_BARRIERS := $(BUILD)/tools/hsacl-barriers
$(HSACL_BARRIERS): tools/hsacl-barriers.c
	@mkdir -p $(dir $@)
	@echo "HOSTCC  $@"
	$(Q)gcc -O2 -Wall -Wextra -Werror $(shell llvm-config-19 --cflags) $< -o $@ \
	    $(shell llvm-config-19 --ldflags --libs)

HSACC_LIBS := $(CL_LIB_DIR)/hsacl-workitem.bc $(if $(CL_BUILTIN_SRCS),$(CL_BUILTIN_BC))
HSACC_ENV  := HSACC_LIBDIR=$(abspath $(CL_LIB_DIR)) HSACL_BARRIERS=$(abspath $(HSACL_BARRIERS))
HSACC      := $(HSACC_ENV) tools/hsacc
HSACC_DEPS := tools/hsacc $(HSACC_LIBS) $(HSACL_BARRIERS)

# tools/hsacc's command line, output and refusals (tests/hsacc/run.sh), with
# the libraries and the barrier pass built here, as the corpus uses them; the
# cases about building them from the repository unset HSACC_LIBDIR and
# HSACL_BARRIERS themselves.
TEST_SUITES += hsacc
.PHONY: suite-hsacc
suite-hsacc: $(HSACC_DEPS)
	$(Q)$(HSACC_ENV) tests/hsacc/run.sh '$(or $(TESTS),*)'

# The OpenCL C corpus through tools/hsacc, every variant (HSACC_CORPUS_SRCS,
# above):
#   $(KERNELS_DIR)/hsacc/<name>.<opt>.v<cov>.hsaco
define hsacc_corpus_rule
$(KERNELS_DIR)/hsacc/$(call kernel_name,$(1)).$(2).v$(3).hsaco: $(1) $(HSACC_DEPS)
	@mkdir -p $$(dir $$@)
	@echo "HSACC   $$@"
	$(Q)$(HSACC) -Wall -Werror=implicit-function-declaration -$(2) -mcode-object-version=$(3) -o $$@ $$<
HSACC_CORPUS += $(KERNELS_DIR)/hsacc/$(call kernel_name,$(1)).$(2).v$(3).hsaco
endef
HSACC_CORPUS :=
$(foreach src,$(HSACC_CORPUS_SRCS),$(foreach o,$(GPU_OPTS),$(foreach v,$(GPU_COVS),\
  $(eval $(call hsacc_corpus_rule,$(src),$(o),$(v))))))

# The CPU agent tests' own kernels (tests/data/cl/*.cl: barrier placements,
# work-item functions, limits), -O2, code object v5:
#   $(KERNELS_DIR)/hsacc-tests/<name>.hsaco
HSACC_TEST_KERNELS := $(patsubst tests/data/cl/%.cl,$(KERNELS_DIR)/hsacc-tests/%.hsaco,\
                        $(wildcard tests/data/cl/*.cl))
$(KERNELS_DIR)/hsacc-tests/%.hsaco: tests/data/cl/%.cl $(HSACC_DEPS)
	@mkdir -p $(dir $@)
	@echo "HSACC   $@"
	$(Q)$(HSACC) -O2 -o $@ $<

.PHONY: hsacc-kernels
hsacc-kernels: $(HSACC_CORPUS) $(HSACC_TEST_KERNELS)
kernels: hsacc-kernels
TEST_BUILD_DEPS += $(HSACC_CORPUS) $(HSACC_TEST_KERNELS)

# The OpenCL C tests on the CPU agents (tests/common/cl_*.c), and the init
# cycle's dispatch (tests/common/hsa_init_test.c), read them from the build
# folder on the host, from \data\cl-kernels on the image tests' ESP (a copy
# in the generated tree every image test suite carries).
CL_TEST_SRCS := $(wildcard tests/common/cl_*.c) tests/common/hsa_init_test.c
# Which corpus kernels wait for the built-in library: a generated header,
# rewritten only when its line changes, so that the tests are rebuilt when
# the library comes or goes.
CL_CORPUS_WAITING := " $(if $(CL_BUILTIN_SRCS),,$(HSACC_CORPUS_NEEDS_BUILTINS)) "
CL_WAITING_H := $(BUILD)/gen/cl_corpus_waiting.h
.PHONY: cl-corpus-waiting
$(CL_WAITING_H): cl-corpus-waiting
	@mkdir -p $(dir $@)
	$(Q)echo '#define CL_CORPUS_WAITING $(CL_CORPUS_WAITING)' > $@.tmp && \
	  { cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@; }
$(call host_asan_obj,$(CL_TEST_SRCS)) $(call host_obj,$(CL_TEST_SRCS)) $(call efi_obj,$(CL_TEST_SRCS)): \
  $(CL_WAITING_H)
$(call host_asan_obj,$(CL_TEST_SRCS)) $(call host_obj,$(CL_TEST_SRCS)): \
  HOST_CPPFLAGS += -DCL_TEST_KERNELS_DIR='"$(abspath $(KERNELS_DIR))"' -I$(BUILD)/gen
$(call efi_obj,$(CL_TEST_SRCS)): EFI_EXTRA_CPPFLAGS += -DCL_TEST_KERNELS_DIR='"/data/cl-kernels"' \
                                                  -I$(BUILD)/gen
$(HOST_UNIT_TESTS): | $(HSACC_CORPUS) $(HSACC_TEST_KERNELS)
CL_IMAGE_KERNELS := $(patsubst $(KERNELS_DIR)/%,$(IMAGE_TEST_GEN)/data/cl-kernels/%,$(HSACC_CORPUS) $(HSACC_TEST_KERNELS))
$(IMAGE_TEST_GEN)/data/cl-kernels/%: $(KERNELS_DIR)/%
	@mkdir -p $(dir $@)
	$(Q)cp $< $@
IMAGE_TEST_GEN_FILES += $(CL_IMAGE_KERNELS)
TEST_BUILD_DEPS += $(CL_IMAGE_KERNELS)
suite-image-smp1 suite-image-smp4 suite-image-novapu suite-image-gpu-corpus: $(CL_IMAGE_KERNELS)

# The image's table of the C library functions CPU code may import
# (kernel/code.c, plat_import): what the OpenCL C libraries leave
# undefined, less what they define themselves and the runtime's own hook,
# plus the memory functions clang emits calls to for any code and the
# string functions a kernel may call itself (memcmp, strlen). Read from the
# built-in library's machine code, not its bitcode: there rintf, floorf
# and the like are still LLVM intrinsics, calls only once compiled.
CL_EXPORTS_INC := $(BUILD)/gen/kernel_exports.inc
CL_EXPORTS_ALWAYS := memcpy memmove memset memcmp strlen
CL_EXPORTS_FROM := $(CL_LIB_DIR)/hsacl-workitem.bc $(if $(CL_BUILTIN_SRCS),$(CL_BUILTIN_OBJ))
$(CL_EXPORTS_INC): $(CL_EXPORTS_FROM) mk/kernels.mk
	@mkdir -p $(dir $@)
	@echo "GEN     $@"
	$(Q)llvm-nm-19 --defined-only --format=just-symbols $(CL_EXPORTS_FROM) | sort -u > $@.defined
	$(Q){ llvm-nm-19 -u --format=just-symbols $(CL_EXPORTS_FROM); printf '%s\n' $(CL_EXPORTS_ALWAYS); } | \
	  grep -v -x -e '' -e '__hsa_cpu_write' | sort -u | comm -23 - $@.defined | \
	  awk '{ print "EXPORT(" $$1 ")" }' > $@.tmp && mv $@.tmp $@ && rm -f $@.defined
$(call efi_obj,kernel/code.c): $(CL_EXPORTS_INC)
$(call efi_obj,kernel/code.c): EFI_EXTRA_CPPFLAGS += -I$(BUILD)/gen
