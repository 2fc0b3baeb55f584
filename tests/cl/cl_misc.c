/* cl_misc.c - the relational, common, geometric, vector load/store,
 * shuffle, atomic, printf and async copy built-ins (misc.cl) against the C
 * library, recorded values and the definitions of OpenCL C 2.0 sections
 * 6.13.4-6.13.13. */
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "lib/test.h"
#include "tests/cl/cl_stubs.h"
#include "tests/cl/cl_test.h"

void cl_rel(const float *, const float *, int, int *, int *, int *, long *, short *);
void cl_select(const int *, const int *, const int *, int *);
void cl_common(float *, double *);
void cl_vload(const int *, int *, const float *, uint16_t *, float *);
void cl_shuffle(const int *, const int *, int *);
void cl_atomics_legacy(int *, unsigned *, long *, float *, long *);
void cl_atomics_c11(int *, long *, float *, int *, long *);
void cl_atomics_count(int *, long *, int *, long *, int);
int cl_printf_case(int);
void cl_printf_simplified_forms(void);
/* The library's printf, puts and putchar under the names the test program
 * gives them (mk/cl-builtins.mk, CL_TEST_RENAMES). */
int cl_printf(const char *format, ...);
int cl_puts(const char *s);
int cl_putchar(int c);
void cl_async(const float *, float *, float *, const int *, int *, int *, int);
void cl_async_back(float *, float *, int *, int *, int);

static int rel_ref(int k, double x, double y, int mant_min_exp_is_float) {
  (void)mant_min_exp_is_float;
  switch (k) {
  case 0: return x == y;
  case 1: return x != y;
  case 2: return x > y;
  case 3: return x >= y;
  case 4: return x < y;
  case 5: return x <= y;
  case 6: return x < y || x > y;
  case 7: return !isnan(x) && !isnan(y);
  case 8: return isnan(x) || isnan(y);
  case 9: return isnan(x) != 0;
  case 10: return isfinite(x) != 0;
  case 11: return isinf(x) != 0;
  case 12: return 0; /* per type, below */
  default: return signbit(x) != 0;
  }
}

TEST(cl_relational_scalar_one_vector_minus_one) {
  enum { N = 32 };
  float a[N] = {0.0f, -0.0f, 1.0f, NAN, INFINITY, -INFINITY, 0x1p-149f, FLT_MIN, -2.0f, 3.0f,
                NAN, 1e-40f, 5.0f, -1.0f, 0x1p-15f, 70000.0f};
  float b[N] = {-0.0f, 0.0f, 2.0f, 1.0f, INFINITY, 1.0f, 0.0f, FLT_MIN, -3.0f, NAN,
                NAN, 0.0f, 5.0f, -1.0f, 0.0f, 1.0f};
  uint64_t seed = 40;
  for (int i = 16; i < N; i++) a[i] = (float)(cl_rand(&seed) % 5) - 2, b[i] = (float)(cl_rand(&seed) % 5) - 2;
  int out_s[14 * N], out_v[14 * N], outd_s[14 * N];
  long outd_v[14 * N];
  short outh_v[14 * N];
  cl_rel(a, b, N, out_s, out_v, outd_s, outd_v, outh_v);
  for (int k = 0; k < 14; k++)
    for (int i = 0; i < N; i++) {
      int want_f = k == 12 ? isnormal(a[i]) != 0 : rel_ref(k, a[i], b[i], 1);
      int want_d = k == 12 ? isnormal((double)a[i]) != 0 : want_f;
      /* half: the values converted to half (70000 overflows to inf) */
      long double ha = cl_half_to_ld(cl_ld_to_half(a[i])), hb = cl_half_to_ld(cl_ld_to_half(b[i]));
      int want_h = k == 12 ? isnormal((double)ha) && fabsl(ha) >= 0x1p-14L
                           : rel_ref(k, (double)ha, (double)hb, 0);
      ASSERT_MSG(out_s[k * N + i] == want_f && out_v[k * N + i] == -want_f &&
                     outd_s[k * N + i] == want_d && outd_v[k * N + i] == -want_d &&
                     outh_v[k * N + i] == -want_h,
                 "relational %d (%a, %a): %d %d %d %ld %d, want %d/%d/%d", k, a[i], b[i],
                 out_s[k * N + i], out_v[k * N + i], outd_s[k * N + i], outd_v[k * N + i],
                 outh_v[k * N + i], want_f, want_d, want_h);
    }
}

