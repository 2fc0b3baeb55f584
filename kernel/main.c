/*
 * main.c - the kernel's bring-up, top to bottom, then the application.
 *
 * kernel_start() is entered once from boot/efi_main.c, on the boot stack,
 * with the firmware gone and interrupts off. Each step logs its time since
 * efi_main (the log prefix).
 *
 * The GPU is not brought up here: pci_probe_drivers() only lets the amdgpu
 * driver claim its PCI function (drivers/amdgpu/amdgpu_probe_efi.c). The
 * GPU's bring-up (PSP, firmware, GMC, MEC) runs in the application's first
 * hsa_init (hsa/runtime.c runtime_start -> gpu_driver_start), so that a
 * program that never uses the GPU does not pay for it, and boot to main()
 * stays short.
 */
#include <stdio.h>
#include <stdlib.h>

#include "boot/boot_info.h"
#include "kernel/acpi.h"
#include "kernel/acpi_pm_timer.h"
#include "kernel/boot_options.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/exit.h"
#include "kernel/files.h"
#include "kernel/frames.h"
#include "kernel/heap.h"
#include "kernel/hpet.h"
#include "kernel/irq.h"
#include "kernel/kernel.h"
#include "kernel/kstack.h"
#include "kernel/lapic.h"
#include "kernel/libc_reent.h"
#include "kernel/log.h"
#include "kernel/pci.h"
#include "kernel/smp.h"
#include "kernel/time.h"
#include "kernel/vm.h"
#include "lib/plat.h"

#define LOG_TAG "kernel"

int main(int argc, char **argv);     /* the application's */
extern const char kernel_app_name[]; /* generated per image by mk/image.mk */

static const struct boot_info *boot_info;
const struct boot_info *kernel_boot_info(void) { return boot_info; }

const char *plat_name(void) { return "efi"; }

static uint64_t tsc_to_us(uint64_t ticks) { return ticks * 1000000 / time_tsc_hz(); }

/* The stages of efi_main, with their times since its start. */
static void log_boot_stages(const struct boot_info *info) {
  for (uint32_t i = 0; i < info->stage_count && i < BOOT_STAGES_MAX; i++) {
    uint64_t us = tsc_to_us(info->stages[i].tsc - info->entry_tsc);
    log_info("boot: %-34s at %4llu.%03llu ms", info->stages[i].name,
             (unsigned long long)(us / 1000), (unsigned long long)(us % 1000));
  }
  log_info(
      "kernel entered: TSC %llu MHz (boot estimate), %u ExitBootServices call(s), "
      "command line from %s",
      (unsigned long long)(info->tsc_hz / 1000000), info->exit_boot_attempts, info->cmdline_source);
  const struct boot_framebuffer *fb = &info->framebuffer;
  if (fb->base)
    log_info("framebuffer %ux%u (%u pixels per line) at 0x%llx", fb->width, fb->height,
             fb->pixels_per_line, (unsigned long long)fb->base);
}

/* The kernel's own steps: the TSC at the end of each, logged in one line
 * once the TSC is calibrated (each step's time, then main()'s start). */
#define KERNEL_STEPS_MAX 12
static struct kernel_step {
  const char *name;
  uint64_t tsc;
} steps[KERNEL_STEPS_MAX];
static unsigned step_count;

static void step_done(const char *name) {
  if (step_count < KERNEL_STEPS_MAX) steps[step_count++] = (struct kernel_step){name, rdtsc()};
}

static void log_kernel_steps(const struct boot_info *info) {
  char line[400];
  size_t n = 0;
  uint64_t prev = info->stage_count ? info->stages[info->stage_count - 1].tsc : info->entry_tsc;
  for (unsigned i = 0; i < step_count && n < sizeof line; i++) {
    uint64_t us = tsc_to_us(steps[i].tsc - prev);
    n += (size_t)snprintf(line + n, sizeof line - n, "%s%s %llu.%01llu", i ? ", " : "",
                          steps[i].name, (unsigned long long)(us / 1000),
                          (unsigned long long)(us / 100 % 10));
    prev = steps[i].tsc;
  }
  uint64_t total = tsc_to_us(rdtsc() - info->entry_tsc);
  log_info("boot: kernel steps (ms): %s; main() at %llu.%03llu ms", line,
           (unsigned long long)(total / 1000), (unsigned long long)(total % 1000));
}

static int run_application(void) {
  int arg_count;
  char **args = boot_options_app_args(&arg_count);
  static char *argv[1 + 64 + 1];
  argv[0] = (char *)kernel_app_name;
  for (int i = 0; i < arg_count; i++) argv[1 + i] = args[i];
  argv[1 + arg_count] = NULL;
  log_info("calling %s's main() with %d argument(s)", kernel_app_name, arg_count);
  return main(1 + arg_count, argv);
}

void kernel_start(struct boot_info *info) {
  boot_info = info;
  time_init_boot(info); /* log time stamps count from efi_main */
  cpu_init_boot();      /* our GDT and IDT: exceptions are reported from here on */
  console_init();       /* COM1 */
  if (info->magic != BOOT_INFO_MAGIC) panic("boot info has a bad magic number");
  if (boot_options_init(info->cmdline) != 0 || log_init_from_options() != 0)
    kernel_exit(EXIT_STATUS_BAD_COMMAND_LINE);

  frames_init(info);        /* free RAM from the UEFI map */
  smp_reserve_trampoline(); /* low pages for starting the other cores, before anyone takes them */
  heap_init(info);          /* malloc works from here on */
  kstack_register(info->stack.base, info->stack.size, "boot");
  if (cpu_init_core(0) != 0) /* TSS with IST stacks, SSE, NX, PAT */
    panic("cannot set up the boot core");
  step_done("boot core");
  vm_init(info);                      /* our page tables: W^X, guard pages, MMIO uncached */
  frames_reclaim_boot_services(info); /* nothing of the firmware is in use any more */
  step_done("memory");
  if (files_init(info) != 0) panic("the boot file system is malformed");
  acpi_init(info->acpi_rsdp); /* the firmware's tables, checked and listed */
  step_done("acpi");
  hpet_init();                /* reference counters for the TSC ... */
  acpi_pm_timer_init();
  time_calibration_begin(); /* ... measured against them over the next steps */
  if (irq_init() != 0)      /* local APIC (its timer measured likewise), I/O APICs, interrupts on */
    panic("cannot set up the interrupt controllers");
  step_done("irq");
  pci_init();               /* every PCI function of the MCFG's ECAM windows */
  step_done("pci");
  smp_init();               /* the other cores start coming up, all at once ... */
  step_done("smp start");
  pci_probe_drivers();      /* drivers declared with PCI_DRIVER() */
  step_done("drivers");
  time_calibrate();         /* the TSC's frequency: CPUID's, or measured since begin */
  lapic_timer_calibrate();  /* and the local APIC timer's against it */
  step_done("calibration");
  smp_wait_started();       /* ... and are online, parked until given work */
  step_done("smp wait");
  log_boot_stages(info);    /* efi_main's stages, timed with the calibrated TSC */
  log_info("kernel ready: %llu MiB free", (unsigned long long)(frames_free_bytes() >> 20));
  log_kernel_steps(info);
  if (plat_option("help")) {
    boot_options_print_help();
    kernel_exit(0);
  }
  libc_reent_start_core(); /* this core's stdout/stderr line buffered (kernel/libc_reent.c) */
  exit(run_application()); /* flushes stdio, then kernel_exit */
}
