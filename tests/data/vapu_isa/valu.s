// valu.s - one small kernel per vector ALU instruction under test
// (tests/host/vapu_isa_valu_test.c compares each lane with a C reference).
//
// Kernel ABI (vi_kd_default: kernarg pointer in s[0:1], one work-group of
// 64 work-items, work-item id in v0):
//   kernarg +0 A, +8 B, +16 C: 64 inputs each (32-bit kernels: dwords,
//           64-bit kernels: qwords), +24 D: 64 results, +32 M: the VCC
//           mask after the instruction (8 bytes)
// 32-bit kernels get A, B, C in v1, v2, v3 and leave the result in v4;
// 64-bit kernels get them in v[1:2], v[3:4], v[5:6], result in v[7:8].
// VCC is 0 before the instruction unless the kernel sets it.

.macro LOAD32
	s_load_dwordx8 s[4:11], s[0:1], 0x0
	s_load_dwordx2 s[12:13], s[0:1], 0x20
	v_lshlrev_b32 v10, 2, v0
	v_mov_b32 v4, 0
	s_waitcnt lgkmcnt(0)
	global_load_dword v1, v10, s[4:5]
	global_load_dword v2, v10, s[6:7]
	global_load_dword v3, v10, s[8:9]
	s_waitcnt vmcnt(0)
	s_mov_b64 vcc, 0
.endm

.macro STORE32
	global_store_dword v10, v4, s[10:11]
	s_mov_b64 s[14:15], vcc
	v_mov_b32 v5, s14
	v_mov_b32 v6, s15
	v_mov_b32 v7, 0
	global_store_dwordx2 v7, v[5:6], s[12:13]
	s_endpgm
.endm

.macro LOAD64
	s_load_dwordx8 s[4:11], s[0:1], 0x0
	s_load_dwordx2 s[12:13], s[0:1], 0x20
	v_lshlrev_b32 v10, 3, v0
	s_waitcnt lgkmcnt(0)
	global_load_dwordx2 v[1:2], v10, s[4:5]
	global_load_dwordx2 v[3:4], v10, s[6:7]
	global_load_dwordx2 v[5:6], v10, s[8:9]
	s_waitcnt vmcnt(0)
	s_mov_b64 vcc, 0
.endm

.macro STORE64
	global_store_dwordx2 v10, v[7:8], s[10:11]
	s_mov_b64 s[14:15], vcc
	v_mov_b32 v11, s14
	v_mov_b32 v12, s15
	v_mov_b32 v13, 0
	global_store_dwordx2 v13, v[11:12], s[12:13]
	s_endpgm
.endm

// K32 name ... E32 (K64 ... E64): a kernel of several instructions;
// T32 name, instruction (T64): a kernel of one.
.macro K32 name:req
	.p2align 8
	.globl \name
\name:
	LOAD32
.endm
.macro E32
	STORE32
.endm
.macro K64 name:req
	.p2align 8
	.globl \name
\name:
	LOAD64
.endm
.macro E64
	STORE64
.endm

.macro T32 name:req, insts:vararg
	.p2align 8
	.globl \name
\name:
	LOAD32
	\insts
	STORE32
.endm

.macro T64 name:req, insts:vararg
	.p2align 8
	.globl \name
\name:
	LOAD64
	\insts
	STORE64
.endm

	.text
// ---- f32 arithmetic -----------------------------------------------------
T32 add_f32, v_add_f32 v4, v1, v2
T32 sub_f32, v_sub_f32 v4, v1, v2
T32 subrev_f32, v_subrev_f32 v4, v1, v2
T32 mul_f32, v_mul_f32 v4, v1, v2
T32 mul_legacy_f32, v_mul_legacy_f32 v4, v1, v2
T32 min_f32, v_min_f32 v4, v1, v2
T32 max_f32, v_max_f32 v4, v1, v2
T32 fma_f32, v_fma_f32 v4, v1, v2, v3
T32 mad_f32, v_mad_f32 v4, v1, v2, v3
K32 mac_f32
	v_mov_b32 v4, v3
	v_mac_f32 v4, v1, v2
