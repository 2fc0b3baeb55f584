/*
 * libc_glue.c - the system calls newlib expects of its platform (newlib was
 * configured with --disable-newlib-supplied-syscalls; the list is the set
 * of symbols libc.a leaves undefined). Console I/O, time and process
 * calls are here; sbrk in heap.c; open/close/lseek/fstat/stat in files.c.
 * Whatever an appliance cannot do (fork, exec, links, directories) fails
 * with errno set.
 */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#include "kernel/console.h"
#include "boot/boot_info.h"
#include "kernel/exit.h"
#include "kernel/files.h"
#include "kernel/frames.h"
#include "kernel/kernel.h"
#include "kernel/serial.h"
#include "kernel/smp.h"
#include "kernel/thread.h"
#include "kernel/time.h"
#include "lib/plat.h"

#define LOG_TAG     "libc"
#define CONSOLE_FDS 3

static int64_t unix_time_at_boot(void) { return kernel_boot_info()->unix_time; }

int write(int fd, const void *buf, size_t n);
int write(int fd, const void *buf, size_t n) {
  if (fd == STDOUT_FILENO || fd == STDERR_FILENO) {
    console_write(buf, n);
    return (int)n;
  }
  errno = EBADF; /* stdin and the boot files are read-only */
  return -1;
}

/* stdin: the bytes that have arrived on COM1, without waiting (0 = none). */
int read(int fd, void *buf, size_t n);
int read(int fd, void *buf, size_t n) {
  if (fd == STDIN_FILENO) {
    size_t got = 0;
    int c;
    while (got < n && (c = serial_read_byte()) >= 0) ((char *)buf)[got++] = (char)c;
    return (int)got;
  }
  if (fd == STDOUT_FILENO || fd == STDERR_FILENO) {
    errno = EBADF;
    return -1;
  }
  return files_read(fd, buf, n);
}

int isatty(int fd);
int isatty(int fd) {
  if (fd >= 0 && fd < CONSOLE_FDS) return 1;
  errno = ENOTTY;
  return 0;
}

void _exit(int status) { kernel_exit(status); }

int getpid(void);
int getpid(void) { return 1; /* the one application */ }

/* abort() ends in kill(getpid(), SIGABRT) when no handler is installed. */
int kill(int pid, int sig);
int kill(int pid, int sig) {
  if (pid != getpid()) {
    errno = ESRCH;
    return -1;
  }
  log_error("the application raised signal %d (abort or kill): ending the run", sig);
  kernel_exit(EXIT_STATUS_SIGNAL);
}

int gettimeofday(struct timeval *tv, void *tz) {
  (void)tz;
  uint64_t ns = time_ns();
  tv->tv_sec = (time_t)(unix_time_at_boot() + (int64_t)(ns / 1000000000));
  tv->tv_usec = (suseconds_t)(ns / 1000 % 1000000);
  return 0;
}

int clock_gettime(clockid_t clock, struct timespec *ts) {
  uint64_t ns = time_ns();
  switch (clock) {
    case CLOCK_REALTIME:
      ts->tv_sec = (time_t)(unix_time_at_boot() + (int64_t)(ns / 1000000000));
      break;
    case CLOCK_MONOTONIC:
      ts->tv_sec = (time_t)(ns / 1000000000);
      break;
    default:
      errno = EINVAL;
      return -1;
  }
  ts->tv_nsec = (long)(ns % 1000000000);
  return 0;
}

int clock_getres(clockid_t clock, struct timespec *res) {
  if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC) {
    errno = EINVAL;
    return -1;
  }
  if (res) *res = (struct timespec){0, 1};
  return 0;
}

/* All time since boot is the application's (newlib's clock() sums these;
 * its unit is CLOCKS_PER_SEC, libc/include/machine/time.h). */
clock_t times(struct tms *t) {
  clock_t ticks = (clock_t)(time_ns() / (1000000000ull / CLOCKS_PER_SEC));
  if (t) *t = (struct tms){.tms_utime = ticks};
  return ticks;
}

/* newlib leaves sysconf to the platform (libc/include/sys/unistd.h names). */
long sysconf(int name) {
  switch (name) {
    case _SC_PAGESIZE:
      return FRAME_SIZE;
    case _SC_CLK_TCK:
      return CLOCKS_PER_SEC;
    case _SC_NPROCESSORS_CONF:
      return (long)smp_core_count();
    case _SC_NPROCESSORS_ONLN: /* what threads can have: not the cores of CPU agents and devices */
      return (long)thread_cores_available();
    case _SC_PHYS_PAGES:
      return (long)(frames_ram_bytes() / FRAME_SIZE);
    case _SC_AVPHYS_PAGES:
      return (long)(frames_free_bytes() / FRAME_SIZE);
    default:
      errno = EINVAL;
      return -1;
  }
}

/* newlib leaves posix_memalign to the platform; memalign is its own. */
int posix_memalign(void **out, size_t align, size_t size) {
  if (align < sizeof(void *) || (align & (align - 1))) return EINVAL;
  void *p = memalign(align, size);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}

/* ---- What an appliance without processes or a writable disk cannot do. */
static int unsupported(int err) {
  errno = err;
  return -1;
}
int link(const char *a, const char *b) {
  (void)a, (void)b;
  return unsupported(EROFS);
}
int unlink(const char *p) {
  (void)p;
  return unsupported(EROFS);
}
int mkdir(const char *p, mode_t m) {
  (void)p, (void)m;
  return unsupported(EROFS);
}
int fork(void) { return unsupported(ENOSYS); }
int execve(const char *p, char *const a[], char *const e[]) {
  (void)p, (void)a, (void)e;
  return unsupported(ENOSYS);
}
int wait(int *s);
int wait(int *s) {
  (void)s;
  return unsupported(ECHILD);
}
int fcntl(int fd, int cmd, ...) {
  (void)fd, (void)cmd;
  return unsupported(ENOSYS);
}
int getentropy(void *buf, size_t n) {
  (void)buf, (void)n;
  return unsupported(ENOSYS);
}
int sigprocmask(int how, const sigset_t *set, sigset_t *old) {
  (void)how, (void)set, (void)old;
  return unsupported(ENOSYS);
}
