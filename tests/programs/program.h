/*
 * program.h - what every ROCr-style program in tests/programs/ shares: a
 * status check that names the failing call, and finding the code objects.
 *
 * The programs are built exactly as an application developer builds one:
 *   cc -Ihsa/include prog.c build/host/lib/libhsa-runtime64.a -lpthread -lm
 * (this header is found next to prog.c), and run on the host with the
 * folder of their code objects as argv[1]. In the boot image the test
 * runner calls each program's main with the folder the ESP carries them in.
 */
#ifndef TESTS_PROGRAMS_PROGRAM_H
#define TESTS_PROGRAMS_PROGRAM_H

#include <hsa/hsa.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                  \
  do {                                                                               \
    hsa_status_t status_ = (call);                                                   \
    if (status_ != HSA_STATUS_SUCCESS && status_ != HSA_STATUS_INFO_BREAK) {         \
      const char *msg_ = "?";                                                        \
      hsa_status_string(status_, &msg_);                                             \
      fprintf(stderr, "%s:%d: %s failed: 0x%x %s\n", __FILE__, __LINE__, #call,      \
              (unsigned)status_, msg_);                                              \
      exit(1);                                                                       \
    }                                                                                \
  } while (0)

/* Exits with a message unless `cond` holds. */
#define EXPECT(cond, ...)                                                \
  do {                                                                   \
    if (!(cond)) {                                                       \
      fprintf(stderr, "%s:%d: expected %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                      \
      fputc('\n', stderr);                                               \
      exit(1);                                                           \
    }                                                                    \
  } while (0)

/* The folder of the code objects: argv[1], else the image's \kernels. */
static inline const char *program_kernel_dir(int argc, char **argv) {
  return argc > 1 ? argv[1] : "/kernels";
}

/* The path of code object `name` in that folder. */
static inline const char *program_kernel_path(int argc, char **argv, const char *name) {
  static char path[512];
  snprintf(path, sizeof path, "%s/%s", program_kernel_dir(argc, argv), name);
  return path;
}

/* Reads a whole file into malloc'd memory, as programs load .hsaco files. */
static inline void *program_read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  EXPECT(f != NULL, "cannot open %s", path);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  EXPECT(n > 0, "%s is empty", path);
  void *buf = malloc((size_t)n);
  EXPECT(buf && fread(buf, 1, (size_t)n, f) == (size_t)n, "cannot read %s", path);
  fclose(f);
  *size = (size_t)n;
  return buf;
}

/* Writes the code object v5 hidden arguments a 1-D dispatch of `grid`
 * work-items in groups of `wg` needs, at `hidden` (they follow the explicit
 * arguments, 8-aligned): block counts, group sizes, remainders, grid
 * dimensions, the rest zero (LLVM AMDGPUUsage, "Code Object V5 Metadata",
 * hidden argument layout), as HIP's runtime and LLVM's offload plugin
 * write them for their kernels. */
static inline void program_fill_hidden_v5(uint8_t *hidden, uint32_t grid, uint16_t wg) {
  uint32_t blocks = (grid + wg - 1) / wg, one32 = 1;
  uint16_t one = 1, remainder = (uint16_t)(grid % wg), dims = 1;
  memset(hidden, 0, 80);
  memcpy(hidden + 0, &blocks, 4);
  memcpy(hidden + 4, &one32, 4);
  memcpy(hidden + 8, &one32, 4);
  memcpy(hidden + 12, &wg, 2);
  memcpy(hidden + 14, &one, 2);
  memcpy(hidden + 16, &one, 2);
  memcpy(hidden + 18, &remainder, 2);
  memcpy(hidden + 64, &dims, 2);
}

#endif
