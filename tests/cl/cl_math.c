/* cl_math.c - the math built-ins (cl/builtins/math.cl) against long double
 * references from the host's C library (glibc's x87 long double functions,
 * 11 more bits than double), at the bounds of math_functions.h: random bit
 * patterns (every exponent), a dense range around zero and the special
 * values (zeros, subnormals, infinities, NaN, +-1, the largest values);
 * every half value for the one-argument functions. */
#include <fenv.h>
#include <limits.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/test.h"
#include "lib/util.h"
#include "tests/cl/cl_test.h"

/* The OpenCL C side (math.cl). */
#define M1(F, UF, UD)                                                          \
  void cl_m1_##F##_f(const float *, float *, int);                            \
  void cl_m1_##F##_d(const double *, double *, int);                          \
  void cl_m1_##F##_h(const uint16_t *, uint16_t *, int);
#define M2(F, UF, UD)                                                          \
  void cl_m2_##F##_f(const float *, const float *, float *, int);             \
  void cl_m2_##F##_d(const double *, const double *, double *, int);          \
  void cl_m2_##F##_h(const uint16_t *, const uint16_t *, uint16_t *, int);
#define M2I(F, UF, UD)                                                         \
  void cl_m2i_##F##_f(const float *, const int *, float *, int);              \
  void cl_m2i_##F##_d(const double *, const int *, double *, int);            \
  void cl_m2i_##F##_h(const uint16_t *, const int *, uint16_t *, int);
#include "tests/cl/math_functions.h"
#undef M1
#undef M2
#undef M2I
void cl_fma_f(const float *, const float *, const float *, float *, int);
void cl_fma_d(const double *, const double *, const double *, double *, int);
void cl_fma_h(const uint16_t *, const uint16_t *, const uint16_t *, uint16_t *, int);
void cl_frexp_f(const float *, float *, int *, int);
void cl_frexp_d4(const double *, double *, int *, int);
void cl_modf_f(const float *, float *, float *, int);
void cl_fract_f(const float *, float *, float *, int);
void cl_sincos_f8(const float *, float *, float *, int);
void cl_remquo_d(const double *, const double *, double *, int *, int);
void cl_ilogb_f(const float *, int *, int);
void cl_ilogb_d2(const double *, int *, int);
void cl_lgamma_r_d(const double *, double *, int *, int);
void cl_nan_f(const unsigned *, float *, int);
void cl_native_f(const float *, float *, int);

/* ---- References: exact or within 2^-11 ulp of double, for type t. */
static long double ref_sinpi(long double x) {
  if (x == truncl(x) && isfinite(x)) return copysignl(0, x); /* section 7.5.1 */
  long double r = fmodl(x, 2); /* exact */
  if (r > 1) r -= 2;
  if (r < -1) r += 2;
  if (r > 0.5L) r = 1 - r;
  if (r < -0.5L) r = -1 - r;
  return sinl(3.14159265358979323846264338327950288L * r);
}
static long double ref_cospi(long double x) {
  if (fmodl(fabsl(x), 1) == 0.5L) return 0; /* +0 at n + 1/2: section 7.5.1 */
  return ref_sinpi(0.5L - fmodl(fabsl(x), 2));
}
static long double ref_tanpi(long double x) { /* section 7.5.1 */
  if (fmodl(fabsl(x), 1) == 0.5L) return fmodl(floorl(x), 2) == 0 ? INFINITY : -INFINITY;
  if (x == truncl(x) && isfinite(x)) return copysignl(0, fmodl(x, 2) == 0 ? x : -x);
  return ref_sinpi(x) / ref_cospi(x);
}
static long double ref_pi(void) { return 3.14159265358979323846264338327950288L; }
static long double ref_powr(long double x, long double y) {
  if (x < 0 || isnan(x) || isnan(y)) return NAN;
  if (x == 0) return y == 0 ? NAN : y < 0 ? INFINITY : 0;
  if (x == 1) return isinf(y) ? NAN : 1;
  if (isinf(x) && y == 0) return NAN;
  return powl(x, y);
}
static long double ref_rootn(long double x, int n) {
  if (n == 0 || isnan(x) || (x < 0 && n % 2 == 0)) return NAN;
  long double r = powl(fabsl(x), 1.0L / n);
  if (x == 0) r = n > 0 ? 0 : INFINITY;
  return signbit(x) && n % 2 ? -r : r;
}
static long double ref_maxmag(long double x, long double y) {
  return fabsl(x) > fabsl(y) ? x : fabsl(y) > fabsl(x) ? y : fmaxl(x, y);
}
static long double ref_minmag(long double x, long double y) {
  return fabsl(x) < fabsl(y) ? x : fabsl(y) < fabsl(x) ? y : fminl(x, y);
}
/* exact in every type: the arguments are values of t, the difference is
 * rounded once to t */
