/*
 * machine/_threads.h - the types of C11 <threads.h> (ISO/IEC 9899:2011,
 * 7.26) for newlib's <threads.h>, which expects a machine header that
 * newlib does not install for x86_64-elf: the image's POSIX types, as
 * kernel/c11_threads.c implements the C11 functions on <pthread.h>.
 */
#ifndef _MACHINE__THREADS_H
#define _MACHINE__THREADS_H

#include <sys/_pthreadtypes.h>
#include <sys/cdefs.h>

typedef pthread_cond_t cnd_t;
typedef pthread_t thrd_t;
typedef pthread_key_t tss_t;
typedef pthread_mutex_t mtx_t;
typedef pthread_once_t once_flag;

#define ONCE_FLAG_INIT      0
#define TSS_DTOR_ITERATIONS 4 /* pthread.h PTHREAD_DESTRUCTOR_ITERATIONS */

#endif
