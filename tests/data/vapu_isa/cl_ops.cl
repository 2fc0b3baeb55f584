/*
 * cl_ops.cl - OpenCL C kernels that make clang-19 emit what the corpus
 * does not: LDS and global atomics of every kind, sub-group and work-group
 * collectives (DPP, readlane, ds_swizzle/bpermute), narrow integers (SDWA),
 * 64-bit division and saturation, the float and double math library,
 * half precision and saturating conversions. Built at O0/O2/O3 by
 * mk/vapu-isa.mk; tests/host/vapu_isa_cl_test.c checks every output against
 * a C reference.
 */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* 256 work-items per group; out: 16 ints per work-item, plus per-group
 * words at g * 64 of `groups`. */
kernel void atomics(global int *out, global int *groups, global long *wide, global uint *ctr) {
  local int lds[64];
  local uint lu[8];
  uint lid = get_local_id(0), gid = get_global_id(0), g = get_group_id(0);
  if (lid < 64) lds[lid] = (int)lid;
  if (lid < 8) lu[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  int r0 = atomic_add(&lds[1], 2);
  int r1 = atomic_sub(&lds[2], 1);
  atomic_max(&lds[3], (int)lid - 100);
  atomic_min(&lds[4], -(int)lid);
  atomic_or(&lds[5], 1 << (lid & 31));
  atomic_and(&lds[6], ~(1 << (lid & 15)));
  atomic_xor(&lds[7], (int)lid);
  int r2 = atomic_cmpxchg(&lds[8], 8, 1000);
  int r3 = atomic_xchg(&lds[9], (int)lid);
  atomic_inc(&lu[0]);
  atomic_dec(&lu[1]);
  atomic_max(&lu[2], lid * 3u);
  barrier(CLK_LOCAL_MEM_FENCE);
  global int *o = out + gid * 16;
  o[0] = r0;
  o[1] = r1;
  o[2] = r2;
  o[3] = r3;
  if (lid < 10) groups[g * 64 + lid] = lds[lid];
  if (lid < 3) groups[g * 64 + 10 + lid] = (int)lu[lid];
  /* Global: counters shared by all groups. */
  o[4] = atomic_add(&ctr[0], 1u);
  atomic_max(&ctr[1], gid);
  atomic_min(&ctr[2], gid + 5u);
  o[5] = atomic_inc(&ctr[3]);
  atom_add(&wide[0], (long)gid * 0x100000001L);
  atom_max(&wide[1], (long)gid - 300);
  o[6] = (int)atom_cmpxchg(&wide[2], (long)gid, (long)gid + 1); /* a chain: each step waits */
  atom_xor(&wide[3], (long)gid << 33);
}

/* Collectives over sub-groups (64-wide waves) and work-groups of 128. */
kernel void collectives(global const int *in, global const float *fin, global int *out, global float *fout) {
  uint gid = get_global_id(0);
  int x = in[gid];
  float f = fin[gid];
  global int *o = out + gid * 8;
  o[0] = sub_group_reduce_add(x);
  o[1] = sub_group_reduce_max(x);
  o[2] = sub_group_scan_inclusive_add(x);
  o[3] = sub_group_scan_exclusive_min(x);
  o[4] = sub_group_broadcast(x, 5);
  o[5] = work_group_reduce_add(x);
  o[6] = work_group_scan_inclusive_max(x);
  o[7] = work_group_broadcast(x, 77);
  fout[gid * 2] = sub_group_reduce_add(f);
  fout[gid * 2 + 1] = work_group_reduce_max(f);
}

/* Narrow and wide integers. */
kernel void integers(global const uint *in, global uint *out, global ulong *wout) {
  uint gid = get_global_id(0);
  uint a = in[gid], b = in[gid + 256], c = in[gid + 512];
  char ca = (char)a, cb = (char)b;
  uchar ua = (uchar)a, ub = (uchar)b;
  short sa = (short)a, sb = (short)b;
  ushort usa = (ushort)a, usb = (ushort)b;
  global uint *o = out + gid * 16;
  o[0] = (uint)(int)(char)(ca * cb + (cb >> 2));
  o[1] = (uint)add_sat(ua, ub) | (uint)sub_sat(ua, ub) << 8 | (uint)abs_diff(ca, cb) << 16;
  o[2] = (uint)(int)(short)(sa / (short)(sb | 1)) ^ (uint)(ushort)(usa % (ushort)(usb | 1)) << 16;
  o[3] = (uint)mul_hi(sa, sb) << 16 | (uint)(ushort)rotate(usa, (ushort)(b & 15));
  o[4] = (uint)(clz(ua) | popcount(usb) << 8 | (uint)hadd(ua, ub) << 16 | (uint)rhadd(ca, cb) << 24);
  o[5] = mad24(a & 0x7fffff, b & 0x7fffff, c) + mul24((int)(a << 8) >> 8, (int)(c << 8) >> 8);
  o[6] = (uint)upsample(ua, ub) | (uint)max(ca, cb) << 16 | (uint)min(sa, sb) << 24;
  o[7] = (uint)((int)a / (int)(b | 1)) + (a % (b | 1)) + mul_hi(a, b) + (uint)mul_hi((int)a, (int)c);
  o[8] = rotate(a, b) ^ clz(a) ^ ctz(b) ^ (uint)popcount(c) ^ bitselect(a, b, c);
  o[9] = (uint)add_sat((int)a, (int)b) ^ (uint)sub_sat((int)a, (int)c) ^ (uint)mad_sat((int)a, 3, (int)b);
  ulong la = (ulong)a << 32 | b, lb = (ulong)c << 29 | (a ^ c);
  long sla = (long)la, slb = (long)(lb | 1);
  global ulong *w = wout + gid * 8;
  w[0] = la / (lb | 1);
  w[1] = la % (lb | 1);
  w[2] = (ulong)(sla / slb) ^ (ulong)(sla % slb);
  w[3] = mul_hi(la, lb) ^ (ulong)mul_hi(sla, slb);
  w[4] = (ulong)add_sat(sla, slb) ^ (ulong)sub_sat(sla, slb) ^ rotate(la, (ulong)c);
  w[5] = (ulong)clz(la) | (ulong)popcount(lb) << 8 | (ulong)ctz(la | 0x8000000000000000UL) << 16;
  w[6] = (ulong)(sla >> (c & 63)) ^ (la << (b & 63)) ^ (ulong)abs_diff(sla, slb);
  w[7] = (ulong)min(sla, slb) + max(la, lb);
}

/* Floats through the math library; `in` holds arguments in [-8, 8] plus
 * special values. */
kernel void fmath(global const float *in, global float *out) {
  uint gid = get_global_id(0);
  float x = in[gid], y = in[gid + 256], ax = fabs(x) + 0.5f;
  global float *o = out + gid * 24;
  o[0] = sin(x);
  o[1] = cos(x);
  o[2] = tan(x * 0.1f);
  o[3] = exp(x);
  o[4] = exp2(x);
  o[5] = log(ax);
  o[6] = log2(ax);
  o[7] = pow(ax, y * 0.25f);
  o[8] = sqrt(ax);
  o[9] = rsqrt(ax);
  o[10] = cbrt(x);
  o[11] = atan2(x, y);
  o[12] = hypot(x, y);
  o[13] = fmod(x, y);
  o[14] = remainder(x, y);
  o[15] = x / y;
  o[16] = fma(x, y, 0.25f);
  o[17] = fmin(x, y) + fmax(x, y) * 2.0f;
  o[18] = floor(x) + ceil(y) * 3.0f;
  o[19] = round(x) - trunc(y);
  o[20] = rint(x * 4.5f);
  o[21] = ldexp(x, (int)y);
  o[22] = copysign(ax, y) + fdim(x, y);
  o[23] = log10(ax) + exp10(y * 0.1f);
}

kernel void dmath(global const double *in, global double *out) {
  uint gid = get_global_id(0);
  double x = in[gid], y = in[gid + 256], ax = fabs(x) + 0.5;
  global double *o = out + gid * 12;
  o[0] = sin(x);
  o[1] = cos(x);
  o[2] = tan(x);
  o[3] = exp(y);
  o[4] = log(ax);
  o[5] = pow(ax, y * 0.1);
  o[6] = sqrt(ax);
  o[7] = x / y;
  o[8] = fma(x, y, 1.5);
  o[9] = cbrt(x);
  o[10] = floor(x) + trunc(y);
  o[11] = fmod(x, y);
}

/* Half precision and conversions. */
kernel void halves(global const half *hin, global const float *fin, global half *hout, global int *iout,
                   global float *fout) {
  uint gid = get_global_id(0);
  half a = hin[gid], b = hin[gid + 256];
  hout[gid * 4] = a * b + a;
  hout[gid * 4 + 1] = fma(a, b, (half)0.5h);
  hout[gid * 4 + 2] = a / b;
  hout[gid * 4 + 3] = max(a, b) - min(a, b);
  float f = fin[gid];
  global int *io = iout + gid * 8;
  io[0] = convert_int_sat_rte(f);
  io[1] = convert_int_rtn(f);
  io[2] = (int)convert_uchar_sat(f);
  io[3] = (int)convert_short_sat_rtz(f);
  io[4] = (int)convert_ushort(a);
  io[5] = (int)isnan(f) | (int)isinf(f) << 1 | (int)signbit(f) << 2 | (int)isnormal(f) << 3;
  io[6] = as_int(convert_float(a));
  io[7] = as_int((float)convert_half_rtp(f));
  fout[gid * 2] = convert_float((long)(f * 1e6f));
  fout[gid * 2 + 1] = (float)(double)f * 3.0f;
}
