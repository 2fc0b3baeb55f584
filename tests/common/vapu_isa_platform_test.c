/*
 * The gfx9 interpreter (vapu/isa/) on the platform it runs on: the same
 * checks on the host and in the image, where it is built with the image's
 * compiler flags and runs on a core of its own. Float semantics against C
 * references (MODE's denormal setting from the kernel descriptor, IEEE
 * division, fma, transcendentals within their documented 1 ulp), and the
 * failure paths (memory fault, illegal instruction) that must end the wave,
 * never the host or the image. The exhaustive per-instruction tests are
 * host-only (tests/host/vapu_isa_*.c); this file stays small for QEMU.
 *
 * The kernels are tests/data/vapu_isa/platform.s, assembled at build time
 * (mk/vapu-isa.mk makes platform.inc: .text words, label offsets).
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <hsa/amd_hsa_kernel_code.h>

#include "lib/test.h"
#include "vapu/isa/dispatch.h"
#include "vapu/isa/mem.h"

#include "vapu-isa/platform.inc"

#define LANES 64
#define OPS 8 /* outputs per lane, in platform.s order */

/* GPU-visible memory of one test, each piece registered exactly. */
static struct {
  uint32_t code[sizeof platform_text / 4] __attribute__((aligned(256)));
  amd_kernel_descriptor_t kd __attribute__((aligned(64)));
  uint64_t kernarg[4] __attribute__((aligned(16)));
  float a[LANES], b[LANES];
  uint32_t out[LANES * OPS];
} gpu;

struct env {
  struct vapu_range_map map;
  struct vapu_exec *x;
};

static void env_init(struct env *e) {
  memset(&gpu, 0, sizeof gpu);
  memcpy(gpu.code, platform_text, sizeof platform_text);
  vapu_range_map_init(&e->map);
  ASSERT_EQ(vapu_range_map_add(&e->map, gpu.code, sizeof gpu.code, VAPU_ACCESS_READ | VAPU_ACCESS_EXEC), 0);
  ASSERT_EQ(vapu_range_map_add(&e->map, &gpu.kd, sizeof gpu.kd, VAPU_ACCESS_READ), 0);
  ASSERT_EQ(vapu_range_map_add(&e->map, gpu.kernarg, sizeof gpu.kernarg, VAPU_ACCESS_READ), 0);
  ASSERT_EQ(vapu_range_map_add(&e->map, gpu.a, sizeof gpu.a, VAPU_ACCESS_READ), 0);
  ASSERT_EQ(vapu_range_map_add(&e->map, gpu.b, sizeof gpu.b, VAPU_ACCESS_READ), 0);
  ASSERT_EQ(vapu_range_map_add(&e->map, gpu.out, sizeof gpu.out, VAPU_ACCESS_WRITE), 0);
  e->x = vapu_exec_create(&e->map.mem);
  ASSERT_NOT_NULL(e->x);
}

/* One work-group of 64 work-items running the kernel at `offset` in .text:
 * kernarg pointer in s[0:1], work-item id in v0, 64 VGPRs, IEEE mode,
 * f32 denormals per `denorm32` (the FLOAT_DENORM_MODE_32 field). */
