/*
 * bundle.h - clang offload bundles: the container HIP and OpenMP put device
 * code objects in, one entry per target.
 *
 * Uncompressed layout (clang "Clang Offload Bundler" documentation, section
 * "Bundled Binary File Layout"): the 24-byte magic "__CLANG_OFFLOAD_BUNDLE__",
 * a 64-bit entry count, then per entry a 64-bit offset, 64-bit size, 64-bit
 * ID length and the ID bytes; all little-endian, offsets from the start of
 * the bundle. An entry ID is "<offload kind>-<target triple>-<target ID>",
 * for example "hipv4-amdgcn-amd-amdhsa--gfx902:xnack-".
 */
#ifndef HSA_LOADER_BUNDLE_H
#define HSA_LOADER_BUNDLE_H

#include <stdbool.h>
#include <stddef.h>

#include "hsa/loader/loader.h"

/* True if the bytes start with the bundle magic. */
bool loader_bundle_is_bundle(const void *data, size_t size);

/* Picks the entry whose code object can run on `agent_isa_name` (a target
 * ID): among the compatible AMDGPU entries, a processor-specific one before a
 * generic one, and one that names its features before one that leaves them
 * as "any". On success *code / *code_size point into `data`.
 * LOADER_ERROR_INCOMPATIBLE_ISA when no entry fits (the message lists the
 * entries), LOADER_ERROR_INVALID_CODE_OBJECT for a malformed bundle. */
enum loader_status loader_bundle_select(const void *data, size_t size, const char *source,
                                        const char *agent_isa_name, const void **code,
                                        size_t *code_size, char *why, size_t why_size);

/* The CPU agents' entry of a tools/hsacc file: offload kind "host" (the
 * only kind clang-offload-bundler lets name an x86-64 target), the triple
 * x86_64-unknown-linux-gnu, no target ID. */
#define LOADER_BUNDLE_CPU_ENTRY "host-x86_64-unknown-linux-gnu"

/* Picks the entry whose ID is `entry_id` (a trailing "-" ignored on both).
 * LOADER_ERROR_INCOMPATIBLE_ISA when there is none (the message lists the
 * entries), LOADER_ERROR_INVALID_CODE_OBJECT for a malformed bundle. */
enum loader_status loader_bundle_select_id(const void *data, size_t size, const char *source,
                                           const char *entry_id, const void **code,
                                           size_t *code_size, char *why, size_t why_size);

#endif