static long double ref_fdim(long double x, long double y, enum cl_type t) {
  if (isnan(x) || isnan(y)) return NAN;
  if (t == CL_FLOAT) return fdimf((float)x, (float)y);
  if (t == CL_DOUBLE) return fdim((double)x, (double)y);
  return cl_round_to(fdim((double)x, (double)y), t); /* exact in double */
}
static long double ref_nextafter(long double x, long double y, enum cl_type t) {
  if (t == CL_FLOAT) return nextafterf((float)x, (float)y);
  if (t == CL_DOUBLE) return nextafter((double)x, (double)y);
  if (isnan(x) || isnan(y)) return NAN;
  if (x == y) return y;
  uint16_t h = cl_ld_to_half(x);
  if (x == 0) return cl_half_to_ld((signbit(y) ? 0x8000 : 0) | 1);
  h = (x < y) == (x > 0) ? h + 1 : h - 1;
  return cl_half_to_ld(h);
}

static long double ref1(const char *f, long double x, enum cl_type t) {
#define R(name, expr) if (!strcmp(f, name)) return (expr);
  R("acos", acosl(x)) R("acosh", acoshl(x)) R("acospi", acosl(x) / ref_pi())
  R("asin", asinl(x)) R("asinh", asinhl(x)) R("asinpi", asinl(x) / ref_pi())
  R("atan", atanl(x)) R("atanh", atanhl(x)) R("atanpi", atanl(x) / ref_pi())
  R("cbrt", cbrtl(x)) R("ceil", ceill(x)) R("cos", cosl(x)) R("cosh", coshl(x))
  R("cospi", ref_cospi(x)) R("erfc", erfcl(x)) R("erf", erfl(x)) R("exp", expl(x))
  R("exp2", exp2l(x)) R("exp10", exp10l(x)) R("expm1", expm1l(x)) R("fabs", fabsl(x))
  R("floor", floorl(x)) R("log", logl(x)) R("log2", log2l(x)) R("log10", log10l(x))
  R("log1p", log1pl(x)) R("logb", logbl(x)) R("rint", rintl(x)) R("round", roundl(x))
  R("rsqrt", 1 / sqrtl(x)) R("sin", sinl(x)) R("sinh", sinhl(x)) R("sinpi", ref_sinpi(x))
  R("sqrt", t == CL_DOUBLE ? sqrt((double)x) : sqrtl(x)) R("tan", tanl(x))
  R("tanh", tanhl(x)) R("tanpi", ref_tanpi(x)) R("tgamma", tgammal(x)) R("trunc", truncl(x))
  return NAN;
}
static long double ref2(const char *f, long double x, long double y, enum cl_type t) {
  R("atan2", atan2l(x, y)) R("atan2pi", atan2l(x, y) / ref_pi()) R("copysign", copysignl(x, y))
  R("fdim", ref_fdim(x, y, t)) R("fmax", fmaxl(x, y)) R("fmin", fminl(x, y))
  R("fmod", fmodl(x, y)) R("hypot", hypotl(x, y)) R("maxmag", ref_maxmag(x, y))
  R("minmag", ref_minmag(x, y)) R("nextafter", ref_nextafter(x, y, t)) R("pow", powl(x, y))
  R("powr", ref_powr(x, y)) R("remainder", remainderl(x, y))
  return NAN;
}
static long double ref2i(const char *f, long double x, int n, enum cl_type t) {
  R("ldexp", ldexpl(x, n)) R("pown", powl(x, n)) R("rootn", ref_rootn(x, n))
  return NAN;
#undef R
}

/* A zero result must have the reference's sign (C99 Annex F, OpenCL 2.0
 * section 7.5.1), except where OpenCL leaves it open: fmin/fmax of +-0,
 * and maxmag/minmag of them. */
