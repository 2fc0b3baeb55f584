/* call_stack in C: calls functions that are not inlined, one of them
 * recursive twice per call (no loop can replace it), so the kernel needs a
 * call stack in the private segment whose depth depends on the data
 * (metadata .uses_dynamic_stack, descriptor USES_DYNAMIC_STACK).
 * (The same source in OpenCL C, linked with the ROCm device libraries, gets
 * .uses_dynamic_stack false from clang-19: C keeps the property testable.) */
#include <stdint.h>

__attribute__((noinline)) static uint32_t mix(uint32_t x, uint32_t y) {
  return (x * 31u) ^ (y + 7u);
}

__attribute__((noinline)) static uint32_t fib(uint32_t n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((amdgpu_kernel)) void call_stack(const uint32_t *a, const uint32_t *b,
                                               uint32_t *out) {
  uint32_t i = __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() +
               __builtin_amdgcn_workitem_id_x();
  out[2 * i] = mix(a[i], b[i]);
  out[2 * i + 1] = fib(a[i] % 12);
}
