/* int_divmod in C: signed and unsigned 32- and 64-bit division and modulo
 * (gfx9 has no divide instruction: clang expands them). One work-item per
 * element; out has 8 entries per element. */
#include <stdint.h>

__attribute__((amdgpu_kernel)) void int_divmod(const int32_t *a, const int32_t *b,
                                               const int64_t *c, const int64_t *d, int64_t *out,
                                               uint32_t n) {
  uint32_t i = __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() +
               __builtin_amdgcn_workitem_id_x();
  if (i >= n) return;
  int64_t *o = out + 8 * (uint64_t)i;
  o[0] = a[i] / b[i];
  o[1] = a[i] % b[i];
  o[2] = (uint32_t)a[i] / (uint32_t)b[i];
  o[3] = (uint32_t)a[i] % (uint32_t)b[i];
  o[4] = c[i] / d[i];
  o[5] = c[i] % d[i];
  o[6] = (int64_t)((uint64_t)c[i] / (uint64_t)d[i]);
  o[7] = (int64_t)((uint64_t)c[i] % (uint64_t)d[i]);
}
