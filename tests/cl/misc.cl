/* misc.cl - OpenCL C side of cl_misc.c: relational, common, geometric,
 * vload/vstore (half included), shuffle, atomics, printf, async copies. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
/* printf cases include malformed formats on purpose, and %v4f with a
 * float4 (clang reads a vector f without length modifier as double) */
#pragma clang diagnostic ignored "-Wformat"

#define CLT_REL(x, y)                                                          \
  isequal(x, y), isnotequal(x, y), isgreater(x, y), isgreaterequal(x, y), isless(x, y), \
      islessequal(x, y), islessgreater(x, y), isordered(x, y), isunordered(x, y), \
      isnan(x), isfinite(x), isinf(x), isnormal(x), signbit(x)
#define CLT_NREL 14
/* n: multiple of 4; out[k * n + i] for function k; scalar results in
 * out_s, 4-vector ones in out_v (float), double scalar/2-vector in
 * outd_s/outd_v, half 8-vectors in outh_v. */
void cl_rel(const float *a, const float *b, int n, int *out_s, int *out_v, int *outd_s,
            long *outd_v, short *outh_v) {
  for (int i = 0; i < n; i++) {
    int r[CLT_NREL] = {CLT_REL(a[i], b[i])};
    double x = a[i], y = b[i];
    int rd[CLT_NREL] = {CLT_REL(x, y)};
    for (int k = 0; k < CLT_NREL; k++) out_s[k * n + i] = r[k], outd_s[k * n + i] = rd[k];
  }
  for (int i = 0; i < n; i += 4) {
    float4 x = vload4(0, a + i), y = vload4(0, b + i);
    int4 r[CLT_NREL] = {CLT_REL(x, y)};
    double2 xd = convert_double2(x.lo), yd = convert_double2(y.lo);
    double2 xd2 = convert_double2(x.hi), yd2 = convert_double2(y.hi);
    long2 rd[CLT_NREL] = {CLT_REL(xd, yd)}, rd2[CLT_NREL] = {CLT_REL(xd2, yd2)};
    for (int k = 0; k < CLT_NREL; k++) {
      vstore4(r[k], 0, out_v + k * n + i);
      vstore2(rd[k], 0, outd_v + k * n + i);
      vstore2(rd2[k], 0, outd_v + k * n + i + 2);
    }
  }
  for (int i = 0; i + 8 <= n; i += 8) {
    half8 x = convert_half8(vload8(0, a + i)), y = convert_half8(vload8(0, b + i));
    short8 r[CLT_NREL] = {CLT_REL(x, y)};
    for (int k = 0; k < CLT_NREL; k++) vstore8(r[k], 0, outh_v + k * n + i);
  }
}

/* any, all, select, bitselect */
void cl_select(const int *a, const int *b, const int *c, int *out) {
  int4 x = vload4(0, a), y = vload4(0, b), m = vload4(0, c);
  out[0] = any(m);
  out[1] = all(m);
  out[2] = any(m.x);
  out[3] = all((long2)(-1, -5));
  out[4] = any((char16)(0));
  vstore4(select(x, y, m), 0, out + 5);
  vstore4(select(x, y, as_uint4(m)), 0, out + 9);
  vstore4(bitselect(x, y, m), 0, out + 13);
  out[17] = select(a[0], b[0], 0);
  out[18] = select(a[0], b[0], 7);
  float4 f = select((float4)(1, 2, 3, 4), (float4)(5, 6, 7, 8), m);
  vstore4(convert_int4(f), 0, out + 19);
  out[23] = as_int(bitselect(1.0f, -2.0f, as_float(0x80000000)));
}

/* common and geometric */
void cl_common(float *out, double *outd) {
  float4 x = (float4)(-3.5f, 0.25f, 2.0f, NAN);
  vstore4(clamp(x, -1.0f, 1.0f), 0, out);
  vstore4(sign((float4)(-2.0f, 0.0f, -0.0f, 3.0f)), 0, out + 4);
  vstore4(step(0.5f, (float4)(0.0f, 0.5f, 0.7f, -1.0f)), 0, out + 8);
  vstore4(smoothstep(0.0f, 2.0f, (float4)(-1.0f, 0.5f, 1.0f, 3.0f)), 0, out + 12);
  vstore4(mix((float4)(0.0f), (float4)(10.0f), (float4)(0.0f, 0.25f, 0.5f, 1.0f)), 0, out + 16);
  out[20] = degrees(M_PI_F);
  out[21] = radians(180.0f);
  out[22] = max(1.0f, 2.0f);
  out[23] = min(1.0f, 2.0f);
  out[24] = dot((float4)(1, 2, 3, 4), (float4)(5, 6, 7, 8));
  vstore3(cross((float3)(1, 0, 0), (float3)(0, 1, 0)), 0, out + 25);
  out[28] = length((float2)(3e30f, 4e30f)); /* x*x overflows float */
  out[29] = length((float3)(3e-30f, 4e-30f, 0)); /* x*x underflows */
  out[30] = distance((float2)(1, 1), (float2)(4, 5));
  vstore2(normalize((float2)(INFINITY, 1.0f)), 0, out + 31);
  vstore2(normalize((float2)(0.0f, 0.0f)), 0, out + 33);
  vstore2(normalize((float2)(3e-40f, 4e-40f)), 0, out + 35);
  out[37] = fast_length((float4)(1, 1, 1, 1));
  outd[0] = length((double2)(3e300, 4e300));
  outd[1] = length((double2)(3e-310, 4e-310));
  vstore4(normalize((double4)(1e200, 0, 0, 1e200)), 0, outd + 2);
  outd[6] = dot((double3)(1, 2, 3), (double3)(4, 5, 6));
  vstore4(cross((double4)(0, 1, 0, 9), (double4)(0, 0, 1, 9)), 0, outd + 7);
  outd[11] = (double)length((half2)(3.0h, 4.0h));
}

