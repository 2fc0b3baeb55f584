# The boot image: $(BUILD)/<name>.efi for every app in apps/ and for the
# test image (name "test"), and the ESP disk image $(BUILD)/<app>.img.
#
#   make image [APP=demo]              build/<app>.efi and build/<app>.img, and
#                                      what each part of the image costs
#   make image VAPU=no                 build/<app>-novapu.efi: for boards, no model
#   make run   [APP=demo] [ARGS=...]   boot it in QEMU; exits with main()'s status
#
# gcc + GNU ld in the GNU-EFI way (gnu-efi's README.gnuefi): position
# independent code linked as an ELF shared object with our own script
# (boot/image.lds), crt0 calls boot/relocate.c to apply the relative
# relocations (packed, DT_RELR), objcopy makes
# the PE32+. Linked twice: the first link gives `nm` the addresses for the
# symbol table (kernel/gen_ksyms.py) that the second link carries in .ksyms,
# which is last in the image so nothing else moves; the build checks that.
# The PE gets no COFF symbol table (--strip-all): backtraces use .ksyms,
# debuggers the ELF (build/efi/<app>/image.so).
EFI_DIR      := $(BUILD)/efi
GNUEFI_CRT0  := /usr/lib/crt0-efi-x86_64.o
GNUEFI_LIB   := /usr/lib/libgnuefi.a
EFI_INCLUDE  := /usr/include/efi

# gcc's own headers (stddef, stdarg, stdatomic, ...) come before newlib's,
# as in any gcc: newlib's BSD stdatomic.h does not work with gcc's _Atomic.
# kernel/include (the image's <pthread.h>, <threads.h> and the thread types
# of <sys/types.h>) comes before newlib's, whose headers of those names it
# replaces (kernel/include/sys/_pthreadtypes.h says why); _POSIX_THREADS
# makes newlib's headers declare sched_yield and pthread_sigmask.
EFI_CPPFLAGS := -I. -Ihsa/include -DPLATFORM_EFI -D_POSIX_TIMERS=1 -D_POSIX_MONOTONIC_CLOCK=200112L \
                -D_POSIX_THREADS=200809L \
                $(NEWLIB_ABI_CPPFLAGS) -nostdinc -isystem $(shell $(EFI_CC) -print-file-name=include) -isystem kernel/include -isystem $(NEWLIB_INC)
EFI_CFLAGS   := -std=gnu11 -O2 -g -fpic -fvisibility=hidden -mno-red-zone -fno-stack-protector \
                -maccumulate-outgoing-args -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
                -fno-asynchronous-unwind-tables -fno-common $(WARN_CFLAGS)
# Only boot/ sees the firmware's headers; GNU_EFI_USE_MS_ABI makes the
# firmware's function pointers ms_abi so they are called directly.
BOOT_EFI_CPPFLAGS := -isystem $(EFI_INCLUDE) -isystem $(EFI_INCLUDE)/x86_64 -DGNU_EFI_USE_MS_ABI
EFI_LDFLAGS  := -nostdlib -shared -Bsymbolic -znocombreloc -z text -z noexecstack --no-undefined \
                -z pack-relative-relocs --build-id=none -T boot/image.lds
EFI_LIBS      = $(GNUEFI_LIB) --start-group $(NEWLIB_LIBDIR)/libm.a $(NEWLIB_LIBDIR)/libc.a \
                $(shell $(EFI_CC) -print-libgcc-file-name) --end-group
EFI_SECTIONS := .text .reloc .rodata .data .bss .dynamic .rela .relr .ksyms
# Allocated by the linker for a shared object, needed by nothing at run time
# (the relocation code, boot/relocate.c, reads only .dynamic, .rela and .relr).
EFI_SECTIONS_DROPPED := .dynsym .dynstr .hash .gnu.hash

