/* Scalar ALU, EXEC manipulation, branches and calls, MODE rounding, the
 * hardware registers and VGPR indexing, each against a C reference
 * (salu.s). */
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "lib/test.h"
#include "tests/host/vapu_isa_harness.h"

static struct vi_env env;
static struct vi_asm code;

static void setup(void) {
  ASSERT_TRUE(vi_env_init(&env));
  if (!vi_asm_load(&env, "salu", &code)) FAIL("salu.o not built (make test builds it)");
}
static void teardown(void) {
  vi_asm_release(&code);
  vi_env_fini(&env);
}

/* Runs `label` over `lanes` work-items (one work-group) with a kernarg of
 * four dwords and the output pointer at +16, more data at +32. */
static void run(const char *label, const uint32_t in[4], void *out, const void *extra, size_t extra_size,
                unsigned lanes) {
  struct vi_kd kd = vi_kd_default();
  uint64_t kobj = vi_asm_kernel(&env, &code, label, &kd);
  ASSERT_NE(kobj, 0);
  uint8_t *kernarg = vi_alloc(&env, 128, VAPU_ACCESS_READ);
  ASSERT_NOT_NULL(kernarg);
  memcpy(kernarg, in, 16);
  uint64_t o = (uint64_t)(uintptr_t)out;
  memcpy(kernarg + 16, &o, 8);
  if (extra) memcpy(kernarg + 32, extra, extra_size);
  struct vi_launch l = {.kernel_object = kobj, .kernarg = kernarg, .grid = {lanes, 1, 1}, .wg = {lanes, 1, 1}};
  struct vapu_stop stop;
  enum vapu_result r = vi_run(&env, &l, &stop);
  if (r != VAPU_OK) FAIL("%s: %s: %s", label, vapu_result_name(r), stop.detail);
  vi_free(&env, kernarg);
  vi_free(&env, (void *)(uintptr_t)kobj);
}

