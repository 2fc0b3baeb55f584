/*
 * shuffle.cl - shuffle and shuffle2, OpenCL C 2.0 specification section
 * 6.13.12: element i of the result is x[mask[i] % m] (shuffle), or element
 * mask[i] % 2m of x followed by y (shuffle2), for widths m, n of 2, 4, 8
 * and 16 and every element type; the mask is the unsigned integer vector
 * of the element's size.
 */
#include "clb.h"

#define CLB_SHUFFLE_MN(T, UT, M, N)                                            \
  CLB_OVL T##N shuffle(T##M x, UT##N mask) {                                   \
    T##N r;                                                                    \
    for (int i = 0; i < N; i++) r[i] = x[mask[i] % M];                          \
    return r;                                                                  \
  }                                                                            \
  CLB_OVL T##N shuffle2(T##M x, T##M y, UT##N mask) {                          \
    T##N r;                                                                    \
    for (int i = 0; i < N; i++) {                                              \
      uint k = (uint)(mask[i] % (2 * M));                                      \
      r[i] = k < M ? x[k] : y[k - M];                                          \
    }                                                                          \
    return r;                                                                  \
  }
#define CLB_SHUFFLE_M(T, UT, M)                                                \
  CLB_SHUFFLE_MN(T, UT, M, 2) CLB_SHUFFLE_MN(T, UT, M, 4)                      \
  CLB_SHUFFLE_MN(T, UT, M, 8) CLB_SHUFFLE_MN(T, UT, M, 16)
#define CLB_SHUFFLE(T, UT)                                                     \
  CLB_SHUFFLE_M(T, UT, 2) CLB_SHUFFLE_M(T, UT, 4) CLB_SHUFFLE_M(T, UT, 8)      \
  CLB_SHUFFLE_M(T, UT, 16)
CLB_SHUFFLE(char, uchar) CLB_SHUFFLE(uchar, uchar) CLB_SHUFFLE(short, ushort)
CLB_SHUFFLE(ushort, ushort) CLB_SHUFFLE(int, uint) CLB_SHUFFLE(uint, uint)
CLB_SHUFFLE(long, ulong) CLB_SHUFFLE(ulong, ulong) CLB_SHUFFLE(float, uint)
CLB_SHUFFLE(double, ulong) CLB_SHUFFLE(half, ushort)
