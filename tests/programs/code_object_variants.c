/*
 * code_object_variants.c - every kind of code object stock clang-19 gives a
 * program for gfx902, loaded and dispatched (or refused) exactly as ROCr
 * would: OpenCL C with the device libraries as code object v4 and v5, and
 * built for :xnack- and for :xnack+; C (amdgpu_kernel) as v4, v5 and v6 for
 * the generic target gfx9-generic; HIP device-only. A code object that
 * pins XNACK loads only on an agent whose ISA has that state (ROCr
 * Isa::IsCompatible; load answers HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS
 * otherwise); one built without the feature loads on either.
 *
 * The agent's XNACK state is ROCr's: on by default on these APUs, off with
 * HSA_XNACK=0. This program runs both ways:
 * run-also: HSA_XNACK=0
 */
#include <fcntl.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <stdbool.h>
#include <unistd.h>

#include "support/program.h"

#define N  1000 /* not a multiple of the work-group size: a partial group */
#define WG 64

static hsa_status_t find_gpu(hsa_agent_t agent, void *data) {
  hsa_device_type_t type;
  CHECK(hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type));
  if (type != HSA_DEVICE_TYPE_GPU) return HSA_STATUS_SUCCESS;
  *(hsa_agent_t *)data = agent;
  return HSA_STATUS_INFO_BREAK;
}

static hsa_status_t find_kernarg_pool(hsa_amd_memory_pool_t pool, void *data) {
  if (!(program_pool_global_flags(pool) & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT))
    return HSA_STATUS_SUCCESS;
  *(hsa_amd_memory_pool_t *)data = pool;
  return HSA_STATUS_INFO_BREAK;
}

static hsa_status_t find_cpu_kernarg_pool(hsa_agent_t agent, void *data) {
  hsa_device_type_t type;
  CHECK(hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type));
  if (type != HSA_DEVICE_TYPE_CPU) return HSA_STATUS_SUCCESS;
  return hsa_amd_agent_iterate_memory_pools(agent, find_kernarg_pool, data);
}

static hsa_status_t agent_isa_name(hsa_isa_t isa, void *data) {
  uint32_t len;
  CHECK(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &len));
  EXPECT(len <= 64, "ISA name of %u bytes", len);
  CHECK(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, data));
  return HSA_STATUS_INFO_BREAK; /* the first ISA is the agent's own */
}

enum kind { OPENCL, C_KERNEL, HIP };
struct variant {
  const char *file;
  enum kind kind;
  int cov;           /* code object version: where the hidden arguments are */
  const char *xnack; /* "+" or "-" if the object pins XNACK, else NULL */
};

static const struct variant variants[] = {
    {"vector_copy.v4.co", OPENCL, 4, NULL},    {"vector_copy.v5.co", OPENCL, 5, NULL},
    {"vector_copy.xnack-.co", OPENCL, 5, "-"}, {"vector_copy.xnack+.co", OPENCL, 5, "+"},
    {"fill.v4.co", C_KERNEL, 4, NULL},         {"fill.v5.co", C_KERNEL, 5, NULL},
    {"fill.generic.co", C_KERNEL, 6, NULL},    {"scale.co", HIP, 5, NULL},
};

struct gpu {
  hsa_agent_t agent;
  hsa_queue_t *queue;
  hsa_amd_memory_pool_t kernarg_pool;
  hsa_signal_t done;
};

static void dispatch(struct gpu *g, const struct program_kernel *k, void *kernarg) {
  uint64_t index = hsa_queue_add_write_index_screlease(g->queue, 1);
  while (index - hsa_queue_load_read_index_scacquire(g->queue) >= g->queue->size)
    ;
  hsa_kernel_dispatch_packet_t *p =
      (hsa_kernel_dispatch_packet_t *)g->queue->base_address + (index & (g->queue->size - 1));
  program_fill_dispatch_1d(p, k, kernarg, N, WG, g->done);
  hsa_signal_store_relaxed(g->done, 1);
  program_publish(g->queue, index, p, PROGRAM_PACKET_HEADER(HSA_PACKET_TYPE_KERNEL_DISPATCH),
                  1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);
  while (hsa_signal_wait_scacquire(g->done, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX,
                                   HSA_WAIT_STATE_BLOCKED) != 0)
    ;
}

