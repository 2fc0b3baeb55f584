/* saxpy in C (not OpenCL): y[i] = a * x[i] + y[i]. The global id comes from
 * the work-group id, the work-group size (a hidden argument in code object
 * v5, the dispatch packet in v4) and the work-item id. */
#include <stdint.h>

__attribute__((amdgpu_kernel)) void saxpy(float a, const float *x, float *y, uint32_t n) {
  uint32_t i = __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() +
               __builtin_amdgcn_workitem_id_x();
  if (i < n) y[i] = a * x[i] + y[i];
}
