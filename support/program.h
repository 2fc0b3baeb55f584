/*
 * program.h - what every ROCr-style program in tests/programs/ (and the
 * dispatch benchmark) shares: a status check that names the failing call,
 * and finding the code objects.
 *
 * The programs are built exactly as an application developer builds one:
 *   cc -I. -Ihsa/include prog.c build/host/lib/libhsa-runtime64.a -lpthread -lm
 * (-I. for this header, support/program.h), and run on the host with the
 * folder of their code objects as argv[1]. In the boot image the test
 * runner calls each program's main with the folder the ESP carries them in.
 */
#ifndef SUPPORT_PROGRAM_H
#define SUPPORT_PROGRAM_H

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Declared for the boot image, where main is renamed (tests/programs/module.mk). */
int main(int argc, char **argv);

#define CHECK(call)                                                                                \
  do {                                                                                             \
    hsa_status_t status_ = (call);                                                                 \
    if (status_ != HSA_STATUS_SUCCESS && status_ != HSA_STATUS_INFO_BREAK) {                       \
      const char *msg_ = "?";                                                                      \
      hsa_status_string(status_, &msg_);                                                           \
      fprintf(stderr, "%s:%d: %s failed: 0x%x %s\n", __FILE__, __LINE__, #call, (unsigned)status_, \
              msg_);                                                                               \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

/* Exits with a message unless `cond` holds. */
#define EXPECT(cond, ...)                                                 \
  do {                                                                    \
    if (!(cond)) {                                                        \
      fprintf(stderr, "%s:%d: expected %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                       \
      fputc('\n', stderr);                                                \
      exit(1);                                                            \
    }                                                                     \
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

/* A pool's global flags (HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_*), 0 for a pool
 * of another segment: how the users pick kernarg, fine and coarse pools. */
static inline uint32_t program_pool_global_flags(hsa_amd_memory_pool_t pool) {
  hsa_amd_segment_t segment;
  uint32_t flags;
  CHECK(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment));
  if (segment != HSA_AMD_SEGMENT_GLOBAL) return 0;
  CHECK(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags));
  return flags;
}

/* What a dispatch of a kernel needs from its symbol, queried as the users
 * query it (the vector_copy sample, LLVM's offload plugin, HIP, tinygrad). */
struct program_kernel {
  uint64_t object;
  uint32_t kernarg_size, group_size, private_size;
};

static inline struct program_kernel program_kernel_info(hsa_executable_symbol_t symbol) {
  struct program_kernel k;
  CHECK(
      hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &k.object));
  CHECK(hsa_executable_symbol_get_info(
      symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &k.kernarg_size));
  CHECK(hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE,
                                       &k.group_size));
  CHECK(hsa_executable_symbol_get_info(
      symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &k.private_size));
  return k;
}

/* Writes the body of a 1-D dispatch of `k` over `grid` work-items in groups
 * of `wg` into the queue slot `p`: every field but the header and setup
 * word, which each program publishes its own way (an __atomic store of both,
 * then the doorbell). */
static inline void program_fill_dispatch_1d(hsa_kernel_dispatch_packet_t *p,
                                            const struct program_kernel *k, void *kernarg,
                                            uint32_t grid, uint16_t wg, hsa_signal_t done) {
  memset((uint8_t *)p + 4, 0, sizeof *p - 4);
  p->workgroup_size_x = wg;
  p->workgroup_size_y = p->workgroup_size_z = 1;
  p->grid_size_x = grid;
  p->grid_size_y = p->grid_size_z = 1;
  p->private_segment_size = k->private_size;
  p->group_segment_size = k->group_size;
  p->kernel_object = k->object;
  p->kernarg_address = kernarg;
  p->completion_signal = done;
}

/* A packet header with system-scope acquire and release fences, as the
 * users write theirs. */
#define PROGRAM_PACKET_HEADER(type)                                              \
  (uint16_t)((type) << HSA_PACKET_HEADER_TYPE |                                  \
             HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE | \
             HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE)

/* Publishes the packet written in slot `index` the way ROCr's samples and
 * HIP do: header and setup in one 32-bit release store, then the doorbell
 * with a release store of the index. */
static inline void program_publish(hsa_queue_t *q, uint64_t index, void *packet, uint16_t header,
                                   uint16_t setup) {
  __atomic_store_n((uint32_t *)packet, header | (uint32_t)setup << 16, __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)index);
}

#endif
