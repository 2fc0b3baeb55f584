# Tool names and common settings. Every tool is named with its version where
# Debian has several (the unversioned ld.lld may be another LLVM or absent).
BUILD        ?= build
APP          ?= demo
# VAPU=no: images without the virtual APU, for boards (mk/image.mk).
VAPU         ?= yes
# QEMU has no AMD GPU: `make run` boots with the virtual APU standing in.
ARGS         ?= $(if $(filter no,$(VAPU)),,vapu=raven)
NEWLIB_DIR   ?= $(BUILD)/newlib
HOST_CC      ?= gcc
FUZZ_CC      ?= clang-19
GPU_CC       ?= clang-19
GPU_LD       ?= ld.lld-19
LLVM_OBJDUMP ?= llvm-objdump-19
EFI_CC       ?= gcc
EFI_LD       ?= ld
OBJCOPY      ?= objcopy

# Jobs for the builds `make run` and `make test` start: every core. In a
# recipe, $(SUBMAKE_JOBS) is -j$(JOBS) when make was started without -j (as
# the README and CI start it) and nothing under make -jN, whose jobs the
# sub-make then shares.
JOBS         ?= $(shell nproc)
SUBMAKE_JOBS  = $$(case " $$MAKEFLAGS" in *" -j"*|*--jobserver*) ;; *) echo -j$(JOBS) ;; esac)

# Quiet rules unless V=1.
ifeq ($(V),1)
Q :=
else
Q := @
endif

# Warnings shared by every C build of ours (image and host).
WARN_CFLAGS := -Wall -Wextra -Wno-unused-parameter -Wshadow -Wstrict-prototypes \
               -Wmissing-prototypes -Wvla -Werror=implicit-function-declaration \
               -Werror=return-type -Werror=incompatible-pointer-types
