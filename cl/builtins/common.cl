/*
 * common.cl - the common built-ins (OpenCL C 2.0 specification section
 * 6.13.4: clamp, degrees, max, min, mix, radians, step, smoothstep, sign)
 * and the geometric ones (section 6.13.5: cross, dot, distance, length,
 * normalize, fast_distance, fast_length, fast_normalize) for float, double
 * and half. Geometric functions of float and half compute in double, those
 * of double scale by a power of two first, so that no intermediate
 * overflows or underflows unduly (section 6.13.5).
 */
#include "clb.h"

#define CLB_COMMON_SCALAR(T)                                                   \
  CLB_OVL T clamp(T x, T lo, T hi) { return fmin(fmax(x, lo), hi); }           \
  CLB_OVL T max(T x, T y) { return fmax(x, y); }                               \
  CLB_OVL T min(T x, T y) { return fmin(x, y); }                               \
  CLB_OVL T degrees(T r) { return (T)(57.295779513082320876798154814105 * (double)r); } \
  CLB_OVL T radians(T d) { return (T)(0.017453292519943295769236907684886 * (double)d); } \
  CLB_OVL T mix(T x, T y, T a) { return x + (y - x) * a; }                     \
  CLB_OVL T step(T edge, T x) { return x < edge ? (T)0.0f : (T)1.0f; }         \
  CLB_OVL T smoothstep(T e0, T e1, T x) {                                      \
    T t = clamp((x - e0) / (e1 - e0), (T)0.0f, (T)1.0f);                       \
    return t * t * ((T)3.0f - (T)2.0f * t);                                    \
  }                                                                            \
  CLB_OVL T sign(T x) {                                                        \
    if (x != x) return (T)0.0f;                                                \
    if (x > (T)0.0f) return (T)1.0f;                                           \
    if (x < (T)0.0f) return (T)-1.0f;                                          \
    return x; /* +0 or -0 */                                                   \
  }
CLB_FLOATS(CLB_COMMON_SCALAR)

#define CLB_COMMON_VECTORS(T)                                                  \
  CLB_V3(T, clamp, T, T, T) CLB_V3SS(T, clamp, T, T, T) CLB_V2(T, max, T, T)   \
  CLB_V2S(T, max, T, T) CLB_V2(T, min, T, T) CLB_V2S(T, min, T, T)             \
  CLB_V1(T, degrees, T) CLB_V1(T, radians, T) CLB_V3(T, mix, T, T, T)          \
  CLB_V3VVS(T, mix, T, T, T) CLB_V2(T, step, T, T) CLB_VS2(T, step, T, T)      \
  CLB_V3(T, smoothstep, T, T, T) CLB_V3SSV(T, smoothstep, T, T, T) CLB_V1(T, sign, T)
CLB_FLOATS(CLB_COMMON_VECTORS)

/* ---- Geometric. The sum of squares of the components of a (n of them),
 * as double, scaled by 2^(-2 * *k) so that it is representable. */
static double clb_sum_squares(const double *a, int n, int *k) {
  double m = 0.0;
  for (int i = 0; i < n; i++) m = fmax(m, __builtin_fabs(a[i]));
  *k = 0;
  if (m == 0.0 || !__builtin_isfinite(m)) return m;
  int e;
  clb_libm_frexp(m, &e);
  *k = e;
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    double x = clb_libm_ldexp(a[i], -e);
    s += x * x;
  }
  return s;
}
static double clb_length(const double *a, int n) {
  int k;
  double s = clb_sum_squares(a, n, &k);
  for (int i = 0; i < n; i++)
    if (__builtin_isinf(a[i])) return INFINITY;
  return clb_libm_ldexp(__builtin_sqrt(s), k);
}
/* normalize's special cases (section 6.13.5): all zero gives the zero
 * vector back, NaN gives NaN, infinities count as +-1 and the rest as 0. */
static void clb_normalize(double *a, int n) {
  bool any_inf = false, any_nan = false;
  for (int i = 0; i < n; i++) {
    any_inf |= __builtin_isinf(a[i]);
    any_nan |= a[i] != a[i];
  }
  if (any_nan) {
    for (int i = 0; i < n; i++) a[i] = NAN;
    return;
  }
  if (any_inf)
    for (int i = 0; i < n; i++)
      a[i] = __builtin_isinf(a[i]) ? __builtin_copysign(1.0, a[i]) : __builtin_copysign(0.0, a[i]);
  int k;
  double ls = __builtin_sqrt(clb_sum_squares(a, n, &k)); /* length / 2^k */
  if (ls == 0.0) return;
  for (int i = 0; i < n; i++) a[i] = clb_libm_ldexp(a[i], -k) / ls;
}

/* The geometric functions of a type T and width N (N = 1 is the scalar,
 * whose "vector" type is T itself); V is the type name for the width. */
#define CLB_LOAD(T, N, a, d) \
  double d[N];               \
  for (int i = 0; i < N; i++) d[i] = (double)((T *)&a)[i];
#define CLB_GEOMETRIC(T, V, N)                                                 \
  CLB_OVL T dot(V a, V b) {                                                    \
    T *pa = (T *)&a, *pb = (T *)&b;                                            \
    double s = 0.0; /* float/half products are exact in double */            \
    for (int i = 0; i < N; i++) s += (double)pa[i] * (double)pb[i];            \
    return (T)s;                                                               \
  }                                                                            \
  CLB_OVL T length(V a) {                                                      \
    CLB_LOAD(T, N, a, d)                                                       \
    return (T)clb_length(d, N);                                                \
  }                                                                            \
  CLB_OVL T distance(V a, V b) { return length(a - b); }                       \
  CLB_OVL V normalize(V a) {                                                   \
    CLB_LOAD(T, N, a, d)                                                       \
    clb_normalize(d, N);                                                       \
    V r;                                                                       \
    for (int i = 0; i < N; i++) ((T *)&r)[i] = (T)d[i];                        \
    return r;                                                                  \
  }
#define CLB_GEOMETRIC_TYPE(T)                                                  \
  CLB_GEOMETRIC(T, T, 1) CLB_GEOMETRIC(T, T##2, 2) CLB_GEOMETRIC(T, T##3, 3)   \
  CLB_GEOMETRIC(T, T##4, 4)                                                    \
  CLB_OVL T##3 cross(T##3 a, T##3 b) {                                         \
    return (T##3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); \
  }                                                                            \
  CLB_OVL T##4 cross(T##4 a, T##4 b) {                                         \
    return (T##4)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x, (T)0.0f); \
  }
CLB_FLOATS(CLB_GEOMETRIC_TYPE)

#define CLB_FAST_GEOMETRIC(V)                                                  \
  CLB_OVL float fast_length(V a) { return length(a); }                         \
  CLB_OVL float fast_distance(V a, V b) { return distance(a, b); }             \
  CLB_OVL V fast_normalize(V a) { return normalize(a); }
CLB_FAST_GEOMETRIC(float) CLB_FAST_GEOMETRIC(float2) CLB_FAST_GEOMETRIC(float3)
CLB_FAST_GEOMETRIC(float4)
