/* Kernels that stop their queue (tests/common/gpu_fault_test.c), built by
 * mk/gpu-agent.mk. Each does some work first, so the error comes from a
 * running dispatch, not from the packet. */

/* Work-item 70 (second wave of the first work-group) runs llvm.trap:
 * s_trap 2, the queue's error is HSA_STATUS_ERROR_EXCEPTION. */
__kernel void trap_kernel(__global int *out) {
  out[get_global_id(0)] = 1;
  if (get_global_id(0) == 70) __builtin_trap();
}

/* Stores through `out`: pointed at memory nobody mapped, a page fault. */
__kernel void store_kernel(__global int *out) {
  out[get_global_id(0)] = (int)get_global_id(0);
}

/* Stores through a generic pointer made from an integer, which clang
 * turns into FLAT stores (it cannot tell the address space): an address in
 * the hole between the canonical halves is a memory violation
 * (HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION), not a page fault. */
__kernel void flat_store_kernel(ulong address) {
  ((int *)address)[get_global_id(0)] = 1;
}

/* A word no gfx9 instruction starts with (VOP3 opcode 0x1ff, which
 * llvm-objdump prints as .long): an illegal instruction after a store. */
__kernel void illegal_kernel(__global int *out) {
  out[get_global_id(0)] = 1;
  __asm__ volatile(".long 0xd3ff0000\n.long 0x00000000");
}

/* Spins until flag[0] is set, which nobody does: a runaway dispatch. */
__kernel void spin_kernel(__global volatile int *flag) {
  while (flag[0] == 0) {
  }
}
