# `make bench`: host benchmarks that print figures (never pass/fail).
#   bench-dispatch: CPU-agent dispatch round trip vs the cache-line floor,
#   an OpenMP parallel region and pocl (Debian libgomp1, pocl-opencl-icd,
#   ocl-icd-opencl-dev in mk/deps.mk).
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
