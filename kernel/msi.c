/*
 * msi.c - MSI and MSI-X vector allocation and capability programming
 * (portable: host tests program a configuration space and an MSI-X table in
 * memory). Formats and sources: kernel/msi.h.
 */
#define LOG_TAG "msi"
#include "kernel/msi.h"

#include <errno.h>
#include <string.h>

#include "lib/lock.h"
#include "lib/plat.h"

/* MSI capability (PCI 3.0, 6.8.1.1-6.8.1.6). */
#define MSI_CONTROL          0x2
#define MSI_ADDRESS_LO       0x4
#define MSI_ADDRESS_HI       0x8 /* 64-bit capable only */
#define MSI_CTL_ENABLE       (1u << 0)
#define MSI_CTL_MMC_SHIFT    1 /* multiple message capable, log2, bits 3:1 */
#define MSI_CTL_MME_SHIFT    4 /* multiple message enable, log2, bits 6:4 */
#define MSI_CTL_MME_MASK     (7u << 4)
#define MSI_CTL_64BIT        (1u << 7)
#define MSI_CTL_PER_VECTOR_MASK (1u << 8)

/* MSI-X capability (PCI 3.0, 6.8.2.3-6.8.2.5) and table (6.8.2.6-6.8.2.9). */
#define MSIX_CONTROL         0x2
#define MSIX_TABLE           0x4
#define MSIX_CTL_SIZE_MASK   0x7ffu
#define MSIX_CTL_FUNCTION_MASK (1u << 14)
#define MSIX_CTL_ENABLE      (1u << 15)
#define MSIX_BIR_MASK        0x7u
#define MSIX_ENTRY_DWORDS    4
#define MSIX_VECTOR_MASKED   (1u << 0)

/* Intel SDM vol. 3A, 11.11.1: bits 31:20 = 0xfee, destination ID 19:12,
 * redirection hint bit 3 = 0 and destination mode bit 2 = 0 (physical). */
#define MSI_ADDRESS_BASE 0xfee00000u

static uint32_t destination_apic_id;

void msi_set_destination(uint32_t apic_id) { destination_apic_id = apic_id; }

int msi_compose(uint32_t apic_id, uint8_t vector, uint64_t *address, uint32_t *data) {
  if (apic_id > 0xff) return -ERANGE;
  *address = MSI_ADDRESS_BASE | apic_id << 12;
  /* 11.11.2: delivery mode 000 (fixed), trigger bit 15 = 0 (edge). */
  *data = vector;
  return 0;
}

static unsigned msi_data_offset(const struct pci_function *f, uint16_t ctl) {
  return f->msi_cap + ((ctl & MSI_CTL_64BIT) ? 0xc : 0x8);
}
static unsigned msi_mask_offset(const struct pci_function *f, uint16_t ctl) {
  return f->msi_cap + ((ctl & MSI_CTL_64BIT) ? 0x10 : 0xc);
}

static volatile uint32_t *msix_entry(struct msi_state *s, unsigned index) {
  return s->msix_table + index * MSIX_ENTRY_DWORDS;
}

/* Sets the device's mask bit of one entry (MSI-X, or MSI with per-vector
 * masking); nothing for plain MSI. */
static void device_mask(struct pci_function *f, unsigned index, bool masked) {
  struct msi_state *s = f->msi;
  if (s->mode == MSI_MODE_MSIX) {
    volatile uint32_t *e = msix_entry(s, index);
    e[3] = masked ? (e[3] | MSIX_VECTOR_MASKED) : (e[3] & ~MSIX_VECTOR_MASKED);
    (void)e[3]; /* read back: the write has reached the device before we go on */
  } else if (s->device_masking) {
    unsigned off = msi_mask_offset(f, pci_read16(f, f->msi_cap + MSI_CONTROL));
    uint32_t bits = pci_read32(f, off);
    bits = masked ? (bits | 1u << index) : (bits & ~(1u << index));
    pci_write32(f, off, bits);
  }
}

/* Every vector of an MSI/MSI-X function enters here: it holds back
 * interrupts of a masked entry (see msi.h) and calls the driver's handler. */
static void msi_interrupt(void *ctx) {
  struct msi_entry *e = ctx;
  if (__atomic_load_n(&e->masked, __ATOMIC_ACQUIRE)) {
    __atomic_store_n(&e->pending, true, __ATOMIC_RELEASE);
    return;
  }
  irq_handler_fn fn = __atomic_load_n(&e->fn, __ATOMIC_ACQUIRE);
  if (fn) fn(e->ctx);
}

