/* The driver's interrupt handler and the model's locks: the handler runs
 * model code (its register writes reach the model's hooks) on the core the
 * MSI names, which in the image is the core that also makes GPU accesses
 * and register writes. An interrupt that arrives while that core holds a
 * model lock must wait for the release (vapu_internal.h: spin_lock_irqsave), never
 * spin on a lock its own core holds. */
#include <stdatomic.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "drivers/amdgpu/amdgpu_vapu.h"
#include "drivers/amdgpu/regs/osssys_4_0.h"
#include "lib/plat.h"
#include "lib/test.h"
#include "tests/common/amdgpu_test_util.h"
#include "vapu/vapu_internal.h"

#define IH_CLIENT_UTCL2 0x1b /* Linux soc15_ih_clientid.h SOC15_IH_CLIENTID_UTCL2 */
#define HOLD_NS 20000000ull

TEST(amdgpu_interrupt_waits_for_a_model_lock_its_core_holds) {
  struct amdgpu_fault_log log;
  struct amdgpu_device *dev = amdgpu_test_bring_up(VAPU_RAVEN, &log);
  ASSERT_NOT_NULL(dev);
  struct vapu *v = amdgpu_vapu_of(dev);
  /* Hold the GFX hub's fault lock, as this core does while raising a
   * fault for one of its own GPU accesses, and post a VM fault whose
   * handler clears the fault status (a write that takes that lock). The
   * MSI comes to this core at once (image: a self-IPI). */
  uint64_t irq = spin_lock_irqsave(&v->hubs[VAPU_GFXHUB].fault_lock);
  const uint32_t src_data[4] = {0x12345, 0, 0, 0};
  bool posted = vapu_ih_post(v, IH_CLIENT_UTCL2, 0, 0, 8, false, src_data);
  /* Busy: a sleep would wait for a timer interrupt. */
  uint64_t until = plat_now_ns() + HOLD_NS;
  while (plat_now_ns() < until) plat_cpu_relax();
  int seen_while_held = __atomic_load_n(&log.count, __ATOMIC_ACQUIRE);
  spin_unlock_irqrestore(&v->hubs[VAPU_GFXHUB].fault_lock, irq);
  ASSERT_TRUE(posted);
  ASSERT_EQ(seen_while_held, 0);
  /* Handled once the lock is free. */
  ASSERT_EQ(amdgpu_test_wait_count(&log.count, 1), 1);
  ASSERT_EQ(log.last.kind, AMDGPU_FAULT_VM);
  ASSERT_EQ_U(log.last.vm.address, 0x12345000ull);
  ASSERT_EQ(log.last.vm.vmid, 8);
  amdgpu_device_remove(dev);
}

/* ---- The IH ring as the chip runs it (vapu_ih.c) ---- */

#define IH_CLIENT_GRBM_CP 0x14 /* soc15_ih_clientid.h SOC15_IH_CLIENTID_GRBM_CP */
#define SRC_CP_END_OF_PIPE 181 /* irqsrcs_gfx_9_0.h GFX_9_0__SRCID__CP_EOP_INTERRUPT */
#define MSI_CAPABILITY 0xa0    /* where the model's PCI function has it */
#define MSI_ENABLE (1u << 16)

static void count_eop(void *ctx, uint32_t me, uint32_t pipe, uint32_t queue, uint32_t context_id) {
  __atomic_add_fetch((int *)ctx, 1, __ATOMIC_RELEASE);
}

static bool post_eop(struct vapu *v, uint32_t event) {
  const uint32_t src_data[4] = {event, 0, 0, 0};
  return vapu_ih_post(v, IH_CLIENT_GRBM_CP, SRC_CP_END_OF_PIPE, 1u << 2 /* ME 1 */, 8, false, src_data);
}

/* MSI is edge-triggered: after each interrupt the IH sends the next only
 * once the driver's read pointer write re-arms it (IH_RB_CNTL.RPTR_REARM,
 * which Linux sets with MSI). Interrupts one after the other all arrive. */
TEST(amdgpu_ih_interrupts_keep_coming_under_msi) {
  struct amdgpu_fault_log log;
  struct amdgpu_device *dev = amdgpu_test_bring_up(VAPU_RENOIR, &log);
  ASSERT_NOT_NULL(dev);
  struct vapu *v = amdgpu_vapu_of(dev);
  int eops = 0;
  amdgpu_set_eop_handler(dev, count_eop, &eops);
  for (int i = 0; i < 20; i++) {
    ASSERT_TRUE(post_eop(v, (uint32_t)i));
    ASSERT_EQ(amdgpu_test_wait_count(&eops, i + 1), i + 1);
  }
  amdgpu_set_eop_handler(dev, NULL, NULL);
  amdgpu_device_remove(dev);
}

/* Two consumers drain the ring: the MSI's handler and the scheduler, which
 * drains before it frees a slot (amdgpu_queue_sched.c). Whichever finds the
 * other draining leaves the entries to it; none may be left behind when
 * the last interrupt has come. The test thread is the second consumer
 * while another posts, a window's worth at a time so that the ring never
 * overflows; afterwards only the MSIs may bring the last entries in. */
#define TWO_CONSUMER_EVENTS 20000
#define TWO_CONSUMER_WINDOW 64
struct eop_poster {
  struct vapu *v;
  const int *eops;
  _Atomic int posted;
  _Atomic bool failed;
};

static void post_eops(void *arg) {
  struct eop_poster *p = arg;
  for (int i = 0; i < TWO_CONSUMER_EVENTS; i++) {
    while (i - __atomic_load_n(p->eops, __ATOMIC_ACQUIRE) >= TWO_CONSUMER_WINDOW) plat_cpu_relax();
    if (!post_eop(p->v, (uint32_t)i)) {
      atomic_store(&p->failed, true);
      break;
    }
    atomic_store(&p->posted, i + 1);
  }
}

