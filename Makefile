# Top-level build. `make run` and `make test` are the two commands a user
# needs (README.md); the rest are the steps they are made of.
#
#   make run   [APP=demo] [ARGS="loglevel=debug"]   build the image, boot it in QEMU
#   make image [APP=demo]                           build build/<app>.efi and its ESP
#   make host                                       host library and programs
#   make test                                       everything CI runs
#   make bench                                      benchmarks (host), print figures
#   make fuzz  [FUZZ_SECONDS=600]                   long fuzzing runs
#
# Each folder describes its sources in a module.mk; the rules live in mk/.

.DEFAULT_GOAL := all
.SUFFIXES:
.DELETE_ON_ERROR:

include mk/config.mk
include mk/deps.mk
# The build's rules are read only once every package they use is installed
# (mk/deps.mk installs the missing ones, then make starts again): a rule
# file may compute a variable from any tool of DEB_PACKAGES as it is read.
ifeq ($(DEPS_MISSING),)
include $(sort $(wildcard */module.mk */*/module.mk))
include mk/host.mk
include mk/newlib.mk
include mk/cl-builtins.mk
include mk/image.mk
include mk/kernels.mk
include mk/programs.mk
include mk/loader.mk
include mk/vapu-isa.mk
include mk/gpu-agent.mk
include mk/fuzz.mk
include mk/bench.mk
include mk/rocm-clients.mk
include mk/test.mk
endif

.PHONY: all clean distclean
all: host image

clean:
	rm -rf $(BUILD)/host $(BUILD)/host-asan $(BUILD)/efi $(BUILD)/kernels $(BUILD)/fuzz \
	       $(BUILD)/rocm-clients $(BUILD)/test-logs $(BUILD)/*.efi $(BUILD)/*.img \
	       $(BUILD)/cl $(BUILD)/gen $(BUILD)/app-kernels

distclean:
	rm -rf $(BUILD)
