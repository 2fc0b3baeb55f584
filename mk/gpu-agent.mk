# The GPU agent's tests (tests/{host,common}/gpu_*.c): the command
# processor below the runtime, the GPU agent through the HSA API, and the
# kernel corpus dispatched to the GPU agent. They run in the host-unit
# suite; the corpus test reads the code objects mk/kernels.mk builds.
GPU_TEST_SRCS := $(wildcard tests/host/gpu_*.c tests/common/gpu_*.c)
GPU_TEST_OBJS := $(call host_asan_obj,$(GPU_TEST_SRCS)) $(call host_obj,$(GPU_TEST_SRCS))
$(GPU_TEST_OBJS): HOST_CPPFLAGS += -DGPU_TEST_KERNELS_DIR='"$(abspath $(KERNELS_DIR))"'
# In the image the corpus is on the boot file system, in \kernels.
$(call efi_obj,$(GPU_TEST_SRCS)): EFI_EXTRA_CPPFLAGS += -DGPU_TEST_KERNELS_DIR='"/kernels"'

# mk/kernels.mk builds the corpus for gfx902 (Raven, Picasso, Raven2);
# Renoir's gfx90c gets the whole corpus too (every kernel at O0/O2/O3,
# code object v4 and v5), for the chip suites on the host and in QEMU.
GPU_CORPUS_GFX90C :=
$(foreach src,$(KERNEL_SRCS_CORPUS),$(foreach o,$(GPU_OPTS),$(foreach v,$(GPU_COVS),\
  $(eval $(call gpu_kernel_rule,$(src),gfx90c,$(o),$(v)))\
  $(eval GPU_CORPUS_GFX90C += $(KERNELS_DIR)/gfx90c/$(call kernel_name,$(src)).$(o).v$(v).co))))
TEST_BUILD_DEPS += $(GPU_CORPUS_GFX90C)

