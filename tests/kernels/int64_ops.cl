/* int64_ops: 64-bit integer arithmetic: multiply, high multiply, shifts by
 * a variable amount, rotate, add with carry-out, bit counts. 8 results per
 * element. */
__kernel void int64_ops(__global const ulong *a, __global const ulong *b, __global ulong *out) {
  size_t i = get_global_id(0);
  ulong x = a[i], y = b[i];
  __global ulong *o = out + 8 * i;
  o[0] = x * y;
  o[1] = mul_hi(x, y);
  o[2] = x << (y & 63);
  o[3] = (ulong)((long)x >> (y & 63));
  o[4] = rotate(x, y & 63);
  o[5] = x + y + (x + y < x);
  o[6] = popcount(x) + ((ulong)clz(y) << 32);
  o[7] = (ulong)(x / (y | 1));
}
