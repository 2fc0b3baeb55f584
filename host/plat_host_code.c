/* plat_host_code.c - lib/plat.h's code pages and imports on Linux: mmap,
 * mprotect (POSIX), dlsym(RTLD_DEFAULT) (glibc dlfcn.h). */
#define LOG_TAG "plat"
#include <dlfcn.h>
#include <stdint.h>
#include <sys/mman.h>

#include "lib/plat.h"

void *plat_code_alloc(size_t size) {
  if (size == 0 || size % 4096) return NULL;
  void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

int plat_code_protect(void *p, size_t size, unsigned prot) {
  int native = (prot & PLAT_PROT_READ ? PROT_READ : 0) | (prot & PLAT_PROT_WRITE ? PROT_WRITE : 0) |
               (prot & PLAT_PROT_EXEC ? PROT_EXEC : 0);
  if (((uintptr_t)p | size) % 4096 || mprotect(p, size, native) != 0) {
    log_error("mprotect(%p, %zu, %u) failed", p, size, prot);
    return -1;
  }
  return 0;
}

int plat_code_protect_each(void *p, size_t count, size_t stride, size_t size, unsigned prot) {
  for (size_t i = 0; i < count; i++)
    if (plat_code_protect((uint8_t *)p + i * stride, size, prot) != 0) return -1;
  return 0;
}

void plat_code_free(void *p, size_t size) {
  if (p) munmap(p, size);
}

/* The process's symbols first; libm too, for a program that does not link
 * it (a kernel's math built-ins may call it). */
void *plat_import(const char *name) {
  void *p = dlsym(RTLD_DEFAULT, name);
  if (!p) {
    void *libm = dlopen("libm.so.6", RTLD_NOW | RTLD_NOLOAD);
    if (!libm) libm = dlopen("libm.so.6", RTLD_NOW);
    if (libm) p = dlsym(libm, name);
  }
  return p;
}