/* vload/vstore with element alignment only; half loads and stores in
 * every rounding mode */
void cl_vload(const int *p, int *q, const float *f, half *h, float *back) {
  int3 v = vload3(1, p + 1); /* elements 4, 5, 6 */
  vstore3(v, 2, q + 1);      /* to 7, 8, 9 */
  int16 w = vload16(0, p + 3);
  vstore16(w * 2, 0, q + 16);
  vstore_half(f[0], 0, h);
  vstore_half_rte(f[1], 1, h);
  vstore_half_rtz(f[2], 2, h);
  vstore_half_rtp(f[3], 3, h);
  vstore_half_rtn(f[4], 4, h);
  vstore_half4_rtz(vload4(0, f), 2, h); /* h[8..11] */
  vstorea_half3_rtp(vload3(0, f), 3, h); /* h[12..14] (aligned: stride 4) */
  vstore_half2_rtn((double2)(f[0], f[1]), 8, h); /* h[16..17] */
  back[0] = vload_half(0, h);
  vstore4(vload_half4(2, h), 0, back + 1);
  vstore3(vloada_half3(3, h), 0, back + 5);
  vstore2(vload_half2(8, h), 0, back + 8);
}

void cl_shuffle(const int *a, const int *b, int *out) {
  int4 x = vload4(0, a), y = vload4(0, b);
  vstore8(shuffle(x, (uint8)(3, 2, 1, 0, 7, 4, 5, 6)), 0, out);
  vstore4(shuffle2(x, y, (uint4)(0, 4, 7, 9)), 0, out + 8);
  vstore2(convert_int2(shuffle((float16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                              (uint2)(15, 17))), 0, out + 12);
}

/* Legacy atomics on __global memory (from the host: plain memory); each
 * result in out in order. */
void cl_atomics_legacy(volatile __global int *p, volatile __global uint *u,
                       volatile __global long *l, volatile __global float *f, long *out) {
  out[0] = atomic_add(p, 5);
  out[1] = atomic_sub(p, 2);
  out[2] = atomic_inc(p);
  out[3] = atomic_dec(p);
  out[4] = atomic_xchg(p, -7);
  out[5] = atomic_cmpxchg(p, -7, 40); /* replaces */
  out[6] = atomic_cmpxchg(p, 1, 50);  /* does not */
  out[7] = atomic_min(p, -3);
  out[8] = atomic_max(p, 9);
  out[9] = atomic_and(p, 0xc);
  out[10] = atomic_or(p, 0x3);
  out[11] = atomic_xor(p, 0xf);
  out[12] = *p;
  out[13] = atomic_max(u, 0x80000000u); /* unsigned comparison */
  out[14] = atom_add(l, 0x100000000L);
  out[15] = atom_cmpxchg(l, 0x100000001L, -1L);
  out[16] = atom_min(l, -5L);
  out[17] = *l;
  out[18] = as_int(atomic_xchg(f, 2.5f));
  out[19] = as_int(*f);
}
void cl_atomics_c11(volatile atomic_int *a, volatile atomic_long *b, volatile atomic_float *f,
                    volatile atomic_flag *flag, long *out) {
  atomic_init(a, 10);
  out[0] = atomic_fetch_add(a, 3);
  out[1] = atomic_fetch_sub_explicit(a, 1, memory_order_relaxed);
  out[2] = atomic_fetch_or_explicit(a, 0x100, memory_order_acq_rel, memory_scope_work_group);
  out[3] = atomic_fetch_xor(a, 0x1);
  out[4] = atomic_fetch_and(a, 0xff);
  out[5] = atomic_fetch_min(a, 5);
  out[6] = atomic_fetch_max_explicit(a, 7, memory_order_seq_cst, memory_scope_device);
  out[7] = atomic_exchange(a, 99);
  int expected = 98;
  out[8] = atomic_compare_exchange_strong(a, &expected, 1); /* fails: expected becomes 99 */
  out[9] = expected;
  out[10] = atomic_compare_exchange_weak_explicit(a, &expected, 2, memory_order_acq_rel,
                                                  memory_order_acquire);
  while (!out[10]) /* a weak exchange may fail spuriously */
    out[10] = atomic_compare_exchange_weak(a, &expected, 2);
  out[11] = atomic_load_explicit(a, memory_order_acquire, memory_scope_work_group);
  atomic_store(b, 1L << 40);
  out[12] = atomic_fetch_add_explicit(b, 1L << 41, memory_order_relaxed, memory_scope_device);
  out[13] = atomic_load(b);
  atomic_store_explicit(f, 1.5f, memory_order_release);
  out[14] = as_int(atomic_exchange(f, 3.0f));
  out[15] = as_int(atomic_load(f));
  out[16] = atomic_flag_test_and_set(flag);
  out[17] = atomic_flag_test_and_set_explicit(flag, memory_order_acquire);
  atomic_flag_clear(flag);
  out[18] = atomic_flag_test_and_set_explicit(flag, memory_order_seq_cst, memory_scope_device);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);
  mem_fence(CLK_LOCAL_MEM_FENCE);
  read_mem_fence(CLK_GLOBAL_MEM_FENCE);
  write_mem_fence(CLK_GLOBAL_MEM_FENCE);
}
/* n increments of each counter, for the threaded test */
void cl_atomics_count(volatile __global int *c32, volatile __global long *c64,
                      volatile atomic_int *a32, volatile atomic_long *a64, int n) {
  for (int i = 0; i < n; i++) {
    atomic_inc(c32);
    atom_add(c64, 3L);
    atomic_fetch_add_explicit(a32, 2, memory_order_relaxed);
    atomic_fetch_add(a64, 1L << 33);
  }
}

