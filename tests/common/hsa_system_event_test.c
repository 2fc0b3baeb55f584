/*
 * hsa_system_event_test.c - system events as ROCr sends them
 * (runtime.cpp): every registered handler gets each event, in the order
 * they registered; a refused free of runtime memory (a live queue's ring)
 * is HSA_AMD_GPU_MEMORY_ERROR_EVENT on the freeing thread and
 * HSA_STATUS_ERROR; the GPU's faults become HSA_AMD_GPU_MEMORY_FAULT_EVENT
 * with KFD's reasons (the translation here; delivery of real faults in
 * gpu_fault_test.c). Handlers end with the runtime.
 */
#include <stdatomic.h>
#include <string.h>

#include "hsa/gpu_agent.h"
#include "tests/common/hsa_test_util.h"
#include "lib/util.h"

#define MAX_EVENTS 8

struct recorder {
  hsa_status_t answer; /* what the handler returns */
  _Atomic int calls;
  _Atomic int order; /* the global sequence number of its last call */
  hsa_amd_event_t events[MAX_EVENTS];
};

static _Atomic int sequence;

static hsa_status_t record_event(const hsa_amd_event_t *event, void *data) {
  struct recorder *r = data;
  int n = atomic_load(&r->calls);
  if (n < MAX_EVENTS) r->events[n] = *event;
  atomic_store(&r->order, atomic_fetch_add(&sequence, 1));
  atomic_fetch_add(&r->calls, 1);
  return r->answer;
}

static hsa_status_t first_agent(hsa_agent_t agent, void *data) {
  *(hsa_agent_t *)data = agent;
  return HSA_STATUS_INFO_BREAK;
}

static hsa_status_t first_region(hsa_region_t region, void *data) {
  *(hsa_region_t *)data = region;
  return HSA_STATUS_INFO_BREAK;
}

/* A soft queue (its ring is runtime memory, as every queue's); skips
 * when the runtime has no agent (an image of one core without a GPU). */
static hsa_queue_t *soft_queue(hsa_signal_t *doorbell) {
  hsa_agent_t agent = {0};
  hsa_region_t region = {0};
  if (hsa_iterate_agents(first_agent, &agent) != HSA_STATUS_INFO_BREAK) {
    hsa_shut_down();
    test_skip("no agent");
  }
  ASSERT_EQ(hsa_agent_iterate_regions(agent, first_region, &region), HSA_STATUS_INFO_BREAK);
  HSA_ASSERT_OK(hsa_signal_create(0, 0, NULL, doorbell));
  hsa_queue_t *q;
  HSA_ASSERT_OK(hsa_soft_queue_create(region, 64, HSA_QUEUE_TYPE_SINGLE,
                                      HSA_QUEUE_FEATURE_AGENT_DISPATCH, *doorbell, &q));
  return q;
}

static int ring_callbacks;
static void *ring_callback_ptr;
static void on_ring_released(void *ptr, void *user) {
  (void)user;
  ring_callbacks++;
  ring_callback_ptr = ptr;
}

TEST(hsa_system_event_refused_free_of_a_queue_ring_reaches_every_handler) {
  HSA_ASSERT_OK(hsa_init());
  static struct recorder takes, declines;
  memset(&takes, 0, sizeof takes);
  memset(&declines, 0, sizeof declines);
  takes.answer = HSA_STATUS_SUCCESS;
  declines.answer = HSA_STATUS_ERROR;
  HSA_ASSERT_OK(hsa_amd_register_system_event_handler(record_event, &declines));
  HSA_ASSERT_OK(hsa_amd_register_system_event_handler(record_event, &takes));
  hsa_signal_t doorbell;
  hsa_queue_t *q = soft_queue(&doorbell);
  uint8_t *ring = q->base_address;
  /* Runtime memory, as ROCr's rings in its system pool. */
  hsa_amd_pointer_info_t info = {.size = sizeof info};
  HSA_ASSERT_OK(hsa_amd_pointer_info(ring + 100, &info, NULL, NULL, NULL));
  ASSERT_EQ(info.type, HSA_EXT_POINTER_TYPE_HSA);
  ASSERT_PTR_EQ(info.agentBaseAddress, ring);
  ASSERT_EQ_U(info.sizeInBytes, 64 * 64);
  ring_callbacks = 0;
  HSA_ASSERT_OK(hsa_amd_register_deallocation_callback(ring + 64, on_ring_released, NULL));

  /* Freed while the queue lives: refused, both handlers told at once, in
   * the order they registered, and the ring still the queue's. */
  ((uint32_t *)ring)[5] = 0x5eed;
  ASSERT_EQ(hsa_amd_memory_pool_free(ring), HSA_STATUS_ERROR);
  ASSERT_EQ(atomic_load(&declines.calls), 1);
  ASSERT_EQ(atomic_load(&takes.calls), 1);
  ASSERT_LT(atomic_load(&declines.order), atomic_load(&takes.order));
  ASSERT_EQ(hsa_memory_free(ring), HSA_STATUS_ERROR);
  ASSERT_EQ(atomic_load(&takes.calls), 2);
  for (int i = 0; i < 2; i++) {
    const hsa_amd_event_t *e = &takes.events[i];
    ASSERT_EQ(e->event_type, HSA_AMD_GPU_MEMORY_ERROR_EVENT);
    ASSERT_EQ_U(e->memory_error.virtual_address, (uintptr_t)ring);
    ASSERT_EQ_U(e->memory_error.error_reason_mask, HSA_AMD_MEMORY_ERROR_MEMORY_IN_USE);
    ASSERT_EQ_U(e->memory_error.agent.handle, info.agentOwner.handle);
    ASSERT_MEM_EQ(&declines.events[i], e, sizeof *e);
  }
  ASSERT_EQ(((uint32_t *)ring)[5], 0x5eed);
  ASSERT_EQ(ring_callbacks, 0);

  /* The queue's end frees the ring: its callbacks run, with the pointer
   * they were registered with; afterwards it is no block at all. */
  HSA_ASSERT_OK(hsa_queue_destroy(q));
  ASSERT_EQ(ring_callbacks, 1);
  ASSERT_PTR_EQ(ring_callback_ptr, ring + 64);
  ASSERT_EQ(hsa_amd_memory_pool_free(ring), HSA_STATUS_ERROR_INVALID_ALLOCATION);
  ASSERT_EQ(atomic_load(&takes.calls), 2);
  HSA_ASSERT_OK(hsa_signal_destroy(doorbell));
  HSA_ASSERT_OK(hsa_shut_down());
}

