/*
 * x86_dso.h - an x86-64 ELF shared object loaded several times: the CPU
 * agents' part of a tools/hsacc file (cl/cpu_abi.h), one instance per core.
 *
 * Every instance has its own copy of every segment. Relocations (System V
 * AMD64 psABI, 4.4 "Relocation"): R_X86_64_RELATIVE (B + A) against the
 * instance itself; R_X86_64_64 (S + A), _GLOB_DAT and _JUMP_SLOT (S)
 * against a symbol: a function the object defines is the instance's own,
 * data it defines with default visibility (program-scope variables) is the
 * first instance's, shared by all; an undefined symbol asks `resolve`
 * (weak ones may stay 0).
 */
#ifndef HSA_LOADER_X86_DSO_H
#define HSA_LOADER_X86_DSO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hsa/loader/loader.h"

struct x86_dso;

/* Address of an undefined symbol, false if there is none. */
typedef bool (*x86_dso_resolve_fn)(void *ctx, const char *name, uint64_t *address);

/* Checks `size` bytes at `data` (every header, table and relocation) and
 * loads `instances` copies. LOADER_ERROR_INVALID_CODE_OBJECT for a
 * malformed or unsupported object, LOADER_ERROR_INCOMPATIBLE_ISA for an ELF
 * of another machine (a GPU code object), LOADER_ERROR_VARIABLE_UNDEFINED
 * for an import `resolve` does not know (the message names it),
 * LOADER_ERROR_OUT_OF_MEMORY; one line logged, copied to `why`. */
enum loader_status x86_dso_load(const void *data, size_t size, const char *source,
                                uint32_t instances, x86_dso_resolve_fn resolve, void *resolve_ctx,
                                struct x86_dso **out, char *why, size_t why_size);

/* The address in `instance` of defined dynamic symbol `name`, 0 if none. */
uint64_t x86_dso_symbol(const struct x86_dso *dso, uint32_t instance, const char *name);

/* Calls fn for every defined global data object (STT_OBJECT) of the
 * object, with its address in instance 0 and its size. */
void x86_dso_for_each_object(const struct x86_dso *dso,
                             void (*fn)(void *ctx, const char *name, uint64_t address,
                                        uint64_t size, bool writable),
                             void *ctx);

void x86_dso_unload(struct x86_dso *dso);

#endif