/* ---- salu_ops: result and SCC of each operation, SCC = 1 before each --- */
struct sres {
  uint32_t v, scc;
};
static uint32_t clz32(uint32_t x) { return x ? (uint32_t)__builtin_clz(x) : ~0u; }
static uint32_t bfe(uint64_t v, uint32_t ctl, unsigned bits, bool sign) {
  unsigned off = ctl & (bits - 1), w = (ctl >> 16) & 0x7f;
  if (!w) return 0;
  if (w > bits - off) w = bits - off;
  uint64_t f = (v >> off) & (w == 64 ? ~0ull : (1ull << w) - 1);
  if (sign && w < 64 && ((f >> (w - 1)) & 1)) f |= ~0ull << w;
  return (uint32_t)f;
}
static uint32_t wqm(uint32_t v) {
  uint32_t r = 0;
  for (int q = 0; q < 32; q += 4)
    if ((v >> q) & 15) r |= 15u << q;
  return r;
}
static uint32_t quadmask(uint32_t v) {
  uint32_t r = 0;
  for (int q = 0; q < 8; q++)
    if ((v >> (4 * q)) & 15) r |= 1u << q;
  return r;
}
static uint32_t brev(uint32_t v) {
  uint32_t r = 0;
  for (int i = 0; i < 32; i++) r |= ((v >> i) & 1) << (31 - i);
  return r;
}
#define S(v_, c_) r[n++] = (struct sres){(uint32_t)(v_), (uint32_t)(c_)}
static unsigned salu_reference(uint32_t a, uint32_t b, uint32_t c, uint32_t d, struct sres *r) {
  unsigned n = 0;
  int32_t sa = (int32_t)a, sb = (int32_t)b;
  uint64_t ab = (uint64_t)b << 32 | a, cd = (uint64_t)d << 32 | c;
  int64_t sum = (int64_t)sa + sb, dif = (int64_t)sa - sb;
  S(a + b, (uint64_t)a + b > UINT32_MAX);
  S(a - b, b > a);
  S(a + b, sum > INT32_MAX || sum < INT32_MIN);
  S(a - b, dif > INT32_MAX || dif < INT32_MIN);
  S(a + b + 1, (uint64_t)a + b + 1 > UINT32_MAX);
  S(a - b - 1, (uint64_t)b + 1 > a);
  S(sa < sb ? a : b, sa < sb);
  S(a > b ? a : b, a > b);
  S(a & b, (a & b) != 0);
  S(a | ~b, (a | ~b) != 0);
  S(~(a ^ b), ~(a ^ b) != 0);
  S(a << (b & 31), (a << (b & 31)) != 0);
  S(a >> (b & 31), (a >> (b & 31)) != 0);
  S((uint32_t)(sa >> (b & 31)), (sa >> (b & 31)) != 0);
  S(((1ull << (a & 31)) - 1) << (b & 31), 1);
  S(a * b, 1);
  S(((uint64_t)a * b) >> 32, 1);
  S((uint64_t)((int64_t)sa * sb) >> 32, 1);
  S(bfe(a, b, 32, false), bfe(a, b, 32, false) != 0);
  S(bfe(a, b, 32, true), bfe(a, b, 32, true) != 0);
  S(dif < 0 ? -dif : dif, dif != 0);
  S(((uint64_t)a << 2) + b, ((uint64_t)a << 2) + b > UINT32_MAX);
  S((a & 0xffff) | (b & 0xffff0000u), 1);
  S(a, 1);
  S(ab << (c & 63), (ab << (c & 63)) != 0);
  S(ab >> (c & 63), (ab >> (c & 63)) != 0);
  S((uint64_t)((int64_t)ab >> (c & 63)), ((int64_t)ab >> (c & 63)) != 0);
  {
    unsigned off = c & 63, w = (c >> 16) & 0x7f;
    uint64_t f = 0;
    if (w) {
      if (w > 64 - off) w = 64 - off;
      f = (ab >> off) & (w == 64 ? ~0ull : (1ull << w) - 1);
      if (w < 64 && ((f >> (w - 1)) & 1)) f |= ~0ull << w;
    }
    S(f, f != 0);
  }
  S(ab ^ cd, (ab ^ cd) != 0);
  S(a, 1);
  S(a, 1);
  S(~a, ~a != 0);
  S(brev(a), 1);
  S(__builtin_popcount(a), a != 0);
  S(64 - __builtin_popcountll(ab), 64 - __builtin_popcountll(ab) != 0);
  S(a ? (uint32_t)__builtin_ctz(a) : ~0u, 1);
  S(~a ? (uint32_t)__builtin_ctz(~a) : ~0u, 1);
  S(clz32(a), 1);
  S(clz32(sa < 0 ? ~a : a), 1);
  S(ab ? (uint32_t)__builtin_clzll(ab) : ~0u, 1);
  S((int8_t)a, 1);
  S((int16_t)a, 1);
  S(sa < 0 ? 0u - a : a, a != 0);
  S(wqm(a), wqm(a) != 0);
  S(quadmask(a), quadmask(a) != 0);
  S(0xffff8765u, 1);
  S(a + 0x7fff, (int64_t)sa + 0x7fff > INT32_MAX);
  S(a * (uint32_t)-13, 1);
  S(a, sa < -128);
  S(a, a > 0xff80);
  S(a, sa < sb);
  S(a, a >= b);
  S(a, (a >> (b & 31)) & 1);
  S(a, ab != cd);
  S(a | 1u << (b & 31), 1);
  S(a & ~(1u << (b & 31)), 1);
  S(a + 0x12345678u, (uint64_t)a + 0x12345678u > UINT32_MAX);
  S(~0u, 1);
  return n;
}

TEST(vapu_isa_salu_operations) {
  setup();
  static const uint32_t special[] = {0, 1, 2, 31, 32, 0x7fffffff, 0x80000000, 0xffffffff, 0xff80,
                                     0xff81, 0x10, 0x00050003, 0x00100004, 0x8765, 0xf000000f, 3};
  uint32_t rng = 1;
  struct sres *out = vi_alloc(&env, 128 * sizeof *out, VAPU_ACCESS_WRITE | VAPU_ACCESS_READ);
  ASSERT_NOT_NULL(out);
  for (unsigned t = 0; t < 200; t++) {
    uint32_t in[4];
    for (unsigned i = 0; i < 4; i++) {
      rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
      in[i] = (rng & 1) ? special[(rng >> 1) % 16] : rng;
    }
    memset(out, 0, 128 * sizeof *out);
    run("salu_ops", in, out, NULL, 0, 1);
    struct sres want[128];
    unsigned n = salu_reference(in[0], in[1], in[2], in[3], want);
    ASSERT_EQ(n, 58);
    for (unsigned i = 0; i < n; i++)
      if (out[i].v != want[i].v || out[i].scc != want[i].scc)
        FAIL("op %u with a=%x b=%x c=%x d=%x: got %x scc %u, want %x scc %u", i, in[0],
                  in[1], in[2], in[3], out[i].v, out[i].scc, want[i].v, want[i].scc);
  }
  teardown();
}