/* Handlers belong to the runtime: after a shut-down they are gone, and a
 * refused free with no handler still answers HSA_STATUS_ERROR (ROCr would
 * abort the process). NULL is no handler. */
TEST(hsa_system_event_handlers_end_with_the_runtime) {
  HSA_ASSERT_OK(hsa_init());
  static struct recorder r;
  memset(&r, 0, sizeof r);
  r.answer = HSA_STATUS_SUCCESS;
  ASSERT_EQ(hsa_amd_register_system_event_handler(NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_amd_register_system_event_handler(record_event, &r));
  HSA_ASSERT_OK(hsa_shut_down());
  ASSERT_EQ(hsa_amd_register_system_event_handler(record_event, &r),
            HSA_STATUS_ERROR_NOT_INITIALIZED);
  HSA_ASSERT_OK(hsa_init());
  hsa_signal_t doorbell;
  hsa_queue_t *q = soft_queue(&doorbell);
  ASSERT_EQ(hsa_amd_memory_pool_free(q->base_address), HSA_STATUS_ERROR);
  ASSERT_EQ(atomic_load(&r.calls), 0);
  HSA_ASSERT_OK(hsa_queue_destroy(q));
  HSA_ASSERT_OK(hsa_signal_destroy(doorbell));
  HSA_ASSERT_OK(hsa_shut_down());
}

/* KFD's reasons for a gfx9 VM fault (kfd_int_process_v9.c, kfd_events.c)
 * as ROCr turns them into HSA_AMD_MEMORY_FAULT_* (VMFaultHandler), from
 * the driver's decoded fault. */
TEST(hsa_system_event_gpu_faults_translate_as_kfd_and_rocr) {
  const hsa_agent_t gpu = {0x1234};
  struct amdgpu_fault f = {.kind = AMDGPU_FAULT_VM};
  f.vm.vmid = AMDGPU_COMPUTE_VMID_FIRST + 3;
  f.vm.address = 0x7000deadb000ull;
  static const struct {
    uint32_t denied;
    bool walker, mapping;
    uint32_t want;
  } cases[] = {
      {AMDGPU_VM_DENIED_INVALID, false, false, HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT},
      {0, true, false, HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT}, /* invalid PDE */
      {0, false, true, HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT}, /* outside the VM's range */
      {AMDGPU_VM_DENIED_WRITE, false, false, HSA_AMD_MEMORY_FAULT_READ_ONLY},
      {AMDGPU_VM_DENIED_EXECUTE, false, false, HSA_AMD_MEMORY_FAULT_NX},
      {AMDGPU_VM_DENIED_READ, false, false, 0}, /* KFD has no reason for it */
      {AMDGPU_VM_DENIED_INVALID | AMDGPU_VM_DENIED_WRITE, false, false,
       HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT | HSA_AMD_MEMORY_FAULT_READ_ONLY},
  };
  for (size_t i = 0; i < countof(cases); i++) {
    f.vm.permission_faults = cases[i].denied;
    f.vm.walker_error = cases[i].walker;
    f.vm.mapping_error = cases[i].mapping;
    hsa_amd_event_t e;
    memset(&e, 0xa5, sizeof e);
    ASSERT_TRUE(gpu_fault_memory_event(gpu, &f, &e));
    ASSERT_EQ(e.event_type, HSA_AMD_GPU_MEMORY_FAULT_EVENT);
    ASSERT_EQ_U(e.memory_fault.agent.handle, gpu.handle);
    ASSERT_EQ_U(e.memory_fault.virtual_address, 0x7000deadb000ull);
    ASSERT_EQ_U(e.memory_fault.fault_reason_mask, cases[i].want);
  }
  /* The driver's own VMID 0 is no program's fault; nor an SQ error (the
   * queue's error callback reports it). */
  hsa_amd_event_t e;
  f.vm.vmid = 0;
  ASSERT_FALSE(gpu_fault_memory_event(gpu, &f, &e));
  f.vm.vmid = AMDGPU_COMPUTE_VMID_FIRST + AMDGPU_COMPUTE_VMID_COUNT;
  ASSERT_FALSE(gpu_fault_memory_event(gpu, &f, &e));
  struct amdgpu_fault sq = {.kind = AMDGPU_FAULT_SQ_ERROR};
  ASSERT_FALSE(gpu_fault_memory_event(gpu, &sq, &e));
  /* The IOMMU refused an access: the page is in none of the GPU's tables. */
  struct amdgpu_fault dma = {.kind = AMDGPU_FAULT_DMA};
  dma.vm.address = 0x12345678;
  ASSERT_TRUE(gpu_fault_memory_event(gpu, &dma, &e));
  ASSERT_EQ_U(e.memory_fault.virtual_address, 0x12345678);
  ASSERT_EQ_U(e.memory_fault.fault_reason_mask, HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT);
}