E32
T32 madmk_f32, v_madmk_f32 v4, v1, 0x40490fdb, v2
T32 madak_f32, v_madak_f32 v4, v1, v2, 0xc0490fdb
T32 min3_f32, v_min3_f32 v4, v1, v2, v3
T32 max3_f32, v_max3_f32 v4, v1, v2, v3
T32 med3_f32, v_med3_f32 v4, v1, v2, v3
T32 ldexp_f32, v_ldexp_f32 v4, v1, v3
T32 add_f32_modifiers, v_add_f32_e64 v4, -|v1|, |v2|
T32 fma_f32_neg, v_fma_f32 v4, -v1, v2, -v3
T32 add_f32_clamp, v_add_f32_e64 v4, v1, v2 clamp
T32 mul_f32_omod2, v_mul_f32_e64 v4, v1, v2 mul:2
T32 mul_f32_omod4, v_mul_f32_e64 v4, v1, v2 mul:4
T32 mul_f32_omod_half, v_mul_f32_e64 v4, v1, v2 div:2
T32 add_f32_literal, v_add_f32 v4, 0x3e000000, v1
T32 add_f32_inline, v_add_f32 v4, 0.5, v1
T32 add_f32_inv2pi, v_add_f32 v4, 0.15915494, v1

// ---- f32 conversions, rounding, transcendentals --------------------------
T32 cvt_i32_f32, v_cvt_i32_f32 v4, v1
T32 cvt_u32_f32, v_cvt_u32_f32 v4, v1
T32 cvt_f32_i32, v_cvt_f32_i32 v4, v1
T32 cvt_f32_u32, v_cvt_f32_u32 v4, v1
T32 cvt_rpi_i32_f32, v_cvt_rpi_i32_f32 v4, v1
T32 cvt_flr_i32_f32, v_cvt_flr_i32_f32 v4, v1
T32 cvt_f16_f32, v_cvt_f16_f32 v4, v1
T32 cvt_f32_f16, v_cvt_f32_f16 v4, v1
T32 cvt_f32_ubyte2, v_cvt_f32_ubyte2 v4, v1
T32 cvt_pkrtz_f16_f32, v_cvt_pkrtz_f16_f32 v4, v1, v2
T32 trunc_f32, v_trunc_f32 v4, v1
T32 ceil_f32, v_ceil_f32 v4, v1
T32 floor_f32, v_floor_f32 v4, v1
T32 rndne_f32, v_rndne_f32 v4, v1
T32 fract_f32, v_fract_f32 v4, v1
T32 frexp_mant_f32, v_frexp_mant_f32 v4, v1
T32 frexp_exp_i32_f32, v_frexp_exp_i32_f32 v4, v1
T32 rcp_f32, v_rcp_f32 v4, v1
T32 rsq_f32, v_rsq_f32 v4, v1
T32 sqrt_f32, v_sqrt_f32 v4, v1
T32 exp_f32, v_exp_f32 v4, v1
T32 log_f32, v_log_f32 v4, v1
T32 sin_f32, v_sin_f32 v4, v1
T32 cos_f32, v_cos_f32 v4, v1

// ---- f32 division as LLVM expands a / b (SITargetLowering::LowerFDIV32):
// div_scale, rcp, Newton-Raphson fma steps, div_fmas, div_fixup.
K32 fdiv_f32
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
	v_div_fixup_f32 v4, v5, v2, v1
	s_mov_b64 vcc, 0
E32

// ---- f16 ------------------------------------------------------------------
T32 add_f16, v_add_f16 v4, v1, v2
T32 mul_f16, v_mul_f16 v4, v1, v2
T32 fma_f16, v_fma_f16 v4, v1, v2, v3
T32 max_f16, v_max_f16 v4, v1, v2
T32 add_f16_sdwa_hi, v_add_f16_sdwa v4, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_0
T32 pk_add_f16, v_pk_add_f16 v4, v1, v2
T32 pk_fma_f16, v_pk_fma_f16 v4, v1, v2, v3
T32 pk_mul_f16_opsel, v_pk_mul_f16 v4, v1, v2 op_sel:[1,0] op_sel_hi:[0,1] neg_lo:[0,1] neg_hi:[1,0]
T32 mad_mix_f32, v_mad_mix_f32 v4, v1, v2, v3 op_sel_hi:[1,1,0]
K32 mad_f16_opsel
	v_mov_b32 v4, v3
	v_mad_f16 v4, v1, v2, v3 op_sel:[1,1,0,1]
