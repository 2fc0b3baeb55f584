/*
 * kernel_corpus.c - arguments, geometry and CPU references of the kernels
 * in tests/kernels/ (see kernel_corpus.h).
 *
 * Inputs are chosen so that the reference does not depend on choices the
 * compiler may make: float operands carry few mantissa bits where clang may
 * fuse a multiply and an add (saxpy, matmul, stencil), so fused and unfused
 * results are the same; the only inexact function (sqrt) is compared within
 * the OpenCL C bound (3 ulp, OpenCL C 2.0 spec, 7.4 "Relative Error as ULPs").
 * Work sizes are small so that the interpreter runs each in well under a
 * second, and several grids end in a partial work-group on purpose.
 */
#include "tests/common/kernel_corpus.h"
#include "lib/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Helpers --------------------------------------------------------------- */

static uint32_t next_random(uint32_t *state) { /* xorshift32: deterministic inputs */
  uint32_t x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *state = x;
}

/* A new zeroed buffer of `size` bytes; NULL if the allocator fails, then and
 * for every later call, so that buffer indexes never shift. */
static void *new_buffer(struct corpus_dispatch *d, size_t size) {
  if (d->out_of_memory || d->buffer_count == CORPUS_MAX_BUFFERS) return NULL;
  void *p = d->alloc.alloc(d->alloc.ctx, size);
  if (!p) {
    d->out_of_memory = true;
    return NULL;
  }
  memset(p, 0, size);
  d->buffers[d->buffer_count] = p;
  d->buffer_sizes[d->buffer_count] = size;
  d->buffer_count++;
  return p;
}

/* The reference of buffer `index` (an output), zeroed; NULL if any
 * allocation failed. */
static void *new_expected(struct corpus_dispatch *d, uint32_t index) {
  if (d->out_of_memory || index >= d->buffer_count) return NULL;
  d->expected[index] = calloc(1, d->buffer_sizes[index]);
  if (!d->expected[index]) d->out_of_memory = true;
  return d->expected[index];
}

static void arg_buffer(struct corpus_dispatch *d, uint32_t index) {
  d->args[d->arg_count++] = (struct corpus_arg){.kind = CORPUS_ARG_BUFFER, .index = index};
}
static void arg_u32(struct corpus_dispatch *d, uint32_t v) {
  d->args[d->arg_count++] = (struct corpus_arg){.kind = CORPUS_ARG_U32, .u32 = v};
}
static void arg_f32(struct corpus_dispatch *d, float v) {
  d->args[d->arg_count++] = (struct corpus_arg){.kind = CORPUS_ARG_F32, .f32 = v};
}

static void geometry(struct corpus_dispatch *d, uint32_t dims, uint32_t gx, uint32_t gy,
                     uint32_t wx, uint32_t wy) {
  d->dims = dims;
  d->grid[0] = gx, d->grid[1] = gy, d->grid[2] = 1;
  d->workgroup[0] = wx, d->workgroup[1] = wy, d->workgroup[2] = 1;
}

static uint32_t float_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

/* ---- The kernels ------------------------------------------------------------ */

static bool setup_vector_add(struct corpus_dispatch *d) {
  const uint32_t n = 1000;
  float *a = new_buffer(d, n * 4), *b = new_buffer(d, n * 4);
  new_buffer(d, n * 4); /* c */
  float *want = new_expected(d, 2);
  if (!want) return false;
  uint32_t s = 1;
  for (uint32_t i = 0; i < n; i++) {
    a[i] = (float)(int32_t)next_random(&s) / 65536.0f;
    b[i] = (float)(next_random(&s) % 100000) / 7.0f;
    want[i] = a[i] + b[i];
  }
  arg_buffer(d, 0), arg_buffer(d, 1), arg_buffer(d, 2), arg_u32(d, n);
  geometry(d, 1, 1024, 1, 64, 1); /* more work-items than elements */
  return true;
}

