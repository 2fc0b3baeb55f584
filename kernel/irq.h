/*
 * irq.h - interrupt vectors 32-255: allocation, handlers, counters.
 *
 * The IDT sends vectors 32-255 to irq_dispatch() (kernel/irq.c), which calls
 * the handler registered for the vector, counts what nobody claimed, and
 * signals end-of-interrupt to the local APIC. Device interrupts (MSI, MSI-X,
 * I/O APIC) take vectors from the allocator; the top of the range is fixed
 * for the kernel's own uses.
 *
 * Source: Intel SDM vol. 3A, 6.2 (vectors 0-31 are reserved for exceptions),
 * 11.8.3.1 (a vector's priority class is vector >> 4: higher is served
 * first), 11.9 (spurious interrupts: no EOI).
 */
#ifndef KERNEL_IRQ_H
#define KERNEL_IRQ_H

#include <stdbool.h>
#include <stdint.h>

#define IRQ_VECTOR_FIRST      0x20 /* first vector after the exceptions */
#define IRQ_VECTOR_ALLOC_LAST 0xef /* devices get 0x20-0xef */
#define IRQ_VECTOR_TIMER      0xf0 /* local APIC timer (one-shot wake-ups) */
#define IRQ_VECTOR_WAKE       0xf1 /* IPI: a parked or waiting core re-checks its work */
#define IRQ_VECTOR_TLB        0xf2 /* IPI: drop the TLB (kernel/smp.c) */
#define IRQ_VECTOR_LAPIC_ERROR 0xfe
#define IRQ_VECTOR_SPURIOUS   0xff /* local APIC spurious-interrupt vector */

#define IRQ_VECTOR_COUNT 256

/* Runs on the core that took the interrupt, with interrupts disabled, on
 * that core's current stack: keep it short (acknowledge the device, record
 * the event, plat_wake() whoever waits for it). */
typedef void (*irq_handler_fn)(void *ctx);

/* Reserves `count` consecutive vectors from the device range, the first
 * aligned to `align` (a power of two; multi-message MSI needs count ==
 * align, PCI 3.0, 6.8.1.3: the device ORs the message number into the low
 * data bits). Returns the first vector, or -ENOSPC. */
int irq_vector_alloc(unsigned count, unsigned align);
void irq_vector_free(unsigned first, unsigned count);

/* Sets (fn != NULL) or clears the handler of an allocated or fixed vector.
 * -EINVAL for an exception vector or a vector not allocated. */
int irq_set_handler(unsigned vector, irq_handler_fn fn, void *ctx);

/* Calls the handler of `vector` and counts the interrupt; a vector without
 * handler is counted as unexpected (and logged the first time). Returns
 * whether a handler ran. Used by irq_dispatch and by tests. */
bool irq_handle(unsigned vector);

/* Makes `vector` arrive again on this core: image, a self-IPI through the
 * local APIC (installed by irq_init with irq_set_resend); until then (and
 * on the host) the handler is called directly. */
void irq_resend(unsigned vector);
void irq_set_resend(void (*resend)(unsigned vector));

/* How many times `vector` arrived (handled or not). */
uint64_t irq_count(unsigned vector);
/* Interrupts that arrived with no handler, and spurious local APIC (and
 * 8259) interrupts, since boot. */
uint64_t irq_unexpected_count(void);
uint64_t irq_spurious_count(void);
void irq_count_spurious(void);

/* Image: masks the 8259s, brings up the boot core's local APIC and the
 * I/O APICs, installs the fixed vectors' handlers, enables interrupts on
 * this core and starts the local APIC timer's calibration (ended by
 * lapic_timer_calibrate).
 * Returns 0 or a negative errno (logged). */
int irq_init(void);

#endif