static int setup_msi(struct pci_function *f, struct msi_state *s, unsigned want) {
  uint16_t ctl = pci_read16(f, f->msi_cap + MSI_CONTROL);
  unsigned capable = 1u << ((ctl >> MSI_CTL_MMC_SHIFT) & 7);
  if (capable > 32) capable = 32; /* encodings 110 and 111 are reserved */
  unsigned count = 1, log2 = 0;
  while (count * 2 <= want && count * 2 <= capable) count *= 2, log2++;
  int first = irq_vector_alloc(count, count);
  if (first < 0) return first;
  uint64_t address;
  uint32_t data;
  if (msi_compose(destination_apic_id, (uint8_t)first, &address, &data) != 0) {
    irq_vector_free((unsigned)first, count);
    return -ERANGE;
  }
  s->mode = MSI_MODE_MSI;
  s->count = count;
  s->device_masking = ctl & MSI_CTL_PER_VECTOR_MASK;
  for (unsigned i = 0; i < count; i++) s->entries[i].vector = (uint8_t)(first + i);
  pci_write16(f, f->msi_cap + MSI_CONTROL, ctl & ~MSI_CTL_ENABLE);
  if (s->device_masking) pci_write32(f, msi_mask_offset(f, ctl), 0xffffffffu);
  pci_write32(f, f->msi_cap + MSI_ADDRESS_LO, (uint32_t)address);
  if (ctl & MSI_CTL_64BIT) pci_write32(f, f->msi_cap + MSI_ADDRESS_HI, (uint32_t)(address >> 32));
  /* The function ORs the message number into the low log2(count) bits. */
  pci_write16(f, msi_data_offset(f, ctl), (uint16_t)data);
  ctl = (uint16_t)((ctl & ~MSI_CTL_MME_MASK) | log2 << MSI_CTL_MME_SHIFT | MSI_CTL_ENABLE);
  pci_write16(f, f->msi_cap + MSI_CONTROL, ctl);
  return 0;
}

static void free_msix_vectors(struct msi_state *s, unsigned n) {
  for (unsigned i = 0; i < n; i++) irq_vector_free(s->entries[i].vector, 1);
}

static int setup_msix(struct pci_function *f, struct msi_state *s, unsigned want) {
  char name[16];
  pci_function_name(f, name);
  uint16_t ctl = pci_read16(f, f->msix_cap + MSIX_CONTROL);
  unsigned table_size = (ctl & MSIX_CTL_SIZE_MASK) + 1;
  uint32_t table = pci_read32(f, f->msix_cap + MSIX_TABLE);
  unsigned bir = table & MSIX_BIR_MASK;
  uint64_t offset = table & ~(uint64_t)MSIX_BIR_MASK;
  const struct pci_bar *bar = bir < PCI_MAX_BARS ? &f->bars[bir] : NULL;
  if (!bar || (bar->kind != PCI_BAR_MEM32 && bar->kind != PCI_BAR_MEM64) ||
      offset + table_size * 16ull > bar->size) {
    log_warn("%s: MSI-X table (BIR %u, offset 0x%llx, %u entries) is not inside a memory BAR",
             name, bir, (unsigned long long)offset, table_size);
    return -EINVAL;
  }
  unsigned count = want < table_size ? want : table_size;
  for (unsigned i = 0; i < count; i++) {
    int v = irq_vector_alloc(1, 1);
    if (v < 0) {
      if (i == 0) return v;
      count = i; /* fewer than asked: still useful */
      break;
    }
    s->entries[i].vector = (uint8_t)v;
  }
  s->mode = MSI_MODE_MSIX;
  s->count = count;
  s->device_masking = true;
  s->msix_table = (volatile uint32_t *)(uintptr_t)(bar->base + offset);
  pci_enable_memory(f);
  /* Enable with the whole function masked while the entries are written
   * (6.8.2.3), then lift the function mask: entries stay masked one by one. */
  pci_write16(f, f->msix_cap + MSIX_CONTROL,
              (uint16_t)(ctl | MSIX_CTL_ENABLE | MSIX_CTL_FUNCTION_MASK));
  for (unsigned i = 0; i < table_size; i++) {
    volatile uint32_t *e = msix_entry(s, i);
    e[3] |= MSIX_VECTOR_MASKED;
    if (i >= count) continue;
    uint64_t address;
    uint32_t data;
    if (msi_compose(destination_apic_id, s->entries[i].vector, &address, &data) != 0) {
      pci_write16(f, f->msix_cap + MSIX_CONTROL, ctl & ~MSIX_CTL_ENABLE);
      free_msix_vectors(s, count);
      return -ERANGE;
    }
    e[0] = (uint32_t)address;
    e[1] = (uint32_t)(address >> 32);
    e[2] = data;
  }
  pci_write16(f, f->msix_cap + MSIX_CONTROL, (uint16_t)((ctl | MSIX_CTL_ENABLE) &
                                                        ~MSIX_CTL_FUNCTION_MASK));
  return 0;
}

/* The states are kernel data, not heap blocks: the heap is the
 * application's memory, which a device such as the GPU may be given
 * (kernel/kmem.h), and a state holds the handlers the interrupts call. */
static struct msi_state states[MSI_MAX_FUNCTIONS];
static bool state_in_use[MSI_MAX_FUNCTIONS];
static struct spinlock states_lock = SPINLOCK_INIT;

static struct msi_state *state_alloc(void) {
  struct msi_state *s = NULL;
  spin_lock(&states_lock);
  for (unsigned i = 0; i < MSI_MAX_FUNCTIONS && !s; i++)
    if (!state_in_use[i]) {
      state_in_use[i] = true;
      s = &states[i];
      memset(s, 0, sizeof *s);
    }
  spin_unlock(&states_lock);
  return s;
}

