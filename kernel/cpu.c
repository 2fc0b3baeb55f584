/* cpu.c - GDT, TSS, IDT and per-core control registers (see cpu.h). */
#include "kernel/cpu.h"

#include <stdio.h>
#include <string.h>

#include "kernel/kstack.h"
#include "kernel/pt.h"
#include "lib/plat.h"

#define LOG_TAG "cpu"

struct cpu_core cpu_cores[CPU_MAX];

/* ---- GDT (SDM vol. 3A, 3.4.5 "Segment Descriptors", 8.2.3 "TSS
 * Descriptor in 64-bit mode") -------------------------------------------- */
#define GDT_ENTRIES (GDT_TSS_FIRST / 8 + 2 * CPU_MAX)
/* 64-bit code: present, DPL 0, code, readable, L=1. Data: present, writable. */
#define DESC_KERNEL_CODE   0x00af9a000000ffffull
#define DESC_KERNEL_DATA   0x00cf92000000ffffull
#define TSS_TYPE_AVAILABLE 0x9ull
#define DESC_PRESENT       (1ull << 47)

static uint64_t gdt[GDT_ENTRIES] __attribute__((aligned(16)));

struct descriptor_pointer {
  uint16_t limit;
  uint64_t base;
} __attribute__((packed));

static void set_tss_descriptor(unsigned index) {
  uint64_t base = (uint64_t)(uintptr_t)&cpu_cores[index].tss;
  uint64_t limit = sizeof(struct tss) - 1;
  uint64_t low = (limit & 0xffff) | (base & 0xffffff) << 16 | TSS_TYPE_AVAILABLE << 40 |
                 DESC_PRESENT | ((limit >> 16) & 0xf) << 48 | ((base >> 24) & 0xff) << 56;
  unsigned slot = GDT_TSS_FIRST / 8 + 2 * index;
  gdt[slot] = low;
  gdt[slot + 1] = base >> 32;
}

/* ---- IDT (SDM vol. 3A, 6.14.1 "64-Bit Mode IDT", Figure 6-8) ------------ */
struct idt_gate {
  uint16_t offset_low;
  uint16_t selector;
  uint8_t ist;
  uint8_t type_attr; /* 0x8e: present, DPL 0, 64-bit interrupt gate */
  uint16_t offset_mid;
  uint32_t offset_high;
  uint32_t reserved;
} __attribute__((packed));
#define GATE_INTERRUPT 0x8e

static struct idt_gate idt[256] __attribute__((aligned(16)));

/* kernel/trap_entry.S: 256 stubs of TRAP_STUB_SIZE bytes each. */
extern const char trap_stubs[] __attribute__((visibility("hidden")));
#define TRAP_STUB_SIZE 16

static void set_gate(unsigned vector, unsigned ist) {
  uint64_t addr = (uint64_t)(uintptr_t)(trap_stubs + vector * TRAP_STUB_SIZE);
  idt[vector] = (struct idt_gate){.offset_low = addr & 0xffff,
                                  .selector = GDT_KERNEL_CODE,
                                  .ist = (uint8_t)ist,
                                  .type_attr = GATE_INTERRUPT,
                                  .offset_mid = (addr >> 16) & 0xffff,
                                  .offset_high = (uint32_t)(addr >> 32)};
}

static void load_gdt_and_segments(void) {
  struct descriptor_pointer p = {sizeof gdt - 1, (uint64_t)(uintptr_t)gdt};
  /* Reload CS with a far return, DS/ES/SS with the data selector. FS and
   * GS are left alone: loading them would reset the bases that per-core
   * data may use (SDM vol. 3A, 3.4.4 "Segment Loading Instructions in
   * IA-32e Mode"). */
  __asm__ volatile(
      "lgdt %0\n\t"
      "pushq %1\n\t"
      "leaq 1f(%%rip), %%rax\n\t"
      "pushq %%rax\n\t"
      "lretq\n"
      "1:\n\t"
      "movw %w2, %%ds\n\t"
      "movw %w2, %%es\n\t"
      "movw %w2, %%ss\n\t"
      :
      : "m"(p), "i"(GDT_KERNEL_CODE), "r"(GDT_KERNEL_DATA)
      : "rax", "memory");
}

static void load_idt(void) {
  struct descriptor_pointer p = {sizeof idt - 1, (uint64_t)(uintptr_t)idt};
  __asm__ volatile("lidt %0" ::"m"(p));
}

