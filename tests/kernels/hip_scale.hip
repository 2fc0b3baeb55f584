// hip_scale: a HIP kernel compiled device-only into an offload bundle with
// one entry per target (mk/kernels.mk); no HIP headers needed.
extern "C" __attribute__((global)) void hip_scale(float *a, float s, int n) {
  int i = __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() +
          __builtin_amdgcn_workitem_id_x();
  if (i < n) a[i] *= s;
}