static bool setup_saxpy(struct corpus_dispatch *d) {
  const uint32_t n = 300;
  const float a = 2.5f;
  float *x = new_buffer(d, n * 4), *y = new_buffer(d, n * 4);
  float *want = new_expected(d, 1);
  if (!want) return false;
  uint32_t s = 2;
  for (uint32_t i = 0; i < n; i++) {
    x[i] = (float)((int32_t)(next_random(&s) % 2001) - 1000) / 8.0f; /* a * x is exact */
    y[i] = (float)((int32_t)(next_random(&s) % 2001) - 1000) / 8.0f;
    want[i] = a * x[i] + y[i];
  }
  arg_f32(d, a), arg_buffer(d, 0), arg_buffer(d, 1), arg_u32(d, n);
  geometry(d, 1, 320, 1, 64, 1);
  return true;
}

static bool setup_reduce_sum(struct corpus_dispatch *d) {
  const uint32_t n = 1000, wg = 256, groups = 4;
  int32_t *in = new_buffer(d, n * 4);
  new_buffer(d, groups * 4); /* partial */
  int32_t *want = new_expected(d, 1);
  if (!want) return false;
  uint32_t s = 3;
  for (uint32_t i = 0; i < n; i++) {
    in[i] = (int32_t)(next_random(&s) % 20001) - 10000;
    want[i / wg] += in[i];
  }
  arg_buffer(d, 0), arg_buffer(d, 1), arg_u32(d, n);
  geometry(d, 1, groups * wg, 1, wg, 1);
  return true;
}

static bool setup_matmul_tiled(struct corpus_dispatch *d) {
  const uint32_t n = 16;
  float *a = new_buffer(d, n * n * 4), *b = new_buffer(d, n * n * 4);
  new_buffer(d, n * n * 4); /* c */
  float *want = new_expected(d, 2);
  if (!want) return false;
  uint32_t s = 4;
  for (uint32_t i = 0; i < n * n; i++) { /* small integers: every sum is exact */
    a[i] = (float)((int32_t)(next_random(&s) % 9) - 4);
    b[i] = (float)((int32_t)(next_random(&s) % 9) - 4);
  }
  for (uint32_t r = 0; r < n; r++)
    for (uint32_t col = 0; col < n; col++) {
      float sum = 0;
      for (uint32_t k = 0; k < n; k++) sum += a[r * n + k] * b[k * n + col];
      want[r * n + col] = sum;
    }
  arg_buffer(d, 0), arg_buffer(d, 1), arg_buffer(d, 2), arg_u32(d, n);
  geometry(d, 2, n, n, 8, 8);
  return true;
}

static bool setup_prefix_scan(struct corpus_dispatch *d) {
  const uint32_t n = 512, wg = 128, groups = n / wg;
  uint32_t *in = new_buffer(d, n * 4);
  new_buffer(d, n * 4);      /* out */
  new_buffer(d, groups * 4); /* sums */
  uint32_t *want_out = new_expected(d, 1);
  uint32_t *want_sums = new_expected(d, 2);
  if (!want_sums) return false;
  uint32_t s = 5;
  for (uint32_t i = 0; i < n; i++) {
    in[i] = next_random(&s) % 1000;
    want_out[i] = in[i] + (i % wg ? want_out[i - 1] : 0);
    if (i % wg == wg - 1) want_sums[i / wg] = want_out[i];
  }
  arg_buffer(d, 0), arg_buffer(d, 1), arg_buffer(d, 2);
  geometry(d, 1, n, 1, wg, 1);
  return true;
}

/* n bytes of seeded random data into 64 bins; the grid ends in a partial
 * work-group of 64. */
static bool setup_histogram_of(struct corpus_dispatch *d, uint32_t n, uint32_t seed) {
  uint8_t *data = new_buffer(d, n);
  new_buffer(d, 64 * 4); /* bins */
  uint32_t *want = new_expected(d, 1);
  if (!want) return false;
  for (uint32_t i = 0; i < n; i++) {
    data[i] = (uint8_t)next_random(&seed);
    want[data[i] % 64]++;
  }
  arg_buffer(d, 0), arg_buffer(d, 1), arg_u32(d, n);
  geometry(d, 1, n, 1, 64, 1);
  return true;
}