TEST(cl_relational_select_any_all) {
  int a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, c[4] = {0, -1, 0x7fffffff, (int)0x80000000};
  int out[24];
  cl_select(a, b, c, out);
  ASSERT_EQ(out[0], 1);
  ASSERT_EQ(out[1], 0);
  ASSERT_EQ(out[2], 0); /* scalar any: sign bit of 0 */
  ASSERT_EQ(out[3], 1);
  ASSERT_EQ(out[4], 0);
  int want_sel[4] = {1, 6, 3, 8}; /* by the most significant bit of c */
  for (int i = 0; i < 4; i++) {
    ASSERT_EQ(out[5 + i], want_sel[i]);
    ASSERT_EQ(out[9 + i], want_sel[i]);
    ASSERT_EQ(out[13 + i], (a[i] & ~c[i]) | (b[i] & c[i]));
    ASSERT_EQ(out[19 + i], want_sel[i] + (want_sel[i] > 4 ? 0 : 0));
  }
  ASSERT_EQ(out[17], a[0]);
  ASSERT_EQ(out[18], b[0]); /* scalar select: c != 0 */
  float m = -1.0f; /* 1.0 with the sign bit of -2.0 */
  int mi;
  memcpy(&mi, &m, 4);
  ASSERT_EQ(out[23], mi);
}

TEST(cl_common_and_geometric) {
  float o[40];
  double d[12];
  cl_common(o, d);
  ASSERT_TRUE(o[0] == -1 && o[1] == 0.25f && o[2] == 1);
  ASSERT_TRUE(o[4] == -1 && o[5] == 0 && !signbit(o[5]) && o[6] == 0 && signbit(o[6]) && o[7] == 1);
  ASSERT_TRUE(o[8] == 0 && o[9] == 1 && o[10] == 1 && o[11] == 0);
  ASSERT_TRUE(o[12] == 0 && fabsf(o[13] - 0.15625f) < 1e-6f && o[14] == 0.5f && o[15] == 1);
  ASSERT_TRUE(o[16] == 0 && o[17] == 2.5f && o[18] == 5 && o[19] == 10);
  ASSERT_TRUE(fabsf(o[20] - 180) < 1e-4f && fabsf(o[21] - 3.14159265f) < 1e-6f);
  ASSERT_TRUE(o[22] == 2 && o[23] == 1 && o[24] == 70);
  ASSERT_TRUE(o[25] == 0 && o[26] == 0 && o[27] == 1);
  ASSERT_TRUE(fabsf(o[28] - 5e30f) <= 5e30f * 1e-6f);
  ASSERT_TRUE(fabsf(o[29] - 5e-30f) <= 5e-30f * 1e-6f);
  ASSERT_TRUE(o[30] == 5);
  ASSERT_TRUE(o[31] == 1 && o[32] == 0);   /* infinities count as 1, the rest 0 */
  ASSERT_TRUE(o[33] == 0 && o[34] == 0);   /* the zero vector stays */
  ASSERT_TRUE(fabsf(o[35] - 0.6f) < 1e-6f && fabsf(o[36] - 0.8f) < 1e-6f); /* subnormals */
  ASSERT_TRUE(o[37] == 2);
  ASSERT_TRUE(fabs(d[0] - 5e300) <= 5e300 * 1e-15);
  ASSERT_TRUE(fabs(d[1] - 5e-310) <= 5e-310 * 1e-6);
  ASSERT_TRUE(fabs(d[2] - M_SQRT1_2) < 1e-15 && d[3] == 0 && d[4] == 0 && fabs(d[5] - M_SQRT1_2) < 1e-15);
  ASSERT_TRUE(d[6] == 32);
  ASSERT_TRUE(d[7] == 1 && d[8] == 0 && d[9] == 0 && d[10] == 0);
  ASSERT_TRUE(d[11] == 5);
}

