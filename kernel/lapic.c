/*
 * lapic.c - the local APIC (see lapic.h for the register sources).
 */
#define LOG_TAG "lapic"
#include "kernel/lapic.h"

#include <errno.h>

#include "kernel/acpi.h"
#include "kernel/cpu.h"
#include "kernel/irq.h"
#include "kernel/time.h"
#include "kernel/tsc.h"
#include "lib/plat.h"

#define MSR_APIC_BASE      0x1b
#define APIC_BASE_ENABLE   (1ull << 11)
#define APIC_BASE_X2APIC   (1ull << 10)
#define APIC_BASE_ADDR_MASK 0x000ffffffffff000ull
#define CPUID1_ECX_X2APIC  (1u << 21)
#define X2APIC_MSR_BASE    0x800

/* Register offsets (Table 11-1). */
enum {
  REG_ID = 0x20,
  REG_VERSION = 0x30,
  REG_TPR = 0x80,
  REG_EOI = 0xb0,
  REG_SVR = 0xf0,
  REG_ESR = 0x280,
  REG_ICR_LOW = 0x300,
  REG_ICR_HIGH = 0x310,
  REG_LVT_TIMER = 0x320,
  REG_LVT_LINT0 = 0x350,
  REG_LVT_LINT1 = 0x360,
  REG_LVT_ERROR = 0x370,
  REG_TIMER_INITIAL = 0x380,
  REG_TIMER_CURRENT = 0x390,
  REG_TIMER_DIVIDE = 0x3e0,
};
#define X2APIC_MSR_SELF_IPI 0x83f /* 11.12.11 */

#define SVR_ENABLE          (1u << 8)
#define LVT_MASKED          (1u << 16)
#define LVT_DELIVERY_NMI    (4u << 8)
#define LVT_POLARITY_LOW    (1u << 13)
#define LVT_TRIGGER_LEVEL   (1u << 15)
#define ICR_DELIVERY_INIT    (5u << 8)
#define ICR_DELIVERY_STARTUP (6u << 8)
#define ICR_PENDING         (1u << 12) /* delivery status, xAPIC only */
#define ICR_LEVEL_ASSERT    (1u << 14)
#define ICR_SHORTHAND_SELF  (1u << 18)
#define TIMER_DIVIDE_BY_1   0xb /* 11.5.4, Figure 11-10: 1011b */

PLAT_OPTION(x2apic, "x2apic", "0: keep the local APICs in xAPIC mode even where x2APIC exists");

static bool x2apic;
static volatile uint8_t *mmio;
static uint64_t timer_hz;

static uint32_t apic_read(unsigned reg) {
  if (x2apic) return (uint32_t)rdmsr(X2APIC_MSR_BASE + reg / 16);
  return *(volatile uint32_t *)(mmio + reg);
}

static void apic_write(unsigned reg, uint32_t v) {
  if (x2apic) {
    wrmsr(X2APIC_MSR_BASE + reg / 16, v);
  } else {
    *(volatile uint32_t *)(mmio + reg) = v;
  }
}

bool lapic_x2apic_mode(void) { return x2apic; }

uint32_t lapic_id(void) {
  /* xAPIC: ID in bits 31:24 (11.4.6); x2APIC: the whole 32-bit register. */
  return x2apic ? apic_read(REG_ID) : apic_read(REG_ID) >> 24;
}

void lapic_eoi(void) { apic_write(REG_EOI, 0); }

uint32_t lapic_read_errors(void) {
  apic_write(REG_ESR, 0); /* a write latches the current errors (11.5.3) */
  return apic_read(REG_ESR);
}

/* The ACPI processor UID of this core, for matching MADT NMI entries. */
static bool this_core_uid(uint32_t *uid) {
  const struct acpi_info *a = acpi_machine();
  uint32_t id = lapic_id();
  for (unsigned i = 0; a->have_madt && i < a->madt.cpu_count; i++) {
    if (a->madt.cpus[i].apic_id == id) {
      *uid = a->madt.cpus[i].uid;
      return true;
    }
  }
  return false;
}

/* LINT pins wired to NMI per the MADT (ACPI 6.5, 5.2.12.7): delivery mode
 * NMI with the polarity and trigger of the MPS INTI flags. */
