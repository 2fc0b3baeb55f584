# The code object loader's programs and suite (the corpus is in
# mk/kernels.mk, the fuzz targets in mk/fuzz.mk).
#
#   make loader-tests   only the loader_* host tests, under ASan/UBSan: quick
#                       to iterate on (make test runs them in host-unit)
#   suite-loader        what clang's tools say about every corpus code object
#                       (llvm-readelf-19: header, symbols, metadata note)
#                       against what the loader reads (loader-dump); and the
#                       corpus table's CPU references against PoCL running
#                       the OpenCL C kernels (corpus-pocl)
LOADER_HOST_SRCS := $(LIB_SRCS) $(HOST_PLAT_SRCS) $(LOADER_SRCS)
# All loader tests but those of the HSA API, which need the whole runtime.
LOADER_API_TESTS := tests/host/loader_executable_test.c tests/host/loader_code_object_v1_test.c
LOADER_TEST_SRCS := $(filter-out $(LOADER_API_TESTS),$(wildcard tests/host/loader_*.c))
LOADER_TESTS     := $(HOST_ASAN_DIR)/loader-tests
LOADER_DUMP      := $(HOST_DIR)/bin/loader-dump
CORPUS_POCL      := $(HOST_DIR)/bin/corpus-pocl

$(LOADER_TESTS): $(call host_asan_obj,$(LOADER_HOST_SRCS) $(LIB_TEST_SRCS) $(HOST_TEST_MAIN) \
                   tests/common/kernel_corpus.c $(LOADER_TEST_SRCS))
	@echo "LD      $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $(ASAN_OPT) $^ -o $@ $(HOST_LDLIBS)

$(LOADER_DUMP): $(call host_obj,$(LOADER_HOST_SRCS) tests/loader/loader_dump.c)
	@mkdir -p $(dir $@)
	@echo "LD      $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $^ -o $@ $(HOST_LDLIBS)

$(CORPUS_POCL): $(call host_obj,tests/loader/corpus_pocl.c tests/common/kernel_corpus.c)
	@mkdir -p $(dir $@)
	@echo "LD      $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $^ -o $@ -lOpenCL -lm

.PHONY: loader-tests suite-loader
loader-tests: $(LOADER_TESTS)

TEST_SUITES += loader
TEST_BUILD_DEPS += $(LOADER_DUMP) $(CORPUS_POCL) $(KERNEL_CORPUS)
suite-loader: $(LOADER_DUMP) $(CORPUS_POCL) $(KERNEL_CORPUS)
	$(Q)status=0; tests/loader/check_readelf.sh $(LOADER_DUMP) $(KERNELS_DIR)/gfx902 || status=1; \
	    $(CORPUS_POCL) tests/kernels || status=1; exit $$status
