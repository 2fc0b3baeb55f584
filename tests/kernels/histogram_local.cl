/* histogram_local: the bytes of `data` counted into 64 bins (value % 64)
 * in a copy of the bins private to the work-group (__local, local atomic
 * increments), added to the global `bins` after a barrier (global atomic
 * adds); `bins` starts zeroed. The last work-group is partial. */
__kernel void histogram_local(__global const uchar *data, __global uint *bins, uint n) {
  __local uint local_bins[64];
  uint lid = get_local_id(0), size = get_local_size(0);
  for (uint b = lid; b < 64; b += size) local_bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t i = get_global_id(0);
  if (i < n) atomic_inc(&local_bins[data[i] % 64]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = lid; b < 64; b += size)
    if (local_bins[b]) atomic_add(&bins[b], local_bins[b]);
}
