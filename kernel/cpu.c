/* cpu.c - per-core CPU set-up (see cpu.h). */
#include "kernel/cpu.h"

bool cpu_under_hypervisor(void) {
  uint32_t r[4];
  cpuid(1, 0, r);
  return r[2] & (1u << 31); /* CPUID.01H:ECX[31], reserved for hypervisor use */
}
