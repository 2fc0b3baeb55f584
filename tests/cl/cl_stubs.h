/* cl_stubs.h - see cl_stubs.c. */
#ifndef TESTS_CL_CL_STUBS_H
#define TESTS_CL_CL_STUBS_H
#include <stddef.h>
extern char cl_stub_written[4096];
extern size_t cl_stub_written_len;
extern int cl_stub_writes;
extern size_t cl_stub_local_id, cl_stub_local_size;
extern int cl_stub_barriers;
void __hsa_cpu_write(const char *s, unsigned long n);
#endif
