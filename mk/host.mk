# The host platform: hsa/, drivers/amdgpu, vapu/ and lib/ built as a Linux
# user-space library (libhsa-runtime64.a, the name ROCr's programs link
# against), the apps as programs, and the unit tests under ASan and UBSan.
HOST_DIR      := $(BUILD)/host
HOST_ASAN_DIR := $(BUILD)/host-asan

HOST_CPPFLAGS := -I. -Ihsa/include -DPLATFORM_HOST -D_GNU_SOURCE
HOST_CFLAGS   := -std=gnu11 -g -pthread -fno-omit-frame-pointer $(WARN_CFLAGS)
HOST_OPT      := -O2
ASAN_OPT      := -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined
HOST_LDLIBS   := -lpthread -lm

# What the runtime library is made of, on the host.
RUNTIME_HOST_SRCS := $(LIB_SRCS) $(HOST_PLAT_SRCS) $(HSA_SRCS) $(VAPU_SRCS) $(AMDGPU_HOST_SRCS)
# What the unit-test program adds: the portable parts of the image-only
# layers, the tests themselves and the runner.
UNIT_HOST_SRCS := $(RUNTIME_HOST_SRCS) $(KERNEL_PORTABLE_SRCS) $(IOMMU_PORTABLE_SRCS) \
                  $(LIB_TEST_SRCS) $(TESTS_HOST_SRCS) $(TESTS_COMMON_SRCS) $(HOST_TEST_MAIN)

host_obj      = $(patsubst %.c,$(HOST_DIR)/obj/%.o,$(1))
host_asan_obj = $(patsubst %.c,$(HOST_ASAN_DIR)/obj/%.o,$(1))

HOST_RUNTIME_LIB := $(HOST_DIR)/lib/libhsa-runtime64.a
HOST_UNIT_TESTS  := $(HOST_ASAN_DIR)/unit-tests
HOST_APPS        := $(patsubst apps/%/,$(HOST_DIR)/bin/%,$(sort $(dir $(wildcard apps/*/main.c))))

.PHONY: host host-lib host-unit-tests
host: host-lib $(HOST_APPS) $(HOST_UNIT_TESTS) $(HOST_EXTRA_PROGRAMS) $(AMDGPU_RUN_FIRMWARE)
host-lib: $(HOST_RUNTIME_LIB)
host-unit-tests: $(HOST_UNIT_TESTS)

$(HOST_DIR)/obj/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(HOST_CPPFLAGS) $(HOST_CFLAGS) $(HOST_OPT) -MMD -MP -c $< -o $@

$(HOST_ASAN_DIR)/obj/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(HOST_CPPFLAGS) $(HOST_CFLAGS) $(ASAN_OPT) -MMD -MP -c $< -o $@

# Where host programs find the virtual APU's synthetic firmware when
# HSAR_FILES is not set: the tree `make host` generates in this build folder.
HOST_FILES_ROOT := $(abspath $(BUILD)/vapu-firmware)
$(call host_obj,$(HOST_PLAT_SRCS)) $(call host_asan_obj,$(HOST_PLAT_SRCS)): \
    HOST_CPPFLAGS += -DHOST_FILES_DEFAULT_ROOT='"$(HOST_FILES_ROOT)"'
host-lib: $(AMDGPU_RUN_FIRMWARE)

$(HOST_RUNTIME_LIB): $(call host_obj,$(RUNTIME_HOST_SRCS))
	@mkdir -p $(dir $@)
	@echo "AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $^

$(HOST_UNIT_TESTS): $(call host_asan_obj,$(UNIT_HOST_SRCS))
	@echo "LD      $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $(ASAN_OPT) $^ -o $@ $(HOST_LDLIBS)

# An app on the host: its C files against the runtime library.
.SECONDEXPANSION:
$(HOST_DIR)/bin/%: $$(call host_obj,$$(wildcard apps/%/*.c)) $(HOST_RUNTIME_LIB)
	@mkdir -p $(dir $@)
	@echo "LD      $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $^ -o $@ $(HOST_LDLIBS)

-include $(shell find $(HOST_DIR)/obj $(HOST_ASAN_DIR)/obj -name '*.d' 2>/dev/null)
