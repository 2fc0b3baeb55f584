# newlib 3.3.0 for x86_64-elf, built once from Debian's newlib-source into
# $(NEWLIB_DIR) with the image's code model (position independent, no red zone).
NEWLIB_TARBALL := /usr/src/newlib/newlib-3.3.0.tar.xz
NEWLIB_PREFIX  := $(abspath $(NEWLIB_DIR))/install
NEWLIB_INC     := $(NEWLIB_PREFIX)/x86_64-elf/include
NEWLIB_LIBDIR  := $(NEWLIB_PREFIX)/x86_64-elf/lib
NEWLIB_STAMP   := $(NEWLIB_DIR)/.built

.PHONY: newlib
newlib: $(NEWLIB_STAMP)

$(NEWLIB_STAMP): | deps
	@echo "NEWLIB  $(NEWLIB_DIR) (once; about a minute on 2 cores)"
	$(Q)rm -rf $(NEWLIB_DIR) && mkdir -p $(NEWLIB_DIR)/build
	$(Q)tar -C $(NEWLIB_DIR) -xf $(NEWLIB_TARBALL)
	$(Q)cd $(NEWLIB_DIR)/build && ../newlib-salsa/configure --target=x86_64-elf \
	    --prefix=$(NEWLIB_PREFIX) --disable-multilib --disable-newlib-supplied-syscalls \
	    --enable-newlib-io-long-long --enable-newlib-io-c99-formats --disable-nls \
	    CC_FOR_TARGET=gcc AR_FOR_TARGET=ar RANLIB_FOR_TARGET=ranlib AS_FOR_TARGET=as \
	    LD_FOR_TARGET=ld NM_FOR_TARGET=nm \
	    CFLAGS_FOR_TARGET="-O2 -g -fPIC -mno-red-zone -ffreestanding -fno-stack-protector" \
	    > configure.log 2>&1 || { tail -20 configure.log; exit 1; }
	$(Q)cd $(NEWLIB_DIR)/build && $(MAKE) -j$$(nproc) all-target-newlib > make.log 2>&1 \
	    || { tail -30 make.log; exit 1; }
	$(Q)cd $(NEWLIB_DIR)/build && $(MAKE) install-target-newlib > install.log 2>&1 \
	    || { tail -20 install.log; exit 1; }
	$(Q)rm -rf $(NEWLIB_DIR)/newlib-salsa $(NEWLIB_DIR)/build/x86_64-elf/newlib/libc
	$(Q)touch $@
