/* histogram: counts the bytes of `data` into 64 bins (value % 64) with
 * global atomic increments; `bins` starts zeroed. */
__kernel void histogram(__global const uchar *data, __global uint *bins, uint n) {
  size_t i = get_global_id(0);
  if (i < n) atomic_inc(&bins[data[i] % 64]);
}
