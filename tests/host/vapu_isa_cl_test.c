/* OpenCL C kernels (cl_ops.cl) built by clang-19 at O0, O2 (v4 and v5) and
 * O3: LDS and global atomics, sub-group and work-group collectives, narrow
 * and 64-bit integers, the float and double math library (within the
 * OpenCL C 2.0 full-profile ulp bounds, against glibc), half precision and
 * conversions. Every output is checked against a C reference. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/test.h"
#include "tests/host/vapu_isa_harness.h"

static const char *const variants[] = {"O0.v5", "O2.v4", "O2.v5", "O3.v5"};

struct ctx {
  struct vi_env e;
  struct vi_code_object k;
};

/* Loads cl_ops.<variant>.co's `kernel`, runs it with `args` (pointers and
 * values packed as the kernel declares them) over grid/wg in 1D. */
static void run(const char *variant, const char *kernel, const void *args, size_t args_size, uint32_t grid,
                uint32_t wg, struct ctx *c) {
  char path[512], sym[64], why[256];
  snprintf(path, sizeof path, "%s/vapu-isa/cl_ops.%s.co", VAPU_ISA_BUILD_DIR, variant);
  snprintf(sym, sizeof sym, "%s.kd", kernel);
  if (!vi_code_object_load(&c->e, path, sym, NULL, &c->k, why, sizeof why))
    FAIL("%s (make test builds it)", why);
  uint32_t g[3] = {grid, 1, 1}, w[3] = {wg, 1, 1};
  void *kernarg = vi_kernarg(&c->e, &c->k, args, args_size, 1, g, w, why, sizeof why);
  if (!kernarg) FAIL("%s: %s", path, why);
  struct vi_launch l = {.kernel_object = c->k.kernel_object, .kernarg = kernarg, .grid = {grid, 1, 1},
                        .wg = {wg, 1, 1}};
  struct vapu_stop stop;
  enum vapu_result r = vi_run(&c->e, &l, &stop);
  if (r != VAPU_OK) FAIL("%s %s: %s: %s", path, kernel, vapu_result_name(r), stop.detail);
}
static void *gpu(struct ctx *c, size_t size) {
  void *p = vi_alloc(&c->e, size, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  ASSERT_NOT_NULL(p);
  return p;
}
#define P(x) ((uint64_t)(uintptr_t)(x))
static uint32_t rng;
static uint32_t rnd(void) {
  rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
  return rng;
}
static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return x < y ? -1 : x > y;
}

