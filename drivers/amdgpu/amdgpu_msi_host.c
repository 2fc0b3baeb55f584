/* amdgpu_msi_host.c - interrupts on the host: the virtual APU's MSI wakes a
 * thread of the driver's own that runs the interrupt handler, as a CPU
 * core takes an interrupt independently of the device that raised it. The
 * handler may wait for the GPU (a dequeue after a fault), so it must not
 * run on the model's thread, which is the GPU. */
#define LOG_TAG "amdgpu"
#include <errno.h>
#include <sched.h>
#include <stdlib.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "drivers/amdgpu/amdgpu_vapu.h"
#include "lib/plat.h"
#include "lib/util.h"
#include "lib/lock.h"

#define X86_MSI_ADDRESS 0xfee00000u /* Intel SDM vol. 3, 11.11.1: APIC ID 0 */
#define HOST_MSI_VECTOR 0x40u

struct host_irq {
  struct amdgpu_device *dev; /* NULL: free entry */
  int thread;
  volatile uint32_t raised;  /* bumped by each MSI */
  volatile bool stopping;
};

/* Entries are never freed: an MSI racing with the device's removal finds
 * a stale entry, never freed memory. */
static struct host_irq irqs[AMDGPU_MAX_DEVICES * 4];
static struct spinlock irqs_lock = SPINLOCK_INIT;

static struct host_irq *irq_of(struct amdgpu_device *dev) {
  for (size_t i = 0; i < countof(irqs); i++)
    if (__atomic_load_n(&irqs[i].dev, __ATOMIC_ACQUIRE) == dev) return &irqs[i];
  return NULL;
}

static void irq_thread(void *arg) {
  struct host_irq *irq = arg;
  uint32_t seen = 0;
  /* No wake-up preemption (sched(7), SCHED_BATCH): an MSI must not take
   * the core from a thread that spins on the very completion it reports
   * (a waiter or the model's worker, both polling on a 2-core host); the
   * handler runs on a core that is idle or at the next time slice, and a
   * waiter that sleeps leaves its core idle. Without it the empty-dispatch
   * round trip was 6-7 us in 3 of 10 runs (the handler preempting the
   * waiter), 1.3-2.1 us in the others; with it 1.5-2.5 us in 10 of 10. */
  struct sched_param none = {0};
  if (sched_setscheduler(0, SCHED_BATCH, &none) != 0)
    log_debug("interrupt thread: SCHED_BATCH refused (errno %d): it may preempt spinning waiters",
              errno);
  while (!__atomic_load_n(&irq->stopping, __ATOMIC_ACQUIRE)) {
    uint32_t now = __atomic_load_n(&irq->raised, __ATOMIC_ACQUIRE);
    if (now == seen) {
      plat_wait(&irq->raised, seen, UINT64_MAX);
      continue;
    }
    seen = now;
    amdgpu_ih_interrupt(irq->dev);
  }
}

int amdgpu_vapu_msi_route(struct amdgpu_device *dev, uint64_t *address, uint32_t *data) {
  spin_lock(&irqs_lock);
  struct host_irq *irq = irq_of(NULL);
  if (irq) {
    irq->raised = 0;
    irq->stopping = false;
    __atomic_store_n(&irq->dev, dev, __ATOMIC_RELEASE);
  }
  spin_unlock(&irqs_lock);
  if (!irq) return -ENOSPC;
  irq->thread = plat_worker_start("amdgpu-irq", irq_thread, irq);
  if (irq->thread < 0) {
    int r = irq->thread;
    __atomic_store_n(&irq->dev, NULL, __ATOMIC_RELEASE);
    return r;
  }
  *address = X86_MSI_ADDRESS;
  *data = HOST_MSI_VECTOR;
  return 0;
}

void amdgpu_vapu_msi_unroute(struct amdgpu_device *dev) {
  struct host_irq *irq = irq_of(dev);
  if (!irq) return;
  __atomic_store_n(&irq->stopping, true, __ATOMIC_RELEASE);
  __atomic_add_fetch(&irq->raised, 1, __ATOMIC_RELEASE);
  plat_wake(&irq->raised);
  plat_worker_join(irq->thread);
  __atomic_store_n(&irq->dev, NULL, __ATOMIC_RELEASE);
}

void amdgpu_vapu_msi_deliver(void *ctx, uint64_t address, uint32_t data) {
  struct host_irq *irq = irq_of(ctx);
  if (!irq || address != X86_MSI_ADDRESS || data != HOST_MSI_VECTOR) return;
  __atomic_add_fetch(&irq->raised, 1, __ATOMIC_RELEASE);
  plat_wake(&irq->raised);
}
