/* irq.c - vectors 32-255 from the entry stubs (kernel/trap_entry.S).
 * Minimal version (kernel-core): hands the vector to irq_handle(), which
 * calls its handler or counts and reports it as unexpected
 * (kernel/irq_vector.c). kernel-platform extends it (EOI, spurious). */
#include "kernel/cpu.h"
#include "kernel/irq.h"

void irq_dispatch(struct trap_frame *f) { irq_handle((unsigned)f->vector); }
