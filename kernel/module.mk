# kernel/: image-only sources (KERNEL_SRCS) and the portable ones that the
# host unit tests build too (KERNEL_PORTABLE_SRCS).
KERNEL_SRCS += kernel/main.c kernel/cpu.c kernel/serial.c kernel/console.c kernel/log.c \
               kernel/time.c kernel/exit.c kernel/frames.c kernel/heap.c kernel/files.c \
               kernel/boot_options.c kernel/libc_glue.c kernel/trap_entry.S kernel/traps.c \
               kernel/irq.c kernel/backtrace.c kernel/kstack.c kernel/vm.c kernel/dma.c kernel/power.c \
               kernel/kmem.c kernel/libc_locks.c kernel/libc_reent.c kernel/protected_heap.c \
               kernel/thread.c kernel/thread_switch.S kernel/pthread.c kernel/c11_threads.c \
               kernel/code.c
KERNEL_PORTABLE_SRCS += kernel/frame_pool.c kernel/bootfs.c kernel/pt.c kernel/ksyms.c
# kernel-platform: ACPI, PCI, interrupts (vectors, MSI), time, SMP.
# (kernel/time.c and kernel/irq.c, listed above, are kernel-platform's too.)
KERNEL_SRCS += kernel/acpi_init.c kernel/acpi_pm_timer.c kernel/hpet.c kernel/lapic.c \
               kernel/ioapic.c kernel/pci_init.c kernel/smp.c kernel/smp_trampoline.S \
               kernel/smp_plat.c
KERNEL_PORTABLE_SRCS += kernel/acpi.c kernel/acpi_madt.c kernel/acpi_tables.c kernel/acpi_fadt.c \
                        kernel/pci.c kernel/pci_bar.c kernel/pci_driver.c \
                        kernel/irq_vector.c kernel/msi.c kernel/tsc.c
# The ACPI parsers' fuzz target (tests/fuzz/fuzz_acpi.c, mk/fuzz.mk).
FUZZ_SRCS_fuzz_acpi  := kernel/acpi.c kernel/acpi_madt.c kernel/acpi_tables.c kernel/acpi_fadt.c \
                        tests/fuzz/fuzz_plat.c
FUZZ_SEEDS_fuzz_acpi := $(wildcard tests/data/acpi/qemu72_q35/*.bin)
