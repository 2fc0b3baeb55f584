/* math_functions.h - the math built-ins the tests check, with the full
 * profile's bounds in ulp for float and double (OpenCL 2.0 API
 * specification section 7.4, table "ULP values for single/double precision
 * built-in math functions"); half is checked at 1 ulp (the library rounds
 * the float result once; cl_khr_fp16's bounds are wider) and 0 for the
 * exact ones. Read by math.cl (the OpenCL C side) and cl_math.c (the
 * references). M1: one argument; M2: two; M2I: second argument int. */
M1(acos, 4, 4) M1(acosh, 4, 4) M1(acospi, 5, 5) M1(asin, 4, 4) M1(asinh, 4, 4)
M1(asinpi, 5, 5) M1(atan, 5, 5) M1(atanh, 5, 5) M1(atanpi, 5, 5) M1(cbrt, 2, 2)
M1(ceil, 0, 0) M1(cos, 4, 4) M1(cosh, 4, 4) M1(cospi, 4, 4) M1(erfc, 16, 16)
M1(erf, 16, 16) M1(exp, 3, 3) M1(exp2, 3, 3) M1(exp10, 3, 3) M1(expm1, 3, 3)
M1(fabs, 0, 0) M1(floor, 0, 0) M1(log, 3, 3) M1(log2, 3, 3) M1(log10, 3, 3)
M1(log1p, 2, 2) M1(logb, 0, 0) M1(rint, 0, 0) M1(round, 0, 0) M1(rsqrt, 2, 2)
M1(sin, 4, 4) M1(sinh, 4, 4) M1(sinpi, 4, 4) M1(sqrt, 3, 0) M1(tan, 5, 5)
M1(tanh, 5, 5) M1(tanpi, 6, 6) M1(tgamma, 16, 16) M1(trunc, 0, 0)
M2(atan2, 6, 6) M2(atan2pi, 6, 6) M2(copysign, 0, 0) M2(fdim, 0, 0) M2(fmax, 0, 0)
M2(fmin, 0, 0) M2(fmod, 0, 0) M2(hypot, 4, 4) M2(maxmag, 0, 0) M2(minmag, 0, 0)
M2(nextafter, 0, 0) M2(pow, 16, 16) M2(powr, 16, 16) M2(remainder, 0, 0)
M2I(ldexp, 0, 0) M2I(pown, 16, 16) M2I(rootn, 16, 16)
