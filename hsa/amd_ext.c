/*
 * amd_ext.c - the rest of the AMD extension: coherency, profiling time
 * stamps, and the features that cannot exist in a single
 * process with a single address space (IPC, dma-buf, interop, virtual
 * memory, SPM, SVM attributes). Those check their arguments, log one line
 * and answer HSA_STATUS_ERROR; hsa_system_get_info reports them absent.
 */
#define LOG_TAG "hsa-amd"
#include "hsa/agent.h"
#include "hsa/runtime.h"
#include "hsa/signal.h"
#include "lib/plat.h"

/* Coherency is a GPU agent's setting (ROCr answers INVALID_AGENT for
 * others); there is one coherent memory, so only COHERENT can be set. */
static struct agent *gpu_agent_from_handle(hsa_agent_t handle, hsa_status_t *st) {
  struct agent *a = agent_from_handle(handle);
  *st = !a                                      ? HSA_STATUS_ERROR_INVALID_AGENT
        : a->device_type != HSA_DEVICE_TYPE_GPU ? HSA_STATUS_ERROR_INVALID_AGENT
                                                : HSA_STATUS_SUCCESS;
  return *st == HSA_STATUS_SUCCESS ? a : NULL;
}

hsa_status_t hsa_amd_coherency_get_type(hsa_agent_t agent, hsa_amd_coherency_type_t *type) {
  RETURN_IF_NOT_INITIALIZED();
  if (!agent_from_handle(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!type) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  hsa_status_t st;
  if (!gpu_agent_from_handle(agent, &st)) return st;
  *type = HSA_AMD_COHERENCY_TYPE_COHERENT;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_coherency_set_type(hsa_agent_t agent, hsa_amd_coherency_type_t type) {
  RETURN_IF_NOT_INITIALIZED();
  if (!agent_from_handle(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  if ((unsigned)type > HSA_AMD_COHERENCY_TYPE_NONCOHERENT) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  hsa_status_t st;
  if (!gpu_agent_from_handle(agent, &st)) return st;
  return type == HSA_AMD_COHERENCY_TYPE_COHERENT ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR;
}

/* ---- Profiling ------------------------------------------------------------
 * Time stamps are plat_now_ns on every agent, written into the completion
 * signal by the packet processor of a queue with profiling on (the async
 * copies' queue follows hsa_amd_profiling_async_copy_enable, memory_async.c).
 * ROCr answers these for GPU agents only; CPU agents dispatch here too. */

static hsa_status_t read_time_stamps(hsa_signal_t signal, uint64_t *start, uint64_t *end) {
  if (!signal_is_valid(signal)) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  const amd_signal_t *s = &signal_from_handle(signal)->amd;
  *start = s->start_ts;
  *end = s->end_ts;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_profiling_get_dispatch_time(hsa_agent_t agent, hsa_signal_t signal,
                                                 hsa_amd_profiling_dispatch_time_t *time) {
  RETURN_IF_NOT_INITIALIZED();
  if (!time) return HSA_STATUS_ERROR_INVALID_ARGUMENT; /* ROCr's order */
  if (!agent_from_handle(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  return read_time_stamps(signal, &time->start, &time->end);
}

hsa_status_t hsa_amd_profiling_get_async_copy_time(hsa_signal_t signal,
                                                   hsa_amd_profiling_async_copy_time_t *time) {
  RETURN_IF_NOT_INITIALIZED();
  if (!time) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return read_time_stamps(signal, &time->start, &time->end);
}

hsa_status_t hsa_amd_profiling_convert_tick_to_system_domain(hsa_agent_t agent, uint64_t agent_tick,
                                                             uint64_t *system_tick) {
  RETURN_IF_NOT_INITIALIZED();
  if (!system_tick) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!agent_from_handle(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  *system_tick = agent_tick; /* every agent stamps with plat_now_ns */
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_agent_set_async_scratch_limit(hsa_agent_t agent, size_t threshold) {
  RETURN_IF_NOT_INITIALIZED();
  (void)threshold;
  /* Only GPU agents have scratch to reclaim. */
  struct agent *a = agent_from_handle(agent);
  return a && a->device_type == HSA_DEVICE_TYPE_GPU ? HSA_STATUS_SUCCESS
                                                    : HSA_STATUS_ERROR_INVALID_AGENT;
}

hsa_status_t hsa_amd_enable_logging(uint8_t *flags, void *file) {
  RETURN_IF_NOT_INITIALIZED();
  (void)file;
  if (!flags) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  /* The runtime logs through plat_log (loglevel= boot option). */
  return HSA_STATUS_SUCCESS;
}

/* ---- Not offered in a single process / single address space -----------------
 * Each checks its arguments as ROCr does (hsa_ext_amd.cpp: the pointers it
 * needs, then handles), so a bad call gets ROCr's status; a good one is
 * refused with HSA_STATUS_ERROR and one log line. The virtual memory API
 * answers as ROCr on a system without it (VIRTUAL_MEM_API_SUPPORTED false):
 * INVALID_ARGUMENT, there being no reservation to act on. */

static hsa_status_t not_offered(const char *what) {
  RETURN_IF_NOT_INITIALIZED();
  log_error("%s: not offered by this runtime (single process, single address space)", what);
  return HSA_STATUS_ERROR;
}

#define CHECK_OPEN() RETURN_IF_NOT_INITIALIZED()
#define BAD(cond)                                       \
  do {                                                  \
    if (cond) return HSA_STATUS_ERROR_INVALID_ARGUMENT; \
  } while (0)

hsa_status_t hsa_amd_ipc_memory_create(void *p, size_t l, hsa_amd_ipc_memory_t *h) {
  CHECK_OPEN();
  (void)l;
  BAD(!p || !h);
  return not_offered(__func__);
}

hsa_status_t hsa_amd_ipc_memory_attach(const hsa_amd_ipc_memory_t *h, size_t l, uint32_t n,
                                       const hsa_agent_t *a, void **p) {
  CHECK_OPEN();
  (void)h, (void)l;
  BAD(!p || (n && !a));
  for (uint32_t i = 0; i < n; i++)
    if (!agent_from_handle(a[i])) return HSA_STATUS_ERROR_INVALID_AGENT;
  return not_offered(__func__);
}

hsa_status_t hsa_amd_ipc_memory_detach(void *p) {
  CHECK_OPEN();
  BAD(!p);
  return not_offered(__func__);
}

hsa_status_t hsa_amd_ipc_signal_create(hsa_signal_t s, hsa_amd_ipc_signal_t *h) {
  CHECK_OPEN();
  BAD(!h);
  if (!signal_is_valid(s)) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  return not_offered(__func__);
}

hsa_status_t hsa_amd_ipc_signal_attach(const hsa_amd_ipc_signal_t *h, hsa_signal_t *s) {
  CHECK_OPEN();
  BAD(!h || !s);
  return not_offered(__func__);
}

hsa_status_t hsa_amd_interop_map_buffer(uint32_t n, hsa_agent_t *a, int fd, uint32_t f, size_t *s,
                                        void **p, size_t *ms, const void **m) {
  CHECK_OPEN();
  (void)fd, (void)ms, (void)m;
  BAD(!a || !s || !p || f != 0 || n == 0);
  return not_offered(__func__);
}

/* ROCr unmaps what it mapped and succeeds: nothing was mapped here. */
hsa_status_t hsa_amd_interop_unmap_buffer(void *p) {
  CHECK_OPEN();
  (void)p;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_svm_attributes_set(void *p, size_t s, hsa_amd_svm_attribute_pair_t *l,
                                        size_t n) {
  (void)p, (void)s, (void)l, (void)n;
  return not_offered(__func__);
}

hsa_status_t hsa_amd_svm_attributes_get(void *p, size_t s, hsa_amd_svm_attribute_pair_t *l,
                                        size_t n) {
  (void)p, (void)s, (void)l, (void)n;
  return not_offered(__func__);
}

hsa_status_t hsa_amd_svm_prefetch_async(void *p, size_t s, hsa_agent_t a, uint32_t n,
                                        const hsa_signal_t *d, hsa_signal_t c) {
  (void)p, (void)s, (void)a, (void)n, (void)d, (void)c;
  return not_offered(__func__);
}

/* SPM is a GPU agent's: others are invalid agents (ROCr); not offered. */
static hsa_status_t spm_refused(hsa_agent_t a, const char *what) {
  CHECK_OPEN();
  struct agent *agent = agent_from_handle(a);
  if (!agent || agent->device_type != HSA_DEVICE_TYPE_GPU) return HSA_STATUS_ERROR_INVALID_AGENT;
  return not_offered(what);
}

hsa_status_t hsa_amd_spm_acquire(hsa_agent_t a) { return spm_refused(a, __func__); }

hsa_status_t hsa_amd_spm_release(hsa_agent_t a) { return spm_refused(a, __func__); }

hsa_status_t hsa_amd_spm_set_dest_buffer(hsa_agent_t a, size_t s, uint32_t *t, uint32_t *c, void *d,
                                         bool *l) {
  (void)s, (void)t, (void)c, (void)d, (void)l;
  return spm_refused(a, __func__);
}

hsa_status_t hsa_amd_portable_export_dmabuf(const void *p, size_t s, int *fd, uint64_t *o) {
  CHECK_OPEN();
  BAD(!p || !fd || !o || s == 0);
  return not_offered(__func__);
}

hsa_status_t hsa_amd_portable_close_dmabuf(int fd) {
  (void)fd;
  return not_offered(__func__);
}

/* The virtual memory API's one answer (see above). */
static hsa_status_t vmem_refused(void) {
  CHECK_OPEN();
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t hsa_amd_vmem_address_reserve(void **va, size_t s, uint64_t a, uint64_t f) {
  (void)va, (void)a, (void)f, (void)s;
  return vmem_refused();
}

hsa_status_t hsa_amd_vmem_address_reserve_align(void **va, size_t s, uint64_t a, uint64_t al,
                                                uint64_t f) {
  (void)va, (void)s, (void)a, (void)al, (void)f;
  return vmem_refused();
}

hsa_status_t hsa_amd_vmem_address_free(void *va, size_t s) {
  (void)va, (void)s;
  return vmem_refused();
}

hsa_status_t hsa_amd_vmem_handle_create(hsa_amd_memory_pool_t p, size_t s, hsa_amd_memory_type_t t,
                                        uint64_t f, hsa_amd_vmem_alloc_handle_t *h) {
  (void)p, (void)s, (void)t, (void)f, (void)h;
  return vmem_refused();
}

hsa_status_t hsa_amd_vmem_handle_release(hsa_amd_vmem_alloc_handle_t h) {
  (void)h;
  return vmem_refused();
}

hsa_status_t hsa_amd_vmem_map(void *va, size_t s, size_t o, hsa_amd_vmem_alloc_handle_t h,
                              uint64_t f) {
  (void)va, (void)s, (void)o, (void)h, (void)f;
  return vmem_refused();
}

hsa_status_t hsa_amd_vmem_unmap(void *va, size_t s) {
  (void)va, (void)s;
  return vmem_refused();
}

hsa_status_t hsa_amd_vmem_set_access(void *va, size_t s, const hsa_amd_memory_access_desc_t *d,
                                     size_t n) {
  (void)va, (void)s, (void)d, (void)n;
  return vmem_refused();
}

hsa_status_t hsa_amd_vmem_get_access(void *va, hsa_access_permission_t *p, hsa_agent_t a) {
  (void)va, (void)p, (void)a;
  return vmem_refused();
}

hsa_status_t hsa_amd_vmem_export_shareable_handle(int *fd, hsa_amd_vmem_alloc_handle_t h,
                                                  uint64_t f) {
  (void)fd, (void)h, (void)f;
  return vmem_refused();
}

hsa_status_t hsa_amd_vmem_import_shareable_handle(int fd, hsa_amd_vmem_alloc_handle_t *h) {
  (void)fd, (void)h;
  return vmem_refused();
}

hsa_status_t hsa_amd_vmem_retain_alloc_handle(hsa_amd_vmem_alloc_handle_t *h, void *a) {
  (void)h, (void)a;
  return vmem_refused();
}

hsa_status_t hsa_amd_vmem_get_alloc_properties_from_handle(hsa_amd_vmem_alloc_handle_t h,
                                                           hsa_amd_memory_pool_t *p,
                                                           hsa_amd_memory_type_t *t) {
  (void)h, (void)p, (void)t;
  return vmem_refused();
}
