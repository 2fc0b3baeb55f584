/*
 * smp.c - starting the application processors, running functions on them,
 * IPIs and TLB shootdowns (see smp.h).
 *
 * Start-up follows Intel SDM vol. 3A, 9.4.4.1 "Typical BSP Initialization
 * Sequence" / the MultiProcessor Specification 1.4, B.4: INIT IPI, 10 ms,
 * start-up IPI, 200 us, a second start-up IPI if the core has not answered.
 * The trampoline (smp_trampoline.S) takes the core to smp_ap_main.
 */
#define LOG_TAG "smp"
#include "kernel/smp.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/acpi.h"
#include "kernel/cpu.h"
#include "kernel/irq.h"
#include "kernel/kmem.h"
#include "kernel/kstack.h"
#include "kernel/lapic.h"
#include "kernel/libc_reent.h"
#include "kernel/percpu.h"
#include "kernel/smp_trampoline.h"
#include "kernel/time.h"
#include "kernel/vm.h"
#include "lib/plat.h"

struct percpu percpu[CPU_MAX];
struct smp_ap_boot smp_ap_boot = {AP_BOOT_NOBODY, 0, 0, 0};

/* Low memory: the trampoline page, then its page tables (PML4, PDPT and
 * four page directories of 2 MiB pages for the low 4 GiB). */
#define TRAMP_PAGES    7
#define TRAMP_TABLES   0x1000
#define LOW_4G         (4ull << 30)
#define AP_STACK_SIZE  (256 * 1024)
#define START_TIMEOUT_NS (1000ull * 1000 * 1000)
#define INIT_TIMEOUT_NS  (2000ull * 1000 * 1000)

static uint64_t trampoline; /* physical address, 0 = not reserved */
static unsigned core_limit = 1;

int smp_reserve_trampoline(void) {
  /* Below 1 MiB: a start-up IPI names the page by an 8-bit vector (SDM
   * vol. 3A, 11.6.1 "Interrupt Command Register", delivery mode 110). */
  trampoline = kmem_alloc_below(TRAMP_PAGES * 4096, 1ull << 20, "AP start-up code and tables");
  if (!trampoline) {
    log_error("no free memory below 1 MiB for the AP trampoline: only the boot core will run");
    return -ENOMEM;
  }
  return 0;
}

/* Page-table entry bits (SDM vol. 3A, 4.5, Tables 4-15, 4-17, 4-18). */
#define PTE_PRESENT (1ull << 0)
#define PTE_WRITE   (1ull << 1)
#define PTE_LARGE   (1ull << 7)

/* Writes a 32-bit field of the trampoline's copy. */
static void patch32(uint8_t *page, const char *field, uint64_t value) {
  uint32_t v = (uint32_t)value;
  memcpy(page + (field - smp_trampoline_start), &v, 4);
}

static void build_trampoline(void) {
  uint8_t *page = (uint8_t *)(uintptr_t)trampoline;
  size_t code_size = (size_t)(smp_trampoline_end - smp_trampoline_start);
  memset(page, 0, TRAMP_PAGES * 4096);
  memcpy(page, smp_trampoline_start, code_size);
  /* The base of the GDT pointer follows its 16-bit limit. */
  patch32(page, tramp_gdt_pointer + 2, trampoline + (uint64_t)(tramp_gdt - smp_trampoline_start));
  patch32(page, tramp_far32, trampoline + (uint64_t)(tramp_protected - smp_trampoline_start));
  patch32(page, tramp_far64, (uintptr_t)smp_ap_entry64);
  patch32(page, tramp_cr3, trampoline + TRAMP_TABLES);
  uint64_t *pml4 = (uint64_t *)(page + TRAMP_TABLES);
  uint64_t *pdpt = pml4 + 512;
  uint64_t *pd = pdpt + 512;
  pml4[0] = (trampoline + TRAMP_TABLES + 0x1000) | PTE_PRESENT | PTE_WRITE;
  for (uint64_t g = 0; g < 4; g++) {
    pdpt[g] = (trampoline + TRAMP_TABLES + 0x2000 + g * 0x1000) | PTE_PRESENT | PTE_WRITE;
    for (uint64_t m = 0; m < 512; m++)
      pd[g * 512 + m] = (g << 30 | m << 21) | PTE_PRESENT | PTE_WRITE | PTE_LARGE;
  }
}