TEST(cl_vload_vstore_and_half_rounding) {
  int p[32], q[40] = {0};
  for (int i = 0; i < 32; i++) p[i] = i * 10;
  /* 1 + 2^-11 + 2^-12: between two halves, above the midpoint */
  float f[5] = {1.0f + 0x1p-11f, 1.0f + 0x1p-11f + 0x1p-13f, -1.0f - 0x1p-12f, 1.0f + 0x1p-20f,
                -1.0f - 0x1p-20f};
  uint16_t h[20] = {0};
  float back[10];
  cl_vload(p, q, f, h, back);
  ASSERT_TRUE(q[7] == 40 && q[8] == 50 && q[9] == 60 && q[6] == 0 && q[10] == 0);
  for (int i = 0; i < 16; i++) ASSERT_EQ(q[16 + i], 2 * p[3 + i]);
  ASSERT_EQ_U(h[0], 0x3c00); /* 1 + 2^-11 is a tie: to even, 1.0 */
  ASSERT_EQ_U(h[1], 0x3c01); /* above the tie: up */
  ASSERT_EQ_U(h[2], 0xbc00); /* rtz */
  ASSERT_EQ_U(h[3], 0x3c01); /* rtp */
  ASSERT_EQ_U(h[4], 0xbc01); /* rtn */
  ASSERT_EQ_U(h[8], 0x3c00); ASSERT_EQ_U(h[9], 0x3c00); ASSERT_EQ_U(h[10], 0xbc00); ASSERT_EQ_U(h[11], 0x3c00);
  ASSERT_EQ_U(h[12], 0x3c01); ASSERT_EQ_U(h[13], 0x3c01); ASSERT_EQ_U(h[14], 0xbc00); ASSERT_EQ_U(h[15], 0);
  ASSERT_EQ_U(h[16], 0x3c00); ASSERT_EQ_U(h[17], 0x3c00);
  ASSERT_TRUE(back[0] == 1.0f && back[1] == 1.0f && back[3] == -1.0f);
  ASSERT_TRUE(back[5] == 1.0f + 0x1p-10f && back[7] == -1.0f && back[8] == 1.0f);
  /* every half value round trips, and every float rounds like the
   * reference encoder (to nearest even) */
  uint64_t seed = 41;
  for (int i = 0; i < 2000; i++) {
    uint32_t bits = (uint32_t)(cl_rand(&seed) >> 32);
    float x;
    memcpy(&x, &bits, 4);
    float in[5] = {x, x, x, x, x};
    cl_vload(p, q, in, h, back);
    if (isnan(x)) ASSERT_TRUE((h[0] & 0x7c00) == 0x7c00 && (h[0] & 0x3ff));
    else ASSERT_EQ_U(h[0], cl_ld_to_half(x));
    long double v = cl_half_to_ld(h[0]);
    ASSERT_TRUE((isnan(v) && isnan(back[0])) || v == back[0]);
    ASSERT_TRUE(isnan(x) || cl_half_to_ld(h[2]) == 0 || fabsl(cl_half_to_ld(h[2])) <= fabsl(x)); /* rtz */
    ASSERT_TRUE(isnan(x) || cl_half_to_ld(h[3]) >= x); /* rtp */
    ASSERT_TRUE(isnan(x) || cl_half_to_ld(h[4]) <= x); /* rtn */
  }
}

