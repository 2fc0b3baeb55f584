/* amdgpu_msi_efi.c - the virtual APU's interrupt in the boot image. The
 * model runs on a core of its own; its MSI becomes what a PCI device's MSI
 * is on x86: an interrupt of the programmed vector at the programmed local
 * APIC (the message address and data of Intel SDM vol. 3A, 11.11.1-2),
 * sent here as an IPI from the model's core. The driver's handler runs on
 * the core it names (the boot core), in interrupt context. */
#define LOG_TAG "amdgpu"
#include <errno.h>

#include "drivers/amdgpu/amdgpu_vapu.h"
#include "kernel/irq.h"
#include "kernel/lapic.h"
#include "kernel/msi.h"
#include "lib/plat.h"

#define MSI_ADDRESS_BASE 0xfee00000u
#define MSI_ADDRESS_DEST(a) (((a) >> 12) & 0xffu) /* destination APIC ID */
#define MSI_DATA_VECTOR(d) ((d) & 0xffu)

/* One vector per model; at most AMDGPU_MAX_DEVICES of them. */
static struct {
  struct amdgpu_device *dev;
  int vector;
} routes[AMDGPU_MAX_DEVICES];

static void handler(void *ctx) { amdgpu_ih_interrupt(ctx); }

int amdgpu_vapu_msi_route(struct amdgpu_device *dev, uint64_t *address, uint32_t *data) {
  unsigned i = 0;
  while (i < AMDGPU_MAX_DEVICES && routes[i].dev) i++;
  if (i == AMDGPU_MAX_DEVICES) return -ENOSPC;
  int vector = irq_vector_alloc(1, 1);
  if (vector < 0) {
    log_error("no interrupt vector for the virtual APU (%d)", vector);
    return vector;
  }
  int r = irq_set_handler((unsigned)vector, handler, dev);
  if (!r) r = msi_compose(lapic_id(), (uint8_t)vector, address, data);
  if (r) {
    irq_set_handler((unsigned)vector, NULL, NULL);
    irq_vector_free((unsigned)vector, 1);
    return r;
  }
  routes[i].vector = vector;
  __atomic_store_n(&routes[i].dev, dev, __ATOMIC_RELEASE);
  log_info("virtual APU interrupts: vector 0x%x at APIC %u", vector, lapic_id());
  return 0;
}

void amdgpu_vapu_msi_unroute(struct amdgpu_device *dev) {
  for (unsigned i = 0; i < AMDGPU_MAX_DEVICES; i++) {
    if (routes[i].dev != dev) continue;
    irq_set_handler((unsigned)routes[i].vector, NULL, NULL);
    irq_vector_free((unsigned)routes[i].vector, 1);
    __atomic_store_n(&routes[i].dev, NULL, __ATOMIC_RELEASE);
  }
}

/* The model wrote its MSI message: the interrupt goes to the APIC and
 * vector it names (a message the driver did not program is dropped). */
void amdgpu_vapu_msi_deliver(void *ctx, uint64_t address, uint32_t data) {
  if ((address & 0xfff00000u) != MSI_ADDRESS_BASE) return;
  uint32_t dest = MSI_ADDRESS_DEST(address);
  uint8_t vector = (uint8_t)MSI_DATA_VECTOR(data);
  if (dest == lapic_id())
    lapic_send_self(vector);
  else if (!lapic_send_ipi(dest, vector))
    log_warn("virtual APU interrupt 0x%x to APIC %u not sent", vector, dest);
}
