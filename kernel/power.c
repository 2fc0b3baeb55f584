/*
 * power.c - ACPI power-off and reset (see power.h), from the FADT and the
 * \_S5 values that kernel/acpi_fadt.c parsed.
 *
 * Sources: ACPI 6.5, 4.8.3.2.1 and Table 4.13 (PM1 control register:
 * SCI_EN bit 0, SLP_TYP bits 12:10, SLP_EN bit 13), 16.1.7 (entering a
 * sleeping state: SLP_TYPx then SLP_EN), 4.8.2.1 (SMI_CMD / ACPI_ENABLE
 * switch the firmware to ACPI mode), 4.8.3.6 (the reset register),
 * 5.2.3.2 (Generic Address Structure), Table 5.10 (HW_REDUCED_ACPI).
 */
#include "kernel/power.h"

#include "boot/boot_info.h"
#include "kernel/acpi.h"
#include "kernel/kernel.h"
#include "kernel/portio.h"
#include "kernel/time.h"
#include "lib/plat.h"

#define LOG_TAG "power"

#define PM1_SCI_EN        (1u << 0)
#define PM1_SLP_TYP_SHIFT 10
#define PM1_SLP_TYP_MASK  (7u << 10)
#define PM1_SLP_EN        (1u << 13)

static bool gas_usable(const struct acpi_gas *g) {
  return g->address != 0 && (g->space_id == ACPI_SPACE_IO || g->space_id == ACPI_SPACE_MEMORY);
}

/* PM1 control registers are 16 bits wide (FADT PM1_CNT_LEN = 2). */
static uint16_t read16(const struct acpi_gas *g) {
  if (g->space_id == ACPI_SPACE_IO) return inw((uint16_t)g->address);
  return *(volatile uint16_t *)(uintptr_t)g->address;
}

static void write16(const struct acpi_gas *g, uint16_t v) {
  if (g->space_id == ACPI_SPACE_IO)
    outw((uint16_t)g->address, v);
  else
    *(volatile uint16_t *)(uintptr_t)g->address = v;
}

static void write8(const struct acpi_gas *g, uint8_t v) {
  if (g->space_id == ACPI_SPACE_IO)
    outb((uint16_t)g->address, v);
  else
    *(volatile uint8_t *)(uintptr_t)g->address = v;
}

static void wait_ns(uint64_t ns) {
  uint64_t end = time_ns() + ns;
  while (time_ns() < end) plat_cpu_relax();
}

/* Firmware that still runs in legacy (SMM) mode ignores SLP_EN until the
 * OS asks for ACPI mode through SMI_CMD. */
static void enable_acpi_mode(const struct acpi_fadt *f) {
  if (read16(&f->pm1a_control) & PM1_SCI_EN) return;
  if (!f->smi_cmd || !f->acpi_enable) return;
  outb((uint16_t)f->smi_cmd, f->acpi_enable);
  uint64_t end = time_ns() + 1000000000ull;
  while (!(read16(&f->pm1a_control) & PM1_SCI_EN) && time_ns() < end) plat_cpu_relax();
}

static void set_sleep_type(const struct acpi_gas *g, uint8_t slp_typ, bool enable) {
  uint16_t v = (uint16_t)((read16(g) & ~PM1_SLP_TYP_MASK) | (slp_typ << PM1_SLP_TYP_SHIFT));
  write16(g, enable ? (uint16_t)(v | PM1_SLP_EN) : v);
}

/* The machine's tables; parsed here when the run ends before kernel_start
 * got to acpi_init (a bad command line, an early panic): acpi_init needs
 * nothing but the identity map, which the firmware's page tables are too. */
static const struct acpi_info *tables(void) {
  const struct acpi_info *a = acpi_machine();
  const struct boot_info *b = kernel_boot_info();
  if (!a->have_fadt && a->table_count == 0 && b && b->acpi_rsdp) acpi_init(b->acpi_rsdp);
  return acpi_machine();
}

void power_off_acpi(void) {
  const struct acpi_info *a = tables();
  if (!a->have_fadt) {
    log_warn("no ACPI power-off: no FADT");
    return;
  }
  const struct acpi_fadt *f = &a->fadt;
  if (f->flags & ACPI_FADT_HW_REDUCED) {
    log_warn("no ACPI power-off: hardware-reduced ACPI (sleep control register) is not supported");
    return;
  }
  if (!f->s5_found || !gas_usable(&f->pm1a_control)) {
    log_warn("no ACPI power-off: %s",
             f->s5_found ? "no usable PM1a control register" : "no \\_S5 object in the DSDT");
    return;
  }
  log_info("powering off (ACPI S5)");
  enable_acpi_mode(f);
  bool b = gas_usable(&f->pm1b_control);
  set_sleep_type(&f->pm1a_control, f->s5_slp_typ_a, false);
  if (b) set_sleep_type(&f->pm1b_control, f->s5_slp_typ_b, false);
  set_sleep_type(&f->pm1a_control, f->s5_slp_typ_a, true);
  if (b) set_sleep_type(&f->pm1b_control, f->s5_slp_typ_b, true);
  wait_ns(1000000000ull);
}

void reset_acpi(void) {
  const struct acpi_info *a = tables();
  if (!a->have_fadt || !a->fadt.reset_supported || !gas_usable(&a->fadt.reset_register)) return;
  log_info("resetting through the ACPI reset register");
  write8(&a->fadt.reset_register, a->fadt.reset_value);
  wait_ns(100000000ull);
}