TEST(cl_shuffle_picks_elements_modulo) {
  int a[4] = {10, 11, 12, 13}, b[4] = {20, 21, 22, 23}, out[14];
  cl_shuffle(a, b, out);
  int want[14] = {13, 12, 11, 10, 13, 10, 11, 12, 10, 20, 23, 11, 15, 1};
  for (int i = 0; i < 14; i++) ASSERT_EQ(out[i], want[i]);
}

TEST(cl_atomics_legacy_results) {
  int p = 100;
  unsigned u = 5;
  long l = 1;
  float f = 1.0f;
  long out[20];
  cl_atomics_legacy(&p, &u, &l, &f, out);
  long want[13] = {100, 105, 103, 104, 103, -7, 40, 40, -3, 9, 8, 11, 4};
  for (int i = 0; i < 13; i++) ASSERT_EQ(out[i], want[i]);
  ASSERT_EQ(out[13], 5);
  ASSERT_EQ_U(u, 0x80000000u);
  ASSERT_EQ(out[14], 1);
  ASSERT_EQ(out[15], 0x100000001L);
  ASSERT_EQ(out[16], -1);
  ASSERT_EQ(out[17], -5);
  float two_and_half = 2.5f, one = 1.0f;
  int bits_one, bits_25;
  memcpy(&bits_one, &one, 4), memcpy(&bits_25, &two_and_half, 4);
  ASSERT_EQ(out[18], bits_one);
  ASSERT_EQ(out[19], bits_25);
}

TEST(cl_atomics_c11_results) {
  int a = 0, flag = 0;
  long b = 0, out[19];
  float f = 0;
  cl_atomics_c11(&a, &b, &f, &flag, out);
  long want[12] = {10, 13, 12, 0x10c, 0x10d, 0xd, 5, 7, 0, 99, 1, 2};
  for (int i = 0; i < 12; i++) ASSERT_EQ(out[i], want[i]);
  ASSERT_EQ(out[12], 1L << 40);
  ASSERT_EQ(out[13], (1L << 40) + (1L << 41));
  float x = 1.5f, y = 3.0f;
  int bx, by;
  memcpy(&bx, &x, 4), memcpy(&by, &y, 4);
  ASSERT_EQ(out[14], bx);
  ASSERT_EQ(out[15], by);
  ASSERT_EQ(out[16], 0);
  ASSERT_EQ(out[17], 1);
  ASSERT_EQ(out[18], 0);
  ASSERT_EQ(flag, 1);
}

struct counters {
  int c32;
  long c64;
  int a32;
  long a64;
};
static void *count_thread(void *arg) {
  struct counters *c = arg;
  cl_atomics_count(&c->c32, &c->c64, &c->a32, &c->a64, 100000);
  return NULL;
}
TEST(cl_atomics_are_atomic_across_threads) {
  struct counters c = {0, 0, 0, 0};
  pthread_t t[3];
  for (int i = 0; i < 3; i++) ASSERT_EQ(pthread_create(&t[i], NULL, count_thread, &c), 0);
  for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
  ASSERT_EQ(c.c32, 300000);
  ASSERT_EQ(c.c64, 900000);
  ASSERT_EQ(c.a32, 600000);
  ASSERT_EQ(c.a64, 300000L << 33);
}

TEST(cl_printf_formats_one_write_per_call) {
  static const char *want[] = {
      "hello -42 str z| 3.14|ff  |%\n",
      "1.000000,-2.500000,0.000000,10000000000.000000\n",
      "0.500000,2.000000 1,-2,3 123456789ab,1\n",
      "-1,2,-3,127|65535,7|-5 -300 -5000000000\n",
      "1.235e+04 1e-05 0x1p+0 1.250000,-0.500000\n",
      "010 +5  6 -003.500    7\n",
      "0,1,2,3,4,5,6,7|0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,255\n",
      "0.500000,-1.000000\n",
  };
  for (int k = 0; k < 8; k++) {
    cl_stub_written_len = 0, cl_stub_written[0] = 0, cl_stub_writes = 0;
    ASSERT_EQ(cl_printf_case(k), 0);
    ASSERT_EQ(cl_stub_writes, 1);
    ASSERT_STR_EQ(cl_stub_written, want[k]);
  }
  for (int k = 8; k < 10; k++) { /* malformed: -1, nothing written */
    cl_stub_written_len = 0, cl_stub_written[0] = 0, cl_stub_writes = 0;
    ASSERT_EQ(cl_printf_case(k), -1);
    ASSERT_EQ(cl_stub_writes, 0);
  }
  cl_stub_written_len = 0, cl_stub_written[0] = 0, cl_stub_writes = 0;
  ASSERT_EQ(cl_printf_case(10), 0);
  ASSERT_STR_EQ(cl_stub_written, "inf -nan -0.000000e+00\n");
}

