/*
 * hip_style.c - HSA used the way HIP's runtime (ROCclr's rocvirtual) uses
 * it for a program built with clang -x hip --offload-arch=...:
 *   - the fat binary is a clang offload bundle; the runtime picks the entry
 *     whose target ID suits the agent's ISA (iterated, named with its
 *     XNACK state), preferring an exact feature match over "any", and loads
 *     that ELF from memory;
 *   - the AMD loader extension's table (hsa_system_get_major_extension_
 *     table): loaded code objects of the executable, their URI and load
 *     range, the host address of a kernel descriptor;
 *   - hipHostRegister: hsa_amd_memory_lock of malloc'd memory, checked with
 *     hsa_amd_pointer_info, unlocked at the end;
 *   - two streams (queues with an error callback, one with a priority and
 *     a CU mask), async copies with completion signals and copy profiling,
 *     a kernel per stream, hsa_amd_signal_wait_any over both streams'
 *     signals, an async handler as hipStreamAddCallback, a signal's value
 *     pointer for hipStreamWaitValue-style polling.
 */
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ven_amd_loader.h>
#include <stdbool.h>

#include "support/program.h"

#define N     1024
#define BLOCK 64

struct hip_device {
  hsa_agent_t gpu, cpu;
  char isa[64];
  hsa_amd_memory_pool_t kernarg_pool, fine_pool, device_pool;
};

static hsa_status_t find_agents(hsa_agent_t agent, void *data) {
  struct hip_device *d = data;
  hsa_device_type_t type;
  CHECK(hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type));
  if (type == HSA_DEVICE_TYPE_GPU && !d->gpu.handle) d->gpu = agent;
  if (type == HSA_DEVICE_TYPE_CPU && !d->cpu.handle) d->cpu = agent;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_pools(hsa_amd_memory_pool_t pool, void *data) {
  struct hip_device *d = data;
  uint32_t flags = program_pool_global_flags(pool);
  if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) {
    if (!d->kernarg_pool.handle) d->kernarg_pool = pool;
  } else if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) {
    if (!d->fine_pool.handle) d->fine_pool = pool;
  }
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_device_pool(hsa_amd_memory_pool_t pool, void *data) {
  struct hip_device *d = data;
  if (!(program_pool_global_flags(pool) & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED))
    return HSA_STATUS_SUCCESS;
  d->device_pool = pool;
  return HSA_STATUS_INFO_BREAK;
}

static hsa_status_t first_isa_name(hsa_isa_t isa, void *data) {
  CHECK(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, data));
  return HSA_STATUS_INFO_BREAK;
}

/* ---- The fat binary ------------------------------------------------------ */

#define BUNDLE_MAGIC "__CLANG_OFFLOAD_BUNDLE__"

static uint64_t read64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

/* How well a bundle entry ID fits the agent's ISA name: 0 not at all, 1
 * built for any XNACK state, 2 for exactly the agent's (target ID rules of
 * clang's offload bundles: "hipv4-amdgcn-amd-amdhsa--gfx902:xnack+"). */
static int entry_fit(const char *id, size_t id_len, const char *isa) {
  const char *prefix = "hipv4-";
  size_t plen = strlen(prefix);
  if (id_len <= plen || strncmp(id, prefix, plen) != 0) return 0;
  id += plen;
  id_len -= plen;
  size_t processor_len = strcspn(isa, ":");
  if (id_len < processor_len || strncmp(id, isa, processor_len) != 0) return 0;
  if (id_len == processor_len) return 1; /* no feature: any */
  if (id[processor_len] != ':') return 0;
  return id_len == strlen(isa) && strncmp(id, isa, id_len) == 0 ? 2 : 0;
}

static const uint8_t *pick_code_object(const uint8_t *bundle, size_t size, const char *isa,
                                       size_t *out_size) {
  EXPECT(size > 32 && memcmp(bundle, BUNDLE_MAGIC, strlen(BUNDLE_MAGIC)) == 0, "not a bundle");
  uint64_t count = read64(bundle + 24);
  size_t pos = 32;
  const uint8_t *best = NULL;
  int best_fit = 0;
  for (uint64_t i = 0; i < count; i++) {
    EXPECT(pos + 24 <= size, "bundle entry %llu truncated", (unsigned long long)i);
    uint64_t off = read64(bundle + pos), len = read64(bundle + pos + 8),
             id_len = read64(bundle + pos + 16);
    const char *id = (const char *)bundle + pos + 24;
    pos += 24 + id_len;
    EXPECT(pos <= size && off <= size && len <= size - off, "bundle entry %llu out of bounds",
           (unsigned long long)i);
    int fit = entry_fit(id, id_len, isa);
    if (fit > best_fit && len > 0) {
      best_fit = fit;
      best = bundle + off;
      *out_size = len;
    }
  }
  EXPECT(best != NULL, "no code object in the bundle for %s", isa);
  return best;
}

