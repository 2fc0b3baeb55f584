/*
 * libc_reent.c - newlib's per-thread state, one per core, for newlib built
 * with __DYNAMIC_REENT__ (mk/newlib.mk): newlib reaches its state through
 * __getreent() (libc/include/sys/reent.h), which answers the calling
 * core's struct _reent. It holds errno, the std streams (each core has its
 * own stdin, stdout and stderr FILE and buffers), and what strtok, rand,
 * the dtoa of printf("%f"), asctime, signal() and friends keep between
 * calls. Files opened with fopen are shared by all cores: newlib keeps them
 * on _GLOBAL_REENT's list (stdio/findfp.c __sfp) and locks each one.
 *
 * A thread of <pthread.h> (kernel/thread.c) has a state of its own, since
 * threads share cores; main() and code outside the thread system use
 * their core's. Core 0 uses newlib's global state (_GLOBAL_REENT: atexit handlers and
 * the open files live there, and exit() cleans it up); every other core
 * gets its own before it is started, from kernel memory (kmem.h).
 *
 * stdout and stderr are line buffered on every core: a line goes out in
 * one write (console_write is atomic), so lines of different cores never
 * mix; only a line longer than the buffer (BUFSIZ) goes out in pieces.
 * Interrupt handlers run on the state of the core they interrupt: they
 * may format with snprintf (as plat_log does) but not print floating
 * point or use stdio streams.
 */
#include "kernel/libc_reent.h"

#include <errno.h>
#include <reent.h>
#include <stdio.h>

#include "kernel/cpu.h"
#include "kernel/kmem.h"
#include "kernel/libc_locks.h"
#include "kernel/thread.h"
#include "lib/plat.h"

#define LOG_TAG "libc"

#if !defined(__DYNAMIC_REENT__)
#error \
    "newlib and the image must be built with __DYNAMIC_REENT__ (mk/newlib.mk NEWLIB_ABI_CPPFLAGS)"
#endif

static struct _reent *core_state[CPU_MAX]; /* [0] unused: core 0 has _GLOBAL_REENT */

struct _reent *__getreent(void) {
  struct _reent *own = thread_reent(); /* a thread of <pthread.h> has its own */
  if (own) return own;
  unsigned core = cpu_index();
  struct _reent *r = core ? core_state[core] : NULL;
  return r ? r : _GLOBAL_REENT;
}

int libc_reent_prepare(unsigned core) {
  if (core == 0 || core >= CPU_MAX || core_state[core]) return 0;
  struct _reent *r = (struct _reent *)(uintptr_t)kmem_alloc(sizeof *r, "per-core libc state");
  if (!r) {
    log_error("core %u: no memory for its libc state", core);
    return -ENOMEM;
  }
  _REENT_INIT_PTR(r);
  core_state[core] = r;
  return 0;
}

void libc_reent_start_core(void) {
  if (setvbuf(stdout, NULL, _IOLBF, BUFSIZ) != 0 || setvbuf(stderr, NULL, _IOLBF, BUFSIZ) != 0)
    log_warn("core %u: no memory for line buffers: its output may mix with other cores'",
             cpu_index());
}

/* Bytes written into fp's buffer and not yet out. */
static long pending(const FILE *fp) {
  return (fp->_flags & __SWR) && fp->_bf._base ? (long)(fp->_p - fp->_bf._base) : 0;
}

static void flush_stream(unsigned core, struct _reent *r, FILE *fp, const char *name) {
  if (!pending(fp)) return;
  if (!libc_lock_take_if_free(fp->_lock)) {
    log_warn("core %u's %s is in use: %ld buffered bytes left unwritten", core, name, pending(fp));
    return;
  }
  _fflush_r(r, fp);
  __retarget_lock_release_recursive(fp->_lock);
}

void libc_flush_all_cores(void) {
  for (unsigned core = 0; core < CPU_MAX; core++) {
    struct _reent *r = core ? core_state[core] : _GLOBAL_REENT;
    if (!r || !r->__sdidinit) continue; /* its streams were never used */
    flush_stream(core, r, r->_stdout, "stdout");
    flush_stream(core, r, r->_stderr, "stderr");
  }
}
