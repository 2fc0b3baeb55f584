/* bitonic_sort: one work-group sorts `keys` (its size a power of two, at
 * most 256, one key per work-item) ascending in LDS with a bitonic network. */
__kernel void bitonic_sort(__global int *keys) {
  __local int k[256];
  uint i = get_local_id(0), n = get_local_size(0);
  k[i] = keys[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint size = 2; size <= n; size *= 2) {
    for (uint stride = size / 2; stride > 0; stride /= 2) {
      uint partner = i ^ stride;
      if (partner > i) {
        bool ascending = (i & size) == 0;
        int a = k[i], b = k[partner];
        if ((a > b) == ascending) {
          k[i] = b;
          k[partner] = a;
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  keys[i] = k[i];
}
