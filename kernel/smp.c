/*
 * smp.c - starting the application processors, running functions on them,
 * IPIs and TLB shootdowns (see smp.h).
 *
 * Start-up follows Intel SDM vol. 3A, 9.4.4.1 "Typical BSP Initialization
 * Sequence" / the MultiProcessor Specification 1.4, B.4: INIT IPI, 10 ms,
 * start-up IPI, 200 us, a second start-up IPI if the core has not answered.
 * Processors since AMD family 0Fh, Intel family 6 and Hygon family 18h need
 * no 10 ms after INIT (Linux arch/x86/kernel/smpboot.c,
 * smp_quirk_init_udelay). The boot cores all start at once: smp_init sends
 * the IPIs and returns, the boot goes on while they come up, and
 * smp_wait_started collects them. The trampoline (smp_trampoline.S) takes
 * each core to smp_ap_main.
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
struct smp_ap_boot smp_ap_boot; /* no slot: every core that starts parks */

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
static unsigned enabled_processors; /* of the MADT, the boot core included */

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
  /* Online first, then the TLB flushed: a page-table change the boot core
   * made before it could see this core online is in the tables this core
   * reads after the flush; one made after reaches it by shootdown. */
  __atomic_store_n(&pc->online, true, __ATOMIC_SEQ_CST);
  flush_tlb();
  park(pc);
}

/* ---- Start-up ------------------------------------------------------------ */

static struct {
  unsigned first, count; /* the slots of this start: smp_ap_boot.slots[first, first + count) */
  uint64_t sent_ns;      /* when the first start-up IPIs went out */
} start;

static bool slot_claimed(unsigned slot) {
  return __atomic_load_n(&smp_ap_boot.slots[slot].target_apic_id, __ATOMIC_ACQUIRE) ==
         AP_BOOT_CLAIMED;
}

static bool all_claimed(void) {
  for (unsigned i = start.first; i < start.first + start.count; i++)
    if (!slot_claimed(i)) return false;
  return true;
}

/* The 10 ms after INIT, unless the processor is one that needs none. */
static uint64_t init_delay_ns(void) {
  struct cpu_id id = cpu_identify();
  bool modern = (id.vendor == CPU_VENDOR_AMD && id.family >= 0xf) ||
                (id.vendor == CPU_VENDOR_INTEL && id.family >= 6) ||
                (id.vendor == CPU_VENDOR_HYGON && id.family >= 0x18);
  return modern ? 0 : 10 * 1000 * 1000;
}

static void spin_until(uint64_t deadline_ns, bool (*done)(void)) {
  while (time_ns() < deadline_ns && !(done && done())) plat_cpu_relax();
}

/* Gives the processor with this APIC ID the next core index, its stack and
 * libc state, and a slot. Returns the index or a negative errno. */
static int prepare_core(uint32_t apic_id, uint32_t acpi_uid, unsigned index) {
  if ((uintptr_t)smp_ap_entry64 >= LOW_4G || (uintptr_t)&smp_ap_boot >= LOW_4G) {
    log_error("the image lies above 4 GiB, out of the trampoline's reach: APIC ID %u not started",
              apic_id);
    return -ERANGE;
  }
  if (!lapic_x2apic_mode() && apic_id > 0xfe) {
    log_warn("APIC ID %u needs x2APIC mode: not started", apic_id);
    return -ERANGE;
  }
  for (unsigned c = 0; c < index; c++)
    if (percpu[c].present && percpu[c].apic_id == apic_id) return -EEXIST;
  if (index == CPU_MAX) {
    log_warn("more than %d cores: APIC ID %u not started", CPU_MAX, apic_id);
    return -ENOSPC;
  }
  static char stack_names[CPU_MAX][16];
  snprintf(stack_names[index], sizeof(stack_names[index]), "core %u", index);
  uint64_t stack = kstack_alloc(AP_STACK_SIZE, stack_names[index]);
  if (!stack || libc_reent_prepare(index) != 0) {
    log_error("core %u (APIC ID %u): no memory for its stack or libc state, left out", index,
              apic_id);
    return -ENOMEM;
  }
  percpu[index] = (struct percpu){.apic_id = apic_id, .acpi_uid = acpi_uid, .present = true};
  unsigned slot = start.first + start.count++;
  smp_ap_boot.slots[slot] = (struct smp_ap_slot){apic_id, index, stack};
  __atomic_store_n(&smp_ap_boot.slot_count, slot + 1, __ATOMIC_RELEASE);
  return (int)index;
}

static bool trampoline_built;

/* INIT to every prepared core, then the start-up IPIs, and a second one
 * to those that have not claimed their slot 200 us later. Returns without
 * waiting for the cores to come up. */
