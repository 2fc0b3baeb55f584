/* Kernels at the CPU agents' limits. */

/* 48 KiB of private memory per work-item (the agent has 32 KiB). */
__kernel void private_too_big(__global const uint *idx, __global uint *out) {
  uint big[12288];
  for (uint i = 0; i < 12288; i++) big[i] = i * idx[0];
  out[get_global_id(0)] = big[idx[1 + get_global_id(0)] % 12288];
}

/* 32 KiB of kernel-scope __local memory plus a __local argument: fits
 * with a small dynamic part, not with 40 KiB more. */
__kernel void local_big(__global uint *out, __local uint *dyn) {
  __local uint big[8192];
  uint lid = get_local_id(0);
  big[lid * 32] = lid;
  dyn[lid] = 2 * lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint n = get_local_size(0);
  out[get_global_id(0)] = big[(n - 1 - lid) * 32] + dyn[n - 1 - lid];
}

/* 20 KiB of private memory per work-item, live across a barrier: the
 * agent's 32 KiB hold it, not twice (private and the context that keeps
 * it from one barrier to the next). */
__kernel void private_across_barrier_too_big(__global const uint *idx, __global uint *out) {
  uint big[5000];
  for (uint i = 0; i < 5000; i++) big[i] = i * idx[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = big[idx[1 + get_global_id(0)] % 5000];
}