/* s_and_saveexec / s_xor_saveexec: lanes of the mask write v0, the others
 * v0 + 100; the saved EXEC values come back. Inactive lanes of a partial
 * wave never write. */
TEST(vapu_isa_salu_saveexec) {
  setup();
  uint32_t *out = vi_alloc(&env, 512, VAPU_ACCESS_WRITE | VAPU_ACCESS_READ);
  ASSERT_NOT_NULL(out);
  const uint64_t masks[] = {0x00000000ffff0000ull, 0x8000000000000001ull, 0, ~0ull};
  for (unsigned lanes = 40; lanes <= 64; lanes += 24) {
    uint64_t exec = lanes == 64 ? ~0ull : (1ull << lanes) - 1;
    for (unsigned i = 0; i < 4; i++) {
      memset(out, 0xee, 512);
      uint32_t in[4] = {(uint32_t)masks[i], (uint32_t)(masks[i] >> 32), 0, 0};
      run("saveexec", in, out, NULL, 0, lanes);
      uint64_t m = masks[i] & exec;
      for (unsigned l = 0; l < 64; l++) {
        uint32_t want = l >= lanes ? 0xeeeeeeeeu : ((m >> l) & 1) ? l : l + 100;
        if (out[l] != want) FAIL("mask %llx lanes %u lane %u: %x, want %x",
                                      (unsigned long long)masks[i], lanes, l, out[l], want);
      }
      ASSERT_EQ_U(out[64] | (uint64_t)out[65] << 32, exec); /* saved by and_saveexec */
      ASSERT_EQ_U(out[66] | (uint64_t)out[67] << 32, m);    /* EXEC before xor_saveexec */
    }
  }
  teardown();
}

/* Conditional branches, s_getpc/s_swappc/s_setpc, s_call_b64 and the
 * VCCZ/EXECZ branches leave a trace of the blocks they went through. */
TEST(vapu_isa_salu_control_flow) {
  setup();
  uint32_t *out = vi_alloc(&env, 64, VAPU_ACCESS_WRITE | VAPU_ACCESS_READ);
  ASSERT_NOT_NULL(out);
  run("control", (uint32_t[4]){0, 0, 0, 0}, out, NULL, 0, 64);
  ASSERT_EQ(out[0], 2 | 16 | 8 | 128 | 256);
  run("control", (uint32_t[4]){5, 0, 0, 0}, out, NULL, 0, 64);
  ASSERT_EQ(out[0], 1 | 16 | 8 | 32 | 64 | 128 | 256);
  teardown();
}

/* MODE.FP_ROUND set by s_setreg: f32 and f64 add, mul, fma and conversions
 * round as the host does under the same fesetround mode. */
