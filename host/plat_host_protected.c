/* plat_host_protected.c - lib/plat.h's memory no device can reach and its
 * interrupt masking, on the host: the process has no devices that DMA into
 * it (the virtual APU is code of the process) and its "interrupts" run on
 * threads, so plain zeroed memory and no masking keep the same promises. */
#include <stdlib.h>
#include <string.h>

#include "lib/plat.h"
#include "lib/util.h"

#define ALIGN 64u

void *plat_protected_alloc(size_t size) {
  size_t rounded = ALIGN_UP(size, (size_t)ALIGN);
  if (size == 0 || rounded < size) return NULL;
  void *p = aligned_alloc(ALIGN, rounded);
  if (p) memset(p, 0, rounded);
  return p;
}

void plat_protected_free(void *p) { free(p); }

uint64_t plat_irq_save(void) { return 0; }
void plat_irq_restore(uint64_t flags) { (void)flags; }