/* ---- atomics --------------------------------------------------------------- */
TEST(vapu_isa_cl_atomics) {
  for (unsigned v = 0; v < 4; v++) {
    test_context("variant %s", variants[v]);
    struct ctx c;
    ASSERT_TRUE(vi_env_init(&c.e));
    int *out = gpu(&c, 1024 * 16 * 4), *groups = gpu(&c, 4 * 64 * 4);
    int64_t *wide = gpu(&c, 64);
    uint32_t *ctr = gpu(&c, 64);
    ctr[2] = UINT32_MAX;
    wide[1] = LLONG_MIN;
    wide[3] = 0x5555;
    uint64_t args[4] = {P(out), P(groups), P(wide), P(ctr)};
    run(variants[v], "atomics", args, sizeof args, 1024, 256, &c);
    for (unsigned g = 0; g < 4; g++) {
      const int *G = groups + g * 64;
      const int want[13] = {0, 513, -254, 155, -255, -1, 0, 7, 1000, -1 /* checked below */, 256, -256, 765};
      for (unsigned i = 0; i < 13; i++)
        if (i != 9 && G[i] != want[i])
          FAIL("%s group %u lds/lu[%u] = %d, want %d", variants[v], g, i, G[i], want[i]);
      int r0[256], r1[256], r3[257];
      unsigned eights = 0;
      for (unsigned t = 0; t < 256; t++) {
        const int *o = out + (g * 256 + t) * 16;
        r0[t] = o[0], r1[t] = o[1], r3[t] = o[3];
        eights += o[2] == 8;
        ASSERT_TRUE(o[2] == 8 || o[2] == 1000);
      }
      ASSERT_EQ(eights, 1); /* cmpxchg matched once */
      r3[256] = G[9];       /* xchg: the returned values and the final one are 9 and every lid */
      qsort(r0, 256, 4, cmp_int);
      qsort(r1, 256, 4, cmp_int);
      qsort(r3, 257, 4, cmp_int);
      for (int t = 0; t < 256; t++) {
        ASSERT_EQ(r0[t], 1 + 2 * t);
        ASSERT_EQ(r1[t], -253 + t);
      }
      for (int t = 0, k = 0; t < 257; t++, k++) {
        if (t == 10) k--; /* 9 twice: the initial value and lid 9 */
        ASSERT_EQ(r3[t], k);
      }
    }
    int olds[1024], incs[1024];
    unsigned chain = 0;
    for (unsigned t = 0; t < 1024; t++) {
      olds[t] = out[t * 16 + 4];
      incs[t] = out[t * 16 + 5];
      chain += out[t * 16 + 6] == (int)t;
    }
    qsort(olds, 1024, 4, cmp_int);
    qsort(incs, 1024, 4, cmp_int);
    for (int t = 0; t < 1024; t++) {
      ASSERT_EQ(olds[t], t);
      ASSERT_EQ(incs[t], t);
    }
    ASSERT_EQ_U(ctr[0], 1024);
    ASSERT_EQ_U(ctr[1], 1023);
    ASSERT_EQ_U(ctr[2], 5);
    ASSERT_EQ_U(ctr[3], 1024);
    ASSERT_EQ_U(wide[0], 0x100000001ull * 523776);
    ASSERT_EQ(wide[1], 723);
    ASSERT_EQ(wide[2], (long long)chain); /* each successful step moved the chain by one */
    ASSERT_GE(chain, 1);
    ASSERT_EQ(wide[3], 0x5555);
    vi_code_object_release(&c.k);
    vi_env_fini(&c.e);
  }
}

/* ---- collectives ------------------------------------------------------------- */
TEST(vapu_isa_cl_collectives) {
  for (unsigned v = 0; v < 4; v++) {
    test_context("variant %s", variants[v]);
    struct ctx c;
    ASSERT_TRUE(vi_env_init(&c.e));
    int *in = gpu(&c, 256 * 4), *out = gpu(&c, 256 * 8 * 4);
    float *fin = gpu(&c, 256 * 4), *fout = gpu(&c, 256 * 2 * 4);
    rng = 99 + v;
    for (unsigned i = 0; i < 256; i++) {
      in[i] = (int)(rnd() % 2001) - 1000;
      fin[i] = (float)((int)(rnd() % 201) - 100); /* integers: every order of summing is exact */
    }
    uint64_t args[4] = {P(in), P(fin), P(out), P(fout)};
    run(variants[v], "collectives", args, sizeof args, 256, 128, &c);
    for (unsigned t = 0; t < 256; t++) {
      unsigned wave = t / 64 * 64, grp = t / 128 * 128;
      int sum = 0, mx = INT_MIN, scan = 0, xmin = INT_MAX, gsum = 0, gmax = INT_MIN;
      float fsum = 0, fmx = -INFINITY;
      for (unsigned i = wave; i < wave + 64; i++) {
        sum += in[i], mx = in[i] > mx ? in[i] : mx, fsum += fin[i];
        if (i <= t) scan += in[i];
        if (i < t && in[i] < xmin) xmin = in[i];
      }
      for (unsigned i = grp; i < grp + 128; i++) {
        gsum += in[i], fmx = fin[i] > fmx ? fin[i] : fmx;
        if (i <= t && in[i] > gmax) gmax = in[i];
      }
      const int want[8] = {sum, mx, scan, xmin, in[wave + 5], gsum, gmax, in[grp + 77]};
      for (unsigned k = 0; k < 8; k++)
        if (out[t * 8 + k] != want[k])
          FAIL("%s work-item %u output %u: %d, want %d", variants[v], t, k, out[t * 8 + k], want[k]);
      ASSERT_TRUE(fout[2 * t] == fsum);
      ASSERT_TRUE(fout[2 * t + 1] == fmx);
    }
    vi_code_object_release(&c.k);
    vi_env_fini(&c.e);
  }
}

