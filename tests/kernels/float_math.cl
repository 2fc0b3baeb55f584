/* float_math: single-precision functions with exact or bounded results:
 * sqrt (correctly rounded: built with -cl-fp32-correctly-rounded-divide-sqrt
 * is not assumed, see the corpus table), fma, fmin/fmax, conversions to and
 * from integers with rounding modes, and a denormal product kept as is.
 * 8 results per element, as raw bits. */
__kernel void float_math(__global const float *a, __global const float *b, __global uint *out) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  __global uint *o = out + 8 * i;
  o[0] = as_uint(sqrt(fabs(x)));
  o[1] = as_uint(fma(x, y, 1.0f));
  o[2] = as_uint(fmin(x, y));
  o[3] = as_uint(fmax(x, y));
  o[4] = (uint)convert_int_rtz(x * 100.0f);
  o[5] = as_uint(convert_float((int)(y * 1000.0f)));
  o[6] = as_uint(x * 1.0e-38f * 1.0e-2f);
  o[7] = (uint)convert_int_sat_rte(y * 3.0e9f);
}
