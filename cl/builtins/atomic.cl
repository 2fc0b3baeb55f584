/*
 * atomic.cl - atomics and fences.
 * - The C11-style atomics of OpenCL C 2.0 section 6.13.11 (atomic_init,
 *   atomic_store/load/exchange, atomic_compare_exchange_strong/weak,
 *   atomic_fetch_add/sub/or/xor/and/min/max, atomic_flag_*, each plain,
 *   _explicit(order) and _explicit(order, scope)): clang-19 declares them
 *   as functions on x86-64 (only the __opencl_atomic_* builtins are
 *   expanded inline), so they are defined here on those builtins (clang
 *   "Language Extensions", __opencl_atomic_*), which take the order and
 *   scope at run time. x86-64 is coherent across cores, so every scope
 *   is the same code.
 * - The 32-bit atomics of OpenCL C 1.x kept by 2.0 (section 6.13.11.8 of
 *   the 1.2 specification; atomic_add ... atomic_xor, atomic_xchg also on
 *   float) and the 64-bit atom_* of cl_khr_int64_base_atomics and
 *   cl_khr_int64_extended_atomics (and the 32-bit atom_* of
 *   cl_khr_global/local_int32_*), on __global and __local memory:
 *   sequentially consistent read-modify-writes (GCC's __atomic builtins).
 * - mem_fence, read_mem_fence, write_mem_fence (6.13.8) and
 *   atomic_work_item_fence (6.13.11.1).
 */
#include "clb.h"

/* ---- C11-style. A = atomic type, T = value type, D = the operand type of
 * fetch_add/sub (ptrdiff_t for atomic_uintptr_t). */
#define CLB_C11_COMMON(A, T)                                                   \
  CLB_OVL void atomic_init(volatile A *p, T v) { __opencl_atomic_init(p, v); } \
  CLB_OVL void atomic_store(volatile A *p, T v) {                              \
    __opencl_atomic_store(p, v, memory_order_seq_cst, memory_scope_device);    \
  }                                                                            \
  CLB_OVL void atomic_store_explicit(volatile A *p, T v, memory_order o) {     \
    __opencl_atomic_store(p, v, o, memory_scope_device);                       \
  }                                                                            \
  CLB_OVL void atomic_store_explicit(volatile A *p, T v, memory_order o, memory_scope s) { \
    __opencl_atomic_store(p, v, o, s);                                         \
  }                                                                            \
  CLB_OVL T atomic_load(volatile A *p) {                                       \
    return __opencl_atomic_load(p, memory_order_seq_cst, memory_scope_device); \
  }                                                                            \
  CLB_OVL T atomic_load_explicit(volatile A *p, memory_order o) {              \
    return __opencl_atomic_load(p, o, memory_scope_device);                    \
  }                                                                            \
  CLB_OVL T atomic_load_explicit(volatile A *p, memory_order o, memory_scope s) { \
    return __opencl_atomic_load(p, o, s);                                      \
  }                                                                            \
  CLB_OVL T atomic_exchange(volatile A *p, T v) {                              \
    return __opencl_atomic_exchange(p, v, memory_order_seq_cst, memory_scope_device); \
  }                                                                            \
  CLB_OVL T atomic_exchange_explicit(volatile A *p, T v, memory_order o) {     \
    return __opencl_atomic_exchange(p, v, o, memory_scope_device);             \
  }                                                                            \
  CLB_OVL T atomic_exchange_explicit(volatile A *p, T v, memory_order o, memory_scope s) { \
    return __opencl_atomic_exchange(p, v, o, s);                               \
  }                                                                            \
  CLB_C11_CMPXCHG(A, T, strong) CLB_C11_CMPXCHG(A, T, weak)
#define CLB_C11_CMPXCHG(A, T, KIND)                                            \
  CLB_OVL bool atomic_compare_exchange_##KIND(volatile A *p, T *expected, T desired) { \
    return __opencl_atomic_compare_exchange_##KIND(p, expected, desired, memory_order_seq_cst, \
                                                   memory_order_seq_cst, memory_scope_device); \
  }                                                                            \
  CLB_OVL bool atomic_compare_exchange_##KIND##_explicit(volatile A *p, T *expected, T desired, \
                                                         memory_order ok, memory_order fail) { \
    return __opencl_atomic_compare_exchange_##KIND(p, expected, desired, ok, fail, \
                                                   memory_scope_device);       \
  }                                                                            \
  CLB_OVL bool atomic_compare_exchange_##KIND##_explicit(volatile A *p, T *expected, T desired, \
                                                         memory_order ok, memory_order fail, \
                                                         memory_scope s) {     \
    return __opencl_atomic_compare_exchange_##KIND(p, expected, desired, ok, fail, s); \
  }
#define CLB_C11_RMW(A, T, D, OP)                                               \
  CLB_OVL T atomic_fetch_##OP(volatile A *p, D v) {                            \
    return __opencl_atomic_fetch_##OP(p, v, memory_order_seq_cst, memory_scope_device); \
  }                                                                            \
  CLB_OVL T atomic_fetch_##OP##_explicit(volatile A *p, D v, memory_order o) { \
    return __opencl_atomic_fetch_##OP(p, v, o, memory_scope_device);           \
  }                                                                            \
  CLB_OVL T atomic_fetch_##OP##_explicit(volatile A *p, D v, memory_order o, memory_scope s) { \
    return __opencl_atomic_fetch_##OP(p, v, o, s);                             \
  }
