/*
 * percpu.h - what the kernel keeps per core, indexed by the core index
 * (cpu_index(): 0 is the boot core, which runs main(); the application
 * processors follow in MADT order).
 */
#ifndef KERNEL_PERCPU_H
#define KERNEL_PERCPU_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/cpu.h"
#include "lib/lock.h"

struct percpu {
  uint32_t apic_id;
  uint32_t acpi_uid;
  bool present; /* an enabled processor of the MADT was given this index */
  bool online;  /* it runs the kernel and takes work */

  /* "Run this function on core N" (kernel/smp.h): the poster bumps
   * work_posted under work_lock; the core runs the function and bumps
   * work_done. Idle when the two are equal. */
  struct spinlock work_lock;
  void (*work_fn)(void *arg);
  void *work_arg;
  const char *work_name;
  uint32_t work_posted;
  uint32_t work_done;
  uint64_t halts; /* times this core halted while parked (it sleeps, not spins) */

  /* plat_wait: the word this core sleeps on, and whether plat_wake came. */
  const volatile uint32_t *waiting_on;
  uint32_t wake_pending;

  /* TLB shootdowns this core has completed (kernel/smp.c). */
  uint32_t tlb_flushes;
};

extern struct percpu percpu[CPU_MAX];

static inline struct percpu *percpu_this(void) { return &percpu[cpu_index()]; }

#endif
