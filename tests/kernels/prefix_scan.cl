/* prefix_scan: inclusive prefix sum of each work-group's slice of `in`
 * (Hillis-Steele in LDS, double-buffered), plus the slice total in `sums`.
 * Work-group size a power of two up to 256. */
__kernel void prefix_scan(__global const uint *in, __global uint *out, __global uint *sums) {
  __local uint buf[2][256];
  uint lid = get_local_id(0), size = get_local_size(0);
  size_t gid = get_global_id(0);
  uint src = 0;
  buf[0][lid] = in[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint offset = 1; offset < size; offset *= 2) {
    uint v = buf[src][lid];
    if (lid >= offset) v += buf[src][lid - offset];
    buf[1 - src][lid] = v;
    src = 1 - src;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[gid] = buf[src][lid];
  if (lid == size - 1) sums[get_group_id(0)] = buf[src][lid];
}
