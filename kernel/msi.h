/*
 * msi.h - MSI and MSI-X interrupts of PCI functions: the API drivers use.
 *
 *   int n = msi_alloc(f, 1, MSI_ALLOW_MSIX | MSI_ALLOW_MSI);  // vectors, all masked
 *   if (n < 0) ...;                                          // -ENODEV, -ENOSPC, ...
 *   msi_set_handler(f, 0, gpu_ih_interrupt, gpu);            // registers, unmasks
 *   ...
 *   msi_mask(f, 0); msi_unmask(f, 0);
 *   msi_free(f);                                             // back to no interrupts
 *
 * MSI-X is preferred when the function has it and the caller allows it
 * (its entries are independent and individually maskable). Messages go to
 * the boot core (the one running main()), fixed delivery, edge triggered.
 * A handler runs in interrupt context (kernel/irq.h, irq_handler_fn).
 *
 * Masking: MSI-X entries and MSI functions with per-vector masking are
 * masked in the device, which holds the message pending until unmasked
 * (PCI 3.0, 6.8.2.9 and 6.8.1.6). Plain MSI without per-vector masking
 * cannot be masked in the device: an interrupt that arrives while masked is
 * held here and delivered on unmask, the same contract.
 *
 * Sources: PCI Local Bus Specification 3.0, 6.8.1 (MSI capability layout:
 * control at +2, address +4, upper address +8 if 64-bit, data +8/+0xc, mask
 * +0xc/+0x10; multiple message capable/enable fields), 6.8.2 (MSI-X: control
 * +2 table size bits 10:0, function mask bit 14, enable bit 15; table offset
 * and BIR at +4, PBA at +8; 16-byte table entries: address low, high, data,
 * vector control bit 0 = masked). Intel SDM vol. 3A, 11.11.1-11.11.2
 * (message address 0xfee00000 | destination APIC ID << 12, data = vector,
 * delivery mode bits 10:8, trigger bit 15).
 */
#ifndef KERNEL_MSI_H
#define KERNEL_MSI_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/irq.h"
#include "kernel/pci.h"

#define MSI_ALLOW_MSI  (1u << 0)
#define MSI_ALLOW_MSIX (1u << 1)

/* Vectors one function may have; MSI allows 32, MSI-X 2048, no device of
 * ours needs more than a handful. */
#define MSI_MAX_VECTORS 32
/* Functions with MSI or MSI-X vectors at the same time (their state is
 * kernel data, kernel/msi.c). */
#define MSI_MAX_FUNCTIONS 16

enum msi_mode { MSI_MODE_NONE = 0, MSI_MODE_MSI, MSI_MODE_MSIX };

struct msi_entry {
  uint8_t vector;
  bool masked;
  bool pending; /* arrived while masked (plain MSI without mask bits) */
  irq_handler_fn fn;
  void *ctx;
};

struct msi_state {
  enum msi_mode mode;
  unsigned count;
  bool device_masking; /* the device has mask bits for every entry */
  volatile uint32_t *msix_table;
  struct msi_entry entries[MSI_MAX_VECTORS];
};

/* Allocates between 1 and `want` vectors for f (plain MSI rounds to a power
 * of two and at most what the function supports; MSI-X up to its table
 * size), programs and enables the capability with every entry masked, and
 * turns INTx off. Returns the number of vectors (index 0..n-1), or
 * -ENODEV (no allowed capability), -EBUSY (already allocated), -ENOSPC (no
 * vectors), -ENOMEM (MSI_MAX_FUNCTIONS functions use MSI already), -EINVAL
 * (bad argument or a broken MSI-X table location). MSI-X needs f's BARs
 * sized (a driver's function is; else pci_function_bars). */
int msi_alloc(struct pci_function *f, unsigned want, unsigned allow);

/* Handler for vector `index`; non-NULL fn unmasks it, NULL masks it.
 * -EINVAL for an index that was not allocated. */
int msi_set_handler(struct pci_function *f, unsigned index, irq_handler_fn fn, void *ctx);

void msi_mask(struct pci_function *f, unsigned index);
void msi_unmask(struct pci_function *f, unsigned index);

/* The CPU vector behind index, or -EINVAL. */
int msi_vector(const struct pci_function *f, unsigned index);
enum msi_mode msi_mode(const struct pci_function *f);

/* Disables MSI/MSI-X on f and returns its vectors. */
void msi_free(struct pci_function *f);

/* The message for `vector` at the local APIC with ID `apic_id` (physical
 * destination mode, fixed delivery, edge). -ERANGE if the ID does not fit
 * the 8-bit destination field. */
int msi_compose(uint32_t apic_id, uint8_t vector, uint64_t *address, uint32_t *data);

/* The APIC ID messages are sent to (the boot core's; set by irq_init). */
void msi_set_destination(uint32_t apic_id);

#endif
