/* The driver's interrupt handler and the model's locks: the handler runs
 * model code (its register writes reach the model's hooks) on the core the
 * MSI names, which in the image is the core that also makes GPU accesses
 * and register writes. An interrupt that arrives while that core holds a
 * model lock must wait for the release (vapu_internal.h, vapu_lock), never
 * spin on a lock its own core holds. */
#include "drivers/amdgpu/amdgpu_vapu.h"
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
  uint64_t irq = vapu_lock(&v->hubs[VAPU_GFXHUB].fault_lock);
  const uint32_t src_data[4] = {0x12345, 0, 0, 0};
  bool posted = vapu_ih_post(v, IH_CLIENT_UTCL2, 0, 0, 8, false, src_data);
  /* Busy: a sleep would wait for a timer interrupt. */
  uint64_t until = plat_now_ns() + HOLD_NS;
  while (plat_now_ns() < until) plat_cpu_relax();
  int seen_while_held = __atomic_load_n(&log.count, __ATOMIC_ACQUIRE);
  vapu_unlock(&v->hubs[VAPU_GFXHUB].fault_lock, irq);
  ASSERT_TRUE(posted);
  ASSERT_EQ(seen_while_held, 0);
  /* Handled once the lock is free. */
  ASSERT_EQ(amdgpu_test_wait_count(&log.count, 1), 1);
  ASSERT_EQ(log.last.kind, AMDGPU_FAULT_VM);
  ASSERT_EQ_U(log.last.vm.address, 0x12345000ull);
  ASSERT_EQ(log.last.vm.vmid, 8);
  amdgpu_device_remove(dev);
}
