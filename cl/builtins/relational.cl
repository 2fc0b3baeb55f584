/*
 * relational.cl - the relational built-ins, OpenCL C 2.0 specification
 * section 6.13.6. Scalar forms return 1 for true, vector forms -1 (all bits
 * set) in the integer type of the element's size (int for float, long for
 * double, short for half), as clang's vector comparisons produce.
 */
#include "clb.h"

/* The scalar type, the integer of its size, the smallest normal value. */
#define CLB_REL_INFO(M) M(float, int, FLT_MIN) M(double, long, DBL_MIN) M(half, short, HALF_MIN)

#define CLB_REL_SCALAR(T, IT, MINNORM)                                         \
  CLB_OVL int isequal(T a, T b) { return a == b; }                             \
  CLB_OVL int isnotequal(T a, T b) { return a != b; }                          \
  CLB_OVL int isgreater(T a, T b) { return a > b; }                            \
  CLB_OVL int isgreaterequal(T a, T b) { return a >= b; }                      \
  CLB_OVL int isless(T a, T b) { return a < b; }                               \
  CLB_OVL int islessequal(T a, T b) { return a <= b; }                         \
  CLB_OVL int islessgreater(T a, T b) { return a < b || a > b; }               \
  CLB_OVL int isordered(T a, T b) { return a == a && b == b; }                 \
  CLB_OVL int isunordered(T a, T b) { return a != a || b != b; }               \
  CLB_OVL int isnan(T a) { return a != a; }                                    \
  CLB_OVL int isfinite(T a) { return fabs(a) < (T)INFINITY; }                  \
  CLB_OVL int isinf(T a) { return fabs(a) == (T)INFINITY; }                    \
  CLB_OVL int isnormal(T a) { return fabs(a) >= (T)MINNORM && fabs(a) < (T)INFINITY; } \
  CLB_OVL int signbit(T a) { return __builtin_astype(a, IT) < 0; }
CLB_REL_INFO(CLB_REL_SCALAR)

#define CLB_REL_VECTOR_N(N, T, IT, MINNORM)                                    \
  CLB_OVL IT##N isequal(T##N a, T##N b) { return a == b; }                     \
  CLB_OVL IT##N isnotequal(T##N a, T##N b) { return a != b; }                  \
  CLB_OVL IT##N isgreater(T##N a, T##N b) { return a > b; }                    \
  CLB_OVL IT##N isgreaterequal(T##N a, T##N b) { return a >= b; }              \
  CLB_OVL IT##N isless(T##N a, T##N b) { return a < b; }                       \
  CLB_OVL IT##N islessequal(T##N a, T##N b) { return a <= b; }                 \
  CLB_OVL IT##N islessgreater(T##N a, T##N b) { return (a < b) | (a > b); }    \
  CLB_OVL IT##N isordered(T##N a, T##N b) { return (a == a) & (b == b); }      \
  CLB_OVL IT##N isunordered(T##N a, T##N b) { return (a != a) | (b != b); }    \
  CLB_OVL IT##N isnan(T##N a) { return a != a; }                               \
  CLB_OVL IT##N isfinite(T##N a) { return fabs(a) < (T)INFINITY; }             \
  CLB_OVL IT##N isinf(T##N a) { return fabs(a) == (T)INFINITY; }               \
  CLB_OVL IT##N isnormal(T##N a) { return (fabs(a) >= (T)MINNORM) & (fabs(a) < (T)INFINITY); } \
  CLB_OVL IT##N signbit(T##N a) { return __builtin_astype(a, IT##N) < (IT)0; }
#define CLB_REL_VECTORS(T, IT, MINNORM) CLB_WIDTHS(CLB_REL_VECTOR_N, T, IT, MINNORM)
CLB_REL_INFO(CLB_REL_VECTORS)

/* any / all: the most significant bit of any / every component. */
#define CLB_ANY_ALL_N(N, T)                                                    \
  CLB_OVL int any(T##N x) { int r = 0; for (int i = 0; i < N; i++) r |= x[i] < 0; return r; } \
  CLB_OVL int all(T##N x) { int r = 1; for (int i = 0; i < N; i++) r &= x[i] < 0; return r; }
#define CLB_ANY_ALL(T)                                                         \
  CLB_OVL int any(T x) { return x < 0; }                                       \
  CLB_OVL int all(T x) { return x < 0; }                                       \
  CLB_WIDTHS(CLB_ANY_ALL_N, T)
CLB_ANY_ALL(char) CLB_ANY_ALL(short) CLB_ANY_ALL(int) CLB_ANY_ALL(long)

/* bitselect(a, b, c): each bit from b where c has it set, else from a;
 * select(a, b, c): b where c (scalar) / c's most significant bit (vector)
 * is set, else a. T, its unsigned integer of the same size UT, and the
 * signed one ST. */
#define CLB_SELECT_INFO(M)                                                     \
  M(char, uchar, char) M(uchar, uchar, char) M(short, ushort, short)           \
  M(ushort, ushort, short) M(int, uint, int) M(uint, uint, int)                \
  M(long, ulong, long) M(ulong, ulong, long) M(float, uint, int)               \
  M(double, ulong, long) M(half, ushort, short)
#define CLB_SELECT_N(N, T, UT, ST)                                             \
  CLB_OVL T##N bitselect(T##N a, T##N b, T##N c) {                             \
    UT##N ua = __builtin_astype(a, UT##N), ub = __builtin_astype(b, UT##N),    \
          uc = __builtin_astype(c, UT##N);                                     \
    return __builtin_astype((UT##N)((ua & ~uc) | (ub & uc)), T##N);            \
  }                                                                            \
  CLB_OVL T##N select(T##N a, T##N b, ST##N c) {                               \
    T##N r;                                                                    \
    for (int i = 0; i < N; i++) r[i] = c[i] < 0 ? b[i] : a[i];                 \
    return r;                                                                  \
  }                                                                            \
  CLB_OVL T##N select(T##N a, T##N b, UT##N c) { return select(a, b, __builtin_astype(c, ST##N)); }
#define CLB_SELECT(T, UT, ST)                                                  \
  CLB_OVL T bitselect(T a, T b, T c) {                                         \
    UT ua = __builtin_astype(a, UT), ub = __builtin_astype(b, UT), uc = __builtin_astype(c, UT); \
    return __builtin_astype((UT)((ua & ~uc) | (ub & uc)), T);                  \
  }                                                                            \
  CLB_OVL T select(T a, T b, ST c) { return c ? b : a; }                       \
  CLB_OVL T select(T a, T b, UT c) { return c ? b : a; }                       \
  CLB_WIDTHS(CLB_SELECT_N, T, UT, ST)
CLB_SELECT_INFO(CLB_SELECT)
