/* cpu_kernel.c - looking up CPU kernels and agent functions (cpu_kernel.h).
 * The linker defines __start_/__stop_ for a section named like a C
 * identifier; weak, so a program without any is fine. */
#include "hsa/cpu_kernel.h"

#include <string.h>

extern const hsa_cpu_kernel_descriptor_t __start_hsa_cpu_kernels[] __attribute__((weak));
extern const hsa_cpu_kernel_descriptor_t __stop_hsa_cpu_kernels[] __attribute__((weak));
extern const hsa_cpu_agent_function_t __start_hsa_cpu_agent_functions[] __attribute__((weak));
extern const hsa_cpu_agent_function_t __stop_hsa_cpu_agent_functions[] __attribute__((weak));

size_t cpu_kernel_count(void) {
  return __start_hsa_cpu_kernels ? (size_t)(__stop_hsa_cpu_kernels - __start_hsa_cpu_kernels) : 0;
}

const hsa_cpu_kernel_descriptor_t *cpu_kernel_at(size_t index) {
  return index < cpu_kernel_count() ? &__start_hsa_cpu_kernels[index] : NULL;
}

const hsa_cpu_kernel_descriptor_t *cpu_kernel_find(const char *name) {
  size_t len = strlen(name);
  if (len > 3 && strcmp(name + len - 3, ".kd") == 0) len -= 3;
  for (size_t i = 0; i < cpu_kernel_count(); i++) {
    const char *k = __start_hsa_cpu_kernels[i].name;
    if (strlen(k) == len && strncmp(k, name, len) == 0) return &__start_hsa_cpu_kernels[i];
  }
  return NULL;
}

const hsa_cpu_kernel_descriptor_t *cpu_kernel_from_object(uint64_t kernel_object) {
  size_t n = cpu_kernel_count();
  if (n == 0) return NULL;
  uintptr_t base = (uintptr_t)__start_hsa_cpu_kernels;
  uintptr_t end = (uintptr_t)__stop_hsa_cpu_kernels;
  if (kernel_object < base || kernel_object >= end ||
      (kernel_object - base) % sizeof(hsa_cpu_kernel_descriptor_t) != 0)
    return NULL;
  const hsa_cpu_kernel_descriptor_t *k =
      (const hsa_cpu_kernel_descriptor_t *)(uintptr_t)kernel_object;
  return k->magic == HSA_CPU_KERNEL_MAGIC ? k : NULL;
}

const hsa_cpu_agent_function_t *cpu_agent_function_find(uint16_t type) {
  for (size_t i = 0; i < CPU_RUNTIME_AGENT_FUNCTIONS; i++)
    if (cpu_runtime_agent_functions[i].type == type) return &cpu_runtime_agent_functions[i];
  if (!__start_hsa_cpu_agent_functions) return NULL;
  for (const hsa_cpu_agent_function_t *f = __start_hsa_cpu_agent_functions;
       f < __stop_hsa_cpu_agent_functions; f++)
    if (f->type == type) return f;
  return NULL;
}
