// Kernels of tests/common/vapu_isa_platform_test.c, which runs on the host
// and in the image: the interpreter's float semantics and failure paths on
// both builds. mk/vapu-isa.mk turns .text into $(BUILD)/vapu-isa/platform.inc
// (words, and each label's offset).
	.text

// s[0:1] kernarg {a, b, out}: out[8 * i + k] = op_k(a[i], b[i]).
	.p2align 8
float_ops:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	s_load_dwordx2 s[8:9], s[0:1], 0x10
	v_lshlrev_b32 v10, 2, v0
	v_lshlrev_b32 v11, 5, v0
	s_waitcnt lgkmcnt(0)
	global_load_dword v1, v10, s[4:5]
	global_load_dword v2, v10, s[6:7]
	s_waitcnt vmcnt(0)
	// a / b the way clang-19 divides f32 when denormals are kept
	v_div_scale_f32 v5, s[14:15], v2, v2, v1
	v_div_scale_f32 v6, vcc, v1, v2, v1
	v_rcp_f32 v7, v5
	v_fma_f32 v8, -v5, v7, 1.0
	v_fma_f32 v7, v8, v7, v7
	v_mul_f32 v8, v6, v7
	v_fma_f32 v9, -v5, v8, v6
	v_fma_f32 v8, v9, v7, v8
	v_fma_f32 v5, -v5, v8, v6
	v_div_fmas_f32 v5, v5, v7, v8
	v_div_fixup_f32 v12, v5, v2, v1
	v_fma_f32 v13, v1, v2, 0.5
	v_sqrt_f32 v14, |v1|
	v_exp_f32 v15, v2
	v_log_f32 v16, |v1|
	v_mul_f32 v17, v1, v2
	v_cvt_i32_f32 v18, v1
	v_mul_hi_u32 v19, v1, v2
	global_store_dwordx4 v11, v[12:15], s[8:9]
	global_store_dwordx4 v11, v[16:19], s[8:9] offset:16
	s_endpgm

// s[0:1] kernarg {p}: loads from p (the test passes an unmapped address).
	.p2align 8
load_fault:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	v_mov_b32 v1, 0
	s_waitcnt lgkmcnt(0)
	global_load_dword v2, v1, s[4:5]
	s_waitcnt vmcnt(0)
	s_endpgm

// An encoding gfx9 does not have (VOP1 opcode 0x7f): illegal instruction.
	.p2align 8
illegal:
	s_nop 0
	.long 0x7e00fe00
	s_endpgm