# The GPU tests' own kernels (tests/data/gpu/*.cl: kernels that stop their
# queue, the queue and CU mask tests'), for both processors, next to the
# corpus so that the image finds them in \kernels too:
#   $(KERNELS_DIR)/gpu-tests/<mcpu>/<name>.co
GPU_TEST_KERNEL_SRCS := $(wildcard tests/data/gpu/*.cl)
GPU_TEST_KERNELS := $(foreach m,gfx902 gfx90c,$(patsubst tests/data/gpu/%.cl,$(KERNELS_DIR)/gpu-tests/$(m)/%.co,\
                       $(GPU_TEST_KERNEL_SRCS)))
define gpu_test_kernel_rule
$(KERNELS_DIR)/gpu-tests/$(1)/%.co: tests/data/gpu/%.cl
	@mkdir -p $$(dir $$@)
	@echo "GPUCC   $$@"
	$$(Q)$$(GPU_CC) $$(GPU_CFLAGS) $$(GPU_CFLAGS_cl) -mcpu=$(1) -mcode-object-version=5 -O2 -c $$< -o $$@.o
	$$(Q)$$(GPU_LD) -shared $$@.o -o $$@ && rm -f $$@.o
endef
$(foreach m,gfx902 gfx90c,$(eval $(call gpu_test_kernel_rule,$(m))))
TEST_BUILD_DEPS += $(GPU_TEST_KERNELS)

# The GPU's local pool on each kind of memory it can be (gpu_agent.c), by
# the GTT size (gpu_gtt_mb, Linux's amdgpu.gttsize): picasso's with a GTT
# of 256 MiB (system memory, small enough for the tests that fill the
# pool), renoir's with one smaller than the carve-out (the carve-out serves
# it); raven and raven2 keep the default, half the RAM. The chip suites on
# the host (below) and in QEMU (drivers/amdgpu/module.mk) boot with these.
GPU_LOCAL_POOL_picasso := gpu_gtt_mb=256
GPU_LOCAL_POOL_renoir  := gpu_gtt_mb=16

# Every chip variant through the runtime: the GPU agent's tests, the whole
# corpus (every kernel, O0/O2/O3 x v4/v5, for the chip's processor) and
# the fault tests on picasso, raven2 and renoir (host-unit runs raven).
GPU_CHIP_VARIANTS := picasso raven2 renoir
GPU_CHIP_TESTS    := gpu_agent_*,gpu_corpus_*,gpu_fault_*,gpu_bad_input_*
# And a Raven with CUs fused off (a V1605B-like part: 8 of 11), for the
# tests of CUs and masks and the corpus under masks.
GPU_HARVEST_MASK  := 0x124
GPU_HARVEST_TESTS := gpu_agent_cu_*,gpu_corpus_under_cu_masks
# The placement queue with a slower virtual APU (a model option): its
# choices move to the CPU agents (tests/common/cl_placement_test.c).
TEST_SUITES += placement-slow-gpu
.PHONY: suite-placement-slow-gpu
suite-placement-slow-gpu: $(HOST_UNIT_TESTS) $(HSACC_CORPUS) $(AMDGPU_TEST_FIRMWARE)
	$(Q)ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	HSAR_FILES=$(abspath $(BUILD)/test-esp) HSAR_OPTIONS="vapu_workgroup_delay_us=2000" \
	  $(HOST_UNIT_TESTS) '$(or $(TESTS),placement_slow_*)'

TEST_SUITES += gpu-chips
.PHONY: suite-gpu-chips
suite-gpu-chips: $(HOST_UNIT_TESTS) $(KERNEL_CORPUS) $(GPU_CORPUS_GFX90C) $(GPU_TEST_KERNELS)
	$(Q)fail=0; for run in $(foreach c,$(GPU_CHIP_VARIANTS),$(c):$(GPU_LOCAL_POOL_$(c))); do \
	  chip=$${run%%:*}; options="vapu=$$chip $${run#*:}"; \
	  echo "== $$options"; \
	  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  HSAR_FILES=$(abspath $(BUILD)/test-esp) HSAR_OPTIONS="$$options" \
	    $(HOST_UNIT_TESTS) '$(or $(TESTS),$(GPU_CHIP_TESTS))' || fail=1; \
	done; \
	echo "== vapu=raven vapu_inactive_cus=$(GPU_HARVEST_MASK)"; \
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	HSAR_FILES=$(abspath $(BUILD)/test-esp) HSAR_OPTIONS="vapu=raven vapu_inactive_cus=$(GPU_HARVEST_MASK)" \
	  $(HOST_UNIT_TESTS) '$(or $(TESTS),$(GPU_HARVEST_TESTS))' || fail=1; \
	exit $$fail

# The apps' kernels: apps/<app>/*.cl built by tools/hsacc (code object v5,
# -O2) into one file for every agent, the GPU code objects of every GPU
# target the image drives and the CPU agents' code:
#   $(APP_KERNELS_DIR)/<app>/<name>.hsaco
# which the app's ESP carries as \kernels\<name>.hsaco (mk/image.mk).
APP_KERNELS_DIR := $(BUILD)/app-kernels

# $(call app_kernel_rule,source,app)
define app_kernel_rule
$(APP_KERNELS_DIR)/$(2)/$(call kernel_name,$(1)).hsaco: $(1) $(HSACC_DEPS)
	@mkdir -p $$(dir $$@)
	@echo "HSACC   $$@"
	$(Q)$(HSACC) -O2 -mcode-object-version=5 -o $$@ $$<
APP_KERNELS_$(2) += $(APP_KERNELS_DIR)/$(2)/$(call kernel_name,$(1)).hsaco
endef

$(foreach app,$(IMAGE_APPS),$(foreach src,$(wildcard apps/$(app)/*.cl),\
  $(eval $(call app_kernel_rule,$(src),$(app)))))

.PHONY: app-kernels
app-kernels: $(foreach app,$(IMAGE_APPS),$(APP_KERNELS_$(app)))
host: app-kernels

# The corpus on the GPU agent in the boot image: QEMU with the virtual APU
# on a core of its own (vapu=raven), the code objects on the ESP in
# \kernels; every kernel at every optimisation level and code object
# version, and the fault tests. The other chips run the same tests in their
# image-vapu-<chip> suites (drivers/amdgpu/module.mk). GPU_IMAGE_ARGS: more
# boot options (e.g. loglevel=debug).
GPU_IMAGE_TIMEOUT ?= 600
GPU_IMAGE_ARGS    ?=
GPU_IMAGE_TESTS   := gpu_corpus_*,gpu_fault_*,gpu_bad_input_*,cl_corpus_one_kernarg_*,placement_*
GPU_IMAGE_KERNELS := $(KERNEL_CORPUS) $(GPU_CORPUS_GFX90C) $(GPU_TEST_KERNELS)
TEST_SUITES += image-gpu-corpus
.PHONY: suite-image-gpu-corpus
suite-image-gpu-corpus: $(BUILD)/test.efi $(IMAGE_TEST_GEN_FILES) $(GPU_IMAGE_KERNELS)
	$(Q)qemu/boot.sh --tests $(if $(TESTS),--allow-empty) --smp 4 --timeout $(GPU_IMAGE_TIMEOUT) \
	    --log $(BUILD)/test-logs/image-gpu-corpus.serial.log \
	    $(foreach t,$(IMAGE_TEST_ESP_TREES),--tree $(t)) --add kernels=$(KERNELS_DIR) \
	    $(BUILD)/test.efi vapu=raven test_expect_iommu=on $(GPU_IMAGE_ARGS) \
	    'test=$(or $(TESTS),$(GPU_IMAGE_TESTS))'
# The chip suites carry the corpus on their ESP too.
$(addprefix suite-image-vapu-,$(AMDGPU_IMAGE_CHIPS)): $(GPU_IMAGE_KERNELS)

# The demo (`make run`'s app) as a test: on the host against the host
# library, and booted in QEMU with the virtual APU. Each passes when every
# result matched (exit status 0, "all results match").
DEMO_HOST := $(HOST_DIR)/bin/demo
# $(call gpu_test_selected,name): a shell condition, true unless TESTS names
# other tests only.
gpu_test_selected = { run=$(if $(TESTS),0,1); for p in $(subst $(comma), ,$(TESTS)); do \
    case $(1) in $$p) run=1 ;; esac; done; [ $$run = 1 ]; }
TEST_SUITES += demo-host image-demo
TEST_BUILD_DEPS += $(DEMO_HOST) $(APP_KERNELS_demo) $(BUILD)/demo.efi $(BUILD)/demo.img
.PHONY: suite-demo-host suite-image-demo
suite-demo-host: $(DEMO_HOST) $(APP_KERNELS_demo) $(AMDGPU_TEST_FIRMWARE)
	$(Q)$(call gpu_test_selected,demo_host_gpu_and_cpu_results_match) || { echo "no test of this suite matches TESTS"; exit 0; }; \
	mkdir -p $(BUILD)/test-logs; \
	if HSAR_FILES=$(abspath $(BUILD)/test-esp) $(DEMO_HOST) $(APP_KERNELS_DIR)/demo \
	    > $(BUILD)/test-logs/demo-host.out 2>&1 && grep -q 'all results match' $(BUILD)/test-logs/demo-host.out; \
	then echo "[PASS] demo_host_gpu_and_cpu_results_match"; \
	else cat $(BUILD)/test-logs/demo-host.out; echo "[FAIL] demo_host_gpu_and_cpu_results_match"; exit 1; fi
suite-image-demo: $(BUILD)/demo.efi $(BUILD)/demo.img $(AMDGPU_RUN_FIRMWARE)
	$(Q)$(call gpu_test_selected,image_demo_gpu_and_cpu_results_match) || { echo "no test of this suite matches TESTS"; exit 0; }; \
	if qemu/boot.sh --quiet --smp 4 --timeout $(GPU_IMAGE_TIMEOUT) --expect-status 0 \
	    --expect-log 'demo: all results match' --log $(BUILD)/test-logs/image-demo.serial.log \
	    --esp-from $(BUILD)/demo.img $(foreach t,$(RUN_ESP_TREES),--tree $(t)) $(BUILD)/demo.efi vapu=raven; \
	then echo "[PASS] image_demo_gpu_and_cpu_results_match"; \
	else echo "[FAIL] image_demo_gpu_and_cpu_results_match"; exit 1; fi


# `make bench` also runs bench-gpu: AQL round trips and dispatch throughput
# on the virtual APU through the driver's hardware queue (host, -O2).
BENCH_GPU        := $(HOST_DIR)/bin/bench-gpu
BENCH_GPU_ROUNDS ?= 1000
$(BENCH_GPU): $(call host_obj,bench/gpu_dispatch.c bench/stats.c support/gpu_kernel.c) $(HOST_RUNTIME_LIB)
	@mkdir -p $(dir $@)
	@echo "LD      $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $^ -o $@ $(HOST_LDLIBS)
.PHONY: bench-gpu
bench-gpu: $(BENCH_GPU) $(KERNEL_CORPUS) $(AMDGPU_RUN_FIRMWARE)
	$(Q)HSAR_FILES=$(abspath $(BUILD)/vapu-firmware) $(BENCH_GPU) $(abspath $(KERNELS_DIR)) $(BENCH_GPU_ROUNDS)
bench: bench-gpu

# libFuzzer target over AQL packets through a GPU agent's queue
# (tests/fuzz/fuzz_aql.c, run by suite-fuzz with the other targets): the
# whole host runtime, the virtual APU's firmware and one corpus kernel.
FUZZ_AQL_SEED_DIR := $(BUILD)/fuzz/aql-seeds
FUZZ_SRCS_fuzz_aql  := $(RUNTIME_HOST_SRCS) support/gpu_kernel.c
FUZZ_SEEDS_fuzz_aql := $(addprefix $(FUZZ_AQL_SEED_DIR)/,dispatch.aql barrier_and.aql barrier_or.aql \
                         barrier_value.aql mix.aql)
$(FUZZ_SEEDS_fuzz_aql) &: tools/fuzz-aql-seeds.py
	$(Q)python3 $< $(FUZZ_AQL_SEED_DIR)
$(BUILD)/fuzz/fuzz_aql: FUZZ_CFLAGS += -DFUZZ_GPU_FILES_DIR='"$(abspath $(BUILD)/vapu-firmware)"' \
                                     -DFUZZ_KERNELS_DIR='"$(abspath $(KERNELS_DIR))"'
$(BUILD)/fuzz/fuzz_aql: | $(AMDGPU_RUN_FIRMWARE) $(KERNELS_DIR)/gfx902/vector_add.O2.v5.co