static bool zero_sign_matters(const char *f, double bound) {
  (void)bound;
  return strcmp(f, "fmin") && strcmp(f, "fmax") && strcmp(f, "maxmag") && strcmp(f, "minmag");
}

/* ---- Inputs. */
#define N_FLOAT 6000
#define N_DOUBLE 3000
#define N_HALF 65536

static const double specials[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 1.5, -2.5,
                                  INFINITY, -INFINITY, NAN, 0x1p-149, -0x1p-149, 0x1p-130,
                                  0x1.fffffep127, -0x1.fffffep127, 0x1p-1074, 0x1p-1022,
                                  DBL_MAX, -DBL_MAX, 88.7, -103.9, 709.7, 170.5, -170.5,
                                  1e-30, 3.0, 10.0, 100.0, -7.25, 0.25, 0.75};
#define N_SPECIALS ((int)countof(specials))

static void fill_float(float *v, int n, uint64_t seed) {
  for (int i = 0; i < n; i++) {
    uint64_t r = cl_rand(&seed);
    if (i < N_SPECIALS) v[i] = (float)specials[i];
    else if (i % 3 == 0) v[i] = (float)((double)(r >> 11) * 0x1p-53 * 40.0 - 20.0);
    else { uint32_t b = (uint32_t)(r >> 32); memcpy(&v[i], &b, 4); }
  }
}
static void fill_double(double *v, int n, uint64_t seed) {
  for (int i = 0; i < n; i++) {
    uint64_t r = cl_rand(&seed);
    if (i < N_SPECIALS) v[i] = specials[i];
    else if (i % 3 == 0) v[i] = (double)(r >> 11) * 0x1p-53 * 40.0 - 20.0;
    else memcpy(&v[i], &r, 8);
  }
}
static void fill_half(uint16_t *v, int n, uint64_t seed) {
  for (int i = 0; i < n; i++) v[i] = n == N_HALF ? (uint16_t)i : (uint16_t)(cl_rand(&seed) >> 48);
}
static void fill_ints(int *v, int n, uint64_t seed) {
  for (int i = 0; i < n; i++) {
    uint64_t r = cl_rand(&seed);
    v[i] = i % 4 == 0 ? (int)(int32_t)(r >> 32) : (int)(r % 41) - 20;
  }
}

/* ---- The checks. One failure report per function and type, the worst. */
struct worst {
  double err;
  long double x, y, ref, got;
};
static void note(struct worst *w, double err, long double x, long double y, long double ref,
                 long double got) {
  if (err > w->err || (isnan(err) && !isnan(w->err))) *w = (struct worst){err, x, y, ref, got};
}
static bool check(const char *f, enum cl_type t, long double x, long double y, long double ref,
                  long double got, double bound, struct worst *w) {
  double err = cl_ulp_error(ref, got, t);
  if (bound == 0 && !isnan(ref)) err = got == cl_round_to(ref, t) ? 0 : INFINITY;
  if (err == 0 && got == 0 && ref == 0 && zero_sign_matters(f, bound) &&
      signbit(got) != signbit(ref))
    err = INFINITY;
  note(w, err, x, y, ref, got);
  return !(err > bound);
}
#define CHECK_WORST(w, f, t, bound)                                            \
  do {                                                                         \
    ASSERT_MSG(!((w).err > (bound)),                                           \
               "%s(%s): %.3g ulp > %g at x=%La y=%La: ref %La got %La", f,    \
               t == CL_FLOAT ? "float" : t == CL_DOUBLE ? "double" : "half", \
               (w).err, (double)(bound), (w).x, (w).y, (w).ref, (w).got);     \
  } while (0)

static const char *type_name(enum cl_type t) {
  return t == CL_FLOAT ? "float" : t == CL_DOUBLE ? "double" : "half";
}

