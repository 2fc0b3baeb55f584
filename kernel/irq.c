/*
 * irq.c - vectors 32-255 from the entry stubs (kernel/trap_entry.S), and
 * the bring-up of the interrupt controllers.
 *
 * Every interrupt of ours arrives through the local APIC (I/O APIC inputs,
 * MSI/MSI-X messages, IPIs, the APIC timer), so each is ended with an EOI
 * to it, except the spurious vector, which is not in service and must not
 * be acknowledged (Intel SDM vol. 3A, 11.9 "Spurious Interrupt").
 */
#define LOG_TAG "irq"
#include "kernel/irq.h"

#include "kernel/acpi.h"
#include "kernel/cpu.h"
#include "kernel/ioapic.h"
#include "kernel/lapic.h"
#include "kernel/msi.h"
#include "kernel/portio.h"
#include "lib/plat.h"

void irq_dispatch(struct trap_frame *f) {
  unsigned vector = (unsigned)f->vector;
  if (vector == IRQ_VECTOR_SPURIOUS) {
    irq_count_spurious();
    return;
  }
  irq_handle(vector);
  lapic_eoi();
}

/* The 8259 pair is unused (the I/O APIC takes the ISA interrupts): mask
 * every line through the interrupt mask registers, OCW1 at ports 0x21 and
 * 0xa1 (Intel 8259A datasheet, "Operation Command Words"). */
static void mask_legacy_pics(void) {
  outb(0x21, 0xff);
  outb(0xa1, 0xff);
}

static void ignore(void *ctx) { (void)ctx; }

static void lapic_error(void *ctx) {
  (void)ctx;
  log_error("local APIC %u reports error 0x%x (ESR, Intel SDM vol. 3A, 11.5.3)", lapic_id(),
            lapic_read_errors());
}

static void resend_by_self_ipi(unsigned vector) { lapic_send_self((uint8_t)vector); }

int irq_init(void) {
  const struct acpi_info *a = acpi_machine();
  if (!a->have_madt || a->madt.pcat_compat) mask_legacy_pics();
  int err = lapic_init_boot(a->have_madt ? a->madt.lapic_address : 0);
  if (err) return err;
  ioapic_init();
  irq_set_handler(IRQ_VECTOR_TIMER, ignore, NULL); /* it only ends a HLT */
  irq_set_handler(IRQ_VECTOR_WAKE, ignore, NULL);
  irq_set_handler(IRQ_VECTOR_LAPIC_ERROR, lapic_error, NULL);
  msi_set_destination(lapic_id());
  irq_set_resend(resend_by_self_ipi);
  __asm__ volatile("sti" ::: "memory");
  lapic_timer_calibration_begin(); /* ended by lapic_timer_calibrate, later in the boot */
  return 0;
}
