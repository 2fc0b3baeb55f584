/* cl_integer.c - the integer built-ins (cl/builtins/integer.cl) against
 * references in 128-bit arithmetic, for every integer type, on random
 * values mixed with each type's edges (MIN, MAX, 0, +-1). */
#include <stdlib.h>
#include <string.h>

#include "lib/test.h"
#include "tests/cl/cl_test.h"

typedef __int128 i128;

/* ref of op k for values of `bits` bits, signed or not, as the value
 * stored in the type (wrapped to `bits`). */
static i128 wrap(i128 v, int bits, bool is_signed) {
  unsigned __int128 m = bits == 64 ? ~(unsigned __int128)0 >> 64 : (((unsigned __int128)1 << bits) - 1);
  unsigned __int128 u = (unsigned __int128)v & m;
  if (is_signed && (u >> (bits - 1)) & 1) return (i128)u - ((i128)1 << bits);
  return (i128)u;
}
static i128 sat(i128 v, int bits, bool is_signed) {
  i128 lo = is_signed ? -((i128)1 << (bits - 1)) : 0;
  i128 hi = is_signed ? ((i128)1 << (bits - 1)) - 1 : ((i128)1 << bits) - 1;
  return v < lo ? lo : v > hi ? hi : v;
}
static i128 floor_div2(i128 v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }
static i128 ref_op(int k, i128 x, i128 y, i128 z, int bits, bool s) {
  unsigned __int128 ux = (unsigned __int128)wrap(x, bits, false);
  switch (k) {
  case 0: return wrap(x < 0 ? -x : x, bits, s); /* abs: unsigned bits, read as T */
  case 1: return wrap(x > y ? x - y : y - x, bits, s);
  case 2: return sat(x + y, bits, s);
  case 3: return sat(x - y, bits, s);
  case 4: return floor_div2(x + y);
  case 5: return floor_div2(x + y + 1);
  case 6: { int n = 0; for (int b = bits - 1; b >= 0 && !((ux >> b) & 1); b--) n++; return n; }
  case 7: { int n = 0; for (int b = 0; b < bits && !((ux >> b) & 1); b++) n++; return n; }
  case 8: { int n = 0; for (int b = 0; b < bits; b++) n += (ux >> b) & 1; return n; }
  case 9: /* high half of the exact product (fits 128 bits, signed or not) */
    if (s) return (x * y) >> bits;
    return (i128)(((unsigned __int128)x * (unsigned __int128)y) >> bits);
  case 10: return wrap(ref_op(9, x, y, z, bits, s) + z, bits, s);
  case 11:
    if (!s) { /* (2^64 - 1)^2 + 2^64 - 1 < 2^128 */
      unsigned __int128 p = (unsigned __int128)x * (unsigned __int128)y + (unsigned __int128)z;
      unsigned __int128 hi = bits == 64 ? 0xffffffffffffffffu : ((unsigned __int128)1 << bits) - 1;
      return p > hi ? (i128)hi : (i128)p;
    }
    return sat(x * y + z, bits, s);
  case 12: { int n = (int)(((unsigned __int128)wrap(y, bits, false)) % bits);
    return wrap((i128)((ux << n) | (n ? ux >> (bits - n) : 0)), bits, s); }
  case 13: return x > y ? x : y;
  case 14: return x < y ? x : y;
  case 15: { i128 lo = y < z ? y : z, hi = y < z ? z : y; return x < lo ? lo : x > hi ? hi : x; }
  }
  return 0;
}

#define N 256
#define NOPS 16
#define INT_TYPES(M)                                                           \
  M(char, int8_t, 8, true) M(uchar, uint8_t, 8, false) M(short, int16_t, 16, true) \
  M(ushort, uint16_t, 16, false) M(int, int32_t, 32, true) M(uint, uint32_t, 32, false) \
  M(long, int64_t, 64, true) M(ulong, uint64_t, 64, false)
#define DECLARE(T, CT, BITS, S) void cl_int_ops_##T(const CT *, const CT *, const CT *, CT *, int);
INT_TYPES(DECLARE)

static const char *op_names[NOPS] = {"abs", "abs_diff", "add_sat", "sub_sat", "hadd", "rhadd",
                                     "clz", "ctz", "popcount", "mul_hi", "mad_hi", "mad_sat",
                                     "rotate", "max", "min", "clamp"};

#define RUN(T, CT, BITS, S)                                                    \
  {                                                                            \
    static CT a[N], b[N], c[N], out[N * NOPS];                                 \
    uint64_t seed = BITS * 7 + S;                                              \
    const CT edges[] = {(CT)(S ? (CT)((uint64_t)1 << (BITS - 1)) : 0), (CT)(S ? (CT)~((uint64_t)1 << (BITS - 1)) : (CT)~0ull), 0, 1, (CT)-1}; \
    for (int i = 0; i < N; i++) {                                              \
      uint64_t r = cl_rand(&seed);                                             \
      a[i] = i < 25 ? edges[i % 5] : (CT)r;                                    \
      b[i] = i < 25 ? edges[i / 5] : (CT)(r >> 17) ;                           \
      c[i] = (i % 3) ? (CT)(r >> 29) : edges[i % 5];                           \
      if (i % 7 == 3) b[i] = (CT)(r % (BITS * 2));                            \
    }                                                                          \
    cl_int_ops_##T(a, b, c, out, N);                                           \
    for (int k = 0; k < NOPS; k++)                                             \
      for (int i = 0; i < N; i++) {                                            \
        i128 want = ref_op(k, a[i], b[i], c[i], BITS, S);                      \
        CT got = out[k * N + i];                                               \
        ASSERT_MSG((i128)got == wrap(want, BITS, S),                             \
                   "%s(%s 0x%llx, 0x%llx, 0x%llx) = 0x%llx, want 0x%llx",      \
                   op_names[k], #T, (unsigned long long)a[i],                  \
                   (unsigned long long)b[i], (unsigned long long)c[i],         \
                   (unsigned long long)got,                                    \
                   (unsigned long long)wrap(want, BITS, S));                   \
      }                                                                        \
  }

TEST(cl_integer_every_type_and_edge) { INT_TYPES(RUN) }

void cl_int_misc(const int *a, const int *b, long *out);
TEST(cl_integer_upsample_mul24_scalar_forms) {
  int a[4] = {-1, 0x12345678, -0x7fffffff - 1, 77}, b[4] = {-1, 0x7abcdef0, 5, -300};
  long out[28];
  cl_int_misc(a, b, out);
  for (int i = 0; i < 4; i++) {
    ASSERT_EQ(out[i], (long)(((uint64_t)(uint32_t)a[i] << 32) | (uint32_t)b[i]));
    ASSERT_EQ(out[4 + i], (int32_t)(((uint32_t)(uint16_t)(int16_t)a[i] << 16) | (uint16_t)b[i]));
    long x = a[i] & 0x7fffff, y = b[i] & 0x7fffff;
    ASSERT_EQ(out[8 + i], (int32_t)(uint32_t)(x * y));
    ASSERT_EQ(out[12 + i], (int32_t)(uint32_t)(x * y + a[i]));
    ASSERT_EQ(out[16 + i], a[i] > 5 ? a[i] : 5);
    ASSERT_EQ(out[20 + i], a[i] < -5 ? a[i] : -5);
    ASSERT_EQ(out[24 + i], a[i] < -100 ? -100 : a[i] > 100 ? 100 : a[i]);
  }
}
