/*
 * cpu.h - the x86-64 core: segments (GDT, TSS with IST stacks), the IDT and
 * the trap frame that every interrupt and exception stub saves, control
 * registers and MSRs, and the per-core CPU structures.
 *
 * Bring-up: the boot core calls cpu_init_boot() once (builds the shared GDT
 * and IDT), then every core, the boot core included, calls
 * cpu_init_core(index) on itself: it loads the GDT, its own TSS and the IDT
 * and switches on what the kernel relies on (SSE, NX, write protection, the
 * PAT layout of kernel/vm.h). kernel-platform's SMP code calls it first
 * thing on each application processor.
 *
 * Exceptions 0-31 go to trap_exception() (kernel/traps.c): a report with
 * registers and backtrace, then the test runner or the end of the run.
 * Vectors 32-255 go to irq_dispatch() (kernel/irq.c).
 */
#ifndef KERNEL_CPU_H
#define KERNEL_CPU_H

#include <stdbool.h>
#include <stdint.h>

#define CPU_MAX 64 /* cores the kernel can run; the GDT has one TSS each */

/* GDT selectors (kernel/cpu.c). */
#define GDT_KERNEL_CODE 0x08
#define GDT_KERNEL_DATA 0x10
#define GDT_TSS_FIRST   0x18 /* core i's TSS at GDT_TSS_FIRST + 16 * i */

/* IST slots (Intel SDM vol. 3A, 6.14.5 "Interrupt Stack Table"): these
 * exceptions switch to a known-good stack, so that a kernel stack overflow
 * (#DF from a #PF that cannot push its frame) is still reported. */
#define IST_DOUBLE_FAULT  1
#define IST_NMI           2
#define IST_MACHINE_CHECK 3
#define IST_COUNT         3
#define IST_STACK_SIZE    (16 * 1024)

/* Exception vectors (Intel SDM vol. 3A, 6.15, Table 6-1). */
enum {
  VEC_DIVIDE = 0,
  VEC_DEBUG = 1,
  VEC_NMI = 2,
  VEC_BREAKPOINT = 3,
  VEC_OVERFLOW = 4,
  VEC_BOUND = 5,
  VEC_INVALID_OPCODE = 6,
  VEC_DEVICE_NA = 7,
  VEC_DOUBLE_FAULT = 8,
  VEC_INVALID_TSS = 10,
  VEC_SEGMENT_NP = 11,
  VEC_STACK_FAULT = 12,
  VEC_GP = 13,
  VEC_PAGE_FAULT = 14,
  VEC_X87 = 16,
  VEC_ALIGNMENT = 17,
  VEC_MACHINE_CHECK = 18,
  VEC_SIMD = 19,
  VEC_VIRTUALIZATION = 20,
  VEC_CONTROL_PROTECTION = 21,
  VEC_FIRST_IRQ = 32,
};

/* What the entry stubs (kernel/trap_entry.S) save, lowest address first.
 * The FPU/SSE state is saved too (FXSAVE, 512 bytes) at `fx`: interrupted
 * code may be in the middle of floating point work. */
struct trap_frame {
  uint8_t *fx; /* the FXSAVE area of this entry */
  uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
  uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
  uint64_t vector;
  uint64_t error_code; /* 0 for vectors without one */
  /* Pushed by the CPU (Intel SDM vol. 3A, 6.14.2, Figure 6-9). */
  uint64_t rip, cs, rflags, rsp, ss;
};

/* One core's CPU structures. */
struct tss {
  uint32_t reserved0;
  uint64_t rsp[3];
  uint64_t reserved1;
  uint64_t ist[7];
  uint64_t reserved2;
  uint16_t reserved3;
  uint16_t iomap_base;
} __attribute__((packed)); /* Intel SDM vol. 3A, 8.7, Figure 8-11 */

struct cpu_core {
  struct tss tss;
  uint64_t ist_stack_base[IST_COUNT];
  char stack_names[IST_COUNT][28];
  uint32_t exception_depth; /* > 0 while this core reports an exception */
  bool online;              /* cpu_init_core ran on it */
};
extern struct cpu_core cpu_cores[CPU_MAX];

/* Builds the GDT and IDT. Boot core, once, before anything can fault. */
void cpu_init_boot(void);

