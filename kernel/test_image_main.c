/* test_image_main.c - main() of the test image (build/test.efi): runs the TEST()
 * cases linked into it (tests/image, tests/common) whose names match the
 * `test=` boot option; every test when it is absent or empty. A CPU
 * exception inside a test is reported and handed back to the runner. */
#include "kernel/traps.h"
#include "lib/plat.h"
#include "lib/test.h"

PLAT_OPTION(test, "test", "pattern[,pattern...] ('*', '?'): the tests to run (test image only)");

int main(int argc, char **argv) {
  (void)argc, (void)argv;
  traps_set_test_hook(test_on_cpu_exception);
  return test_run(plat_option("test")) ? 1 : 0;
}
