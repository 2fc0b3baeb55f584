/* amdgpu_msi_host.c - interrupts on the host: the virtual APU's MSI
 * becomes a direct call of the driver's interrupt handler on the thread
 * that raised it (the model's worker or a GPU requester), as an interrupt
 * handler runs on whichever core takes the interrupt. */
#include "drivers/amdgpu/amdgpu_dev.h"
#include "drivers/amdgpu/amdgpu_vapu.h"

#define X86_MSI_ADDRESS 0xfee00000u /* Intel SDM vol. 3, 11.11.1: APIC ID 0 */
#define HOST_MSI_VECTOR 0x40u

int amdgpu_vapu_msi_route(struct amdgpu_device *dev, uint64_t *address, uint32_t *data) {
  *address = X86_MSI_ADDRESS;
  *data = HOST_MSI_VECTOR;
  return 0;
}

void amdgpu_vapu_msi_unroute(struct amdgpu_device *dev) {}

void amdgpu_vapu_msi_deliver(void *ctx, uint64_t address, uint32_t data) {
  struct amdgpu_device *dev = ctx;
  if (address == X86_MSI_ADDRESS && data == HOST_MSI_VECTOR) amdgpu_ih_interrupt(dev);
}
