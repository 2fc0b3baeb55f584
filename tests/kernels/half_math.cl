/* half_math: half precision (cl_khr_fp16) add, multiply, fma and the
 * conversions half <-> float. 4 results per element, as raw bits. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void half_math(__global const half *a, __global const half *b, __global ushort *out) {
  size_t i = get_global_id(0);
  half x = a[i], y = b[i];
  __global ushort *o = out + 4 * i;
  o[0] = as_ushort(x + y);
  o[1] = as_ushort(x * y);
  o[2] = as_ushort(fma(x, y, (half)0.5h));
  o[3] = as_ushort(convert_half((float)x * 3.0f));
}