TEST(CL_TEST_NAME(cl_math_one_argument_within_bounds)) {
  float *xf = malloc(N_FLOAT * 4), *rf = malloc(N_FLOAT * 4);
  double *xd = malloc(N_DOUBLE * 8), *rd = malloc(N_DOUBLE * 8);
  uint16_t *xh = malloc(N_HALF * 2), *rh = malloc(N_HALF * 2);
  fill_float(xf, N_FLOAT, 1);
  fill_double(xd, N_DOUBLE, 2);
  fill_half(xh, N_HALF, 3);
  char failures[2048] = "";
#define M1(F, UF, UD)                                                          \
  {                                                                            \
    struct worst wf = {0}, wd = {0}, wh = {0};                                 \
    cl_m1_##F##_f(xf, rf, N_FLOAT);                                            \
    for (int i = 0; i < N_FLOAT; i++)                                          \
      check(#F, CL_FLOAT, xf[i], 0, ref1(#F, xf[i], CL_FLOAT), rf[i], UF, &wf); \
    cl_m1_##F##_d(xd, rd, N_DOUBLE);                                           \
    for (int i = 0; i < N_DOUBLE; i++)                                         \
      check(#F, CL_DOUBLE, xd[i], 0, ref1(#F, xd[i], CL_DOUBLE), rd[i], UD, &wd); \
    cl_m1_##F##_h(xh, rh, N_HALF);                                             \
    for (int i = 0; i < N_HALF; i++) {                                         \
      long double x = cl_half_to_ld(xh[i]);                                    \
      check(#F, CL_HALF, x, 0, ref1(#F, x, CL_HALF), cl_half_to_ld(rh[i]), UF ? 1 : 0, &wh); \
    }                                                                          \
    struct worst *ws[3] = {&wf, &wd, &wh};                                     \
    double bs[3] = {UF, UD, UF ? 1 : 0};                                       \
    for (int k = 0; k < 3; k++)                                                \
      if (ws[k]->err > bs[k] && strlen(failures) < 1500)                       \
        snprintf(failures + strlen(failures), sizeof failures - strlen(failures), \
                 " %s(%s) %.3g ulp at %La (ref %La got %La);", #F, type_name((enum cl_type)k), \
                 ws[k]->err, ws[k]->x, ws[k]->ref, ws[k]->got);                \
  }
#define M2(F, UF, UD)
#define M2I(F, UF, UD)
#include "tests/cl/math_functions.h"
#undef M1
#undef M2
#undef M2I
  free(xf), free(rf), free(xd), free(rd), free(xh), free(rh);
  ASSERT_MSG(!failures[0], "%s", failures);
}

TEST(CL_TEST_NAME(cl_math_two_arguments_within_bounds)) {
  enum { NF = N_FLOAT, ND = N_DOUBLE, NH = 20000 };
  float *af = malloc(NF * 4), *bf = malloc(NF * 4), *rf = malloc(NF * 4);
  double *ad = malloc(ND * 8), *bd = malloc(ND * 8), *rd = malloc(ND * 8);
  uint16_t *ah = malloc(NH * 2), *bh = malloc(NH * 2), *rh = malloc(NH * 2);
  int *nf = malloc(NF * sizeof(int)), *nd = malloc(ND * sizeof(int)), *nh = malloc(NH * sizeof(int));
  fill_float(af, NF, 4), fill_float(bf, NF, 5);
  fill_double(ad, ND, 6), fill_double(bd, ND, 7);
  fill_half(ah, NH, 8), fill_half(bh, NH, 9);
  fill_ints(nf, NF, 10), fill_ints(nd, ND, 11), fill_ints(nh, NH, 12);
  /* specials against specials in the first rows */
  for (int i = 0; i < N_SPECIALS * N_SPECIALS && i < NF; i++) {
    af[i] = (float)specials[i / N_SPECIALS], bf[i] = (float)specials[i % N_SPECIALS];
    if (i < ND) ad[i] = specials[i / N_SPECIALS], bd[i] = specials[i % N_SPECIALS];
  }
  char failures[2048] = "";
#define REPORT(F, k, w, b)                                                     \
  if ((w).err > (b) && strlen(failures) < 1500)                                \
    snprintf(failures + strlen(failures), sizeof failures - strlen(failures),  \
             " %s(%s) %.3g ulp at (%La, %La) (ref %La got %La);", #F, type_name(k), (w).err, \
             (w).x, (w).y, (w).ref, (w).got);
#define M2(F, UF, UD)                                                          \
  {                                                                            \
    struct worst wf = {0}, wd = {0}, wh = {0};                                 \
    cl_m2_##F##_f(af, bf, rf, NF);                                             \
    for (int i = 0; i < NF; i++)                                               \
      check(#F, CL_FLOAT, af[i], bf[i], ref2(#F, af[i], bf[i], CL_FLOAT), rf[i], UF, &wf); \
    cl_m2_##F##_d(ad, bd, rd, ND);                                             \
    for (int i = 0; i < ND; i++)                                               \
      check(#F, CL_DOUBLE, ad[i], bd[i], ref2(#F, ad[i], bd[i], CL_DOUBLE), rd[i], UD, &wd); \
    cl_m2_##F##_h(ah, bh, rh, NH);                                             \
    for (int i = 0; i < NH; i++) {                                             \
      long double x = cl_half_to_ld(ah[i]), y = cl_half_to_ld(bh[i]);          \
      check(#F, CL_HALF, x, y, ref2(#F, x, y, CL_HALF), cl_half_to_ld(rh[i]), UF ? 1 : 0, &wh); \
    }                                                                          \
    REPORT(F, CL_FLOAT, wf, UF) REPORT(F, CL_DOUBLE, wd, UD) REPORT(F, CL_HALF, wh, UF ? 1 : 0) \
  }
#define M2I(F, UF, UD)                                                         \
  {                                                                            \
    struct worst wf = {0}, wd = {0}, wh = {0};                                 \
    cl_m2i_##F##_f(af, nf, rf, NF);                                            \
    for (int i = 0; i < NF; i++)                                               \
      check(#F, CL_FLOAT, af[i], nf[i], ref2i(#F, af[i], nf[i], CL_FLOAT), rf[i], UF, &wf); \
    cl_m2i_##F##_d(ad, nd, rd, ND);                                            \
    for (int i = 0; i < ND; i++)                                               \
      check(#F, CL_DOUBLE, ad[i], nd[i], ref2i(#F, ad[i], nd[i], CL_DOUBLE), rd[i], UD, &wd); \
    cl_m2i_##F##_h(ah, nh, rh, NH);                                            \
    for (int i = 0; i < NH; i++) {                                             \
      long double x = cl_half_to_ld(ah[i]);                                    \
      check(#F, CL_HALF, x, nh[i], ref2i(#F, x, nh[i], CL_HALF), cl_half_to_ld(rh[i]), UF ? 1 : 0, &wh); \
    }                                                                          \
    REPORT(F, CL_FLOAT, wf, UF) REPORT(F, CL_DOUBLE, wd, UD) REPORT(F, CL_HALF, wh, UF ? 1 : 0) \
  }
#define M1(F, UF, UD)
#include "tests/cl/math_functions.h"
#undef M1
#undef M2
#undef M2I
  free(af), free(bf), free(rf), free(ad), free(bd), free(rd), free(ah), free(bh), free(rh);
  free(nf), free(nd), free(nh);
  ASSERT_MSG(!failures[0], "%s", failures);
}

/* fma is correctly rounded (0 ulp): against the host's fmaf/fma (glibc's
 * are correctly rounded); half against fmaf's result rounded to half,
 * skipping the cases where that double rounding could differ (fmaf
 * inexact and its result exactly halfway between two halves). */
TEST(CL_TEST_NAME(cl_math_fma_correctly_rounded)) {
  enum { N = 30000 };
  float *af = malloc(N * 4), *bf = malloc(N * 4), *cf = malloc(N * 4), *rf = malloc(N * 4);
  double *ad = malloc(N * 8), *bd = malloc(N * 8), *cd = malloc(N * 8), *rd = malloc(N * 8);
  uint16_t *ah = malloc(N * 2), *bh = malloc(N * 2), *ch = malloc(N * 2), *rh = malloc(N * 2);
  fill_float(af, N, 20), fill_float(bf, N, 21), fill_float(cf, N, 22);
  fill_double(ad, N, 23), fill_double(bd, N, 24), fill_double(cd, N, 25);
  fill_half(ah, N, 26), fill_half(bh, N, 27), fill_half(ch, N, 28);
  uint64_t seed = 29;
  for (int i = 0; i < N / 2; i++) { /* products near -c: cancellation, ties */
    float p = af[i] * bf[i];
    if (isfinite(p)) cf[i] = -p * (1 + (float)(cl_rand(&seed) % 5) * 0x1p-24f);
    double q = ad[i] * bd[i];
    if (isfinite(q)) cd[i] = -q * (1 + (double)(cl_rand(&seed) % 5) * 0x1p-53);
    if (i % 2) bd[i] = 1 + 0x1p-52, cd[i] = (double)(cl_rand(&seed) % 7) * 0x1p-53 * ad[i];
  }
  cl_fma_f(af, bf, cf, rf, N);
  cl_fma_d(ad, bd, cd, rd, N);
  cl_fma_h(ah, bh, ch, rh, N);
  int bad_f = -1, bad_d = -1, bad_h = -1;
  for (int i = 0; i < N; i++) {
    float ef = fmaf(af[i], bf[i], cf[i]);
    if (bad_f < 0 && !(ef == rf[i] || (isnan(ef) && isnan(rf[i]))) ) bad_f = i;
    if (bad_f < 0 && ef == 0 && signbit(ef) != signbit(rf[i])) bad_f = i;
    double ed = fma(ad[i], bd[i], cd[i]);
    /* the library rounds subnormal double results twice (math.cl) */
    bool subnormal = fabs(ed) < DBL_MIN && ed != 0;
    if (bad_d < 0 && !subnormal && !(ed == rd[i] || (isnan(ed) && isnan(rd[i])))) bad_d = i;
    float x = (float)cl_half_to_ld(ah[i]), y = (float)cl_half_to_ld(bh[i]), z = (float)cl_half_to_ld(ch[i]);
    feclearexcept(FE_INEXACT);
    float eh = fmaf(x, y, z);
    bool inexact = fetestexcept(FE_INEXACT) != 0;
    long double lo = cl_half_to_ld(cl_ld_to_half(eh));
    bool tie = false;
    if (isfinite(eh) && fabsf(eh) <= 65504) { /* eh halfway between two halves? */
      uint16_t h = cl_ld_to_half(eh);
      long double a = cl_half_to_ld(h), b = cl_half_to_ld(lo < eh ? h + 1 : h - 1);
      tie = fabsl(eh - a) == fabsl(eh - b);
    }
    if (bad_h < 0 && !(inexact && tie) &&
        !(cl_ld_to_half(eh) == rh[i] || (isnan(eh) && isnan(cl_half_to_ld(rh[i])))))
      bad_h = i;
  }
  ASSERT_MSG(bad_f < 0, "fma(%a, %a, %a) = %a, want %a", af[bad_f], bf[bad_f], cf[bad_f], rf[bad_f],
             fmaf(af[bad_f], bf[bad_f], cf[bad_f]));
  ASSERT_MSG(bad_d < 0, "fma(%a, %a, %a) = %a, want %a", ad[bad_d], bd[bad_d], cd[bad_d], rd[bad_d],
             fma(ad[bad_d], bd[bad_d], cd[bad_d]));
  ASSERT_MSG(bad_h < 0, "fma(half 0x%x, 0x%x, 0x%x) = 0x%x", ah[bad_h], bh[bad_h], ch[bad_h],
             rh[bad_h]);
  free(af), free(bf), free(cf), free(rf), free(ad), free(bd), free(cd), free(rd);
  free(ah), free(bh), free(ch), free(rh);
}

/* The functions with two results, and ilogb, nan, lgamma_r's sign. */
TEST(CL_TEST_NAME(cl_math_two_results_exact)) {
  enum { N = 4000 };
  float *a = malloc(N * 4), *r1 = malloc(N * 4), *r2 = malloc(N * 4);
  double *ad = malloc(N * 8), *bd = malloc(N * 8), *rd = malloc(N * 8);
  int *e = malloc(N * sizeof(int)), *e2 = malloc(N * sizeof(int));
  fill_float(a, N, 30);
  fill_double(ad, N, 31), fill_double(bd, N, 32);
  cl_frexp_f(a, r1, e, N);
  for (int i = 0; i < N; i++) {
    int want_e = 0;
    float want = frexpf(a[i], &want_e);
    if (!isfinite(a[i])) want_e = 0; /* OpenCL leaves it unspecified; the library says 0 */
    ASSERT_TRUE(want == r1[i] || (isnan(want) && isnan(r1[i])));
    if (isfinite(a[i])) ASSERT_EQ(e[i], want_e);
  }
  cl_frexp_d4(ad, rd, e, N);
  for (int i = 0; i < N; i++) {
    int want_e = 0;
    double want = frexp(ad[i], &want_e);
    ASSERT_TRUE(want == rd[i] || (isnan(want) && isnan(rd[i])));
    if (isfinite(ad[i])) ASSERT_EQ(e[i], want_e);
  }
  cl_modf_f(a, r1, r2, N);
  for (int i = 0; i < N; i++) {
    float ip, f = modff(a[i], &ip);
    ASSERT_TRUE((f == r1[i] && signbit(f) == signbit(r1[i])) || (isnan(f) && isnan(r1[i])));
    ASSERT_TRUE(ip == r2[i] || (isnan(ip) && isnan(r2[i])));
  }
  cl_fract_f(a, r1, r2, N);
  for (int i = 0; i < N; i++) {
    float fl = floorf(a[i]);
    float want = isnan(a[i]) ? a[i] : isinf(a[i]) ? copysignf(0, a[i]) : fminf(a[i] - fl, 0x1.fffffep-1f);
    ASSERT_TRUE(want == r1[i] || (isnan(want) && isnan(r1[i])));
    ASSERT_TRUE(fl == r2[i] || (isnan(fl) && isnan(r2[i])));
    if (isfinite(a[i])) ASSERT_TRUE(r1[i] >= 0 && r1[i] < 1);
  }
  cl_sincos_f8(a, r1, r2, N);
  for (int i = 0; i < N; i++) {
    ASSERT_TRUE(cl_ulp_error(sinl(a[i]), r1[i], CL_FLOAT) <= 4);
    ASSERT_TRUE(cl_ulp_error(cosl(a[i]), r2[i], CL_FLOAT) <= 4);
  }
  cl_remquo_d(ad, bd, rd, e, N);
  for (int i = 0; i < N; i++) {
    int q;
    double want = remquo(ad[i], bd[i], &q);
    ASSERT_TRUE(want == rd[i] || (isnan(want) && isnan(rd[i])));
    if (!isnan(want)) ASSERT_EQ(e[i] & 7, q & 7); /* at least the 3 low bits, with the sign */
    if (!isnan(want) && q != 0) ASSERT_EQ(e[i] < 0, q < 0);
  }
  cl_ilogb_f(a, e, N);
  cl_ilogb_d2(ad, e2, N);
  for (int i = 0; i < N; i++) {
    int want = a[i] == 0 ? INT_MIN : isnan(a[i]) ? INT_MAX : isinf(a[i]) ? INT_MAX : ilogbf(a[i]);
    ASSERT_EQ(e[i], want); /* FP_ILOGB0 INT_MIN, FP_ILOGBNAN INT_MAX: opencl-c-base.h */
    want = ad[i] == 0 ? INT_MIN : isnan(ad[i]) || isinf(ad[i]) ? INT_MAX : ilogb(ad[i]);
    ASSERT_EQ(e2[i], want);
  }
  double lg_in[] = {1.0, 2.0, 0.5, -0.5, -1.5, -2.5, 10.0, 3e-300, 100.5};
  double lg_out[9];
  int lg_sign[9];
  cl_lgamma_r_d(lg_in, lg_out, lg_sign, 9);
  for (int i = 0; i < 9; i++) {
    int s;
    double want = lgamma_r(lg_in[i], &s);
    ASSERT_TRUE(fabs(lg_out[i] - want) <= 1e-13 * fmax(1, fabs(want)));
    ASSERT_EQ(lg_sign[i], s);
  }
  unsigned codes[3] = {0, 1, 0x3fffff};
  float nans[3];
  cl_nan_f(codes, nans, 3);
  for (int i = 0; i < 3; i++) {
    uint32_t b;
    memcpy(&b, &nans[i], 4);
    ASSERT_TRUE(isnan(nans[i]));
    ASSERT_EQ_U(b & 0x3fffff, codes[i]);
  }
  cl_native_f(a, r1, 64);
  for (int i = 0; i < 64; i++)
    if (isfinite(a[i]) && fabsf(a[i]) < 1e6f) ASSERT_TRUE(fabsf(r1[i]) < 1e-3f * fmaxf(1, fabsf(a[i])));
  free(a), free(r1), free(r2), free(ad), free(bd), free(rd), free(e), free(e2);
}
