/* uniform_slots: barrier loops whose values the CPU agents keep once per
 * work-group when every work-item has the same one, next to values that
 * only look so. Per round, an inclusive scan of each work-group's values
 * (Hillis-Steele, one barrier pair per step) in a loop nested in the round
 * loop, both counters the same for the whole group, the inner one bounded
 * by get_local_size (less in the partial work-group at the grid's edge);
 * `acc`, from the kernarg and the group id, read and rewritten in the same
 * part between two barriers (each work-item must read the value of that
 * part's start, not the one another wrote); `odd`, given a value that is
 * the same for all but only by the odd work-items, so it differs. */
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
  if (gid < n) out[gid] = v + odd + acc;
}
