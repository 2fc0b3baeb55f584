# libFuzzer targets for the parsers of outside input: tests/fuzz/<name>.c
# with LLVMFuzzerTestOneInput, built by clang-19 with
# -fsanitize=fuzzer,address,undefined into $(FUZZ_DIR)/<name>.
#
#   suite-fuzz               each target for FUZZ_CI_SECONDS (CI, make test)
#   make fuzz [FUZZ_SECONDS=600]   each target for FUZZ_SECONDS, nice'd
#
# A target names what it links in FUZZ_SRCS_<name> and its seed files in
# FUZZ_SEEDS_<name> (copied into $(FUZZ_DIR)/seeds/<name>/); inputs that once
# crashed it live in tests/data/fuzz/<name>/ and are replayed on every run
# (tests/fuzz/run.sh).
FUZZ_DIR        := $(BUILD)/fuzz
FUZZ_CI_SECONDS ?= 20
FUZZ_SECONDS    ?= 600
FUZZ_CFLAGS     := -std=gnu11 -g -O1 -fno-omit-frame-pointer \
                   -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
                   -I. -Ihsa/include -DPLATFORM_HOST -D_GNU_SOURCE $(WARN_CFLAGS)

# The code object loader: whole files, the metadata note alone, bundles.
FUZZ_SRCS_fuzz_code_object := $(LOADER_SRCS) tests/fuzz/fuzz_plat.c
FUZZ_SRCS_fuzz_metadata    := hsa/loader/msgpack.c hsa/loader/metadata.c tests/fuzz/fuzz_plat.c
FUZZ_SRCS_fuzz_bundle      := $(LOADER_SRCS) tests/fuzz/fuzz_plat.c
FUZZ_SEEDS_fuzz_code_object := $(KERNEL_CORPUS)
FUZZ_SEEDS_fuzz_metadata    := $(patsubst $(KERNELS_DIR)/%.co,$(FUZZ_DIR)/notes/%.msgpack,$(KERNEL_CORPUS))
FUZZ_SEEDS_fuzz_bundle      := $(HIP_BUNDLES)
# The CPU agents' code (x86-64 shared objects, hsa/loader/x86_dso.c).
FUZZ_SRCS_fuzz_x86_dso  := $(LOADER_SRCS) hsa/loader/x86_dso.c host/plat_host_code.c tests/fuzz/fuzz_plat.c
FUZZ_SEEDS_fuzz_x86_dso := $(HSACC_TEST_KERNELS)

FUZZ_NAMES   := $(basename $(notdir $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_NAMES   := $(filter-out fuzz_plat,$(FUZZ_NAMES))
FUZZ_TARGETS := $(addprefix $(FUZZ_DIR)/,$(FUZZ_NAMES))

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $$(FUZZ_SRCS_fuzz_%)
	@mkdir -p $(dir $@)
	@echo "FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $< $(FUZZ_SRCS_fuzz_$*) -o $@

$(FUZZ_DIR)/notes/%.msgpack: $(KERNELS_DIR)/%.co tools/fuzz-metadata-seed.py
	@mkdir -p $(dir $@)
	$(Q)python3 tools/fuzz-metadata-seed.py $< $@

# Keep the extracted notes: they are the metadata target's seeds.
.SECONDARY: $(FUZZ_SEEDS_fuzz_metadata)

# Seed folders, refreshed from the seed files whenever one changes.
$(FUZZ_DIR)/seeds/%.stamp: $$(FUZZ_SEEDS_%)
	@rm -rf $(FUZZ_DIR)/seeds/$* && mkdir -p $(FUZZ_DIR)/seeds/$*
	$(Q)cp $^ $(FUZZ_DIR)/seeds/$*/ && touch $@

FUZZ_READY := $(FUZZ_TARGETS) $(addprefix $(FUZZ_DIR)/seeds/,$(addsuffix .stamp,$(FUZZ_NAMES)))

.PHONY: fuzz suite-fuzz
TEST_SUITES += fuzz
TEST_BUILD_DEPS += $(FUZZ_READY)
suite-fuzz: $(FUZZ_READY)
	$(Q)FUZZ_DIR=$(FUZZ_DIR) tests/fuzz/run.sh $(FUZZ_CI_SECONDS) $(FUZZ_TARGETS)

fuzz: $(FUZZ_READY)
	$(Q)FUZZ_DIR=$(FUZZ_DIR) nice tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)
