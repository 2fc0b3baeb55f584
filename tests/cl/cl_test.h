/* cl_test.h - helpers of the OpenCL C built-in tests (tests/cl/): a
 * deterministic generator, binary16 encoding done independently of the
 * library (long double arithmetic), and the ulp measure of the OpenCL 2.0
 * API specification section 7.4 (distance to the exact result, in units of
 * the spacing of the result type at that result). */
#ifndef TESTS_CL_CL_TEST_H
#define TESTS_CL_CL_TEST_H

#include <math.h>
#include <stdint.h>

/* A test's name: the same tests run once with the host's libm and once
 * with newlib's (the program cl-builtins-newlib-tests, CL_TEST_NEWLIB). */
#ifdef CL_TEST_NEWLIB
#define CL_TEST_NAME(name) name##_newlib_libm
#else
#define CL_TEST_NAME(name) name
#endif

/* The result types. */
enum cl_type { CL_FLOAT, CL_DOUBLE, CL_HALF };

/* xorshift64* (Vigna, "An experimental exploration of Marsaglia's xorshift
 * generators, scrambled", 2016). */
static inline uint64_t cl_rand(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}

long double cl_half_to_ld(uint16_t h);
/* x rounded to binary16, to nearest even (overflow to infinity). */
uint16_t cl_ld_to_half(long double x);
/* Rounded to the type, to nearest even. */
long double cl_round_to(long double x, enum cl_type t);
/* Error of got against the exact ref in ulp of type t (0 when both are the
 * same NaN class, infinity when one is NaN and not the other, or an
 * infinity differs). */
double cl_ulp_error(long double ref, long double got, enum cl_type t);

#endif