/* Loads GDT, this core's TSS (IST stacks) and IDT; enables SSE (FXSR), NX,
 * CR0.WP, the PAT layout; on the calling core. Core 0 is the boot core.
 * Returns 0, or -1 (logged) when the IST stacks cannot be allocated. */
int cpu_init_core(unsigned index);

/* The index of the calling core, from its task register (each core has its
 * own TSS selector): no memory access, usable anywhere. 0 before
 * cpu_init_core. */
static inline unsigned cpu_index(void) {
  uint16_t tr;
  __asm__ volatile("str %0" : "=r"(tr));
  if (tr < GDT_TSS_FIRST || (tr - GDT_TSS_FIRST) / 16 >= CPU_MAX) return 0;
  return (unsigned)(tr - GDT_TSS_FIRST) / 16;
}

/* Handlers of the stubs (kernel/traps.c, kernel/irq.c). */
void trap_exception(struct trap_frame *f);
void irq_dispatch(struct trap_frame *f);

/* ---- Registers (Intel SDM vol. 3A, 2.5 "Control Registers", vol. 4 MSRs) */
#define CR0_MP         (1ull << 1)
#define CR0_EM         (1ull << 2)
#define CR0_TS         (1ull << 3)
#define CR0_NE         (1ull << 5)
#define CR0_WP         (1ull << 16)
#define CR4_PGE        (1ull << 7)
#define CR4_OSFXSR     (1ull << 9)
#define CR4_OSXMMEXCPT (1ull << 10)
#define MSR_EFER       0xc0000080
#define EFER_NXE       (1ull << 11)
#define MSR_PAT        0x277
#define RFLAGS_IF_BIT  (1ull << 9)

static inline uint64_t rdmsr(uint32_t msr) {
  uint32_t lo, hi;
  __asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
  return (uint64_t)hi << 32 | lo;
}
static inline void wrmsr(uint32_t msr, uint64_t v) {
  __asm__ volatile("wrmsr" ::"c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)));
}
static inline uint64_t read_cr0(void) {
  uint64_t v;
  __asm__ volatile("mov %%cr0, %0" : "=r"(v));
  return v;
}
static inline uint64_t read_cr2(void) {
  uint64_t v;
  __asm__ volatile("mov %%cr2, %0" : "=r"(v));
  return v;
}
static inline uint64_t read_cr3(void) {
  uint64_t v;
  __asm__ volatile("mov %%cr3, %0" : "=r"(v));
  return v;
}
static inline uint64_t read_cr4(void) {
  uint64_t v;
  __asm__ volatile("mov %%cr4, %0" : "=r"(v));
  return v;
}
static inline void write_cr0(uint64_t v) { __asm__ volatile("mov %0, %%cr0" ::"r"(v) : "memory"); }
static inline void write_cr3(uint64_t v) { __asm__ volatile("mov %0, %%cr3" ::"r"(v) : "memory"); }
static inline void write_cr4(uint64_t v) { __asm__ volatile("mov %0, %%cr4" ::"r"(v) : "memory"); }
static inline uint64_t read_rflags(void) {
  uint64_t v;
  __asm__ volatile("pushfq; popq %0" : "=r"(v));
  return v;
}

static inline void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4]) {
  __asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(sub));
}
static inline uint64_t rdtsc(void) {
  uint32_t lo, hi;
  __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
  return (uint64_t)hi << 32 | lo;
}

/* Runs under a hypervisor (CPUID.1:ECX bit 31, "hypervisor present"). */
/* The vendor (CPUID 0) and the family and model with their extended
 * fields (CPUID 1 EAX: the extended family counts when the base family is
 * 0xF, the extended model then and for Intel's family 6; AMD64 APM vol. 3,
 * CPUID Fn0000_0001_EAX; Intel SDM vol. 2A, CPUID, "Version Information"). */
enum cpu_vendor { CPU_VENDOR_OTHER, CPU_VENDOR_AMD, CPU_VENDOR_INTEL, CPU_VENDOR_HYGON };
struct cpu_id {
  enum cpu_vendor vendor;
  unsigned family, model;
};
struct cpu_id cpu_identify(void);

bool cpu_under_hypervisor(void);

#endif