/* ---- integers ------------------------------------------------------------------ */
static uint32_t rot32(uint32_t a, unsigned n) { n &= 31; return n ? a << n | a >> (32 - n) : a; }
static uint64_t rot64(uint64_t a, unsigned n) { n &= 63; return n ? a << n | a >> (64 - n) : a; }
static int32_t sat32(int64_t v) { return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v; }
static int64_t sat64(__int128 v) { return v > LLONG_MAX ? LLONG_MAX : v < LLONG_MIN ? LLONG_MIN : (int64_t)v; }
static unsigned clz8(uint8_t x) { return x ? (unsigned)__builtin_clz(x) - 24 : 8; }

static void integers_reference(uint32_t a, uint32_t b, uint32_t c, uint32_t *o, uint64_t *w) {
  int8_t ca = (int8_t)a, cb = (int8_t)b;
  uint8_t ua = (uint8_t)a, ub = (uint8_t)b;
  int16_t sa = (int16_t)a, sb = (int16_t)b;
  uint16_t usa = (uint16_t)a, usb = (uint16_t)b;
  o[0] = (uint32_t)(int32_t)(int8_t)(ca * cb + (cb >> 2));
  unsigned as = ua + ub > 255 ? 255 : ua + ub, ss = ua > ub ? ua - ub : 0, ad = (unsigned)abs(ca - cb);
  o[1] = as | ss << 8 | ad << 16;
  o[2] = (uint32_t)(int32_t)(int16_t)(sa / (int16_t)(sb | 1)) ^ (uint32_t)(uint16_t)(usa % (uint16_t)(usb | 1)) << 16;
  unsigned rn = b & 15;
  uint16_t rot = (uint16_t)(rn ? (uint16_t)(usa << rn) | (uint16_t)(usa >> (16 - rn)) : usa);
  o[3] = (uint32_t)((sa * sb) >> 16) << 16 | rot;
  o[4] = clz8(ua) | (unsigned)__builtin_popcount(usb) << 8 | (unsigned)((ua + ub) >> 1) << 16 |
         (uint32_t)(uint8_t)((ca + cb + 1) >> 1) << 24;
  int32_t m24a = (int32_t)(a << 8) >> 8, m24c = (int32_t)(c << 8) >> 8;
  o[5] = (a & 0x7fffff) * (b & 0x7fffff) + c + (uint32_t)((int64_t)m24a * m24c);
  o[6] = (uint32_t)(uint16_t)(ua << 8 | ub) | (uint32_t)(int32_t)(ca > cb ? ca : cb) << 16 | (uint32_t)(sa < sb ? sa : sb) << 24;
  o[7] = (uint32_t)((int32_t)a / (int32_t)(b | 1)) + a % (b | 1) + (uint32_t)(((uint64_t)a * b) >> 32) +
         (uint32_t)(((int64_t)(int32_t)a * (int32_t)c) >> 32);
  o[8] = rot32(a, b) ^ (a ? (uint32_t)__builtin_clz(a) : 32) ^ (b ? (uint32_t)__builtin_ctz(b) : 32) ^
         (uint32_t)__builtin_popcount(c) ^ ((a & ~c) | (b & c));
  o[9] = (uint32_t)sat32((int64_t)(int32_t)a + (int32_t)b) ^ (uint32_t)sat32((int64_t)(int32_t)a - (int32_t)c) ^
         (uint32_t)sat32((int64_t)(int32_t)a * 3 + (int32_t)b);
  uint64_t la = (uint64_t)a << 32 | b, lb = (uint64_t)c << 29 | (a ^ c);
  int64_t sla = (int64_t)la, slb = (int64_t)(lb | 1);
  w[0] = la / (lb | 1);
  w[1] = la % (lb | 1);
  w[2] = (uint64_t)(sla / slb) ^ (uint64_t)(sla % slb);
  w[3] = (uint64_t)(((unsigned __int128)la * lb) >> 64) ^ (uint64_t)(((__int128)sla * slb) >> 64);
  w[4] = (uint64_t)sat64((__int128)sla + slb) ^ (uint64_t)sat64((__int128)sla - slb) ^ rot64(la, c);
  w[5] = (uint64_t)(la ? __builtin_clzll(la) : 64) | (uint64_t)__builtin_popcountll(lb) << 8 |
         (uint64_t)__builtin_ctzll(la | 0x8000000000000000ull) << 16;
  uint64_t adiff = sla > slb ? (uint64_t)sla - (uint64_t)slb : (uint64_t)slb - (uint64_t)sla;
  w[6] = (uint64_t)(sla >> (c & 63)) ^ (la << (b & 63)) ^ adiff;
  w[7] = (uint64_t)(sla < slb ? sla : slb) + (la > lb ? la : lb);
}

