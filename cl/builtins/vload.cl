/*
 * vload.cl - the vector data load and store built-ins, OpenCL C 2.0
 * specification section 6.13.7: vloadN/vstoreN of every type (the pointer
 * need only be aligned to the element), vload_half[N], vloada_halfN,
 * vstore_half[N] and vstorea_halfN with the default (round to nearest
 * even) and explicit rounding modes _rte, _rtz, _rtp, _rtn. In OpenCL C
 * 2.0 loads take generic or constant pointers, stores generic ones.
 * vloada_half3/vstorea_half3 address like 4-vectors (section 6.13.7).
 */
#include "clb.h"

#define CLB_VLOAD_N(N, T, AS)                                                  \
  CLB_OVL T##N vload##N(size_t offset, const AS T *p) {                        \
    T##N r;                                                                    \
    for (int i = 0; i < N; i++) r[i] = p[offset * N + i];                      \
    return r;                                                                  \
  }
#define CLB_VSTORE_N(N, T)                                                     \
  CLB_OVL void vstore##N(T##N v, size_t offset, T *p) {                        \
    for (int i = 0; i < N; i++) p[offset * N + i] = v[i];                      \
  }
#define CLB_VLOAD_STORE(T)                                                     \
  CLB_WIDTHS(CLB_VLOAD_N, T, __generic) CLB_WIDTHS(CLB_VLOAD_N, T, __constant) \
  CLB_WIDTHS(CLB_VSTORE_N, T)
CLB_INTS(CLB_VLOAD_STORE) CLB_FLOATS(CLB_VLOAD_STORE)

/* Half loads: the bits as ushort, widened exactly to float. */
#define CLB_VLOAD_HALF(AS)                                                     \
  CLB_OVL float vload_half(size_t offset, const AS half *p) {                  \
    return clb_half_bits_to_float(((const AS ushort *)p)[offset]);             \
  }
#define CLB_VLOAD_HALF_N(N, AS, NAME, STRIDE)                                  \
  CLB_OVL float##N NAME##N(size_t offset, const AS half *p) {                  \
    const AS ushort *u = (const AS ushort *)p;                                 \
    float##N r;                                                                \
    for (int i = 0; i < N; i++) r[i] = clb_half_bits_to_float(u[offset * STRIDE + i]); \
    return r;                                                                  \
  }
#define CLB_VLOAD_HALF_ALL(AS)                                                 \
  CLB_VLOAD_HALF(AS)                                                           \
  CLB_VLOAD_HALF_N(2, AS, vload_half, 2) CLB_VLOAD_HALF_N(3, AS, vload_half, 3) \
  CLB_VLOAD_HALF_N(4, AS, vload_half, 4) CLB_VLOAD_HALF_N(8, AS, vload_half, 8) \
  CLB_VLOAD_HALF_N(16, AS, vload_half, 16)                                     \
  CLB_VLOAD_HALF_N(2, AS, vloada_half, 2) CLB_VLOAD_HALF_N(3, AS, vloada_half, 4) \
  CLB_VLOAD_HALF_N(4, AS, vloada_half, 4) CLB_VLOAD_HALF_N(8, AS, vloada_half, 8) \
  CLB_VLOAD_HALF_N(16, AS, vloada_half, 16)
CLB_VLOAD_HALF_ALL(__generic)
CLB_VLOAD_HALF_ALL(__constant)

/* Half stores of float and double in a rounding mode. */
CLB_INL ushort clb_to_half_bits(float x, int mode) { return clb_float_to_half_bits(x, mode); }
CLB_INL ushort clb_to_half_bits_d(double x, int mode) { return clb_double_to_half_bits(x, mode); }
#define CLB_CVT_float clb_to_half_bits
#define CLB_CVT_double clb_to_half_bits_d
#define CLB_VSTORE_HALF_1(T, SUFFIX, MODE)                                     \
  CLB_OVL void vstore_half##SUFFIX(T v, size_t offset, half *p) {              \
    ((ushort *)p)[offset] = CLB_CVT_##T(v, MODE);                              \
  }
#define CLB_VSTORE_HALF_N(N, T, SUFFIX, MODE, NAME, STRIDE)                    \
  CLB_OVL void NAME##N##SUFFIX(T##N v, size_t offset, half *p) {               \
    ushort *u = (ushort *)p;                                                   \
    for (int i = 0; i < N; i++) u[offset * STRIDE + i] = CLB_CVT_##T(v[i], MODE); \
  }
#define CLB_VSTORE_HALF_MODE(T, SUFFIX, MODE)                                  \
  CLB_VSTORE_HALF_1(T, SUFFIX, MODE)                                           \
  CLB_VSTORE_HALF_N(2, T, SUFFIX, MODE, vstore_half, 2)                        \
  CLB_VSTORE_HALF_N(3, T, SUFFIX, MODE, vstore_half, 3)                        \
  CLB_VSTORE_HALF_N(4, T, SUFFIX, MODE, vstore_half, 4)                        \
  CLB_VSTORE_HALF_N(8, T, SUFFIX, MODE, vstore_half, 8)                        \
  CLB_VSTORE_HALF_N(16, T, SUFFIX, MODE, vstore_half, 16)                      \
  CLB_VSTORE_HALF_N(2, T, SUFFIX, MODE, vstorea_half, 2)                       \
  CLB_VSTORE_HALF_N(3, T, SUFFIX, MODE, vstorea_half, 4)                       \
  CLB_VSTORE_HALF_N(4, T, SUFFIX, MODE, vstorea_half, 4)                       \
  CLB_VSTORE_HALF_N(8, T, SUFFIX, MODE, vstorea_half, 8)                       \
  CLB_VSTORE_HALF_N(16, T, SUFFIX, MODE, vstorea_half, 16)
#define CLB_VSTORE_HALF_ALL(T)                                                 \
  CLB_VSTORE_HALF_MODE(T, , CLB_RTE) CLB_VSTORE_HALF_MODE(T, _rte, CLB_RTE)    \
  CLB_VSTORE_HALF_MODE(T, _rtz, CLB_RTZ) CLB_VSTORE_HALF_MODE(T, _rtp, CLB_RTP) \
  CLB_VSTORE_HALF_MODE(T, _rtn, CLB_RTN)
CLB_VSTORE_HALF_ALL(float) CLB_VSTORE_HALF_ALL(double)
