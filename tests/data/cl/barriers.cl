/* Work-group barriers where OpenCL C 2.0 allows them (6.13.8), for the CPU
 * agents' fibers; each test computes the expected values in C. */

/* Straight-line: each work-group's values reversed through __local memory. */
__kernel void barrier_straight(__global const uint *in, __global uint *out) {
  __local uint tmp[1024];
  uint lid = get_local_id(0), n = get_local_size(0);
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[n - 1 - lid];
}

/* In a loop: `rounds` times, take the right neighbour's value plus one. */
__kernel void barrier_loop(__global const uint *in, __global uint *out, uint rounds) {
  __local uint a[1024];
  uint lid = get_local_id(0), n = get_local_size(0);
  uint v = in[get_global_id(0)];
  for (uint r = 0; r < rounds; r++) {
    a[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = a[(lid + 1) % n] + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = v;
}

/* In branches uniform across the work-group (a kernel argument, the group
 * id), with work_group_barrier and its scopes. mode 1: reverse through
 * __local; mode 2: through global memory (`tmp`) with a device-scope
 * fence; other modes: no barrier there. Even groups then add item 0's
 * value after one more barrier. */
__kernel void barrier_branch(__global const uint *in, __global uint *out, __global uint *tmp,
                             uint mode) {
  __local uint a[1024];
  uint lid = get_local_id(0), n = get_local_size(0);
  size_t g = get_global_id(0), base = get_group_id(0) * get_enqueued_local_size(0);
  uint v = in[g];
  if (mode == 1) {
    a[lid] = v;
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    v = a[n - 1 - lid];
  } else if (mode == 2) {
    tmp[g] = v * 3;
    work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_device);
    v = tmp[base + n - 1 - lid];
  } else {
    v += 7;
  }
  if (get_group_id(0) % 2 == 0) {
    work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);
    if (lid == 0) a[0] = v;
    work_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE, memory_scope_work_group);
    v += a[0];
  }
  out[g] = v;
}

/* Only work-item 0 reaches the barrier: not allowed (all or none), and
 * the CPU agent reports it instead of hanging. */
__kernel void barrier_divergent(__global uint *out) {
  if (get_local_id(0) == 0) barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = 1;
}

/* The same in work-group `bad` only: every other group passes its barrier
 * and writes out[gid] = 1. */
__kernel void barrier_divergent_in_one_group(__global uint *out, uint bad) {
  if (get_group_id(0) != bad || get_local_id(0) == 0) barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = 1;
}

/* A kernel-scope __local variable and a __local argument filled with the
 * work-group's own pattern and read back after every barrier, `rounds`
 * times: groups that shared them while running at once on several cores
 * would see each other's values. bad[gid]: mismatches seen. */
__kernel void local_private(__global uint *bad, __global uint *sums, __local uint *arg,
                            uint rounds) {
  __local uint var[256];
  uint lid = get_local_id(0), n = get_local_size(0), grp = get_group_id(0);
  uint wrong = 0;
  for (uint r = 0; r < rounds; r++) {
    var[lid] = grp * 1000003u + r * 256u + lid;
    arg[lid] = ~(grp * 7919u + r * 256u + lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint other = (lid + r) % n;
    wrong += var[other] != grp * 1000003u + r * 256u + other;
    wrong += arg[other] != ~(grp * 7919u + r * 256u + other);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  bad[get_global_id(0)] = wrong;
  if (lid == 0) sums[grp] = var[n - 1] + arg[0];
}

/* Two barriers in a loop and a private array indexed at run time, live
 * across both: each round, one element goes through __local memory to the
 * left neighbour, which adds it to another element. */
__kernel void barrier_private_array(__global const uint *in, __global uint *out, uint rounds) {
  __local uint a[1024];
  uint lid = get_local_id(0), n = get_local_size(0);
  uint p[8];
  for (uint i = 0; i < 8; i++) p[i] = in[get_global_id(0)] + i;
  for (uint r = 0; r < rounds; r++) {
    a[lid] = p[r % 8];
    barrier(CLK_LOCAL_MEM_FENCE);
    p[(r + 1) % 8] += a[(lid + 1) % n];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  uint s = 0;
  for (uint i = 0; i < 8; i++) s += p[i] * (i + 1);
  out[get_global_id(0)] = s;
}

/* 3-D work-groups: each work-item's global ids through __local memory to
 * the work-item at the mirrored local linear id. */
/* A tree reduction along x in each row of a 3-D group, partial groups
 * included: each step's work is `x < s` (the CPU agents run the work-items
 * below that bound in x alone, in every row) and `x + s < nx`. Every
 * work-item writes its row's sum of x + 1, nx (nx + 1) / 2. */
__kernel void barrier_rows_3d(__global uint *out) {
  __local uint a[1024];
  uint x = get_local_id(0), nx = get_local_size(0);
  uint row = (get_local_id(2) * get_local_size(1) + get_local_id(1)) * nx;
  a[row + x] = x + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 512; s > 0; s /= 2) {
    if (x < s && x + s < nx) a[row + x] += a[row + x + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_linear_id()] = a[row];
}

__kernel void barrier_3d(__global uint *out) {
  __local uint a[1024];
  uint lin = get_local_linear_id();
  uint n = get_local_size(0) * get_local_size(1) * get_local_size(2);
  a[lin] = get_global_id(0) + 1000 * get_global_id(1) + 1000000 * get_global_id(2);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_linear_id()] = a[n - 1 - lin];
}

/* A barrier in a function that cannot be inlined: tools/hsacc leaves the
 * kernel on one fiber per work-item (with a note), as barrier_straight. */
__attribute__((noinline)) void swap_through_local(__local uint *tmp, uint lid, uint n,
                                                  __global uint *out, uint v) {
  tmp[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[n - 1 - lid];
}

__kernel void barrier_in_noinline_function(__global const uint *in, __global uint *out) {
  __local uint tmp[1024];
  swap_through_local(tmp, get_local_id(0), get_local_size(0), out, in[get_global_id(0)]);
}

/* An async copy into __local memory and wait_group_events, whose barrier
 * is in the built-in library: each work-group's values reversed. */
__kernel void barrier_async_copy(__global const uint *in, __global uint *out) {
  __local uint tmp[1024];
  size_t n = get_local_size(0), base = get_group_id(0) * get_enqueued_local_size(0);
  event_t e = async_work_group_copy(tmp, in + base, n, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tmp[n - 1 - get_local_id(0)];
}
