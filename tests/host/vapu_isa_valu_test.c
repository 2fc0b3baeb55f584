/* Vector ALU instructions against C references: each kernel of valu.s runs
 * one instruction (or LLVM's expansion of a division) over 64 lanes of
 * special and random inputs, and every lane is compared with a reference
 * computed independently on the CPU (host IEEE arithmetic, glibc libm:
 * fmaf/fma are exact there, _Float16 for halves).
 *
 * Comparison: bit for bit; float results that are NaN only have to be NaN
 * (payloads are not specified); the transcendental unit within its
 * documented error (1 ulp for rcp/rsq/sqrt/exp/log, sin/cos 2 ulp or 2^-20
 * absolute near zero). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/test.h"
#include "tests/host/vapu_isa_harness.h"
#include "lib/util.h"

#define LANES 64
#define BATCHES 8

enum input { IN_F32, IN_I32, IN_F16, IN_SMALL, IN_F64, IN_I64, IN_TRIG, IN_F32_WIDE, IN_F64_WIDE };
enum check { EXACT, FLOAT, F32_ULP1, F32_TRIG, F16, F64, F64_ULP1 };

typedef uint64_t (*ref_fn)(uint64_t a, uint64_t b, uint64_t c, unsigned lane);
typedef uint64_t (*vcc_fn)(const uint64_t *a, const uint64_t *b, const uint64_t *c);

/* The case tables below leave the trailing fields (vcc, wide) out where
 * they are 0/NULL; that is their meaning, not an omission. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

struct vcase {
  const char *label;
  ref_fn ref;
  enum input in[3];
  enum check check;
  vcc_fn vcc; /* reference VCC mask, NULL: VCC must stay 0 */
  bool wide;  /* 64-bit kernel (valu.s T64) */
};

/* ---- Inputs ------------------------------------------------------------------ */
static uint32_t rng_state;
static uint32_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state;
}
static const uint32_t f32_special[] = {
    0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3f000000, 0x40000000, 0x40400000,
    0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0x00000001, 0x807fffff,
    0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff, 0x3f800001, 0x3dcccccd, 0x3eaaaaab,
    0x40490fdb, 0x4b800000, 0x4b000001, 0x3fc00000, 0xbfc00000, 0x3f7fffff, 0x4effffff,
    0xcf000000, 0x4f800000, 0x00400000, 0x34000000};
static const uint32_t i32_special[] = {0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 0xffff, 0x10000,
                                       0x80, 31, 32, 33, 0xff, 0x8000, 0x12345678, 0xdeadbeef, 7};
static const uint64_t f64_special[] = {
    0, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull, 0x7ff0000000000000ull,
    0xfff0000000000000ull, 0x7ff8000000000000ull, 0x0000000000000001ull, 0x000fffffffffffffull,
    0x0010000000000000ull, 0x7fefffffffffffffull, 0x3ff0000000000001ull, 0x4000000000000000ull,
    0x3fb999999999999aull, 0xc00921fb54442d18ull, 0x4330000000000000ull, 0x7fe0000000000000ull,
    0x0008000000000000ull, 0x3fe0000000000000ull, 0x41dfffffffc00000ull};

static uint64_t input(enum input k) {
  uint32_t r = rnd();
  bool special = (r & 3) == 0;
  switch (k) {
  case IN_F32:
    if (special) return f32_special[rnd() % (sizeof f32_special / 4)];
    if ((r & 12) == 4) return rnd(); /* any bits */
    { /* a float of moderate magnitude */
      uint32_t e = 100 + rnd() % 54;
      return (rnd() & 0x807fffffu) | e << 23;
    }
  case IN_I32: return special ? i32_special[rnd() % (sizeof i32_special / 4)] : rnd();
  case IN_SMALL: return rnd() % 40;
  case IN_TRIG: { /* revolutions within the valid range [-256, 256] */
    float f = (float)((int32_t)rnd() % 512000) / 1000.0f;
    return (uint32_t)(special ? f32_special[rnd() % 6] : *(uint32_t *)&f);
  }
  case IN_F16: {
    static const uint16_t h[] = {0, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x7d00,
                                 0x0001, 0x03ff, 0x0400, 0x7bff, 0x3555, 0x4248, 0x3800, 0x5140};
    uint16_t lo = special ? h[rnd() % 16] : (uint16_t)rnd(), hi = (uint16_t)rnd();
    if (!special && (r & 8)) lo = (uint16_t)((rnd() & 0x83ff) | (uint32_t)(10 + rnd() % 12) << 10);
    return (uint32_t)hi << 16 | lo;
  }
  case IN_F64:
    if (special) return f64_special[rnd() % (sizeof f64_special / 8)];
    if ((r & 12) == 4) return (uint64_t)rnd() << 32 | rnd();
    return (((uint64_t)rnd() << 32 | rnd()) & 0x800fffffffffffffull) | (uint64_t)(960 + rnd() % 128) << 52;
  case IN_I64: return (uint64_t)rnd() << 32 | rnd();
  case IN_F32_WIDE: /* any finite exponent, denormals and zero included */
    return (rnd() & 0x807fffffu) | (rnd() % 255) << 23;
  case IN_F64_WIDE:
    return (((uint64_t)rnd() << 32 | rnd()) & 0x800fffffffffffffull) | (uint64_t)(rnd() % 2047) << 52;
  }
  return 0;
}

