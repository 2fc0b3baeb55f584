/*
 * vapu_isa_harness.c - test environment for the gfx9 interpreter (see the
 * header): memory, a one-queue command processor, asm and ELF helpers.
 */
#include "tests/host/vapu_isa_harness.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hsa/amd_hsa_kernel_code.h>
#include <hsa/amd_hsa_queue.h>
#include <hsa/hsa.h>

#include "hsa/loader/hidden_args.h"
#include "hsa/loader/loader.h"

#ifndef VAPU_ISA_BUILD_DIR
#error "VAPU_ISA_BUILD_DIR: set by mk/vapu-isa.mk"
#endif

bool vi_env_init(struct vi_env *e) {
  memset(e, 0, sizeof *e);
  vapu_range_map_init(&e->map);
  e->x = vapu_exec_create(&e->map.mem);
  return e->x != NULL;
}

void vi_env_fini(struct vi_env *e) {
  vapu_exec_destroy(e->x);
  for (unsigned i = 0; i < VI_MAX_ALLOCS; i++) free(e->allocs[i]);
  memset(e, 0, sizeof *e);
}

void *vi_alloc(struct vi_env *e, size_t size, uint32_t access) {
  for (unsigned i = 0; i < VI_MAX_ALLOCS; i++) {
    if (e->allocs[i]) continue;
    size_t rounded = (size + 255) & ~(size_t)255;
    void *p = aligned_alloc(256, rounded ? rounded : 256);
    if (!p) return NULL;
    memset(p, 0, rounded ? rounded : 256);
    /* Exactly `size` bytes are GPU-visible: a kernel running past the end
     * faults. */
    if (vapu_range_map_add(&e->map, p, size ? size : 1, access) != 0) {
      free(p);
      return NULL;
    }
    e->allocs[i] = p;
    return p;
  }
  return NULL;
}

void vi_free(struct vi_env *e, void *p) {
  for (unsigned i = 0; i < VI_MAX_ALLOCS; i++) {
    if (e->allocs[i] == p) {
      vapu_range_map_remove(&e->map, p);
      free(p);
      e->allocs[i] = NULL;
      return;
    }
  }
}