unsigned smp_core_count(void) {
  unsigned n = 0;
  for (unsigned i = 0; i < core_limit; i++) n += percpu[i].online;
  return n;
}

unsigned smp_core_limit(void) { return core_limit; }

bool smp_core_online(unsigned core) {
  return core < core_limit && __atomic_load_n(&percpu[core].online, __ATOMIC_ACQUIRE);
}

uint32_t smp_core_apic_id(unsigned core) { return core < CPU_MAX ? percpu[core].apic_id : 0; }

bool smp_send_ipi(unsigned core, uint8_t vector) {
  if (!smp_core_online(core)) return false;
  return lapic_send_ipi(percpu[core].apic_id, vector);
}

/* ---- Running functions on a core ---------------------------------------- */

bool smp_core_idle(unsigned core) {
  if (!smp_core_online(core)) return false;
  struct percpu *pc = &percpu[core];
  return __atomic_load_n(&pc->work_posted, __ATOMIC_ACQUIRE) ==
         __atomic_load_n(&pc->work_done, __ATOMIC_ACQUIRE);
}

int smp_run_async(unsigned core, void (*fn)(void *), void *arg, const char *name,
                  uint32_t *ticket) {
  if (core == 0 || !smp_core_online(core) || core == cpu_index() || !fn) return -ENODEV;
  struct percpu *pc = &percpu[core];
  uint64_t flags = spin_lock_irqsave(&pc->work_lock);
  if (pc->work_posted != __atomic_load_n(&pc->work_done, __ATOMIC_ACQUIRE)) {
    spin_unlock_irqrestore(&pc->work_lock, flags);
    return -EBUSY;
  }
  pc->work_fn = fn;
  pc->work_arg = arg;
  pc->work_name = name;
  uint32_t t = pc->work_posted + 1;
  __atomic_store_n(&pc->work_posted, t, __ATOMIC_RELEASE);
  spin_unlock_irqrestore(&pc->work_lock, flags);
  if (ticket) *ticket = t;
  smp_send_ipi(core, IRQ_VECTOR_WAKE);
  return 0;
}

int smp_wait_done(unsigned core, uint32_t ticket, uint64_t timeout_ns) {
  if (core >= core_limit) return -ENODEV;
  struct percpu *pc = &percpu[core];
  uint64_t start = time_ns();
  for (;;) {
    uint32_t done = __atomic_load_n(&pc->work_done, __ATOMIC_ACQUIRE);
    if ((int32_t)(done - ticket) >= 0) return 0;
    uint64_t waited = time_ns() - start;
    if (waited >= timeout_ns) return -ETIMEDOUT;
    plat_wait(&pc->work_done, done, timeout_ns - waited);
  }
}

int smp_run(unsigned core, void (*fn)(void *), void *arg) {
  uint32_t ticket;
  int err = smp_run_async(core, fn, arg, "smp_run", &ticket);
  return err ? err : smp_wait_done(core, ticket, UINT64_MAX);
}

/* An application processor's life after start-up: halted until work is
 * posted (the poster's wake IPI ends the HLT), then the work, then halted. */
static void __attribute__((noreturn)) park(struct percpu *pc) {
  for (;;) {
    __asm__ volatile("cli" ::: "memory");
    uint32_t posted = __atomic_load_n(&pc->work_posted, __ATOMIC_ACQUIRE);
    if (posted == pc->work_done) {
      /* STI holds interrupts off until after HLT: a wake IPI that arrives
       * after the check still ends the halt (SDM vol. 2B, "STI"). */
      pc->halts++;
      __asm__ volatile("sti; hlt" ::: "memory");
      continue;
    }
    __asm__ volatile("sti" ::: "memory");
    pc->work_fn(pc->work_arg);
    __atomic_store_n(&pc->work_done, posted, __ATOMIC_RELEASE);
    plat_wake(&pc->work_done);
  }
}

void smp_ap_main(unsigned index) {
  struct percpu *pc = &percpu[index];
  if (cpu_init_core(index) != 0) {
    log_error("core %u: CPU structures could not be set up, core parked", index);
    for (;;) __asm__ volatile("cli; hlt");
  }
  lapic_init_core();
  if (lapic_id() != pc->apic_id)
    log_warn("core %u: local APIC ID %u, MADT said %u", index, lapic_id(), pc->apic_id);
  libc_reent_start_core();
  __atomic_store_n(&pc->online, true, __ATOMIC_RELEASE);
  park(pc);
}