/* Loads and runs one variant; its result checked against the host's. */
static void run_variant(struct gpu *g, hsa_code_object_reader_t reader, const struct variant *v) {
  hsa_executable_t exec;
  CHECK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL,
                                  &exec));
  CHECK(hsa_executable_load_agent_code_object(exec, g->agent, reader, NULL, NULL));
  CHECK(hsa_executable_freeze(exec, NULL));
  uint32_t invalid = 1;
  CHECK(hsa_executable_validate(exec, &invalid));
  EXPECT(invalid == 0, "%s: executable does not validate", v->file);
  const char *kernel = v->kind == OPENCL ? "vector_copy.kd"
                       : v->kind == HIP  ? "scale.kd"
                                         : "fill.kd";
  hsa_executable_symbol_t sym;
  CHECK(hsa_executable_get_symbol_by_name(exec, kernel, &g->agent, &sym));
  struct program_kernel k = program_kernel_info(sym);
  uint32_t kernarg_align;
  CHECK(hsa_executable_symbol_get_info(
      sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT, &kernarg_align));
  EXPECT(kernarg_align >= 16, "%s: kernarg alignment %u", v->file, kernarg_align);

  uint8_t *kernarg;
  uint32_t *data;
  CHECK(hsa_amd_memory_pool_allocate(g->kernarg_pool, k.kernarg_size, 0, (void **)&kernarg));
  CHECK(hsa_amd_memory_pool_allocate(g->kernarg_pool, 2 * N * sizeof *data, 0, (void **)&data));
  CHECK(hsa_amd_agents_allow_access(1, &g->agent, NULL, data));
  memset(kernarg, 0, k.kernarg_size);
  uint32_t *in = data, *out = data + N, n = N, step = 3;
  float factor = 2.0f;
  size_t explicit_size;
  for (uint32_t i = 0; i < N; i++) in[i] = i * 7 + 5, out[i] = 0xdeadbeef;
  switch (v->kind) {
    case OPENCL:
      memcpy(kernarg, &in, 8);
      memcpy(kernarg + 8, &out, 8);
      explicit_size = 16;
      break;
    case C_KERNEL:
      memcpy(kernarg, &out, 8);
      memcpy(kernarg + 8, &step, 4);
      memcpy(kernarg + 12, &n, 4);
      explicit_size = 16;
      break;
    default: { /* scale: floats in place */
      float *x = (float *)out;
      for (uint32_t i = 0; i < N; i++) x[i] = (float)i;
      memcpy(kernarg, &x, 8);
      memcpy(kernarg + 8, &factor, 4);
      memcpy(kernarg + 12, &n, 4);
      explicit_size = 16;
    }
  }
  /* v5 and later: hidden arguments follow the explicit ones, 8-aligned,
   * when the kernel takes them (its kernarg segment says so). */
  if (v->cov >= 5 && k.kernarg_size >= explicit_size + 80)
    program_fill_hidden_v5(kernarg + ((explicit_size + 7) & ~(size_t)7), N, WG);
  dispatch(g, &k, kernarg);

  for (uint32_t i = 0; i < N; i++) {
    uint32_t want = v->kind == OPENCL ? in[i] : v->kind == C_KERNEL ? 1000 + i * step : 0;
    if (v->kind == HIP) {
      float got = ((float *)out)[i];
      EXPECT(got == 2.0f * (float)i, "%s: x[%u] = %f", v->file, i, got);
    } else {
      EXPECT(out[i] == want, "%s: out[%u] = %u, want %u", v->file, i, out[i], want);
    }
  }
  /* C kernels read a program-scope variable: it is a symbol too. */
  if (v->kind == C_KERNEL) {
    hsa_executable_symbol_t var;
    CHECK(hsa_executable_get_symbol_by_name(exec, "fill_base", &g->agent, &var));
    uint64_t address;
    uint32_t size;
    CHECK(
        hsa_executable_symbol_get_info(var, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &address));
    CHECK(hsa_executable_symbol_get_info(var, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE, &size));
    EXPECT(size == 4 && *(const uint32_t *)(uintptr_t)address == 1000, "%s: fill_base", v->file);
  }
  CHECK(hsa_amd_memory_pool_free(kernarg));
  CHECK(hsa_amd_memory_pool_free(data));
  CHECK(hsa_executable_destroy(exec));
}