void cpu_init_boot(void) {
  gdt[0] = 0;
  gdt[GDT_KERNEL_CODE / 8] = DESC_KERNEL_CODE;
  gdt[GDT_KERNEL_DATA / 8] = DESC_KERNEL_DATA;
  /* No IST yet: the boot core's IST stacks need the frame allocator;
   * cpu_init_core(0) switches the three gates over. */
  for (unsigned v = 0; v < 256; v++) set_gate(v, 0);
  load_gdt_and_segments();
  load_idt();
}

/* SSE for compiled code (SDM vol. 3A, 13.1.3 "Initialization of the SSE
 * Extensions"): CR0.EM = 0, CR0.MP = 1, CR4.OSFXSR and OSXMMEXCPT; the
 * stubs save the state with FXSAVE. CR0.NE: x87 errors as #MF. CR0.WP:
 * ring 0 honours read-only pages. EFER.NXE: the map uses NX. */
static void enable_features(void) {
  write_cr0((read_cr0() & ~(CR0_EM | CR0_TS)) | CR0_MP | CR0_NE | CR0_WP);
  write_cr4(read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT);
  wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_NXE);
  /* The same PAT on every core (SDM vol. 3A, 11.12.4 "Programming the PAT"). */
  wrmsr(MSR_PAT, PT_PAT_MSR_VALUE);
  __asm__ volatile("fninit");
  uint32_t mxcsr = 0x1f80; /* all SIMD exceptions masked, round to nearest */
  __asm__ volatile("ldmxcsr %0" ::"m"(mxcsr));
}

int cpu_init_core(unsigned index) {
  if (index >= CPU_MAX) {
    log_error("core index %u beyond CPU_MAX %d", index, CPU_MAX);
    return -1;
  }
  struct cpu_core *core = &cpu_cores[index];
  static const char *const ist_names[IST_COUNT] = {"double fault", "NMI", "machine check"};
  memset(&core->tss, 0, sizeof core->tss);
  for (int i = 0; i < IST_COUNT; i++) {
    snprintf(core->stack_names[i], sizeof core->stack_names[i], "core %u %s", index, ist_names[i]);
    uint64_t top = kstack_alloc(IST_STACK_SIZE, core->stack_names[i]);
    if (!top) return -1;
    core->ist_stack_base[i] = top - IST_STACK_SIZE;
    core->tss.ist[i] = top; /* tss.ist[0] is IST1 */
  }
  core->tss.iomap_base = sizeof(struct tss); /* no I/O permission bitmap */
  set_tss_descriptor(index);

  enable_features();
  load_gdt_and_segments();
  uint16_t tss_selector = (uint16_t)(GDT_TSS_FIRST + 16 * index);
  __asm__ volatile("ltr %0" ::"r"(tss_selector));
  if (index == 0) {
    set_gate(VEC_DOUBLE_FAULT, IST_DOUBLE_FAULT);
    set_gate(VEC_NMI, IST_NMI);
    set_gate(VEC_MACHINE_CHECK, IST_MACHINE_CHECK);
  }
  load_idt();
  core->online = true;
  return 0;
}

bool cpu_under_hypervisor(void) {
  uint32_t r[4];
  cpuid(1, 0, r);
  return r[2] & (1u << 31); /* CPUID.01H:ECX[31], reserved for hypervisor use */
}

struct cpu_id cpu_identify(void) {
  uint32_t r[4];
  char vendor[13];
  cpuid(0, 0, r);
  memcpy(vendor, &r[1], 4); /* EBX, EDX, ECX spell the vendor string */
  memcpy(vendor + 4, &r[3], 4);
  memcpy(vendor + 8, &r[2], 4);
  vendor[12] = '\0';
  struct cpu_id id = {.vendor = strcmp(vendor, "AuthenticAMD") == 0   ? CPU_VENDOR_AMD
                                : strcmp(vendor, "GenuineIntel") == 0 ? CPU_VENDOR_INTEL
                                : strcmp(vendor, "HygonGenuine") == 0 ? CPU_VENDOR_HYGON
                                                                      : CPU_VENDOR_OTHER};
  cpuid(1, 0, r);
  unsigned base_family = (r[0] >> 8) & 0xf, base_model = (r[0] >> 4) & 0xf;
  bool extended_model = base_family == 0xf || (id.vendor == CPU_VENDOR_INTEL && base_family == 6);
  id.family = base_family + (base_family == 0xf ? (r[0] >> 20) & 0xff : 0);
  id.model = base_model | (extended_model ? ((r[0] >> 16) & 0xf) << 4 : 0);
  return id;
}