/* ---- Comparison --------------------------------------------------------------- */
static float f32(uint64_t x) { uint32_t u = (uint32_t)x; float f; memcpy(&f, &u, 4); return f; }
static uint64_t bits32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static double f64(uint64_t x) { double d; memcpy(&d, &x, 8); return d; }
static uint64_t bits64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static _Float16 f16(uint64_t x) { uint16_t u = (uint16_t)x; _Float16 h; memcpy(&h, &u, 2); return h; }
static uint64_t bits16(_Float16 h) { uint16_t u; memcpy(&u, &h, 2); return u; }
static bool nan32(uint64_t x) { return ((uint32_t)x & 0x7fffffffu) > 0x7f800000u; }
static bool nan64(uint64_t x) { return (x & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }
static bool nan16(uint64_t x) { return ((uint16_t)x & 0x7fffu) > 0x7c00u; }
/* Distance in ulps of two finite floats of the same sign (ordered bits). */
static int64_t ulps32(uint32_t a, uint32_t b) {
  int64_t x = (a >> 31) ? -(int64_t)(a & 0x7fffffffu) : (int64_t)a;
  int64_t y = (b >> 31) ? -(int64_t)(b & 0x7fffffffu) : (int64_t)b;
  return x > y ? x - y : y - x;
}
static int64_t ulps64(uint64_t a, uint64_t b) {
  int64_t x = (a >> 63) ? -(int64_t)(a & 0x7fffffffffffffffull) : (int64_t)a;
  int64_t y = (b >> 63) ? -(int64_t)(b & 0x7fffffffffffffffull) : (int64_t)b;
  return x > y ? x - y : y - x;
}

static bool same(enum check c, uint64_t got, uint64_t want) {
  switch (c) {
  case EXACT: return got == want;
  case FLOAT: return (nan32(got) && nan32(want)) || (uint32_t)got == (uint32_t)want;
  case F32_ULP1:
    return (nan32(got) && nan32(want)) || ulps32((uint32_t)got, (uint32_t)want) <= 1;
  case F32_TRIG:
    return (nan32(got) && nan32(want)) || ulps32((uint32_t)got, (uint32_t)want) <= 2 ||
           fabs((double)f32(got) - f32(want)) < 0x1p-20;
  case F16: return (nan16(got) && nan16(want)) || (got & 0xffff) == (want & 0xffff);
  case F64: return (nan64(got) && nan64(want)) || got == want;
  case F64_ULP1: return (nan64(got) && nan64(want)) || ulps64(got, want) <= 1;
  }
  return false;
}

static struct vi_env env;
static struct vi_asm code;

static void run_case(const struct vcase *vc, const struct vi_kd *kd, unsigned batches) {
  uint64_t kobj = vi_asm_kernel(&env, &code, vc->label, kd);
  if (!kobj) FAIL("no kernel %s in valu.o", vc->label);
  size_t esize = vc->wide ? 8 : 4;
  uint8_t *buf[4];
  for (unsigned i = 0; i < 4; i++) {
    buf[i] = vi_alloc(&env, LANES * esize, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
    ASSERT_NOT_NULL(buf[i]);
  }
  uint64_t *mask = vi_alloc(&env, 8, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  uint64_t *kernarg = vi_alloc(&env, 64, VAPU_ACCESS_READ);
  ASSERT_NOT_NULL(mask);
  ASSERT_NOT_NULL(kernarg);
  for (unsigned i = 0; i < 4; i++) kernarg[i] = (uint64_t)(uintptr_t)buf[i];
  kernarg[4] = (uint64_t)(uintptr_t)mask;
  rng_state = 0x9e3779b9u;
  for (unsigned b = 0; b < batches; b++) {
    uint64_t in[3][LANES];
    for (unsigned s = 0; s < 3; s++)
      for (unsigned l = 0; l < LANES; l++) {
        in[s][l] = input(vc->in[s]);
        memcpy(buf[s] + l * esize, &in[s][l], esize);
      }
    struct vi_launch launch = {.kernel_object = kobj, .kernarg = kernarg,
                               .grid = {LANES, 1, 1}, .wg = {LANES, 1, 1}};
    struct vapu_stop stop;
    enum vapu_result r = vi_run(&env, &launch, &stop);
    if (r != VAPU_OK) FAIL("%s: %s: %s", vc->label, vapu_result_name(r), stop.detail);
    for (unsigned l = 0; l < LANES; l++) {
      uint64_t got = 0, want = vc->ref(in[0][l], in[1][l], in[2][l], l);
      memcpy(&got, buf[3] + l * esize, esize);
      if (!vc->wide) want &= 0xffffffffu;
      if (!same(vc->check, got, want))
        FAIL("%s lane %u: inputs %llx %llx %llx: got %llx, want %llx", vc->label, l,
                  (unsigned long long)in[0][l], (unsigned long long)in[1][l], (unsigned long long)in[2][l],
                  (unsigned long long)got, (unsigned long long)want);
    }
    uint64_t want_mask = vc->vcc ? vc->vcc(in[0], in[1], in[2]) : 0;
    if (*mask != want_mask)
      FAIL("%s: VCC %016llx, want %016llx", vc->label, (unsigned long long)*mask,
                (unsigned long long)want_mask);
  }
  for (unsigned i = 0; i < 4; i++) vi_free(&env, buf[i]);
  vi_free(&env, mask);
  vi_free(&env, kernarg);
  vi_free(&env, (void *)(uintptr_t)kobj);
}

static void run_cases(const struct vcase *cases, unsigned n, const struct vi_kd *kd) {
  ASSERT_TRUE(vi_env_init(&env));
  if (!vi_asm_load(&env, "valu", &code)) FAIL("valu.o not built (make test builds it)");
  struct vi_kd def = vi_kd_default();
  for (unsigned i = 0; i < n; i++) run_case(&cases[i], kd ? kd : &def, BATCHES);
  vi_asm_release(&code);
  vi_env_fini(&env);
}
#define RUN(cases, kd) run_cases(cases, countof(cases), kd)

/* ---- f32 references -------------------------------------------------------------- */
#define R(name) static uint64_t name(uint64_t a, uint64_t b, uint64_t c, unsigned l)
#define UNUSED (void)a, (void)b, (void)c, (void)l
static bool snan32(uint64_t x) { return nan32(x) && !((uint32_t)x & 0x00400000u); }
/* IEEE mode min/max (IEEE-754-2008 minNum/maxNum, sNaN -> qNaN; -0 < +0). */
static uint64_t minmax_ref(uint64_t a, uint64_t b, bool max) {
  if (snan32(a) || snan32(b)) return 0x7fc00000;
  if (nan32(a)) return b;
  if (nan32(b)) return a;
  float x = f32(a), y = f32(b);
  if (x == y) return max ? (a & b) : (a | b);
  return (x < y) != max ? a : b;
}
static float flushf(float x) { return fabsf(x) < FLT_MIN ? copysignf(0.0f, x) : x; }
static float clamp01(float x) { return isnan(x) ? 0.0f : x <= 0 ? 0.0f : x > 1 ? 1.0f : x; }
R(r_add_f32) { UNUSED; return bits32(f32(a) + f32(b)); }
R(r_sub_f32) { UNUSED; return bits32(f32(a) - f32(b)); }
R(r_subrev_f32) { UNUSED; return bits32(f32(b) - f32(a)); }
R(r_mul_f32) { UNUSED; return bits32(f32(a) * f32(b)); }
R(r_mul_legacy_f32) { UNUSED; return f32(a) == 0 || f32(b) == 0 ? 0 : bits32(f32(a) * f32(b)); }
R(r_min_f32) { UNUSED; return minmax_ref(a, b, false); }
R(r_max_f32) { UNUSED; return minmax_ref(a, b, true); }
R(r_fma_f32) { UNUSED; return bits32(fmaf(f32(a), f32(b), f32(c))); }
/* mad: product rounded, then the sum; denormals flushed in and out. */
static float mad_ref(float x, float y, float z) {
  return flushf(flushf(flushf(x) * flushf(y)) + flushf(z));
}
R(r_mad_f32) { UNUSED; return bits32(mad_ref(f32(a), f32(b), f32(c))); }
R(r_mac_f32) { UNUSED; return bits32(mad_ref(f32(a), f32(b), f32(c))); }
R(r_madmk_f32) { UNUSED; return bits32(mad_ref(f32(a), f32(0x40490fdb), f32(b))); }
R(r_madak_f32) { UNUSED; return bits32(mad_ref(f32(a), f32(b), f32(0xc0490fdb))); }
R(r_min3_f32) { UNUSED; return minmax_ref(minmax_ref(a, b, false), c, false); }
R(r_max3_f32) { UNUSED; return minmax_ref(minmax_ref(a, b, true), c, true); }
R(r_med3_f32) {
  UNUSED;
  if (nan32(a) || nan32(b) || nan32(c)) return minmax_ref(minmax_ref(a, b, false), c, false);
  uint64_t lo = minmax_ref(a, b, false), hi = minmax_ref(a, b, true);
  return minmax_ref(lo, minmax_ref(hi, c, false), true);
}
R(r_ldexp_f32) { UNUSED; return bits32(ldexpf(f32(a), (int32_t)c)); }
R(r_add_f32_modifiers) { UNUSED; return bits32(-fabsf(f32(a)) + fabsf(f32(b))); }
R(r_fma_f32_neg) { UNUSED; return bits32(fmaf(-f32(a), f32(b), -f32(c))); }
R(r_add_f32_clamp) { UNUSED; return bits32(clamp01(f32(a) + f32(b))); }
R(r_mul_f32_omod2) { UNUSED; return bits32(f32(a) * f32(b) * 2.0f); }
R(r_mul_f32_omod4) { UNUSED; return bits32(f32(a) * f32(b) * 4.0f); }
R(r_mul_f32_omod_half) { UNUSED; return bits32(f32(a) * f32(b) * 0.5f); }
R(r_add_f32_literal) { UNUSED; return bits32(0.125f + f32(a)); }
R(r_add_f32_inline) { UNUSED; return bits32(0.5f + f32(a)); }
R(r_add_f32_inv2pi) { UNUSED; return bits32(f32(0x3e22f983) + f32(a)); }

static const struct vcase f32_arith[] = {
    {"add_f32", r_add_f32, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"sub_f32", r_sub_f32, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"subrev_f32", r_subrev_f32, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"mul_f32", r_mul_f32, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"mul_legacy_f32", r_mul_legacy_f32, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"min_f32", r_min_f32, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"max_f32", r_max_f32, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"fma_f32", r_fma_f32, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"mad_f32", r_mad_f32, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"mac_f32", r_mac_f32, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"madmk_f32", r_madmk_f32, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"madak_f32", r_madak_f32, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"min3_f32", r_min3_f32, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"max3_f32", r_max3_f32, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"med3_f32", r_med3_f32, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"ldexp_f32", r_ldexp_f32, {IN_F32, IN_F32, IN_SMALL}, FLOAT},
    {"add_f32_modifiers", r_add_f32_modifiers, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"fma_f32_neg", r_fma_f32_neg, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"add_f32_clamp", r_add_f32_clamp, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"mul_f32_omod2", r_mul_f32_omod2, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"mul_f32_omod4", r_mul_f32_omod4, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"mul_f32_omod_half", r_mul_f32_omod_half, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"add_f32_literal", r_add_f32_literal, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"add_f32_inline", r_add_f32_inline, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"add_f32_inv2pi", r_add_f32_inv2pi, {IN_F32, IN_F32, IN_F32}, FLOAT},
};
TEST(vapu_isa_valu_f32_arithmetic) { RUN(f32_arith, NULL); }

/* With FLOAT_DENORM_MODE_32 = 0 (flush in and out) from the descriptor. */
R(r_add_f32_ftz) { UNUSED; return bits32(flushf(flushf(f32(a)) + flushf(f32(b)))); }
R(r_mul_f32_ftz) { UNUSED; return bits32(flushf(flushf(f32(a)) * flushf(f32(b)))); }
R(r_fma_f32_ftz) { UNUSED; return bits32(flushf(fmaf(flushf(f32(a)), flushf(f32(b)), flushf(f32(c))))); }
R(r_min_f32_ftz) {
  UNUSED;
  return bits32(flushf(f32(minmax_ref(bits32(flushf(f32(a))), bits32(flushf(f32(b))), false))));
}
static const struct vcase f32_ftz[] = {
    {"add_f32", r_add_f32_ftz, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"mul_f32", r_mul_f32_ftz, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"fma_f32", r_fma_f32_ftz, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"min_f32", r_min_f32_ftz, {IN_F32, IN_F32, IN_F32}, FLOAT},
};
TEST(vapu_isa_valu_f32_flush_denormals) {
  struct vi_kd kd = vi_kd_default();
  kd.rsrc1 &= ~(3u << 16); /* FLOAT_DENORM_MODE_32 = flush input and output */
  RUN(f32_ftz, &kd);
}

/* ---- Conversions, rounding, transcendental unit ------------------------------- */
static int32_t sat_i32(double x) { return isnan(x) ? 0 : x >= 2147483647.0 ? INT32_MAX : x <= -2147483648.0 ? INT32_MIN : (int32_t)x; }
static uint32_t sat_u32(double x) { return isnan(x) || x <= 0 ? 0 : x >= 4294967295.0 ? UINT32_MAX : (uint32_t)x; }
R(r_cvt_i32_f32) { UNUSED; return (uint32_t)sat_i32(f32(a)); }
R(r_cvt_u32_f32) { UNUSED; return sat_u32(f32(a)); }
R(r_cvt_f32_i32) { UNUSED; return bits32((float)(int32_t)a); }
R(r_cvt_f32_u32) { UNUSED; return bits32((float)(uint32_t)a); }
R(r_cvt_rpi_i32_f32) { UNUSED; return (uint32_t)sat_i32(floor((double)f32(a) + 0.5)); }
R(r_cvt_flr_i32_f32) { UNUSED; return (uint32_t)sat_i32(floor((double)f32(a))); }
R(r_cvt_f16_f32) { UNUSED; return bits16((_Float16)f32(a)); }
R(r_cvt_f32_f16) { UNUSED; return bits32((float)f16(a)); }
R(r_cvt_f32_ubyte2) { UNUSED; return bits32((float)((a >> 16) & 0xff)); }
/* Round toward zero to half: from the nearest, step back when it went up. */
static uint64_t f16_rtz(float x) {
  _Float16 h = (_Float16)x;
  if (isnan(x) || isinf(x)) return bits16(h);
  if (fabsf((float)h) > fabsf(x)) return bits16(h) - 1;
  return bits16(h);
}
R(r_cvt_pkrtz_f16_f32) { UNUSED; return f16_rtz(f32(a)) | f16_rtz(f32(b)) << 16; }
R(r_trunc_f32) { UNUSED; return bits32(truncf(f32(a))); }
R(r_ceil_f32) { UNUSED; return bits32(ceilf(f32(a))); }
R(r_floor_f32) { UNUSED; return bits32(floorf(f32(a))); }
R(r_rndne_f32) { UNUSED; return bits32(nearbyintf(f32(a))); }
R(r_fract_f32) {
  UNUSED;
  float x = f32(a), r = x - floorf(x);
  return bits32(isinf(x) || isnan(x) ? NAN : fminf(r, 0x1.fffffep-1f));
}
R(r_frexp_mant_f32) {
  UNUSED;
  int e;
  float x = f32(a);
  return bits32(isnan(x) || isinf(x) ? x : frexpf(x, &e));
}
R(r_frexp_exp_i32_f32) {
  UNUSED;
  int e = 0;
  float x = f32(a);
  if (!isnan(x) && !isinf(x)) frexpf(x, &e);
  return (uint32_t)e;
}
/* The transcendental unit flushes denormal inputs and results. */
static double tin(uint64_t a) { return flushf(f32(a)); }
static uint64_t tout(double r) { return bits32(flushf((float)r)); }
R(r_rcp_f32) { UNUSED; return tout(1.0 / tin(a)); }
R(r_rsq_f32) { UNUSED; return tout(1.0 / sqrt(tin(a))); }
R(r_sqrt_f32) { UNUSED; return tout(sqrt(tin(a))); }
R(r_exp_f32) { UNUSED; return tout(exp2(tin(a))); }
R(r_log_f32) { UNUSED; return tout(log2(tin(a))); }
R(r_sin_f32) { UNUSED; return tout(isinf(tin(a)) ? NAN : sin(2 * M_PI * (tin(a) - nearbyint(tin(a))))); }
R(r_cos_f32) { UNUSED; return tout(isinf(tin(a)) ? NAN : cos(2 * M_PI * (tin(a) - nearbyint(tin(a))))); }
R(r_fdiv_f32) { UNUSED; return bits32(f32(a) / f32(b)); }
static const struct vcase f32_conv[] = {
    {"cvt_i32_f32", r_cvt_i32_f32, {IN_F32, IN_F32, IN_F32}, EXACT},
    {"cvt_u32_f32", r_cvt_u32_f32, {IN_F32, IN_F32, IN_F32}, EXACT},
    {"cvt_f32_i32", r_cvt_f32_i32, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"cvt_f32_u32", r_cvt_f32_u32, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"cvt_rpi_i32_f32", r_cvt_rpi_i32_f32, {IN_F32, IN_F32, IN_F32}, EXACT},
    {"cvt_flr_i32_f32", r_cvt_flr_i32_f32, {IN_F32, IN_F32, IN_F32}, EXACT},
    {"cvt_f16_f32", r_cvt_f16_f32, {IN_F32, IN_F32, IN_F32}, F16},
    {"cvt_f32_f16", r_cvt_f32_f16, {IN_F16, IN_F16, IN_F16}, FLOAT},
    {"cvt_f32_ubyte2", r_cvt_f32_ubyte2, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"cvt_pkrtz_f16_f32", r_cvt_pkrtz_f16_f32, {IN_F32, IN_F32, IN_F32}, EXACT},
    {"trunc_f32", r_trunc_f32, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"ceil_f32", r_ceil_f32, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"floor_f32", r_floor_f32, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"rndne_f32", r_rndne_f32, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"fract_f32", r_fract_f32, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"frexp_mant_f32", r_frexp_mant_f32, {IN_F32, IN_F32, IN_F32}, FLOAT},
    {"frexp_exp_i32_f32", r_frexp_exp_i32_f32, {IN_F32, IN_F32, IN_F32}, EXACT},
    {"rcp_f32", r_rcp_f32, {IN_F32, IN_F32, IN_F32}, F32_ULP1},
    {"rsq_f32", r_rsq_f32, {IN_F32, IN_F32, IN_F32}, F32_ULP1},
    {"sqrt_f32", r_sqrt_f32, {IN_F32, IN_F32, IN_F32}, F32_ULP1},
    {"exp_f32", r_exp_f32, {IN_F32, IN_F32, IN_F32}, F32_ULP1},
    {"log_f32", r_log_f32, {IN_F32, IN_F32, IN_F32}, F32_ULP1},
    {"sin_f32", r_sin_f32, {IN_TRIG, IN_F32, IN_F32}, F32_TRIG},
    {"cos_f32", r_cos_f32, {IN_TRIG, IN_F32, IN_F32}, F32_TRIG},
    {"fdiv_f32", r_fdiv_f32, {IN_F32, IN_F32, IN_F32}, FLOAT},
};
TEST(vapu_isa_valu_f32_conversions_and_transcendentals) { RUN(f32_conv, NULL); }

/* ---- f16 and packed -------------------------------------------------------------- */
static uint64_t hmin(uint64_t a, uint64_t b, bool max) {
  bool sa = nan16(a) && !(a & 0x200), sb = nan16(b) && !(b & 0x200);
  if (sa || sb) return 0x7e00;
  if (nan16(a)) return b & 0xffff;
  if (nan16(b)) return a & 0xffff;
  float x = (float)f16(a), y = (float)f16(b);
  if (x == y) return (max ? (a & b) : (a | b)) & 0xffff;
  return ((x < y) != max ? a : b) & 0xffff;
}
R(r_add_f16) { UNUSED; return bits16(f16(a) + f16(b)); }
R(r_mul_f16) { UNUSED; return bits16(f16(a) * f16(b)); }
/* Exact a * b + c of halves, rounded once to the nearest half (ties to
 * even): halves are integers times 2^-24, so the sum is an integer times
 * 2^-48, compared exactly with the candidates around a first guess. */
static __int128 half_scaled(uint16_t h, int shift) { /* h * 2^(24 + shift) as an integer */
  int e = (h >> 10) & 0x1f;
  __int128 m = e ? (h & 0x3ff) | 0x400 : (h & 0x3ff);
  m <<= (e ? e - 1 : 0) + shift;
  return (h & 0x8000) ? -m : m;
}
static uint64_t fma16_exact(uint64_t a, uint64_t b, uint64_t c) {
  __int128 s = half_scaled((uint16_t)a, 0) * half_scaled((uint16_t)b, 0) + half_scaled((uint16_t)c, 24);
  if (s == 0) return ((a ^ b) & c & 0x8000) ? 0x8000 : 0; /* -0 only when both terms are -0 */
  uint16_t guess = (uint16_t)bits16((_Float16)((double)s * 0x1p-48));
  if ((guess & 0x7fff) >= 0x7c00) guess = (guess & 0x8000) | 0x7bff;
  uint16_t best = guess;
  __int128 best_d = -1;
  for (int k = -2; k <= 2; k++) {
    uint16_t h = (uint16_t)(guess + k);
    if ((h & 0x7fff) > 0x7bff || ((h ^ guess) & 0x8000)) continue;
    __int128 d = half_scaled(h, 24) - s;
    if (d < 0) d = -d;
    if (best_d < 0 || d < best_d || (d == best_d && !(h & 1))) best = h, best_d = d;
  }
  /* Past the largest half by half an ulp of it (2^4 * 2^48 scaled): infinity. */
  __int128 max = half_scaled(0x7bff, 24), ulp = (__int128)1 << 53;
  if (s >= max + ulp / 2) return 0x7c00;
  if (s <= -(max + ulp / 2)) return 0xfc00;
  return best;
}
R(r_fma_f16) {
  UNUSED;
  if (nan16(a) || nan16(b) || nan16(c) || ((a | b | c) & 0x7c00) == 0x7c00 || (a & 0x7c00) == 0x7c00 ||
      (b & 0x7c00) == 0x7c00 || (c & 0x7c00) == 0x7c00)
    return bits16((_Float16)fmaf((float)f16(a), (float)f16(b), (float)f16(c))); /* specials: exact */
  return fma16_exact(a, b, c);
}
R(r_max_f16) { UNUSED; return hmin(a, b, true); }
/* dst WORD_1 (WORD_0 of v4 = 0 kept), src0 WORD_1, src1 WORD_0. */
R(r_add_f16_sdwa_hi) { UNUSED; return bits16(f16(a >> 16) + f16(b)) << 16; }
R(r_pk_add_f16) { UNUSED; return bits16(f16(a) + f16(b)) | bits16(f16(a >> 16) + f16(b >> 16)) << 16; }
R(r_pk_fma_f16) {
  UNUSED;
  return r_fma_f16(a & 0xffff, b & 0xffff, c & 0xffff, l) | r_fma_f16(a >> 16, b >> 16, c >> 16, l) << 16;
}
/* op_sel:[1,0] op_sel_hi:[0,1] neg_lo:[0,1] neg_hi:[1,0]: lo = a.hi * -b.lo,
 * hi = -a.lo * b.hi. */
R(r_pk_mul_f16_opsel) {
  UNUSED;
  return bits16(f16(a >> 16) * -f16(b)) | bits16(-f16(a) * f16(b >> 16)) << 16;
}
/* op_sel_hi:[1,1,0]: a and b are halves (low), c an f32; unfused, f32. */
R(r_mad_mix_f32) { UNUSED; return bits32(mad_ref((float)f16(a), (float)f16(b), f32(c))); }
/* op_sel:[1,1,0,1]: a.hi * b.hi + c.lo into v4's high half (low half kept). */
/* v_mad_f16 does not support denormals (as v_mad_f32): flushed in and out. */
static _Float16 flush16(_Float16 h) { return fabsf((float)h) < 0x1p-14f ? (_Float16)copysignf(0.0f, (float)h) : h; }
R(r_mad_f16_opsel) {
  UNUSED;
  _Float16 p = flush16(flush16(f16(a >> 16)) * flush16(f16(b >> 16)));
  return (c & 0xffff) | bits16(flush16(p + flush16(f16(c)))) << 16;
}
static bool nan16_any(uint64_t x) { return nan16(x) || nan16(x >> 16); }
static const struct vcase f16_cases[] = {
    {"add_f16", r_add_f16, {IN_F16, IN_F16, IN_F16}, F16},
    {"mul_f16", r_mul_f16, {IN_F16, IN_F16, IN_F16}, F16},
    {"fma_f16", r_fma_f16, {IN_F16, IN_F16, IN_F16}, F16},
    {"max_f16", r_max_f16, {IN_F16, IN_F16, IN_F16}, F16},
    {"mad_mix_f32", r_mad_mix_f32, {IN_F16, IN_F16, IN_F32}, FLOAT},
};
TEST(vapu_isa_valu_f16) {
  RUN(f16_cases, NULL);
  /* Two halves per lane: compared exactly when neither half is NaN. */
  static const struct {
    const char *label;
    ref_fn ref;
  } packed[] = {{"add_f16_sdwa_hi", r_add_f16_sdwa_hi}, {"pk_add_f16", r_pk_add_f16},
                {"pk_fma_f16", r_pk_fma_f16}, {"pk_mul_f16_opsel", r_pk_mul_f16_opsel},
                {"mad_f16_opsel", r_mad_f16_opsel}};
  for (unsigned i = 0; i < countof(packed); i++) {
    ASSERT_TRUE(vi_env_init(&env));
    ASSERT_TRUE(vi_asm_load(&env, "valu", &code));
    struct vi_kd kd = vi_kd_default();
    /* NaN-free inputs: both halves are compared bit for bit. */
    struct vcase vc = {packed[i].label, packed[i].ref, {IN_F16, IN_F16, IN_F16}, EXACT};
    uint64_t kobj = vi_asm_kernel(&env, &code, vc.label, &kd);
    ASSERT_NE(kobj, 0);
    uint32_t *buf[4];
    for (unsigned k = 0; k < 4; k++) buf[k] = vi_alloc(&env, 4 * LANES, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
    uint64_t *kernarg = vi_alloc(&env, 64, VAPU_ACCESS_READ), *mask = vi_alloc(&env, 8, VAPU_ACCESS_WRITE);
    for (unsigned k = 0; k < 4; k++) kernarg[k] = (uint64_t)(uintptr_t)buf[k];
    kernarg[4] = (uint64_t)(uintptr_t)mask;
    rng_state = 12345;
    for (unsigned b = 0; b < BATCHES; b++) {
      for (unsigned s = 0; s < 3; s++)
        for (unsigned l = 0; l < LANES; l++) {
          uint32_t v;
          do v = (uint32_t)input(IN_F16) | (uint32_t)(input(IN_F16) & 0xffff) << 16;
          while (nan16_any(v));
          buf[s][l] = v;
        }
      struct vi_launch launch = {.kernel_object = kobj, .kernarg = kernarg, .grid = {LANES, 1, 1}, .wg = {LANES, 1, 1}};
      struct vapu_stop stop;
      ASSERT_EQ(vi_run(&env, &launch, &stop), VAPU_OK);
      for (unsigned l = 0; l < LANES; l++) {
        uint32_t want = (uint32_t)vc.ref(buf[0][l], buf[1][l], buf[2][l], l);
        if (nan16_any(want)) continue; /* inf - inf and such: NaN payloads are free */
        if (buf[3][l] != want)
          FAIL("%s lane %u: %08x %08x %08x: got %08x want %08x", vc.label, l, buf[0][l],
                    buf[1][l], buf[2][l], buf[3][l], want);
      }
    }
    vi_asm_release(&code);
    vi_env_fini(&env);
  }
}

/* ---- Integer ---------------------------------------------------------------------- */
#define U32 (uint32_t)
#define I32 (int32_t)
static uint32_t sext24(uint64_t v) { return (uint32_t)((int32_t)((uint32_t)v << 8) >> 8); }
R(r_add_u32) { UNUSED; return U32 (a + b); }
R(r_add_u32_clamp) { UNUSED; return a + b > UINT32_MAX ? UINT32_MAX : U32 (a + b); }
R(r_sub_u32_clamp) { UNUSED; return b > a ? 0 : U32 (a - b); }
R(r_add_i32_clamp) {
  UNUSED;
  int64_t s = (int64_t)I32 a + I32 b;
  return U32 (s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s);
}
R(r_mul_lo_u32) { UNUSED; return U32 (a * b); }
R(r_mul_hi_u32) { UNUSED; return U32 ((a * b) >> 32); }
R(r_mul_hi_i32) { UNUSED; return U32 ((uint64_t)((int64_t)I32 a * I32 b) >> 32); }
R(r_mul_i32_i24) { UNUSED; return U32 ((int64_t)I32 sext24(a) * I32 sext24(b)); }
R(r_mul_hi_i32_i24) { UNUSED; return U32 ((uint64_t)((int64_t)I32 sext24(a) * I32 sext24(b)) >> 32); }
R(r_mul_u32_u24) { UNUSED; return U32 ((a & 0xffffff) * (b & 0xffffff)); }
R(r_mad_u32_u24) { UNUSED; return U32 ((a & 0xffffff) * (b & 0xffffff) + c); }
R(r_min_i32) { UNUSED; return I32 a < I32 b ? a : b; }
R(r_max_u32) { UNUSED; return U32 a > U32 b ? a : b; }
R(r_med3_i32) {
  UNUSED;
  int32_t x = I32 a, y = I32 b, z = I32 c, v[3] = {x, y, z};
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2 - i; j++)
      if (v[j] > v[j + 1]) { int32_t t = v[j]; v[j] = v[j + 1]; v[j + 1] = t; }
  return U32 v[1];
}
R(r_min3_u32) { UNUSED; uint32_t m = U32 a < U32 b ? U32 a : U32 b; return m < U32 c ? m : U32 c; }
R(r_lshlrev_b32) { UNUSED; return U32 (a << (b & 31)); }
R(r_lshrrev_b32) { UNUSED; return U32 a >> (b & 31); }
R(r_ashrrev_i32) { UNUSED; return U32 (I32 a >> (b & 31)); }
static uint32_t bfe(uint32_t v, uint32_t off, uint32_t w, bool sign) {
  off &= 31, w &= 31;
  if (!w) return 0;
  uint64_t x = sign ? (uint64_t)(int64_t)I32 v : v;
  uint64_t f = (x >> off) & ((1ull << w) - 1);
  if (sign && ((f >> (w - 1)) & 1)) f |= ~0ull << w;
  return U32 f;
}
R(r_bfe_u32) { UNUSED; return bfe(U32 a, U32 b, U32 c, false); }
R(r_bfe_i32) { UNUSED; return bfe(U32 a, U32 b, U32 c, true); }
R(r_bfi_b32) { UNUSED; return U32 ((a & b) | (~a & c)); }
R(r_bfm_b32) { UNUSED; return U32 ((((uint64_t)1 << (a & 31)) - 1) << (b & 31)); }
R(r_alignbit_b32) { UNUSED; return U32 ((((uint64_t)U32 a << 32) | U32 b) >> (c & 31)); }
R(r_alignbyte_b32) { UNUSED; return U32 ((((uint64_t)U32 a << 32) | U32 b) >> (8 * (c & 3))); }
R(r_perm_b32) {
  UNUSED;
  uint8_t bytes[8];
  uint64_t d = (uint64_t)U32 a << 32 | U32 b;
  memcpy(bytes, &d, 8);
  uint32_t r = 0;
  for (int i = 0; i < 4; i++) {
    unsigned s = (c >> (8 * i)) & 0xff;
    uint32_t v = s < 8 ? bytes[s] : s == 8 ? (bytes[1] & 0x80 ? 0xff : 0) : s == 9 ? (bytes[3] & 0x80 ? 0xff : 0)
                 : s == 10 ? (bytes[5] & 0x80 ? 0xff : 0) : s == 11 ? (bytes[7] & 0x80 ? 0xff : 0)
                 : s == 12 ? 0 : 0xff;
    r |= v << (8 * i);
  }
  return r;
}
R(r_lshl_add_u32) { UNUSED; return U32 ((U32 a << (b & 31)) + c); }
R(r_add3_u32) { UNUSED; return U32 (a + b + c); }
R(r_lshl_or_b32) { UNUSED; return U32 ((U32 a << (b & 31)) | c); }
R(r_and_or_b32) { UNUSED; return U32 ((a & b) | c); }
R(r_xad_u32) { UNUSED; return U32 ((a ^ b) + c); }
static uint32_t sad(uint64_t a, uint64_t b, bool masked) {
  uint32_t s = 0;
  for (int i = 0; i < 32; i += 8) {
    int x = (a >> i) & 0xff, y = (b >> i) & 0xff;
    if (!masked || y) s += (uint32_t)abs(x - y);
  }
  return s;
}
R(r_sad_u8) { UNUSED; return U32 (sad(a, b, false) + c); }
R(r_msad_u8) { UNUSED; return U32 (sad(a, b, true) + c); }
R(r_lerp_u8) {
  UNUSED;
  uint32_t r = 0;
  for (int i = 0; i < 32; i += 8) r |= U32 ((((a >> i) & 0xff) + ((b >> i) & 0xff) + ((c >> i) & 1)) >> 1) << i;
  return r;
}
R(r_bcnt_u32_b32) { UNUSED; return U32 (__builtin_popcount(U32 a) + b); }
R(r_ffbh_u32) { UNUSED; return U32 a ? U32 __builtin_clz(U32 a) : UINT32_MAX; }
R(r_ffbl_b32) { UNUSED; return U32 a ? U32 __builtin_ctz(U32 a) : UINT32_MAX; }
R(r_ffbh_i32) {
  UNUSED;
  uint32_t x = I32 a < 0 ? ~U32 a : U32 a;
  return x ? U32 __builtin_clz(x) : UINT32_MAX;
}
R(r_bfrev_b32) {
  UNUSED;
  uint32_t r = 0;
  for (int i = 0; i < 32; i++) r |= ((U32 a >> i) & 1) << (31 - i);
  return r;
}
R(r_not_b32) { UNUSED; return U32 ~a; }
/* 16-bit VOP2 results zero bits 31:16 on gfx9 (LLVM zeroesHigh16BitsOfDest). */
R(r_add_u16) { UNUSED; return (a + b) & 0xffff; }
R(r_mul_lo_u16) { UNUSED; return (a * b) & 0xffff; }
R(r_ashrrev_i16) { UNUSED; return U32 ((int16_t)a >> (b & 15)) & 0xffff; }
R(r_max_i16) { UNUSED; return ((int16_t)a > (int16_t)b ? a : b) & 0xffff; }
R(r_mad_u32_u16) { UNUSED; return U32 ((a & 0xffff) * (b & 0xffff) + c); }
static uint32_t halves(uint32_t lo, uint32_t hi) { return (lo & 0xffff) | hi << 16; }
static uint32_t usat16(int64_t v) { return U32 (v < 0 ? 0 : v > 0xffff ? 0xffff : v); }
R(r_pk_add_u16_clamp) { UNUSED; return halves(usat16((a & 0xffff) + (b & 0xffff)), usat16(((a >> 16) & 0xffff) + ((b >> 16) & 0xffff))); }
R(r_pk_sub_i16) { UNUSED; return halves(U32 ((int16_t)a - (int16_t)b), U32 ((int16_t)(a >> 16) - (int16_t)(b >> 16))); }
R(r_pk_mad_i16) {
  UNUSED;
  return halves(U32 ((int16_t)a * (int16_t)b + (int16_t)c), U32 ((int16_t)(a >> 16) * (int16_t)(b >> 16) + (int16_t)(c >> 16)));
}
R(r_pk_lshlrev_b16) { UNUSED; return halves(U32 ((a & 0xffff) << (b & 15)), U32 (((a >> 16) & 0xffff) << ((b >> 16) & 15))); }
static uint32_t usat8(int v) { return U32 (v < 0 ? 0 : v > 255 ? 255 : v); }
R(r_sat_pk_u8_i16) { UNUSED; return usat8((int16_t)a) | usat8((int16_t)(a >> 16)) << 8; }
R(r_cvt_pk_u16_u32) { UNUSED; return halves(U32 a > 0xffff ? 0xffff : U32 a, U32 b > 0xffff ? 0xffff : U32 b); }
/* dst BYTE_1 with the rest 0; src0 BYTE_3, src1 BYTE_0. */
R(r_and_b32_sdwa_byte) { UNUSED; return (((a >> 24) & (b & 0xff)) & 0xff) << 8; }
/* sext(src0 BYTE_0) + src1 WORD_1 into WORD_0, sign-extended above. */
R(r_add_u32_sdwa_sext) {
  UNUSED;
  uint32_t r = U32 ((int8_t)a + ((b >> 16) & 0xffff)) & 0xffff;
  return r | ((r & 0x8000) ? 0xffff0000u : 0);
}
R(r_mov_sdwa_preserve) { UNUSED; return (U32 c & 0xff00ffffu) | (U32 (a & 0xff) << 16); }

static const struct vcase int_cases[] = {
    {"add_u32", r_add_u32, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"add_u32_clamp", r_add_u32_clamp, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"sub_u32_clamp", r_sub_u32_clamp, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"add_i32_clamp", r_add_i32_clamp, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"mul_lo_u32", r_mul_lo_u32, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"mul_hi_u32", r_mul_hi_u32, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"mul_hi_i32", r_mul_hi_i32, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"mul_i32_i24", r_mul_i32_i24, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"mul_hi_i32_i24", r_mul_hi_i32_i24, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"mul_u32_u24", r_mul_u32_u24, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"mad_u32_u24", r_mad_u32_u24, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"min_i32", r_min_i32, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"max_u32", r_max_u32, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"med3_i32", r_med3_i32, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"min3_u32", r_min3_u32, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"lshlrev_b32", r_lshlrev_b32, {IN_I32, IN_SMALL, IN_I32}, EXACT},
    {"lshrrev_b32", r_lshrrev_b32, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"ashrrev_i32", r_ashrrev_i32, {IN_I32, IN_SMALL, IN_I32}, EXACT},
    {"bfe_u32", r_bfe_u32, {IN_I32, IN_SMALL, IN_SMALL}, EXACT},
    {"bfe_i32", r_bfe_i32, {IN_I32, IN_SMALL, IN_SMALL}, EXACT},
    {"bfi_b32", r_bfi_b32, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"bfm_b32", r_bfm_b32, {IN_SMALL, IN_SMALL, IN_I32}, EXACT},
    {"alignbit_b32", r_alignbit_b32, {IN_I32, IN_I32, IN_SMALL}, EXACT},
    {"alignbyte_b32", r_alignbyte_b32, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"perm_b32", r_perm_b32, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"lshl_add_u32", r_lshl_add_u32, {IN_I32, IN_SMALL, IN_I32}, EXACT},
    {"add3_u32", r_add3_u32, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"lshl_or_b32", r_lshl_or_b32, {IN_I32, IN_SMALL, IN_I32}, EXACT},
    {"and_or_b32", r_and_or_b32, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"xad_u32", r_xad_u32, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"sad_u8", r_sad_u8, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"msad_u8", r_msad_u8, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"lerp_u8", r_lerp_u8, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"bcnt_u32_b32", r_bcnt_u32_b32, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"ffbh_u32", r_ffbh_u32, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"ffbl_b32", r_ffbl_b32, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"ffbh_i32", r_ffbh_i32, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"bfrev_b32", r_bfrev_b32, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"not_b32", r_not_b32, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"add_u16", r_add_u16, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"mul_lo_u16", r_mul_lo_u16, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"ashrrev_i16", r_ashrrev_i16, {IN_I32, IN_SMALL, IN_I32}, EXACT},
    {"max_i16", r_max_i16, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"mad_u32_u16", r_mad_u32_u16, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"pk_add_u16_clamp", r_pk_add_u16_clamp, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"pk_sub_i16", r_pk_sub_i16, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"pk_mad_i16", r_pk_mad_i16, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"pk_lshlrev_b16", r_pk_lshlrev_b16, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"sat_pk_u8_i16", r_sat_pk_u8_i16, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"cvt_pk_u16_u32", r_cvt_pk_u16_u32, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"and_b32_sdwa_byte", r_and_b32_sdwa_byte, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"add_u32_sdwa_sext", r_add_u32_sdwa_sext, {IN_I32, IN_I32, IN_I32}, EXACT},
    {"mov_sdwa_preserve", r_mov_sdwa_preserve, {IN_I32, IN_I32, IN_I32}, EXACT},
};
TEST(vapu_isa_valu_integer) { RUN(int_cases, NULL); }

/* ---- Carries and compares: results and the VCC mask ---------------------------- */
#define MASK(name, EXPR)                                                       \
  static uint64_t name(const uint64_t *a, const uint64_t *b, const uint64_t *c) { \
    uint64_t m = 0;                                                            \
    for (unsigned l = 0; l < LANES; l++)                                       \
      if (EXPR) m |= 1ull << l;                                                \
    (void)a, (void)b, (void)c;                                                 \
    return m;                                                                  \
  }
MASK(m_add_carry, (uint64_t)U32 a[l] + U32 b[l] > UINT32_MAX)
MASK(m_addc_carry, (uint64_t)U32 a[l] + U32 b[l] + (U32 c[l] > U32 a[l]) > UINT32_MAX)
MASK(m_sub_borrow, U32 b[l] > U32 a[l])
MASK(m_subb_borrow, (uint64_t)U32 b[l] + (U32 c[l] > U32 a[l]) > U32 a[l])
MASK(m_subbrev_borrow, (uint64_t)U32 a[l] + (U32 c[l] > U32 a[l]) > U32 b[l])
MASK(m_lt_i32, I32 a[l] < I32 b[l])
MASK(m_lt_f32, f32(a[l]) < f32(b[l]))
MASK(m_nge_f32, !(f32(a[l]) >= f32(b[l])))
MASK(m_u_f32, isnan(f32(a[l])) || isnan(f32(b[l])))
MASK(m_lg_f32_mod, -f32(a[l]) < fabsf(f32(b[l])) || -f32(a[l]) > fabsf(f32(b[l])))
MASK(m_ge_i32, I32 a[l] >= I32 b[l])
MASK(m_ne_u32, U32 a[l] != U32 b[l])
MASK(m_gt_u16, (uint16_t)a[l] > (uint16_t)b[l])
MASK(m_eq_u32_sdwa, ((a[l] >> 8) & 0xff) == (b[l] & 0xff))
MASK(m_lt_i64, (int64_t)a[l] < (int64_t)b[l])
MASK(m_ngt_f64, !(f64(a[l]) > f64(b[l])))
/* v_cmp_class: the class of S0 (bit 0 sNaN ... 9 +inf) in the mask S1. */
static unsigned class_of(uint32_t x) {
  float f = f32(x);
  if (isnan(f)) return (x & 0x400000) ? 2 : 1;
  bool neg = x >> 31;
  if (isinf(f)) return neg ? 1u << 2 : 1u << 9;
  if (f == 0) return neg ? 1u << 5 : 1u << 6;
  if (fabsf(f) < FLT_MIN) return neg ? 1u << 4 : 1u << 7;
  return neg ? 1u << 3 : 1u << 8;
}
MASK(m_class, (class_of(U32 a[l]) & c[l]) != 0)

R(r_carry_sum) { UNUSED; return U32 (a + b); }
R(r_addc_sum) { UNUSED; return U32 (a + b + (U32 c > U32 a)); }
R(r_sub_diff) { UNUSED; return U32 (a - b); }
R(r_subb_diff) { UNUSED; return U32 (a - b - (U32 c > U32 a)); }
R(r_subbrev_diff) { UNUSED; return U32 (b - a - (U32 c > U32 a)); }
R(r_cndmask) { UNUSED; return I32 a < I32 b ? c : b; }
R(r_zero) { UNUSED; return 0; }
R(r_cmpx) { UNUSED; return I32 a < I32 b ? c : 0xffffffffu; }

static const struct vcase cmp_cases[] = {
    {"add_co_u32", r_carry_sum, {IN_I32, IN_I32, IN_I32}, EXACT, m_add_carry},
    {"addc_co_u32", r_addc_sum, {IN_I32, IN_I32, IN_I32}, EXACT, m_addc_carry},
    {"sub_co_u32", r_sub_diff, {IN_I32, IN_I32, IN_I32}, EXACT, m_sub_borrow},
    {"subb_co_u32", r_subb_diff, {IN_I32, IN_I32, IN_I32}, EXACT, m_subb_borrow},
    {"subbrev_co_u32_e64", r_subbrev_diff, {IN_I32, IN_I32, IN_I32}, EXACT, m_subbrev_borrow},
    {"cndmask_b32", r_cndmask, {IN_I32, IN_I32, IN_I32}, EXACT, m_lt_i32},
    {"cmp_lt_f32", r_zero, {IN_F32, IN_F32, IN_F32}, EXACT, m_lt_f32},
    {"cmp_nge_f32", r_zero, {IN_F32, IN_F32, IN_F32}, EXACT, m_nge_f32},
    {"cmp_u_f32", r_zero, {IN_F32, IN_F32, IN_F32}, EXACT, m_u_f32},
    {"cmp_lg_f32_e64", r_zero, {IN_F32, IN_F32, IN_F32}, EXACT, m_lg_f32_mod},
    {"cmp_class_f32", r_zero, {IN_F32, IN_F32, IN_I32}, EXACT, m_class},
    {"cmp_ge_i32", r_zero, {IN_I32, IN_I32, IN_I32}, EXACT, m_ge_i32},
    {"cmp_ne_u32_e64", r_zero, {IN_I32, IN_I32, IN_I32}, EXACT, m_ne_u32},
    {"cmp_gt_u16", r_zero, {IN_I32, IN_I32, IN_I32}, EXACT, m_gt_u16},
    {"cmp_eq_u32_sdwa", r_zero, {IN_SMALL, IN_SMALL, IN_I32}, EXACT, m_eq_u32_sdwa},
    {"cmpx_lt_i32", r_cmpx, {IN_I32, IN_I32, IN_I32}, EXACT, m_lt_i32},
};
TEST(vapu_isa_valu_carries_and_compares) { RUN(cmp_cases, NULL); }

/* ---- Lane operations ---------------------------------------------------------------- */
/* mbcnt of the mask {v2:v1} per lane: bits below the lane. */
R(r_mbcnt) {
  UNUSED;
  uint64_t m = (uint64_t)U32 b << 32 | U32 a;
  return U32 __builtin_popcountll(m & ((1ull << l) - 1));
}
MASK(m_none, 0)
static const struct vcase lane_cases[] = {
    {"mbcnt", r_mbcnt, {IN_I32, IN_I32, IN_I32}, EXACT, m_none},
};
/* The cross-lane kernels: inputs per lane are the lane number times a
 * constant, so the references can find the source lane. */
static void run_lane_kernel(const char *label, uint32_t (*ref)(unsigned l, const uint32_t *a,
                                                                const uint32_t *b, const uint32_t *c)) {
  struct vi_kd kd = vi_kd_default();
  uint64_t kobj = vi_asm_kernel(&env, &code, label, &kd);
  ASSERT_NE(kobj, 0);
  uint32_t *buf[4];
  for (unsigned k = 0; k < 4; k++) buf[k] = vi_alloc(&env, 4 * LANES, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  uint64_t *kernarg = vi_alloc(&env, 64, VAPU_ACCESS_READ), *mask = vi_alloc(&env, 8, VAPU_ACCESS_WRITE);
  for (unsigned k = 0; k < 4; k++) kernarg[k] = (uint64_t)(uintptr_t)buf[k];
  kernarg[4] = (uint64_t)(uintptr_t)mask;
  for (unsigned l = 0; l < LANES; l++) {
    buf[0][l] = 1000 + l * 3;
    buf[1][l] = 7 * l + 1;
    buf[2][l] = 0xab00 + l;
  }
  struct vi_launch launch = {.kernel_object = kobj, .kernarg = kernarg, .grid = {LANES, 1, 1}, .wg = {LANES, 1, 1}};
  struct vapu_stop stop;
  ASSERT_EQ(vi_run(&env, &launch, &stop), VAPU_OK);
  for (unsigned l = 0; l < LANES; l++) {
    uint32_t want = ref(l, buf[0], buf[1], buf[2]);
    if (buf[3][l] != want)
      FAIL("%s lane %u: got %08x want %08x", label, l, buf[3][l], want);
  }
  for (unsigned k = 0; k < 4; k++) vi_free(&env, buf[k]);
  vi_free(&env, kernarg);
  vi_free(&env, mask);
  vi_free(&env, (void *)(uintptr_t)kobj);
}
#define LREF(name) static uint32_t name(unsigned l, const uint32_t *a, const uint32_t *b, const uint32_t *c)
/* readlane s16 = a[37]; writelane into lane 5 (v4 was 0); + readfirstlane b[0]. */
LREF(l_readlane) { return (l == 5 ? a[37] : 0) + b[0]; }
/* row_shr:3: lanes 0-2 of each row have no source: not written (bound_ctrl off). */
LREF(l_dpp_row_shr) { return (l & 15) < 3 ? c[l] : a[l - 3] + b[l]; }
LREF(l_dpp_row_shr_bound0) { return (l & 15) < 3 ? 0 + b[l] : a[l - 3] + b[l]; }
LREF(l_dpp_quad_perm) { return a[(l & ~3u) | (3 - (l & 3))]; }
/* row_bcast:15 with row_mask 0xa: rows 1 and 3 get lane 15 of the row below. */
LREF(l_dpp_row_bcast15) { unsigned r = l / 16; return (r == 1 || r == 3) ? a[r * 16 - 1] : c[l]; }
LREF(l_dpp_wave_shl) { return l < 63 ? a[l + 1] : c[l]; }
/* row_mirror with bank_mask 0x5: banks 0 and 2 (lanes 0-3, 8-11 of each row). */
LREF(l_dpp_row_mirror_banks) { unsigned bank = (l >> 2) & 3; return (bank == 0 || bank == 2) ? a[(l & ~15u) | (15 - (l & 15))] : c[l]; }
LREF(l_swap) { return a[l] + b[l]; }
TEST(vapu_isa_valu_lanes) {
  RUN(lane_cases, NULL);
  ASSERT_TRUE(vi_env_init(&env));
  ASSERT_TRUE(vi_asm_load(&env, "valu", &code));
  run_lane_kernel("readlane", l_readlane);
  run_lane_kernel("dpp_row_shr", l_dpp_row_shr);
  run_lane_kernel("dpp_row_shr_bound0", l_dpp_row_shr_bound0);
  run_lane_kernel("dpp_quad_perm", l_dpp_quad_perm);
  run_lane_kernel("dpp_row_bcast15", l_dpp_row_bcast15);
  run_lane_kernel("dpp_wave_shl", l_dpp_wave_shl);
  run_lane_kernel("dpp_row_mirror_banks", l_dpp_row_mirror_banks);
  run_lane_kernel("swap_b32", l_swap);
  vi_asm_release(&code);
  vi_env_fini(&env);
}

/* ---- 64-bit ------------------------------------------------------------------------ */
static bool snan64(uint64_t x) { return nan64(x) && !(x & 0x0008000000000000ull); }
static uint64_t minmax64_ref(uint64_t a, uint64_t b, bool max) {
  if (snan64(a) || snan64(b)) return 0x7ff8000000000000ull;
  if (nan64(a)) return b;
  if (nan64(b)) return a;
  double x = f64(a), y = f64(b);
  if (x == y) return max ? (a & b) : (a | b);
  return (x < y) != max ? a : b;
}
R(r_add_f64) { UNUSED; return bits64(f64(a) + f64(b)); }
R(r_mul_f64) { UNUSED; return bits64(f64(a) * f64(b)); }
R(r_fma_f64) { UNUSED; return bits64(fma(f64(a), f64(b), f64(c))); }
R(r_min_f64) { UNUSED; return minmax64_ref(a, b, false); }
R(r_max_f64_neg) { UNUSED; return minmax64_ref(a ^ (1ull << 63), b, true); }
R(r_ldexp_f64) { UNUSED; return bits64(ldexp(f64(a), (int32_t)c)); }
R(r_sqrt_f64) { UNUSED; return bits64(sqrt(f64(a))); }
R(r_rcp_f64) { UNUSED; return bits64(1.0 / f64(a)); }
R(r_floor_f64) { UNUSED; return bits64(floor(f64(a))); }
R(r_fract_f64) { UNUSED; double x = f64(a); return bits64(isinf(x) || isnan(x) ? NAN : fmin(x - floor(x), 0x1.fffffffffffffp-1)); }
R(r_frexp_mant_f64) { UNUSED; int e; double x = f64(a); return bits64(isnan(x) || isinf(x) ? x : frexp(x, &e)); }
R(r_cvt_f64_i32) { UNUSED; return bits64((double)(int32_t)a); }
R(r_cvt_i32_f64) { UNUSED; return (uint32_t)sat_i32(f64(a)); }
R(r_cvt_f32_f64) { UNUSED; return bits32((float)f64(a)); }
R(r_cvt_f64_f32) { UNUSED; return bits64((double)f32(a)); }
R(r_lshlrev_b64) { UNUSED; return a << (b & 63); }
R(r_lshrrev_b64) { UNUSED; return a >> (b & 63); }
R(r_ashrrev_i64) { UNUSED; return (uint64_t)((int64_t)a >> (b & 63)); }
R(r_mad_u64_u32) { UNUSED; return (uint64_t)U32 a * U32 b + c; }
R(r_mad_i64_i32) { UNUSED; return (uint64_t)((int64_t)I32 a * I32 b) + c; }
R(r_fdiv_f64) { UNUSED; return bits64(f64(a) / f64(b)); }
MASK(m_mad_u64_carry, (unsigned __int128)((uint64_t)U32 a[l] * U32 b[l]) + c[l] > UINT64_MAX)
MASK(m_mad_i64_overflow, ((__int128)((int64_t)I32 a[l] * I32 b[l]) + (int64_t)c[l]) > INT64_MAX ||
                         ((__int128)((int64_t)I32 a[l] * I32 b[l]) + (int64_t)c[l]) < INT64_MIN)
static const struct vcase wide_cases[] = {
    {"add_f64", r_add_f64, {IN_F64, IN_F64, IN_F64}, F64, NULL, true},
    {"mul_f64", r_mul_f64, {IN_F64, IN_F64, IN_F64}, F64, NULL, true},
    {"fma_f64", r_fma_f64, {IN_F64, IN_F64, IN_F64}, F64, NULL, true},
    {"min_f64", r_min_f64, {IN_F64, IN_F64, IN_F64}, F64, NULL, true},
    {"max_f64_neg", r_max_f64_neg, {IN_F64, IN_F64, IN_F64}, F64, NULL, true},
    {"ldexp_f64", r_ldexp_f64, {IN_F64, IN_F64, IN_SMALL}, F64, NULL, true},
    {"sqrt_f64", r_sqrt_f64, {IN_F64, IN_F64, IN_F64}, F64_ULP1, NULL, true},
    {"rcp_f64", r_rcp_f64, {IN_F64, IN_F64, IN_F64}, F64_ULP1, NULL, true},
    {"floor_f64", r_floor_f64, {IN_F64, IN_F64, IN_F64}, F64, NULL, true},
    {"fract_f64", r_fract_f64, {IN_F64, IN_F64, IN_F64}, F64, NULL, true},
    {"frexp_mant_f64", r_frexp_mant_f64, {IN_F64, IN_F64, IN_F64}, F64, NULL, true},
    {"cvt_f64_i32", r_cvt_f64_i32, {IN_I64, IN_I64, IN_I64}, F64, NULL, true},
    {"cvt_i32_f64", r_cvt_i32_f64, {IN_F64, IN_F64, IN_F64}, EXACT, NULL, true},
    {"cvt_f32_f64", r_cvt_f32_f64, {IN_F64, IN_F64, IN_F64}, FLOAT, NULL, true},
    {"cvt_f64_f32", r_cvt_f64_f32, {IN_F32, IN_F32, IN_F32}, F64, NULL, true},
    {"lshlrev_b64", r_lshlrev_b64, {IN_I64, IN_SMALL, IN_I64}, EXACT, NULL, true},
    {"lshrrev_b64", r_lshrrev_b64, {IN_I64, IN_I64, IN_I64}, EXACT, NULL, true},
    {"ashrrev_i64", r_ashrrev_i64, {IN_I64, IN_SMALL, IN_I64}, EXACT, NULL, true},
    {"mad_u64_u32", r_mad_u64_u32, {IN_I64, IN_I64, IN_I64}, EXACT, m_mad_u64_carry, true},
    {"mad_i64_i32", r_mad_i64_i32, {IN_I64, IN_I64, IN_I64}, EXACT, m_mad_i64_overflow, true},
    {"cmp_lt_i64", r_zero, {IN_I64, IN_I64, IN_I64}, EXACT, m_lt_i64, true},
    {"cmp_ngt_f64", r_zero, {IN_F64, IN_F64, IN_F64}, EXACT, m_ngt_f64, true},
    {"fdiv_f64", r_fdiv_f64, {IN_F64, IN_F64, IN_F64}, F64, NULL, true},
};
TEST(vapu_isa_valu_64bit) { RUN(wide_cases, NULL); }

/* LLVM's f32 and f64 division sequences over operands of every magnitude
 * (denominators and quotients denormal, near overflow, tiny numerators:
 * each scaling case of div_scale) must give IEEE a / b exactly. */
TEST(vapu_isa_valu_division) {
  ASSERT_TRUE(vi_env_init(&env));
  ASSERT_TRUE(vi_asm_load(&env, "valu", &code));
  struct vi_kd kd = vi_kd_default();
  const struct vcase f = {"fdiv_f32", r_fdiv_f32, {IN_F32_WIDE, IN_F32_WIDE, IN_F32}, FLOAT};
  const struct vcase d = {"fdiv_f64", r_fdiv_f64, {IN_F64_WIDE, IN_F64_WIDE, IN_F64}, F64, NULL, true};
  run_case(&f, &kd, 64);
  run_case(&d, &kd, 64);
  vi_asm_release(&code);
  vi_env_fini(&env);
}