TEST(vapu_isa_cl_integers) {
  static const uint32_t special[] = {0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 0x80, 0xff, 0x8000,
                                     0xffff, 0x7f, 0x12345678, 31, 32, 63, 64, 0xfffffffe};
  for (unsigned v = 0; v < 4; v++) {
    test_context("variant %s", variants[v]);
    struct ctx c;
    ASSERT_TRUE(vi_env_init(&c.e));
    uint32_t *in = gpu(&c, 768 * 4), *out = gpu(&c, 256 * 16 * 4);
    uint64_t *wout = gpu(&c, 256 * 8 * 8);
    rng = 5 + v;
    for (unsigned i = 0; i < 768; i++) in[i] = (rnd() & 3) ? rnd() : special[rnd() % 16];
    for (unsigned t = 0; t < 256; t++) { /* no INT_MIN / -1 or LLONG_MIN / -1: undefined in OpenCL C */
      if (in[t] == 0x80000000u && (in[t + 256] | 1) == 0xffffffffu) in[t] = 1;
      uint64_t la = (uint64_t)in[t] << 32 | in[t + 256];
      uint64_t lb = (uint64_t)in[t + 512] << 29 | (in[t] ^ in[t + 512]);
      if (la == 0x8000000000000000ull && (lb | 1) == ~0ull) in[t + 256] = 5;
      /* clang -O2 computes abs_diff(long) as |x - y| of the wrapped
       * difference (wrong past INT64 range, O0 is right): keep x - y in range. */
      int64_t d;
      la = (uint64_t)in[t] << 32 | in[t + 256];
      if (__builtin_sub_overflow((int64_t)la, (int64_t)(lb | 1), &d)) in[t] &= 0x3fffffffu;
    }
    uint64_t args[3] = {P(in), P(out), P(wout)};
    run(variants[v], "integers", args, sizeof args, 256, 64, &c);
    for (unsigned t = 0; t < 256; t++) {
      uint32_t o[10];
      uint64_t w[8];
      integers_reference(in[t], in[t + 256], in[t + 512], o, w);
      for (unsigned k = 0; k < 10; k++)
        if (out[t * 16 + k] != o[k])
          FAIL("%s t=%u o[%u] (a=%x b=%x c=%x): %x, want %x", variants[v], t, k, in[t],
                    in[t + 256], in[t + 512], out[t * 16 + k], o[k]);
      for (unsigned k = 0; k < 8; k++)
        if (wout[t * 8 + k] != w[k])
          FAIL("%s t=%u w[%u] (a=%x b=%x c=%x): %llx, want %llx", variants[v], t, k, in[t],
                    in[t + 256], in[t + 512], (unsigned long long)wout[t * 8 + k], (unsigned long long)w[k]);
    }
    vi_code_object_release(&c.k);
    vi_env_fini(&c.e);
  }
}

/* ---- math library ---------------------------------------------------------------- */
/* got within `ulps` of want (computed in higher precision), NaN for NaN,
 * same infinity. */
