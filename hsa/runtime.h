/*
 * runtime.h - the runtime's global state and the helpers every API file
 * uses: the init reference count, the object sets behind handle checks, the
 * event that signal waiters sleep on, and each subsystem's own state.
 */
#ifndef HSA_RUNTIME_H
#define HSA_RUNTIME_H

#include <stdatomic.h>
#include <stdbool.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "hsa/event.h"
#include "hsa/isa.h"
#include "hsa/memory.h"
#include "hsa/object_set.h"
#include "hsa/placement.h"
#include "hsa/signal_state.h"
#include "lib/lock.h"

#define RUNTIME_MAX_AGENTS 16

struct agent;
struct cl_program;
struct loaded_code_object;

/* cl_program.c: the OpenCL C programs loaded for CPU agents, newest first
 * (executables_fini unloads them), and the work-item stacks. Stacks are
 * made a region at a time (pages and their guard pages: one TLB shootdown
 * in the image for the region, which costs more than a dispatch), handed
 * out from the pool and back to it when their program is unloaded, for the
 * next ones; the pool has room for every stack of the regions.
 * cl_programs_fini frees the regions. */
struct cl_stack_region {
  struct cl_stack_region *next;
  void *base;
  uint32_t count;
};
struct cl_programs {
  struct lock lock;
  struct cl_program *list;
  struct lock stack_pool_lock;
  struct cl_stack_region *stack_regions;
  uint32_t stack_pool_count, stack_pool_capacity;
  void **stack_pool;
};

/* hsa/loader/loaded_code_object.c: the code objects loaded into
 * executables, newest first (executables_fini unloads them all). */
struct loaded_code_objects {
  struct lock lock;
  struct loaded_code_object *list;
};

/* system_event.c: the handlers the program registered, and the events the
 * GPU's interrupt handler posted for the async worker to deliver. */
#define SYSTEM_EVENTS_POSTED_MAX 64
struct system_event_handler;
struct system_events {
  struct lock lock; /* handlers */
  struct system_event_handler *handlers;
  size_t count, capacity;
  struct system_events_posted {
    /* A spin lock taken with interrupts off: the interrupt handler takes it. */
    struct spinlock lock;
    uint32_t head, tail; /* free-running: head - tail events wait */
    uint32_t dropped;
    struct signal *wake; /* NULL: nobody to deliver to */
    hsa_amd_event_t slots[SYSTEM_EVENTS_POSTED_MAX];
  } posted;
};

/*
 * All of the runtime's state. Every member starts as zero, which is the
 * state before the first hsa_init; hsa_shut_down's last call brings each
 * back to it (each subsystem's *_fini), so a second hsa_init starts where
 * the first did. Two counters are never reset, so that what they number
 * stays unique across cycles: next_queue_id and signal.destroy_epoch.
 * All zero also keeps rt in .bss: its tables take no room in the image.
 * Only init_lock (runtime.c) stays outside: it orders hsa_init against
 * hsa_shut_down, so it exists before either runs.
 */
struct runtime {
  struct lock lock;          /* agent list, per-agent queue counts */
  _Atomic uint32_t refcount; /* hsa_init count, up to INT32_MAX; 0 = not initialised */
  struct agent *agents[RUNTIME_MAX_AGENTS];
  uint32_t agent_count;
  bool gpu_driver_up; /* gpu_agent.c: amdgpu_init succeeded, amdgpu_fini at shut-down */
  /* gpu_agent_queue.c: when gpu_agents_watchdog last asked the driver to
   * check the queues' time limits (plat_now_ns). */
  _Atomic uint64_t gpu_watchdog_ns;
  struct object_set signals, signal_groups, queues, executables, readers, symbols;
  struct object_set code_objects; /* hsa/loader/code_object_v1.c: HSA 1.0 code objects */
  /* Notified whenever a signal that somebody waits on changes. */
  struct event signal_event;
  /* queue.c: the next hsa_queue_t id. Never reset: ids stay unique for the
   * whole process, across hsa_init cycles. */
  _Atomic uint64_t next_queue_id;
  struct memory_state memory;         /* memory.c */
  struct async_copy_state async_copy; /* memory_async.c */
  struct signal_state signal;         /* signal.c */
  struct signal_events signal_events; /* signal_event.c */
  struct async_handlers async;        /* signal_handler.c */
  struct system_events system_events; /* system_event.c */
  struct loaded_code_objects loaded;  /* hsa/loader/loaded_code_object.c */
  struct cl_programs cl_programs;     /* cl_program.c */
  struct isa_table isas;              /* isa.c */
  struct placement_state placement;   /* placement.c */
};

extern struct runtime rt;

static inline bool runtime_initialized(void) {
  return atomic_load_explicit(&rt.refcount, memory_order_acquire) != 0;
}

/* Entry check of every API function that needs an initialised runtime. */
#define RETURN_IF_NOT_INITIALIZED()                                      \
  do {                                                                   \
    if (!runtime_initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED; \
  } while (0)

/* ROCr's range check of an extension number (hsa.cpp): the standard ones
 * and the AMD range. */
bool extension_in_range(uint16_t extension);

/* Timestamps are nanoseconds of plat_now_ns: the frequency is 1 GHz. */
#define RUNTIME_TIMESTAMP_FREQUENCY_HZ 1000000000ull

/* System events (system_event.c) to every handler the program registered
 * with hsa_amd_register_system_event_handler. report delivers on the
 * calling thread and says whether a handler returned HSA_STATUS_SUCCESS;
 * post is for interrupt context (no lock that sleeps, no allocation): the
 * event is copied and delivered by the runtime's async worker. */
bool runtime_report_system_event(const hsa_amd_event_t *event);
void runtime_post_system_event(const hsa_amd_event_t *event);

/* 64-byte aligned allocation (signals, queues: cache-line objects). */
void *runtime_alloc_aligned(size_t size, size_t align);

/* Sub-systems' set-up and tear-down, in hsa_init / hsa_shut_down order. */
hsa_status_t memory_init(void);
void memory_fini(void);
void signals_fini(void); /* destroys signals the program left behind */
void signal_groups_fini(void); /* likewise its signal groups */
void queues_fini(void);
void executables_fini(void);
void code_objects_fini(void); /* destroys HSA 1.0 code objects the program left behind */
void async_handlers_fini(void);
void system_events_fini(void); /* after async_handlers_fini: no delivery runs */
void async_copy_fini(void);

#endif