/* What printf calls become once optimised still goes out whole, one write
 * per call, as printf's own output would (cut at the same length). */
TEST(cl_printf_as_puts_and_putchar_one_write_per_call) {
  cl_stub_written_len = 0, cl_stub_written[0] = 0, cl_stub_writes = 0;
  cl_printf_simplified_forms();
  ASSERT_EQ(cl_stub_writes, 4);
  ASSERT_STR_EQ(cl_stub_written, "a line\na string\n!?");
  cl_stub_written_len = 0, cl_stub_written[0] = 0, cl_stub_writes = 0;
  ASSERT_EQ(cl_putchar(0x13f), 0x3f); /* converted to unsigned char */
  ASSERT_STR_EQ(cl_stub_written, "?");
  static char long_line[2000];
  memset(long_line, 'x', sizeof long_line - 1);
  char by_printf[sizeof cl_stub_written];
  cl_stub_written_len = 0, cl_stub_written[0] = 0, cl_stub_writes = 0;
  ASSERT_EQ(cl_printf("%s\n", long_line), 0);
  memcpy(by_printf, cl_stub_written, cl_stub_written_len + 1);
  cl_stub_written_len = 0, cl_stub_written[0] = 0, cl_stub_writes = 0;
  ASSERT_TRUE(cl_puts(long_line) >= 0);
  ASSERT_EQ(cl_stub_writes, 1);
  ASSERT_EQ(cl_stub_written_len, 1023);
  ASSERT_STR_EQ(cl_stub_written, by_printf);
}

TEST(cl_async_copies_by_every_work_item) {
  enum { N = 37, ITEMS = 8 };
  float src[4 * N], tmp[4 * N], dst[4 * N];
  int ssrc[3 * N], stmp[N], sdst[2 * N];
  for (int i = 0; i < 4 * N; i++) src[i] = (float)i, tmp[i] = -1, dst[i] = -1;
  for (int i = 0; i < 3 * N; i++) ssrc[i] = i;
  memset(sdst, 0xff, sizeof sdst);
  cl_stub_local_size = ITEMS;
  cl_stub_barriers = 0;
  for (size_t id = 0; id < ITEMS; id++) { /* the work-group, one item after the other */
    cl_stub_local_id = id;
    cl_async(src, tmp, dst, ssrc, stmp, sdst, N);
  }
  for (int i = 0; i < 4 * N; i++) ASSERT_TRUE(tmp[i] == src[i]);
  for (int i = 0; i < N; i++) ASSERT_EQ(stmp[i], 3 * i);
  for (size_t id = 0; id < ITEMS; id++) {
    cl_stub_local_id = id;
    cl_async_back(tmp, dst, stmp, sdst, N);
  }
  for (int i = 0; i < 4 * N; i++) ASSERT_TRUE(dst[i] == src[i]);
  for (int i = 0; i < 2 * N; i++) ASSERT_EQ(sdst[i], i % 2 ? -1 : 3 * (i / 2));
  ASSERT_EQ(cl_stub_barriers, 3 * ITEMS); /* every wait_group_events is one barrier */
  cl_stub_local_size = 1, cl_stub_local_id = 0;
}