enum vapu_result vi_run(struct vi_env *e, const struct vi_launch *l, struct vapu_stop *stop) {
  const amd_kernel_descriptor_t *kd = (const void *)(uintptr_t)l->kernel_object;
  hsa_kernel_dispatch_packet_t *pkt = vi_alloc(e, sizeof *pkt, VAPU_ACCESS_READ);
  amd_queue_t *q = vi_alloc(e, sizeof *q, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  if (!pkt || !q) {
    snprintf(stop->detail, sizeof stop->detail, "harness: out of memory");
    return VAPU_BAD_DISPATCH;
  }
  uint32_t dims = l->grid[2] > 1 ? 3 : l->grid[1] > 1 ? 2 : 1;
  pkt->header = HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE;
  pkt->setup = (uint16_t)(dims << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);
  pkt->workgroup_size_x = (uint16_t)l->wg[0];
  pkt->workgroup_size_y = (uint16_t)l->wg[1];
  pkt->workgroup_size_z = (uint16_t)l->wg[2];
  pkt->grid_size_x = l->grid[0];
  pkt->grid_size_y = l->grid[1];
  pkt->grid_size_z = l->grid[2];
  pkt->group_segment_size = l->group_segment_size ? l->group_segment_size : kd->group_segment_fixed_size;
  pkt->private_segment_size = l->private_segment_size ? l->private_segment_size : kd->private_segment_fixed_size;
  pkt->kernel_object = l->kernel_object;
  pkt->kernarg_address = (void *)(uintptr_t)l->kernarg;
  q->group_segment_aperture_base_hi = (uint32_t)(VI_SHARED_BASE >> 32);
  q->private_segment_aperture_base_hi = (uint32_t)(VI_PRIVATE_BASE >> 32);

  struct vapu_dispatch d = {
      .kernel_object = l->kernel_object,
      .kernarg_address = (uint64_t)(uintptr_t)l->kernarg,
      .packet_address = (uint64_t)(uintptr_t)pkt,
      .queue_address = (uint64_t)(uintptr_t)q,
      .dispatch_id = 0,
      .grid_size = {l->grid[0], l->grid[1], l->grid[2]},
      .workgroup_size = {(uint16_t)l->wg[0], (uint16_t)l->wg[1], (uint16_t)l->wg[2]},
      .group_segment_size = pkt->group_segment_size,
      .private_segment_size = pkt->private_segment_size,
      .apertures = {VI_SHARED_BASE, VI_PRIVATE_BASE},
      .abort_flag = l->abort_flag,
  };
  /* Scratch as ROCr's AqlQueue sets it up for gfx9: a swizzled V# over the
   * backing memory (4-byte elements, index stride 64, lane id added), one
   * slot of lane_bytes * 64 per wave of a work-group. */
  void *scratch = NULL;
  if (pkt->private_segment_size) {
    uint32_t lane = (pkt->private_segment_size + 15) & ~15u;
    size_t bytes = (size_t)lane * 64 * 16;
    scratch = vi_alloc(e, bytes, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
    if (!scratch) return VAPU_BAD_DISPATCH;
    uint64_t base = (uint64_t)(uintptr_t)scratch;
    d.scratch_resource[0] = (uint32_t)base;
    d.scratch_resource[1] = (uint32_t)(base >> 32) | 1u << 31; /* SWIZZLE_ENABLE */
    d.scratch_resource[2] = (uint32_t)bytes;                   /* NUM_RECORDS */
    d.scratch_resource[3] = 4 | 5 << 3 | 6 << 6 | 7 << 9 | 7 << 12 | 4 << 15 |
                            1u << 19 | 3u << 21 | 1u << 23; /* dst_sel, 32_FLOAT, elem 4, stride 64, tid */
    d.scratch_backing = base;
    d.scratch_backing_size = bytes;
    d.scratch_lane_bytes = lane;
    q->scratch_backing_memory_location = base;
    q->scratch_backing_memory_byte_size = bytes;
    q->scratch_wave64_lane_byte_size = lane;
    memcpy(q->scratch_resource_descriptor, d.scratch_resource, sizeof d.scratch_resource);
  }

  enum vapu_result r = vapu_dispatch_begin(e->x, &d, stop);
  uint32_t count[3];
  for (unsigned i = 0; i < 3; i++) count[i] = (l->grid[i] + l->wg[i] - 1) / l->wg[i];
  for (uint32_t z = 0; r == VAPU_OK && z < count[2]; z++)
    for (uint32_t y = 0; r == VAPU_OK && y < count[1]; y++)
      for (uint32_t x = 0; r == VAPU_OK && x < count[0]; x++)
        r = vapu_run_workgroup(e->x, (uint32_t[3]){x, y, z}, 0, stop);
  if (scratch) vi_free(e, scratch);
  vi_free(e, q);
  vi_free(e, pkt);
  return r;
}

void *vi_read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  void *buf = NULL;
  if (fseek(f, 0, SEEK_END) == 0) {
    long n = ftell(f);
    if (n > 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n)) != NULL) {
      if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
      } else {
        *size = (size_t)n;
      }
    }
  }
  fclose(f);
  return buf;
}

/* ---- ELF (relocatable objects from llvm-mc) -------------------------------- */
static const Elf64_Shdr *elf_section(const void *image, size_t size, const char *name) {
  const Elf64_Ehdr *eh = image;
  if (size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
      eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > size || eh->e_shstrndx >= eh->e_shnum)
    return NULL;
  const Elf64_Shdr *sh = (const void *)((const uint8_t *)image + eh->e_shoff);
  const char *names = (const char *)image + sh[eh->e_shstrndx].sh_offset;
  for (unsigned i = 0; i < eh->e_shnum; i++)
    if (strcmp(names + sh[i].sh_name, name) == 0) return &sh[i];
  return NULL;
}

