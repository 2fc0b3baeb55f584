/* traps.h - CPU exception handling (vectors 0-31; the handler itself is
 * trap_exception() in cpu.h, called by the entry stubs). */
#ifndef KERNEL_TRAPS_H
#define KERNEL_TRAPS_H

/* The test image installs lib/test.h's test_on_cpu_exception here: after
 * the report, a fault inside a running test goes back to the runner. */
void traps_set_test_hook(void (*hook)(int vector));

#endif
