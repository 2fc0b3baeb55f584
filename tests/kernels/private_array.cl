/* private_array: a per-work-item array indexed by data, which clang must
 * keep in scratch (private segment) memory. */
__kernel void private_array(__global const uint *seed, __global uint *out) {
  size_t gid = get_global_id(0);
  uint table[48];
  uint s = seed[gid];
  for (uint k = 0; k < 48; k++) table[k] = s * (k + 1) + k;
  uint acc = 0;
  for (uint k = 0; k < 48; k++) acc += table[(s + k * 7) % 48] ^ k;
  out[gid] = acc;
}