/* ---- Start-up ------------------------------------------------------------ */

static bool claimed(void) {
  return __atomic_load_n(&smp_ap_boot.target_apic_id, __ATOMIC_ACQUIRE) == AP_BOOT_CLAIMED;
}

static bool wait_for(bool (*cond)(unsigned), unsigned arg, uint64_t timeout_ns) {
  uint64_t deadline = time_ns() + timeout_ns;
  while (!cond(arg)) {
    if (time_ns() > deadline) return false;
    plat_cpu_relax();
  }
  return true;
}

static bool claimed_cond(unsigned unused) { return (void)unused, claimed(); }

/* Not smp_core_online: the new index is beyond core_limit until it is up. */
static bool finished_setup(unsigned index) {
  return __atomic_load_n(&percpu[index].online, __ATOMIC_ACQUIRE);
}

enum start_result { START_ONLINE, START_NO_ANSWER, START_STUCK };

/* Brings up the core with percpu[index].apic_id. NO_ANSWER: it never took
 * the trampoline (the index may be reused); STUCK: it took it but did not
 * finish its set-up (it runs on the stack given to `index`: never reuse). */
static enum start_result start_core(unsigned index) {
  static char stack_names[CPU_MAX][16];
  struct percpu *pc = &percpu[index];
  snprintf(stack_names[index], sizeof(stack_names[index]), "core %u", index);
  uint64_t stack = kstack_alloc(AP_STACK_SIZE, stack_names[index]);
  if (!stack || libc_reent_prepare(index) != 0) {
    log_error("core %u (APIC ID %u): no memory for its stack or libc state, left out", index,
              pc->apic_id);
    return START_NO_ANSWER;
  }
  smp_ap_boot.index = index;
  smp_ap_boot.cr3 = read_cr3();
  smp_ap_boot.stack_top = stack;
  __atomic_store_n(&smp_ap_boot.target_apic_id, pc->apic_id, __ATOMIC_RELEASE);

