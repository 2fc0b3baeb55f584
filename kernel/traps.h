/* traps.h - CPU exception handling (vectors 0-31; the handler itself is
 * trap_exception() in cpu.h, called by the entry stubs). */
#ifndef KERNEL_TRAPS_H
#define KERNEL_TRAPS_H

/* The test image installs lib/test.h's test_on_cpu_exception here, on the
 * core that runs the tests: after the report, a fault of that core inside
 * a running test goes back to the runner. */
void traps_set_test_hook(void (*hook)(int vector));

#endif
