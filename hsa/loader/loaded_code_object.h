/*
 * loaded_code_object.h - the loader's side of executables: what
 * loader_load() (hsa/executable_internal.h) keeps for each code object it
 * placed, and the lookup of a loaded kernel by its kernel object (the
 * descriptor address an AQL packet carries).
 */
#ifndef HSA_LOADER_LOADED_CODE_OBJECT_H
#define HSA_LOADER_LOADED_CODE_OBJECT_H

#include <stdint.h>

#include "hsa/loader/loader.h"

/* Calls `fn` with the kernel whose descriptor is at `kernel_object` while
 * no executable can unload it; returns false (without calling) if no loaded
 * code object has such a kernel. */
bool loaded_kernel_with(uint64_t kernel_object,
                        void (*fn)(const struct loader_symbol *kernel, void *ctx), void *ctx);

#endif