/* printf: each case is one call; returns printf's result. */
int cl_printf_case(int k) {
  switch (k) {
  case 0: return printf("hello %d %s %c|%5.2f|%-4x|%%\n", -42, "str", 'z', 3.14159f, 255u);
  case 1: return printf("%v4f\n", (float4)(1.0f, -2.5f, 0.0f, 1e10f));
  case 2: return printf("%v2hlf %v3hld %v2lx\n", (float2)(0.5f, 2.0f), (int3)(1, -2, 3),
                        (ulong2)(0x123456789abUL, 1));
  case 3: return printf("%v4hhd|%v2hu|%hhd %hd %ld\n", (char4)(-1, 2, -3, 127),
                        (ushort2)(65535, 7), (char)-5, (short)-300, -5000000000L);
  case 4: return printf("%.3e %g %a %v2lf\n", 12345.678, 1e-5f, 1.0, (double2)(1.25, -0.5));
  case 5: return printf("%#o %+d % d %08.3f %*d\n", 8, 5, 6, -3.5, 4, 7);
  case 6: return printf("%v8d|%v16hhu\n", (int8)(0, 1, 2, 3, 4, 5, 6, 7),
                        (uchar16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 255));
  case 7: return printf("%v2hf\n", (half2)(0.5h, -1.0h));
  case 8: return printf("bad %v5f\n", (float4)(1.0f));
  case 9: return printf("bad %hld\n", 5);
  default: return printf("%f %f %e\n", INFINITY, -NAN, -0.0f);
  }
}

/* printf calls whose result is unused, in the forms LLVM turns into puts
 * and putchar calls (SimplifyLibCalls.cpp, optimizePrintFString). */
void cl_printf_simplified_forms(void) {
  printf("a line\n");
  printf("%s\n", "a string");
  printf("!");
  printf("%c", '?');
}

/* One work-item's part of a work-group's copies: global -> local (plain
 * and strided), then local -> global. */
void cl_async(const __global float4 *src, __local float4 *tmp, __global float4 *dst,
              const __global int *ssrc, __local int *stmp, __global int *sdst, int n) {
  event_t e = async_work_group_copy(tmp, src, (size_t)n, 0);
  event_t e2 = async_work_group_strided_copy(stmp, ssrc, (size_t)n, 3, 0);
  prefetch(src, (size_t)n);
  wait_group_events(1, &e);
  wait_group_events(1, &e2);
}
void cl_async_back(__local float4 *tmp, __global float4 *dst, __local int *stmp,
                   __global int *sdst, int n) {
  event_t e = async_work_group_copy(dst, tmp, (size_t)n, 0);
  event_t e2 = async_work_group_strided_copy(sdst, stmp, (size_t)n, 2, 0);
  event_t both[2] = {e, e2};
  wait_group_events(2, both);
}
