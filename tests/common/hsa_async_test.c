/*
 * hsa_async_test.c - asynchronous signal handlers and functions. On the
 * host they run on their own worker; in the image (every spare core is a
 * CPU agent's) on the first CPU agent between packets.
 */
#include <stdatomic.h>

#include "lib/plat.h"
#include "tests/common/hsa_test_util.h"

struct handler_log {
  _Atomic int calls;
  _Atomic hsa_signal_value_t last;
  int keep_for;
};

static bool count_handler(hsa_signal_value_t value, void *arg) {
  struct handler_log *log = arg;
  atomic_store(&log->last, value);
  return atomic_fetch_add(&log->calls, 1) + 1 < log->keep_for;
}

static void async_fn(void *arg) { atomic_fetch_add((_Atomic int *)arg, 1); }

TEST(hsa_signal_async_handlers_run_when_condition_holds) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t cpu;
  hsa_test_cpu_agents(&cpu, 1); /* the image needs a CPU agent to run them */
  hsa_signal_t s, done;
  HSA_ASSERT_OK(hsa_signal_create(3, 0, NULL, &s));
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
  struct handler_log once = {0, 0, 1}, twice = {0, 0, 2};
  HSA_ASSERT_OK(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 0, count_handler, &once));
  HSA_ASSERT_OK(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_LT, 0, count_handler, &twice));
  plat_sleep_ns(5000000);
  ASSERT_EQ(atomic_load(&once.calls), 0); /* not yet: value is 3 */
  hsa_signal_store_screlease(s, 0);
  uint64_t deadline = plat_now_ns() + 5000000000ull;
  while (atomic_load(&once.calls) == 0 && plat_now_ns() < deadline) plat_sleep_ns(100000);
  ASSERT_EQ(atomic_load(&once.calls), 1);
  ASSERT_EQ(atomic_load(&once.last), 0);
  ASSERT_EQ(atomic_load(&twice.calls), 0);
  hsa_signal_store_screlease(s, -1); /* `once` returned false: only `twice` may run */
  while (atomic_load(&twice.calls) < 2 && plat_now_ns() < deadline) plat_sleep_ns(100000);
  ASSERT_EQ(atomic_load(&twice.calls), 2); /* kept after the first call, dropped after the 2nd */
  plat_sleep_ns(5000000);
  ASSERT_EQ(atomic_load(&once.calls), 1);
  ASSERT_EQ(atomic_load(&twice.calls), 2);
  _Atomic int ran = 0;
  HSA_ASSERT_OK(hsa_amd_async_function(async_fn, &ran));
  while (atomic_load(&ran) == 0 && plat_now_ns() < deadline) plat_sleep_ns(100000);
  ASSERT_EQ(atomic_load(&ran), 1);
  ASSERT_EQ(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 0, NULL, NULL),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_signal_t junk = {0x7700};
  ASSERT_EQ(hsa_amd_signal_async_handler(junk, HSA_SIGNAL_CONDITION_EQ, 0, count_handler, &once),
            HSA_STATUS_ERROR_INVALID_SIGNAL);
  ASSERT_EQ(hsa_amd_async_function(NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_signal_destroy(s));
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  HSA_ASSERT_OK(hsa_shut_down());
}