static bool elf_symbol(const void *image, size_t size, const char *name, uint64_t *value) {
  const Elf64_Shdr *symtab = elf_section(image, size, ".symtab");
  const Elf64_Shdr *strtab = elf_section(image, size, ".strtab");
  if (!symtab || !strtab) return false;
  const Elf64_Sym *syms = (const void *)((const uint8_t *)image + symtab->sh_offset);
  for (size_t i = 0; i < symtab->sh_size / sizeof *syms; i++) {
    if (strcmp((const char *)image + strtab->sh_offset + syms[i].st_name, name) == 0) {
      *value = syms[i].st_value;
      return true;
    }
  }
  return false;
}

bool vi_elf_text(const void *image, size_t size, const uint32_t **words, size_t *bytes,
                 uint64_t *address) {
  const Elf64_Shdr *text = elf_section(image, size, ".text");
  if (!text || text->sh_offset + text->sh_size > size || (text->sh_offset & 3)) return false;
  *words = (const uint32_t *)(const void *)((const uint8_t *)image + text->sh_offset);
  *bytes = text->sh_size;
  *address = text->sh_addr;
  return true;
}

bool vi_asm_load(struct vi_env *e, const char *name, struct vi_asm *a) {
  char path[512];
  memset(a, 0, sizeof *a);
  snprintf(path, sizeof path, "%s/vapu-isa/%s.o", VAPU_ISA_BUILD_DIR, name);
  a->image = vi_read_file(path, &a->image_size);
  if (!a->image) return false;
  const Elf64_Shdr *text = elf_section(a->image, a->image_size, ".text");
  if (!text || text->sh_offset + text->sh_size > a->image_size) return false;
  a->text_size = text->sh_size;
  a->text = vi_alloc(e, a->text_size, VAPU_ACCESS_READ | VAPU_ACCESS_EXEC);
  if (!a->text) return false;
  memcpy(a->text, (const uint8_t *)a->image + text->sh_offset, a->text_size);
  return true;
}

void vi_asm_release(struct vi_asm *a) {
  free(a->image);
  a->image = NULL;
}

struct vi_kd vi_kd_default(void) {
  struct vi_kd kd = {0};
  /* 64 VGPRs (granule 4: 16 - 1), MODE: denormals kept (3), IEEE on,
   * DX10 clamp on: the defaults clang gives an OpenCL kernel on gfx9. */
  kd.rsrc1 = 15 << AMD_KD_RSRC1_GRANULATED_WORKITEM_VGPR_COUNT_SHIFT |
             3 << AMD_KD_RSRC1_FLOAT_DENORM_MODE_32_SHIFT | 3 << AMD_KD_RSRC1_FLOAT_DENORM_MODE_16_64_SHIFT |
             AMD_KD_RSRC1_ENABLE_DX10_CLAMP | AMD_KD_RSRC1_ENABLE_IEEE_MODE;
  kd.rsrc2 = 2 << AMD_KD_RSRC2_USER_SGPR_COUNT_SHIFT | AMD_KD_RSRC2_ENABLE_SGPR_WORKGROUP_ID_X;
  kd.properties = AMD_KD_ENABLE_SGPR_KERNARG_SEGMENT_PTR;
  return kd;
}

uint64_t vi_asm_kernel(struct vi_env *e, const struct vi_asm *a, const char *label,
                       const struct vi_kd *kd) {
  uint64_t off;
  if (!elf_symbol(a->image, a->image_size, label, &off) || (off & 255) || off >= a->text_size)
    return 0;
  amd_kernel_descriptor_t *d = vi_alloc(e, sizeof *d, VAPU_ACCESS_READ);
  if (!d) return 0;
  d->group_segment_fixed_size = kd->group_segment_fixed_size;
  d->private_segment_fixed_size = kd->private_segment_fixed_size;
  d->kernarg_size = 256;
  d->kernel_code_entry_byte_offset = (int64_t)((uintptr_t)a->text + off) - (int64_t)(uintptr_t)d;
  d->compute_pgm_rsrc1 = kd->rsrc1;
  d->compute_pgm_rsrc2 = kd->rsrc2;
  d->kernel_code_properties = kd->properties;
  return (uint64_t)(uintptr_t)d;
}