static bool setup_histogram(struct corpus_dispatch *d) { return setup_histogram_of(d, 777, 6); }
static bool setup_histogram_local(struct corpus_dispatch *d) { return setup_histogram_of(d, 2339, 11); }

static int compare_int(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

static bool setup_bitonic_sort(struct corpus_dispatch *d) {
  const uint32_t n = 128;
  int32_t *keys = new_buffer(d, n * 4);
  int32_t *want = new_expected(d, 0);
  if (!want) return false;
  uint32_t s = 7;
  for (uint32_t i = 0; i < n; i++) want[i] = keys[i] = (int32_t)next_random(&s) % 5000;
  qsort(want, n, 4, compare_int);
  arg_buffer(d, 0);
  geometry(d, 1, n, 1, n, 1);
  return true;
}

/* Four groups of 64, the last one partial (40 work-items), the last two
 * of those past n. */
static bool setup_uniform_slots(struct corpus_dispatch *d) {
  const uint32_t n = 230, grid = 232, wg = 64, rounds = 3;
  uint32_t *in = new_buffer(d, grid * 4);
  new_buffer(d, grid * 4); /* out */
  uint32_t *want = new_expected(d, 1);
  if (!want) return false;
  uint32_t s = 11;
  for (uint32_t i = 0; i < n; i++) in[i] = next_random(&s) % 100000;
  for (uint32_t g = 0; g * wg < grid; g++) {
    uint32_t size = grid - g * wg < wg ? grid - g * wg : wg;
    uint32_t v[64], odd[64] = {0}, acc = rounds * 7u + g;
    for (uint32_t l = 0; l < size; l++) v[l] = g * wg + l < n ? in[g * wg + l] : 0;
    for (uint32_t r = 0; r < rounds; r++) {
      for (uint32_t step = 1; step < size; step *= 2) /* high to low: v[l - step] still old */
        for (uint32_t l = size; l-- > step;) v[l] += v[l - step];
      for (uint32_t l = 1; l < size; l += 2) odd[l] = acc + r;
      acc = acc * 3u + g + r;
    }
    uint32_t total = 0;
    for (uint32_t l = 0; l < size && g * wg + l < n; l++) total += v[l];
    for (uint32_t l = 0; l < size && g * wg + l < n; l++)
      want[g * wg + l] = v[l] + odd[l] + acc + total;
  }
  arg_buffer(d, 0), arg_buffer(d, 1), arg_u32(d, rounds), arg_u32(d, n);
  geometry(d, 1, grid, 1, wg, 1);
  return true;
}

static bool setup_stencil_2d(struct corpus_dispatch *d) {
  const uint32_t w = 20, h = 12;
  float *in = new_buffer(d, w * h * 4);
  new_buffer(d, w * h * 4); /* out */
  float *want = new_expected(d, 1);
  if (!want) return false;
  uint32_t s = 8;
  for (uint32_t i = 0; i < w * h; i++) in[i] = (float)(next_random(&s) % 4096) / 16.0f;
  for (uint32_t y = 0; y < h; y++)
    for (uint32_t x = 0; x < w; x++) {
      uint32_t i = y * w + x;
      if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
        want[i] = in[i];
      else
        want[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
    }
  arg_buffer(d, 0), arg_buffer(d, 1), arg_u32(d, w), arg_u32(d, h);
  geometry(d, 2, w, h, 8, 4); /* x ends in a partial work-group */
  return true;
}

static bool setup_int_divmod(struct corpus_dispatch *d) {
  const uint32_t n = 100;
  int32_t *a = new_buffer(d, n * 4), *b = new_buffer(d, n * 4);
  int64_t *c = new_buffer(d, n * 8), *e = new_buffer(d, n * 8);
  new_buffer(d, n * 64); /* out */
  int64_t *want = new_expected(d, 4);
  if (!want) return false;
  uint32_t s = 9;
  for (uint32_t i = 0; i < n; i++) {
    a[i] = (int32_t)next_random(&s) >> (i % 20);
    do b[i] = (int32_t)next_random(&s) >> (i % 31);
    while (b[i] == 0 || b[i] == -1);
    c[i] = (int64_t)(((uint64_t)next_random(&s) << 32) | next_random(&s)) >> (i % 40);
    do e[i] = (int64_t)(((uint64_t)next_random(&s) << 32) | next_random(&s)) >> (i % 61);
    while (e[i] == 0 || e[i] == -1);
    int64_t *o = want + 8 * i;
    o[0] = a[i] / b[i];
    o[1] = a[i] % b[i];
    o[2] = (uint32_t)a[i] / (uint32_t)b[i];
    o[3] = (uint32_t)a[i] % (uint32_t)b[i];
    o[4] = c[i] / e[i];
    o[5] = c[i] % e[i];
    o[6] = (int64_t)((uint64_t)c[i] / (uint64_t)e[i]);
    o[7] = (int64_t)((uint64_t)c[i] % (uint64_t)e[i]);
  }
  for (uint32_t i = 0; i < 5; i++) arg_buffer(d, i);
  arg_u32(d, n);
  geometry(d, 1, n, 1, 64, 1);
  return true;
}

static bool setup_int64_ops(struct corpus_dispatch *d) {
  const uint32_t n = 64;
  uint64_t *a = new_buffer(d, n * 8), *b = new_buffer(d, n * 8);
  new_buffer(d, n * 64); /* out */
  uint64_t *want = new_expected(d, 2);
  if (!want) return false;
  uint32_t s = 10;
  for (uint32_t i = 0; i < n; i++) {
    uint64_t x = ((uint64_t)next_random(&s) << 32) | next_random(&s);
    uint64_t y = ((uint64_t)next_random(&s) << 32) | next_random(&s);
    if (i == 0) y = 0; /* clz(0) is 64 in OpenCL C */
    if (i == 1) x = ~0ull;
    a[i] = x, b[i] = y;
    uint64_t *o = want + 8 * i;
    unsigned sh = y & 63;
    o[0] = x * y;
    o[1] = (uint64_t)(((unsigned __int128)x * y) >> 64);
    o[2] = x << sh;
    o[3] = (uint64_t)((int64_t)x >> sh);
    o[4] = sh ? (x << sh) | (x >> (64 - sh)) : x;
    o[5] = x + y + (x + y < x);
    o[6] = (uint64_t)__builtin_popcountll(x) + ((uint64_t)(y ? __builtin_clzll(y) : 64) << 32);
    o[7] = x / (y | 1);
  }
  arg_buffer(d, 0), arg_buffer(d, 1), arg_buffer(d, 2);
  geometry(d, 1, n, 1, 64, 1);
  return true;
}

static int32_t saturate_rte(float v) {
  if (isnan(v)) return 0; /* OpenCL C 6.2.3.3: NaN converts to 0 when saturating */
  float r = rintf(v);     /* nearest, ties to even (the default rounding mode) */
  if (r >= 2147483648.0f) return INT32_MAX;
  if (r < -2147483648.0f) return INT32_MIN;
  return (int32_t)r;
}

static bool setup_float_math(struct corpus_dispatch *d) {
  const uint32_t n = 64;
  float *a = new_buffer(d, n * 4), *b = new_buffer(d, n * 4);
  new_buffer(d, n * 32); /* out */
  uint32_t *want = new_expected(d, 2);
  if (!want) return false;
  uint32_t s = 11;
  for (uint32_t i = 0; i < n; i++) {
    float x = (float)(int32_t)next_random(&s) / 21474836.48f; /* about -100..100 */
    float y = (float)(int32_t)next_random(&s) / 2147483648.0f;
    if (i == 2) x = 0.75f; /* x * 1e-38 * 1e-2 is a denormal */
    a[i] = x, b[i] = y;
    uint32_t *o = want + 8 * i;
    o[0] = float_bits(sqrtf(fabsf(x)));
    o[1] = float_bits(fmaf(x, y, 1.0f));
    o[2] = float_bits(fminf(x, y));
    o[3] = float_bits(fmaxf(x, y));
    o[4] = (uint32_t)(int32_t)truncf(x * 100.0f);
    o[5] = float_bits((float)(int32_t)(y * 1000.0f));
    o[6] = float_bits(x * 1.0e-38f * 1.0e-2f);
    o[7] = (uint32_t)saturate_rte(y * 3.0e9f);
  }
  arg_buffer(d, 0), arg_buffer(d, 1), arg_buffer(d, 2);
  geometry(d, 1, n, 1, 64, 1);
  return true;
}

/* Element 0 of each 8 is sqrt: OpenCL C allows 3 ulp; the rest is exact. */
static bool float_math_element_ok(uint32_t index, uint32_t got, uint32_t want) {
  if (index % 8 != 0) return got == want;
  int64_t diff = (int64_t)got - (int64_t)want; /* same sign: ulps = bit distance */
  return diff >= -3 && diff <= 3;
}

static bool setup_half_math(struct corpus_dispatch *d) {
  const uint32_t n = 64;
  uint16_t *a = new_buffer(d, n * 2), *b = new_buffer(d, n * 2);
  new_buffer(d, n * 8); /* out */
  uint16_t *want = new_expected(d, 2);
  if (!want) return false;
  uint32_t s = 12;
  for (uint32_t i = 0; i < n; i++) {
    /* Multiples of 1/16 in [-8, 8]: sums and products are exact in float,
     * so every result is one rounding to half. */
    double x = (double)((int32_t)(next_random(&s) % 257) - 128) / 16.0;
    double y = (double)((int32_t)(next_random(&s) % 257) - 128) / 16.0;
    a[i] = corpus_half_from_double(x), b[i] = corpus_half_from_double(y);
    uint16_t *o = want + 4 * i;
    o[0] = corpus_half_from_double(x + y);
    o[1] = corpus_half_from_double(x * y);
    o[2] = corpus_half_from_double(x * y + 0.5);
    o[3] = corpus_half_from_double((double)((float)x * 3.0f));
  }
  arg_buffer(d, 0), arg_buffer(d, 1), arg_buffer(d, 2);
  geometry(d, 1, n, 1, 64, 1);
  return true;
}

static bool setup_private_array(struct corpus_dispatch *d) {
  const uint32_t n = 64;
  uint32_t *seed = new_buffer(d, n * 4);
  new_buffer(d, n * 4); /* out */
  uint32_t *want = new_expected(d, 1);
  if (!want) return false;
  uint32_t s = 13;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t table[48], v = seed[i] = next_random(&s), acc = 0;
    for (uint32_t k = 0; k < 48; k++) table[k] = v * (k + 1) + k;
    for (uint32_t k = 0; k < 48; k++) acc += table[(v + k * 7) % 48] ^ k;
    want[i] = acc;
  }
  arg_buffer(d, 0), arg_buffer(d, 1);
  geometry(d, 1, n, 1, 64, 1);
  return true;
}

static uint32_t reference_fib(uint32_t n) {
  return n < 2 ? n : reference_fib(n - 1) + reference_fib(n - 2);
}

static bool setup_call_stack(struct corpus_dispatch *d) {
  const uint32_t n = 64;
  uint32_t *a = new_buffer(d, n * 4), *b = new_buffer(d, n * 4);
  new_buffer(d, n * 8); /* out */
  uint32_t *want = new_expected(d, 2);
  if (!want) return false;
  uint32_t s = 14;
  for (uint32_t i = 0; i < n; i++) {
    a[i] = next_random(&s) % 5000, b[i] = next_random(&s) % 5000;
    want[2 * i] = (a[i] * 31u) ^ (b[i] + 7u);
    want[2 * i + 1] = reference_fib(a[i] % 12);
  }
  arg_buffer(d, 0), arg_buffer(d, 1), arg_buffer(d, 2);
  geometry(d, 1, n, 1, 64, 1);
  return true;
}

static bool setup_global_vars(struct corpus_dispatch *d) {
  const uint32_t n = 16;
  new_buffer(d, n * 4); /* out */
  int32_t *want = new_expected(d, 0);
  if (!want) return false;
  static const int32_t table[4] = {1, 2, 3, 4}; /* the kernel's initial values */
  for (uint32_t i = 0; i < n; i++) want[i] = table[i % 4] * 10 + 5 + CORPUS_EXTERNAL_VALUE;
  arg_buffer(d, 0);
  geometry(d, 1, n, 1, 16, 1);
  return true;
}

const struct corpus_kernel corpus_kernels[] = {
    {"vector_add", "vector_add.kd", "float add, bounds check, grid past n", NULL, setup_vector_add,
     NULL},
    {"saxpy", "saxpy.kd", "C kernel, workgroup size from hidden args / dispatch packet", NULL,
     setup_saxpy, NULL},
    {"reduce_sum", "reduce_sum.kd", "LDS tree reduction with barriers", NULL, setup_reduce_sum,
     NULL},
    {"matmul_tiled", "matmul_tiled.kd", "2D grid, LDS tiles, barriers", NULL, setup_matmul_tiled,
     NULL},
    {"prefix_scan", "prefix_scan.kd", "work-group inclusive scan in LDS", NULL, setup_prefix_scan,
     NULL},
    {"histogram", "histogram.kd", "global atomic increments, partial work-group", NULL,
     setup_histogram, NULL},
    {"histogram_local", "histogram_local.kd",
     "local atomic increments into __local bins, barriers, global atomic adds", NULL,
     setup_histogram_local, NULL},
    {"bitonic_sort", "bitonic_sort.kd", "bitonic network in LDS, data-dependent swaps", NULL,
     setup_bitonic_sort, NULL},
    {"uniform_slots", "uniform_slots.kd",
     "barrier loops: values the same for the whole group, one that only looks so, partial group",
     NULL, setup_uniform_slots, NULL},
    {"stencil_2d", "stencil_2d.kd", "2D 5-point stencil, partial work-groups in x", NULL,
     setup_stencil_2d, NULL},
    {"int_divmod", "int_divmod.kd", "C kernel, 32/64-bit signed/unsigned div and mod", NULL,
     setup_int_divmod, NULL},
    {"int64_ops", "int64_ops.kd", "64-bit mul, mul_hi, shifts, rotate, carry, bit counts", NULL,
     setup_int64_ops, NULL},
    {"float_math", "float_math.kd", "sqrt, fma, fmin/fmax, conversions, denormals", NULL,
     setup_float_math, float_math_element_ok},
    {"half_math", "half_math.kd", "half add, mul, fma, conversions", NULL, setup_half_math, NULL},
    {"private_array", "private_array.kd", "dynamically indexed private array (scratch)", NULL,
     setup_private_array, NULL},
    {"call_stack", "call_stack.kd", "non-inlined and recursive calls (dynamic stack)", NULL,
     setup_call_stack, NULL},
    {"global_vars", "global_vars.kd", "program variables, RELATIVE64 and ABS64 relocations",
     "ext_offset", setup_global_vars, NULL},
};
const uint32_t corpus_kernel_count = countof(corpus_kernels);

const struct corpus_variant corpus_variants[CORPUS_VARIANT_COUNT] = {
    {"O0", 4}, {"O0", 5}, {"O2", 4}, {"O2", 5}, {"O3", 4}, {"O3", 5},
};

const char *corpus_files_match_table(void) {
#define CORPUS_FILE_NAME(file) #file,
  static const char *const files[] = {CORPUS_KERNEL_FILES(CORPUS_FILE_NAME)};
#undef CORPUS_FILE_NAME
  const uint32_t count = countof(files);
  for (uint32_t i = 0; i < count; i++)
    if (!corpus_kernel_by_file(files[i])) return files[i];
  for (uint32_t i = 0; i < corpus_kernel_count; i++) {
    bool listed = false;
    for (uint32_t j = 0; j < count; j++) listed |= !strcmp(files[j], corpus_kernels[i].file);
    if (!listed) return corpus_kernels[i].file;
  }
  return NULL;
}

const struct corpus_kernel *corpus_kernel_by_file(const char *file) {
  for (uint32_t i = 0; i < corpus_kernel_count; i++)
    if (!strcmp(corpus_kernels[i].file, file)) return &corpus_kernels[i];
  return NULL;
}

void corpus_code_object_path(char *buf, size_t size, const char *dir, const char *mcpu,
                             const struct corpus_kernel *k, const char *opt, int cov) {
  snprintf(buf, size, "%s/%s/%s.%s.v%d.co", dir, mcpu, k->file, opt, cov);
}

bool corpus_setup(const struct corpus_kernel *k, const struct corpus_alloc *alloc,
                  struct corpus_dispatch *d) {
  memset(d, 0, sizeof *d);
  d->kernel = k;
  d->alloc = *alloc;
  if (k->setup(d)) return true;
  corpus_release(d);
  return false;
}

size_t corpus_pack_args(const struct corpus_dispatch *d, void *kernarg, size_t size) {
  size_t at = 0;
  for (uint32_t i = 0; i < d->arg_count; i++) {
    const struct corpus_arg *a = &d->args[i];
    size_t n = a->kind == CORPUS_ARG_BUFFER ? 8 : 4;
    at = ALIGN_UP(at, n);
    if (at + n > size) return 0;
    uint8_t *p = (uint8_t *)kernarg + at;
    if (a->kind == CORPUS_ARG_BUFFER) {
      uint64_t address = (uint64_t)(uintptr_t)d->buffers[a->index];
      memcpy(p, &address, 8);
    } else if (a->kind == CORPUS_ARG_U32) {
      memcpy(p, &a->u32, 4);
    } else {
      memcpy(p, &a->f32, 4);
    }
    at += n;
  }
  return at;
}

void *corpus_kernarg(const struct corpus_dispatch *d, size_t size) {
  void *kernarg = d->alloc.alloc(d->alloc.ctx, size ? size : 16);
  if (!kernarg) return NULL;
  memset(kernarg, 0, size);
  if (corpus_pack_args(d, kernarg, size) != 0) return kernarg;
  d->alloc.free(d->alloc.ctx, kernarg);
  return NULL;
}

bool corpus_check(const struct corpus_dispatch *d, char *why, size_t why_size) {
  for (uint32_t b = 0; b < d->buffer_count; b++) {
    if (!d->expected[b]) continue;
    const uint8_t *got = d->buffers[b], *want = d->expected[b];
    size_t size = d->buffer_sizes[b];
    if (d->kernel->element_ok) {
      for (size_t i = 0; i + 4 <= size; i += 4) {
        uint32_t g, w;
        memcpy(&g, got + i, 4);
        memcpy(&w, want + i, 4);
        if (!d->kernel->element_ok((uint32_t)(i / 4), g, w)) {
          snprintf(why, why_size, "%s: buffer %u element %zu is 0x%08x, expected 0x%08x",
                   d->kernel->file, b, i / 4, g, w);
          return false;
        }
      }
    } else {
      for (size_t i = 0; i < size; i++)
        if (got[i] != want[i]) {
          snprintf(why, why_size, "%s: buffer %u byte %zu is 0x%02x, expected 0x%02x",
                   d->kernel->file, b, i, got[i], want[i]);
          return false;
        }
    }
  }
  return true;
}

void corpus_release(struct corpus_dispatch *d) {
  for (uint32_t b = 0; b < d->buffer_count; b++) {
    d->alloc.free(d->alloc.ctx, d->buffers[b]);
    free(d->expected[b]);
  }
  d->buffer_count = 0;
}

/* ---- binary16 (IEEE 754-2008 3.6, "binary16") ----------------------------- */

uint16_t corpus_half_from_double(double x) {
  uint16_t sign = signbit(x) ? 0x8000 : 0;
  x = fabs(x);
  if (isnan(x)) return sign | 0x7e00;
  if (x >= 65520.0) return sign | 0x7c00; /* halfway past 65504 rounds to infinity */
  int e;
  frexp(x, &e);
  int exp = e - 1 < -14 ? -14 : e - 1;             /* subnormals share exponent -14 */
  uint32_t m = (uint32_t)rint(ldexp(x, 10 - exp)); /* 11-bit significand, ties to even */
  if (m >= 2048) m >>= 1, exp++;
  if (m < 1024) return sign | (uint16_t)m; /* subnormal */
  return sign | (uint16_t)((exp + 15) << 10) | (uint16_t)(m - 1024);
}
