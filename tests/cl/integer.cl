/* integer.cl - OpenCL C side of the integer built-in tests (cl_integer.c):
 * cl_int_ops_<type>(a, b, c, out, n) writes op k of element i to
 * out[k * n + i] (the order of cl_integer.c's references); the first half
 * of the elements goes through a vector width W, the rest through the
 * scalar forms. */
#define CLT_OPS(x, y, z, T)                                                    \
  __builtin_astype(abs(x), T), __builtin_astype(abs_diff(x, y), T), add_sat(x, y), \
      sub_sat(x, y), hadd(x, y), rhadd(x, y), clz(x), ctz(x), popcount(x), mul_hi(x, y), \
      mad_hi(x, y, z), mad_sat(x, y, z), rotate(x, y), max(x, y), min(x, y),   \
      clamp(x, min(y, z), max(y, z))
#define CLT_NOPS 16
#define CLT_INT_OPS(T, W)                                                      \
  void cl_int_ops_##T(const T *a, const T *b, const T *c, T *out, int n) {     \
    int i = 0;                                                                 \
    for (; i + W <= n / 2; i += W) {                                           \
      T##W x = vload##W(0, a + i), y = vload##W(0, b + i), z = vload##W(0, c + i); \
      T##W r[CLT_NOPS] = {CLT_OPS(x, y, z, T##W)};                             \
      for (int k = 0; k < CLT_NOPS; k++) vstore##W(r[k], 0, out + k * n + i);  \
    }                                                                          \
    for (; i < n; i++) {                                                       \
      T x = a[i], y = b[i], z = c[i];                                          \
      T r[CLT_NOPS] = {CLT_OPS(x, y, z, T)};                                   \
      for (int k = 0; k < CLT_NOPS; k++) out[k * n + i] = r[k];                \
    }                                                                          \
  }
CLT_INT_OPS(char, 16) CLT_INT_OPS(uchar, 3) CLT_INT_OPS(short, 8) CLT_INT_OPS(ushort, 2)
CLT_INT_OPS(int, 4) CLT_INT_OPS(uint, 8) CLT_INT_OPS(long, 2) CLT_INT_OPS(ulong, 16)

/* upsample, mul24/mad24, and the integer forms of max/min/clamp with a
 * scalar second argument. */
void cl_int_misc(const int *a, const int *b, long *out) {
  int4 x = vload4(0, a), y = vload4(0, b);
  vstore4(upsample(x, as_uint4(y)), 0, out);
  vstore4(convert_long4(upsample(convert_short4(x), convert_ushort4(y))), 0, out + 4);
  vstore4(convert_long4(mul24(x & 0x7fffff, y & 0x7fffff)), 0, out + 8);
  vstore4(convert_long4(mad24(x & 0x7fffff, y & 0x7fffff, x)), 0, out + 12);
  vstore4(convert_long4(max(x, 5)), 0, out + 16);
  vstore4(convert_long4(min(x, -5)), 0, out + 20);
  vstore4(convert_long4(clamp(x, -100, 100)), 0, out + 24);
}
