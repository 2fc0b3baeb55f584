/* matmul_tiled: C = A * B for n x n row-major matrices (n a multiple of
 * TILE), 2D grid of n x n work-items in TILE x TILE work-groups; each
 * work-group stages tiles of A and B in LDS. */
#define TILE 8

__kernel void matmul_tiled(__global const float *a, __global const float *b, __global float *c,
                           uint n) {
  __local float ta[TILE][TILE];
  __local float tb[TILE][TILE];
  uint col = get_global_id(0), row = get_global_id(1);
  uint lx = get_local_id(0), ly = get_local_id(1);
  float sum = 0.0f;
  for (uint t = 0; t < n; t += TILE) {
    ta[ly][lx] = a[row * n + t + lx];
    tb[ly][lx] = b[(t + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < TILE; k++) sum += ta[ly][k] * tb[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + col] = sum;
}
