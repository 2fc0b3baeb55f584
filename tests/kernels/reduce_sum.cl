/* reduce_sum: each work-group sums its part of `in` in LDS (tree reduction
 * with barriers) and writes one partial sum per work-group. Integers, so the
 * result is exact whatever the order. The work-group size is a power of two
 * up to 256. */
__kernel void reduce_sum(__global const int *in, __global int *partial, uint n) {
  __local int scratch[256];
  uint lid = get_local_id(0);
  size_t gid = get_global_id(0);
  scratch[lid] = gid < n ? in[gid] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
    if (lid < stride) scratch[lid] += scratch[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial[get_group_id(0)] = scratch[0];
}
