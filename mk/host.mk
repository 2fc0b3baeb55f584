# The host platform: hsa/, drivers/amdgpu, vapu/ and lib/ built as a Linux
# user-space library with ROCr's name and binary interface (below), the apps
# as programs, and the unit tests under ASan and UBSan.
HOST_DIR      := $(BUILD)/host
HOST_ASAN_DIR := $(BUILD)/host-asan

HOST_CPPFLAGS := -I. -Ihsa/include -DPLATFORM_HOST -D_GNU_SOURCE
HOST_CFLAGS   := -std=gnu11 -g -pthread -fno-omit-frame-pointer $(WARN_CFLAGS)
HOST_OPT      := -O2
ASAN_OPT      := -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined
HOST_LDLIBS   := -lpthread -lm

# The optimised host objects, in $(HOST_DIR)/pic, are all position
# independent: one object of a source serves the programs, the static
# archive and the shared library.
HOST_PIC      := -fPIC

# What the runtime library is made of, on the host.
RUNTIME_HOST_SRCS := $(LIB_SRCS) $(HOST_PLAT_SRCS) $(HSA_SRCS) $(VAPU_SRCS) $(AMDGPU_HOST_SRCS)
# What the unit-test program adds: the portable parts of the image-only
# layers, the tests themselves and the runner.
UNIT_HOST_SRCS := $(RUNTIME_HOST_SRCS) $(KERNEL_PORTABLE_SRCS) $(IOMMU_PORTABLE_SRCS) \
                  $(LIB_TEST_SRCS) $(TESTS_HOST_SRCS) $(TESTS_COMMON_SRCS) $(SUPPORT_SRCS) $(HOST_TEST_MAIN)

host_obj      = $(patsubst %.c,$(HOST_DIR)/pic/%.o,$(1))
host_asan_obj = $(patsubst %.c,$(HOST_ASAN_DIR)/obj/%.o,$(1))

HOST_RUNTIME_LIB := $(HOST_DIR)/lib/libhsa-runtime64.a
HOST_RUNTIME_SO  := $(HOST_DIR)/lib/libhsa-runtime64.so.1
HOST_UNIT_TESTS  := $(HOST_ASAN_DIR)/unit-tests
HOST_APPS        := $(patsubst apps/%/,$(HOST_DIR)/bin/%,$(sort $(dir $(wildcard apps/*/main.c))))

.PHONY: host host-lib host-unit-tests
host: host-lib $(HOST_APPS) $(HOST_UNIT_TESTS) $(HOST_EXTRA_PROGRAMS) $(AMDGPU_RUN_FIRMWARE)
host-lib: $(HOST_RUNTIME_LIB) $(HOST_RUNTIME_SO) $(HOST_RUNTIME_SO:.1=)
host-unit-tests: $(HOST_UNIT_TESTS)

$(HOST_DIR)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(HOST_CPPFLAGS) $(HOST_CFLAGS) $(HOST_PIC) $(HOST_OPT) -MMD -MP -c $< -o $@

$(HOST_ASAN_DIR)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(HOST_CPPFLAGS) $(HOST_CFLAGS) $(ASAN_OPT) -MMD -MP -c $< -o $@

# Where host programs find the virtual APU's synthetic firmware when
# HSAR_FILES is not set: the tree `make host` generates in this build folder.
HOST_FILES_ROOT := $(abspath $(BUILD)/vapu-firmware)
$(call host_obj,$(HOST_PLAT_SRCS)) $(call host_asan_obj,$(HOST_PLAT_SRCS)): \
    HOST_CPPFLAGS += -DHOST_FILES_DEFAULT_ROOT='"$(HOST_FILES_ROOT)"'
host-lib: $(AMDGPU_RUN_FIRMWARE)

# The runtime library as ROCr ships it (Debian's libhsa-runtime64-1):
# libhsa-runtime64.so.1 with that soname, its public API versioned ROCR_1,
# and nothing else exported, so that a program or library built against
# ROCr (HIP, LLVM's OpenMP offload plugin) runs on it by LD_LIBRARY_PATH;
# libhsa-runtime64.so for -lhsa-runtime64 and for dlopen by that name. The
# static archive holds the same objects as one relocatable object in which
# every other global is made local, so a program may define any name the
# runtime uses inside (rt, mem_read, plat_*). The public API is what the
# public headers declare (host/public_api.sh): one list for both.
HOST_RUNTIME_OBJS := $(call host_obj,$(RUNTIME_HOST_SRCS))
HOST_RUNTIME_API  := $(HOST_DIR)/runtime/public-api.txt
HOST_RUNTIME_MAP  := $(HOST_DIR)/runtime/libhsa-runtime64.map

$(HOST_RUNTIME_API): host/public_api.sh $(wildcard hsa/include/hsa/*.h)
	@mkdir -p $(dir $@)
	$(Q)host/public_api.sh $(HOST_CC) hsa/include > $@.tmp && mv $@.tmp $@

# ROCr's version node is ROCR_1 (readelf -V of Debian's library).
$(HOST_RUNTIME_MAP): $(HOST_RUNTIME_API)
	$(Q){ echo 'ROCR_1 {'; echo '  global:'; sed 's/.*/    &;/' $<; echo '  local: *;'; echo '};'; } > $@

$(HOST_RUNTIME_SO): $(HOST_RUNTIME_OBJS) $(HOST_RUNTIME_MAP)
	@mkdir -p $(dir $@)
	@echo "LD      $@"
	$(Q)$(HOST_CC) -shared -Wl,-soname,$(notdir $@) -Wl,--version-script,$(HOST_RUNTIME_MAP) \
	    -Wl,-z,defs -Wl,-z,noexecstack $(HOST_RUNTIME_OBJS) -o $@ $(HOST_LDLIBS)
$(HOST_RUNTIME_SO:.1=): | $(HOST_RUNTIME_SO)
	$(Q)ln -sf $(notdir $(HOST_RUNTIME_SO)) $@

# The relocatable object before its internal names are made local is kept
# (HOST_RUNTIME_ALL_OBJ): the rocm-clients suite defines all those names in
# a program to show that none of them is visible.
HOST_RUNTIME_ALL_OBJ := $(HOST_DIR)/runtime/libhsa-runtime64-all.o
$(HOST_RUNTIME_LIB): $(HOST_RUNTIME_OBJS) $(HOST_RUNTIME_API)
	@mkdir -p $(dir $@) $(HOST_DIR)/runtime
	@echo "AR      $@"
	$(Q)ld -r -o $(HOST_RUNTIME_ALL_OBJ) $(HOST_RUNTIME_OBJS)
	$(Q)objcopy --keep-global-symbols=$(HOST_RUNTIME_API) $(HOST_RUNTIME_ALL_OBJ) \
	    $(HOST_DIR)/runtime/libhsa-runtime64.o
	$(Q)rm -f $@ && ar rcs $@ $(HOST_DIR)/runtime/libhsa-runtime64.o

$(HOST_UNIT_TESTS): $(call host_asan_obj,$(UNIT_HOST_SRCS))
	@echo "LD      $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $(ASAN_OPT) $^ -o $@ $(HOST_LDLIBS)

# An app on the host: its C files against the runtime library.
.SECONDEXPANSION:
$(HOST_DIR)/bin/%: $$(call host_obj,$$(wildcard apps/%/*.c)) $(HOST_RUNTIME_LIB)
	@mkdir -p $(dir $@)
	@echo "LD      $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $^ -o $@ $(HOST_LDLIBS)

-include $(shell find $(HOST_DIR)/pic $(HOST_ASAN_DIR)/obj -name '*.d' 2>/dev/null)
