/* cl_stubs.c - what the CPU agents' runtime and work-item code give the
 * built-in library, for its tests: __hsa_cpu_write records each call
 * (printf's output), and a work-group of cl_stub_local_size work-items in
 * one dimension whose current one is cl_stub_local_id (the async copy
 * test runs the work-items one after the other; barrier counts calls). */
#include <stddef.h>
#include <string.h>

#include "tests/cl/cl_stubs.h"

char cl_stub_written[4096];
size_t cl_stub_written_len;
int cl_stub_writes;
size_t cl_stub_local_id, cl_stub_local_size = 1;
int cl_stub_barriers;

void __hsa_cpu_write(const char *s, unsigned long n) {
  size_t room = sizeof cl_stub_written - 1 - cl_stub_written_len;
  if (n > room) n = room;
  memcpy(cl_stub_written + cl_stub_written_len, s, n);
  cl_stub_written_len += n;
  cl_stub_written[cl_stub_written_len] = 0;
  cl_stub_writes++;
}

/* get_local_linear_id(), get_local_size(uint), barrier(cl_mem_fence_flags)
 * by their mangled names (Itanium C++ ABI, as clang names OpenCL C
 * overloads). */
size_t cl_stub_get_local_linear_id(void) __asm__("_Z19get_local_linear_idv");
size_t cl_stub_get_local_linear_id(void) { return cl_stub_local_id; }
size_t cl_stub_get_local_size(unsigned dim) __asm__("_Z14get_local_sizej");
size_t cl_stub_get_local_size(unsigned dim) { return dim == 0 ? cl_stub_local_size : 1; }
void cl_stub_barrier(unsigned flags) __asm__("_Z7barrierj");
void cl_stub_barrier(unsigned flags) { cl_stub_barriers++; }

/* newlib's libm reports errors through errno at __errno() (newlib
 * libc/include/sys/errno.h); the newlib-libm test program links it. */
int *__errno(void);
int *__errno(void) {
  static int error;
  return &error;
}