E32

// ---- integer -----------------------------------------------------------------
T32 add_u32, v_add_u32 v4, v1, v2
T32 add_u32_clamp, v_add_u32_e64 v4, v1, v2 clamp
T32 sub_u32_clamp, v_sub_u32_e64 v4, v1, v2 clamp
T32 add_i32_clamp, v_add_i32 v4, v1, v2 clamp
T32 add_co_u32, v_add_co_u32 v4, vcc, v1, v2
K32 addc_co_u32
	v_cmp_gt_u32 vcc, v3, v1
	v_addc_co_u32 v4, vcc, v1, v2, vcc
E32
T32 sub_co_u32, v_sub_co_u32 v4, vcc, v1, v2
K32 subb_co_u32
	v_cmp_gt_u32 vcc, v3, v1
	v_subb_co_u32 v4, vcc, v1, v2, vcc
E32
K32 subbrev_co_u32_e64
	v_cmp_gt_u32 s[16:17], v3, v1
	v_subbrev_co_u32_e64 v4, vcc, v1, v2, s[16:17]
E32
K32 cndmask_b32
	v_cmp_lt_i32 vcc, v1, v2
	v_cndmask_b32 v4, v2, v3, vcc
E32
T32 mul_lo_u32, v_mul_lo_u32 v4, v1, v2
T32 mul_hi_u32, v_mul_hi_u32 v4, v1, v2
T32 mul_hi_i32, v_mul_hi_i32 v4, v1, v2
T32 mul_i32_i24, v_mul_i32_i24 v4, v1, v2
T32 mul_hi_i32_i24, v_mul_hi_i32_i24 v4, v1, v2
T32 mul_u32_u24, v_mul_u32_u24 v4, v1, v2
T32 mad_u32_u24, v_mad_u32_u24 v4, v1, v2, v3
T32 min_i32, v_min_i32 v4, v1, v2
T32 max_u32, v_max_u32 v4, v1, v2
T32 med3_i32, v_med3_i32 v4, v1, v2, v3
T32 min3_u32, v_min3_u32 v4, v1, v2, v3
T32 lshlrev_b32, v_lshlrev_b32 v4, v2, v1
T32 lshrrev_b32, v_lshrrev_b32 v4, v2, v1
T32 ashrrev_i32, v_ashrrev_i32 v4, v2, v1
T32 bfe_u32, v_bfe_u32 v4, v1, v2, v3
T32 bfe_i32, v_bfe_i32 v4, v1, v2, v3
T32 bfi_b32, v_bfi_b32 v4, v1, v2, v3
T32 bfm_b32, v_bfm_b32 v4, v1, v2
T32 alignbit_b32, v_alignbit_b32 v4, v1, v2, v3
T32 alignbyte_b32, v_alignbyte_b32 v4, v1, v2, v3
T32 perm_b32, v_perm_b32 v4, v1, v2, v3
T32 lshl_add_u32, v_lshl_add_u32 v4, v1, v2, v3
T32 add3_u32, v_add3_u32 v4, v1, v2, v3
T32 lshl_or_b32, v_lshl_or_b32 v4, v1, v2, v3
T32 and_or_b32, v_and_or_b32 v4, v1, v2, v3
T32 xad_u32, v_xad_u32 v4, v1, v2, v3
T32 sad_u8, v_sad_u8 v4, v1, v2, v3
T32 msad_u8, v_msad_u8 v4, v1, v2, v3
T32 lerp_u8, v_lerp_u8 v4, v1, v2, v3
T32 bcnt_u32_b32, v_bcnt_u32_b32 v4, v1, v2
T32 ffbh_u32, v_ffbh_u32 v4, v1
T32 ffbl_b32, v_ffbl_b32 v4, v1
T32 ffbh_i32, v_ffbh_i32 v4, v1
T32 bfrev_b32, v_bfrev_b32 v4, v1
T32 not_b32, v_not_b32 v4, v1
K32 add_u16
	v_mov_b32 v4, v3
	v_add_u16 v4, v1, v2
