/*
 * mem_ranges.c - identity translation over registered host ranges (mem.h):
 * the memory of tests and of bring-up before the GMC page walk answers.
 */
#include "vapu/isa/mem.h"

static bool range_translate(void *ctx, uint64_t va, uint32_t access, struct vapu_page *page) {
  const struct vapu_range_map *map = ctx;
  for (unsigned i = 0; i < map->count; i++) {
    const struct vapu_range *r = &map->ranges[i];
    if (va - r->va < r->size) {
      if ((r->allowed & access) != access) return false;
      page->va = r->va;
      page->size = r->size;
      page->host = (uint8_t *)(uintptr_t)r->va;
      page->allowed = r->allowed;
      return true;
    }
  }
  return false;
}

void vapu_range_map_init(struct vapu_range_map *map) {
  *map = (struct vapu_range_map){0};
  map->mem.translate = range_translate;
  map->mem.ctx = map;
}

int vapu_range_map_add(struct vapu_range_map *map, const void *host, size_t size,
                       uint32_t allowed) {
  uint64_t va = (uint64_t)(uintptr_t)host;
  if (size == 0 || map->count == VAPU_RANGE_MAP_MAX || va + size < va) return -1;
  for (unsigned i = 0; i < map->count; i++) {
    const struct vapu_range *r = &map->ranges[i];
    if (va < r->va + r->size && r->va < va + size) return -1;
  }
  map->ranges[map->count++] = (struct vapu_range){va, size, allowed};
  vapu_mem_changed(&map->mem);
  return 0;
}

int vapu_range_map_remove(struct vapu_range_map *map, const void *host) {
  uint64_t va = (uint64_t)(uintptr_t)host;
  for (unsigned i = 0; i < map->count; i++) {
    if (map->ranges[i].va == va) {
      map->ranges[i] = map->ranges[--map->count];
      vapu_mem_changed(&map->mem);
      return 0;
    }
  }
  return -1;
}