static enum vapu_result run(struct env *e, uint32_t offset, uint32_t denorm32, struct vapu_stop *stop) {
  gpu.kd.kernarg_size = sizeof gpu.kernarg;
  gpu.kd.kernel_code_entry_byte_offset = (int64_t)((uintptr_t)gpu.code + offset) - (int64_t)(uintptr_t)&gpu.kd;
  gpu.kd.compute_pgm_rsrc1 = 15 << AMD_KD_RSRC1_GRANULATED_WORKITEM_VGPR_COUNT_SHIFT |
                             2 << AMD_KD_RSRC1_GRANULATED_WAVEFRONT_SGPR_COUNT_SHIFT |
                             denorm32 << AMD_KD_RSRC1_FLOAT_DENORM_MODE_32_SHIFT |
                             3 << AMD_KD_RSRC1_FLOAT_DENORM_MODE_16_64_SHIFT |
                             AMD_KD_RSRC1_ENABLE_DX10_CLAMP | AMD_KD_RSRC1_ENABLE_IEEE_MODE;
  gpu.kd.compute_pgm_rsrc2 = 2 << AMD_KD_RSRC2_USER_SGPR_COUNT_SHIFT;
  gpu.kd.kernel_code_properties = AMD_KD_ENABLE_SGPR_KERNARG_SEGMENT_PTR;
  struct vapu_dispatch d = {
      .kernel_object = (uint64_t)(uintptr_t)&gpu.kd,
      .kernarg_address = (uint64_t)(uintptr_t)gpu.kernarg,
      .grid_size = {LANES, 1, 1},
      .workgroup_size = {LANES, 1, 1},
  };
  enum vapu_result r = vapu_dispatch_begin(e->x, &d, stop);
  if (r == VAPU_OK) r = vapu_run_workgroup(e->x, (uint32_t[3]){0, 0, 0}, 0, stop);
  return r;
}

static uint32_t bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static float from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static bool denormal(float f) { return f != 0 && fabsf(f) < FLT_MIN; }
static float flush(float f) { return denormal(f) ? copysignf(0, f) : f; }

/* Distance in ulps (the order of the sign-magnitude encodings). */
static int64_t ulps(uint32_t x, uint32_t y) {
  int64_t ox = x >> 31 ? -(int64_t)(x & 0x7fffffff) : (int64_t)x;
  int64_t oy = y >> 31 ? -(int64_t)(y & 0x7fffffff) : (int64_t)y;
  return ox > oy ? ox - oy : oy - ox;
}

static bool same(uint32_t got, float want, int64_t max_ulps) {
  if (isnan(want)) return isnan(from_bits(got));
  return ulps(got, bits(want)) <= max_ulps;
}

/* Inputs: signed zeros, denormals, infinities, NaN, the edges of the i32
 * conversion, then values spread over many binades (fixed seed). */
static void fill_inputs(void) {
  static const float special[] = {0.0f, -0.0f, 1.0f, -3.0f, 1e-40f, -2.5e-39f, FLT_MIN, FLT_MAX,
                                  INFINITY, -INFINITY, NAN, 2147483648.0f, -2147483904.0f, 0.5f,
                                  3.0f, 1e30f};
  uint32_t seed = 0x9e3779b9u;
  for (unsigned i = 0; i < LANES; i++) {
    seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
    /* exponent in [-24, 24), any mantissa and sign */
    float r = ldexpf(1.0f + (float)(seed & 0xffffff) / 16777216.0f, (int)((seed >> 24) % 48) - 24);
    if (seed & 0x80) r = -r;
    gpu.a[i] = i < 16 ? special[i] : r;
    gpu.b[i] = i < 16 ? special[(i * 7 + 3) % 16] : ldexpf(r, (int)(i % 5) - 2);
  }
  gpu.kernarg[0] = (uint64_t)(uintptr_t)gpu.a;
  gpu.kernarg[1] = (uint64_t)(uintptr_t)gpu.b;
  gpu.kernarg[2] = (uint64_t)(uintptr_t)gpu.out;
}

/* v_cvt_i32_f32: truncates, saturates, NaN gives 0 (Vega ISA, VOP1). */
static uint32_t cvt_i32(float f) {
  if (isnan(f)) return 0;
  if (f >= 2147483648.0f) return 0x7fffffff;
  if (f < -2147483648.0f) return 0x80000000u;
  return (uint32_t)(int32_t)f;
}