#define CLB_C11_INT(A, T)                                                      \
  CLB_C11_COMMON(A, T) CLB_C11_RMW(A, T, T, add) CLB_C11_RMW(A, T, T, sub)     \
  CLB_C11_RMW(A, T, T, or) CLB_C11_RMW(A, T, T, xor) CLB_C11_RMW(A, T, T, and) \
  CLB_C11_RMW(A, T, T, min) CLB_C11_RMW(A, T, T, max)
CLB_C11_INT(atomic_int, int) CLB_C11_INT(atomic_uint, uint)
CLB_C11_INT(atomic_long, long) CLB_C11_INT(atomic_ulong, ulong)
CLB_C11_COMMON(atomic_float, float) CLB_C11_COMMON(atomic_double, double)
CLB_C11_RMW(atomic_uintptr_t, uintptr_t, ptrdiff_t, add)
CLB_C11_RMW(atomic_uintptr_t, uintptr_t, ptrdiff_t, sub)

/* atomic_flag (an atomic_int): set = 1, clear = 0. */
CLB_OVL bool atomic_flag_test_and_set_explicit(volatile atomic_flag *f, memory_order o, memory_scope s) {
  return __opencl_atomic_exchange((volatile atomic_int *)f, 1, o, s) != 0;
}
CLB_OVL bool atomic_flag_test_and_set_explicit(volatile atomic_flag *f, memory_order o) {
  return atomic_flag_test_and_set_explicit(f, o, memory_scope_device);
}
CLB_OVL bool atomic_flag_test_and_set(volatile atomic_flag *f) {
  return atomic_flag_test_and_set_explicit(f, memory_order_seq_cst, memory_scope_device);
}
CLB_OVL void atomic_flag_clear_explicit(volatile atomic_flag *f, memory_order o, memory_scope s) {
  __opencl_atomic_store((volatile atomic_int *)f, 0, o, s);
}
CLB_OVL void atomic_flag_clear_explicit(volatile atomic_flag *f, memory_order o) {
  atomic_flag_clear_explicit(f, o, memory_scope_device);
}
CLB_OVL void atomic_flag_clear(volatile atomic_flag *f) {
  atomic_flag_clear_explicit(f, memory_order_seq_cst, memory_scope_device);
}

/* ---- Legacy: NAME is atomic or atom, AS the address space, T the type. */
#define CLB_LEGACY(NAME, AS, T)                                                \
  CLB_OVL T NAME##_add(volatile AS T *p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); } \
  CLB_OVL T NAME##_sub(volatile AS T *p, T v) { return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST); } \
  CLB_OVL T NAME##_xchg(volatile AS T *p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); } \
  CLB_OVL T NAME##_inc(volatile AS T *p) { return __atomic_fetch_add(p, (T)1, __ATOMIC_SEQ_CST); } \
  CLB_OVL T NAME##_dec(volatile AS T *p) { return __atomic_fetch_sub(p, (T)1, __ATOMIC_SEQ_CST); } \
  CLB_OVL T NAME##_cmpxchg(volatile AS T *p, T cmp, T v) {                     \
    __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
    return cmp; /* the old value, whether or not it was replaced */            \
  }                                                                            \
  CLB_OVL T NAME##_min(volatile AS T *p, T v) { return __atomic_fetch_min(p, v, __ATOMIC_SEQ_CST); } \
  CLB_OVL T NAME##_max(volatile AS T *p, T v) { return __atomic_fetch_max(p, v, __ATOMIC_SEQ_CST); } \
  CLB_OVL T NAME##_and(volatile AS T *p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); } \
  CLB_OVL T NAME##_or(volatile AS T *p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); } \
  CLB_OVL T NAME##_xor(volatile AS T *p, T v) { return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST); }
#define CLB_LEGACY_AS(NAME, T) CLB_LEGACY(NAME, __global, T) CLB_LEGACY(NAME, __local, T)
CLB_LEGACY_AS(atomic, int) CLB_LEGACY_AS(atomic, uint)
CLB_LEGACY_AS(atom, int) CLB_LEGACY_AS(atom, uint) CLB_LEGACY_AS(atom, long) CLB_LEGACY_AS(atom, ulong)
#define CLB_XCHG_FLOAT(AS)                                                     \
  CLB_OVL float atomic_xchg(volatile AS float *p, float v) {                   \
    return as_float(__atomic_exchange_n((volatile AS uint *)p, as_uint(v), __ATOMIC_SEQ_CST)); \
  }
CLB_XCHG_FLOAT(__global) CLB_XCHG_FLOAT(__local)

/* ---- Fences. On x86-64 loads are not reordered with loads nor stores
 * with stores (Intel SDM vol. 3A, 9.2.2): read_mem_fence and
 * write_mem_fence only stop the compiler; mem_fence and a sequentially
 * consistent work-item fence order stores before later loads (MFENCE). */
CLB_OVL void mem_fence(cl_mem_fence_flags flags) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
CLB_OVL void read_mem_fence(cl_mem_fence_flags flags) { __atomic_thread_fence(__ATOMIC_ACQUIRE); }
CLB_OVL void write_mem_fence(cl_mem_fence_flags flags) { __atomic_thread_fence(__ATOMIC_RELEASE); }
CLB_OVL void atomic_work_item_fence(cl_mem_fence_flags flags, memory_order o, memory_scope s) {
  if (o == memory_order_seq_cst)
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
  else if (o != memory_order_relaxed)
    __atomic_thread_fence(__ATOMIC_ACQ_REL);
}
