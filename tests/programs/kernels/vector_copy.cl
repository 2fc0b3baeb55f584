/* vector_copy: the kernel of the HSA Foundation's vector_copy sample, in
 * OpenCL C with the ROCm device libraries (get_global_id). Built as code
 * object v4 and v5 and with :xnack- / :xnack+ target features
 * (mk/kernels.mk, "programs"). */
__kernel void vector_copy(__global const int *in, __global int *out) {
  size_t i = get_global_id(0);
  out[i] = in[i];
}
