/* amdgpu_ram_host.c - the host's "RAM" for the single address space: the
 * process's private read-write mappings (heap, stacks, data, anonymous
 * maps) as /proc/self/maps lists them at bring-up. Reservations larger than
 * HOST_MAX_RANGE (sanitizer shadow memory) are left out. Memory mapped
 * later is added with amdgpu_map_system_range, or when the GPU first
 * touches it (a retry fault: amdgpu_ram_range_of finds its mapping). */
#define LOG_TAG "gmc"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "lib/plat.h"

#define HOST_MAX_RANGE (64ull << 30)

/* The process's private read-write mappings: what a pointer the program
 * holds can point to. */
static bool ram_mapping(const char *line, uint64_t *start, uint64_t *end) {
  char perms[8];
  if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s", start, end, perms) != 3) return false;
  if (perms[0] != 'r' || perms[1] != 'w' || perms[3] != 'p') return false;
  if (*end - *start > HOST_MAX_RANGE) {
    log_debug("not mapping the %" PRIu64 " GiB reservation at 0x%" PRIx64, (*end - *start) >> 30, *start);
    return false;
  }
  return true;
}

bool amdgpu_ram_grows(void) { return true; }

int amdgpu_ram_range_of(uint64_t address, uint64_t *start, uint64_t *size) {
  FILE *maps = fopen("/proc/self/maps", "r");
  if (!maps) return -ENOENT;
  char line[512];
  int r = -ENOENT;
  uint64_t s, e;
  while (r && fgets(line, sizeof line, maps))
    if (ram_mapping(line, &s, &e) && address >= s && address < e) {
      *start = s;
      *size = e - s;
      r = 0;
    }
  fclose(maps);
  return r;
}

int amdgpu_for_each_ram_range(int (*fn)(void *ctx, uint64_t start, uint64_t size), void *ctx) {
  FILE *maps = fopen("/proc/self/maps", "r");
  if (!maps) {
    log_error("cannot read /proc/self/maps: %s", strerror(errno));
    return -errno;
  }
  char line[512];
  int r = 0;
  while (!r && fgets(line, sizeof line, maps)) {
    uint64_t start, end;
    if (ram_mapping(line, &start, &end)) r = fn(ctx, start, end - start);
  }
  fclose(maps);
  return r;
}
