/* Memory instructions and the initial wave state (mem.s): LDS across the
 * four waves of a work-group with barriers, global atomics of every kind
 * from 64 lanes, scratch through MUBUF, SCRATCH and flat (private
 * aperture) agreeing on one swizzled layout, LDS through the shared
 * aperture, and the SGPR/VGPR state AMDGPUUsage promises at wave start. */
#include <stdlib.h>
#include <string.h>

#include <hsa/amd_hsa_kernel_code.h>

#include "lib/test.h"
#include "tests/host/vapu_isa_harness.h"

static struct vi_env env;
static struct vi_asm code;

static void setup(void) {
  ASSERT_TRUE(vi_env_init(&env));
  if (!vi_asm_load(&env, "mem", &code)) FAIL("mem.o not built (make test builds it)");
}
static void teardown(void) {
  vi_asm_release(&code);
  vi_env_fini(&env);
}

static void dispatch(const char *label, const struct vi_kd *kd, const uint64_t *args, unsigned nargs,
                     uint32_t grid[3], uint32_t wg[3]) {
  uint64_t kobj = vi_asm_kernel(&env, &code, label, kd);
  ASSERT_NE(kobj, 0);
  uint64_t *kernarg = vi_alloc(&env, 64, VAPU_ACCESS_READ);
  ASSERT_NOT_NULL(kernarg);
  memcpy(kernarg, args, nargs * 8);
  struct vi_launch l = {.kernel_object = kobj, .kernarg = kernarg};
  memcpy(l.grid, grid, sizeof l.grid);
  memcpy(l.wg, wg, sizeof l.wg);
  struct vapu_stop stop;
  enum vapu_result r = vi_run(&env, &l, &stop);
  if (r != VAPU_OK) FAIL("%s: %s: %s", label, vapu_result_name(r), stop.detail);
  vi_free(&env, kernarg);
}
#define P(x) ((uint64_t)(uintptr_t)(x))

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

