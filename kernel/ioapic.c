/*
 * ioapic.c - the I/O APICs (see ioapic.h for the register sources).
 */
#define LOG_TAG "ioapic"
#include "kernel/ioapic.h"

#include <errno.h>

#include "kernel/acpi.h"
#include "lib/lock.h"
#include "lib/plat.h"

#define IOREGSEL 0x00
#define IOWIN    0x10
#define REG_VERSION 0x01
#define REG_REDIRECTION(n) (0x10 + 2 * (n))

#define RTE_POLARITY_LOW (1u << 13)
#define RTE_TRIGGER_LEVEL (1u << 15)
#define RTE_MASKED (1u << 16)

struct ioapic {
  volatile uint32_t *regs;
  uint32_t gsi_base;
  unsigned inputs;
};

static struct ioapic ioapics[ACPI_MAX_IOAPICS];
static unsigned ioapic_count;
/* IOREGSEL/IOWIN is a two-step access: one core at a time. */
static struct spinlock lock = SPINLOCK_INIT;

static uint32_t read_reg(const struct ioapic *io, unsigned reg) {
  io->regs[IOREGSEL / 4] = reg;
  return io->regs[IOWIN / 4];
}

static void write_reg(const struct ioapic *io, unsigned reg, uint32_t v) {
  io->regs[IOREGSEL / 4] = reg;
  io->regs[IOWIN / 4] = v;
}

int ioapic_init(void) {
  const struct acpi_info *a = acpi_machine();
  ioapic_count = 0;
  for (unsigned i = 0; a->have_madt && i < a->madt.ioapic_count; i++) {
    struct ioapic *io = &ioapics[ioapic_count];
    io->regs = (volatile uint32_t *)(uintptr_t)a->madt.ioapics[i].address;
    io->gsi_base = a->madt.ioapics[i].gsi_base;
    uint32_t version = read_reg(io, REG_VERSION);
    if (version == 0xffffffffu) {
      log_error("I/O APIC %u at 0x%llx does not answer, not used", a->madt.ioapics[i].id,
                (unsigned long long)a->madt.ioapics[i].address);
      continue;
    }
    io->inputs = ((version >> 16) & 0xff) + 1;
    for (unsigned n = 0; n < io->inputs; n++) {
      write_reg(io, REG_REDIRECTION(n), RTE_MASKED);
      write_reg(io, REG_REDIRECTION(n) + 1, 0);
    }
    log_info("I/O APIC %u at 0x%llx: GSIs %u-%u, all masked", a->madt.ioapics[i].id,
             (unsigned long long)a->madt.ioapics[i].address, io->gsi_base,
             io->gsi_base + io->inputs - 1);
    ioapic_count++;
  }
  return (int)ioapic_count;
}

static struct ioapic *ioapic_for(uint32_t gsi, unsigned *input) {
  for (unsigned i = 0; i < ioapic_count; i++) {
    if (gsi >= ioapics[i].gsi_base && gsi - ioapics[i].gsi_base < ioapics[i].inputs) {
      *input = gsi - ioapics[i].gsi_base;
      return &ioapics[i];
    }
  }
  return NULL;
}

int ioapic_route(uint32_t gsi, uint8_t vector, uint32_t dest, unsigned flags) {
  unsigned input;
  struct ioapic *io = ioapic_for(gsi, &input);
  if (!io) return -ENODEV;
  if (dest > 0xff) return -ERANGE; /* 8-bit physical destination field */
  uint32_t low = vector; /* fixed delivery, physical destination */
  if (flags & IOAPIC_ACTIVE_LOW) low |= RTE_POLARITY_LOW;
  if (flags & IOAPIC_LEVEL) low |= RTE_TRIGGER_LEVEL;
  uint64_t irq = spin_lock_irqsave(&lock);
  write_reg(io, REG_REDIRECTION(input), RTE_MASKED);
  write_reg(io, REG_REDIRECTION(input) + 1, dest << 24);
  write_reg(io, REG_REDIRECTION(input), low);
  spin_unlock_irqrestore(&lock, irq);
  return 0;
}

int ioapic_mask(uint32_t gsi, bool masked) {
  unsigned input;
  struct ioapic *io = ioapic_for(gsi, &input);
  if (!io) return -ENODEV;
  uint64_t irq = spin_lock_irqsave(&lock);
  uint32_t low = read_reg(io, REG_REDIRECTION(input));
  write_reg(io, REG_REDIRECTION(input), masked ? (low | RTE_MASKED) : (low & ~RTE_MASKED));
  spin_unlock_irqrestore(&lock, irq);
  return 0;
}

uint32_t ioapic_isa_gsi(unsigned irq, unsigned *flags) {
  const struct acpi_info *a = acpi_machine();
  *flags = 0; /* ISA: edge triggered, active high */
  for (unsigned i = 0; a->have_madt && i < a->madt.override_count; i++) {
    const struct acpi_madt_override *o = &a->madt.overrides[i];
    if (o->bus != 0 || o->source != irq) continue;
    if ((o->flags & ACPI_INTI_POLARITY_MASK) == ACPI_INTI_POLARITY_LOW) *flags |= IOAPIC_ACTIVE_LOW;
    if ((o->flags & ACPI_INTI_TRIGGER_MASK) == ACPI_INTI_TRIGGER_LEVEL) *flags |= IOAPIC_LEVEL;
    return o->gsi;
  }
  return irq;
}

unsigned ioapic_input_count(void) {
  unsigned n = 0;
  for (unsigned i = 0; i < ioapic_count; i++) n += ioapics[i].inputs;
  return n;
}
