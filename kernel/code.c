/* code.c - lib/plat.h's pages for code loaded at run time, and the C
 * library functions such code may import, for the image.
 *
 * Pages come from the frame allocator (whole, zeroed) and get their
 * permissions from vm_set_code_attrs (W^X: executable pages are read-only);
 * freeing gives them back as ordinary RAM. Imports are looked up in a table
 * generated at build time from the undefined symbols of the CPU agents'
 * OpenCL C library (llvm-nm -u; mk/kernels.mk), so that what the library
 * calls is linked into the image. */
#include <string.h>

#include "kernel/frames.h"
#include "kernel/vm.h"
#include "lib/plat.h"
#include "lib/util.h"

#define LOG_TAG "code"

void *plat_code_alloc(size_t size) {
  if (size == 0 || size % FRAME_SIZE) return NULL;
  uint64_t base = frames_alloc(size, FRAME_SIZE);
  if (!base) return NULL;
  memset((void *)(uintptr_t)base, 0, size);
  return (void *)(uintptr_t)base;
}

int plat_code_protect(void *p, size_t size, unsigned prot) {
  return plat_code_protect_each(p, 1, size, size, prot);
}

int plat_code_protect_each(void *p, size_t count, size_t stride, size_t size, unsigned prot) {
  unsigned attrs = 0;
  if (prot)
    attrs = PT_PRESENT | PT_CACHE_WB | (prot & PLAT_PROT_WRITE ? PT_WRITE : 0) |
            (prot & PLAT_PROT_EXEC ? PT_EXEC : 0);
  return vm_set_code_attrs_each((uint64_t)(uintptr_t)p, count, stride, size, attrs);
}

void plat_code_free(void *p, size_t size) {
  if (!p) return;
  if (vm_set_code_attrs((uint64_t)(uintptr_t)p, size, VM_RAM) != 0) {
    log_error("code pages at %p stay out of use: their attributes cannot be restored", p);
    return;
  }
  frames_free((uint64_t)(uintptr_t)p, size);
}

struct export {
  const char *name;
  void *address;
};

/* kernel_exports.inc: EXPORT(name) for every import the library makes. The
 * asm label names the C library symbol without declaring its C type. */
#define EXPORT(name) extern char export_##name __asm__(#name);
#include "kernel_exports.inc"
#undef EXPORT
#define EXPORT(name) {#name, &export_##name},
static const struct export exports[] = {
#include "kernel_exports.inc"
};
#undef EXPORT

void *plat_import(const char *name) {
  for (size_t i = 0; i < countof(exports); i++)
    if (strcmp(exports[i].name, name) == 0) return exports[i].address;
  return NULL;
}
