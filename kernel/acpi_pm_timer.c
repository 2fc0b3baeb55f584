/*
 * acpi_pm_timer.c - the ACPI PM timer (see acpi_pm_timer.h).
 */
#define LOG_TAG "acpi"
#include "kernel/acpi_pm_timer.h"

#include <errno.h>

#include "kernel/acpi.h"
#include "kernel/portio.h"
#include "lib/plat.h"

static struct acpi_gas timer;
static unsigned bits;

int acpi_pm_timer_init(void) {
  const struct acpi_info *a = acpi_machine();
  if (!a->have_fadt || !a->fadt.pm_timer.address) return -ENODEV;
  const struct acpi_gas *g = &a->fadt.pm_timer;
  if (g->space_id != ACPI_SPACE_IO && g->space_id != ACPI_SPACE_MEMORY) {
    log_warn("PM timer in address space %u: not supported", g->space_id);
    return -ENODEV;
  }
  if (g->space_id == ACPI_SPACE_IO && g->address > 0xfffc) {
    log_warn("PM timer at port 0x%llx: beyond the I/O space", (unsigned long long)g->address);
    return -ENODEV;
  }
  timer = *g;
  bits = a->fadt.pm_timer_32bit ? 32 : 24;
  return 0;
}

bool acpi_pm_timer_present(void) { return timer.address != 0; }

uint32_t acpi_pm_timer_read(void) {
  uint32_t v = timer.space_id == ACPI_SPACE_IO
                   ? inl((uint16_t)timer.address)
                   : *(volatile uint32_t *)(uintptr_t)timer.address;
  return bits == 32 ? v : v & 0xffffff;
}

unsigned acpi_pm_timer_bits(void) { return bits; }
