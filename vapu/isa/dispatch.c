/*
 * dispatch.c - starting a dispatch and running its work-groups (dispatch.h):
 * the kernel descriptor, the initial wave state of LLVM AMDGPUUsage
 * "Initial Kernel Execution State" (gfx9), and the round-robin scheduling of
 * a work-group's waves with s_barrier.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <hsa/amd_hsa_kernel_code.h>

#include "vapu/isa/fp.h"
#include "vapu/isa/wave.h"

#define LOG_TAG "vapu-isa"
#include "lib/plat.h"
#include "lib/util.h"

/* Instructions a wave runs before the next one gets its turn. */
#define TIME_SLICE 4096

/* LDS allocation granule of gfx9: 128 dwords (AMDGPUUsage, compute_pgm_rsrc2
 * GRANULATED_LDS_SIZE "GFX7-GFX11: 128 dwords"). */
#define LDS_GRANULE 512
#define HW_ID_WAVE_ID_MASK 0xfu /* gc_9_0_sh_mask.h SQ_WAVE_HW_ID */
#define HW_ID_SIMD_ID_MASK 0x30u

const char *vapu_result_name(enum vapu_result r) {
  switch (r) {
  case VAPU_OK: return "ok";
  case VAPU_ILLEGAL_INSTRUCTION: return "illegal instruction";
  case VAPU_MEMORY_FAULT: return "memory fault";
  case VAPU_APERTURE_VIOLATION: return "aperture violation";
  case VAPU_TRAP: return "trap";
  case VAPU_HALTED: return "wave halted";
  case VAPU_ABORTED: return "aborted";
  case VAPU_BAD_DISPATCH: return "bad dispatch";
  }
  return "?";
}

struct vapu_exec *vapu_exec_create(struct vapu_mem *mem) {
  if (!mem || !mem->translate) return NULL;
  /* The wave state and decoded code (function pointers) are the GPU's
   * insides: memory no device can reach (lib/plat.h). */
  struct vapu_exec *x = plat_protected_alloc(sizeof *x);
  if (!x) return NULL;
  x->icache = plat_protected_alloc(ICACHE_ENTRIES * sizeof *x->icache);
  if (!x->icache) {
    plat_protected_free(x);
    return NULL;
  }
  x->mem = mem;
  for (unsigned i = 0; i < ICACHE_ENTRIES; i++) x->icache[i].epoch = 0; /* never valid */
  x->icache_epoch = 1;
  for (unsigned i = 0; i < WAVE_MAX_PER_GROUP; i++) {
    x->waves[i].x = x;
    x->waves[i].index = (uint8_t)i;
  }
  tlb_flush(x);
  return x;
}

void vapu_exec_destroy(struct vapu_exec *x) {
  if (!x) return;
  plat_protected_free(x->icache);
  plat_protected_free(x);
}

void vapu_exec_get_stats(const struct vapu_exec *x, struct vapu_exec_stats *out) { *out = x->stats; }