# Every image links boot/, kernel/ and lib/ whole; the layers above come
# from an archive, so an image holds the runtime, drivers and model parts
# its code calls (and the kernel's bring-up calls the drivers' init).
# Then per image: the app, or the tests.
# The IOMMU's image glue is linked whole too: it registers the IOMMU's PCI
# driver, which must confine DMA in every image, whatever the app calls.
IMAGE_CORE_SRCS    := $(sort $(BOOT_SRCS) $(KERNEL_SRCS) $(KERNEL_PORTABLE_SRCS) $(LIB_SRCS) \
                      $(IOMMU_SRCS))
IMAGE_RUNTIME_SRCS := $(sort $(IOMMU_PORTABLE_SRCS) $(AMDGPU_SRCS) $(VAPU_SRCS) \
                      $(HSA_SRCS))
IMAGE_RUNTIME_LIB  := $(EFI_DIR)/libruntime.a
IMAGE_TEST_SRCS := $(LIB_TEST_SRCS) $(TESTS_IMAGE_SRCS) $(TESTS_COMMON_SRCS) $(SUPPORT_SRCS) kernel/test_image_main.c
IMAGE_APPS      := $(patsubst apps/%/,%,$(sort $(dir $(wildcard apps/*/main.c))))

# Images for boards, without the virtual APU (the model is for QEMU and the
# tests): `make image VAPU=no` builds $(BUILD)/<app>-novapu.efi from the
# same objects with a runtime archive that has no model; vapu= is refused
# there (drivers/amdgpu/amdgpu_vapu_none_efi.c). test-novapu.efi has the
# tests that do not need the model (TESTS_VAPU_SRCS, tests/module.mk).
ifeq ($(filter yes no,$(VAPU)),)
$(error VAPU=$(VAPU): expected yes or no)
endif
IMAGE_SUFFIX := $(if $(filter no,$(VAPU)),-novapu)
IMAGE_RUNTIME_NOVAPU_SRCS := $(sort $(IOMMU_PORTABLE_SRCS) $(AMDGPU_NOVAPU_SRCS) $(HSA_SRCS))
IMAGE_RUNTIME_NOVAPU_LIB  := $(EFI_DIR)/libruntime-novapu.a
IMAGE_TEST_NOVAPU_SRCS    := $(filter-out $(TESTS_VAPU_SRCS),$(IMAGE_TEST_SRCS))

efi_obj = $(patsubst %,$(EFI_DIR)/obj/%.o,$(basename $(1)))

$(EFI_DIR)/obj/%.o: %.c $(NEWLIB_STAMP)
	@mkdir -p $(dir $@)
	$(Q)$(EFI_CC) $(EFI_CPPFLAGS) $(EFI_EXTRA_CPPFLAGS) $(EFI_CFLAGS) -MMD -MP -c $< -o $@

$(EFI_DIR)/obj/%.o: %.S
	@mkdir -p $(dir $@)
	$(Q)$(EFI_CC) $(EFI_CPPFLAGS) -MMD -MP -c $< -o $@

$(call efi_obj,$(BOOT_SRCS)): EFI_EXTRA_CPPFLAGS := $(BOOT_EFI_CPPFLAGS)

# Members keep their paths (P): the link map then names each object's
# folder, which the size report of `make image` sorts by (boot/image_size.py).
$(IMAGE_RUNTIME_LIB): $(call efi_obj,$(IMAGE_RUNTIME_SRCS))
	@mkdir -p $(dir $@)
	$(Q)rm -f $@ && ar rcsP $@ $^

$(IMAGE_RUNTIME_NOVAPU_LIB): $(call efi_obj,$(IMAGE_RUNTIME_NOVAPU_SRCS))
	@mkdir -p $(dir $@)
	$(Q)rm -f $@ && ar rcsP $@ $^

# $(call efi_image_rule,name,sources,runtime archive,app name):
# $(BUILD)/name.efi from the core, `sources` and the archive.
define efi_image_rule
$(EFI_DIR)/$(1)/app_name.c:
	@mkdir -p $$(dir $$@)
	$(Q)echo 'const char kernel_app_name[] = "$(4)";' > $$@

$(EFI_DIR)/$(1)/app_name.o: $(EFI_DIR)/$(1)/app_name.c
	$(Q)$(EFI_CC) $(EFI_CPPFLAGS) $(EFI_CFLAGS) -c $$< -o $$@

$(EFI_DIR)/$(1)/objs := $(call efi_obj,$(IMAGE_CORE_SRCS) $(2)) $(EFI_DIR)/$(1)/app_name.o

$(BUILD)/$(1).efi: $$($(EFI_DIR)/$(1)/objs) $(3) $(EFI_DIR)/ksyms_empty.o \
                   kernel/gen_ksyms.py boot/image.lds boot/check_image.sh
	@echo "LD      $$@"
	$(Q)$(EFI_LD) $(EFI_LDFLAGS) -o $(EFI_DIR)/$(1)/pass1.so $(GNUEFI_CRT0) \
	    $$($(EFI_DIR)/$(1)/objs) $(EFI_DIR)/ksyms_empty.o $(3) $(EFI_LIBS)
	$(Q)nm -n --defined-only $(EFI_DIR)/$(1)/pass1.so | python3 kernel/gen_ksyms.py > $(EFI_DIR)/$(1)/ksyms.S
	$(Q)$(EFI_CC) -c $(EFI_DIR)/$(1)/ksyms.S -o $(EFI_DIR)/$(1)/ksyms.o
	$(Q)$(EFI_LD) $(EFI_LDFLAGS) -Map=$(EFI_DIR)/$(1)/image.map -o $(EFI_DIR)/$(1)/image.so \
	    $(GNUEFI_CRT0) $$($(EFI_DIR)/$(1)/objs) $(EFI_DIR)/$(1)/ksyms.o $(3) $(EFI_LIBS)
	$(Q)nm -n --defined-only $(EFI_DIR)/$(1)/pass1.so | grep -i ' t ' > $(EFI_DIR)/$(1)/text1.txt
	$(Q)nm -n --defined-only $(EFI_DIR)/$(1)/image.so | grep -i ' t ' > $(EFI_DIR)/$(1)/text2.txt
	$(Q)cmp -s $(EFI_DIR)/$(1)/text1.txt $(EFI_DIR)/$(1)/text2.txt || \
	    { echo "image: code moved between the two links of $$@ (boot/image.lds: .ksyms must be last)"; exit 1; }
	$(Q)boot/check_image.sh $(EFI_DIR)/$(1)/image.so $(EFI_SECTIONS) $(EFI_SECTIONS_DROPPED)
	$(Q)$(OBJCOPY) --strip-all $(foreach s,$(EFI_SECTIONS),-j $(s)) --target efi-app-x86_64 \
	    $(EFI_DIR)/$(1)/image.so $$@

$(EFI_DIR)/$(1)/sizes.txt: $(BUILD)/$(1).efi boot/image_size.py
	$(Q)python3 boot/image_size.py $$< $(EFI_DIR)/$(1)/image.map $(EFI_DIR)/$(1)/image.so > $$@
endef

$(foreach app,$(IMAGE_APPS),$(eval $(call efi_image_rule,$(app),$(wildcard apps/$(app)/*.c),$(IMAGE_RUNTIME_LIB),$(app))))
$(foreach app,$(IMAGE_APPS),$(eval $(call efi_image_rule,$(app)-novapu,$(wildcard apps/$(app)/*.c),$(IMAGE_RUNTIME_NOVAPU_LIB),$(app))))
$(eval $(call efi_image_rule,test,$(IMAGE_TEST_SRCS),$(IMAGE_RUNTIME_LIB),test))
$(eval $(call efi_image_rule,test-novapu,$(IMAGE_TEST_NOVAPU_SRCS),$(IMAGE_RUNTIME_NOVAPU_LIB),test))

$(EFI_DIR)/ksyms_empty.o: kernel/gen_ksyms.py
	@mkdir -p $(dir $@)
	$(Q)python3 kernel/gen_ksyms.py < /dev/null > $(EFI_DIR)/ksyms_empty.S
	$(Q)$(EFI_CC) -c $(EFI_DIR)/ksyms_empty.S -o $@

# The ESP of an app, as it goes on a USB stick: \EFI\BOOT\BOOTX64.EFI, the
# app's own files (apps/<app>/esp/, if any) at the root, and its GPU kernels
# (mk/gpu-agent.mk) in \kernels.
# (<app>-novapu.img: the same app's files.)
image_app = $(patsubst %-novapu,%,$(1))
$(BUILD)/%.img: $(BUILD)/%.efi qemu/mkesp.sh $$(APP_KERNELS_$$(call image_app,$$*))
	@echo "ESP     $@"
	$(Q)qemu/mkesp.sh $@ $< $(if $(wildcard apps/$(call image_app,$*)/esp),--tree apps/$(call image_app,$*)/esp) \
	    $(if $(APP_KERNELS_$(call image_app,$*)),--add kernels=$(APP_KERNELS_DIR)/$(call image_app,$*))

# `make image` ends with what each part of the image costs (boot/image_size.py,
# written when the image is linked, so that `make run` does not pay for it).
IMAGE_NAME := $(APP)$(IMAGE_SUFFIX)
.PHONY: image run
image: $(BUILD)/$(IMAGE_NAME).efi $(BUILD)/$(IMAGE_NAME).img $(EFI_DIR)/$(IMAGE_NAME)/sizes.txt
	@echo "image: $(BUILD)/$(IMAGE_NAME).efi ($$(stat -c %s $(BUILD)/$(IMAGE_NAME).efi) bytes), ESP $(BUILD)/$(IMAGE_NAME).img"
	$(Q)cat $(EFI_DIR)/$(IMAGE_NAME)/sizes.txt

# Boots a copy of the ESP with ARGS as its \cmdline.txt; QEMU_SMP, QEMU_TIMEOUT adjust.
QEMU_SMP     ?= 4
QEMU_TIMEOUT ?= 120
# The image is built on every core (SUBMAKE_JOBS, mk/config.mk).
run:
	$(Q)$(MAKE) --no-print-directory $(SUBMAKE_JOBS) image
	$(Q)qemu/boot.sh --smp $(QEMU_SMP) --timeout $(QEMU_TIMEOUT) \
	    --log $(BUILD)/run/$(IMAGE_NAME).serial.log --esp-from $(BUILD)/$(IMAGE_NAME).img \
	    $(foreach t,$(RUN_ESP_TREES),--tree $(t)) $(BUILD)/$(IMAGE_NAME).efi $(ARGS)

-include $(shell find $(EFI_DIR)/obj -name '*.d' 2>/dev/null)

# ---- Image tests: build/test.efi booted in QEMU ------------------------------
# Two boots (each costs seconds of OVMF): one core and four. Both run every
# image test (or those matching TESTS). Files the tests read go on the ESP:
# every tree in IMAGE_TEST_ESP_TREES is copied to its root.
IMAGE_TEST_TIMEOUT   ?= 300
IMAGE_TEST_GEN       := $(BUILD)/test-esp
IMAGE_TEST_ESP_TREES += tests/data/esp $(IMAGE_TEST_GEN)
IMAGE_TEST_GEN_FILES += $(IMAGE_TEST_GEN)/data/bootfs/pattern.bin

# tests/image/bootfs_test.c checks this formula byte by byte.
$(IMAGE_TEST_GEN)/data/bootfs/pattern.bin:
	@mkdir -p $(dir $@)
	$(Q)python3 -c 'import sys; sys.stdout.buffer.write(bytes((i * 7 + (i >> 10)) & 0xff for i in range(300000)))' > $@

# The host unit tests decode the symbol tables of both test images with
# kernel/ksyms.c and hold every name and address against nm of the same
# link (tests/host/ksyms_test.c). \ksyms is no folder the image reads.
KSYMS_TEST_FILES := $(foreach i,test test-novapu,$(IMAGE_TEST_GEN)/ksyms/$(i).ksyms \
                      $(IMAGE_TEST_GEN)/ksyms/$(i).nm)
$(IMAGE_TEST_GEN)/ksyms/%.ksyms: $(BUILD)/%.efi
	@mkdir -p $(dir $@)
	$(Q)$(OBJCOPY) -O binary -j .ksyms $(EFI_DIR)/$*/image.so $@
$(IMAGE_TEST_GEN)/ksyms/%.nm: $(BUILD)/%.efi
	@mkdir -p $(dir $@)
	$(Q)nm -n --defined-only $(EFI_DIR)/$*/image.so > $@
TEST_BUILD_DEPS += $(KSYMS_TEST_FILES)
suite-host-unit: $(KSYMS_TEST_FILES)

TEST_SUITES += image-smp1 image-smp4 image-bad-option
TEST_BUILD_DEPS += $(BUILD)/test.efi $(IMAGE_TEST_GEN_FILES)

# $(call image_test_boot,cores)
image_test_boot = qemu/boot.sh --tests $(if $(TESTS),--allow-empty) --smp $(1) \
    --timeout $(IMAGE_TEST_TIMEOUT) --log $(BUILD)/test-logs/image-smp$(1).serial.log \
    $(foreach t,$(IMAGE_TEST_ESP_TREES),--tree $(t)) $(BUILD)/test.efi test_expect_iommu=on \
    'test=$(or $(TESTS),*)'

.PHONY: suite-image-smp1 suite-image-smp4
suite-image-smp1: $(BUILD)/test.efi $(IMAGE_TEST_GEN_FILES)
	$(Q)$(call image_test_boot,1)
suite-image-smp4: $(BUILD)/test.efi $(IMAGE_TEST_GEN_FILES)
	$(Q)$(call image_test_boot,4)

# The image without the virtual APU (VAPU=no): every test it has, on four
# cores; vapu= is refused with a line that says why, and the GPU tests see
# no GPU agent (they skip).
TEST_SUITES += image-novapu
TEST_BUILD_DEPS += $(BUILD)/test-novapu.efi
.PHONY: suite-image-novapu
suite-image-novapu: $(BUILD)/test-novapu.efi $(IMAGE_TEST_GEN_FILES)
	$(Q)qemu/boot.sh --tests $(if $(TESTS),--allow-empty) --smp 4 --timeout $(IMAGE_TEST_TIMEOUT) \
	    --log $(BUILD)/test-logs/image-novapu.serial.log \
	    --expect-log 'this image is built without the virtual APU' \
	    $(foreach t,$(IMAGE_TEST_ESP_TREES),--tree $(t)) $(BUILD)/test-novapu.efi vapu=raven \
	    test_expect_iommu=on 'test=$(or $(TESTS),*)'

# One boot of the failure paths: an unknown boot option is a clear error and
# ends the run with status 120 (kernel/exit.h) before any test runs; and
# without QEMU's debug-exit device the kernel ends it as on a board, by
# ACPI power-off (kernel/power.c).
comma := ,
IMAGE_BAD_OPTION_TEST := image_unknown_boot_option_ends_the_run_by_acpi_power_off
.PHONY: suite-image-bad-option
suite-image-bad-option: $(BUILD)/test.efi
	$(Q)run=$(if $(TESTS),0,1); for p in $(subst $(comma), ,$(TESTS)); do \
	  case $(IMAGE_BAD_OPTION_TEST) in $$p) run=1 ;; esac; done; \
	if [ $$run = 0 ]; then echo "no test of this suite matches TESTS"; exit 0; fi; \
	if qemu/boot.sh --quiet --no-debug-exit --expect-status 120 \
	    --expect-log 'unknown boot option "bogus"' --expect-log 'loglevel ' \
	    --expect-log 'powering off (ACPI S5)' --timeout $(IMAGE_TEST_TIMEOUT) \
	    --log $(BUILD)/test-logs/image-bad-option.serial.log $(BUILD)/test.efi bogus=1 'test=*'; \
	then echo "[PASS] $(IMAGE_BAD_OPTION_TEST)"; else echo "[FAIL] $(IMAGE_BAD_OPTION_TEST)"; exit 1; fi
