/* scale: a HIP kernel built device-only by stock clang (no HIP headers:
 * -nogpuinc; the builtins are clang's), as an ELF code object and as a
 * clang offload bundle for several targets (mk/kernels.mk, "programs").
 * The block size is fixed at compile time, as tinygrad's generated kernels
 * do, so the kernel takes no hidden arguments. */
#define __global__ __attribute__((global))
#define BLOCK 64

extern "C" __global__ void __attribute__((amdgpu_flat_work_group_size(BLOCK, BLOCK)))
scale(float *x, float factor, unsigned n) {
  unsigned i = __builtin_amdgcn_workgroup_id_x() * BLOCK + __builtin_amdgcn_workitem_id_x();
  if (i < n) x[i] *= factor;
}