static bool close32(float got, double want, double ulps) {
  if (isnan(want)) return isnan(got);
  if (ulps == 0) return got == (float)want; /* correctly rounded: the nearest float */
  if (isinf(want) || fabs(want) > FLT_MAX) return got == (float)want || (isinf(got) && (got > 0) == (want > 0));
  if (isnan(got) || isinf(got)) return false;
  double ulp = ldexp(1.0, (fabs(want) < FLT_MIN ? -126 : ilogb(want)) - 23);
  return fabs((double)got - want) <= ulps * ulp;
}
static bool close64(double got, long double want, double ulps) {
  if (isnan(want)) return isnan(got);
  if (fabsl(want) > DBL_MAX) want = want > 0 ? INFINITY : -INFINITY; /* overflows in double */
  if (isinf(want)) return got == want;
  if (isnan(got) || isinf(got)) return false;
  long double ulp = ldexpl(1.0L, (fabsl(want) < DBL_MIN ? -1022 : ilogbl(want)) - 52);
  return fabsl((long double)got - want) <= ulps * ulp;
}

TEST(vapu_isa_cl_float_math) {
  static const float special[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, INFINITY, -INFINITY, NAN, 1e-40f, 8.0f, -7.5f, 3.0f};
  for (unsigned v = 0; v < 4; v++) {
    test_context("variant %s", variants[v]);
    struct ctx c;
    ASSERT_TRUE(vi_env_init(&c.e));
    float *in = gpu(&c, 512 * 4), *out = gpu(&c, 256 * 24 * 4);
    rng = 17 + v;
    for (unsigned i = 0; i < 512; i++)
      in[i] = (rnd() & 7) ? ((float)(int32_t)rnd() / 2147483648.0f) * 8.0f : special[rnd() % 12];
    uint64_t args[2] = {P(in), P(out)};
    run(variants[v], "fmath", args, sizeof args, 256, 64, &c);
    for (unsigned t = 0; t < 256; t++) {
      double x = in[t], y = in[t + 256], ax = fabsf(in[t]) + 0.5f; /* rounded to float, as in the kernel */
      const struct {
        double want, ulps;
      } ref[24] = {
          {sin(x), 4}, {cos(x), 4}, {tan((float)(x * 0.1f)), 5}, {exp(x), 3}, {exp2(x), 3}, {log(ax), 3},
          {log2(ax), 3}, {pow(ax, (float)(y * 0.25f)), 16}, {sqrt(ax), 3}, {1 / sqrt(ax), 2}, {cbrt(x), 2},
          {atan2(x, y), 6}, {hypot(x, y), 4}, {fmod(x, y), 0}, {remainder(x, y), 0}, {x / y, 2.5},
          {fmaf((float)x, (float)y, 0.25f), 0}, {(float)fmin(x, y) + (float)fmax(x, y) * 2.0f, 0},
          {floor(x) + ceil(y) * 3.0f, 0}, {(float)round(x) - (float)trunc(y), 0}, {rint((float)(x * 4.5f)), 0},
          {ldexp(x, (int)y), 0}, {(float)copysign(ax, y) + (float)fdim(x, y), 1},
          {(float)log10(ax) + (float)exp10((float)(y * 0.1f)), 6},
      };
      for (unsigned k = 0; k < 24; k++) {
        float got = out[t * 24 + k];
        if (k == 21 && !(fabs(y) < 2e9)) continue; /* (int)y of inf or NaN: undefined */
        if (!close32(got, ref[k].want, ref[k].ulps))
          FAIL("%s fmath t=%u o[%u] (x=%a y=%a): %a, want %a within %g ulp", variants[v],
                    t, k, x, y, got, ref[k].want, ref[k].ulps);
      }
    }
    vi_code_object_release(&c.k);
    vi_env_fini(&c.e);
  }
}

