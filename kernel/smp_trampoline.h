/*
 * smp_trampoline.h - what the boot core leaves for an application processor
 * starting in kernel/smp_trampoline.S, shared by C and assembly.
 */
#ifndef KERNEL_SMP_TRAMPOLINE_H
#define KERNEL_SMP_TRAMPOLINE_H

/* Offsets in struct smp_ap_boot and struct smp_ap_slot. */
#define AP_BOOT_CR3        0  /* the kernel's page tables */
#define AP_BOOT_SLOT_COUNT 8  /* slots in use */
#define AP_BOOT_SLOTS      16 /* the slots */
#define AP_SLOT_TARGET     0  /* the APIC ID of the core that may take this slot */
#define AP_SLOT_INDEX      4  /* its core index */
#define AP_SLOT_STACK      8  /* the top of its stack */
#define AP_SLOT_SIZE       16

/* AP_SLOT_TARGET values besides an APIC ID: taken (the core is on its
 * way), and nobody (late or stray cores park themselves). */
#define AP_BOOT_CLAIMED 0xfffffffe
#define AP_BOOT_NOBODY  0xffffffff

/* Selectors of the trampoline's own GDT (smp_trampoline.S). */
#define TRAMP_CODE32 0x08
#define TRAMP_DATA   0x10
#define TRAMP_CODE64 0x18

#ifndef __ASSEMBLER__
#include <stddef.h>
#include <stdint.h>

#include "kernel/cpu.h"

/* One slot per core being started: several start at once, each finds its
 * own by its APIC ID. */
struct smp_ap_slot {
  uint32_t target_apic_id;
  uint32_t index;
  uint64_t stack_top;
};
struct smp_ap_boot {
  uint64_t cr3;
  uint32_t slot_count;
  uint32_t reserved;
  struct smp_ap_slot slots[CPU_MAX];
};
_Static_assert(offsetof(struct smp_ap_boot, cr3) == AP_BOOT_CR3, "layout");
_Static_assert(offsetof(struct smp_ap_boot, slot_count) == AP_BOOT_SLOT_COUNT, "layout");
_Static_assert(offsetof(struct smp_ap_boot, slots) == AP_BOOT_SLOTS, "layout");
_Static_assert(offsetof(struct smp_ap_slot, target_apic_id) == AP_SLOT_TARGET, "layout");
_Static_assert(offsetof(struct smp_ap_slot, index) == AP_SLOT_INDEX, "layout");
_Static_assert(offsetof(struct smp_ap_slot, stack_top) == AP_SLOT_STACK, "layout");
_Static_assert(sizeof(struct smp_ap_slot) == AP_SLOT_SIZE, "layout");

extern struct smp_ap_boot smp_ap_boot;

/* The real-mode code copied below 1 MiB, and the fields the boot core
 * patches in the copy (32-bit physical addresses). */
extern const char smp_trampoline_start[], smp_trampoline_end[];
extern const char tramp_gdt[], tramp_gdt_pointer[], tramp_protected[];
extern const char tramp_far32[], tramp_far64[], tramp_cr3[];
/* Where the trampoline enters the kernel, in 64-bit mode. */
extern const char smp_ap_entry64[];
/* C entry of an application processor. */
void smp_ap_main(unsigned index) __attribute__((noreturn));
#endif

#endif
