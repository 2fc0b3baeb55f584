# The OpenCL C built-in library of the CPU agents (cl/builtins/), compiled
# for x86-64 with the flags every CPU-side OpenCL C file gets (CL_CPU_CFLAGS),
# one object per source and all of them as one relocatable object:
#
#   $(BUILD)/cl/cl/builtins/<name>.o, $(CL_BUILTIN_OBJ) = $(BUILD)/cl/builtins.o
#
# and its test program, $(CL_BUILTIN_TESTS): tests/cl/*.cl (OpenCL C test
# functions with C names, same flags) and tests/cl/*.c (the checks, under
# ASan/UBSan) linked with the library and the host's libm.
CL_CC         ?= clang-19
CL_CPU_CFLAGS := -target x86_64-unknown-linux-gnu -x cl -cl-std=CL2.0 \
                 -Xclang -finclude-default-header -fPIC -ffp-contract=off -O2 -mno-red-zone
# Diagnostics only: vectors wider than SSE registers go through memory
# in the x86-64 ABI without AVX, the same for the library and user code.
CL_WARN_CFLAGS := -Wall -Wno-psabi
CL_DIR        := $(BUILD)/cl
# The library's one C file (printf) for the same target and code model.
# -mno-red-zone: the image runs it in ring 0 (tools/hsacc, CPU_NOREDZONE).
CL_CPU_C_CFLAGS := -target x86_64-unknown-linux-gnu -x c -std=gnu11 -ffreestanding -fPIC -O2 \
                   -mno-red-zone
cl_obj         = $(patsubst %.c,$(CL_DIR)/%.o,$(patsubst %.cl,$(CL_DIR)/%.o,$(1)))

CL_BUILTIN_OBJS := $(call cl_obj,$(CL_BUILTIN_SRCS))
CL_BUILTIN_OBJ  := $(CL_DIR)/builtins.o

$(CL_DIR)/%.o: %.cl
	@mkdir -p $(dir $@)
	@echo "CLCC    $@"
	$(Q)$(CL_CC) $(CL_CPU_CFLAGS) $(CL_WARN_CFLAGS) -MMD -MP -c $< -o $@

$(CL_DIR)/cl/%.o: cl/%.c
	@mkdir -p $(dir $@)
	@echo "CLCC    $@"
	$(Q)$(CL_CC) $(CL_CPU_C_CFLAGS) $(WARN_CFLAGS) -MMD -MP -c $< -o $@

# In the library itself, hidden symbols in sections of their own: tools/hsacc
# links each kernel file with --gc-sections, so only the built-ins it calls
# stay (tens of KiB instead of megabytes in every copy the loader places per
# core), called directly, not through the PLT. The library has no mutable
# data that the copies would have to share.
$(CL_BUILTIN_OBJS): CL_CPU_CFLAGS += -fvisibility=hidden -ffunction-sections -fdata-sections
$(CL_BUILTIN_OBJS): CL_CPU_C_CFLAGS += -fvisibility=hidden -ffunction-sections -fdata-sections

$(CL_BUILTIN_OBJ): $(CL_BUILTIN_OBJS)
	$(Q)ld -r -o $@ $^

.PHONY: cl-builtins
cl-builtins: $(CL_BUILTIN_OBJ)

# The same library as one LLVM bitcode module, which tools/hsacc links with
# each kernel's module so that the built-ins are inlined into the kernels
# (llvm-link-19). Hidden symbols, as in the object; the C file without
# -ffreestanding: it marks every function "no-builtins", and LLVM's inliner
# does not inline such a function into a kernel that lacks the mark.
CL_BUILTIN_BC := $(CL_DIR)/builtins.bc
CL_BC_CFLAGS   := $(CL_CPU_CFLAGS) -fvisibility=hidden -emit-llvm
CL_BC_C_CFLAGS := $(filter-out -ffreestanding,$(CL_CPU_C_CFLAGS)) -fvisibility=hidden -emit-llvm
$(CL_DIR)/%.bc: %.cl
	@mkdir -p $(dir $@)
	$(Q)$(CL_CC) $(CL_BC_CFLAGS) $(CL_WARN_CFLAGS) -c $< -o $@
$(CL_DIR)/cl/%.bc: cl/%.c
	@mkdir -p $(dir $@)
	$(Q)$(CL_CC) $(CL_BC_C_CFLAGS) $(WARN_CFLAGS) -c $< -o $@
$(CL_BUILTIN_BC): $(patsubst %.o,%.bc,$(CL_BUILTIN_OBJS))
	@echo "LLVMLD  $@"
	$(Q)llvm-link-19 $^ -o $@
.PHONY: cl-builtins-bc
cl-builtins-bc: $(CL_BUILTIN_BC)

