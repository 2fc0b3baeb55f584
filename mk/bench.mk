# `make bench`: host benchmarks that print figures (never pass/fail).
#   bench-dispatch: CPU-agent dispatch round trip vs the cache-line floor,
#   an OpenMP parallel region and pocl (Debian libgomp1, pocl-opencl-icd,
#   ocl-icd-opencl-dev in mk/deps.mk).
#   bench-kernels (below): OpenCL C kernels on a CPU agent.
BENCH_DISPATCH := $(HOST_DIR)/bin/bench-dispatch
BENCH_ROUNDS   ?= 100000

$(HOST_DIR)/pic/bench/%.o: bench/%.c
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(HOST_CPPFLAGS) $(HOST_CFLAGS) $(HOST_PIC) $(HOST_OPT) -fopenmp -MMD -MP -c $< -o $@

$(BENCH_DISPATCH): $(call host_obj,$(BENCH_DISPATCH_SRCS)) $(HOST_RUNTIME_LIB)
	@mkdir -p $(dir $@)
	@echo "LD      $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -fopenmp $^ -o $@ -lOpenCL $(HOST_LDLIBS)

.PHONY: bench
bench: $(BENCH_DISPATCH)
	$(Q)$(BENCH_DISPATCH) $(BENCH_ROUNDS)

#   bench-kernels: the demo's kernels and the tiled matrix multiply on one
#   CPU agent of every core (the machine's, as pocl's CPU device takes
#   them): the OpenCL C built by tools/hsacc next to hand-written
#   HSA_CPU_KERNEL C and pocl running the same .cl (bench/kernels.c).
#   No HSAR_FILES: the host library's virtual APU finds no firmware and
#   stays off (its bring-up errors on stderr), so no model thread takes a
#   core from the agent.
BENCH_KERNELS      := $(HOST_DIR)/bin/bench-kernels
BENCH_KERNELS_RUNS ?= 5
BENCH_KERNELS_CL   := apps/demo/demo_kernels.cl tests/kernels/matmul_tiled.cl
BENCH_KERNELS_FILES := $(APP_KERNELS_DIR)/demo/demo_kernels.hsaco \
                       $(KERNELS_DIR)/hsacc/matmul_tiled.O2.v5.hsaco

$(BENCH_KERNELS): $(call host_obj,$(BENCH_KERNELS_SRCS)) $(HOST_RUNTIME_LIB)
	@mkdir -p $(dir $@)
	@echo "LD      $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $^ -o $@ -lOpenCL $(HOST_LDLIBS)

.PHONY: bench-kernels
bench-kernels: $(BENCH_KERNELS) $(BENCH_KERNELS_FILES) $(BENCH_KERNELS_CL)
	$(Q)HSAR_OPTIONS="cpu_agents=1 cpu_agent_cores=$$(nproc)" \
	    $(BENCH_KERNELS) $(BENCH_KERNELS_FILES) $(BENCH_KERNELS_CL) $(BENCH_KERNELS_RUNS)
bench: bench-kernels

# What a user of the image feels, each figure with its goal: the boot's
# steps and main()'s start from a fresh boot log and `make run` next to a
# Debian 12 kernel with a busybox init booted the same way
# (bench/boot_compare.sh, which installs linux-image-amd64 and
# busybox-static when they are missing), the images' sizes by part (with
# and without the virtual APU), and the time the whole GPU corpus takes on
# the host (the host-unit suite's tests of it).
BENCH_BOOT_RUNS ?= 3
.PHONY: bench-boot bench-size bench-corpus
bench-boot: $(BUILD)/demo.efi $(BUILD)/demo.img $(AMDGPU_RUN_FIRMWARE)
	$(Q)BUILD=$(BUILD) bench/boot_compare.sh --deps --runs $(BENCH_BOOT_RUNS)
	$(Q)bench/boot_steps.sh $(BUILD)/run/demo.serial.log
bench-size: $(BUILD)/demo.efi $(BUILD)/demo-novapu.efi
	$(Q)python3 boot/image_size.py $(BUILD)/demo.efi $(EFI_DIR)/demo/image.map $(EFI_DIR)/demo/image.so 768
	$(Q)python3 boot/image_size.py $(BUILD)/demo-novapu.efi $(EFI_DIR)/demo-novapu/image.map \
	    $(EFI_DIR)/demo-novapu/image.so 512
bench-corpus: $(HOST_UNIT_TESTS) $(KERNEL_CORPUS) $(AMDGPU_TEST_FIRMWARE)
	$(Q)start=$$(date +%s%N); \
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 HSAR_FILES=$(abspath $(BUILD)/test-esp) \
	    $(HOST_UNIT_TESTS) 'gpu_corpus_*' > $(BUILD)/bench-corpus.log 2>&1 || \
	    { echo "bench-corpus: the corpus failed ($(BUILD)/bench-corpus.log)"; exit 1; }; \
	end=$$(date +%s%N); \
	echo "bench-corpus: the whole GPU corpus on the host (ASan build, $$(tail -n 1 $(BUILD)/bench-corpus.log)): $$(( (end - start) / 1000000 )) ms"
bench: bench-boot bench-size bench-corpus

# bench-placement: the placement queue (hsa_ext_placement.h): forwarding
# cost against a CPU agent's own queue, a mixed workload under placement,
# GPU only and CPU only, and co-execution of one large dispatch (host, -O2).
BENCH_PLACEMENT := $(HOST_DIR)/bin/bench-placement
# One CPU agent by default: with two, an empty dispatch through placement
# alternates between them (equal predictions) and wakes the idle one.
BENCH_PLACEMENT_CPU_AGENTS ?= 1
$(BENCH_PLACEMENT): $(call host_obj,bench/placement_queue.c bench/stats.c support/gpu_kernel.c) $(HOST_RUNTIME_LIB)
	@mkdir -p $(dir $@)
	@echo "LD      $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $^ -o $@ $(HOST_LDLIBS)
.PHONY: bench-placement
bench-placement: $(BENCH_PLACEMENT) $(HSACC_CORPUS) $(AMDGPU_RUN_FIRMWARE)
	$(Q)HSAR_FILES=$(abspath $(BUILD)/vapu-firmware) HSAR_OPTIONS="cpu_agents=$(BENCH_PLACEMENT_CPU_AGENTS)" \
	    $(BENCH_PLACEMENT) $(abspath $(KERNELS_DIR))
bench: bench-placement
