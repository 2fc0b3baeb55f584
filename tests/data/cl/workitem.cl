/* workitem_ids: every work-item writes what the work-item functions say
 * (OpenCL C 2.0, 6.13.1) into a record of 32 uints at its global linear id:
 *   0-2 global id, 3-5 local id, 6-8 group id, 9-11 local size,
 *   12-14 enqueued local size, 15-17 number of groups, 18-20 global size,
 *   21-23 global offset, 24 work dim, 25 global linear id, 26 local linear id
 * (dimensions 0..2; the functions answer for unused ones too). */
__kernel void workitem_ids(__global uint *out) {
  __global uint *r = out + get_global_linear_id() * 32;
  for (uint d = 0; d < 3; d++) {
    r[0 + d] = get_global_id(d);
    r[3 + d] = get_local_id(d);
    r[6 + d] = get_group_id(d);
    r[9 + d] = get_local_size(d);
    r[12 + d] = get_enqueued_local_size(d);
    r[15 + d] = get_num_groups(d);
    r[18 + d] = get_global_size(d);
    r[21 + d] = get_global_offset(d);
  }
  r[24] = get_work_dim();
  r[25] = get_global_linear_id();
  r[26] = get_local_linear_id();
}