static void check_lane(unsigned i, bool keep_denormals) {
  float a = gpu.a[i], b = gpu.b[i];
  const uint32_t *o = &gpu.out[i * OPS];
  float fa = keep_denormals ? a : flush(a), fb = keep_denormals ? b : flush(b);
  float fma_want = fmaf(fa, fb, 0.5f), mul_want = fa * fb;
  if (!keep_denormals) fma_want = flush(fma_want), mul_want = flush(mul_want);
  if (!same(o[1], fma_want, 0) || !same(o[5], mul_want, 0))
    FAIL("lane %u a=%a b=%a: fma %a (want %a) mul %a (want %a)", i, (double)a,
              (double)b, (double)from_bits(o[1]), (double)fma_want, (double)from_bits(o[5]),
              (double)mul_want);
  if (o[6] != cvt_i32(a) || o[7] != (uint32_t)(((uint64_t)bits(a) * bits(b)) >> 32))
    FAIL("lane %u a=%a b=%a: cvt_i32 0x%x mul_hi 0x%x", i, (double)a, (double)b,
              o[6], o[7]);
  if (!keep_denormals) return; /* clang's f32 division only runs with denormals kept */
  /* The div_scale/fmas/fixup sequence gives the IEEE quotient. */
  if (!same(o[0], a / b, 0))
    FAIL("lane %u: %a / %a = %a, want %a", i, (double)a, (double)b,
              (double)from_bits(o[0]), (double)(a / b));
  /* sqrt, exp, log: 1 ulp; they flush denormal inputs whatever MODE says
   * (Vega ISA: transcendental units do not support denormals). */
  float sa = fabsf(flush(a));
  float sqrt_want = (float)sqrt((double)sa), exp_want = (float)exp2((double)flush(b));
  float log_want = (float)log2((double)sa);
  if (!same(o[2], sqrt_want, 1) || !same(o[3], exp_want, 1) || !same(o[4], log_want, 1))
    FAIL("lane %u a=%a b=%a: sqrt %a (%a) exp %a (%a) log %a (%a)", i,
              (double)a, (double)b, (double)from_bits(o[2]), (double)sqrt_want, (double)from_bits(o[3]),
              (double)exp_want, (double)from_bits(o[4]), (double)log_want);
}

TEST(vapu_isa_platform_float_semantics) {
  struct env e;
  env_init(&e);
  fill_inputs();
  struct vapu_stop stop;
  /* FLOAT_DENORM_MODE_32 = 3: f32 denormals kept; 0: flushed. */
  for (uint32_t mode = 0; mode <= 3; mode += 3) {
    memset(gpu.out, 0xcd, sizeof gpu.out);
    enum vapu_result r = run(&e, PLATFORM_float_ops, mode, &stop);
    if (r != VAPU_OK) FAIL("%s: %s", vapu_result_name(r), stop.detail);
    for (unsigned i = 0; i < LANES; i++) check_lane(i, mode == 3);
  }
  vapu_exec_destroy(e.x);
}

TEST(vapu_isa_platform_memory_fault) {
  struct env e;
  env_init(&e);
  /* One byte past the output buffer: outside every registered range. */
  uint64_t unmapped = (uint64_t)(uintptr_t)gpu.out + sizeof gpu.out;
  gpu.kernarg[0] = unmapped;
  struct vapu_stop stop;
  ASSERT_EQ(run(&e, PLATFORM_load_fault, 3, &stop), VAPU_MEMORY_FAULT);
  ASSERT_EQ_U(stop.address, unmapped);
  ASSERT_EQ(stop.access, VAPU_ACCESS_READ);
  ASSERT_EQ_U(stop.pc, (uint64_t)(uintptr_t)gpu.code + PLATFORM_load_fault + 16);
  /* The interpreter is usable again afterwards. */
  gpu.kernarg[0] = (uint64_t)(uintptr_t)gpu.a;
  ASSERT_EQ(run(&e, PLATFORM_load_fault, 3, &stop), VAPU_OK);
  vapu_exec_destroy(e.x);
}

TEST(vapu_isa_platform_illegal_instruction) {
  struct env e;
  env_init(&e);
  struct vapu_stop stop;
  ASSERT_EQ(run(&e, PLATFORM_illegal, 3, &stop), VAPU_ILLEGAL_INSTRUCTION);
  ASSERT_EQ_U(stop.pc, (uint64_t)(uintptr_t)gpu.code + PLATFORM_illegal + 4);
  ASSERT_TRUE(stop.nwords >= 1);
  ASSERT_EQ_U(stop.words[0], 0x7e00fe00u);
  vapu_exec_destroy(e.x);
}