  uint64_t t0 = time_ns();
  lapic_send_init(pc->apic_id);
  time_sleep_until(time_ns() + 10 * 1000 * 1000);
  for (int sipi = 0; sipi < 2 && !claimed(); sipi++) {
    lapic_send_startup(pc->apic_id, (uint8_t)(trampoline >> 12));
    wait_for(claimed_cond, 0, 200 * 1000);
  }
  wait_for(claimed_cond, 0, START_TIMEOUT_NS);
  uint32_t expected = pc->apic_id;
  if (__atomic_compare_exchange_n(&smp_ap_boot.target_apic_id, &expected, AP_BOOT_NOBODY, false,
                                  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    log_error("core %u (APIC ID %u) did not answer INIT-SIPI-SIPI within %llu ms, left out",
              index, pc->apic_id, (unsigned long long)(START_TIMEOUT_NS / 1000000));
    return START_NO_ANSWER;
  }
  /* Claimed: the core runs on its stack; wait for its set-up. */
  if (!wait_for(finished_setup, index, INIT_TIMEOUT_NS)) {
    log_error("core %u (APIC ID %u) started but did not finish its set-up within %llu ms, "
              "left out", index, pc->apic_id, (unsigned long long)(INIT_TIMEOUT_NS / 1000000));
    return START_STUCK;
  }
  log_debug("core %u (APIC ID %u) online after %llu us", index, pc->apic_id,
            (unsigned long long)((time_ns() - t0) / 1000));
  return START_ONLINE;
}

static bool trampoline_built;

int smp_start_core(uint32_t apic_id, uint32_t acpi_uid) {
  if (!trampoline) return -ENOMEM;
  if ((uintptr_t)smp_ap_entry64 >= LOW_4G || (uintptr_t)&smp_ap_boot >= LOW_4G) {
    log_error("the image lies above 4 GiB, out of the trampoline's reach: APIC ID %u not started",
              apic_id);
    return -ERANGE;
  }
  if (!lapic_x2apic_mode() && apic_id > 0xfe) {
    log_warn("APIC ID %u needs x2APIC mode: not started", apic_id);
    return -ERANGE;
  }
  for (unsigned c = 0; c < core_limit; c++)
    if (percpu[c].present && percpu[c].apic_id == apic_id) return -EEXIST;
  if (core_limit == CPU_MAX) {
    log_warn("more than %d cores: APIC ID %u not started", CPU_MAX, apic_id);
    return -ENOSPC;
  }
  if (!trampoline_built) {
    build_trampoline();
    trampoline_built = true;
  }
  unsigned index = core_limit;
  percpu[index] = (struct percpu){.apic_id = apic_id, .acpi_uid = acpi_uid, .present = true};
  enum start_result r = start_core(index);
  /* From here on only a new smp_start_core names a core that may start. */
  __atomic_store_n(&smp_ap_boot.target_apic_id, AP_BOOT_NOBODY, __ATOMIC_RELEASE);
  if (r == START_NO_ANSWER) {
    percpu[index].present = false;
    return -ETIMEDOUT;
  }
  core_limit = index + 1;
  return r == START_ONLINE ? (int)index : -ETIMEDOUT;
}

/* Drops every TLB entry of this core, global ones included (SDM vol. 3A,
 * 4.10.4.1: writing CR4.PGE flushes them all; a CR3 write spares globals). */
static void flush_tlb(void) {
  uint64_t cr4 = read_cr4();
  if (cr4 & CR4_PGE) {
    write_cr4(cr4 & ~CR4_PGE);
    write_cr4(cr4);
  } else {
    write_cr3(read_cr3());
  }
}

static void tlb_handler(void *ctx) {
  (void)ctx;
  flush_tlb();
  __atomic_fetch_add(&percpu_this()->tlb_flushes, 1, __ATOMIC_RELEASE);
}

static struct spinlock tlb_lock = SPINLOCK_INIT;

void smp_tlb_shootdown(void) {
  if (smp_core_count() <= 1) return;
  unsigned self = cpu_index();
  uint32_t before[CPU_MAX];
  spin_lock(&tlb_lock);
  for (unsigned c = 0; c < core_limit; c++) {
    if (c == self || !smp_core_online(c)) continue;
    before[c] = __atomic_load_n(&percpu[c].tlb_flushes, __ATOMIC_ACQUIRE);
    smp_send_ipi(c, IRQ_VECTOR_TLB);
  }
  for (unsigned c = 0; c < core_limit; c++) {
    if (c == self || !smp_core_online(c)) continue;
    uint64_t deadline = time_ns() + 100 * 1000 * 1000;
    while (__atomic_load_n(&percpu[c].tlb_flushes, __ATOMIC_ACQUIRE) == before[c]) {
      if (time_ns() > deadline) {
        log_error("core %u did not acknowledge a TLB shootdown within 100 ms", c);
        break;
      }
      plat_cpu_relax();
    }
  }
  spin_unlock(&tlb_lock);
}

int smp_init(void) {
  percpu[0].apic_id = lapic_id();
  percpu[0].present = true;
  __atomic_store_n(&percpu[0].online, true, __ATOMIC_RELEASE);
  irq_set_handler(IRQ_VECTOR_TLB, tlb_handler, NULL);
  vm_set_tlb_shootdown(smp_tlb_shootdown);

  const struct acpi_info *a = acpi_machine();
  if (!a->have_madt) {
    log_warn("no MADT: only the boot core runs");
    return 1;
  }
  unsigned enabled = 0;
  for (unsigned i = 0; i < a->madt.cpu_count; i++) {
    const struct acpi_madt_cpu *c = &a->madt.cpus[i];
    if (!c->enabled) continue;
    enabled++;
    if (c->apic_id == percpu[0].apic_id) {
      percpu[0].acpi_uid = c->uid;
      continue;
    }
    int err = smp_start_core(c->apic_id, c->uid);
    if (err == -ENOMEM) {
      log_error("no trampoline memory: the other cores are not started");
      break;
    }
  }
  log_info("%u of %u enabled processors online; plat_wait sleeps with %s", smp_core_count(),
           enabled, smp_wait_mode() == SMP_WAIT_MWAIT ? "MWAIT" : "HLT");
  return (int)smp_core_count();
}
