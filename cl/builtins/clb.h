/*
 * clb.h - shared by the OpenCL C built-in library of the CPU agents
 * (the .cl files of cl/builtins/): the macros that make the vector forms of a built-in
 * from its scalar definition, the C library functions the library calls, and
 * the half-precision conversion core.
 *
 * The library defines, for x86-64, the overloaded built-ins that clang-19's
 * opencl-c.h declares for OpenCL C 2.0 (full profile, with cl_khr_fp64 and
 * cl_khr_fp16), compiled with
 *   clang-19 -target x86_64-unknown-linux-gnu -x cl -cl-std=CL2.0
 *     -Xclang -finclude-default-header -fPIC -ffp-contract=off -O2 -c
 * so that a user's call and the definition have the same mangled name (the
 * Itanium C++ ABI with clang's OpenCL address-space qualifiers, e.g.
 * _Z3sinDv4_f, _Z6vload4mPU9CLgenericKf). Every vector form of a built-in is
 * made from the scalar one by a macro below: one definition per concept.
 *
 * Families (OpenCL C 2.0 specification, section 6.13): math 6.13.2
 * (math.cl), integer 6.13.3 (integer.cl), common 6.13.4 and geometric
 * 6.13.5 (common.cl), relational 6.13.6 (relational.cl), vector data
 * load/store 6.13.7 (vload.cl), conversions 6.2.3 (convert.cl; as_<type> is
 * clang's __builtin_astype, a macro of opencl-c-base.h, nothing to define),
 * the legacy 32- and 64-bit atomics 6.13.11.8 / cl_khr_int64_*_atomics and
 * the fences 6.13.8, 6.13.11 (atomic.cl; the C11-style atomic_* functions are
 * clang builtins expanded inline on x86-64), printf 6.13.13 (printf.cl), the
 * async copies and prefetch 6.13.10 (async.cl), and the half <-> float/double
 * conversions clang's x86-64 code calls as run-time functions (half.cl).
 *
 * Left out (tools/hsacc or the loader must refuse a program that calls
 * them; their mangled names start with these built-in names): images
 * (read_image*, write_image*, get_image_*), pipes (read_pipe, write_pipe,
 * reserve_*, commit_*, get_pipe_*, is_valid_reserve_id), device-side enqueue
 * (enqueue_kernel, enqueue_marker, get_default_queue, ndrange_*D,
 * create_user_event, retain_event, release_event, set_user_event_status,
 * is_valid_event, capture_event_profiling_info, get_kernel_*), sub-groups
 * (get_sub_group_*, get_*num_sub_groups, get_max_sub_group_size,
 * sub_group_*, intel_sub_group_*), the work-group collectives
 * (work_group_all, _any, _broadcast, _reduce_..., _scan_...), the AMD media extension
 * (amd_*), and what needs the named address space of a generic pointer:
 * get_fence (a call to _Z9get_fence...), to_global, to_local, to_private
 * (clang calls __to_global, __to_local, __to_private; OpenCL C 2.0 section
 * 6.5.5): on x86-64 every address space is one flat space, and only the
 * work-item code knows which ranges are a work-group's local memory and a
 * work-item's stack.
 *
 * What the library imports (llvm-nm -u; tests/cl/check-library.sh checks
 * that glibc's and newlib 3.3.0's C libraries both define each): the
 * double-precision libm functions declared below, ceilf/floorf/rintf/
 * roundf/truncf (LLVM narrows (float)ceil((double)x) to ceilf(x)),
 * snprintf (printf.c), __hsa_cpu_write (the runtime's console hook), and
 * get_local_linear_id, get_local_size and barrier (async.cl), which the
 * work-item code of the CPU agents defines. Every function the library
 * defines is hidden (below): nothing of it is exported from a code object.
 */
#ifndef CL_BUILTINS_CLB_H
#define CL_BUILTINS_CLB_H

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable


#define CLB_OVL __attribute__((overloadable))
#define CLB_INL static inline __attribute__((always_inline))

/* The vector widths of OpenCL C (section 6.1.2). M(N, args...). */
#define CLB_WIDTHS(M, ...) \
  M(2, __VA_ARGS__) M(3, __VA_ARGS__) M(4, __VA_ARGS__) M(8, __VA_ARGS__) M(16, __VA_ARGS__)

/* Elementwise vector forms; RT, A, B, C are scalar type names (float,
 * int, ...), pasted with N. "S" marks an argument that stays scalar. */
#define CLB_V1_N(N, RT, F, A) \
  CLB_OVL RT##N F(A##N a) { RT##N r; for (int i = 0; i < N; i++) r[i] = F(a[i]); return r; }
#define CLB_V2_N(N, RT, F, A, B) \
  CLB_OVL RT##N F(A##N a, B##N b) { RT##N r; for (int i = 0; i < N; i++) r[i] = F(a[i], b[i]); return r; }
#define CLB_V2S_N(N, RT, F, A, B) \
  CLB_OVL RT##N F(A##N a, B b) { RT##N r; for (int i = 0; i < N; i++) r[i] = F(a[i], b); return r; }
#define CLB_VS2_N(N, RT, F, A, B) \
  CLB_OVL RT##N F(A a, B##N b) { RT##N r; for (int i = 0; i < N; i++) r[i] = F(a, b[i]); return r; }
#define CLB_V3_N(N, RT, F, A, B, C) \
  CLB_OVL RT##N F(A##N a, B##N b, C##N c) { RT##N r; for (int i = 0; i < N; i++) r[i] = F(a[i], b[i], c[i]); return r; }
