/*
 * hsa_signal_test.c - signals: creation and its errors, every operation in
 * every memory order against a computed expectation, waits with each
 * condition and timeouts, groups, wait_any, the amd_signal_t layout, and
 * operations on destroyed signals. (Our rewrite of the conformance suite's
 * single-thread signal tests; the multi-thread ones are in tests/host.)
 */
#include <hsa/amd_hsa_signal.h>
#include <string.h>

#include "lib/plat.h"
#include "tests/common/hsa_test_util.h"
#include "lib/util.h"

TEST(hsa_signal_create_and_destroy_errors) {
  HSA_ASSERT_OK(hsa_init());
  hsa_signal_t s;
  ASSERT_EQ(hsa_signal_create(0, 0, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_signal_create(0, 2, NULL, &s), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_agent_t cpu[2];
  ASSERT_GE(hsa_test_cpu_agents(cpu, 2), 1);
  hsa_agent_t twice[2] = {cpu[0], cpu[0]};
  ASSERT_EQ(hsa_signal_create(0, 2, twice, &s), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_signal_create(7, 1, cpu, &s));
  ASSERT_EQ(hsa_signal_load_relaxed(s), 7);
  /* A CPU consumer waits: the signal has an interrupt event (ROCr). */
  ASSERT_NE(((const amd_signal_t *)(uintptr_t)s.handle)->event_mailbox_ptr, 0);
  HSA_ASSERT_OK(hsa_signal_destroy(s));
  ASSERT_EQ(hsa_signal_destroy(s), HSA_STATUS_ERROR_INVALID_SIGNAL); /* double destroy */
  hsa_signal_t zero = {0}, junk = {0x1230};
  ASSERT_EQ(hsa_signal_destroy(zero), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_signal_destroy(junk), HSA_STATUS_ERROR_INVALID_SIGNAL);
  ASSERT_EQ(hsa_amd_signal_create(0, 0, NULL, HSA_AMD_SIGNAL_IPC, &s),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_amd_signal_create(0, 0, NULL, 1ull << 40, &s)); /* unknown bits: ignored */
  HSA_ASSERT_OK(hsa_signal_destroy(s));
  HSA_ASSERT_OK(hsa_amd_signal_create(3, 0, NULL, HSA_AMD_SIGNAL_AMD_GPU_ONLY, &s));
  volatile hsa_signal_value_t *value_ptr = NULL;
  HSA_ASSERT_OK(hsa_amd_signal_value_pointer(s, &value_ptr));
  ASSERT_EQ(*value_ptr, 3);
  HSA_ASSERT_OK(hsa_signal_destroy(s));
  ASSERT_EQ(hsa_amd_signal_value_pointer(s, &value_ptr), HSA_STATUS_ERROR_INVALID_SIGNAL);
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_signal_handle_is_its_amd_signal) {
  HSA_ASSERT_OK(hsa_init());
  hsa_signal_t s;
  HSA_ASSERT_OK(hsa_signal_create(42, 0, NULL, &s));
  amd_signal_t *amd = (amd_signal_t *)(uintptr_t)s.handle;
  ASSERT_EQ(s.handle % 64, 0);
  ASSERT_EQ(amd->kind, AMD_SIGNAL_KIND_USER);
  ASSERT_EQ(amd->value, 42);
  /* What the GPU does: decrement the value in place. */
  __atomic_fetch_sub(&amd->value, 2, __ATOMIC_SEQ_CST);
  ASSERT_EQ(hsa_signal_load_scacquire(s), 40);
  HSA_ASSERT_OK(hsa_signal_destroy(s));
  HSA_ASSERT_OK(hsa_shut_down());
}

typedef void (*rmw_fn)(hsa_signal_t, hsa_signal_value_t);

TEST(hsa_signal_rmw_operations_in_every_order) {
  HSA_ASSERT_OK(hsa_init());
  hsa_signal_t s;
  HSA_ASSERT_OK(hsa_signal_create(0, 0, NULL, &s));
  static const struct {
    rmw_fn fn[7];
    int op; /* 0 add 1 sub 2 and 3 or 4 xor */
  } ops[] = {
      {{hsa_signal_add_scacq_screl, hsa_signal_add_acq_rel, hsa_signal_add_scacquire,
        hsa_signal_add_acquire, hsa_signal_add_relaxed, hsa_signal_add_screlease,
        hsa_signal_add_release},
       0},
      {{hsa_signal_subtract_scacq_screl, hsa_signal_subtract_acq_rel, hsa_signal_subtract_scacquire,
        hsa_signal_subtract_acquire, hsa_signal_subtract_relaxed, hsa_signal_subtract_screlease,
        hsa_signal_subtract_release},
       1},
      {{hsa_signal_and_scacq_screl, hsa_signal_and_acq_rel, hsa_signal_and_scacquire,
        hsa_signal_and_acquire, hsa_signal_and_relaxed, hsa_signal_and_screlease,
        hsa_signal_and_release},
       2},
      {{hsa_signal_or_scacq_screl, hsa_signal_or_acq_rel, hsa_signal_or_scacquire,
        hsa_signal_or_acquire, hsa_signal_or_relaxed, hsa_signal_or_screlease,
        hsa_signal_or_release},
       3},
      {{hsa_signal_xor_scacq_screl, hsa_signal_xor_acq_rel, hsa_signal_xor_scacquire,
        hsa_signal_xor_acquire, hsa_signal_xor_relaxed, hsa_signal_xor_screlease,
        hsa_signal_xor_release},
       4},
  };
  int64_t expect = 0x123456789abcll;
  hsa_signal_store_relaxed(s, expect);
  for (size_t i = 0; i < countof(ops); i++)
    for (int order = 0; order < 7; order++) {
      int bit = (int)(i * 7 + (size_t)order);
      int64_t operand = (int64_t)(0x10101 * (i + 1)) + order * 0x300000003ll;
      switch (ops[i].op) {
        case 0:
          expect += operand;
          break;
        case 1:
          expect -= operand;
          break;
        case 2:
          operand = ~(1ll << bit);
          expect &= operand;
          break; /* clears one bit */
        case 3:
          operand = 1ll << (bit + 3);
          expect |= operand;
          break;
        case 4:
          expect ^= operand;
          break;
      }
      ops[i].fn[order](s, operand);
      ASSERT_EQ(hsa_signal_load_relaxed(s), expect);
    }
  HSA_ASSERT_OK(hsa_signal_destroy(s));
  HSA_ASSERT_OK(hsa_shut_down());
}

typedef hsa_signal_value_t (*xchg_fn)(hsa_signal_t, hsa_signal_value_t);
typedef hsa_signal_value_t (*cas_fn)(hsa_signal_t, hsa_signal_value_t, hsa_signal_value_t);
typedef hsa_signal_value_t (*load_fn)(hsa_signal_t);
typedef void (*store_fn)(hsa_signal_t, hsa_signal_value_t);

TEST(hsa_signal_load_store_exchange_cas_in_every_order) {
  HSA_ASSERT_OK(hsa_init());
  hsa_signal_t s;
  HSA_ASSERT_OK(hsa_signal_create(0, 0, NULL, &s));
  static const load_fn loads[] = {hsa_signal_load_scacquire, hsa_signal_load_relaxed,
                                  hsa_signal_load_acquire};
  static const store_fn stores[] = {hsa_signal_store_relaxed, hsa_signal_store_screlease,
                                    hsa_signal_store_release, hsa_signal_silent_store_relaxed,
                                    hsa_signal_silent_store_screlease};
  static const xchg_fn xchgs[] = {hsa_signal_exchange_scacq_screl, hsa_signal_exchange_acq_rel,
                                  hsa_signal_exchange_scacquire,   hsa_signal_exchange_acquire,
                                  hsa_signal_exchange_relaxed,     hsa_signal_exchange_screlease,
                                  hsa_signal_exchange_release};
  static const cas_fn cases[] = {hsa_signal_cas_scacq_screl, hsa_signal_cas_acq_rel,
                                 hsa_signal_cas_scacquire,   hsa_signal_cas_acquire,
                                 hsa_signal_cas_relaxed,     hsa_signal_cas_screlease,
                                 hsa_signal_cas_release};
  for (int i = 0; i < 5; i++) {
    stores[i](s, -1000 - i);
    for (int l = 0; l < 3; l++) ASSERT_EQ(loads[l](s), -1000 - i);
  }
  hsa_signal_value_t v = 5;
  hsa_signal_store_relaxed(s, v);
  for (int i = 0; i < 7; i++) {
    ASSERT_EQ(xchgs[i](s, v + 1), v);
    v++;
    /* A failing cas returns the value and changes nothing... */
    ASSERT_EQ(cases[i](s, v + 100, 0), v);
    ASSERT_EQ(hsa_signal_load_relaxed(s), v);
    /* ...a succeeding one returns the expected value and stores. */
    ASSERT_EQ(cases[i](s, v, v * 3), v);
    v *= 3;
    ASSERT_EQ(hsa_signal_load_relaxed(s), v);
  }
  HSA_ASSERT_OK(hsa_signal_destroy(s));
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_signal_wait_conditions_and_timeout) {
  HSA_ASSERT_OK(hsa_init());
  hsa_signal_t s;
  HSA_ASSERT_OK(hsa_signal_create(10, 0, NULL, &s));
  /* Satisfied at once: each condition, both wait variants. */
  ASSERT_EQ(
      hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 10, UINT64_MAX, HSA_WAIT_STATE_ACTIVE),
      10);
  ASSERT_EQ(
      hsa_signal_wait_relaxed(s, HSA_SIGNAL_CONDITION_NE, 3, UINT64_MAX, HSA_WAIT_STATE_BLOCKED),
      10);
  ASSERT_EQ(
      hsa_signal_wait_acquire(s, HSA_SIGNAL_CONDITION_LT, 11, UINT64_MAX, HSA_WAIT_STATE_BLOCKED),
      10);
  ASSERT_EQ(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_GTE, 10, UINT64_MAX,
                                      HSA_WAIT_STATE_BLOCKED),
            10);
  /* Never satisfied: returns after the timeout hint, with the value. */
  static const hsa_signal_condition_t never[] = {HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_NE,
                                                 HSA_SIGNAL_CONDITION_LT, HSA_SIGNAL_CONDITION_GTE};
  static const hsa_signal_value_t against[] = {11, 10, 10, 11};
  for (int c = 0; c < 4; c++)
    for (int state = 0; state < 2; state++) {
      uint64_t t0 = plat_now_ns();
      ASSERT_EQ(
          hsa_signal_wait_scacquire(s, never[c], against[c], 3000000, (hsa_wait_state_t)state), 10);
      uint64_t took = plat_now_ns() - t0;
      ASSERT_GE(took, 3000000);
      ASSERT_LT(took, 2000000000ull);
    }
  HSA_ASSERT_OK(hsa_signal_destroy(s));
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_signal_destroyed_signal_operations_do_not_crash) {
  HSA_ASSERT_OK(hsa_init());
  hsa_signal_t s;
  HSA_ASSERT_OK(hsa_signal_create(5, 0, NULL, &s));
  HSA_ASSERT_OK(hsa_signal_destroy(s));
  /* Use after destroy: logged, no effect, no crash. */
  hsa_signal_store_relaxed(s, 1);
  hsa_signal_add_relaxed(s, 1);
  ASSERT_EQ(hsa_signal_load_relaxed(s), 0);
  ASSERT_EQ(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 1, 1000, HSA_WAIT_STATE_BLOCKED),
            0);
  hsa_signal_t zero = {0};
  ASSERT_EQ(hsa_signal_load_relaxed(zero), 0);
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_signal_group_wait_any_picks_satisfied_signal) {
  HSA_ASSERT_OK(hsa_init());
  hsa_signal_t sig[3];
  for (int i = 0; i < 3; i++) HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &sig[i]));
  hsa_signal_group_t g;
  ASSERT_EQ(hsa_signal_group_create(0, sig, 0, NULL, &g), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_signal_t dup[2] = {sig[0], sig[0]};
  ASSERT_EQ(hsa_signal_group_create(2, dup, 0, NULL, &g), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_signal_t bad[2] = {sig[0], {0x4440}};
  ASSERT_EQ(hsa_signal_group_create(2, bad, 0, NULL, &g), HSA_STATUS_ERROR_INVALID_SIGNAL);
  HSA_ASSERT_OK(hsa_signal_group_create(3, sig, 0, NULL, &g));
  hsa_signal_store_relaxed(sig[2], 0);
  hsa_signal_condition_t conds[3] = {HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_EQ,
                                     HSA_SIGNAL_CONDITION_EQ};
  hsa_signal_value_t values[3] = {0, 0, 0};
  hsa_signal_t which = {0};
  hsa_signal_value_t value = -1;
  HSA_ASSERT_OK(hsa_signal_group_wait_any_scacquire(g, conds, values, HSA_WAIT_STATE_BLOCKED,
                                                    &which, &value));
  ASSERT_EQ(which.handle, sig[2].handle);
  ASSERT_EQ(value, 0);
  hsa_signal_store_relaxed(sig[2], 1);
  conds[1] = HSA_SIGNAL_CONDITION_GTE;
  HSA_ASSERT_OK(
      hsa_signal_group_wait_any_relaxed(g, conds, values, HSA_WAIT_STATE_ACTIVE, &which, &value));
  ASSERT_EQ(which.handle, sig[1].handle);
  ASSERT_EQ(
      hsa_signal_group_wait_any_relaxed(g, NULL, values, HSA_WAIT_STATE_ACTIVE, &which, &value),
      HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_signal_group_destroy(g));
  ASSERT_EQ(hsa_signal_group_destroy(g), HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP);
  ASSERT_EQ(
      hsa_signal_group_wait_any_relaxed(g, conds, values, HSA_WAIT_STATE_ACTIVE, &which, &value),
      HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP);
  /* hsa_amd_signal_wait_any: index of the satisfied one, count on timeout. */
  hsa_signal_condition_t eq0[3] = {HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_EQ,
                                   HSA_SIGNAL_CONDITION_EQ};
  hsa_signal_value_t zeros[3] = {0, 0, 0};
  ASSERT_EQ(hsa_amd_signal_wait_any(3, sig, eq0, zeros, 2000000, HSA_WAIT_STATE_BLOCKED, &value),
            3);
  hsa_signal_store_screlease(sig[1], 0);
  ASSERT_EQ(hsa_amd_signal_wait_any(3, sig, eq0, zeros, UINT64_MAX, HSA_WAIT_STATE_BLOCKED, &value),
            1);
  ASSERT_EQ(hsa_amd_signal_wait_any(0, sig, eq0, zeros, 0, HSA_WAIT_STATE_BLOCKED, &value), 0);
  for (int i = 0; i < 3; i++) HSA_ASSERT_OK(hsa_signal_destroy(sig[i]));
  HSA_ASSERT_OK(hsa_shut_down());
}
