/*
 * executable_object.h - the executable object that hsa/executable.c
 * (readers, executables, loading) and hsa/executable_symbol.c (its symbols
 * and the symbol queries) share; the loader sees only
 * executable_internal.h.
 */
#ifndef HSA_EXECUTABLE_OBJECT_H
#define HSA_EXECUTABLE_OBJECT_H

#include <stdbool.h>

#include <hsa/hsa.h>

#include "hsa/executable_internal.h"
#include "lib/lock.h"

struct symbol;        /* executable_symbol.c */
struct loaded_object; /* executable.c */

struct executable {
  hsa_profile_t profile;
  hsa_default_float_rounding_mode_t rounding;
  hsa_executable_state_t state;
  struct lock lock;
  struct symbol *symbols; /* newest first */
  struct loaded_object *loaded;
};

/* ---- executable.c ---- */

/* The live executable a handle names, or NULL. */
struct executable *executable_from_handle(hsa_executable_t h);

/* ---- executable_symbol.c ---- */

/* Adds a symbol of `agent` (NULL: a program symbol); the caller holds
 * e->lock. HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED if `agent` has one of
 * that name already, HSA_STATUS_ERROR_OUT_OF_RESOURCES when memory runs
 * out. is_definition: defined by a code object (not by the program). */
hsa_status_t executable_add_symbol_locked(struct executable *e, const struct agent *agent,
                                          const struct symbol_desc *desc, bool is_definition);
/* Frees every symbol of e (its destruction). */
void executable_drop_symbols(struct executable *e);
/* Frees the set of live symbols (hsa_shut_down, after every executable). */
void executable_symbols_fini(void);

#endif