static const int host_modes[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
struct round_out {
  uint32_t add, mul, fma, cvt_u, cvt_d;
  uint32_t addd[2], muld[2], fmad[2];
  uint32_t cvt_h, mode;
};
static __attribute__((noinline)) void round_reference(int m32, int m64, float a, float b, float c, double x,
                                                       double y, double z, struct round_out *r) {
  volatile float va = a, vb = b, vc = c;
  volatile double vx = x, vy = y, vz = z;
  uint32_t ub;
  memcpy(&ub, (const void *)&vb, 4);
  fesetround(host_modes[m32]);
  float f;
  f = va + vb; memcpy(&r->add, &f, 4);
  f = va * vb; memcpy(&r->mul, &f, 4);
  f = fmaf(va, vb, vc); memcpy(&r->fma, &f, 4);
  f = (float)(volatile uint32_t){ub}; memcpy(&r->cvt_u, &f, 4);
  f = (float)vx; memcpy(&r->cvt_d, &f, 4);
  fesetround(host_modes[m64]);
  double d;
  d = vx + vy; memcpy(r->addd, &d, 8);
  d = vx * vy; memcpy(r->muld, &d, 8);
  d = fma(vx, vy, vz); memcpy(r->fmad, &d, 8);
  _Float16 h = (_Float16)va;
  uint16_t hb;
  memcpy(&hb, &h, 2);
  r->cvt_h = hb;
  fesetround(FE_TONEAREST);
}

TEST(vapu_isa_salu_round_modes) {
  setup();
  struct round_out *out = vi_alloc(&env, sizeof *out, VAPU_ACCESS_WRITE | VAPU_ACCESS_READ);
  ASSERT_NOT_NULL(out);
  uint32_t rng = 77;
  for (unsigned t = 0; t < 64; t++) {
    unsigned mode = t % 16, m32 = mode & 3, m64 = mode >> 2;
    float fin[3];
    double din[3];
    for (unsigned i = 0; i < 3; i++) {
      rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
      uint32_t bits = (rng & 0x807fffffu) | (100 + rng % 56) << 23;
      memcpy(&fin[i], &bits, 4);
      din[i] = (double)fin[i] * (1.0 + ldexp(rng & 0xffff, -40)) * (t & 1 ? 1e-300 : 1.0);
    }
    if (t >= 48) { /* overflow and denormal results */
      fin[0] = 3e38f, fin[1] = t & 1 ? 3e38f : 1e-30f;
      din[0] = 1.7e308, din[1] = t & 1 ? 1.7e308 : 1e-300;
    }
    uint8_t extra[48];
    memcpy(extra, fin, 12);
    memcpy(extra + 16, din, 24);
    memset(out, 0, sizeof *out);
    run("round_modes", (uint32_t[4]){mode, 0, 0, 0}, out, extra, 16 + 24, 1);
    struct round_out want;
    round_reference((int)m32, (int)m64, fin[0], fin[1], fin[2], din[0], din[1], din[2], &want);
    want.mode = 0x3f0 | mode;
    if (memcmp(out, &want, sizeof want) != 0) {
      const uint32_t *g = (const uint32_t *)out, *w = (const uint32_t *)&want;
      for (unsigned i = 0; i < sizeof want / 4; i++)
        if (g[i] != w[i])
          FAIL("mode %u, word %u: got %08x want %08x (a=%a b=%a c=%a x=%a y=%a z=%a)",
                    mode, i, g[i], w[i], fin[0], fin[1], fin[2], din[0], din[1], din[2]);
    }
  }
  teardown();
}

TEST(vapu_isa_salu_hardware_registers) {
  setup();
  uint32_t *out = vi_alloc(&env, 64, VAPU_ACCESS_WRITE | VAPU_ACCESS_READ);
  ASSERT_NOT_NULL(out);
  run("hwregs", (uint32_t[4]){0}, out, NULL, 0, 64);
  ASSERT_EQ_U(out[0], 0x3f0); /* MODE from the descriptor: denormals kept, DX10 clamp, IEEE */
  ASSERT_EQ_U(out[1], (VI_PRIVATE_BASE >> 48) | (VI_SHARED_BASE >> 48) << 16); /* SH_MEM_BASES */
  ASSERT_EQ_U(out[2] | (uint64_t)out[3] << 32, VI_SHARED_BASE);
  ASSERT_EQ_U(out[4] | (uint64_t)out[5] << 32, VI_PRIVATE_BASE);
  ASSERT_EQ_U(out[6], 15u << 8); /* GPR_ALLOC: 64 VGPRs = 16 granules of 4, minus 1 */
  ASSERT_EQ_U(out[7], 0);        /* MODE.FP_DENORM after s_setreg_imm32 */
  ASSERT_EQ_U(out[8], 0xffffffffu); /* SRC_SHARED_LIMIT low dword */
  ASSERT_EQ_U(out[9], 2);        /* STATUS: EXECZ 0, VCCZ 1 */
  teardown();
}

TEST(vapu_isa_salu_vgpr_indexing) {
  setup();
  uint32_t *out = vi_alloc(&env, 1280, VAPU_ACCESS_WRITE | VAPU_ACCESS_READ);
  ASSERT_NOT_NULL(out);
  run("gpr_index", (uint32_t[4]){0}, out, NULL, 0, 64);
  for (unsigned l = 0; l < 64; l++) {
    for (unsigned i = 0; i < 4; i++) ASSERT_EQ(out[l * 4 + i], l + i);
    ASSERT_EQ(out[256 + l], l + 3);
  }
  teardown();
}