TEST(vapu_isa_cl_double_math) {
  static const double special[] = {0.0, -0.0, 1.0, -1.0, 1e22, -1e300, 1e300, 0x1p1000, INFINITY, NAN, 1e-310, 3.14159};
  for (unsigned v = 0; v < 4; v++) {
    test_context("variant %s", variants[v]);
    struct ctx c;
    ASSERT_TRUE(vi_env_init(&c.e));
    double *in = gpu(&c, 512 * 8), *out = gpu(&c, 256 * 12 * 8);
    rng = 23 + v;
    for (unsigned i = 0; i < 512; i++) {
      unsigned k = rnd() % 8;
      double r = (double)(int32_t)rnd() / 2147483648.0;
      in[i] = k < 4 ? r * 20.0 : k < 6 ? ldexp(r, (int)(rnd() % 600) - 100) : special[rnd() % 12];
    }
    uint64_t args[2] = {P(in), P(out)};
    run(variants[v], "dmath", args, sizeof args, 256, 64, &c);
    for (unsigned t = 0; t < 256; t++) {
      long double x = in[t], y = in[t + 256], ax = fabs(in[t]) + 0.5; /* rounded to double, as in the kernel */
      const struct {
        long double want;
        double ulps;
      } ref[12] = {
          {sinl(x), 4}, {cosl(x), 4}, {tanl(x), 5}, {expl(y), 3}, {logl(ax), 3}, {powl(ax, in[t + 256] * 0.1), 16},
          {sqrtl(ax), 0.5}, {x / y, 0.5}, {fmal(x, y, 1.5L), 0.5}, {cbrtl(x), 2}, {floorl(x) + truncl(y), 0.5},
          {fmodl(x, y), 0},
      };
      for (unsigned k = 0; k < 12; k++) {
        double got = out[t * 12 + k];
        long double want = (k == 4 || k == 5 || k == 6) ? ref[k].want : ref[k].want;
        if (k == 10 && !isinf(want)) want = (double)(floor(in[t]) + trunc(in[t + 256])); /* one rounding, as the kernel */
        if (!close64(got, want, ref[k].ulps))
          FAIL("%s dmath t=%u o[%u] (x=%a y=%a): %a, want %La within %g ulp", variants[v],
                    t, k, in[t], in[t + 256], got, want, ref[k].ulps);
      }
    }
    vi_code_object_release(&c.k);
    vi_env_fini(&c.e);
  }
}

/* ---- half precision and conversions ------------------------------------------- */
static _Float16 h16(uint16_t b) { _Float16 h; memcpy(&h, &b, 2); return h; }
static uint16_t b16(_Float16 h) { uint16_t b; memcpy(&b, &h, 2); return b; }
static bool close16(uint16_t got, double want, double ulps) {
  _Float16 w = (_Float16)want;
  if (isnan(want)) return (got & 0x7fff) > 0x7c00;
  uint16_t wb = b16(w);
  int a = (got & 0x8000) ? -(int)(got & 0x7fff) : (int)got, b = (wb & 0x8000) ? -(int)(wb & 0x7fff) : (int)wb;
  return abs(a - b) <= ulps;
}