E32
T32 mul_lo_u16, v_mul_lo_u16 v4, v1, v2
T32 ashrrev_i16, v_ashrrev_i16 v4, v2, v1
T32 max_i16, v_max_i16 v4, v1, v2
T32 mad_u32_u16, v_mad_u32_u16 v4, v1, v2, v3
T32 pk_add_u16_clamp, v_pk_add_u16 v4, v1, v2 clamp
T32 pk_sub_i16, v_pk_sub_i16 v4, v1, v2
T32 pk_mad_i16, v_pk_mad_i16 v4, v1, v2, v3
T32 pk_lshlrev_b16, v_pk_lshlrev_b16 v4, v2, v1
T32 sat_pk_u8_i16, v_sat_pk_u8_i16 v4, v1
T32 cvt_pk_u16_u32, v_cvt_pk_u16_u32 v4, v1, v2
T32 and_b32_sdwa_byte, v_and_b32_sdwa v4, v1, v2 dst_sel:BYTE_1 dst_unused:UNUSED_PAD src0_sel:BYTE_3 src1_sel:BYTE_0
T32 add_u32_sdwa_sext, v_add_u32_sdwa v4, sext(v1), v2 dst_sel:WORD_0 dst_unused:UNUSED_SEXT src0_sel:BYTE_0 src1_sel:WORD_1
K32 mov_sdwa_preserve
	v_mov_b32 v4, v3
	v_mov_b32_sdwa v4, v1 dst_sel:BYTE_2 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0
E32

// ---- compares: VCC (e32) or an SGPR pair (e64), cmpx also EXEC --------------
T32 cmp_lt_f32, v_cmp_lt_f32 vcc, v1, v2
T32 cmp_nge_f32, v_cmp_nge_f32 vcc, v1, v2
T32 cmp_u_f32, v_cmp_u_f32 vcc, v1, v2
T32 cmp_lg_f32_e64, v_cmp_lg_f32_e64 vcc, -v1, |v2|
T32 cmp_class_f32, v_cmp_class_f32 vcc, v1, v3
T32 cmp_ge_i32, v_cmp_ge_i32 vcc, v1, v2
K32 cmp_ne_u32_e64
	v_cmp_ne_u32_e64 s[16:17], v1, v2
	s_mov_b64 vcc, s[16:17]
E32
T32 cmp_gt_u16, v_cmp_gt_u16 vcc, v1, v2
T32 cmp_eq_u32_sdwa, v_cmp_eq_u32_sdwa vcc, v1, v2 src0_sel:BYTE_1 src1_sel:BYTE_0
// v_cmpx: EXEC takes the result, so only lanes where v1 < v2 write v4.
K32 cmpx_lt_i32
	v_mov_b32 v4, -1
	s_mov_b64 s[18:19], exec
	v_cmpx_lt_i32 vcc, v1, v2
	v_mov_b32 v4, v3
	s_mov_b64 exec, s[18:19]
E32

// ---- lanes ---------------------------------------------------------------------
K32 mbcnt
	v_mbcnt_lo_u32_b32 v4, v1, 0
	v_mbcnt_hi_u32_b32 v4, v2, v4
E32
K32 readlane
	v_readlane_b32 s16, v1, 37
	v_writelane_b32 v4, s16, 5
	v_readfirstlane_b32 s17, v2
	v_add_u32 v4, s17, v4
E32
K32 dpp_row_shr
	v_mov_b32 v4, v3
	v_add_u32_dpp v4, v1, v2 row_shr:3 row_mask:0xf bank_mask:0xf
E32
K32 dpp_row_shr_bound0
	v_mov_b32 v4, v3
	v_add_u32_dpp v4, v1, v2 row_shr:3 row_mask:0xf bank_mask:0xf bound_ctrl:0
E32
T32 dpp_quad_perm, v_mov_b32_dpp v4, v1 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf
K32 dpp_row_bcast15
	v_mov_b32 v4, v3
	v_mov_b32_dpp v4, v1 row_bcast:15 row_mask:0xa bank_mask:0xf
