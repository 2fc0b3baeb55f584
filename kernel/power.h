/* power.h - switching the machine off or resetting it through ACPI (the
 * FADT that kernel/acpi*.c parsed); used by kernel_exit() (exit.c). */
#ifndef KERNEL_POWER_H
#define KERNEL_POWER_H

/* Enters S5 (soft off). Returns only if the machine is still running a
 * second later, or if the FADT or \_S5 is missing (logged). */
void power_off_acpi(void);

/* Writes the FADT's reset register when it has one. Returns only if the
 * machine did not reset within 100 ms, or there is no reset register. */
void reset_acpi(void);

#endif
