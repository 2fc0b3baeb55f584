/* convert.cl - OpenCL C side of the conversion tests (cl_convert.c): for
 * every pair of types, cl_cvt_<dst>_<src>(in, out, n) writes variant k of
 * element i to out[k * n + i]: k = 0..4 the modes (none, _rte, _rtz, _rtp,
 * _rtn), k = 5..9 the same with _sat (integer destinations only). The
 * first half goes through 4-vectors, the rest through scalars. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define CLT_MODES(D, x, SAT)                                                   \
  convert_##D##SAT(x), convert_##D##SAT##_rte(x), convert_##D##SAT##_rtz(x),   \
      convert_##D##SAT##_rtp(x), convert_##D##SAT##_rtn(x)
#define CLT_CVT_BODY(D, S, NV, LIST1, LIST4)                                   \
  void cl_cvt_##D##_##S(const S *in, D *out, int n) {                          \
    int i = 0;                                                                 \
    for (; i + 4 <= n / 2; i += 4) {                                           \
      S##4 x = vload4(0, in + i);                                              \
      D##4 r[NV] = {LIST4};                                                    \
      for (int k = 0; k < NV; k++) vstore4(r[k], 0, out + k * n + i);          \
    }                                                                          \
    for (; i < n; i++) {                                                       \
      S x = in[i];                                                             \
      D r[NV] = {LIST1};                                                       \
      for (int k = 0; k < NV; k++) out[k * n + i] = r[k];                      \
    }                                                                          \
  }
#define CLT_TO_INT(D, S)                                                       \
  CLT_CVT_BODY(D, S, 10, CLT_MODES(D, x, ) COMMA CLT_MODES(D, x, _sat),        \
               CLT_MODES(D##4, x, ) COMMA CLT_MODES(D##4, x, _sat))
#define CLT_TO_FP(D, S) CLT_CVT_BODY(D, S, 5, CLT_MODES(D, x, ), CLT_MODES(D##4, x, ))
#define COMMA ,
#define CLT_SRCS(M, D)                                                         \
  M(D, char) M(D, uchar) M(D, short) M(D, ushort) M(D, int) M(D, uint) M(D, long) \
  M(D, ulong) M(D, float) M(D, double) M(D, half)
CLT_SRCS(CLT_TO_INT, char) CLT_SRCS(CLT_TO_INT, uchar) CLT_SRCS(CLT_TO_INT, short)
CLT_SRCS(CLT_TO_INT, ushort) CLT_SRCS(CLT_TO_INT, int) CLT_SRCS(CLT_TO_INT, uint)
CLT_SRCS(CLT_TO_INT, long) CLT_SRCS(CLT_TO_INT, ulong)
CLT_SRCS(CLT_TO_FP, float) CLT_SRCS(CLT_TO_FP, double) CLT_SRCS(CLT_TO_FP, half)
