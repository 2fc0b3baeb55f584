/* What stops a wave, and what must not: an unknown instruction (illegal
 * instruction with its PC and words), faults on unmapped or forbidden
 * memory for every access kind (read, write, atomic, scalar, instruction
 * fetch) with the faulting address, s_trap 2 / s_sethalt, the CP's abort of
 * a spinning wave, bad descriptors and dispatches; out-of-range buffer and
 * LDS accesses, which read 0 and drop writes without a fault; and the same
 * context running a good dispatch right after each error. */
#include <string.h>

#include <hsa/amd_hsa_kernel_code.h>

#include "lib/test.h"
#include "tests/host/vapu_isa_harness.h"
#include "vapu/isa/disasm.h"
#include "lib/util.h"

static struct vi_env env;
static struct vi_asm code;

static void setup(void) {
  ASSERT_TRUE(vi_env_init(&env));
  if (!vi_asm_load(&env, "fail", &code)) FAIL("fail.o not built (make test builds it)");
}
static void teardown(void) {
  vi_asm_release(&code);
  vi_env_fini(&env);
}

/* Runs `label` with kernarg {p0, p1} over `items` work-items in groups of
 * `wg`; returns the result, *stop filled. */
static enum vapu_result run(const char *label, uint64_t p0, uint64_t p1, unsigned items, unsigned wg,
                            const volatile uint32_t *abort_flag, struct vapu_stop *stop) {
  struct vi_kd kd = vi_kd_default();
  kd.group_segment_fixed_size = 512;
  uint64_t kobj = vi_asm_kernel(&env, &code, label, &kd);
  if (!kobj) FAIL("no kernel %s", label);
  uint64_t *kernarg = vi_alloc(&env, 64, VAPU_ACCESS_READ);
  ASSERT_NOT_NULL(kernarg);
  kernarg[0] = p0;
  kernarg[1] = p1;
  struct vi_launch l = {.kernel_object = kobj, .kernarg = kernarg, .grid = {items, 1, 1}, .wg = {wg, 1, 1},
                        .abort_flag = abort_flag};
  enum vapu_result r = vi_run(&env, &l, stop);
  vi_free(&env, kernarg);
  vi_free(&env, (void *)(uintptr_t)kobj);
  return r;
}

