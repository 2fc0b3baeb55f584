/*
 * hsa_signal_event_gpu_test.c - the GPU's end-of-pipe interrupt wakes a
 * waiter on a completion signal (hsa/signal_event.c): the command
 * processor writes the signal's event id into its mailbox and interrupts;
 * the waiter, asleep without a polling back-off, wakes. If no interrupt
 * came, the wait would end only on the safety net and count as a missed
 * announcement, which the test checks. Host and image (vapu=raven).
 */
#include "hsa/signal.h"
#include "lib/plat.h"
#include "tests/common/gpu_test_util.h"
#include "tests/common/hsa_test_util.h"

struct gate_args {
  hsa_signal_t gate;
};

/* Opens the gate late enough that the waiter is asleep by then. */
HSA_CPU_KERNEL(test_open_gate_later, sizeof(struct gate_args)) {
  const struct gate_args *a = hsa_dispatch->kernarg;
  plat_sleep_ns(50000000);
  hsa_signal_store_screlease(a->gate, 0);
}

TEST(hsa_signal_event_gpu_completion_interrupt_wakes_the_waiter) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t gpu = gpu_test_agent();
  hsa_agent_t cpu;
  if (hsa_test_cpu_agents(&cpu, 1) == 0) test_skip("no CPU agent to open the gate");
  hsa_queue_t *gq, *cq;
  HSA_ASSERT_OK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &gq));
  HSA_ASSERT_OK(hsa_queue_create(cpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &cq));
  hsa_signal_t gate, done;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &gate));
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
  const amd_signal_t *amd = (const amd_signal_t *)(uintptr_t)done.handle;
  ASSERT_NE(amd->event_mailbox_ptr, 0);

  /* GPU: a barrier that waits for the gate, then completes `done`. */
  hsa_barrier_and_packet_t barrier = {0};
  barrier.dep_signal[0] = gate;
  barrier.completion_signal = done;
  hsa_test_submit(gq, &barrier, hsa_test_header(HSA_PACKET_TYPE_BARRIER_AND, false));
  /* CPU: opens the gate 50 ms from now. */
  struct gate_args *args;
  HSA_ASSERT_OK(hsa_amd_memory_pool_allocate(hsa_test_kernarg_pool(cpu), sizeof *args, 0, (void **)&args));
  args->gate = gate;
  const uint32_t one[3] = {1, 1, 1};
  hsa_kernel_dispatch_packet_t d =
      hsa_test_dispatch_packet(&hsa_cpu_kernel_test_open_gate_later, 1, one, one, args, (hsa_signal_t){0});
  hsa_test_submit(cq, &d, hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false));

  uint64_t missed = signal_missed_announcements();
  hsa_signal_value_t v = hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0,
                                                   30ull * 1000000000, HSA_WAIT_STATE_BLOCKED);
  ASSERT_EQ(v, 0);
  /* Woken by the interrupt, not by the safety net. */
  ASSERT_EQ(signal_missed_announcements(), missed);

  HSA_ASSERT_OK(hsa_queue_destroy(cq));
  HSA_ASSERT_OK(hsa_queue_destroy(gq));
  HSA_ASSERT_OK(hsa_amd_memory_pool_free(args));
  HSA_ASSERT_OK(hsa_signal_destroy(gate));
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  HSA_ASSERT_OK(hsa_shut_down());
}
