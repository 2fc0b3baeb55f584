/*
 * traps.c - CPU exceptions (vectors 0-31): one report, then the test
 * runner's hook (a test that faults is failed or, if it expected the
 * fault, passed, and the runner goes on) or the end of the run with
 * EXIT_STATUS_CPU_EXCEPTION.
 *
 * The report: vector and name, error code (decoded for #PF), RIP with its
 * symbol, CR2, the general registers, and a backtrace. A fault on a stack's
 * guard page is named a stack overflow (it arrives as a double fault: the
 * CPU cannot push the #PF frame on the full stack and switches to the
 * double-fault IST stack).
 */
#include "kernel/traps.h"

#include "kernel/backtrace.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/exit.h"
#include "kernel/kstack.h"

/* SDM vol. 3A, Table 6-1; AMD APM vol. 2, 8.2 for 29 and 30. */
static const char *const names[32] = {
    [0] = "#DE divide error",
    [1] = "#DB debug",
    [2] = "NMI",
    [3] = "#BP breakpoint",
    [4] = "#OF overflow",
    [5] = "#BR bound range",
    [6] = "#UD invalid opcode",
    [7] = "#NM device not available",
    [8] = "#DF double fault",
    [10] = "#TS invalid TSS",
    [11] = "#NP segment not present",
    [12] = "#SS stack fault",
    [13] = "#GP general protection",
    [14] = "#PF page fault",
    [16] = "#MF x87 error",
    [17] = "#AC alignment check",
    [18] = "#MC machine check",
    [19] = "#XM SIMD exception",
    [20] = "#VE virtualization",
    [21] = "#CP control protection",
    [29] = "#VC VMM communication",
    [30] = "#SX security exception",
};

/* #PF error code bits (SDM vol. 3A, 4.7, Figure 4-12). */
#define PF_PRESENT  (1u << 0)
#define PF_WRITE    (1u << 1)
#define PF_RESERVED (1u << 3)
#define PF_FETCH    (1u << 4)

static void (*test_hook)(int vector);
static unsigned test_core; /* the core that runs the tests */

void traps_set_test_hook(void (*hook)(int vector)) {
  test_core = cpu_index();
  test_hook = hook;
}

static void describe_page_fault(uint64_t error, uint64_t cr2) {
  const char *what =
      error & PF_RESERVED ? "reserved bit set in a page-table entry"
      : error & PF_FETCH
          ? (error & PF_PRESENT ? "execute in no-execute memory" : "execute in unmapped memory")
      : error & PF_WRITE
          ? (error & PF_PRESENT ? "write to read-only memory" : "write to unmapped memory")
          : "read of unmapped memory";
  console_printf("  %s at 0x%016llx\n", what, (unsigned long long)cr2);
}

static void describe_stack_overflow(uint64_t cr2, uint64_t rsp) {
  const struct kstack *s = kstack_guard_at(cr2);
  if (!s) s = kstack_guard_at(rsp);
  if (s)
    console_printf("  kernel stack overflow: the guard page of stack \"%s\" was hit\n", s->name);
}

static void print_registers(const struct trap_frame *f, uint64_t cr2) {
  console_printf("  rip %016llx  rsp %016llx  rflags %016llx  cr2 %016llx\n",
                 (unsigned long long)f->rip, (unsigned long long)f->rsp,
                 (unsigned long long)f->rflags, (unsigned long long)cr2);
  console_printf("  rax %016llx  rbx %016llx  rcx %016llx  rdx %016llx\n",
                 (unsigned long long)f->rax, (unsigned long long)f->rbx, (unsigned long long)f->rcx,
                 (unsigned long long)f->rdx);
  console_printf("  rsi %016llx  rdi %016llx  rbp %016llx  r8  %016llx\n",
                 (unsigned long long)f->rsi, (unsigned long long)f->rdi, (unsigned long long)f->rbp,
                 (unsigned long long)f->r8);
  console_printf("  r9  %016llx  r10 %016llx  r11 %016llx  r12 %016llx\n",
                 (unsigned long long)f->r9, (unsigned long long)f->r10, (unsigned long long)f->r11,
                 (unsigned long long)f->r12);
  console_printf("  r13 %016llx  r14 %016llx  r15 %016llx  cs %llx ss %llx\n",
                 (unsigned long long)f->r13, (unsigned long long)f->r14, (unsigned long long)f->r15,
                 (unsigned long long)f->cs, (unsigned long long)f->ss);
}

void trap_exception(struct trap_frame *f) {
  struct cpu_core *core = &cpu_cores[cpu_index()];
  uint64_t cr2 = read_cr2();
  unsigned vector = (unsigned)f->vector;
  if (++core->exception_depth > 2) {
    /* Faulting while reporting a fault while reporting a fault: stop. */
    console_force_unlocked();
    console_printf("CPU exception %u while reporting two others on core %u: giving up\n", vector,
                   cpu_index());
    kernel_exit(EXIT_STATUS_CPU_EXCEPTION);
  }
  uint64_t sym_off = 0;
  char sym[KSYM_NAME_MAX];
  ksym_lookup(f->rip, sym, &sym_off);
  console_printf("CPU EXCEPTION %u (%s) on core %u, error code 0x%llx, at %s+0x%llx\n", vector,
                 names[vector] ? names[vector] : "reserved", cpu_index(),
                 (unsigned long long)f->error_code, sym[0] ? sym : "?", (unsigned long long)sym_off);
  if (vector == VEC_PAGE_FAULT) describe_page_fault(f->error_code, cr2);
  if (vector == VEC_PAGE_FAULT || vector == VEC_DOUBLE_FAULT) describe_stack_overflow(cr2, f->rsp);
  print_registers(f, cr2);
  console_printf("  backtrace:\n");
  backtrace_print(f->rip, f->rbp);
  core->exception_depth--;

  /* Only the core running the tests may go back into the runner (its
   * longjmp target is on that core's stack); a fault elsewhere ends the run. */
  if (test_hook && core->exception_depth == 0 && cpu_index() == test_core) {
    /* The hook leaves through longjmp into the test runner when a test is
     * running; that code ran with the interrupt flag this frame had. */
    if (f->rflags & RFLAGS_IF_BIT) __asm__ volatile("sti");
    test_hook((int)vector);
    __asm__ volatile("cli");
  }
  kernel_exit(EXIT_STATUS_CPU_EXCEPTION);
}