int main(int argc, char **argv) {
  CHECK(hsa_init());
  struct gpu g = {0};
  CHECK(hsa_iterate_agents(find_gpu, &g.agent));
  EXPECT(g.agent.handle != 0, "no GPU agent");
  CHECK(hsa_iterate_agents(find_cpu_kernarg_pool, &g.kernarg_pool));
  EXPECT(g.kernarg_pool.handle != 0, "no kernarg pool");
  char isa[64] = {0};
  CHECK(hsa_agent_iterate_isas(g.agent, agent_isa_name, isa));
  /* ROCr names the agent's ISA with its XNACK state, and reports the
   * process's mode alike. */
  const char *state = strstr(isa, ":xnack");
  EXPECT(state && (state[6] == '+' || state[6] == '-') && state[7] == '\0', "ISA %s", isa);
  bool xnack_on = state[6] == '+', system_xnack;
  CHECK(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_XNACK_ENABLED, &system_xnack));
  EXPECT(system_xnack == xnack_on, "system XNACK %d, ISA %s", system_xnack, isa);
  const char *env = getenv("HSA_XNACK");
  if (env && (!strcmp(env, "0") || !strcmp(env, "1")))
    EXPECT(xnack_on == (env[0] == '1'), "HSA_XNACK=%s but the agent's ISA is %s", env, isa);

  CHECK(hsa_queue_create(g.agent, 128, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX,
                         &g.queue));
  CHECK(hsa_signal_create(1, 0, NULL, &g.done));
  int loaded = 0, refused = 0;
  for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
    const struct variant *v = &variants[i];
    /* Every other variant from a file descriptor, the rest from memory. */
    hsa_code_object_reader_t reader;
    void *bytes = NULL;
    if (i % 2 == 0) {
      int fd = open(program_kernel_path(argc, argv, v->file), O_RDONLY);
      EXPECT(fd >= 0, "cannot open %s", v->file);
      CHECK(hsa_code_object_reader_create_from_file(fd, &reader));
      close(fd);
    } else {
      size_t size;
      bytes = program_read_file(program_kernel_path(argc, argv, v->file), &size);
      CHECK(hsa_code_object_reader_create_from_memory(bytes, size, &reader));
    }
    bool compatible = !v->xnack || (v->xnack[0] == '+') == xnack_on;
    if (compatible) {
      run_variant(&g, reader, v);
      loaded++;
    } else {
      hsa_executable_t exec;
      CHECK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                      NULL, &exec));
      hsa_status_t st = hsa_executable_load_agent_code_object(exec, g.agent, reader, NULL, NULL);
      EXPECT(st == HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS,
             "%s on %s: load answered 0x%x, ROCr refuses it with INCOMPATIBLE_ARGUMENTS", v->file,
             isa, st);
      CHECK(hsa_executable_destroy(exec));
      refused++;
    }
    CHECK(hsa_code_object_reader_destroy(reader));
    free(bytes);
  }
  CHECK(hsa_signal_destroy(g.done));
  CHECK(hsa_queue_destroy(g.queue));
  CHECK(hsa_shut_down());
  printf("code_object_variants: %s: %d code objects ran, %d refused as ROCr does: ok\n", isa,
         loaded, refused);
  return 0;
}
