/*
 * load.c - place a parsed code object in memory the GPU reaches.
 *
 * All PT_LOAD segments go into one allocation that keeps their relative
 * distances (the code refers to its data PC-relatively), as ROCr's loader
 * does for code object v3 and later (ROCR-Runtime loader/executable.cpp,
 * LoadSegmentsV2). Bytes past p_filesz are zero (gABI "Program Header").
 * Then the dynamic relocations are applied with AMDGPUUsage "Relocation
 * Records" arithmetic: S + A for the ABS kinds (S the symbol's loaded
 * address), B + A for RELATIVE64 (B the load delta).
 */
#include <string.h>

#include "hsa/loader/elf_format.h"
#include "hsa/loader/loader.h"
#include "hsa/loader/report.h"
#include "lib/plat.h"

#define LOG_TAG "loader"

static void write_le(uint8_t *p, uint64_t value, unsigned width) {
  for (unsigned i = 0; i < width; i++) p[i] = (uint8_t)(value >> (8 * i));
}

static enum loader_status apply_relocation(struct loader_code_object *co,
                                           const struct loader_relocation *r,
                                           loader_resolve_fn resolve, void *resolve_ctx, char *why,
                                           size_t why_size) {
  uint64_t s = 0;
  if (r->sym_name) {
    if (!resolve || !resolve(resolve_ctx, r->sym_name, &s))
      return loader_report(LOADER_ERROR_VARIABLE_UNDEFINED, co->source, why, why_size,
                           "relocation at 0x%llx needs symbol %s, which is not defined (define it "
                           "with hsa_executable_[agent_]global_variable_define before loading)",
                           (unsigned long long)r->vaddr, r->sym_name);
  } else if (r->sym_absolute) {
    s = r->sym_vaddr;
  } else {
    s = r->sym_vaddr + (uint64_t)co->delta;
  }
  uint8_t *at = (uint8_t *)co->base + (r->vaddr - co->span_start);
  uint64_t value = s + (uint64_t)r->addend;
  switch (r->type) {
    case R_AMDGPU_ABS32_LO:
      write_le(at, value & 0xffffffffu, 4);
      break;
    case R_AMDGPU_ABS32_HI:
      write_le(at, value >> 32, 4);
      break;
    case R_AMDGPU_ABS32:
      write_le(at, value, 4);
      break;
    case R_AMDGPU_ABS64:
      write_le(at, value, 8);
      break;
    case R_AMDGPU_RELATIVE64:
      write_le(at, (uint64_t)co->delta + (uint64_t)r->addend, 8);
      break;
  }
  return LOADER_OK;
}

enum loader_status loader_code_object_load(struct loader_code_object *co,
                                           const struct loader_memory_ops *mem,
                                           loader_resolve_fn resolve, void *resolve_ctx, char *why,
                                           size_t why_size) {
  if (why && why_size) why[0] = '\0';
  if (co->base || !co->image)
    return loader_report(LOADER_ERROR_INVALID_CODE_OBJECT, co->source, why, why_size,
                         "already loaded");
  size_t size = (size_t)(co->span_end - co->span_start);
  size_t align = co->segment_align < 4096 ? 4096 : (size_t)co->segment_align;
  void *base = mem->alloc(mem->ctx, size, align);
  if (!base)
    return loader_report(LOADER_ERROR_OUT_OF_MEMORY, co->source, why, why_size,
                         "no memory for the %zu bytes of segments (alignment %zu)", size, align);
  co->base = base;
  co->base_size = size;
  co->mem = *mem;
  co->delta = (int64_t)((uint64_t)(uintptr_t)base - co->span_start);

  memset(base, 0, size);
  for (uint32_t i = 0; i < co->segment_count; i++) {
    const struct loader_segment *s = &co->segments[i];
    memcpy((uint8_t *)base + (s->vaddr - co->span_start), co->image + s->offset, s->filesz);
  }

  enum loader_status st = LOADER_OK;
  for (uint32_t i = 0; i < co->relocation_count && st == LOADER_OK; i++)
    st = apply_relocation(co, &co->relocations[i], resolve, resolve_ctx, why, why_size);
  /* Relocations name symbols in the image's string table: done with both. */
  co->relocation_count = 0;
  co->image = NULL;
  if (st != LOADER_OK) {
    mem->free(mem->ctx, base, size);
    co->base = NULL;
    return st;
  }
  for (uint32_t i = 0; i < co->symbol_count; i++)
    co->symbols[i].address = co->symbols[i].vaddr + (uint64_t)co->delta;
  log_debug("%s: loaded %zu bytes at %p (%u symbols, %u kernels)", co->source, size, base,
            co->symbol_count, co->metadata.kernel_count);
  return LOADER_OK;
}