CL_TEST_CL_SRCS := $(sort $(wildcard tests/cl/*.cl))
CL_TEST_C_SRCS  := $(sort $(wildcard tests/cl/*.c))
CL_BUILTIN_TESTS := $(HOST_ASAN_DIR)/cl-builtins-tests
CL_TEST_HOST_SRCS := $(CL_TEST_C_SRCS) $(LIB_SRCS) $(HOST_PLAT_SRCS) $(LIB_TEST_SRCS) $(HOST_TEST_MAIN)

# The OpenCL C side of the tests and the library as one object whose printf,
# puts and putchar are renamed: in a host program those names are the C
# library's.
CL_TEST_CL_OBJ := $(CL_DIR)/tests-cl.o
CL_TEST_RENAMES := --redefine-sym printf=cl_printf --redefine-sym puts=cl_puts \
                   --redefine-sym putchar=cl_putchar
$(CL_TEST_CL_OBJ): $(call cl_obj,$(CL_TEST_CL_SRCS)) $(CL_BUILTIN_OBJ)
	$(Q)ld -r -o $@.tmp $^ && $(OBJCOPY) $(CL_TEST_RENAMES) $@.tmp $@ && rm -f $@.tmp

$(CL_BUILTIN_TESTS): $(call host_asan_obj,$(CL_TEST_HOST_SRCS)) $(CL_TEST_CL_OBJ)
	@echo "LD      $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $(ASAN_OPT) $^ -o $@ $(HOST_LDLIBS)

# The same OpenCL C side linked with newlib's libm (the image's C library)
# instead of the host's: the members of newlib's libm.a the library imports
# are pulled into the object, resolved there and made local, so that the
# math and conversion tests (compiled again with CL_TEST_NEWLIB, their names
# ending in _newlib_libm) measure the library as the image runs it.
CL_TEST_NEWLIB_OBJ := $(CL_DIR)/tests-cl-newlib.o
CL_TEST_NEWLIB_C_SRCS := tests/cl/cl_math.c tests/cl/cl_convert.c
CL_TEST_NEWLIB_HOST_OBJS := $(patsubst %.c,$(HOST_ASAN_DIR)/obj/newlib-libm/%.o,$(CL_TEST_NEWLIB_C_SRCS)) \
    $(call host_asan_obj,tests/cl/cl_test.c tests/cl/cl_stubs.c $(LIB_SRCS) $(HOST_PLAT_SRCS) \
                         $(LIB_TEST_SRCS) $(HOST_TEST_MAIN))
CL_BUILTIN_NEWLIB_TESTS := $(HOST_ASAN_DIR)/cl-builtins-newlib-tests
$(CL_TEST_NEWLIB_OBJ): $(call cl_obj,$(CL_TEST_CL_SRCS)) $(CL_BUILTIN_OBJ) $(NEWLIB_STAMP)
	$(Q)ld -r -o $@.libm.o $$(llvm-nm-19 -u $(CL_BUILTIN_OBJ) | awk '$$2 !~ /^_Z|^__hsa_cpu_write$$|^snprintf$$/ { printf "-u %s ", $$2 }') \
	    $(NEWLIB_LIBDIR)/libm.a
	$(Q)llvm-nm-19 --defined-only -g $@.libm.o | awk '{ print $$3 }' > $@.local
	$(Q)ld -r -o $@.tmp $(call cl_obj,$(CL_TEST_CL_SRCS)) $(CL_BUILTIN_OBJ) $@.libm.o
	$(Q)$(OBJCOPY) --localize-symbols=$@.local $(CL_TEST_RENAMES) $@.tmp $@
	$(Q)rm -f $@.tmp $@.libm.o $@.local
$(HOST_ASAN_DIR)/obj/newlib-libm/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(HOST_CPPFLAGS) -DCL_TEST_NEWLIB $(HOST_CFLAGS) $(ASAN_OPT) -MMD -MP -c $< -o $@
$(CL_BUILTIN_NEWLIB_TESTS): $(CL_TEST_NEWLIB_HOST_OBJS) $(CL_TEST_NEWLIB_OBJ)
	@echo "LD      $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $(ASAN_OPT) $^ -o $@ $(HOST_LDLIBS)

TEST_SUITES += cl-builtins
TEST_BUILD_DEPS += $(CL_BUILTIN_TESTS) $(CL_BUILTIN_NEWLIB_TESTS)
.PHONY: suite-cl-builtins
# Then the library as a whole (tests/cl/check-library.sh): its imports, and
# every built-in of opencl-c.h defined; the image's C library is newlib's.
suite-cl-builtins: $(CL_BUILTIN_TESTS) $(CL_BUILTIN_NEWLIB_TESTS) $(CL_BUILTIN_OBJ) $(NEWLIB_STAMP)
	$(Q)ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    $(CL_BUILTIN_TESTS) $(TESTS)
	$(Q)ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    $(CL_BUILTIN_NEWLIB_TESTS) $(TESTS)
	$(Q)tests/cl/check-library.sh $(CL_BUILTIN_OBJ) $(NEWLIB_LIBDIR) $(CL_CC)

-include $(shell find $(CL_DIR) $(HOST_ASAN_DIR)/obj/newlib-libm -name '*.d' 2>/dev/null)