/* ---- Streams ---------------------------------------------------------------- */

static void stream_error(hsa_status_t status, hsa_queue_t *q, void *data) {
  (void)q, (void)data;
  fprintf(stderr, "hip_style: stream error 0x%x\n", status);
  exit(1);
}

static void launch(hsa_queue_t *q, const struct program_kernel *k, void *kernarg,
                   hsa_signal_t done) {
  uint64_t index = hsa_queue_add_write_index_screlease(q, 1);
  while (index - hsa_queue_load_read_index_relaxed(q) >= q->size)
    ;
  hsa_kernel_dispatch_packet_t *p =
      (hsa_kernel_dispatch_packet_t *)q->base_address + (index % q->size);
  program_fill_dispatch_1d(p, k, kernarg, N, BLOCK, done);
  /* HIP's streams are in order: the barrier bit on every dispatch. */
  program_publish(
      q, index, p,
      PROGRAM_PACKET_HEADER(HSA_PACKET_TYPE_KERNEL_DISPATCH) | 1 << HSA_PACKET_HEADER_BARRIER,
      1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);
}

struct callback_record {
  hsa_signal_value_t seen;
  hsa_signal_t done;
};

static bool stream_callback(hsa_signal_value_t value, void *arg) {
  struct callback_record *r = arg;
  r->seen = value;
  hsa_signal_subtract_screlease(r->done, 1);
  return false;
}

static hsa_status_t note_uri(hsa_executable_t exec, hsa_loaded_code_object_t lco, void *data) {
  (void)exec;
  *(hsa_loaded_code_object_t *)data = lco;
  return HSA_STATUS_SUCCESS;
}