static void send_start_ipis(void) {
  if (!start.count) return;
  if (!trampoline_built) {
    build_trampoline();
    trampoline_built = true;
  }
  smp_ap_boot.cr3 = read_cr3();
  /* Cores coming up are in the range other code walks (as offline), so
   * that a TLB shootdown reaches each as soon as it is online. */
  for (unsigned i = start.first; i < start.first + start.count; i++)
    if (smp_ap_boot.slots[i].index + 1 > core_limit) core_limit = smp_ap_boot.slots[i].index + 1;
  for (unsigned i = start.first; i < start.first + start.count; i++)
    lapic_send_init(smp_ap_boot.slots[i].target_apic_id);
  uint64_t delay = init_delay_ns();
  if (delay) time_sleep_until(time_ns() + delay);
  start.sent_ns = time_ns();
  for (int sipi = 0; sipi < 2; sipi++) {
    for (unsigned i = start.first; i < start.first + start.count; i++)
      if (!slot_claimed(i))
        lapic_send_startup(smp_ap_boot.slots[i].target_apic_id, (uint8_t)(trampoline >> 12));
    spin_until(time_ns() + 200 * 1000, all_claimed);
  }
}

/* Waits for each core of this start to take its slot and finish its set-up;
 * one that does not is reported and left out. Returns the cores that came
 * online. */
static unsigned collect_started(void) {
  unsigned online = 0;
  for (unsigned i = start.first; i < start.first + start.count; i++) {
    struct smp_ap_slot *slot = &smp_ap_boot.slots[i];
    struct percpu *pc = &percpu[slot->index];
    uint64_t deadline = start.sent_ns + START_TIMEOUT_NS;
    while (!slot_claimed(i) && time_ns() < deadline) plat_cpu_relax();
    uint32_t expected = pc->apic_id;
    /* Unclaimed: nobody may take the slot any more (a late core parks). */
    if (__atomic_compare_exchange_n(&slot->target_apic_id, &expected, AP_BOOT_NOBODY, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      log_error("core %u (APIC ID %u) did not answer INIT-SIPI-SIPI within %llu ms, left out",
                slot->index, pc->apic_id, (unsigned long long)(START_TIMEOUT_NS / 1000000));
      pc->present = false;
      continue;
    }
    /* Claimed: the core runs on its stack; wait for its set-up. */
    uint64_t claimed_ns = time_ns();
    while (!__atomic_load_n(&pc->online, __ATOMIC_ACQUIRE) &&
           time_ns() - claimed_ns < INIT_TIMEOUT_NS)
      plat_cpu_relax();
    if (!__atomic_load_n(&pc->online, __ATOMIC_ACQUIRE)) {
      /* It runs on the stack given to this index: never reuse it. */
      log_error("core %u (APIC ID %u) started but did not finish its set-up within %llu ms, "
                "left out", slot->index, pc->apic_id,
                (unsigned long long)(INIT_TIMEOUT_NS / 1000000));
      continue;
    }
    log_debug("core %u (APIC ID %u) online", slot->index, pc->apic_id);
    online++;
  }
  /* Indices of cores that never answered are free again at the end. */
  while (core_limit > 1 && !percpu[core_limit - 1].present) core_limit--;
  start.first += start.count;
  start.count = 0;
  return online;
}

static bool start_pending(void) { return start.count != 0; }

int smp_start_core(uint32_t apic_id, uint32_t acpi_uid) {
  if (!trampoline) return -ENOMEM;
  if (start_pending()) return -EBUSY;
  if (start.first == CPU_MAX) start.first = 0; /* every slot was used once: all are done */
  int index = prepare_core(apic_id, acpi_uid, core_limit);
  if (index < 0) return index;
  send_start_ipis();
  return collect_started() ? index : -ETIMEDOUT;
}

static void tlb_handler(void *ctx) {
  (void)ctx;
  flush_tlb();
  __atomic_fetch_add(&percpu_this()->tlb_flushes, 1, __ATOMIC_RELEASE);
}

static struct spinlock tlb_lock = SPINLOCK_INIT;

void smp_tlb_shootdown(void) {
  /* The caller's page-table stores before the reads of who is online
   * (smp_ap_main orders the other side). */
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
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
    return 0;
  }
  unsigned next = 1;
  for (unsigned i = 0; i < a->madt.cpu_count; i++) {
    const struct acpi_madt_cpu *c = &a->madt.cpus[i];
    if (!c->enabled) continue;
    enabled_processors++;
    if (c->apic_id == percpu[0].apic_id) {
      percpu[0].acpi_uid = c->uid;
      continue;
    }
    if (!trampoline) {
      log_error("no trampoline memory: the other cores are not started");
      break;
    }
    if (prepare_core(c->apic_id, c->uid, next) >= 0) next++;
  }
  send_start_ipis();
  return (int)start.count;
}

int smp_wait_started(void) {
  collect_started();
  log_info("%u of %u enabled processors online; plat_wait sleeps with %s", smp_core_count(),
           enabled_processors ? enabled_processors : 1,
           smp_wait_mode() == SMP_WAIT_MWAIT ? "MWAIT" : "HLT");
  return (int)smp_core_count();
}
