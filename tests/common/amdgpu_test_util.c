/* amdgpu_test_util.c - helpers of the driver's tests (amdgpu_test_util.h). */
#include "tests/common/amdgpu_test_util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <hsa/amd_hsa_signal.h>
#include <hsa/hsa.h>

#include "lib/plat.h"
#include "lib/test.h"

#define WAIT_LIMIT_NS 2000000000ull

static void record_fault(void *ctx, const struct amdgpu_fault *f) {
  struct amdgpu_fault_log *log = ctx;
  log->last = *f;
  __atomic_add_fetch(&log->count, 1, __ATOMIC_RELEASE);
}

void amdgpu_test_need_model(void) {
  if (plat_worker_slots() < 1) test_skip("the virtual APU needs a core of its own");
}

struct amdgpu_device *amdgpu_test_bring_up(enum vapu_chip_id chip, struct amdgpu_fault_log *log) {
  amdgpu_test_need_model();
  struct vapu_config config = {.chip = chip, .carveout_bytes = AMDGPU_TEST_CARVEOUT};
  struct amdgpu_device *dev = NULL;
  if (amdgpu_vapu_probe(&config, NULL, &dev)) return NULL;
  memset(log, 0, sizeof *log);
  amdgpu_set_fault_handler(dev, record_fault, log);
  return dev;
}

int amdgpu_test_wait_count(const int *counter, int n) {
  uint64_t deadline = plat_now_ns() + WAIT_LIMIT_NS;
  int now;
  while ((now = __atomic_load_n(counter, __ATOMIC_ACQUIRE)) < n && plat_now_ns() < deadline)
    plat_sleep_ns(100000);
  return now;
}

int amdgpu_test_queue_alloc(struct amdgpu_test_queue *t, uint32_t packets) {
  t->ring_bytes = packets * 64;
  t->amd = plat_dma_alloc(sizeof *t->amd, 4096);
  void *ring = plat_dma_alloc(t->ring_bytes, 4096);
  if (!t->amd || !ring) {
    if (t->amd) plat_dma_free(t->amd, sizeof *t->amd);
    if (ring) plat_dma_free(ring, t->ring_bytes);
    return -ENOMEM;
  }
  for (uint32_t i = 0; i < packets; i++)
    ((uint16_t *)ring)[i * 32] = HSA_PACKET_TYPE_INVALID << HSA_PACKET_HEADER_TYPE;
  t->amd->hsa_queue.type = HSA_QUEUE_TYPE_MULTI;
  t->amd->hsa_queue.base_address = ring;
  t->amd->hsa_queue.size = packets;
  return 0;
}

void amdgpu_test_queue_free(struct amdgpu_test_queue *t) {
  plat_dma_free(t->amd->hsa_queue.base_address, t->ring_bytes);
  plat_dma_free(t->amd, sizeof *t->amd);
}

uint64_t amdgpu_test_publish_barrier(struct amdgpu_test_queue *t, amd_signal_t *done) {
  uint64_t index = t->amd->write_dispatch_id;
  hsa_barrier_and_packet_t *p =
      (hsa_barrier_and_packet_t *)t->amd->hsa_queue.base_address + index % t->amd->hsa_queue.size;
  done->kind = AMD_SIGNAL_KIND_USER;
  done->value = 1;
  memset((uint8_t *)p + 2, 0, sizeof *p - 2);
  p->completion_signal.handle = (uint64_t)(uintptr_t)done;
  __atomic_store_n(&t->amd->write_dispatch_id, index + 1, __ATOMIC_RELEASE);
  uint16_t header = HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE;
  __atomic_store_n(&p->header, header, __ATOMIC_RELEASE);
  return index;
}

bool amdgpu_test_retired(struct amdgpu_test_queue *t, amd_signal_t *done, uint64_t index, uint64_t timeout_ns) {
  uint64_t deadline = plat_now_ns() + timeout_ns;
  for (;;) {
    if (__atomic_load_n(&done->value, __ATOMIC_ACQUIRE) == 0 &&
        __atomic_load_n(&t->amd->read_dispatch_id, __ATOMIC_ACQUIRE) > index)
      return true;
    if (plat_now_ns() > deadline) return false;
    plat_sleep_ns(100000);
  }
}

/* No test may make the GPU model do what would read stale data on silicon
 * (vapu_incoherence_count): checked after every test, whatever it did. */
static uint64_t incoherence_seen;

void amdgpu_test_incoherence_expected(void) { incoherence_seen = vapu_incoherence_count(); }

TEST_AFTER_EACH(gpu_accesses_coherent) {
  uint64_t now = vapu_incoherence_count();
  uint64_t made = now - incoherence_seen;
  incoherence_seen = now;
  if (!made) return NULL;
  static char why[128];
  snprintf(why, sizeof why, "the GPU made %llu accesses that would be incoherent on silicon (see the log)",
           (unsigned long long)made);
  return why;
}