int main(int argc, char **argv) {
  CHECK(hsa_init());
  struct hip_device d;
  memset(&d, 0, sizeof d);
  CHECK(hsa_iterate_agents(find_agents, &d));
  EXPECT(d.gpu.handle && d.cpu.handle, "need a GPU and a CPU agent");
  CHECK(hsa_amd_agent_iterate_memory_pools(d.cpu, find_pools, &d));
  CHECK(hsa_amd_agent_iterate_memory_pools(d.gpu, find_device_pool, &d));
  EXPECT(d.kernarg_pool.handle && d.device_pool.handle, "pools");
  if (!d.fine_pool.handle) d.fine_pool = d.kernarg_pool;
  CHECK(hsa_agent_iterate_isas(d.gpu, first_isa_name, d.isa));
  hsa_amd_coherency_type_t coherency;
  CHECK(hsa_amd_coherency_get_type(d.gpu, &coherency));
  EXPECT(coherency == HSA_AMD_COHERENCY_TYPE_COHERENT, "an APU's GPU is coherent");

  /* The loader extension, as ROCclr gets it. */
  hsa_ven_amd_loader_1_01_pfn_t loader;
  bool supported = false;
  uint16_t minor = 0;
  CHECK(hsa_system_major_extension_supported(HSA_EXTENSION_AMD_LOADER, 1, &minor, &supported));
  EXPECT(supported && minor >= 1, "AMD loader extension 1.%u", minor);
  CHECK(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof loader, &loader));

  /* The fat binary: the entry for this agent, loaded from memory. */
  size_t bundle_size, co_size = 0;
  uint8_t *bundle = program_read_file(program_kernel_path(argc, argv, "scale.hipfb"), &bundle_size);
  const uint8_t *co = pick_code_object(bundle, bundle_size, d.isa, &co_size);
  hsa_code_object_reader_t reader;
  CHECK(hsa_code_object_reader_create_from_memory(co, co_size, &reader));
  hsa_executable_t exec;
  CHECK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL,
                                  &exec));
  CHECK(hsa_executable_load_agent_code_object(exec, d.gpu, reader, NULL, NULL));
  CHECK(hsa_executable_freeze(exec, NULL));
  hsa_executable_symbol_t sym;
  CHECK(hsa_executable_get_symbol_by_name(exec, "scale.kd", &d.gpu, &sym));
  struct program_kernel k = program_kernel_info(sym);

  hsa_loaded_code_object_t lco = {0};
  CHECK(loader.hsa_ven_amd_loader_executable_iterate_loaded_code_objects(exec, note_uri, &lco));
  uint32_t uri_length;
  uint64_t load_base, load_size;
  CHECK(loader.hsa_ven_amd_loader_loaded_code_object_get_info(
      lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH, &uri_length));
  char *uri = calloc(1, uri_length + 1);
  CHECK(loader.hsa_ven_amd_loader_loaded_code_object_get_info(
      lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI, uri));
  CHECK(loader.hsa_ven_amd_loader_loaded_code_object_get_info(
      lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE, &load_base));
  CHECK(loader.hsa_ven_amd_loader_loaded_code_object_get_info(
      lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE, &load_size));
  EXPECT(k.object >= load_base && k.object < load_base + load_size,
         "kernel outside its code object");
  const void *host;
  CHECK(loader.hsa_ven_amd_loader_query_host_address((const void *)(uintptr_t)k.object, &host));
  EXPECT(strncmp(uri, "memory://", 9) == 0 || strncmp(uri, "file://", 7) == 0, "URI %s", uri);

  /* hipHostRegister of two host arrays. */
  float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
  for (int i = 0; i < N; i++) a[i] = (float)i, b[i] = (float)(2 * i);
  void *a_dev, *b_dev;
  CHECK(hsa_amd_memory_lock(a, N * sizeof *a, &d.gpu, 1, &a_dev));
  CHECK(hsa_amd_memory_lock(b, N * sizeof *b, &d.gpu, 1, &b_dev));
  hsa_amd_pointer_info_t info = {.size = sizeof info};
  CHECK(hsa_amd_pointer_info(a, &info, NULL, NULL, NULL));
  EXPECT(info.type == HSA_EXT_POINTER_TYPE_LOCKED && info.hostBaseAddress == a,
         "pointer info of locked memory");

  /* Device memory, kernel arguments, two streams. */
  float *x, *y;
  uint8_t *args_x, *args_y;
  CHECK(hsa_amd_memory_pool_allocate(d.device_pool, N * sizeof *x, 0, (void **)&x));
  CHECK(hsa_amd_memory_pool_allocate(d.device_pool, N * sizeof *y, 0, (void **)&y));
  CHECK(hsa_amd_memory_pool_allocate(d.kernarg_pool, k.kernarg_size, 0, (void **)&args_x));
  CHECK(hsa_amd_memory_pool_allocate(d.kernarg_pool, k.kernarg_size, 0, (void **)&args_y));
  hsa_agent_t both[2] = {d.gpu, d.cpu};
  CHECK(hsa_amd_agents_allow_access(2, both, NULL, x));
  CHECK(hsa_amd_agents_allow_access(2, both, NULL, y));
  float f3 = 3.0f, f5 = 5.0f;
  uint32_t n = N;
  memcpy(args_x, &x, 8), memcpy(args_x + 8, &f3, 4), memcpy(args_x + 12, &n, 4);
  memcpy(args_y, &y, 8), memcpy(args_y + 8, &f5, 4), memcpy(args_y + 12, &n, 4);

  hsa_queue_t *s1, *s2;
  CHECK(hsa_queue_create(d.gpu, 1024, HSA_QUEUE_TYPE_MULTI, stream_error, NULL, UINT32_MAX,
                         UINT32_MAX, &s1));
  CHECK(hsa_queue_create(d.gpu, 1024, HSA_QUEUE_TYPE_MULTI, stream_error, NULL, UINT32_MAX,
                         UINT32_MAX, &s2));
  CHECK(hsa_amd_queue_set_priority(s2, HSA_AMD_QUEUE_PRIORITY_HIGH));
  uint32_t cus = 0;
  CHECK(hsa_agent_get_info(d.gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, &cus));
  uint32_t cu_mask = cus >= 32 ? 0xffffffffu : (1u << cus) - 1;
  hsa_status_t mask_status = hsa_amd_queue_cu_set_mask(s2, 32, &cu_mask);
  EXPECT(
      mask_status == HSA_STATUS_SUCCESS || mask_status == (hsa_status_t)HSA_STATUS_CU_MASK_REDUCED,
      "cu mask 0x%x", mask_status);
  CHECK(hsa_amd_profiling_async_copy_enable(true));

  hsa_signal_t in1, in2, k1, k2, out1, out2, callbacks_done;
  CHECK(hsa_signal_create(1, 0, NULL, &in1));
  CHECK(hsa_signal_create(1, 0, NULL, &in2));
  CHECK(hsa_signal_create(1, 0, NULL, &k1));
  CHECK(hsa_signal_create(1, 0, NULL, &k2));
  CHECK(hsa_signal_create(1, 0, NULL, &out1));
  CHECK(hsa_signal_create(1, 0, NULL, &out2));
  CHECK(hsa_signal_create(2, 0, NULL, &callbacks_done));
  /* Copies in, then each stream waits for its copy with a barrier packet
   * ahead of its kernel (hipStreamWaitEvent). */
  CHECK(hsa_amd_memory_async_copy(x, d.gpu, a_dev, d.cpu, N * sizeof *x, 0, NULL, in1));
  CHECK(hsa_amd_memory_async_copy(y, d.gpu, b_dev, d.cpu, N * sizeof *y, 0, NULL, in2));
  hsa_signal_t ins[2] = {in1, in2};
  hsa_signal_condition_t eq[2] = {HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_EQ};
  hsa_signal_value_t zero[2] = {0, 0}, seen;
  uint32_t first =
      hsa_amd_signal_wait_any(2, ins, eq, zero, UINT64_MAX, HSA_WAIT_STATE_BLOCKED, &seen);
  EXPECT(first < 2 && seen == 0, "wait_any: %u", first);
  hsa_signal_wait_scacquire(ins[1 - first], HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                            HSA_WAIT_STATE_BLOCKED);
  launch(s1, &k, args_x, k1);
  launch(s2, &k, args_y, k2);
  struct callback_record r1 = {-1, callbacks_done}, r2 = {-1, callbacks_done};
  CHECK(hsa_amd_signal_async_handler(k1, HSA_SIGNAL_CONDITION_LT, 1, stream_callback, &r1));
  CHECK(hsa_amd_signal_async_handler(k2, HSA_SIGNAL_CONDITION_LT, 1, stream_callback, &r2));
  CHECK(hsa_amd_memory_async_copy(a_dev, d.cpu, x, d.gpu, N * sizeof *x, 1, &k1, out1));
  CHECK(hsa_amd_memory_async_copy(b_dev, d.cpu, y, d.gpu, N * sizeof *y, 1, &k2, out2));

  /* hipStreamWaitValue: poll the value through its pointer. */
  volatile hsa_signal_value_t *value;
  CHECK(hsa_amd_signal_value_pointer(out2, &value));
  hsa_signal_wait_scacquire(out1, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX, HSA_WAIT_STATE_ACTIVE);
  hsa_signal_wait_scacquire(out2, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX, HSA_WAIT_STATE_ACTIVE);
  EXPECT(*value == 0, "value pointer");
  hsa_signal_wait_scacquire(callbacks_done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                            HSA_WAIT_STATE_BLOCKED);
  EXPECT(r1.seen == 0 && r2.seen == 0, "callbacks saw %ld %ld", (long)r1.seen, (long)r2.seen);
  for (int i = 0; i < N; i++)
    EXPECT(a[i] == 3.0f * (float)i && b[i] == 10.0f * (float)i, "element %d: %f %f", i, a[i], b[i]);
  hsa_amd_profiling_async_copy_time_t t;
  CHECK(hsa_amd_profiling_get_async_copy_time(out1, &t));
  EXPECT(t.end >= t.start && t.start > 0, "copy time");

  CHECK(hsa_amd_profiling_async_copy_enable(false));
  hsa_signal_t all[] = {in1, in2, k1, k2, out1, out2, callbacks_done};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) CHECK(hsa_signal_destroy(all[i]));
  CHECK(hsa_queue_destroy(s1));
  CHECK(hsa_queue_destroy(s2));
  CHECK(hsa_amd_memory_unlock(a));
  CHECK(hsa_amd_memory_unlock(b));
  void *blocks[] = {x, y, args_x, args_y};
  for (size_t i = 0; i < 4; i++) CHECK(hsa_amd_memory_pool_free(blocks[i]));
  CHECK(hsa_executable_destroy(exec));
  CHECK(hsa_code_object_reader_destroy(reader));
  free(uri);
  free(a);
  free(b);
  free(bundle);
  CHECK(hsa_shut_down());
  printf("hip_style: bundle entry for %s, two streams of %d floats: ok\n", d.isa, N);
  return 0;
}