#define CLB_V3SS_N(N, RT, F, A, B, C) \
  CLB_OVL RT##N F(A##N a, B b, C c) { RT##N r; for (int i = 0; i < N; i++) r[i] = F(a[i], b, c); return r; }
#define CLB_V3VVS_N(N, RT, F, A, B, C) \
  CLB_OVL RT##N F(A##N a, B##N b, C c) { RT##N r; for (int i = 0; i < N; i++) r[i] = F(a[i], b[i], c); return r; }
#define CLB_V3SSV_N(N, RT, F, A, B, C) \
  CLB_OVL RT##N F(A a, B b, C##N c) { RT##N r; for (int i = 0; i < N; i++) r[i] = F(a, b, c[i]); return r; }
/* F(a, P *p): the second output through a (generic) pointer. */
#define CLB_V1P_N(N, RT, F, A, P) \
  CLB_OVL RT##N F(A##N a, P##N *p) { RT##N r; P##N o; for (int i = 0; i < N; i++) { P t; r[i] = F(a[i], &t); o[i] = t; } *p = o; return r; }
#define CLB_V2P_N(N, RT, F, A, B, P) \
  CLB_OVL RT##N F(A##N a, B##N b, P##N *p) { RT##N r; P##N o; for (int i = 0; i < N; i++) { P t; r[i] = F(a[i], b[i], &t); o[i] = t; } *p = o; return r; }

#define CLB_V1(RT, F, A) CLB_WIDTHS(CLB_V1_N, RT, F, A)
#define CLB_V2(RT, F, A, B) CLB_WIDTHS(CLB_V2_N, RT, F, A, B)
#define CLB_V2S(RT, F, A, B) CLB_WIDTHS(CLB_V2S_N, RT, F, A, B)
#define CLB_VS2(RT, F, A, B) CLB_WIDTHS(CLB_VS2_N, RT, F, A, B)
#define CLB_V3(RT, F, A, B, C) CLB_WIDTHS(CLB_V3_N, RT, F, A, B, C)
#define CLB_V3SS(RT, F, A, B, C) CLB_WIDTHS(CLB_V3SS_N, RT, F, A, B, C)
#define CLB_V3VVS(RT, F, A, B, C) CLB_WIDTHS(CLB_V3VVS_N, RT, F, A, B, C)
#define CLB_V3SSV(RT, F, A, B, C) CLB_WIDTHS(CLB_V3SSV_N, RT, F, A, B, C)
#define CLB_V1P(RT, F, A, P) CLB_WIDTHS(CLB_V1P_N, RT, F, A, P)
#define CLB_V2P(RT, F, A, B, P) CLB_WIDTHS(CLB_V2P_N, RT, F, A, B, P)

/* Type lists: M(type) for each. */
#define CLB_FLOATS(M) M(float) M(double) M(half)
#define CLB_INTS(M) M(char) M(uchar) M(short) M(ushort) M(int) M(uint) M(long) M(ulong)

/* The C library's double functions the library calls (C names through
 * asm labels: in OpenCL C the plain names are the overloaded built-ins). */
#define CLB_LIBM1(name) double clb_libm_##name(double) __asm__(#name);
#define CLB_LIBM2(name) double clb_libm_##name(double, double) __asm__(#name);
CLB_LIBM1(acos) CLB_LIBM1(acosh) CLB_LIBM1(asin) CLB_LIBM1(asinh) CLB_LIBM1(atan)
CLB_LIBM1(atanh) CLB_LIBM1(cbrt) CLB_LIBM1(cos) CLB_LIBM1(cosh) CLB_LIBM1(erf)
CLB_LIBM1(erfc) CLB_LIBM1(exp) CLB_LIBM1(exp2) CLB_LIBM1(expm1) CLB_LIBM1(log)
CLB_LIBM1(log2) CLB_LIBM1(log10) CLB_LIBM1(log1p) CLB_LIBM1(sin) CLB_LIBM1(sinh)
CLB_LIBM1(tan) CLB_LIBM1(tanh) CLB_LIBM1(floor) CLB_LIBM1(ceil) CLB_LIBM1(trunc)
CLB_LIBM1(round) CLB_LIBM1(rint)
CLB_LIBM2(atan2) CLB_LIBM2(fmod) CLB_LIBM2(hypot) CLB_LIBM2(pow) CLB_LIBM2(remainder)
double clb_libm_lgamma_r(double, int *) __asm__("lgamma_r");
double clb_libm_remquo(double, double, int *) __asm__("remquo");
double clb_libm_frexp(double, int *) __asm__("frexp");
double clb_libm_ldexp(double, int) __asm__("ldexp");

/* Every function the library defines from here on is hidden (ELF
 * STV_HIDDEN, System V gABI "Symbol Visibility"; GCC's "#pragma GCC
 * visibility", which clang accepts): linked into a kernel's code object,
 * calls to it bind inside the object (no PLT, nothing for the loader to
 * resolve or export); only the kernels stay visible. The C library
 * functions above keep default visibility: they are imports. */
#pragma GCC visibility push(hidden)

/* Rounding modes of the conversions and vstore_half (section 6.2.3.2). */
#define CLB_RTE 0
#define CLB_RTZ 1
#define CLB_RTP 2
#define CLB_RTN 3

/* half.cl: IEEE 754 binary16 from a binary32/64 value in rounding mode
 * `mode`, and back (exact), on the bit patterns. */
ushort clb_float_to_half_bits(float f, int mode);
ushort clb_double_to_half_bits(double d, int mode);
float clb_half_bits_to_float(ushort h);

/* math.cl: the correctly rounded sum a*b + c rounded to odd in double
 * (exact product: a and b are float or half values), for fma. */
double clb_fma_to_odd(double a, double b, double c);

#endif
