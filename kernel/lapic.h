/*
 * lapic.h - the local APIC of each core: identification, end of interrupt,
 * inter-processor interrupts and the one-shot timer. x2APIC mode (MSR
 * access, 32-bit IDs) when the CPU has it, else xAPIC (MMIO).
 *
 * Source: Intel SDM vol. 3A, chapter 11 "Advanced Programmable Interrupt
 * Controller (APIC)": 11.4.4 IA32_APIC_BASE (MSR 0x1b: bit 11 enable, bit 10
 * x2APIC mode), Table 11-1 register map (ID 0x20, TPR 0x80, EOI 0xb0, SVR
 * 0xf0, ESR 0x280, ICR 0x300/0x310, LVT timer 0x320, LINT0 0x350, LINT1
 * 0x360, LVT error 0x370, timer initial/current count 0x380/0x390, divide
 * 0x3e0), 11.6.1 ICR fields, 11.5.4 timer, 11.12.1 x2APIC MSRs (0x800 +
 * offset / 16; the ICR is the single 64-bit MSR 0x830). AMD64 APM vol. 2,
 * 16.3-16.4 has the same layout for AMD cores.
 */
#ifndef KERNEL_LAPIC_H
#define KERNEL_LAPIC_H

#include <stdbool.h>
#include <stdint.h>

/* Boot core, once: chooses x2APIC or xAPIC (MMIO at `mmio_base`, from the
 * MADT), then sets this core up like lapic_init_core. */
int lapic_init_boot(uint64_t mmio_base);
/* Every core (the boot core through lapic_init_boot): software enable with
 * the spurious vector, task priority 0 (accept all), LINT0 masked (no 8259
 * virtual wire), LINT1 as NMI when the MADT says so, error vector, timer
 * masked. */
void lapic_init_core(void);

bool lapic_x2apic_mode(void);
uint32_t lapic_id(void);
void lapic_eoi(void);

/* Fixed-delivery IPI of `vector` to the core with APIC ID `dest`. Waits
 * (bounded) until the local APIC has sent it; false if it did not. */
bool lapic_send_ipi(uint32_t dest, uint8_t vector);
/* The same interrupt on this core (self IPI). */
void lapic_send_self(uint8_t vector);
/* INIT, then start-up IPI with the trampoline page `page` (address >> 12),
 * for bringing up an application processor (kernel/smp.c). */
bool lapic_send_init(uint32_t dest);
bool lapic_send_startup(uint32_t dest, uint8_t page);

/* The timer: one interrupt on IRQ_VECTOR_TIMER after `ns` (clamped to what
 * the 32-bit counter holds: about 4 s at 1 GHz; the caller re-arms for
 * longer waits). lapic_timer_stop() cancels it. Needs lapic_timer_calibrate. */
void lapic_timer_oneshot(uint64_t ns);
void lapic_timer_stop(void);
/* Measures the timer's input clock against the TSC: begin starts the
 * count, lapic_timer_calibrate (after time_calibrate) ends it, 20 ms or
 * more later, waiting for the rest. Boot core, once; no timer use between
 * the two. Returns its frequency in Hz, 0 if the timer does not count. */
void lapic_timer_calibration_begin(void);
uint64_t lapic_timer_calibrate(void);
uint64_t lapic_timer_hz(void);

/* Errors the local APIC latched (ESR), cleared by the read. */
uint32_t lapic_read_errors(void);

#endif
