/* Program-scope __global variables on the CPU agents: one copy for every
 * core (each core runs its own copy of the code). record_groups writes one
 * slot per work-group, wherever it runs; copy_slots reads them all back. */
__global uint slots[256];
__global uint generation = 7;

__kernel void record_groups(void) {
  if (get_local_id(0) == 0) slots[get_group_id(0)] = get_group_id(0) * 3u + generation;
}

__kernel void copy_slots(__global uint *out) { out[get_global_id(0)] = slots[get_global_id(0)]; }
