/* The floating-point control state of a work-item on the CPU agents: item
 * 0 of each group sets round toward zero and flush-to-zero in MXCSR and
 * round toward zero in the x87 control word (Intel SDM vol. 1, 10.2.3
 * "MXCSR Control and Status Register" and 8.1.5 "x87 FPU Control Word"),
 * then the group passes two barriers (when `barriers`), and every item
 * divides and writes, at out[4 * gid]: the quotient's bits, MXCSR and the
 * x87 control word it ran with. Those are callee-saved (System V AMD64
 * ABI 3.2.1), so item 0 alone runs with its modes and the runtime gets
 * its own back. The GPU side changes nothing and writes 0 for both. */
#if defined(__x86_64__)
#define MXCSR_ROUND_TOWARD_ZERO 0x6000u /* RC = 11b, bits 13-14 */
#define MXCSR_FLUSH_TO_ZERO     0x8000u /* FZ, bit 15 */
#define X87_ROUND_TOWARD_ZERO   0x0c00u /* RC = 11b, bits 10-11 */

static uint read_mxcsr(void) {
  uint v;
  __asm__ volatile("stmxcsr %0" : "=m"(v));
  return v;
}
static ushort read_x87_cw(void) {
  ushort v;
  __asm__ volatile("fnstcw %0" : "=m"(v));
  return v;
}
#endif

/* v, through a register the optimiser cannot see into: the division stays
 * between the barriers and the reads of the control state. */
static float opaque(float v) {
#if defined(__x86_64__)
  __asm__ volatile("" : "+x"(v));
#endif
  return v;
}

/* Not inlined: tools/hsacc keeps the kernel on one fiber per work-item
 * (kernels it cuts at their barriers run item after item on one stack,
 * where later items follow item 0's modes as they do without barriers:
 * OpenCL C itself cannot change them), so that the fiber switch's saving
 * of the modes is what is tested. */
__attribute__((noinline)) void two_barriers(void) {
  barrier(CLK_LOCAL_MEM_FENCE);
  barrier(CLK_LOCAL_MEM_FENCE);
}

__kernel void fp_control(__global uint *out, float num, float den, uint change, uint barriers) {
  size_t g = get_global_id(0);
#if defined(__x86_64__)
  if (change && get_local_id(0) == 0) {
    uint mxcsr = read_mxcsr() | MXCSR_ROUND_TOWARD_ZERO | MXCSR_FLUSH_TO_ZERO;
    ushort cw = read_x87_cw() | X87_ROUND_TOWARD_ZERO;
    __asm__ volatile("ldmxcsr %0" : : "m"(mxcsr));
    __asm__ volatile("fldcw %0" : : "m"(cw));
  }
#endif
  if (barriers) two_barriers();
  float q = opaque(opaque(num) / den);
  out[4 * g] = as_uint(q);
#if defined(__x86_64__)
  out[4 * g + 1] = read_mxcsr();
  out[4 * g + 2] = read_x87_cw();
#else
  out[4 * g + 1] = 0;
  out[4 * g + 2] = 0;
#endif
}