/* After any error the context still runs a good kernel to completion. */
static void still_works(void) {
  uint32_t *out = vi_alloc(&env, 256, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  ASSERT_NOT_NULL(out);
  struct vapu_stop stop;
  ASSERT_EQ(run("trap3", 0, (uint64_t)(uintptr_t)out, 64, 64, NULL, &stop), VAPU_OK);
  for (unsigned t = 0; t < 64; t++) ASSERT_EQ(out[t], t);
  vi_free(&env, out);
}

TEST(vapu_isa_failure_illegal_instruction) {
  setup();
  struct vapu_stop stop;
  ASSERT_EQ(run("illegal", 0, 0, 64, 64, NULL, &stop), VAPU_ILLEGAL_INSTRUCTION);
  uint64_t at;
  ASSERT_TRUE(vi_asm_offset(&code, "illegal_at", &at));
  ASSERT_EQ_U(stop.pc, (uint64_t)(uintptr_t)code.text + at);
  size_t n;
  const uint32_t *words = vi_asm_words(&code, "illegal_at", &n);
  ASSERT_NOT_NULL(words);
  ASSERT_GE(stop.nwords, 1);
  ASSERT_EQ_U(stop.words[0], words[0]);
  ASSERT_EQ_U(stop.words[1], words[1]);
  ASSERT_EQ(stop.wave, 0);
  ASSERT_TRUE(strstr(stop.detail, "illegal instruction") != NULL);
  char m[64];
  unsigned size;
  ASSERT_FALSE(vapu_isa_disasm(words, (unsigned)n, m, sizeof m, &size));
  still_works();
  teardown();
}

/* Every instruction of unsupported.s stops a wave as illegal, none is run. */
TEST(vapu_isa_failure_unsupported_instructions_stop) {
  ASSERT_TRUE(vi_env_init(&env));
  struct vi_asm unsup;
  if (!vi_asm_load(&env, "unsupported", &unsup)) FAIL("unsupported.o not built");
  struct vi_kd kd = vi_kd_default();
  uint64_t kobj = vi_asm_kernel(&env, &unsup, "unsupported", &kd);
  ASSERT_NE(kobj, 0);
  uint64_t *kernarg = vi_alloc(&env, 64, VAPU_ACCESS_READ);
  struct vi_launch l = {.kernel_object = kobj, .kernarg = kernarg, .grid = {64, 1, 1}, .wg = {64, 1, 1}};
  struct vapu_stop stop;
  ASSERT_EQ(vi_run(&env, &l, &stop), VAPU_ILLEGAL_INSTRUCTION);
  ASSERT_EQ_U(stop.pc, (uint64_t)(uintptr_t)unsup.text); /* the first one already */
  vi_asm_release(&unsup);
  vi_env_fini(&env);
}

static void expect_fault(const char *label, uint64_t p0, uint64_t want_addr, uint32_t access) {
  struct vapu_stop stop;
  enum vapu_result r = run(label, p0, 0, 64, 64, NULL, &stop);
  if (r != VAPU_MEMORY_FAULT) FAIL("%s: %s, want a memory fault", label, vapu_result_name(r));
  ASSERT_EQ_U(stop.address, want_addr);
  ASSERT_EQ_U(stop.access, access);
  ASSERT_TRUE(strstr(stop.detail, "memory fault") != NULL);
  still_works();
}

TEST(vapu_isa_failure_memory_faults) {
  setup();
  /* A page nothing maps (the range map has no range there). */
  uint64_t hole = 0x7f0000001000ull;
  expect_fault("load_fault", hole, hole, VAPU_ACCESS_READ);
  expect_fault("store_fault", hole, hole, VAPU_ACCESS_WRITE);
  expect_fault("atomic_fault", hole, hole, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  expect_fault("smem_fault", hole, hole + 0x40, VAPU_ACCESS_READ);
  /* Mapped but not for this access: writes and atomics to read-only
   * memory, a jump into memory without execute permission. */
  uint32_t *ro = vi_alloc(&env, 256, VAPU_ACCESS_READ);
  uint32_t *data = vi_alloc(&env, 256, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  ASSERT_NOT_NULL(ro);
  ASSERT_NOT_NULL(data);
  expect_fault("store_fault", (uint64_t)(uintptr_t)ro, (uint64_t)(uintptr_t)ro, VAPU_ACCESS_WRITE);
  expect_fault("atomic_fault", (uint64_t)(uintptr_t)ro, (uint64_t)(uintptr_t)ro, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  expect_fault("exec_fault", (uint64_t)(uintptr_t)data, (uint64_t)(uintptr_t)data, VAPU_ACCESS_EXEC);
  /* A lane past the end of a buffer: exact bounds. */
  uint32_t *small = vi_alloc(&env, 100, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  ASSERT_NOT_NULL(small);
  expect_fault("load_fault", (uint64_t)(uintptr_t)small, (uint64_t)(uintptr_t)small + 100, VAPU_ACCESS_READ);
  teardown();
}

/* The memory's owner is asked with the kind of each access the wave makes,
 * and a refusal is the fault (the GMC raises it there): one refused
 * translation per fault, with the faulting address and access, and none
 * for a good kernel (no speculative fetch past its code). */
static struct {
  bool (*inner)(void *ctx, uint64_t va, uint32_t access, struct vapu_page *page);
  unsigned refused;
  uint64_t va;
  uint32_t access;
} asked;
static bool counting_translate(void *ctx, uint64_t va, uint32_t access, struct vapu_page *page) {
  if (asked.inner(ctx, va, access, page)) return true;
  asked.refused++;
  asked.va = va;
  asked.access = access;
  return false;
}

static void expect_one_refusal(const char *label, uint64_t p0, uint64_t want_addr, uint32_t access) {
  asked.refused = 0;
  struct vapu_stop stop;
  ASSERT_EQ(run(label, p0, 0, 64, 64, NULL, &stop), VAPU_MEMORY_FAULT);
  ASSERT_EQ(asked.refused, 1);
  ASSERT_EQ_U(asked.va, want_addr);
  ASSERT_EQ_U(asked.access, access);
  ASSERT_EQ_U(stop.address, want_addr);
}

TEST(vapu_isa_failure_memory_is_asked_for_each_access_kind) {
  setup();
  asked.inner = env.map.mem.translate;
  env.map.mem.translate = counting_translate;
  uint32_t *ro = vi_alloc(&env, 256, VAPU_ACCESS_READ);
  uint32_t *data = vi_alloc(&env, 256, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  ASSERT_NOT_NULL(ro);
  ASSERT_NOT_NULL(data);
  uint64_t hole = 0x7f0000003000ull;
  expect_one_refusal("load_fault", hole, hole, VAPU_ACCESS_READ);
  expect_one_refusal("store_fault", (uint64_t)(uintptr_t)ro, (uint64_t)(uintptr_t)ro, VAPU_ACCESS_WRITE);
  expect_one_refusal("atomic_fault", (uint64_t)(uintptr_t)ro, (uint64_t)(uintptr_t)ro,
                     VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  expect_one_refusal("exec_fault", (uint64_t)(uintptr_t)data, (uint64_t)(uintptr_t)data, VAPU_ACCESS_EXEC);
  asked.refused = 0;
  still_works();
  ASSERT_EQ(asked.refused, 0);
  env.map.mem.translate = asked.inner;
  teardown();
}

/* What a vector FLAT access cannot do (Linux kfd_flat_memory.c): reach an
 * address in the hole between the canonical halves outside the LDS and
 * scratch apertures (each 4 GiB from its base), or carry a payload across
 * a region's end; both are memory violations, not page faults. */
TEST(vapu_isa_failure_flat_aperture_violations) {
  setup();
  struct vapu_stop stop;
  const uint64_t hole = 0x0000800000000000ull, past_lds = VI_SHARED_BASE + (1ull << 32);
  const uint64_t cases[] = {hole, past_lds, VI_SHARED_BASE + (1ull << 32) - 8, 0xffff7ffffffffff8ull};
  for (unsigned i = 0; i < countof(cases); i++) {
    ASSERT_EQ(run("flat_load_p0", cases[i], 0, 64, 64, NULL, &stop), VAPU_APERTURE_VIOLATION);
    ASSERT_EQ_U(stop.address, cases[i]);
    ASSERT_EQ_U(stop.access, VAPU_ACCESS_READ);
    ASSERT_TRUE(strstr(stop.detail, "aperture violation") != NULL);
    still_works();
  }
  /* Inside the LDS aperture, and plain memory: no violation. */
  ASSERT_EQ(run("flat_load_p0", VI_SHARED_BASE + 16, 0, 64, 64, NULL, &stop), VAPU_OK);
  uint32_t *data = vi_alloc(&env, 256, VAPU_ACCESS_READ);
  ASSERT_NOT_NULL(data);
  ASSERT_EQ(run("flat_load_p0", (uint64_t)(uintptr_t)data, 0, 64, 64, NULL, &stop), VAPU_OK);
  teardown();
}

TEST(vapu_isa_failure_fault_in_one_wave) {
  setup();
  struct vapu_stop stop;
  uint64_t hole = 0x7f0000002000ull;
  ASSERT_EQ(run("fault_in_wave3", hole, 0, 256, 256, NULL, &stop), VAPU_MEMORY_FAULT);
  ASSERT_EQ(stop.wave, 3);
  ASSERT_EQ_U(stop.address, hole + 192 * 4);
  ASSERT_EQ(stop.workgroup[0], 0);
  still_works();
  teardown();
}

TEST(vapu_isa_failure_trap_and_halt) {
  setup();
  uint32_t *out = vi_alloc(&env, 256, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  ASSERT_NOT_NULL(out);
  struct vapu_stop stop;
  ASSERT_EQ(run("trap2", 0, (uint64_t)(uintptr_t)out, 64, 64, NULL, &stop), VAPU_TRAP);
  ASSERT_EQ(stop.trap_id, 2);
  ASSERT_EQ(out[5], 0); /* nothing after the trap ran */
  ASSERT_EQ(run("halt", 0, 0, 64, 64, NULL, &stop), VAPU_HALTED);
  still_works(); /* s_trap 3 (debugtrap) runs on */
  teardown();
}

TEST(vapu_isa_failure_abort_spinning_wave) {
  setup();
  volatile uint32_t abort_flag = 1; /* the CP asks before the work-group starts spinning */
  struct vapu_stop stop;
  ASSERT_EQ(run("spin", 0, 0, 128, 128, &abort_flag, &stop), VAPU_ABORTED);
  still_works();
  teardown();
}

/* Out-of-range MUBUF and LDS accesses are defined: no fault, reads 0. */
TEST(vapu_isa_failure_out_of_range_is_not_a_fault) {
  setup();
  uint32_t *buf = vi_alloc(&env, 4096, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  uint32_t *out = vi_alloc(&env, 64 * 8, VAPU_ACCESS_READ | VAPU_ACCESS_WRITE);
  ASSERT_NOT_NULL(buf);
  ASSERT_NOT_NULL(out);
  struct vapu_stop stop;
  ASSERT_EQ(run("out_of_range", (uint64_t)(uintptr_t)buf, (uint64_t)(uintptr_t)out, 64, 64, NULL, &stop), VAPU_OK);
  for (unsigned t = 0; t < 64; t++) {
    ASSERT_EQ_U(buf[t], t < 4 ? 0x55 : 0);          /* stores past NUM_RECORDS dropped */
    ASSERT_EQ_U(out[2 * t], t < 3 ? 0x55 : 0);      /* loads past it read 0 */
    ASSERT_EQ_U(out[2 * t + 1], 0);                 /* LDS past the allocation reads 0 */
  }
  teardown();
}

/* Descriptors and dispatches the hardware would not run. */
TEST(vapu_isa_failure_bad_dispatch) {
  setup();
  struct vi_kd kd = vi_kd_default();
  uint64_t good = vi_asm_kernel(&env, &code, "trap3", &kd);
  ASSERT_NE(good, 0);
  amd_kernel_descriptor_t *d = (amd_kernel_descriptor_t *)(uintptr_t)good;
  struct vapu_dispatch base = {.kernel_object = good, .grid_size = {64, 1, 1}, .workgroup_size = {64, 1, 1},
                               .apertures = {VI_SHARED_BASE, VI_PRIVATE_BASE}};
  struct vapu_dispatch dd;
  struct vapu_stop stop;
#define EXPECT_BAD(result, what)                                                           \
  do {                                                                                    \
    enum vapu_result r_ = vapu_dispatch_begin(env.x, &dd, &stop);                         \
    if (r_ != (result)) FAIL("%s: %s", what, vapu_result_name(r_)); \
    ASSERT_TRUE(stop.detail[0] != 0);                                                     \
  } while (0)
  dd = base, dd.grid_size[1] = 0;
  EXPECT_BAD(VAPU_BAD_DISPATCH, "zero grid");
  dd = base, dd.workgroup_size[0] = 1025;
  EXPECT_BAD(VAPU_BAD_DISPATCH, "work-group over 1024");
  dd = base, dd.kernel_object = good + 4;
  EXPECT_BAD(VAPU_BAD_DISPATCH, "misaligned kernel object");
  dd = base, dd.kernel_object = 0x7f0000003000ull;
  EXPECT_BAD(VAPU_MEMORY_FAULT, "unmapped kernel object");
  ASSERT_EQ_U(stop.address, 0x7f0000003000ull);
  dd = base, dd.group_segment_size = 128 * 1024;
  EXPECT_BAD(VAPU_BAD_DISPATCH, "LDS past 64 KiB");
  d->group_segment_fixed_size = 1024, dd = base, dd.group_segment_size = 512;
  EXPECT_BAD(VAPU_BAD_DISPATCH, "group segment below the kernel's");
  d->group_segment_fixed_size = 0;
  d->kernel_code_properties |= AMD_KD_ENABLE_WAVEFRONT_SIZE32;
  dd = base;
  EXPECT_BAD(VAPU_BAD_DISPATCH, "wave32");
  d->kernel_code_properties = AMD_KD_ENABLE_SGPR_KERNARG_SEGMENT_PTR | AMD_KD_ENABLE_SGPR_DISPATCH_PTR;
  EXPECT_BAD(VAPU_BAD_DISPATCH, "more user SGPRs than USER_SGPR_COUNT");
  d->kernel_code_properties = AMD_KD_ENABLE_SGPR_KERNARG_SEGMENT_PTR;
  d->kernel_code_entry_byte_offset += 4;
  EXPECT_BAD(VAPU_BAD_DISPATCH, "misaligned entry");
  d->kernel_code_entry_byte_offset -= 4;
  d->compute_pgm_rsrc2 |= AMD_KD_RSRC2_ENABLE_PRIVATE_SEGMENT;
  d->private_segment_fixed_size = 64;
  EXPECT_BAD(VAPU_BAD_DISPATCH, "scratch needed, none given");
  d->compute_pgm_rsrc2 &= ~(uint32_t)AMD_KD_RSRC2_ENABLE_PRIVATE_SEGMENT;
  /* A good begin, then a work-group id outside the grid. */
  dd = base;
  ASSERT_EQ(vapu_dispatch_begin(env.x, &dd, &stop), VAPU_OK);
  ASSERT_EQ(vapu_run_workgroup(env.x, (uint32_t[3]){1, 0, 0}, 0, &stop), VAPU_BAD_DISPATCH);
  /* A failed begin leaves no dispatch to run. */
  dd = base, dd.grid_size[0] = 0;
  EXPECT_BAD(VAPU_BAD_DISPATCH, "zero grid");
  ASSERT_EQ(vapu_run_workgroup(env.x, (uint32_t[3]){0, 0, 0}, 0, &stop), VAPU_BAD_DISPATCH);
  still_works();
  teardown();
}
