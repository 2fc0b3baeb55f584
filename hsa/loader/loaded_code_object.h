/*
 * loaded_code_object.h - the loader's side of executables: what
 * loader_load() (hsa/executable_internal.h) keeps for each code object it
 * placed, and the lookup of a loaded kernel by its kernel object (the
 * descriptor address an AQL packet carries).
 */
#ifndef HSA_LOADER_LOADED_CODE_OBJECT_H
#define HSA_LOADER_LOADED_CODE_OBJECT_H

#include <hsa/hsa.h>
#include <stdint.h>

#include "hsa/loader/loader.h"

/* A code object loaded into an executable; its address is the
 * hsa_loaded_code_object_t handle. */
struct loaded_code_object {
  struct loader_code_object *co;
  hsa_executable_t executable;
  hsa_agent_t agent; /* {0}: loaded for the program (no agent) */
  void *elf;         /* a copy of the code object's bytes (bundle entry) */
  size_t elf_size;
  struct loaded_code_object *next; /* newest first */
};

/* Calls fn on every loaded code object, newest first, under the loader's
 * lock (fn must not call into the runtime); stops when fn returns false. */
void loaded_code_objects_each(bool (*fn)(const struct loaded_code_object *lco, void *ctx), void *ctx);

/* Calls `fn` with the kernel whose descriptor is at `kernel_object` while
 * no executable can unload it; returns false (without calling) if no loaded
 * code object has such a kernel. */
bool loaded_kernel_with(uint64_t kernel_object,
                        void (*fn)(const struct loader_symbol *kernel, void *ctx), void *ctx);

#endif
