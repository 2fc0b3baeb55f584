/*
 * plat.h - the services a platform gives to the layers above it.
 *
 * drivers/, vapu/ and hsa/ are built twice: into the boot image, where
 * kernel/ implements this interface on bare metal, and into the host
 * library, where host/ implements it on Linux threads. Nothing above the
 * kernel calls the kernel or libc threading directly for these services.
 *
 * The single address space holds on both platforms: a pointer is also the
 * address a device uses for it (identity map in the image; on the host the
 * virtual APU treats host virtual addresses as its physical addresses).
 */
#ifndef LIB_PLAT_H
#define LIB_PLAT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- Logging -------------------------------------------------------------
 * One line per call, prefixed by the platform with a time stamp, the level
 * and the tag; lines from different cores or threads never interleave.
 * Each source file defines LOG_TAG before using the macros below. */
enum log_level { LOG_ERROR = 0, LOG_WARN, LOG_INFO, LOG_DEBUG, LOG_TRACE };

void plat_log(enum log_level level, const char *tag, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void plat_vlog(enum log_level level, const char *tag, const char *fmt, va_list ap);
/* Whether a line of `level` from `tag` is written (loglevel, lib/log_levels.h). */
bool plat_log_enabled(enum log_level level, const char *tag);

#define log_error(...) plat_log(LOG_ERROR, LOG_TAG, __VA_ARGS__)
#define log_warn(...) plat_log(LOG_WARN, LOG_TAG, __VA_ARGS__)
#define log_info(...) plat_log(LOG_INFO, LOG_TAG, __VA_ARGS__)
#define log_debug(...) plat_log(LOG_DEBUG, LOG_TAG, __VA_ARGS__)
#define log_trace(...)                                                        \
  do {                                                                        \
    if (plat_log_enabled(LOG_TRACE, LOG_TAG)) plat_log(LOG_TRACE, LOG_TAG, __VA_ARGS__); \
  } while (0)

/* ---- Time ---------------------------------------------------------------- */
uint64_t plat_now_ns(void);          /* monotonic, since an arbitrary origin */
void plat_sleep_ns(uint64_t ns);     /* gives the core/thread up; never spins forever */
static inline void plat_cpu_relax(void) { __builtin_ia32_pause(); }

/* ---- Memory for devices ---------------------------------------------------
 * Physically contiguous, zeroed, aligned to `align` (a power of two, at least
 * 4096 is always honoured); the pointer is the bus address. NULL when out of
 * memory. Used for rings, page tables, queue descriptors. */
void *plat_dma_alloc(size_t size, size_t align);
void plat_dma_free(void *p, size_t size);
/* Bytes allocated and not yet freed, as the callers sized them: what a
 * leak check compares before and after. */
size_t plat_dma_bytes_in_use(void);

/* How the CPU caches the memory at a physical address: RAM is write-back;
 * memory the CPU shares with a device that does not snoop its caches (a
 * GPU's carve-out) must be write-combining or uncached, or the device
 * reads stale data. plat_set_cpu_cache_mode gives a page-aligned range
 * that mode for the CPU (image: the identity map's page attributes, on
 * every core; host: recorded, so that a device model asking
 * plat_cpu_cache_mode sees what a board's CPU would do). 0 or -EINVAL. */
enum plat_cache_mode { PLAT_CACHE_WRITE_BACK, PLAT_CACHE_WRITE_COMBINING, PLAT_CACHE_UNCACHED };
int plat_set_cpu_cache_mode(uint64_t addr, uint64_t size, enum plat_cache_mode mode);
enum plat_cache_mode plat_cpu_cache_mode(uint64_t addr);

/* ---- Memory no device can reach --------------------------------------------
 * For state that holds function pointers or control data (a driver's device
 * and bus binding, queue bookkeeping, a device model's registers and
 * engines): in the image the application's memory (heap, plat_dma_alloc)
 * may be given to devices, so such state comes from here instead: kernel
 * memory that every IOMMU domain leaves out (kernel/kmem.h). Zeroed,
 * 64-byte aligned; NULL when out of memory. On the host: calloc/free. */
void *plat_protected_alloc(size_t size);
void plat_protected_free(void *p);

/* ---- Code loaded at run time ----------------------------------------------
 * Pages for an x86-64 shared object the runtime loads for a CPU agent (its
 * segments, the stacks its work-items run on). plat_code_alloc: `size`
 * bytes (a multiple of 4096), page aligned, zeroed, read/write, never
 * executable until plat_code_protect says so; NULL when out of memory.
 * plat_code_protect gives page-aligned [p, p + size) the PLAT_PROT_* set
 * (0: no access, a guard page); 0 or -1 (logged). plat_code_protect_each
 * does it to `count` ranges of `size` bytes `stride` apart from p at once
 * (the image flushes the TLBs of every core once, not once per range). */
#define PLAT_PROT_READ  1u
#define PLAT_PROT_WRITE 2u
#define PLAT_PROT_EXEC  4u
void *plat_code_alloc(size_t size);
int plat_code_protect(void *p, size_t size, unsigned prot);
int plat_code_protect_each(void *p, size_t count, size_t stride, size_t size, unsigned prot);
void plat_code_free(void *p, size_t size);
/* The address of the C library function `name` that loaded code may call
 * (host: the process's, dlsym; image: the image's table of exports,
 * generated at build time), or NULL. */
void *plat_import(const char *name);

/* ---- Interrupts on this core -----------------------------------------------
 * For short critical sections that an interrupt handler may enter too: the
 * calling core takes no interrupt until the matching restore (image), so a
 * handler never finds the lock held by the code it interrupted. Nest like
 * spin_lock_irqsave. On the host, interrupts are a thread's work, and
 * these do nothing. */
uint64_t plat_irq_save(void);
void plat_irq_restore(uint64_t flags);

/* ---- Workers --------------------------------------------------------------
 * A worker is a function that runs on a core of its own (image: one of the
 * cores the kernel started, never the one running main(); host: a thread)
 * until it returns. CPU agents and the virtual APU run as workers. */
int plat_worker_slots(void);                 /* how many can run in parallel */
int plat_worker_start(const char *name, void (*fn)(void *arg), void *arg);
                                             /* worker id >= 0, or < 0 on error */
void plat_worker_join(int worker_id);        /* waits for fn to return */

/* ---- Waiting on memory ----------------------------------------------------
 * plat_wait blocks while *word == expected, until plat_wake(word) is called,
 * the value changes, or timeout_ns passes (UINT64_MAX: no limit). It may
 * return early (spurious wake-up): callers re-check their condition. A
 * waiting core sleeps (hlt/futex); it does not burn the core. */
void plat_wait(const volatile uint32_t *word, uint32_t expected, uint64_t timeout_ns);
void plat_wake(const volatile uint32_t *word);

/* ---- Boot options and files ---------------------------------------------- */
/* Value of `key` from the boot command line (image) or from the environment
 * variable HSAR_OPTIONS="key=value ..." (host); NULL when absent. A key given
 * without '=' has the value "". */
const char *plat_option(const char *key);
/* NULL, or why the options given are refused (host: HSAR_OPTIONS, checked
 * as the image checks its command line, which it refuses at boot). */
const char *plat_options_problem(void);
/* A numeric option (decimal, or hex with 0x): `fallback` when absent; a
 * value that is no number or outside [min, max] is logged and gives
 * `fallback` too. */
uint64_t plat_option_uint(const char *key, uint64_t min, uint64_t max, uint64_t fallback);

/* Declares a boot option where it is used, with a one-line description:
 *   PLAT_OPTION(iommu, "iommu", "off|passthrough|on: AMD IOMMU mode (default on)");
 * The image refuses a command line with a key nobody declared (a clear error
 * and a non-zero exit) and lists the declared ones with `help`. */
struct plat_option_decl {
  const char *key;
  const char *help;
};
#define PLAT_OPTION(ident, key_, help_)                                       \
  static const struct plat_option_decl plat_option_##ident                   \
      __attribute__((used, section("plat_options"), aligned(8))) = {key_, help_}

/* Loads a whole file (image: the read-only boot file system, path like
 * "/amdgpu/raven_mec.bin"; host: an absolute path is looked up under
 * $HSAR_FILES, by default under the build's virtual-APU tree; see host/).
 * Returns a malloc'ed copy the caller frees, or NULL with errno set. */
void *plat_file_load(const char *path, size_t *size);

/* Platform name, "efi" or "host", for logs and tests. */
const char *plat_name(void);

#endif
