# The GPU agent's tests (tests/{host,common}/gpu_*.c): the command
# processor below the runtime, the GPU agent through the HSA API, and the
# kernel corpus dispatched to the GPU agent. They run in the host-unit
# suite; the corpus test reads the code objects mk/kernels.mk builds.
GPU_TEST_SRCS := $(wildcard tests/host/gpu_*.c tests/common/gpu_*.c)
GPU_TEST_OBJS := $(call host_asan_obj,$(GPU_TEST_SRCS)) $(call host_obj,$(GPU_TEST_SRCS))
$(GPU_TEST_OBJS): HOST_CPPFLAGS += -DGPU_TEST_KERNELS_DIR='"$(abspath $(KERNELS_DIR))"'
# In the image the corpus is on the boot file system, in \kernels.
$(call efi_obj,$(GPU_TEST_SRCS)): EFI_EXTRA_CPPFLAGS += -DGPU_TEST_KERNELS_DIR='"/kernels"'

# The apps' GPU kernels: apps/<app>/*.cl built for every GPU target the
# image drives (code object v5, -O2) into
#   $(APP_KERNELS_DIR)/<app>/<mcpu>/<name>.co
# which the app's ESP carries as \kernels\<mcpu>\<name>.co (mk/image.mk).
APP_GPU_MCPUS   := gfx902 gfx90c
APP_KERNELS_DIR := $(BUILD)/app-kernels

# $(call app_kernel_rule,source,app,mcpu)
define app_kernel_rule
$(APP_KERNELS_DIR)/$(2)/$(3)/$(call kernel_name,$(1)).co: $(1) | deps
	@mkdir -p $$(dir $$@)
	@echo "GPUCC   $$@"
	$(Q)$(GPU_CC) $(GPU_CFLAGS) $(GPU_CFLAGS_cl) -mcpu=$(3) -mcode-object-version=5 -O2 -c $$< -o $$@.o
	$(Q)$(GPU_LD) -shared $$@.o -o $$@ && rm -f $$@.o
APP_KERNELS_$(2) += $(APP_KERNELS_DIR)/$(2)/$(3)/$(call kernel_name,$(1)).co
endef

$(foreach app,$(IMAGE_APPS),$(foreach src,$(wildcard apps/$(app)/*.cl),$(foreach m,$(APP_GPU_MCPUS),\
  $(eval $(call app_kernel_rule,$(src),$(app),$(m))))))

.PHONY: app-kernels
app-kernels: $(foreach app,$(IMAGE_APPS),$(APP_KERNELS_$(app)))
host: app-kernels
