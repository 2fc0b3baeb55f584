/* gpu_kernel.c - see gpu_kernel.h. */
#include "support/gpu_kernel.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static hsa_status_t first_gpu(hsa_agent_t agent, void *data) {
  hsa_device_type_t type;
  if (hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type) != HSA_STATUS_SUCCESS) return HSA_STATUS_ERROR;
  if (type != HSA_DEVICE_TYPE_GPU) return HSA_STATUS_SUCCESS;
  *(hsa_agent_t *)data = agent;
  return HSA_STATUS_INFO_BREAK;
}

bool gpu_find_agent(hsa_agent_t *out) {
  out->handle = 0;
  hsa_status_t st = hsa_iterate_agents(first_gpu, out);
  return (st == HSA_STATUS_SUCCESS || st == HSA_STATUS_INFO_BREAK) && out->handle;
}

static hsa_status_t kernarg_pool(hsa_amd_memory_pool_t pool, void *data) {
  uint32_t flags = 0;
  if (hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags) != HSA_STATUS_SUCCESS)
    return HSA_STATUS_ERROR;
  if (!(flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT)) return HSA_STATUS_SUCCESS;
  *(hsa_amd_memory_pool_t *)data = pool;
  return HSA_STATUS_INFO_BREAK;
}

bool gpu_find_kernarg_pool(hsa_agent_t agent, hsa_amd_memory_pool_t *out) {
  out->handle = 0;
  hsa_status_t st = hsa_amd_agent_iterate_memory_pools(agent, kernarg_pool, out);
  return (st == HSA_STATUS_SUCCESS || st == HSA_STATUS_INFO_BREAK) && out->handle;
}

/* Records the first failing step; true if `st` is a success. */
static bool step(hsa_status_t st, const char *what, const char *path, hsa_status_t *first, char *why,
                 size_t why_size) {
  if (st == HSA_STATUS_SUCCESS) return true;
  if (*first == HSA_STATUS_SUCCESS) {
    *first = st;
    snprintf(why, why_size, "%s: %s: status 0x%x", path, what, st);
  }
  return false;
}

hsa_status_t gpu_kernel_load(hsa_agent_t agent, const char *path, const char *symbol,
                             const char *variable, void *address, struct gpu_kernel *k,
                             char *why, size_t why_size) {
  memset(k, 0, sizeof *k);
  hsa_status_t st = HSA_STATUS_SUCCESS;
  int fd = open(path, O_RDONLY);
  if (fd < 0) {
    snprintf(why, why_size, "cannot open %s (make test builds it)", path);
    return HSA_STATUS_ERROR_INVALID_FILE;
  }
  bool ok = step(hsa_code_object_reader_create_from_file(fd, &k->reader), "reader", path, &st, why, why_size);
  close(fd);
  if (!ok) return st;
  hsa_executable_symbol_t sym;
  uint32_t u32 = 0;
  ok = step(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL,
                                      &k->executable),
            "executable", path, &st, why, why_size) &&
       (!variable || step(hsa_executable_agent_global_variable_define(k->executable, agent, variable, address),
                          "variable", path, &st, why, why_size)) &&
       step(hsa_executable_load_agent_code_object(k->executable, agent, k->reader, NULL, NULL), "load", path,
            &st, why, why_size) &&
       step(hsa_executable_freeze(k->executable, NULL), "freeze", path, &st, why, why_size) &&
       step(hsa_executable_get_symbol_by_name(k->executable, symbol, &agent, &sym), symbol, path, &st, why,
            why_size) &&
       step(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &k->object),
            "kernel object", path, &st, why, why_size) &&
       step(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE,
                                           &k->kernarg_size),
            "kernarg size", path, &st, why, why_size) &&
       step(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE,
                                           &k->group_size),
            "group size", path, &st, why, why_size) &&
       step(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &u32),
            "private size", path, &st, why, why_size) &&
       step(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK,
                                           &k->dynamic_stack),
            "dynamic call stack", path, &st, why, why_size);
  k->private_size = u32;
  if (!ok) gpu_kernel_release(k);
  return st;
}

void gpu_kernel_release(struct gpu_kernel *k) {
  if (k->executable.handle) hsa_executable_destroy(k->executable);
  if (k->reader.handle) hsa_code_object_reader_destroy(k->reader);
  memset(k, 0, sizeof *k);
}

void gpu_kernel_packet(const struct gpu_kernel *k, uint32_t dims, const uint32_t grid[3],
                       const uint32_t wg[3], uint32_t extra_private, void *kernarg,
                       hsa_signal_t completion, hsa_kernel_dispatch_packet_t *p) {
  memset(p, 0, sizeof *p);
  p->setup = (uint16_t)(dims << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);
  p->workgroup_size_x = (uint16_t)wg[0];
  p->workgroup_size_y = (uint16_t)wg[1];
  p->workgroup_size_z = (uint16_t)wg[2];
  p->grid_size_x = grid[0];
  p->grid_size_y = grid[1];
  p->grid_size_z = grid[2];
  p->group_segment_size = k->group_size;
  p->private_segment_size = k->private_size + extra_private;
  p->kernel_object = k->object;
  p->kernarg_address = kernarg;
  p->completion_signal = completion;
}
