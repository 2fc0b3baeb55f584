/*
 * ioapic.h - the I/O APICs: global system interrupts (GSIs) routed to
 * vectors. At boot every input is masked; a driver that needs a wired
 * interrupt (an ISA IRQ, the HPET's timers) routes its GSI explicitly.
 *
 * Sources: Intel 82093AA I/O APIC datasheet, 3.0-3.2 (IOREGSEL at +0x00,
 * IOWIN at +0x10; registers ID 0x00, version 0x01 with the highest
 * redirection entry in bits 23:16, redirection entry n at 0x10 + 2n: vector
 * 7:0, delivery mode 10:8, destination mode 11, polarity 13 (1 = low),
 * trigger 15 (1 = level), mask 16, destination 63:56); ACPI 6.5, 5.2.12.3
 * and 5.2.12.5 (I/O APIC entries, ISA interrupt source overrides).
 */
#ifndef KERNEL_IOAPIC_H
#define KERNEL_IOAPIC_H

#include <stdbool.h>
#include <stdint.h>

#define IOAPIC_ACTIVE_LOW (1u << 0)
#define IOAPIC_LEVEL      (1u << 1)

/* Finds the I/O APICs of the MADT and masks every input. Returns how many
 * I/O APICs there are. */
int ioapic_init(void);

/* Routes `gsi` to `vector` on the core with APIC ID `dest` (fixed delivery,
 * physical destination), with IOAPIC_* polarity/trigger flags, unmasked.
 * -ENODEV if no I/O APIC has that input. */
int ioapic_route(uint32_t gsi, uint8_t vector, uint32_t dest, unsigned flags);
int ioapic_mask(uint32_t gsi, bool masked);

/* The GSI and IOAPIC_* flags of ISA IRQ `irq` (0-15), after the MADT's
 * interrupt source overrides (ISA default: same number, edge, active high). */
uint32_t ioapic_isa_gsi(unsigned irq, unsigned *flags);

/* Number of inputs over all I/O APICs. */
unsigned ioapic_input_count(void);

#endif