TEST(amdgpu_ih_two_consumers_leave_no_entry_behind) {
  struct amdgpu_fault_log log;
  struct amdgpu_device *dev = amdgpu_test_bring_up(VAPU_RAVEN, &log);
  ASSERT_NOT_NULL(dev);
  int eops = 0;
  amdgpu_set_eop_handler(dev, count_eop, &eops);
  struct eop_poster poster = {.v = amdgpu_vapu_of(dev), .eops = &eops};
  int worker = plat_worker_start("eop-poster", post_eops, &poster);
  ASSERT_GE(worker, 0);
  while (atomic_load(&poster.posted) < TWO_CONSUMER_EVENTS && !atomic_load(&poster.failed))
    amdgpu_ih_interrupt(dev);
  plat_worker_join(worker);
  ASSERT_FALSE(atomic_load(&poster.failed));
  ASSERT_EQ(amdgpu_test_wait_count(&eops, TWO_CONSUMER_EVENTS), TWO_CONSUMER_EVENTS);
  ASSERT_EQ_U(dev->ih.overflows, 0);
  amdgpu_set_eop_handler(dev, NULL, NULL);
  amdgpu_device_remove(dev);
}

/* A full ring is overwritten from its oldest entry and flagged; the driver
 * resumes after it and must drop WPTR_OVERFLOW_CLEAR again, or the next
 * overflow goes unnoticed. Overflows are made by keeping the MSI from the
 * driver (disabled in the PCI function) while the ring fills. */
static void overflow_once(struct amdgpu_device *dev, struct vapu *v, int *eops) {
  uint32_t control = vapu_pci_config_read(v, MSI_CAPABILITY);
  vapu_pci_config_write(v, MSI_CAPABILITY, control & ~MSI_ENABLE);
  uint32_t entries = dev->ih.ring_bytes / 32;
  for (uint32_t i = 0; i < entries + 8; i++) ASSERT_TRUE(post_eop(v, i));
  vapu_pci_config_write(v, MSI_CAPABILITY, control);
  amdgpu_ih_interrupt(dev); /* the interrupt the disabled MSI kept back */
  (void)eops;
}

TEST(amdgpu_ih_recovers_from_every_overflow) {
  struct amdgpu_fault_log log;
  struct amdgpu_device *dev = amdgpu_test_bring_up(VAPU_RAVEN, &log);
  ASSERT_NOT_NULL(dev);
  struct vapu *v = amdgpu_vapu_of(dev);
  int eops = 0;
  amdgpu_set_eop_handler(dev, count_eop, &eops);
  overflow_once(dev, v, &eops);
  ASSERT_EQ_U(dev->ih.overflows, 1);
  overflow_once(dev, v, &eops);
  ASSERT_EQ_U(dev->ih.overflows, 2);
  /* And interrupts go on afterwards. */
  int before = __atomic_load_n(&eops, __ATOMIC_ACQUIRE);
  ASSERT_TRUE(post_eop(v, 7));
  ASSERT_EQ(amdgpu_test_wait_count(&eops, before + 1), before + 1);
  amdgpu_set_eop_handler(dev, NULL, NULL);
  amdgpu_device_remove(dev);
}

/* The IH takes a ring at a GPU MC address too (IH_RB_CNTL.MC_SPACE
 * IH_MC_SPACE_MC_ADDRESS, what Linux uses without bus addresses),
 * translated by the MM hub: the same ring through the GART still brings
 * interrupts. */
TEST(amdgpu_ih_ring_in_gpu_address_space_still_interrupts) {
  struct amdgpu_fault_log log;
  struct amdgpu_device *dev = amdgpu_test_bring_up(VAPU_RAVEN, &log);
  ASSERT_NOT_NULL(dev);
  struct vapu *v = amdgpu_vapu_of(dev);
  int eops = 0;
  amdgpu_set_eop_handler(dev, count_eop, &eops);
  uint64_t ring_mc, wb_mc;
  ASSERT_EQ(gmc_gart_map(dev, dev->ih.ring, dev->ih.ring_bytes, &ring_mc), 0);
  ASSERT_EQ(gmc_gart_map(dev, (void *)dev->ih.wptr_writeback, 4096, &wb_mc), 0);
  uint32_t cntl = RREG(dev, REG_IH_RB_CNTL);
  WREG(dev, REG_IH_RB_CNTL, cntl & ~IH_RB_CNTL__RB_ENABLE);
  WREG(dev, REG_IH_RB_BASE, (uint32_t)(ring_mc >> 8));
  WREG(dev, REG_IH_RB_BASE_HI, REG_FIELD(IH_RB_BASE_HI__ADDR, ring_mc >> 40));
  WREG(dev, REG_IH_RB_WPTR_ADDR_LO, (uint32_t)wb_mc);
  WREG(dev, REG_IH_RB_WPTR_ADDR_HI, REG_FIELD(IH_RB_WPTR_ADDR_HI__ADDR, wb_mc >> 32));
  WREG(dev, REG_IH_RB_CNTL,
       (cntl & ~IH_RB_CNTL__MC_SPACE_MASK) | REG_FIELD(IH_RB_CNTL__MC_SPACE, IH_MC_SPACE_MC_ADDRESS));
  for (int i = 0; i < 3; i++) {
    ASSERT_TRUE(post_eop(v, (uint32_t)i));
    ASSERT_EQ(amdgpu_test_wait_count(&eops, i + 1), i + 1);
  }
  amdgpu_set_eop_handler(dev, NULL, NULL);
  amdgpu_device_remove(dev);
}
