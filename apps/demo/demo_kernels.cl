/* The demo's kernels, for every agent (OpenCL C, built by tools/hsacc into
 * one file with the GPU code objects and the CPU agents' code;
 * mk/gpu-agent.mk).
 *
 * saxpy:     y[i] = a * x[i] + y[i]
 * block_sum: each work-group adds up its slice of `in` in LDS with barriers
 *            (a tree reduction) and writes one sum per work-group; integers,
 *            so the result is exact whatever the order. Work-groups of 256. */
__kernel void saxpy(float a, __global const float *x, __global float *y, uint n) {
  size_t i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}

__kernel void block_sum(__global const int *in, __global int *sums, uint n) {
  __local int part[256];
  uint lid = get_local_id(0);
  size_t gid = get_global_id(0);
  part[lid] = gid < n ? in[gid] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint step = get_local_size(0) / 2; step > 0; step /= 2) {
    if (lid < step) part[lid] += part[lid + step];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) sums[get_group_id(0)] = part[0];
}
