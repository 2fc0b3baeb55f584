/* loader_test_util.h - what the loader tests share: reading corpus code
 * objects from the build folder, a host allocator for segments, and
 * patching fields of an ELF image in place to make it malformed. */
#ifndef TESTS_HOST_LOADER_TEST_UTIL_H
#define TESTS_HOST_LOADER_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "hsa/loader/loader.h"

#ifndef LOADER_TEST_KERNELS_DIR
#define LOADER_TEST_KERNELS_DIR "build/kernels" /* mk/kernels.mk sets the real one */
#endif
#define LOADER_TEST_AGENT_ISA "amdgcn-amd-amdhsa--gfx902:xnack-"

/* A whole file, malloc'ed; fails the test if it cannot be read. */
uint8_t *loader_test_read(const char *path, size_t *size);
/* <kernels dir>/gfx902/<file>.<opt>.v<cov>.co */
uint8_t *loader_test_read_corpus(const char *file, const char *opt, int cov, size_t *size);

/* Segment memory from the host heap (the single address space). */
extern const struct loader_memory_ops loader_test_memory;

/* Parse `image`, expecting `status`; returns the object (NULL unless OK) and
 * leaves the message in `why`. */
struct loader_code_object *loader_test_parse(const uint8_t *image, size_t size,
                                             enum loader_status status, char *why, size_t why_size);

/* Little-endian patching at a byte offset of an image. */
void put16(uint8_t *image, uint64_t at, uint16_t v);
void put32(uint8_t *image, uint64_t at, uint32_t v);
void put64(uint8_t *image, uint64_t at, uint64_t v);
uint64_t get64(const uint8_t *image, uint64_t at);
uint32_t get32(const uint8_t *image, uint64_t at);

/* File offset of the section header of the section named `name`, or of the
 * `nth` (0-based) program header of type `type`; fails the test if absent. */
uint64_t shdr_offset(const uint8_t *image, const char *name);
uint64_t phdr_offset(const uint8_t *image, uint32_t type, int nth);

#endif