bool vi_asm_offset(const struct vi_asm *a, const char *label, uint64_t *offset) {
  return elf_symbol(a->image, a->image_size, label, offset);
}

const uint32_t *vi_asm_words(const struct vi_asm *a, const char *label, size_t *count) {
  uint64_t off;
  const Elf64_Shdr *text = elf_section(a->image, a->image_size, ".text");
  if (!text || !elf_symbol(a->image, a->image_size, label, &off) || off >= text->sh_size) return NULL;
  *count = (text->sh_size - off) / 4;
  return (const uint32_t *)(const void *)((const uint8_t *)a->image + text->sh_offset + off);
}

/* ---- Code objects ------------------------------------------------------------ */
static void *seg_alloc(void *ctx, size_t size, size_t align) {
  (void)align; /* vi_alloc gives 256, more than the corpus objects ask for */
  return vi_alloc(ctx, size, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE | VAPU_ACCESS_EXEC);
}
static void seg_free(void *ctx, void *p, size_t size) {
  (void)size;
  vi_free(ctx, p);
}
static bool resolve_external(void *ctx, const char *name, uint64_t *address) {
  if (!ctx || strcmp(name, "ext_offset") != 0) return false;
  *address = (uint64_t)(uintptr_t)ctx;
  return true;
}

bool vi_code_object_load(struct vi_env *e, const char *path, const char *symbol, void *external,
                         struct vi_code_object *out, char *why, size_t why_size) {
  memset(out, 0, sizeof *out);
  size_t size;
  void *image = vi_read_file(path, &size);
  if (!image) {
    snprintf(why, why_size, "cannot read %s", path);
    return false;
  }
  struct loader_memory_ops mem = {seg_alloc, seg_free, e};
  bool ok = loader_code_object_parse(image, size, path, &out->co, why, why_size) == LOADER_OK &&
            loader_code_object_load(out->co, &mem, resolve_external, external, why, why_size) == LOADER_OK;
  free(image);
  if (!ok) return false;
  out->kernel = loader_code_object_symbol(out->co, symbol);
  if (!out->kernel || !out->kernel->meta) {
    snprintf(why, why_size, "%s: no kernel %s", path, symbol);
    return false;
  }
  out->kernel_object = out->kernel->address;
  out->kernarg_size = out->kernel->meta->kernarg_segment_size;
  return true;
}

void vi_code_object_release(struct vi_code_object *k) {
  loader_code_object_destroy(k->co);
  memset(k, 0, sizeof *k);
}

void *vi_kernarg(struct vi_env *e, const struct vi_code_object *k, const void *explicit_args,
                 size_t explicit_size, uint32_t dims, const uint32_t grid[3], const uint32_t wg[3],
                 char *why, size_t why_size) {
  uint8_t *kernarg = vi_alloc(e, k->kernarg_size + 64, VAPU_ACCESS_READ);
  if (!kernarg || explicit_size > k->kernarg_size) {
    snprintf(why, why_size, "kernarg: out of memory or %zu explicit bytes", explicit_size);
    return NULL;
  }
  memcpy(kernarg, explicit_args, explicit_size);
  struct loader_dispatch ld = {.dims = dims};
  for (unsigned i = 0; i < 3; i++) {
    ld.workgroup_size[i] = wg[i];
    ld.grid_size[i] = grid[i];
  }
  ld.private_base = (uint32_t)(VI_PRIVATE_BASE >> 32);
  ld.shared_base = (uint32_t)(VI_SHARED_BASE >> 32);
  if (loader_fill_hidden_args(k->kernel->meta, &ld, kernarg, k->kernarg_size, why, why_size) != LOADER_OK)
    return NULL;
  return kernarg;
}