static enum vapu_result bad(struct vapu_exec *x, struct vapu_stop *stop, enum vapu_result r,
                            const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static enum vapu_result bad(struct vapu_exec *x, struct vapu_stop *stop, enum vapu_result r,
                            const char *fmt, ...) {
  memset(stop, 0, sizeof *stop);
  stop->result = r;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(stop->detail, sizeof stop->detail, fmt, ap);
  va_end(ap);
  log_error("%s", stop->detail);
  (void)x;
  return r;
}

/* User SGPRs the kernel code properties enable, in AMDGPUUsage order. */
static unsigned user_sgprs_enabled(uint16_t p) {
  return 4 * !!(p & AMD_KD_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER) + 2 * !!(p & AMD_KD_ENABLE_SGPR_DISPATCH_PTR) +
         2 * !!(p & AMD_KD_ENABLE_SGPR_QUEUE_PTR) + 2 * !!(p & AMD_KD_ENABLE_SGPR_KERNARG_SEGMENT_PTR) +
         2 * !!(p & AMD_KD_ENABLE_SGPR_DISPATCH_ID) + 2 * !!(p & AMD_KD_ENABLE_SGPR_FLAT_SCRATCH_INIT) +
         !!(p & AMD_KD_ENABLE_SGPR_PRIVATE_SEGMENT_SIZE);
}

const char *vapu_kernel_descriptor_problem(const amd_kernel_descriptor_t *kd, uint64_t kernel_object) {
  /* AMDGPUUsage "Kernel Descriptor": the reserved bytes, and before gfx90a
   * COMPUTE_PGM_RSRC3 and the kernarg preload field, are 0, and the entry
   * is code, not the descriptor itself. Data that is no descriptor stops
   * here instead of running as code. */
  static const amd_kernel_descriptor_t zero;
  if (memcmp(kd->reserved0, zero.reserved0, sizeof kd->reserved0) ||
      memcmp(kd->reserved1, zero.reserved1, sizeof kd->reserved1) ||
      memcmp(kd->reserved3, zero.reserved3, sizeof kd->reserved3) || kd->compute_pgm_rsrc3 || kd->kernarg_preload)
    return "reserved fields are not 0 (no kernel descriptor)";
  if ((uint64_t)kd->kernel_code_entry_byte_offset < sizeof *kd) return "entry inside the descriptor";
  uint16_t props = kd->kernel_code_properties;
  if (props & AMD_KD_ENABLE_WAVEFRONT_SIZE32) return "wave32 requested; gfx9 runs wave64 only";
  if (user_sgprs_enabled(props) > AMD_HSA_BITS_GET(kd->compute_pgm_rsrc2, AMD_KD_RSRC2_USER_SGPR_COUNT))
    return "more user SGPRs enabled than USER_SGPR_COUNT";
  /* AMDGPUUsage: the entry must be 256-byte aligned. */
  if ((kernel_object + (uint64_t)kd->kernel_code_entry_byte_offset) & 255) return "code entry not 256-byte aligned";
  return NULL;
}

enum vapu_result vapu_dispatch_begin(struct vapu_exec *x, const struct vapu_dispatch *d,
                                     struct vapu_stop *stop) {
  struct dispatch_state *ds = &x->ds;
  ds->active = false;
  /* Cached translations stay (the memory's owner says when they are stale:
   * vapu_mem_changed); decoded code is checked against memory again. */
  icache_invalidate(x);

  unsigned items = 1;
  for (unsigned i = 0; i < 3; i++) {
    if (!d->grid_size[i] || !d->workgroup_size[i])
      return bad(x, stop, VAPU_BAD_DISPATCH, "dispatch: grid or work-group size %u is 0", i);
    items *= d->workgroup_size[i];
  }
  if (items > WAVE_MAX_PER_GROUP * WAVE_LANES)
    return bad(x, stop, VAPU_BAD_DISPATCH, "dispatch: work-group of %u work-items (max %u)", items,
               WAVE_MAX_PER_GROUP * WAVE_LANES);
  if (d->kernel_object & (AMD_KERNEL_DESCRIPTOR_ALIGN_BYTES - 1))
    return bad(x, stop, VAPU_BAD_DISPATCH, "dispatch: kernel object 0x%llx not 64-byte aligned",
               (unsigned long long)d->kernel_object);

  amd_kernel_descriptor_t kd;
  uint64_t fault;
  if (!mem_read(x, d->kernel_object, &kd, sizeof kd, &fault)) {
    enum vapu_result r = bad(x, stop, VAPU_MEMORY_FAULT, "dispatch: kernel descriptor 0x%llx unreadable at 0x%llx",
                             (unsigned long long)d->kernel_object, (unsigned long long)fault);
    stop->address = fault;
    stop->access = VAPU_ACCESS_READ;
    return r;
  }
  const char *why = vapu_kernel_descriptor_problem(&kd, d->kernel_object);
  if (why)
    return bad(x, stop, VAPU_BAD_DISPATCH, "kernel descriptor at 0x%llx: %s", (unsigned long long)d->kernel_object,
               why);
  uint16_t props = kd.kernel_code_properties;
  uint64_t code = d->kernel_object + (uint64_t)kd.kernel_code_entry_byte_offset;

  uint32_t lds = d->group_segment_size;
  if (lds < kd.group_segment_fixed_size)
    return bad(x, stop, VAPU_BAD_DISPATCH, "dispatch: group segment %u below the kernel's fixed %u bytes",
               lds, kd.group_segment_fixed_size);
  lds = ALIGN_UP(lds, LDS_GRANULE);
  if (lds > LDS_BYTES_MAX)
    return bad(x, stop, VAPU_BAD_DISPATCH, "dispatch: group segment %u bytes past the %u of LDS", lds,
               LDS_BYTES_MAX);

  uint32_t private_size = d->private_segment_size > kd.private_segment_fixed_size
                              ? d->private_segment_size : kd.private_segment_fixed_size;
  ds->scratch_wave_bytes = 0;
  if (AMD_HSA_BITS_GET(kd.compute_pgm_rsrc2, AMD_KD_RSRC2_ENABLE_PRIVATE_SEGMENT)) {
    if (d->scratch_lane_bytes < private_size || !d->scratch_backing)
      return bad(x, stop, VAPU_BAD_DISPATCH,
                 "dispatch: kernel needs %u scratch bytes per work-item, queue gives %u at 0x%llx",
                 private_size, d->scratch_lane_bytes, (unsigned long long)d->scratch_backing);
    ds->scratch_wave_bytes = d->scratch_lane_bytes * WAVE_LANES;
  }

  ds->d = *d;
  ds->code_va = code;
  ds->rsrc1 = kd.compute_pgm_rsrc1;
  ds->rsrc2 = kd.compute_pgm_rsrc2;
  ds->properties = props;
  ds->lds_bytes = lds;
  ds->private_segment_size = private_size;
  for (unsigned i = 0; i < 3; i++)
    ds->wg_count[i] = (d->grid_size[i] + d->workgroup_size[i] - 1) / d->workgroup_size[i];
  ds->active = true;
  x->trace = plat_log_enabled(LOG_TRACE, LOG_TAG);
  memset(stop, 0, sizeof *stop);
  return VAPU_OK;
}

/* MODE at wave start from COMPUTE_PGM_RSRC1 (AMDGPUUsage compute_pgm_rsrc1:
 * FLOAT_ROUND_MODE_32/16_64, FLOAT_DENORM_MODE_32/16_64, ENABLE_DX10_CLAMP,
 * ENABLE_IEEE_MODE, FP16_OVFL -> MODE bits [3:0], [7:4], 8, 9, 23). */
static uint32_t initial_mode(uint32_t rsrc1) {
  uint32_t m = 0;
  m |= AMD_HSA_BITS_GET(rsrc1, AMD_KD_RSRC1_FLOAT_ROUND_MODE_32);
  m |= AMD_HSA_BITS_GET(rsrc1, AMD_KD_RSRC1_FLOAT_ROUND_MODE_16_64) << 2;
  m |= AMD_HSA_BITS_GET(rsrc1, AMD_KD_RSRC1_FLOAT_DENORM_MODE_32) << 4;
  m |= AMD_HSA_BITS_GET(rsrc1, AMD_KD_RSRC1_FLOAT_DENORM_MODE_16_64) << 6;
  if (AMD_HSA_BITS_GET(rsrc1, AMD_KD_RSRC1_ENABLE_DX10_CLAMP)) m |= MODE_DX10_CLAMP;
  if (AMD_HSA_BITS_GET(rsrc1, AMD_KD_RSRC1_ENABLE_IEEE_MODE)) m |= MODE_IEEE;
  if (AMD_HSA_BITS_GET(rsrc1, AMD_KD_RSRC1_FP16_OVFL)) m |= 1u << 23;
  return m;
}

/* Sets up wave `wi` of the work-group: AMDGPUUsage "Initial Kernel Execution
 * State", gfx9 (user SGPRs from s0 in the order of the enable bits, system
 * SGPRs from USER_SGPR_COUNT, work-item ids in v0, v1, v2). */
static bool wave_init(struct vapu_exec *x, struct wave *w, unsigned wi, const uint32_t size[3],
                      unsigned items, struct vapu_stop *stop) {
  const struct dispatch_state *ds = &x->ds;
  const struct vapu_dispatch *d = &ds->d;
  uint16_t p = ds->properties;
  unsigned vgprs = (AMD_HSA_BITS_GET(ds->rsrc1, AMD_KD_RSRC1_GRANULATED_WORKITEM_VGPR_COUNT) + 1) * 4;
  memset(w->s, 0, sizeof w->s);
  memset(w->v, 0, (vgprs > 3 ? vgprs : 3) * sizeof w->v[0]);
  unsigned n = 0;
  if (p & AMD_KD_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER)
    for (unsigned i = 0; i < 4; i++) w->s[n++] = d->scratch_resource[i];
  if (p & AMD_KD_ENABLE_SGPR_DISPATCH_PTR) set_sreg64(w, n, d->packet_address), n += 2;
  if (p & AMD_KD_ENABLE_SGPR_QUEUE_PTR) set_sreg64(w, n, d->queue_address), n += 2;
  if (p & AMD_KD_ENABLE_SGPR_KERNARG_SEGMENT_PTR) set_sreg64(w, n, d->kernarg_address), n += 2;
  if (p & AMD_KD_ENABLE_SGPR_DISPATCH_ID) set_sreg64(w, n, d->dispatch_id), n += 2;
  /* gfx9: flat scratch init is the queue's scratch base; the kernel's
   * prologue adds its wave offset into FLAT_SCRATCH. */
  if (p & AMD_KD_ENABLE_SGPR_FLAT_SCRATCH_INIT) set_sreg64(w, n, d->scratch_backing), n += 2;
  if (p & AMD_KD_ENABLE_SGPR_PRIVATE_SEGMENT_SIZE) w->s[n++] = ds->private_segment_size;

  n = AMD_HSA_BITS_GET(ds->rsrc2, AMD_KD_RSRC2_USER_SGPR_COUNT);
  if (AMD_HSA_BITS_GET(ds->rsrc2, AMD_KD_RSRC2_ENABLE_SGPR_WORKGROUP_ID_X)) w->s[n++] = x->wg_id[0];
  if (AMD_HSA_BITS_GET(ds->rsrc2, AMD_KD_RSRC2_ENABLE_SGPR_WORKGROUP_ID_Y)) w->s[n++] = x->wg_id[1];
  if (AMD_HSA_BITS_GET(ds->rsrc2, AMD_KD_RSRC2_ENABLE_SGPR_WORKGROUP_ID_Z)) w->s[n++] = x->wg_id[2];
  if (AMD_HSA_BITS_GET(ds->rsrc2, AMD_KD_RSRC2_ENABLE_SGPR_WORKGROUP_INFO))
    /* {first_wave, 14'b0, ordered_append_term[10:0], threadgroup_size_in_waves[5:0]} */
    w->s[n++] = (uint32_t)(wi == 0) << 31 | (x->nwaves & 0x3f);
  if (AMD_HSA_BITS_GET(ds->rsrc2, AMD_KD_RSRC2_ENABLE_PRIVATE_SEGMENT)) {
    uint64_t off = (uint64_t)(d->scratch_first_wave + wi) * ds->scratch_wave_bytes;
    if (off + ds->scratch_wave_bytes > d->scratch_backing_size) {
      bad(x, stop, VAPU_BAD_DISPATCH, "dispatch: wave slot %u past the %llu scratch bytes of the queue",
          d->scratch_first_wave + wi, (unsigned long long)d->scratch_backing_size);
      return false;
    }
    w->s[n++] = (uint32_t)off; /* private segment wave byte offset */
  }

  unsigned ids = AMD_HSA_BITS_GET(ds->rsrc2, AMD_KD_RSRC2_ENABLE_VGPR_WORKITEM_ID);
  uint64_t exec = 0;
  for (unsigned l = 0; l < WAVE_LANES; l++) {
    unsigned flat = wi * WAVE_LANES + l;
    if (flat >= items) break;
    exec |= 1ull << l;
    w->v[0][l] = flat % size[0];
    if (ids >= 1) w->v[1][l] = (flat / size[0]) % size[1];
    if (ids >= 2) w->v[2][l] = flat / (size[0] * size[1]);
  }
  set_sreg64(w, SREG_EXEC_LO, exec);
  w->pc = ds->code_va;
  w->scc = 0;
  w->mode = initial_mode(ds->rsrc1);
  w->trapsts = 0;
  w->ib_sts = 0;
  /* HW_ID: the group's placement, and WAVE_ID [3:0], SIMD_ID [5:4]
   * (gc_9_0_sh_mask.h SQ_WAVE_HW_ID): the waves of a work-group spread
   * over the 4 SIMDs of its CU. */
  w->hw_id = x->group_hw_id | (wi / 4) | (wi % 4) << 4;
  w->gpr_alloc = (uint32_t)(vgprs / 4 - 1) << 8 |
                 AMD_HSA_BITS_GET(ds->rsrc1, AMD_KD_RSRC1_GRANULATED_WAVEFRONT_SGPR_COUNT) << 24;
  w->lds_alloc = (ds->lds_bytes / LDS_GRANULE) << 12;
  w->state = WAVE_RUNNING;
  w->sleep = 0;
  x->stats.waves++;
  return true;
}

enum vapu_result vapu_run_workgroup(struct vapu_exec *x, const uint32_t wg[3], uint32_t hw_id,
                                    struct vapu_stop *stop) {
  struct dispatch_state *ds = &x->ds;
  if (!ds->active) return bad(x, stop, VAPU_BAD_DISPATCH, "vapu_run_workgroup without a dispatch");
  uint32_t size[3];
  unsigned items = 1;
  for (unsigned i = 0; i < 3; i++) {
    if (wg[i] >= ds->wg_count[i])
      return bad(x, stop, VAPU_BAD_DISPATCH, "work-group id %u in dimension %u past the %u of the grid",
                 wg[i], i, ds->wg_count[i]);
    /* The last work-group of a dimension holds what is left of the grid. */
    uint32_t first = wg[i] * ds->d.workgroup_size[i], left = ds->d.grid_size[i] - first;
    size[i] = left < ds->d.workgroup_size[i] ? left : ds->d.workgroup_size[i];
    items *= size[i];
    x->wg_id[i] = wg[i];
  }
  x->nwaves = (items + WAVE_LANES - 1) / WAVE_LANES;
  x->group_hw_id = hw_id & ~(HW_ID_WAVE_ID_MASK | HW_ID_SIMD_ID_MASK);
  x->stopped = false;
  memset(&x->stop, 0, sizeof x->stop);
  memset(x->lds, 0, ds->lds_bytes);
  for (unsigned i = 0; i < x->nwaves; i++)
    if (!wave_init(x, &x->waves[i], i, size, items, stop)) return stop->result;

  const volatile uint32_t *abort_flag = ds->d.abort_flag;
  for (;;) {
    unsigned running = 0, at_barrier = 0;
    for (unsigned i = 0; i < x->nwaves; i++) {
      struct wave *w = &x->waves[i];
      if (w->state != WAVE_RUNNING) continue;
      w->sleep = 0;
      wave_run(w, TIME_SLICE);
      if (x->stopped) goto stopped;
    }
    for (unsigned i = 0; i < x->nwaves; i++) {
      running += x->waves[i].state == WAVE_RUNNING;
      at_barrier += x->waves[i].state == WAVE_AT_BARRIER;
    }
    if (!running && !at_barrier) break; /* every wave ended */
    if (!running) /* all live waves wait at the barrier: release it */
      for (unsigned i = 0; i < x->nwaves; i++)
        if (x->waves[i].state == WAVE_AT_BARRIER) x->waves[i].state = WAVE_RUNNING;
    if (ds->d.between_slices) ds->d.between_slices(ds->d.between_slices_ctx);
    if (abort_flag && *abort_flag) {
      bad(x, stop, VAPU_ABORTED, "work-group (%u, %u, %u) aborted by the CP", wg[0], wg[1], wg[2]);
      memcpy(stop->workgroup, wg, sizeof stop->workgroup);
      return VAPU_ABORTED;
    }
  }
  memset(stop, 0, sizeof *stop);
  return VAPU_OK;

stopped:
  *stop = x->stop;
  log_error("work-group (%u, %u, %u) wave %u: %s", wg[0], wg[1], wg[2], stop->wave, stop->detail);
  return stop->result;
}
