/*
 * backtrace.h - frame-pointer backtraces with symbol names.
 *
 * The image carries its own symbol table (section .ksyms, generated from
 * `nm` of a first link by kernel/gen_ksyms.py, decoded by kernel/ksyms.c;
 * mk/image.mk links twice).
 * The walk follows the RBP chain (everything is built with
 * -fno-omit-frame-pointer) and stops at a frame outside the known stacks,
 * so a corrupted chain ends the trace instead of faulting again.
 */
#ifndef KERNEL_BACKTRACE_H
#define KERNEL_BACKTRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/ksyms.h"

/* Writes the name of the function containing `addr` and sets the offset
 * into it; false (and an empty name) for an address outside the text. */
bool ksym_lookup(uint64_t addr, char name[KSYM_NAME_MAX], uint64_t *offset);

/* Prints "  #0 0x... name+0x.." lines: `rip` first, then the callers found
 * from the frame at `rbp`. */
void backtrace_print(uint64_t rip, uint64_t rbp);
/* The same from the caller of this function. */
void backtrace_print_here(void);

#endif