TEST(vapu_isa_cl_half_and_conversions) {
  for (unsigned v = 0; v < 4; v++) {
    test_context("variant %s", variants[v]);
    struct ctx c;
    ASSERT_TRUE(vi_env_init(&c.e));
    uint16_t *hin = gpu(&c, 512 * 2), *hout = gpu(&c, 256 * 4 * 2);
    float *fin = gpu(&c, 256 * 4), *fout = gpu(&c, 256 * 2 * 4);
    int32_t *iout = gpu(&c, 256 * 8 * 4);
    rng = 31 + v;
    for (unsigned i = 0; i < 512; i++) {
      _Float16 h = (_Float16)(((float)(int32_t)rnd() / 2147483648.0f) * 60.0f);
      hin[i] = (rnd() & 15) ? b16(h) : (uint16_t[]){0, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x3c00, 0xbc00}[rnd() % 8];
    }
    static const float fs[] = {0.5f, 1.5f, 2.5f, -0.5f, -2.5f, 255.5f, 256.0f, -1.0f, 3e9f, -3e9f,
                               NAN, INFINITY, -INFINITY, 40000.5f, -40000.5f, 1e-40f};
    for (unsigned i = 0; i < 256; i++)
      fin[i] = (rnd() & 3) ? ((float)(int32_t)rnd() / 2147483648.0f) * 300.0f : fs[rnd() % 16];
    uint64_t args[5] = {P(hin), P(fin), P(hout), P(iout), P(fout)};
    run(variants[v], "halves", args, sizeof args, 256, 64, &c);
    for (unsigned t = 0; t < 256; t++) {
      double a = (double)h16(hin[t]), b = (double)h16(hin[t + 256]);
      /* a * b + a: fused or not (OpenCL lets clang contract it). */
      _Float16 p = h16(hin[t]) * h16(hin[t + 256]);
      uint16_t got0 = hout[t * 4];
      bool ok0 = close16(got0, (double)(_Float16)(p + h16(hin[t])), 0) || close16(got0, a * b + a, 0);
      if (!ok0) FAIL("%s half t=%u a*b+a (a=%a b=%a): %04x", variants[v], t, a, b, got0);
      if (!close16(hout[t * 4 + 1], fma(a, b, 0.5), 0))
        FAIL("%s half t=%u fma: %04x want %a", variants[v], t, hout[t * 4 + 1], fma(a, b, 0.5));
      if (!close16(hout[t * 4 + 2], a / b, 1))
        FAIL("%s half t=%u div: %04x want %a", variants[v], t, hout[t * 4 + 2], a / b);
      if (!close16(hout[t * 4 + 3], fmax(a, b) - fmin(a, b), 0))
        FAIL("%s half t=%u max-min: %04x", variants[v], t, hout[t * 4 + 3]);
      float f = fin[t];
      const int32_t *io = iout + t * 8;
      /* ROCm device-libs clamp with fmaxnum/fminnum before converting, and
       * maxnum(NaN, lower bound) is the lower bound: NaN gives the lower
       * bound (INT_MIN, SHRT_MIN; 0 for unsigned), as their IR says. */
      int32_t rte = isnan(f) ? INT32_MIN : f >= 2147483647.0f ? INT32_MAX : f <= -2147483648.0f ? INT32_MIN : (int32_t)nearbyintf(f);
      if (io[0] != rte) FAIL("%s convert_int_sat_rte(%a): %d, want %d", variants[v], f, io[0], rte);
      if (!isnan(f) && fabsf(f) < 2e9f) ASSERT_EQ(io[1], (int32_t)floorf(f)); /* undefined out of range */
      ASSERT_EQ(io[2], isnan(f) || f <= 0 ? 0 : f >= 255 ? 255 : (int32_t)f);
      ASSERT_EQ(io[3], isnan(f) ? -32768 : f >= 32767 ? 32767 : f <= -32768 ? -32768 : (int32_t)f);
      if (!isnan(a) && a > -1 && a < 65536) ASSERT_EQ(io[4], (int32_t)(uint16_t)a);
      int cls = (isnan(f) != 0) | (isinf(f) != 0) << 1 | (signbit(f) != 0) << 2 | (isnormal(f) != 0) << 3;
      ASSERT_EQ(io[5], cls);
      float fa = (float)h16(hin[t]);
      int32_t fab;
      memcpy(&fab, &fa, 4);
      ASSERT_EQ(io[6], fab);
      /* Round toward +inf to half: the nearest, or the next one up. */
      _Float16 hn = (_Float16)f;
      if (!isnan(f) && (float)hn < f) hn = h16((uint16_t)(b16(hn) + ((b16(hn) & 0x8000) ? -1 : 1)));
      float fr = (float)hn;
      int32_t frb;
      memcpy(&frb, &fr, 4);
      if (!isnan(f)) ASSERT_EQ(io[7], frb);
      if (!isnan(f) && fabsf(f) < 1e6f) ASSERT_TRUE(fout[t * 2] == (float)(int64_t)(f * 1e6f));
      ASSERT_TRUE(fout[t * 2 + 1] == (float)((double)f * 3.0) || (isnan(f) && isnan(fout[t * 2 + 1])));
    }
    vi_code_object_release(&c.k);
    vi_env_fini(&c.e);
  }
}
