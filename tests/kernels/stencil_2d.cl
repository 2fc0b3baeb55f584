/* stencil_2d: 5-point Jacobi step on a width x height grid; border cells
 * are copied unchanged. 2D dispatch, one work-item per cell. */
__kernel void stencil_2d(__global const float *in, __global float *out, uint width,
                         uint height) {
  uint x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height) return;
  uint i = y * width + x;
  if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
    out[i] = in[i];
    return;
  }
  out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
}
