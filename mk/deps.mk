# Debian packages the build needs. The first make on a machine without them
# installs the missing ones (as root) before it reads any build rule, so that
# nothing the rules compute while make reads them (gcc's include folder, the
# libgcc path, ...) is computed from a tool that is not there yet.
#
# How: DEPS_MISSING asks dpkg (essential on Debian, so always there) which
# packages are missing. When some are, the Makefile reads only this file:
# its one rule installs them and rewrites $(DEPS_RESTART), an included
# makefile, and GNU make then starts again from the top with the same goals
# ("How Makefiles Are Remade", GNU make manual) and now reads every rule.
# `make deps` does just that; clean and distclean need no package.
#
# The clients of the ROCr binary interface (suite rocm-clients,
# tests/rocm_clients/) come from here too: HIP 5.2 (libamdhip64-dev, which
# brings comgr and Debian's ROCr), ROCr's headers (libhsa-runtime-dev) and
# LLVM 19's OpenMP offload runtime (libomp-19-dev). tools/hsacl-barriers.c
# is built on LLVM's C interface (llvm-19-dev).
DEB_PACKAGES := make gcc binutils libc6-dev gnu-efi newlib-source xz-utils \
                qemu-system-x86 ovmf mtools dosfstools \
                clang-19 lld-19 llvm-19 llvm-19-dev libclang-rt-19-dev clang-tools-19 rocm-device-libs \
                libgomp1 pocl-opencl-icd ocl-icd-opencl-dev python3 \
                libamdhip64-dev libhsa-runtime-dev libomp-19-dev

# "<name> <want> ok installed" for each installed package of the list (a
# package dpkg has never heard of prints nothing).
DEPS_INSTALLED := $(shell dpkg-query -W -f='$${Package} $${Status}\n' $(DEB_PACKAGES) 2>/dev/null | \
                    sed -n 's/^\([^ ]*\) [a-z]* ok installed$$/\1/p')
DEPS_MISSING   := $(filter-out $(DEPS_INSTALLED),$(DEB_PACKAGES))
DEPS_GOALS     := $(filter-out clean distclean,$(or $(MAKECMDGOALS),$(.DEFAULT_GOAL)))
DEPS_RESTART   := $(BUILD)/.deps-installed.mk

.PHONY: deps
ifneq ($(and $(DEPS_MISSING),$(DEPS_GOALS)),)
ifneq ($(MAKE_RESTARTS),)
$(error deps: still missing after apt-get install: $(DEPS_MISSING))
endif
include $(DEPS_RESTART)
$(DEPS_RESTART): FORCE
	@echo "deps: installing missing Debian packages: $(DEPS_MISSING)"
	$(Q)if [ "$$(id -u)" != 0 ]; then \
	  echo "deps: run as root (or install them: apt-get install $(DEPS_MISSING))"; exit 1; fi
	$(Q)export DEBIAN_FRONTEND=noninteractive; \
	  apt-get update -q && apt-get install -y -q --no-install-recommends $(DEPS_MISSING)
	@mkdir -p $(dir $@)
	$(Q)echo '# written by mk/deps.mk after installing: $(DEPS_MISSING)' > $@
.PHONY: FORCE
FORCE:
else
deps:
	@echo "deps: every package the build needs is installed"
endif