E32
K32 dpp_wave_shl
	v_mov_b32 v4, v3
	v_mov_b32_dpp v4, v1 wave_shl:1 row_mask:0xf bank_mask:0xf
E32
K32 dpp_row_mirror_banks
	v_mov_b32 v4, v3
	v_mov_b32_dpp v4, v1 row_mirror row_mask:0xf bank_mask:0x5
E32
K32 swap_b32
	v_mov_b32 v4, v2
	v_swap_b32 v4, v1
	v_add_u32 v4, v4, v1
E32

// ---- 64-bit --------------------------------------------------------------------
T64 add_f64, v_add_f64 v[7:8], v[1:2], v[3:4]
T64 mul_f64, v_mul_f64 v[7:8], v[1:2], v[3:4]
T64 fma_f64, v_fma_f64 v[7:8], v[1:2], v[3:4], v[5:6]
T64 min_f64, v_min_f64 v[7:8], v[1:2], v[3:4]
T64 max_f64_neg, v_max_f64 v[7:8], -v[1:2], v[3:4]
T64 ldexp_f64, v_ldexp_f64 v[7:8], v[1:2], v5
T64 sqrt_f64, v_sqrt_f64 v[7:8], v[1:2]
T64 rcp_f64, v_rcp_f64 v[7:8], v[1:2]
T64 floor_f64, v_floor_f64 v[7:8], v[1:2]
T64 fract_f64, v_fract_f64 v[7:8], v[1:2]
T64 frexp_mant_f64, v_frexp_mant_f64 v[7:8], v[1:2]
T64 cvt_f64_i32, v_cvt_f64_i32 v[7:8], v1
K64 cvt_i32_f64
	v_cvt_i32_f64 v7, v[1:2]
	v_mov_b32 v8, 0
E64
K64 cvt_f32_f64
	v_cvt_f32_f64 v7, v[1:2]
	v_mov_b32 v8, 0
E64
T64 cvt_f64_f32, v_cvt_f64_f32 v[7:8], v1
T64 lshlrev_b64, v_lshlrev_b64 v[7:8], v3, v[1:2]
T64 lshrrev_b64, v_lshrrev_b64 v[7:8], v3, v[1:2]
T64 ashrrev_i64, v_ashrrev_i64 v[7:8], v3, v[1:2]
T64 mad_u64_u32, v_mad_u64_u32 v[7:8], vcc, v1, v3, v[5:6]
T64 mad_i64_i32, v_mad_i64_i32 v[7:8], vcc, v1, v3, v[5:6]
K64 cmp_lt_i64
	v_cmp_lt_i64 vcc, v[1:2], v[3:4]
	v_mov_b32 v7, 0
	v_mov_b32 v8, 0
E64
K64 cmp_ngt_f64
	v_cmp_ngt_f64 vcc, v[1:2], v[3:4]
	v_mov_b32 v7, 0
	v_mov_b32 v8, 0
E64
// a / b in f64 as LLVM expands it (SITargetLowering::LowerFDIV64).
K64 fdiv_f64
	v_div_scale_f64 v[7:8], s[14:15], v[3:4], v[3:4], v[1:2]
	v_rcp_f64 v[14:15], v[7:8]
	v_fma_f64 v[16:17], -v[7:8], v[14:15], 1.0
	v_fma_f64 v[14:15], v[14:15], v[16:17], v[14:15]
	v_fma_f64 v[16:17], -v[7:8], v[14:15], 1.0
	v_fma_f64 v[14:15], v[14:15], v[16:17], v[14:15]
	v_div_scale_f64 v[16:17], vcc, v[1:2], v[3:4], v[1:2]
	v_mul_f64 v[18:19], v[16:17], v[14:15]
	v_fma_f64 v[7:8], -v[7:8], v[18:19], v[16:17]
	v_div_fmas_f64 v[7:8], v[7:8], v[14:15], v[18:19]
	v_div_fixup_f64 v[7:8], v[7:8], v[3:4], v[1:2]
	s_mov_b64 vcc, 0
E64
