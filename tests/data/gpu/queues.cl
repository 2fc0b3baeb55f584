/* Kernels of the queue tests (tests/common/gpu_queue_sched_test.c,
 * gpu_cu_mask_test.c), built by mk/gpu-agent.mk. */

/* One step of a recurrence whose result says in which order the steps
 * ran: v = 3 v + k (work-item 0 only). */
__kernel void step(__global ulong *v, ulong k) {
  if (get_global_id(0) == 0) v[0] = v[0] * 3 + k;
}

/* Every work-item records the HW_ID register of its wave
 * (s_getreg_b32 hwreg(HW_REG_HW_ID, 0, 32): register 4, offset 0, size 32;
 * AMD Vega ISA, 4.6 and HW_ID): where the hardware placed it. */
__kernel void hw_id(__global uint *out) {
  out[get_global_id(0)] = __builtin_amdgcn_s_getreg(4 | 31 << 11);
}

/* Counts its work-groups as they start, then waits until flag[0] is set:
 * a dispatch that is cut short and run again counts some twice. */
__kernel void count_and_wait(__global int *count, __global volatile int *flag) {
  if (get_local_id(0) == 0) atomic_inc(count);
  while (flag[0] == 0) {
  }
}