static void program_lint_nmi(void) {
  const struct acpi_info *a = acpi_machine();
  uint32_t uid;
  if (!a->have_madt || !this_core_uid(&uid)) return;
  for (unsigned i = 0; i < a->madt.lapic_nmi_count; i++) {
    const struct acpi_madt_lapic_nmi *n = &a->madt.lapic_nmis[i];
    if (n->uid != ACPI_MADT_ALL_CPUS && n->uid != uid) continue;
    if (n->lint > 1) continue;
    uint32_t lvt = LVT_DELIVERY_NMI;
    if ((n->flags & ACPI_INTI_POLARITY_MASK) == ACPI_INTI_POLARITY_LOW) lvt |= LVT_POLARITY_LOW;
    if ((n->flags & ACPI_INTI_TRIGGER_MASK) == ACPI_INTI_TRIGGER_LEVEL) lvt |= LVT_TRIGGER_LEVEL;
    apic_write(n->lint ? REG_LVT_LINT1 : REG_LVT_LINT0, lvt);
  }
}

void lapic_init_core(void) {
  uint64_t base = rdmsr(MSR_APIC_BASE);
  if (x2apic) {
    /* 11.12.5: x2APIC mode is entered from xAPIC mode by setting EXTD
     * while the APIC is enabled. */
    if (!(base & APIC_BASE_ENABLE)) wrmsr(MSR_APIC_BASE, base |= APIC_BASE_ENABLE);
    wrmsr(MSR_APIC_BASE, base | APIC_BASE_X2APIC);
  } else if (!(base & APIC_BASE_ENABLE)) {
    wrmsr(MSR_APIC_BASE, base | APIC_BASE_ENABLE);
  }
  apic_write(REG_TPR, 0);
  apic_write(REG_LVT_TIMER, LVT_MASKED | IRQ_VECTOR_TIMER);
  apic_write(REG_LVT_LINT0, LVT_MASKED);
  apic_write(REG_LVT_LINT1, LVT_MASKED);
  program_lint_nmi();
  apic_write(REG_LVT_ERROR, IRQ_VECTOR_LAPIC_ERROR);
  apic_write(REG_SVR, SVR_ENABLE | IRQ_VECTOR_SPURIOUS);
  lapic_read_errors();
  lapic_read_errors();
  lapic_eoi(); /* nothing the firmware left in service blocks us */
}

int lapic_init_boot(uint64_t mmio_base) {
  uint32_t r[4];
  cpuid(1, 0, r);
  x2apic = r[2] & CPUID1_ECX_X2APIC;
  const char *opt = plat_option("x2apic");
  if (opt && opt[0] == '0') x2apic = false;
  if (!x2apic) {
    uint64_t msr_base = rdmsr(MSR_APIC_BASE) & APIC_BASE_ADDR_MASK;
    if (mmio_base && msr_base != mmio_base)
      log_warn("MADT says the local APIC is at 0x%llx, IA32_APIC_BASE says 0x%llx: using the MSR",
               (unsigned long long)mmio_base, (unsigned long long)msr_base);
    mmio = (volatile uint8_t *)(uintptr_t)msr_base;
  }
  lapic_init_core();
  log_info("boot core local APIC ID %u, %s mode, version 0x%x", lapic_id(),
           x2apic ? "x2APIC" : "xAPIC", apic_read(REG_VERSION) & 0xff);
  return 0;
}

/* Waits until an xAPIC has sent the IPI in its ICR; at most 10 ms (it takes
 * well under a microsecond on hardware). x2APIC ICR writes complete at once. */
static bool wait_icr_idle(void) {
  if (x2apic) return true;
  uint64_t deadline = time_ns() + 10 * 1000 * 1000;
  while (apic_read(REG_ICR_LOW) & ICR_PENDING) {
    if (time_ns() > deadline) return false;
    plat_cpu_relax();
  }
  return true;
}