static void state_free(struct msi_state *s) {
  spin_lock(&states_lock);
  state_in_use[s - states] = false;
  spin_unlock(&states_lock);
}

int msi_alloc(struct pci_function *f, unsigned want, unsigned allow) {
  if (!f || want == 0 || !(allow & (MSI_ALLOW_MSI | MSI_ALLOW_MSIX))) return -EINVAL;
  if (f->msi) return -EBUSY;
  bool use_msix = (allow & MSI_ALLOW_MSIX) && f->msix_cap;
  if (!use_msix && !((allow & MSI_ALLOW_MSI) && f->msi_cap)) return -ENODEV;
  struct msi_state *s = state_alloc();
  if (!s) {
    char name[16];
    pci_function_name(f, name);
    log_error("%s: no MSI: %d functions use MSI already", name, MSI_MAX_FUNCTIONS);
    return -ENOMEM;
  }
  if (want > MSI_MAX_VECTORS) want = MSI_MAX_VECTORS;
  f->msi = s;
  int err = use_msix ? setup_msix(f, s, want) : setup_msi(f, s, want);
  /* A broken MSI-X table location: plain MSI may still work. */
  if (err == -EINVAL && use_msix && (allow & MSI_ALLOW_MSI) && f->msi_cap)
    err = setup_msi(f, s, want);
  if (err) {
    f->msi = NULL;
    state_free(s);
    return err;
  }
  for (unsigned i = 0; i < s->count; i++) {
    struct msi_entry *e = &s->entries[i];
    e->masked = true;
    irq_set_handler(e->vector, msi_interrupt, e);
  }
  pci_set_command_bits(f, PCI_COMMAND_INTX_DISABLE, 0);
  char name[16];
  pci_function_name(f, name);
  log_debug("%s: %u %s vector(s) from 0x%x", name, s->count,
            s->mode == MSI_MODE_MSIX ? "MSI-X" : "MSI", s->entries[0].vector);
  return (int)s->count;
}

static struct msi_entry *entry_of(const struct pci_function *f, unsigned index) {
  if (!f || !f->msi || index >= f->msi->count) return NULL;
  return &f->msi->entries[index];
}

void msi_mask(struct pci_function *f, unsigned index) {
  struct msi_entry *e = entry_of(f, index);
  if (!e) return;
  __atomic_store_n(&e->masked, true, __ATOMIC_RELEASE);
  device_mask(f, index, true);
}

void msi_unmask(struct pci_function *f, unsigned index) {
  struct msi_entry *e = entry_of(f, index);
  if (!e) return;
  __atomic_store_n(&e->masked, false, __ATOMIC_RELEASE);
  device_mask(f, index, false);
  /* What arrived while masked is delivered now, as the device would. */
  if (__atomic_exchange_n(&e->pending, false, __ATOMIC_ACQ_REL)) irq_resend(e->vector);
}

int msi_set_handler(struct pci_function *f, unsigned index, irq_handler_fn fn, void *ctx) {
  struct msi_entry *e = entry_of(f, index);
  if (!e) return -EINVAL;
  if (!fn) {
    msi_mask(f, index);
    __atomic_store_n(&e->fn, NULL, __ATOMIC_RELEASE);
    return 0;
  }
  __atomic_store_n(&e->fn, NULL, __ATOMIC_RELEASE);
  e->ctx = ctx;
  __atomic_store_n(&e->fn, fn, __ATOMIC_RELEASE);
  msi_unmask(f, index);
  return 0;
}

int msi_vector(const struct pci_function *f, unsigned index) {
  const struct msi_entry *e = entry_of(f, index);
  return e ? e->vector : -EINVAL;
}

enum msi_mode msi_mode(const struct pci_function *f) {
  return f && f->msi ? f->msi->mode : MSI_MODE_NONE;
}

void msi_free(struct pci_function *f) {
  struct msi_state *s = f ? f->msi : NULL;
  if (!s) return;
  if (s->mode == MSI_MODE_MSIX) {
    uint16_t ctl = pci_read16(f, f->msix_cap + MSIX_CONTROL);
    pci_write16(f, f->msix_cap + MSIX_CONTROL, (uint16_t)(ctl | MSIX_CTL_FUNCTION_MASK));
    for (unsigned i = 0; i < s->count; i++) device_mask(f, i, true);
    pci_write16(f, f->msix_cap + MSIX_CONTROL,
                (uint16_t)(ctl & ~(MSIX_CTL_ENABLE | MSIX_CTL_FUNCTION_MASK)));
  } else {
    uint16_t ctl = pci_read16(f, f->msi_cap + MSI_CONTROL);
    pci_write16(f, f->msi_cap + MSI_CONTROL, ctl & ~(MSI_CTL_ENABLE | MSI_CTL_MME_MASK));
  }
  for (unsigned i = 0; i < s->count; i++) {
    irq_set_handler(s->entries[i].vector, NULL, NULL);
    irq_vector_free(s->entries[i].vector, 1);
  }
  f->msi = NULL;
  state_free(s);
}
