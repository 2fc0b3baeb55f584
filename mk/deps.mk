# Debian packages the build needs; `make deps` (a prerequisite of run, image,
# host and test) installs the missing ones when run as root.
DEB_PACKAGES := make gcc binutils libc6-dev gnu-efi newlib-source xz-utils \
                qemu-system-x86 ovmf mtools dosfstools \
                clang-19 lld-19 llvm-19 libclang-rt-19-dev clang-tools-19 rocm-device-libs \
                libgomp1 pocl-opencl-icd ocl-icd-opencl-dev python3

.PHONY: deps
deps:
	$(Q)missing=$$(for p in $(DEB_PACKAGES); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed$$' || echo $$p; \
	  done); \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing missing Debian packages:" $$missing; \
	  if [ "$$(id -u)" != 0 ]; then echo "deps: run as root (or install them: apt-get install $$missing)"; exit 1; fi; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get update -q && apt-get install -y -q --no-install-recommends $$missing || exit 1; \
	fi
