/* uniform_slots: barrier loops whose values the CPU agents keep once per
 * work-group when every work-item has the same one, next to values that
 * only look so. Per round, an inclusive scan of each work-group's values
 * (Hillis-Steele, one barrier pair per step) in a loop nested in the round
 * loop, both counters the same for the whole group, the inner one bounded
 * by get_local_size (less in the partial work-group at the grid's edge);
 * `acc`, from the kernarg and the group id, read and rewritten in the same
 * part between two barriers (each work-item must read the value of that
 * part's start, not the one another wrote); `odd`, given a value that is
 * the same for all but only by the odd work-items, so it differs. Then the
 * group's total by a tree reduction in `t` (the CPU agents run each step
 * for the work-items below its bound alone), and a store under
 * `lid < rounds` after which every work-item still writes its result. */
__kernel void uniform_slots(__global const uint *in, __global uint *out, uint rounds, uint n) {
  __local uint t[64];
  uint lid = get_local_id(0), size = get_local_size(0);
  size_t gid = get_global_id(0);
  uint v = gid < n ? in[gid] : 0;
  uint acc = rounds * 7u + (uint)get_group_id(0);
  uint odd = 0;
  for (uint r = 0; r < rounds; r++) {
    for (uint s = 1; s < size; s *= 2) {
      t[lid] = v;
      barrier(CLK_LOCAL_MEM_FENCE);
      if (lid >= s) v += t[lid - s];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid & 1) odd = acc + r;
    acc = acc * 3u + (uint)get_group_id(0) + r;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  t[lid] = gid < n ? v : 0; /* the same sums where a grid is rounded up to whole groups */
  if (lid + size < 64) t[lid + size] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 32; s > 0; s /= 2) {
    if (lid < s) t[lid] += t[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  uint total = t[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < rounds) t[lid] = lid;
  if (gid < n) out[gid] = v + odd + acc + total;
}
