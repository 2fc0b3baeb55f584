# newlib 3.3.0 for x86_64-elf, built once from Debian's newlib-source into
# $(NEWLIB_DIR) with the image's code model (position independent, no red zone).
#
# Thread safety across cores (kernel/libc_locks.c, kernel/libc_reent.c):
# - --enable-newlib-retargetable-locking: newlib takes its locks (each FILE,
#   malloc, atexit, environment, time zone, ...) through __retarget_lock_*,
#   which the kernel implements (newlib libc/misc/lock.c lists them).
# - __DYNAMIC_REENT__: newlib reaches its per-thread state (errno, the std
#   streams, strtok/dtoa state) through __getreent(), which the kernel
#   answers per core (newlib libc/include/sys/reent.h; x86_64-elf does not
#   set it in sys/config.h). Every image object must see the same define:
#   NEWLIB_ABI_CPPFLAGS goes into EFI_CPPFLAGS too.
NEWLIB_TARBALL := /usr/src/newlib/newlib-3.3.0.tar.xz
NEWLIB_PREFIX  := $(abspath $(NEWLIB_DIR))/install
NEWLIB_INC     := $(NEWLIB_PREFIX)/x86_64-elf/include
NEWLIB_LIBDIR  := $(NEWLIB_PREFIX)/x86_64-elf/lib
NEWLIB_ABI_CPPFLAGS := -D__DYNAMIC_REENT__
NEWLIB_CONFIGURE := --target=x86_64-elf --disable-multilib --disable-newlib-supplied-syscalls \
    --enable-newlib-io-long-long --enable-newlib-io-c99-formats --disable-nls \
    --enable-newlib-retargetable-locking
NEWLIB_CFLAGS  := -O2 -g -fPIC -mno-red-zone -ffreestanding -fno-stack-protector \
                  $(NEWLIB_ABI_CPPFLAGS)
# The stamp's name carries a digest of the options: a build made with other
# options (an older checkout's) has another stamp, so it is rebuilt.
NEWLIB_STAMP   := $(NEWLIB_DIR)/.built-$(firstword $(shell echo '$(NEWLIB_CONFIGURE) $(NEWLIB_CFLAGS)' | md5sum))

.PHONY: newlib
newlib: $(NEWLIB_STAMP)

$(NEWLIB_STAMP):
	@echo "NEWLIB  $(NEWLIB_DIR) (once; a few minutes on 2 cores)"
	$(Q)rm -rf $(NEWLIB_DIR) && mkdir -p $(NEWLIB_DIR)/build
	$(Q)tar -C $(NEWLIB_DIR) -xf $(NEWLIB_TARBALL)
	$(Q)cd $(NEWLIB_DIR)/build && ../newlib-salsa/configure $(NEWLIB_CONFIGURE) \
	    --prefix=$(NEWLIB_PREFIX) \
	    CC_FOR_TARGET=gcc AR_FOR_TARGET=ar RANLIB_FOR_TARGET=ranlib AS_FOR_TARGET=as \
	    LD_FOR_TARGET=ld NM_FOR_TARGET=nm CFLAGS_FOR_TARGET="$(NEWLIB_CFLAGS)" \
	    > configure.log 2>&1 || { tail -20 configure.log; exit 1; }
	$(Q)cd $(NEWLIB_DIR)/build && $(MAKE) -j$$(nproc) all-target-newlib > make.log 2>&1 \
	    || { tail -30 make.log; exit 1; }
	$(Q)cd $(NEWLIB_DIR)/build && $(MAKE) install-target-newlib > install.log 2>&1 \
	    || { tail -20 install.log; exit 1; }
	$(Q)rm -rf $(NEWLIB_DIR)/newlib-salsa $(NEWLIB_DIR)/build/x86_64-elf/newlib/libc
	$(Q)touch $@
