/* math.cl - OpenCL C side of the math built-in tests (cl_math.c): for each
 * function of math_functions.h, cl_m1_<f>_<type>(in, out, n) applies it to
 * n values, in vectors (float16, double3, half8: vload/vstore) and then
 * scalars for the rest, so that both the scalar and a vector form run. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define CLT_LOOP(T, W, CALL1, CALLW)                                           \
  int i = 0;                                                                   \
  for (; i + W <= n; i += W) CALLW;                                            \
  for (; i < n; i++) CALL1;
#define CLT_TYPE1(F, T, W, S)                                                  \
  void cl_m1_##F##_##S(const T *a, T *out, int n) {                            \
    CLT_LOOP(T, W, out[i] = F(a[i]), vstore##W(F(vload##W(0, a + i)), 0, out + i)) \
  }
#define CLT_TYPE2(F, T, W, S)                                                  \
  void cl_m2_##F##_##S(const T *a, const T *b, T *out, int n) {                \
    CLT_LOOP(T, W, out[i] = F(a[i], b[i]),                                     \
             vstore##W(F(vload##W(0, a + i), vload##W(0, b + i)), 0, out + i)) \
  }
#define CLT_TYPE2I(F, T, W, S)                                                 \
  void cl_m2i_##F##_##S(const T *a, const int *b, T *out, int n) {             \
    CLT_LOOP(T, W, out[i] = F(a[i], b[i]),                                     \
             vstore##W(F(vload##W(0, a + i), vload##W(0, b + i)), 0, out + i)) \
  }
#define M1(F, UF, UD) CLT_TYPE1(F, float, 16, f) CLT_TYPE1(F, double, 3, d) CLT_TYPE1(F, half, 8, h)
#define M2(F, UF, UD) CLT_TYPE2(F, float, 16, f) CLT_TYPE2(F, double, 3, d) CLT_TYPE2(F, half, 8, h)
#define M2I(F, UF, UD) CLT_TYPE2I(F, float, 16, f) CLT_TYPE2I(F, double, 3, d) CLT_TYPE2I(F, half, 8, h)
#include "math_functions.h"

/* fma, and the functions with a second result through a pointer. */
void cl_fma_f(const float *a, const float *b, const float *c, float *out, int n) {
  CLT_LOOP(float, 4, out[i] = fma(a[i], b[i], c[i]),
           vstore4(fma(vload4(0, a + i), vload4(0, b + i), vload4(0, c + i)), 0, out + i))
}
void cl_fma_d(const double *a, const double *b, const double *c, double *out, int n) {
  CLT_LOOP(double, 2, out[i] = fma(a[i], b[i], c[i]),
           vstore2(fma(vload2(0, a + i), vload2(0, b + i), vload2(0, c + i)), 0, out + i))
}
void cl_fma_h(const half *a, const half *b, const half *c, half *out, int n) {
  for (int i = 0; i < n; i++) out[i] = fma(a[i], b[i], c[i]);
}
void cl_frexp_f(const float *a, float *m, int *e, int n) {
  for (int i = 0; i < n; i++) m[i] = frexp(a[i], e + i);
}
void cl_frexp_d4(const double *a, double *m, int *e, int n) { /* n: multiple of 4 */
  for (int i = 0; i < n; i += 4) {
    int4 e4;
    vstore4(frexp(vload4(0, a + i), &e4), 0, m + i);
    vstore4(e4, 0, e + i);
  }
}
void cl_modf_f(const float *a, float *frac, float *ip, int n) {
  for (int i = 0; i < n; i++) frac[i] = modf(a[i], ip + i);
}
void cl_fract_f(const float *a, float *frac, float *fl, int n) {
  for (int i = 0; i < n; i++) frac[i] = fract(a[i], fl + i);
}
void cl_sincos_f8(const float *a, float *s, float *c, int n) { /* n: multiple of 8 */
  for (int i = 0; i < n; i += 8) {
    float8 c8;
    vstore8(sincos(vload8(0, a + i), &c8), 0, s + i);
    vstore8(c8, 0, c + i);
  }
}
void cl_remquo_d(const double *a, const double *b, double *r, int *q, int n) {
  for (int i = 0; i < n; i++) r[i] = remquo(a[i], b[i], q + i);
}
void cl_ilogb_f(const float *a, int *out, int n) {
  for (int i = 0; i < n; i++) out[i] = ilogb(a[i]);
}
void cl_ilogb_d2(const double *a, int *out, int n) { /* n: multiple of 2 */
  for (int i = 0; i < n; i += 2) vstore2(ilogb(vload2(0, a + i)), 0, out + i);
}
void cl_lgamma_r_d(const double *a, double *out, int *sign, int n) {
  for (int i = 0; i < n; i++) out[i] = lgamma_r(a[i], sign + i);
}
void cl_nan_f(const uint *code, float *out, int n) {
  for (int i = 0; i < n; i++) out[i] = nan(code[i]);
}
void cl_native_f(const float *a, float *out, int n) { /* the relaxed forms */
  for (int i = 0; i < n; i++)
    out[i] = native_sin(a[i]) + half_cos(a[i]) - sin(a[i]) - cos(a[i]) +
             native_divide(a[i], 3.0f) - a[i] / 3.0f;
}