TEST(vapu_isa_mem_lds_across_waves) {
  setup();
  struct vi_kd kd = vi_kd_default();
  kd.group_segment_fixed_size = 8192;
  uint32_t *out = vi_alloc(&env, 256 * 64, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  ASSERT_NOT_NULL(out);
  dispatch("lds_ops", &kd, (uint64_t[]){P(out)}, 1, (uint32_t[3]){256, 1, 1}, (uint32_t[3]){256, 1, 1});
  uint32_t adds[256];
#define V(t) (0x120081u + (t))
  uint32_t lds0 = V(0) + 7 * 256;
  for (uint32_t t = 0; t < 256; t++) {
    const uint32_t *o = out + 16 * t;
    ASSERT_EQ_U(o[0], 255 - t == 0 ? lds0 : V(255 - t)); /* after the barrier: every wave's writes */
    ASSERT_EQ_U(o[1], t == 0 ? lds0 : V(t));              /* read2 */
    ASSERT_EQ_U(o[2], t == 255 ? 0 : V(t + 1));
    ASSERT_EQ_U(o[3], V((t & ~3u) | (3 - (t & 3))));      /* swizzle quad_perm [3,2,1,0] */
    ASSERT_EQ_U(o[4], lds0);                              /* the atomic sum of 256 adds */
    adds[t] = o[6];
    ASSERT_LE(o[7], 255);                                 /* running max */
    ASSERT_EQ_U(o[8], t == 0 ? (lds0 >> 16) : 0x12);      /* ds_read_u16 of the high half */
    ASSERT_EQ_U(o[9], (uint32_t)(int32_t)(int8_t)(t == 0 ? lds0 : V(t))); /* ds_read_i8 */
    ASSERT_EQ_U(o[12], V(t));                             /* cmpst matched: the new value */
    ASSERT_EQ_U(o[13], ~t);
    ASSERT_EQ_U(o[14], V(t));                             /* bpermute of its own lane */
    ASSERT_EQ_U(o[15], V(t ^ 1));                         /* bpermute of the neighbour */
  }
  qsort(adds, 256, 4, cmp_u32); /* ds_add_rtn returned each partial sum once */
  for (uint32_t t = 0; t < 256; t++) ASSERT_EQ_U(adds[t], 7 * t);
  teardown();
}

TEST(vapu_isa_mem_global_atomics) {
  setup();
  struct vi_kd kd = vi_kd_default();
  uint32_t *ctr = vi_alloc(&env, 64, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  uint32_t *slots = vi_alloc(&env, 512, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  uint32_t *out = vi_alloc(&env, 64 * 64, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  ASSERT_NOT_NULL(ctr);
  ASSERT_NOT_NULL(slots);
  ASSERT_NOT_NULL(out);
  ctr[2] = 100;
  ctr[8] = 5;
  uint64_t start64 = 0xffffff00ull;
  memcpy(&ctr[6], &start64, 8);
  for (uint32_t t = 0; t < 64; t++) {
    slots[t] = (t & 1) ? 999 : t;
    slots[64 + t] = 7777;
  }
  dispatch("global_atomics", &kd, (uint64_t[]){P(ctr), P(slots), P(out)}, 3, (uint32_t[3]){64, 1, 1},
           (uint32_t[3]){64, 1, 1});
  ASSERT_EQ_U(ctr[0], 64);  /* add */
  ASSERT_EQ_U(ctr[1], 63);  /* umax */
  ASSERT_EQ_U(ctr[2], 0);   /* smin */
  ASSERT_EQ_U(ctr[3], 13);  /* inc wrapping at 50: 51 steps to wrap, 13 more */
  ASSERT_EQ_U(ctr[4], 0);   /* xor of 4t over t = 0..63 */
  uint64_t sum;
  memcpy(&sum, &ctr[6], 8);
  ASSERT_EQ_U(sum, start64 + 2016); /* 64-bit add carries into the high dword */
  ASSERT_EQ_U(ctr[8], 0);           /* dec wrapping at 1: 5 -> 1 -> 0 -> 1 ... */
  uint32_t olds[64], incs[64], sums_lo[64];
  unsigned decs_one = 0;
  for (uint32_t t = 0; t < 64; t++) {
    const uint32_t *o = out + 16 * t;
    olds[t] = o[0];
    ASSERT_LE(o[1], 63);
    incs[t] = o[3];
    sums_lo[t] = o[5];
    ASSERT_EQ_U(o[8], (t & 1) ? 999 : t);                 /* cmpswap returned the old value */
    ASSERT_EQ_U(slots[t], (t & 1) ? 999 : t + 1);         /* and swapped only where it matched */
    ASSERT_EQ_U(o[9], 7777);                              /* swap returned the old value */
    ASSERT_EQ_U(slots[64 + t], t);
    ASSERT_TRUE(o[10] == 5 || o[10] == 1 || o[10] == 0);
    decs_one += o[10] == 1;
  }
  ASSERT_EQ(decs_one, 32);
  qsort(olds, 64, 4, cmp_u32);
  for (uint32_t t = 0; t < 64; t++) ASSERT_EQ_U(olds[t], t);
  qsort(incs, 64, 4, cmp_u32); /* 0..50 once, 0..12 once more */
  unsigned zeros = 0;
  for (uint32_t t = 0; t < 64; t++) zeros += incs[t] == 0;
  ASSERT_EQ(zeros, 2);
  ASSERT_EQ_U(incs[63], 50);
  (void)sums_lo;
  teardown();
}

/* Private memory: the same bytes through the private segment buffer V#
 * (swizzled MUBUF), SCRATCH instructions and flat through the private
 * aperture, with the gfx9 flat scratch prologue. */
TEST(vapu_isa_mem_scratch_paths) {
  setup();
  struct vi_kd kd = vi_kd_default();
  kd.properties = AMD_KD_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER | AMD_KD_ENABLE_SGPR_KERNARG_SEGMENT_PTR |
                  AMD_KD_ENABLE_SGPR_FLAT_SCRATCH_INIT;
  kd.rsrc2 = 8 << AMD_KD_RSRC2_USER_SGPR_COUNT_SHIFT | AMD_KD_RSRC2_ENABLE_SGPR_WORKGROUP_ID_X |
             AMD_KD_RSRC2_ENABLE_PRIVATE_SEGMENT;
  kd.private_segment_fixed_size = 64;
  uint32_t *out = vi_alloc(&env, 4096, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  ASSERT_NOT_NULL(out);
  /* Three work-groups of two waves: every wave its own scratch slot. */
  dispatch("scratch_paths", &kd, (uint64_t[]){P(out)}, 1, (uint32_t[3]){384, 1, 1}, (uint32_t[3]){128, 1, 1});
  for (uint32_t t = 0; t < 128; t++) {
    const uint32_t *o = out + 4 * t;
    ASSERT_EQ_U(o[0], t + 1);  /* buffer_store (offen), scratch_load (vaddr) */
    ASSERT_EQ_U(o[1], t + 2);  /* buffer_store (soffset), scratch_load (saddr) */
    ASSERT_EQ_U(o[2], t + 1);  /* flat_load through the private aperture */
    ASSERT_EQ_U(o[3], 500 + t); /* flat_store, buffer_load */
    ASSERT_EQ_U(out[512 + 4 * t], 2 * t + 3); /* scratch_store_dwordx2, buffer_load_dwordx2 */
  }
  teardown();
}

TEST(vapu_isa_mem_flat_lds) {
  setup();
  struct vi_kd kd = vi_kd_default();
  kd.group_segment_fixed_size = 1024;
  uint32_t *out = vi_alloc(&env, 64 * 8, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  ASSERT_NOT_NULL(out);
  dispatch("flat_lds", &kd, (uint64_t[]){P(out)}, 1, (uint32_t[3]){64, 1, 1}, (uint32_t[3]){64, 1, 1});
  for (uint32_t t = 0; t < 64; t++) {
    ASSERT_EQ_U(out[2 * t], t * t);
    ASSERT_EQ_U(out[2 * t + 1], 3 * 64);
  }
  teardown();
}

/* AMDGPUUsage "Initial Kernel Execution State" on a 3D grid with partial
 * work-groups: user SGPRs in order, system SGPRs after USER_SGPR_COUNT,
 * work-item ids x, y, z, EXEC of the partial last wave. */
TEST(vapu_isa_mem_initial_state) {
  setup();
  struct vi_kd kd = vi_kd_default();
  kd.properties = AMD_KD_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER | AMD_KD_ENABLE_SGPR_DISPATCH_PTR |
                  AMD_KD_ENABLE_SGPR_QUEUE_PTR | AMD_KD_ENABLE_SGPR_KERNARG_SEGMENT_PTR |
                  AMD_KD_ENABLE_SGPR_DISPATCH_ID | AMD_KD_ENABLE_SGPR_FLAT_SCRATCH_INIT |
                  AMD_KD_ENABLE_SGPR_PRIVATE_SEGMENT_SIZE;
  kd.rsrc2 = 15 << AMD_KD_RSRC2_USER_SGPR_COUNT_SHIFT | AMD_KD_RSRC2_ENABLE_SGPR_WORKGROUP_ID_X |
             AMD_KD_RSRC2_ENABLE_SGPR_WORKGROUP_ID_Y | AMD_KD_RSRC2_ENABLE_SGPR_WORKGROUP_ID_Z |
             AMD_KD_RSRC2_ENABLE_SGPR_WORKGROUP_INFO | AMD_KD_RSRC2_ENABLE_PRIVATE_SEGMENT |
             2 << AMD_KD_RSRC2_ENABLE_VGPR_WORKITEM_ID_SHIFT;
  kd.private_segment_fixed_size = 32;
  const uint32_t grid[3] = {20, 6, 3}, wg[3] = {8, 4, 3};
  unsigned max_waves = 64;
  uint32_t *sgprs = vi_alloc(&env, max_waves * 128, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  uint32_t *vgprs = vi_alloc(&env, max_waves * 64 * 16, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  uint32_t *counter = vi_alloc(&env, 4, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  ASSERT_NOT_NULL(sgprs);
  ASSERT_NOT_NULL(vgprs);
  ASSERT_NOT_NULL(counter);
  uint64_t args[3] = {P(sgprs), P(vgprs), P(counter)};
  uint64_t kobj = vi_asm_kernel(&env, &code, "initial_state", &kd);
  ASSERT_NE(kobj, 0);
  uint64_t *kernarg = vi_alloc(&env, 64, VAPU_ACCESS_READ);
  ASSERT_NOT_NULL(kernarg);
  memcpy(kernarg, args, sizeof args);
  struct vi_launch l = {.kernel_object = kobj, .kernarg = kernarg, .grid = {20, 6, 3}, .wg = {8, 4, 3}};
  struct vapu_stop stop;
  ASSERT_EQ(vi_run(&env, &l, &stop), VAPU_OK);

  /* Work-groups: x 3 (8, 8, 4 wide), y 2 (4, 2 high), z 1 (3 deep). */
  unsigned waves = 0;
  for (unsigned gy = 0; gy < 2; gy++)
    for (unsigned gx = 0; gx < 3; gx++) {
      unsigned sx = gx < 2 ? 8 : 4, sy = gy == 0 ? 4 : 2, items = sx * sy * 3;
      waves += (items + 63) / 64;
    }
  ASSERT_EQ_U(*counter, waves);
  for (unsigned slot = 0; slot < waves; slot++) {
    const uint32_t *s = sgprs + 32 * slot;
    uint32_t gx = s[15], gy = s[16], gz = s[17];
    ASSERT_LT(gx, 3);
    ASSERT_LT(gy, 2);
    ASSERT_EQ(gz, 0);
    unsigned sx = gx < 2 ? 8 : 4, sy = gy == 0 ? 4 : 2, sz = 3, items = sx * sy * sz;
    unsigned nwaves = (items + 63) / 64;
    /* Which wave of its group: from its first work-item's ids. */
    const uint32_t *v0 = vgprs + 4 * 64 * slot;
    unsigned first = v0[0] + sx * (v0[1] + sy * v0[2]);
    ASSERT_EQ(first % 64, 0);
    unsigned wave = first / 64;
    ASSERT_LT(wave, nwaves);
    uint64_t exec = (uint64_t)s[21] << 32 | s[20];
    unsigned lanes = items - 64 * wave < 64 ? items - 64 * wave : 64;
    ASSERT_EQ_U(exec, lanes == 64 ? ~0ull : (1ull << lanes) - 1);
    /* User SGPRs. */
    ASSERT_EQ_U((s[1] >> 16) & 0x3fff, 0);          /* V# stride 0 */
    ASSERT_TRUE(s[1] >> 31);                        /* SWIZZLE_ENABLE */
    ASSERT_EQ_U(s[3] >> 19 & 0x1f, 1 | 3 << 2 | 1 << 4); /* element 4, stride 64, add TID */
    uint64_t packet = s[4] | (uint64_t)s[5] << 32, queue = s[6] | (uint64_t)s[7] << 32;
    ASSERT_NE(packet, 0);
    ASSERT_NE(queue, 0);
    ASSERT_EQ_U(s[8] | (uint64_t)s[9] << 32, P(kernarg));
    ASSERT_EQ_U(s[10] | (uint64_t)s[11] << 32, 0);  /* dispatch id */
    ASSERT_EQ_U(s[12] | (uint64_t)s[13] << 32, s[0] | (uint64_t)(s[1] & 0xffff) << 32); /* flat scratch init */
    ASSERT_EQ_U(s[14], 32);                         /* private segment size */
    /* System SGPRs. */
    ASSERT_EQ_U(s[18], (uint32_t)(wave == 0) << 31 | nwaves);  /* work-group info */
    ASSERT_EQ_U(s[19], wave * 32 * 64);              /* wave byte offset: slot * lane bytes * 64 */
    /* Work-item ids, lane by lane. */
    for (unsigned lane = 0; lane < lanes; lane++) {
      const uint32_t *v = v0 + 4 * lane;
      unsigned flat = wave * 64 + lane;
      ASSERT_EQ(v[0], flat % sx);
      ASSERT_EQ(v[1], (flat / sx) % sy);
      ASSERT_EQ(v[2], flat / (sx * sy));
      ASSERT_EQ(v[3], lane);
    }
  }
  (void)grid, (void)wg;
  teardown();
}