static bool send_icr(uint32_t dest, uint32_t low) {
  /* One IPI at a time per core: an interrupt handler sending an IPI must
   * not interleave its two register writes with ours. */
  uint64_t flags = read_rflags();
  __asm__ volatile("cli" ::: "memory");
  bool ok = wait_icr_idle();
  if (ok) {
    if (x2apic) {
      wrmsr(X2APIC_MSR_BASE + REG_ICR_LOW / 16, (uint64_t)dest << 32 | low);
    } else {
      apic_write(REG_ICR_HIGH, dest << 24);
      apic_write(REG_ICR_LOW, low);
      ok = wait_icr_idle();
    }
  }
  if (flags & RFLAGS_IF_BIT) __asm__ volatile("sti" ::: "memory");
  if (!ok) log_error("IPI 0x%x to APIC ID %u not sent (ICR stays busy)", low, dest);
  return ok;
}

bool lapic_send_ipi(uint32_t dest, uint8_t vector) {
  if (!x2apic && dest > 0xff) return false;
  return send_icr(dest, vector);
}

void lapic_send_self(uint8_t vector) {
  if (x2apic) {
    wrmsr(X2APIC_MSR_SELF_IPI, vector);
  } else {
    send_icr(0, ICR_SHORTHAND_SELF | vector);
  }
}

bool lapic_send_init(uint32_t dest) { return send_icr(dest, ICR_DELIVERY_INIT | ICR_LEVEL_ASSERT); }

bool lapic_send_startup(uint32_t dest, uint8_t page) {
  return send_icr(dest, ICR_DELIVERY_STARTUP | ICR_LEVEL_ASSERT | page);
}

uint64_t lapic_timer_hz(void) { return timer_hz; }

/* The timer's frequency is measured against the TSC over the boot's next
 * steps, as the TSC's own (kernel/time.c): counting down from the top,
 * masked, divided by 1; at 1 GHz the count lasts 4.3 s, and one that
 * reached 0 (a boot slowed down that much) is measured again for 20 ms. */
static uint64_t calibration_tsc;

void lapic_timer_calibration_begin(void) {
  apic_write(REG_LVT_TIMER, LVT_MASKED | IRQ_VECTOR_TIMER);
  apic_write(REG_TIMER_DIVIDE, TIMER_DIVIDE_BY_1);
  apic_write(REG_TIMER_INITIAL, 0xffffffffu);
  calibration_tsc = rdtsc();
}

#define TIMER_CALIBRATION_NS (20 * 1000 * 1000ull)

uint64_t lapic_timer_calibrate(void) {
  uint64_t tsc_hz = time_tsc_hz(), want = tsc_hz * TIMER_CALIBRATION_NS / 1000000000u;
  if (!calibration_tsc || apic_read(REG_TIMER_CURRENT) == 0) lapic_timer_calibration_begin();
  while (rdtsc() - calibration_tsc < want) plat_cpu_relax();
  uint64_t before = rdtsc();
  uint32_t left = apic_read(REG_TIMER_CURRENT);
  uint64_t tsc_ticks = (before + rdtsc()) / 2 - calibration_tsc;
  apic_write(REG_TIMER_INITIAL, 0);
  calibration_tsc = 0;
  uint64_t ticks = 0xffffffffu - left;
  timer_hz = left ? clock_hz_from_reference(ticks, tsc_ticks, tsc_hz) : 0;
  if (timer_hz == 0) log_error("local APIC timer does not count");
  else log_info("local APIC timer at %llu kHz", (unsigned long long)(timer_hz / 1000));
  return timer_hz;
}

void lapic_timer_oneshot(uint64_t ns) {
  uint64_t ticks = (uint64_t)((unsigned __int128)ns * timer_hz / 1000000000u);
  if (ticks == 0) ticks = 1;
  if (ticks > 0xffffffffu) ticks = 0xffffffffu;
  apic_write(REG_TIMER_DIVIDE, TIMER_DIVIDE_BY_1);
  apic_write(REG_LVT_TIMER, IRQ_VECTOR_TIMER); /* unmasked, mode 00 = one-shot */
  apic_write(REG_TIMER_INITIAL, (uint32_t)ticks);
}

void lapic_timer_stop(void) {
  apic_write(REG_TIMER_INITIAL, 0); /* 11.5.4: a zero initial count stops the timer */
}
