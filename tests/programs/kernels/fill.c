/* fill: a C kernel (__attribute__((amdgpu_kernel)), no device library)
 * with a program-scope variable the host finds by name; built as code
 * object v4, v5 and v6 for the generic target gfx9-generic (mk/kernels.mk,
 * "programs"). out[i] = fill_base + i * step. The work-group size comes
 * from the dispatch (the v5 hidden arguments, or the dispatch packet in v4). */
__attribute__((visibility("protected"))) unsigned fill_base = 1000;

__attribute__((amdgpu_kernel)) void fill(unsigned *out, unsigned step, unsigned n) {
  unsigned i = __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() +
               __builtin_amdgcn_workitem_id_x();
  if (i < n) out[i] = fill_base + i * step;
}
