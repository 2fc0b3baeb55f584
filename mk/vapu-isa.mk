# The gfx9 interpreter's (vapu/isa/) test inputs, quick test program and
# benchmark. Its tests (tests/host/vapu_isa_*.c) run in the host-unit suite.
#
#   make vapu-isa-tests     only the vapu_isa_* host tests, under ASan/UBSan
#   make bench              also runs bench-vapu-isa: interpreter throughput
#
# Test inputs, built once:
#   $(BUILD)/vapu-isa/<name>.o        tests/data/vapu_isa/<name>.s assembled by llvm-mc
#   <object>.dis                      llvm-objdump's "address mnemonic" listing of
#                                     every corpus code object and asm object, which
#                                     vapu_isa_objdump_test compares with our decoder
#   $(BUILD)/vapu-isa/<name>.<opt>.v<cov>.co   tests/data/vapu_isa/<name>.cl by clang-19
LLVM_MC         ?= llvm-mc-19
VAPU_ISA_DIR    := $(BUILD)/vapu-isa
VAPU_ISA_ASM    := $(sort $(wildcard tests/data/vapu_isa/*.s))
VAPU_ISA_OBJS   := $(patsubst tests/data/vapu_isa/%.s,$(VAPU_ISA_DIR)/%.o,$(VAPU_ISA_ASM))
VAPU_ISA_CL     := $(sort $(wildcard tests/data/vapu_isa/*.cl))
VAPU_ISA_CL_COS := $(foreach f,$(VAPU_ISA_CL),$(foreach v,O0.v5 O2.v4 O2.v5 O3.v5,\
                     $(VAPU_ISA_DIR)/$(basename $(notdir $(f))).$(v).co))
VAPU_ISA_DIS    := $(addsuffix .dis,$(KERNEL_CORPUS) $(VAPU_ISA_OBJS) $(VAPU_ISA_CL_COS))

$(VAPU_ISA_DIR)/%.o: tests/data/vapu_isa/%.s | deps
	@mkdir -p $(dir $@)
	@echo "GPUAS   $@"
	$(Q)$(LLVM_MC) -triple=amdgcn-amd-amdhsa -mcpu=gfx902 -filetype=obj $< -o $@

# OpenCL C test kernels, as mk/kernels.mk builds the corpus.
.SECONDEXPANSION:
$(VAPU_ISA_CL_COS): $(VAPU_ISA_DIR)/%.co: tests/data/vapu_isa/$$(word 1,$$(subst ., ,$$*)).cl | deps
	@mkdir -p $(dir $@)
	@echo "GPUCC   $@"
	$(Q)$(GPU_CC) $(GPU_CFLAGS) $(GPU_CFLAGS_cl) -mcpu=gfx902 \
	    -mcode-object-version=$(subst v,,$(word 3,$(subst ., ,$*))) -$(word 2,$(subst ., ,$*)) -c $< -o $@.o
	$(Q)$(GPU_LD) -shared $@.o -o $@ && rm -f $@.o

# "<address> <mnemonic>" for each instruction llvm-objdump prints.
$(VAPU_ISA_DIS): %.dis: %
	$(Q)$(LLVM_OBJDUMP) -d --mcpu=gfx902 $< | \
	    sed -n 's|^[[:space:]]*\([a-z0-9_]*\).*// \([0-9A-F]*\):.*|\2 \1|p' > $@.tmp && mv $@.tmp $@

VAPU_ISA_TEST_OBJS := $(call host_asan_obj,$(wildcard tests/host/vapu_isa_*.c)) \
                      $(call host_obj,$(wildcard tests/host/vapu_isa_*.c))
$(VAPU_ISA_TEST_OBJS): HOST_CPPFLAGS += -DVAPU_ISA_BUILD_DIR='"$(abspath $(BUILD))"'

TEST_BUILD_DEPS += $(VAPU_ISA_OBJS) $(VAPU_ISA_CL_COS) $(VAPU_ISA_DIS)

# The interpreter's tests alone, with what they use: quick to iterate on.
VAPU_ISA_TESTS := $(HOST_ASAN_DIR)/vapu-isa-tests
$(VAPU_ISA_TESTS): $(call host_asan_obj,$(LIB_SRCS) $(HOST_PLAT_SRCS) $(VAPU_ISA_SRCS) \
                     $(LOADER_SRCS) $(LIB_TEST_SRCS) $(HOST_TEST_MAIN) tests/common/kernel_corpus.c \
                     $(wildcard tests/host/vapu_isa_*.c))
	@echo "LD      $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $(ASAN_OPT) $^ -o $@ $(HOST_LDLIBS)

.PHONY: vapu-isa-tests
vapu-isa-tests: $(VAPU_ISA_TESTS) $(VAPU_ISA_OBJS) $(VAPU_ISA_CL_COS) $(VAPU_ISA_DIS)
	$(Q)ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    $(VAPU_ISA_TESTS) '$(or $(TESTS),vapu_isa_*)'

# Interpreter throughput (tests/vapu_isa/vapu_isa_bench.c), one host
# thread, optimised build: run by `make bench`.
BENCH_VAPU_ISA := $(HOST_DIR)/bin/bench-vapu-isa
$(call host_obj,tests/vapu_isa/vapu_isa_bench.c): HOST_CPPFLAGS += -DVAPU_ISA_BUILD_DIR='"$(abspath $(BUILD))"'
$(BENCH_VAPU_ISA): $(call host_obj,$(LIB_SRCS) $(HOST_PLAT_SRCS) $(VAPU_ISA_SRCS) $(LOADER_SRCS) \
                     tests/host/vapu_isa_harness.c tests/vapu_isa/vapu_isa_bench.c)
	@mkdir -p $(dir $@)
	@echo "LD      $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $^ -o $@ $(HOST_LDLIBS)

.PHONY: bench-vapu-isa
bench-vapu-isa: $(BENCH_VAPU_ISA) $(KERNEL_CORPUS)
	$(Q)$(BENCH_VAPU_ISA)
bench: bench-vapu-isa

# The interpreter's lane loops are written for the vectoriser: -O3 turns it
# on fully in the host builds (the image build sets its own flags).
$(call host_obj,$(VAPU_ISA_SRCS)): HOST_OPT := -O3
