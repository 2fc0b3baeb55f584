# `make test`: build everything the suites need, then run each suite (a
# `suite-<name>` target registered with TEST_SUITES += <name>) with its output
# kept in $(BUILD)/test-logs/<name>.log, and end with the summary line
# "N passed, N failed[, N skipped]" (tests/run-suites.sh).
TEST_SUITES += host-unit
TEST_BUILD_DEPS += $(HOST_UNIT_TESTS)

# Default time limit for one suite, seconds; QEMU boots have their own.
SUITE_TIMEOUT ?= 900

# The build on every core (SUBMAKE_JOBS, mk/config.mk), then the suites one
# at a time.
.PHONY: test test-build suite-host-unit
test:
	$(Q)$(MAKE) --no-print-directory $(SUBMAKE_JOBS) test-build
	$(Q)SUITE_TIMEOUT=$(SUITE_TIMEOUT) tests/run-suites.sh $(BUILD)/test-logs \
	    "$(MAKE) --no-print-directory -s" $(TEST_SUITES)

test-build: $(TEST_BUILD_DEPS)

# Every reference in the tree leads somewhere (tools/check-references.sh
# prints each one that does not).
TEST_SUITES += references
.PHONY: suite-references
suite-references:
	$(Q)if tools/check-references.sh; then echo "[PASS] references_lead_somewhere"; \
	else echo "[FAIL] references_lead_somewhere"; exit 1; fi

# HSAR_FILES: the host's "boot file system" is the image tests' ESP tree
# (synthetic GPU firmware under amdgpu/, drivers/amdgpu/module.mk).
suite-host-unit: $(HOST_UNIT_TESTS)
	$(Q)ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    HSAR_FILES=$(abspath $(BUILD)/test-esp) $(HOST_UNIT_TESTS) $(TESTS)
