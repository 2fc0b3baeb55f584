/*
 * smp.h - the other cores: started at boot, parked (halted) until they are
 * given a function to run, and the services built on that (plat_worker_*,
 * plat_wait/plat_wake, TLB shootdown).
 *
 *   uint32_t ticket;
 *   if (smp_run_async(2, work, arg, "work", &ticket) == 0)  // core 2 runs work(arg)
 *     smp_wait_done(2, ticket, UINT64_MAX);                 // ... and we wait for it
 *   smp_run(3, work, arg);                                  // the same in one call
 *
 * Core 0 is the boot core; it runs main() and is never given work. A core
 * runs one function at a time; while it runs one it stays busy (-EBUSY for
 * new work) but still takes interrupts (IPIs, TLB shootdowns).
 */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include <stdbool.h>
#include <stdint.h>

/* Reserves the low memory of the trampoline. Right after frames_init,
 * before anything else can take the memory below 1 MiB. */
int smp_reserve_trampoline(void);

/* Sets up the boot core's per-core data, then starts every enabled
 * processor of the MADT at once (INIT-SIPI-SIPI) and returns while they
 * come up: the number of cores being started. smp_wait_started waits for
 * them; a core that does not answer in time is reported and left out.
 * Returns the number of cores online. After irq_init; between the two the
 * boot may go on (page-table changes reach each core as it comes online),
 * but no other core is started nor given work. */
int smp_init(void);
int smp_wait_started(void);

/* Starts the processor with this local APIC ID as a new core (smp_init
 * does so for every enabled processor of the MADT; an online-capable one
 * can be started later). Returns its core index, or -ETIMEDOUT (it did not
 * answer: reported, left out), -EEXIST, -ENOSPC, -ERANGE (unreachable ID or
 * image), -ENOMEM (no trampoline or stack), -EBUSY (the boot's start is not
 * collected yet). */
int smp_start_core(uint32_t apic_id, uint32_t acpi_uid);

/* Cores that run the kernel, the boot core included. */
unsigned smp_core_count(void);
/* Highest core index + 1 (indices of cores that failed stay unused). */
unsigned smp_core_limit(void);
bool smp_core_online(unsigned core);
uint32_t smp_core_apic_id(unsigned core);
bool smp_core_idle(unsigned core);

/* Posts fn(arg) to `core` and returns at once; *ticket identifies this run
 * for smp_wait_done. -ENODEV: no such core online (or the calling core);
 * -EBUSY: it still runs something. */
int smp_run_async(unsigned core, void (*fn)(void *), void *arg, const char *name,
                  uint32_t *ticket);
/* Waits until the run `ticket` of `core` has returned: 0, or -ETIMEDOUT. */
int smp_wait_done(unsigned core, uint32_t ticket, uint64_t timeout_ns);
/* Both: runs fn(arg) on `core` and waits for it. */
int smp_run(unsigned core, void (*fn)(void *), void *arg);

/* plat_wait on this core alone: sleeps while *word == expected, until
 * plat_wake(word) or timeout_ns, without running other threads (the
 * thread system's own idle waits, kernel/thread.c). */
void smp_wait_word(const volatile uint32_t *word, uint32_t expected, uint64_t timeout_ns);

/* A fixed-delivery interrupt of `vector` to `core`. */
bool smp_send_ipi(unsigned core, uint8_t vector);

/* How a core sleeps in plat_wait (kernel/smp_plat.c): halting until an
 * interrupt, or MWAIT on the word's cache line. The default is chosen at
 * boot (option wait=); setting it returns the previous mode, or -ENODEV
 * for mwait on a CPU without MONITOR/MWAIT. */
enum smp_wait_mode { SMP_WAIT_HLT = 0, SMP_WAIT_MWAIT = 1 };
enum smp_wait_mode smp_wait_mode(void);
int smp_set_wait_mode(enum smp_wait_mode mode);

/* Every other online core drops its TLB (after page table changes; kernel/vm.h
 * calls it through vm_set_tlb_shootdown). Waits at most 100 ms per core. */
void smp_tlb_shootdown(void);

#endif
