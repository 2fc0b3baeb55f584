// all_opcodes.s - one instance of every gfx902 instruction the interpreter
// implements (its opcode tables), in every encoding it has (VOP1/VOP2/VOPC
// as e32 and e64, SDWA and DPP samples), for the decoder cross-check against
// llvm-objdump-19 (vapu_isa_objdump_test). The operands are arbitrary; the
// file is assembled, never run. Instruction forms taken from LLVM's own
// disassembly of each opcode number (llvm-mc-19 --disassemble, gfx902).
	.text
	.globl all_opcodes
	.p2align 8
all_opcodes:
	v_add3_u32 v2, v1, s0, s0
	v_add_lshl_u32 v2, v1, s0, s0
	v_alignbit_b32 v2, v1, s0, s0
	v_alignbyte_b32 v2, v1, s0, s0
	v_and_or_b32 v2, v1, s0, s0
	v_bfe_i32 v2, v1, s0, s0
	v_bfe_u32 v2, v1, s0, s0
	v_bfi_b32 v2, v1, s0, s0
	v_bfrev_b32_e32 v2, v0
	v_ceil_f16_e32 v2, v0
	v_ceil_f32_e32 v2, v0
	v_ceil_f64_e32 v[2:3], v[0:1]
	v_cos_f16_e32 v2, v0
	v_cos_f32_e32 v2, v0
	v_cvt_f16_f32_e32 v2, v0
	v_cvt_f16_i16_e32 v2, v0
	v_cvt_f16_u16_e32 v2, v0
	v_cvt_f32_f16_e32 v2, v0
	v_cvt_f32_f64_e32 v2, v[0:1]
	v_cvt_f32_i32_e32 v2, v0
	v_cvt_f32_u32_e32 v2, v0
	v_cvt_f32_ubyte0_e32 v2, v0
	v_cvt_f32_ubyte1_e32 v2, v0
	v_cvt_f32_ubyte2_e32 v2, v0
	v_cvt_f32_ubyte3_e32 v2, v0
	v_cvt_f64_f32_e32 v[2:3], v0
	v_cvt_f64_i32_e32 v[2:3], v0
	v_cvt_f64_u32_e32 v[2:3], v0
	v_cvt_flr_i32_f32_e32 v2, v0
	v_cvt_i16_f16_e32 v2, v0
	v_cvt_i32_f32_e32 v2, v0
	v_cvt_i32_f64_e32 v2, v[0:1]
	v_cvt_norm_i16_f16_e32 v2, v0
	v_cvt_norm_u16_f16_e32 v2, v0
	v_cvt_off_f32_i4_e32 v2, v0
	v_cvt_pk_u8_f32 v2, v1, s0, s0
	v_cvt_rpi_i32_f32_e32 v2, v0
	v_cvt_u16_f16_e32 v2, v0
	v_cvt_u32_f32_e32 v2, v0
	v_cvt_u32_f64_e32 v2, v[0:1]
	v_div_fixup_f16 v2, v1, s0, s0
	v_div_fixup_f32 v2, v1, s0, s0
	v_div_fixup_f64 v[2:3], v[1:2], s[0:1], s[0:1]
	v_div_fixup_legacy_f16 v2, v1, s0, s0
	v_div_scale_f32 v2, s[0:1], v1, s0, s0
	v_div_scale_f64 v[2:3], s[0:1], v[1:2], s[0:1], s[0:1]
	v_exp_f16_e32 v2, v0
	v_exp_f32_e32 v2, v0
	v_exp_legacy_f32_e32 v2, v0
	v_ffbh_i32_e32 v2, v0
	v_ffbh_u32_e32 v2, v0
	v_ffbl_b32_e32 v2, v0
	v_floor_f16_e32 v2, v0
	v_floor_f32_e32 v2, v0
	v_floor_f64_e32 v[2:3], v[0:1]
	v_fma_f16 v2, v1, s0, s0
	v_fma_f32 v2, v1, s0, s0
	v_fma_f64 v[2:3], v[1:2], s[0:1], s[0:1]
	v_fma_legacy_f16 v2, v1, s0, s0
	v_fract_f16_e32 v2, v0
	v_fract_f32_e32 v2, v0
	v_fract_f64_e32 v[2:3], v[0:1]
	v_frexp_exp_i16_f16_e32 v2, v0
	v_frexp_exp_i32_f32_e32 v2, v0
	v_frexp_exp_i32_f64_e32 v2, v[0:1]
	v_frexp_mant_f16_e32 v2, v0
	v_frexp_mant_f32_e32 v2, v0
	v_frexp_mant_f64_e32 v[2:3], v[0:1]
	v_lerp_u8 v2, v1, s0, s0
	v_log_f16_e32 v2, v0
	v_log_f32_e32 v2, v0
	v_log_legacy_f32_e32 v2, v0
	v_lshl_add_u32 v2, v1, s0, s0
	v_lshl_or_b32 v2, v1, s0, s0
	v_mad_f16 v2, v1, s0, s0
	v_mad_f32 v2, v1, s0, s0
	v_mad_i16 v2, v1, s0, s0
	v_mad_i32_i16 v2, v1, s0, s0
	v_mad_i32_i24 v2, v1, s0, s0
	v_mad_legacy_f16 v2, v1, s0, s0
	v_mad_legacy_f32 v2, v1, s0, s0
	v_mad_legacy_i16 v2, v1, s0, s0
	v_mad_legacy_u16 v2, v1, s0, s0
	v_mad_u16 v2, v1, s0, s0
	v_mad_u32_u16 v2, v1, s0, s0
	v_mad_u32_u24 v2, v1, s0, s0
	v_max3_f16 v2, v1, s0, s0
	v_max3_f32 v2, v1, s0, s0
	v_max3_i16 v2, v1, s0, s0
	v_max3_i32 v2, v1, s0, s0
	v_max3_u16 v2, v1, s0, s0
	v_max3_u32 v2, v1, s0, s0
	v_med3_f16 v2, v1, s0, s0
	v_med3_f32 v2, v1, s0, s0
	v_med3_i16 v2, v1, s0, s0
	v_med3_i32 v2, v1, s0, s0
	v_med3_u16 v2, v1, s0, s0
	v_med3_u32 v2, v1, s0, s0
	v_min3_f16 v2, v1, s0, s0
	v_min3_f32 v2, v1, s0, s0
	v_min3_i16 v2, v1, s0, s0
	v_min3_i32 v2, v1, s0, s0
	v_min3_u16 v2, v1, s0, s0
	v_min3_u32 v2, v1, s0, s0
	v_mov_b32_e32 v2, v0
	v_msad_u8 v2, v1, s0, s0
	v_not_b32_e32 v2, v0
	v_or3_b32 v2, v1, s0, s0
	v_perm_b32 v2, v1, s0, s0
	v_rcp_f16_e32 v2, v0
	v_rcp_f32_e32 v2, v0
	v_rcp_f64_e32 v[2:3], v[0:1]
	v_rcp_iflag_f32_e32 v2, v0
	v_readfirstlane_b32 s2, v0
	v_rndne_f16_e32 v2, v0
	v_rndne_f32_e32 v2, v0
	v_rndne_f64_e32 v[2:3], v[0:1]
	v_rsq_f16_e32 v2, v0
	v_rsq_f32_e32 v2, v0
	v_rsq_f64_e32 v[2:3], v[0:1]
	v_sad_hi_u8 v2, v1, s0, s0
	v_sad_u16 v2, v1, s0, s0
	v_sad_u32 v2, v1, s0, s0
	v_sad_u8 v2, v1, s0, s0
	v_sat_pk_u8_i16_e32 v2, v0
	v_sin_f16_e32 v2, v0
	v_sin_f32_e32 v2, v0
	v_sqrt_f16_e32 v2, v0
	v_sqrt_f32_e32 v2, v0
	v_sqrt_f64_e32 v[2:3], v[0:1]
	v_swap_b32 v2, v0
	v_trunc_f16_e32 v2, v0
	v_trunc_f32_e32 v2, v0
	v_trunc_f64_e32 v[2:3], v[0:1]
	v_xad_u32 v2, v1, s0, s0
	v_bfrev_b32_e64 v2, v0
	v_ceil_f16_e64 v2, v0
	v_ceil_f32_e64 v2, v0
	v_ceil_f64_e64 v[2:3], v[0:1]
	v_cos_f16_e64 v2, v0
	v_cos_f32_e64 v2, v0
	v_cvt_f16_f32_e64 v2, v0
	v_cvt_f16_i16_e64 v2, v0
	v_cvt_f16_u16_e64 v2, v0
	v_cvt_f32_f16_e64 v2, v0
	v_cvt_f32_f64_e64 v2, v[0:1]
	v_cvt_f32_i32_e64 v2, v0
	v_cvt_f32_u32_e64 v2, v0
	v_cvt_f32_ubyte0_e64 v2, v0
	v_cvt_f32_ubyte1_e64 v2, v0
	v_cvt_f32_ubyte2_e64 v2, v0
	v_cvt_f32_ubyte3_e64 v2, v0
	v_cvt_f64_f32_e64 v[2:3], v0
	v_cvt_f64_i32_e64 v[2:3], v0
	v_cvt_f64_u32_e64 v[2:3], v0
	v_cvt_flr_i32_f32_e64 v2, v0
	v_cvt_i16_f16_e64 v2, v0
	v_cvt_i32_f32_e64 v2, v0
	v_cvt_i32_f64_e64 v2, v[0:1]
	v_cvt_norm_i16_f16_e64 v2, v0
	v_cvt_norm_u16_f16_e64 v2, v0
	v_cvt_off_f32_i4_e64 v2, v0
	v_cvt_rpi_i32_f32_e64 v2, v0
	v_cvt_u16_f16_e64 v2, v0
	v_cvt_u32_f32_e64 v2, v0
	v_cvt_u32_f64_e64 v2, v[0:1]
	v_exp_f16_e64 v2, v0
	v_exp_f32_e64 v2, v0
	v_exp_legacy_f32_e64 v2, v0
	v_ffbh_i32_e64 v2, v0
	v_ffbh_u32_e64 v2, v0
	v_ffbl_b32_e64 v2, v0
	v_floor_f16_e64 v2, v0
	v_floor_f32_e64 v2, v0
	v_floor_f64_e64 v[2:3], v[0:1]
	v_fract_f16_e64 v2, v0
	v_fract_f32_e64 v2, v0
	v_fract_f64_e64 v[2:3], v[0:1]
	v_frexp_exp_i16_f16_e64 v2, v0
	v_frexp_exp_i32_f32_e64 v2, v0
	v_frexp_exp_i32_f64_e64 v2, v[0:1]
	v_frexp_mant_f16_e64 v2, v0
	v_frexp_mant_f32_e64 v2, v0
	v_frexp_mant_f64_e64 v[2:3], v[0:1]
	v_log_f16_e64 v2, v0
	v_log_f32_e64 v2, v0
	v_log_legacy_f32_e64 v2, v0
	v_mov_b32_e64 v2, v0
	v_not_b32_e64 v2, v0
	v_rcp_f16_e64 v2, v0
	v_rcp_f32_e64 v2, v0
	v_rcp_f64_e64 v[2:3], v[0:1]
	v_rcp_iflag_f32_e64 v2, v0
	v_rndne_f16_e64 v2, v0
	v_rndne_f32_e64 v2, v0
	v_rndne_f64_e64 v[2:3], v[0:1]
	v_rsq_f16_e64 v2, v0
	v_rsq_f32_e64 v2, v0
	v_rsq_f64_e64 v[2:3], v[0:1]
	v_sat_pk_u8_i16_e64 v2, v0
	v_sin_f16_e64 v2, v0
	v_sin_f32_e64 v2, v0
	v_sqrt_f16_e64 v2, v0
	v_sqrt_f32_e64 v2, v0
	v_sqrt_f64_e64 v[2:3], v[0:1]
	v_trunc_f16_e64 v2, v0
	v_trunc_f32_e64 v2, v0
	v_trunc_f64_e64 v[2:3], v[0:1]
	v_cmp_class_f32_e64 s[2:3], v0, v1
	v_cmpx_class_f32_e64 s[2:3], v0, v1
	v_cmp_class_f64_e64 s[2:3], v[0:1], v1
	v_cmpx_class_f64_e64 s[2:3], v[0:1], v1
	v_cmp_class_f16_e64 s[2:3], v0, v1
	v_cmpx_class_f16_e64 s[2:3], v0, v1
	v_cmp_f_f16_e64 s[2:3], v0, v1
	v_cmp_lt_f16_e64 s[2:3], v0, v1
	v_cmp_eq_f16_e64 s[2:3], v0, v1
	v_cmp_le_f16_e64 s[2:3], v0, v1
	v_cmp_gt_f16_e64 s[2:3], v0, v1
	v_cmp_lg_f16_e64 s[2:3], v0, v1
	v_cmp_ge_f16_e64 s[2:3], v0, v1
	v_cmp_o_f16_e64 s[2:3], v0, v1
	v_cmp_u_f16_e64 s[2:3], v0, v1
	v_cmp_nge_f16_e64 s[2:3], v0, v1
	v_cmp_nlg_f16_e64 s[2:3], v0, v1
	v_cmp_ngt_f16_e64 s[2:3], v0, v1
	v_cmp_nle_f16_e64 s[2:3], v0, v1
	v_cmp_neq_f16_e64 s[2:3], v0, v1
	v_cmp_nlt_f16_e64 s[2:3], v0, v1
	v_cmp_tru_f16_e64 s[2:3], v0, v1
	v_cmpx_f_f16_e64 s[2:3], v0, v1
	v_cmpx_lt_f16_e64 s[2:3], v0, v1
	v_cmpx_eq_f16_e64 s[2:3], v0, v1
	v_cmpx_le_f16_e64 s[2:3], v0, v1
	v_cmpx_gt_f16_e64 s[2:3], v0, v1
	v_cmpx_lg_f16_e64 s[2:3], v0, v1
	v_cmpx_ge_f16_e64 s[2:3], v0, v1
	v_cmpx_o_f16_e64 s[2:3], v0, v1
	v_cmpx_u_f16_e64 s[2:3], v0, v1
	v_cmpx_nge_f16_e64 s[2:3], v0, v1
	v_cmpx_nlg_f16_e64 s[2:3], v0, v1
	v_cmpx_ngt_f16_e64 s[2:3], v0, v1
	v_cmpx_nle_f16_e64 s[2:3], v0, v1
	v_cmpx_neq_f16_e64 s[2:3], v0, v1
	v_cmpx_nlt_f16_e64 s[2:3], v0, v1
	v_cmpx_tru_f16_e64 s[2:3], v0, v1
	v_cmp_f_f32_e64 s[2:3], v0, v1
	v_cmp_lt_f32_e64 s[2:3], v0, v1
	v_cmp_eq_f32_e64 s[2:3], v0, v1
	v_cmp_le_f32_e64 s[2:3], v0, v1
	v_cmp_gt_f32_e64 s[2:3], v0, v1
	v_cmp_lg_f32_e64 s[2:3], v0, v1
	v_cmp_ge_f32_e64 s[2:3], v0, v1
	v_cmp_o_f32_e64 s[2:3], v0, v1
	v_cmp_u_f32_e64 s[2:3], v0, v1
	v_cmp_nge_f32_e64 s[2:3], v0, v1
	v_cmp_nlg_f32_e64 s[2:3], v0, v1
	v_cmp_ngt_f32_e64 s[2:3], v0, v1
	v_cmp_nle_f32_e64 s[2:3], v0, v1
	v_cmp_neq_f32_e64 s[2:3], v0, v1
	v_cmp_nlt_f32_e64 s[2:3], v0, v1
	v_cmp_tru_f32_e64 s[2:3], v0, v1
	v_cmpx_f_f32_e64 s[2:3], v0, v1
	v_cmpx_lt_f32_e64 s[2:3], v0, v1
	v_cmpx_eq_f32_e64 s[2:3], v0, v1
	v_cmpx_le_f32_e64 s[2:3], v0, v1
	v_cmpx_gt_f32_e64 s[2:3], v0, v1
	v_cmpx_lg_f32_e64 s[2:3], v0, v1
	v_cmpx_ge_f32_e64 s[2:3], v0, v1
	v_cmpx_o_f32_e64 s[2:3], v0, v1
	v_cmpx_u_f32_e64 s[2:3], v0, v1
	v_cmpx_nge_f32_e64 s[2:3], v0, v1
	v_cmpx_nlg_f32_e64 s[2:3], v0, v1
	v_cmpx_ngt_f32_e64 s[2:3], v0, v1
	v_cmpx_nle_f32_e64 s[2:3], v0, v1
	v_cmpx_neq_f32_e64 s[2:3], v0, v1
	v_cmpx_nlt_f32_e64 s[2:3], v0, v1
	v_cmpx_tru_f32_e64 s[2:3], v0, v1
	v_cmp_f_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_lt_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_eq_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_le_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_gt_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_lg_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_ge_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_o_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_u_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_nge_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_nlg_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_ngt_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_nle_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_neq_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_nlt_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_tru_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_f_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_lt_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_eq_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_le_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_gt_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_lg_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_ge_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_o_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_u_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_nge_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_nlg_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_ngt_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_nle_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_neq_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_nlt_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_tru_f64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_f_i16_e64 s[2:3], v0, v1
	v_cmp_lt_i16_e64 s[2:3], v0, v1
	v_cmp_eq_i16_e64 s[2:3], v0, v1
	v_cmp_le_i16_e64 s[2:3], v0, v1
	v_cmp_gt_i16_e64 s[2:3], v0, v1
	v_cmp_ne_i16_e64 s[2:3], v0, v1
	v_cmp_ge_i16_e64 s[2:3], v0, v1
	v_cmp_t_i16_e64 s[2:3], v0, v1
	v_cmp_f_u16_e64 s[2:3], v0, v1
	v_cmp_lt_u16_e64 s[2:3], v0, v1
	v_cmp_eq_u16_e64 s[2:3], v0, v1
	v_cmp_le_u16_e64 s[2:3], v0, v1
	v_cmp_gt_u16_e64 s[2:3], v0, v1
	v_cmp_ne_u16_e64 s[2:3], v0, v1
	v_cmp_ge_u16_e64 s[2:3], v0, v1
	v_cmp_t_u16_e64 s[2:3], v0, v1
	v_cmpx_f_i16_e64 s[2:3], v0, v1
	v_cmpx_lt_i16_e64 s[2:3], v0, v1
	v_cmpx_eq_i16_e64 s[2:3], v0, v1
	v_cmpx_le_i16_e64 s[2:3], v0, v1
	v_cmpx_gt_i16_e64 s[2:3], v0, v1
	v_cmpx_ne_i16_e64 s[2:3], v0, v1
	v_cmpx_ge_i16_e64 s[2:3], v0, v1
	v_cmpx_t_i16_e64 s[2:3], v0, v1
	v_cmpx_f_u16_e64 s[2:3], v0, v1
	v_cmpx_lt_u16_e64 s[2:3], v0, v1
	v_cmpx_eq_u16_e64 s[2:3], v0, v1
	v_cmpx_le_u16_e64 s[2:3], v0, v1
	v_cmpx_gt_u16_e64 s[2:3], v0, v1
	v_cmpx_ne_u16_e64 s[2:3], v0, v1
	v_cmpx_ge_u16_e64 s[2:3], v0, v1
	v_cmpx_t_u16_e64 s[2:3], v0, v1
	v_cmp_f_i32_e64 s[2:3], v0, v1
	v_cmp_lt_i32_e64 s[2:3], v0, v1
	v_cmp_eq_i32_e64 s[2:3], v0, v1
	v_cmp_le_i32_e64 s[2:3], v0, v1
	v_cmp_gt_i32_e64 s[2:3], v0, v1
	v_cmp_ne_i32_e64 s[2:3], v0, v1
	v_cmp_ge_i32_e64 s[2:3], v0, v1
	v_cmp_t_i32_e64 s[2:3], v0, v1
	v_cmp_f_u32_e64 s[2:3], v0, v1
	v_cmp_lt_u32_e64 s[2:3], v0, v1
	v_cmp_eq_u32_e64 s[2:3], v0, v1
	v_cmp_le_u32_e64 s[2:3], v0, v1
	v_cmp_gt_u32_e64 s[2:3], v0, v1
	v_cmp_ne_u32_e64 s[2:3], v0, v1
	v_cmp_ge_u32_e64 s[2:3], v0, v1
	v_cmp_t_u32_e64 s[2:3], v0, v1
	v_cmpx_f_i32_e64 s[2:3], v0, v1
	v_cmpx_lt_i32_e64 s[2:3], v0, v1
	v_cmpx_eq_i32_e64 s[2:3], v0, v1
	v_cmpx_le_i32_e64 s[2:3], v0, v1
	v_cmpx_gt_i32_e64 s[2:3], v0, v1
	v_cmpx_ne_i32_e64 s[2:3], v0, v1
	v_cmpx_ge_i32_e64 s[2:3], v0, v1
	v_cmpx_t_i32_e64 s[2:3], v0, v1
	v_cmpx_f_u32_e64 s[2:3], v0, v1
	v_cmpx_lt_u32_e64 s[2:3], v0, v1
	v_cmpx_eq_u32_e64 s[2:3], v0, v1
	v_cmpx_le_u32_e64 s[2:3], v0, v1
	v_cmpx_gt_u32_e64 s[2:3], v0, v1
	v_cmpx_ne_u32_e64 s[2:3], v0, v1
	v_cmpx_ge_u32_e64 s[2:3], v0, v1
	v_cmpx_t_u32_e64 s[2:3], v0, v1
	v_cmp_f_i64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_lt_i64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_eq_i64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_le_i64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_gt_i64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_ne_i64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_ge_i64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_t_i64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_f_u64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_lt_u64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_eq_u64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_le_u64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_gt_u64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_ne_u64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_ge_u64_e64 s[2:3], v[0:1], v[1:2]
	v_cmp_t_u64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_f_i64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_lt_i64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_eq_i64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_le_i64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_gt_i64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_ne_i64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_ge_i64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_t_i64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_f_u64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_lt_u64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_eq_u64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_le_u64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_gt_u64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_ne_u64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_ge_u64_e64 s[2:3], v[0:1], v[1:2]
	v_cmpx_t_u64_e64 s[2:3], v[0:1], v[1:2]
	v_cndmask_b32_e64 v2, v0, v1, s[4:5]
	v_add_f32_e64 v2, v0, v1
	v_sub_f32_e64 v2, v0, v1
	v_subrev_f32_e64 v2, v0, v1
	v_mul_legacy_f32_e64 v2, v0, v1
	v_mul_f32_e64 v2, v0, v1
	v_mul_i32_i24_e64 v2, v0, v1
	v_mul_hi_i32_i24_e64 v2, v0, v1
	v_mul_u32_u24_e64 v2, v0, v1
	v_mul_hi_u32_u24_e64 v2, v0, v1
	v_min_f32_e64 v2, v0, v1
	v_max_f32_e64 v2, v0, v1
	v_min_i32_e64 v2, v0, v1
	v_max_i32_e64 v2, v0, v1
	v_min_u32_e64 v2, v0, v1
	v_max_u32_e64 v2, v0, v1
	v_lshrrev_b32_e64 v2, v0, v1
	v_ashrrev_i32_e64 v2, v0, v1
	v_lshlrev_b32_e64 v2, v0, v1
	v_and_b32_e64 v2, v0, v1
	v_or_b32_e64 v2, v0, v1
	v_xor_b32_e64 v2, v0, v1
	v_mac_f32_e64 v2, v0, v1
	v_add_co_u32_e64 v2, s[0:1], v0, v1
	v_sub_co_u32_e64 v2, s[0:1], v0, v1
	v_subrev_co_u32_e64 v2, s[0:1], v0, v1
	v_addc_co_u32_e64 v2, s[0:1], v0, v1, s[4:5]
	v_subb_co_u32_e64 v2, s[0:1], v0, v1, s[4:5]
	v_subbrev_co_u32_e64 v2, s[0:1], v0, v1, s[4:5]
	v_add_f16_e64 v2, v0, v1
	v_sub_f16_e64 v2, v0, v1
	v_subrev_f16_e64 v2, v0, v1
	v_mul_f16_e64 v2, v0, v1
	v_mac_f16_e64 v2, v0, v1
	v_add_u16_e64 v2, v0, v1
	v_sub_u16_e64 v2, v0, v1
	v_subrev_u16_e64 v2, v0, v1
	v_mul_lo_u16_e64 v2, v0, v1
	v_lshlrev_b16_e64 v2, v0, v1
	v_lshrrev_b16_e64 v2, v0, v1
	v_ashrrev_i16_e64 v2, v0, v1
	v_max_f16_e64 v2, v0, v1
	v_min_f16_e64 v2, v0, v1
	v_max_u16_e64 v2, v0, v1
	v_max_i16_e64 v2, v0, v1
	v_min_u16_e64 v2, v0, v1
	v_min_i16_e64 v2, v0, v1
	v_ldexp_f16_e64 v2, v0, v1
	v_add_u32_e64 v2, v0, v1
	v_sub_u32_e64 v2, v0, v1
	v_subrev_u32_e64 v2, v0, v1
	v_mad_legacy_f32 v2, v0, v1, v2
	v_mad_f32 v2, v0, v1, v2
	v_mad_i32_i24 v2, v0, v1, v2
	v_mad_u32_u24 v2, v0, v1, v2
	v_bfe_u32 v2, v0, v1, v2
	v_bfe_i32 v2, v0, v1, v2
	v_bfi_b32 v2, v0, v1, v2
	v_fma_f32 v2, v0, v1, v2
	v_fma_f64 v[2:3], v[0:1], v[1:2], v[2:3]
	v_lerp_u8 v2, v0, v1, v2
	v_alignbit_b32 v2, v0, v1, v2
	v_alignbyte_b32 v2, v0, v1, v2
	v_min3_f32 v2, v0, v1, v2
	v_min3_i32 v2, v0, v1, v2
	v_min3_u32 v2, v0, v1, v2
	v_max3_f32 v2, v0, v1, v2
	v_max3_i32 v2, v0, v1, v2
	v_max3_u32 v2, v0, v1, v2
	v_med3_f32 v2, v0, v1, v2
	v_med3_i32 v2, v0, v1, v2
	v_med3_u32 v2, v0, v1, v2
	v_sad_u8 v2, v0, v1, v2
	v_sad_hi_u8 v2, v0, v1, v2
	v_sad_u16 v2, v0, v1, v2
	v_sad_u32 v2, v0, v1, v2
	v_cvt_pk_u8_f32 v2, v0, v1, v2
	v_div_fixup_f32 v2, v0, v1, v2
	v_div_fixup_f64 v[2:3], v[0:1], v[1:2], v[2:3]
	v_div_scale_f32 v2, s[0:1], v0, v1, v2
	v_div_scale_f64 v[2:3], s[0:1], v[0:1], v[1:2], v[2:3]
	v_div_fmas_f32 v2, v0, v1, v2
	v_div_fmas_f64 v[2:3], v[0:1], v[1:2], v[2:3]
	v_msad_u8 v2, v0, v1, v2
	v_mad_u64_u32 v[2:3], s[0:1], v0, v1, v[2:3]
	v_mad_i64_i32 v[2:3], s[0:1], v0, v1, v[2:3]
	v_mad_legacy_f16 v2, v0, v1, v2
	v_mad_legacy_u16 v2, v0, v1, v2
	v_mad_legacy_i16 v2, v0, v1, v2
	v_perm_b32 v2, v0, v1, v2
	v_fma_legacy_f16 v2, v0, v1, v2
	v_div_fixup_legacy_f16 v2, v0, v1, v2
	v_mad_u32_u16 v2, v0, v1, v2
	v_mad_i32_i16 v2, v0, v1, v2
	v_xad_u32 v2, v0, v1, v2
	v_min3_f16 v2, v0, v1, v2
	v_min3_i16 v2, v0, v1, v2
	v_min3_u16 v2, v0, v1, v2
	v_max3_f16 v2, v0, v1, v2
	v_max3_i16 v2, v0, v1, v2
	v_max3_u16 v2, v0, v1, v2
	v_med3_f16 v2, v0, v1, v2
	v_med3_i16 v2, v0, v1, v2
	v_med3_u16 v2, v0, v1, v2
	v_lshl_add_u32 v2, v0, v1, v2
	v_add_lshl_u32 v2, v0, v1, v2
	v_add3_u32 v2, v0, v1, v2
	v_lshl_or_b32 v2, v0, v1, v2
	v_and_or_b32 v2, v0, v1, v2
	v_or3_b32 v2, v0, v1, v2
	v_mad_f16 v2, v0, v1, v2
	v_mad_u16 v2, v0, v1, v2
	v_mad_i16 v2, v0, v1, v2
	v_fma_f16 v2, v0, v1, v2
	v_div_fixup_f16 v2, v0, v1, v2
	v_add_f64 v[2:3], v[0:1], v[1:2]
	v_mul_f64 v[2:3], v[0:1], v[1:2]
	v_min_f64 v[2:3], v[0:1], v[1:2]
	v_max_f64 v[2:3], v[0:1], v[1:2]
	v_ldexp_f64 v[2:3], v[0:1], v1
	v_mul_lo_u32 v2, v0, v1
	v_mul_hi_u32 v2, v0, v1
	v_mul_hi_i32 v2, v0, v1
	v_ldexp_f32 v2, v0, v1
	v_readlane_b32 s2, v0, s1
	v_writelane_b32 v2, s0, 1
	v_bcnt_u32_b32 v2, v0, v1
	v_mbcnt_lo_u32_b32 v2, v0, v1
	v_mbcnt_hi_u32_b32 v2, v0, v1
	v_lshlrev_b64 v[2:3], v0, v[1:2]
	v_lshrrev_b64 v[2:3], v0, v[1:2]
	v_ashrrev_i64 v[2:3], v0, v[1:2]
	v_bfm_b32 v2, v0, v1
	v_cvt_pknorm_i16_f32 v2, v0, v1
	v_cvt_pknorm_u16_f32 v2, v0, v1
	v_cvt_pkrtz_f16_f32 v2, v0, v1
	v_cvt_pk_u16_u32 v2, v0, v1
	v_cvt_pk_i16_i32 v2, v0, v1
	v_cvt_pknorm_i16_f16 v2, v0, v1
	v_cvt_pknorm_u16_f16 v2, v0, v1
	v_add_i32 v2, v0, v1
	v_sub_i32 v2, v0, v1
	v_add_i16 v2, v0, v1
	v_sub_i16 v2, v0, v1
	v_pack_b32_f16 v2, v0, v1
	v_pk_mad_i16 v2, v0, v1, v2 op_sel_hi:[0,0,0]
	v_pk_mul_lo_u16 v2, v0, v1 op_sel_hi:[0,0]
	v_pk_add_i16 v2, v0, v1 op_sel_hi:[0,0]
	v_pk_sub_i16 v2, v0, v1 op_sel_hi:[0,0]
	v_pk_lshlrev_b16 v2, v0, v1 op_sel_hi:[0,0]
	v_pk_lshrrev_b16 v2, v0, v1 op_sel_hi:[0,0]
	v_pk_ashrrev_i16 v2, v0, v1 op_sel_hi:[0,0]
	v_pk_max_i16 v2, v0, v1 op_sel_hi:[0,0]
	v_pk_min_i16 v2, v0, v1 op_sel_hi:[0,0]
	v_pk_mad_u16 v2, v0, v1, v2 op_sel_hi:[0,0,0]
	v_pk_add_u16 v2, v0, v1 op_sel_hi:[0,0]
	v_pk_sub_u16 v2, v0, v1 op_sel_hi:[0,0]
	v_pk_max_u16 v2, v0, v1 op_sel_hi:[0,0]
	v_pk_min_u16 v2, v0, v1 op_sel_hi:[0,0]
	v_pk_fma_f16 v2, v0, v1, v2 op_sel_hi:[0,0,0]
	v_pk_add_f16 v2, v0, v1 op_sel_hi:[0,0]
	v_pk_mul_f16 v2, v0, v1 op_sel_hi:[0,0]
	v_pk_min_f16 v2, v0, v1 op_sel_hi:[0,0]
	v_pk_max_f16 v2, v0, v1 op_sel_hi:[0,0]
	v_mad_mix_f32 v2, v0, v1, v2
	v_mad_mixlo_f16 v2, v0, v1, v2
	v_mad_mixhi_f16 v2, v0, v1, v2
	ds_mskor_rtn_b32 v2, v1, v4, v3
	ds_wrxchg2_rtn_b32 v[2:3], v1, v4, v3
	ds_wrxchg2st64_rtn_b32 v[2:3], v1, v4, v3
	ds_cmpst_rtn_b32 v2, v1, v4, v3
	ds_cmpst_rtn_f32 v2, v1, v4, v3
	ds_wrap_rtn_b32 v2, v1, v4, v3
	ds_mskor_rtn_b64 v[2:3], v1, v[4:5], v[3:4]
	ds_wrxchg2_rtn_b64 v[2:5], v1, v[4:5], v[3:4]
	ds_wrxchg2st64_rtn_b64 v[2:5], v1, v[4:5], v[3:4]
	ds_cmpst_rtn_b64 v[2:3], v1, v[4:5], v[3:4]
	ds_cmpst_rtn_f64 v[2:3], v1, v[4:5], v[3:4]
	global_load_ubyte v2, v[1:2], off
	global_load_sbyte v2, v[1:2], off
	global_load_ushort v2, v[1:2], off
	global_load_sshort v2, v[1:2], off
	global_load_dword v2, v[1:2], off
	global_load_dwordx2 v[2:3], v[1:2], off
	global_load_dwordx3 v[2:4], v[1:2], off
	global_load_dwordx4 v[2:5], v[1:2], off
	global_store_byte v[1:2], v4, off
	global_store_byte_d16_hi v[1:2], v4, off
	global_store_short v[1:2], v4, off
	global_store_short_d16_hi v[1:2], v4, off
	global_store_dword v[1:2], v4, off
	global_store_dwordx2 v[1:2], v[4:5], off
	global_store_dwordx3 v[1:2], v[4:6], off
	global_store_dwordx4 v[1:2], v[4:7], off
	global_load_ubyte_d16 v2, v[1:2], off
	global_load_ubyte_d16_hi v2, v[1:2], off
	global_load_sbyte_d16 v2, v[1:2], off
	global_load_sbyte_d16_hi v2, v[1:2], off
	global_load_short_d16 v2, v[1:2], off
	global_load_short_d16_hi v2, v[1:2], off
	global_atomic_swap v[1:2], v4, off
	global_atomic_cmpswap v[1:2], v[4:5], off
	global_atomic_add v[1:2], v4, off
	global_atomic_sub v[1:2], v4, off
	global_atomic_smin v[1:2], v4, off
	global_atomic_umin v[1:2], v4, off
	global_atomic_smax v[1:2], v4, off
	global_atomic_umax v[1:2], v4, off
	global_atomic_and v[1:2], v4, off
	global_atomic_or v[1:2], v4, off
	global_atomic_xor v[1:2], v4, off
	global_atomic_inc v[1:2], v4, off
	global_atomic_dec v[1:2], v4, off
	global_atomic_swap_x2 v[1:2], v[4:5], off
	global_atomic_cmpswap_x2 v[1:2], v[4:7], off
	global_atomic_add_x2 v[1:2], v[4:5], off
	global_atomic_sub_x2 v[1:2], v[4:5], off
	global_atomic_smin_x2 v[1:2], v[4:5], off
	global_atomic_umin_x2 v[1:2], v[4:5], off
	global_atomic_smax_x2 v[1:2], v[4:5], off
	global_atomic_umax_x2 v[1:2], v[4:5], off
	global_atomic_and_x2 v[1:2], v[4:5], off
	global_atomic_or_x2 v[1:2], v[4:5], off
	global_atomic_xor_x2 v[1:2], v[4:5], off
	global_atomic_inc_x2 v[1:2], v[4:5], off
	global_atomic_dec_x2 v[1:2], v[4:5], off
	scratch_load_ubyte v2, v1, off
	scratch_load_sbyte v2, v1, off
	scratch_load_ushort v2, v1, off
	scratch_load_sshort v2, v1, off
	scratch_load_dword v2, v1, off
	scratch_load_dwordx2 v[2:3], v1, off
	scratch_load_dwordx3 v[2:4], v1, off
	scratch_load_dwordx4 v[2:5], v1, off
	scratch_store_byte v1, v4, off
	scratch_store_byte_d16_hi v1, v4, off
	scratch_store_short v1, v4, off
	scratch_store_short_d16_hi v1, v4, off
	scratch_store_dword v1, v4, off
	scratch_store_dwordx2 v1, v[4:5], off
	scratch_store_dwordx3 v1, v[4:6], off
	scratch_store_dwordx4 v1, v[4:7], off
	scratch_load_ubyte_d16 v2, v1, off
	scratch_load_ubyte_d16_hi v2, v1, off
	scratch_load_sbyte_d16 v2, v1, off
	scratch_load_sbyte_d16_hi v2, v1, off
	scratch_load_short_d16 v2, v1, off
	scratch_load_short_d16_hi v2, v1, off
	buffer_load_ubyte v4, v1, s[4:7], s3 offen
	buffer_load_sbyte v4, v1, s[4:7], s3 offen
	buffer_load_ushort v4, v1, s[4:7], s3 offen
	buffer_load_sshort v4, v1, s[4:7], s3 offen
	buffer_load_dword v4, v1, s[4:7], s3 offen
	buffer_load_dwordx2 v[4:5], v1, s[4:7], s3 offen
	buffer_load_dwordx3 v[4:6], v1, s[4:7], s3 offen
	buffer_load_dwordx4 v[4:7], v1, s[4:7], s3 offen
	buffer_store_byte v4, v1, s[4:7], s3 offen
	buffer_store_byte_d16_hi v4, v1, s[4:7], s3 offen
	buffer_store_short v4, v1, s[4:7], s3 offen
	buffer_store_short_d16_hi v4, v1, s[4:7], s3 offen
	buffer_store_dword v4, v1, s[4:7], s3 offen
	buffer_store_dwordx2 v[4:5], v1, s[4:7], s3 offen
	buffer_store_dwordx3 v[4:6], v1, s[4:7], s3 offen
	buffer_store_dwordx4 v[4:7], v1, s[4:7], s3 offen
	buffer_load_ubyte_d16 v4, v1, s[4:7], s3 offen
	buffer_load_ubyte_d16_hi v4, v1, s[4:7], s3 offen
	buffer_load_sbyte_d16 v4, v1, s[4:7], s3 offen
	buffer_load_sbyte_d16_hi v4, v1, s[4:7], s3 offen
	buffer_load_short_d16 v4, v1, s[4:7], s3 offen
	buffer_load_short_d16_hi v4, v1, s[4:7], s3 offen
	buffer_atomic_swap v4, v1, s[4:7], s3 offen
	buffer_atomic_cmpswap v[4:5], v1, s[4:7], s3 offen
	buffer_atomic_add v4, v1, s[4:7], s3 offen
	buffer_atomic_sub v4, v1, s[4:7], s3 offen
	buffer_atomic_smin v4, v1, s[4:7], s3 offen
	buffer_atomic_umin v4, v1, s[4:7], s3 offen
	buffer_atomic_smax v4, v1, s[4:7], s3 offen
	buffer_atomic_umax v4, v1, s[4:7], s3 offen
	buffer_atomic_and v4, v1, s[4:7], s3 offen
	buffer_atomic_or v4, v1, s[4:7], s3 offen
	buffer_atomic_xor v4, v1, s[4:7], s3 offen
	buffer_atomic_inc v4, v1, s[4:7], s3 offen
	buffer_atomic_dec v4, v1, s[4:7], s3 offen
	buffer_atomic_swap_x2 v[4:5], v1, s[4:7], s3 offen
	buffer_atomic_cmpswap_x2 v[4:7], v1, s[4:7], s3 offen
	buffer_atomic_add_x2 v[4:5], v1, s[4:7], s3 offen
	buffer_atomic_sub_x2 v[4:5], v1, s[4:7], s3 offen
	buffer_atomic_smin_x2 v[4:5], v1, s[4:7], s3 offen
	buffer_atomic_umin_x2 v[4:5], v1, s[4:7], s3 offen
	buffer_atomic_smax_x2 v[4:5], v1, s[4:7], s3 offen
	buffer_atomic_umax_x2 v[4:5], v1, s[4:7], s3 offen
	buffer_atomic_and_x2 v[4:5], v1, s[4:7], s3 offen
	buffer_atomic_or_x2 v[4:5], v1, s[4:7], s3 offen
	buffer_atomic_xor_x2 v[4:5], v1, s[4:7], s3 offen
	buffer_atomic_inc_x2 v[4:5], v1, s[4:7], s3 offen
	buffer_atomic_dec_x2 v[4:5], v1, s[4:7], s3 offen
	ds_add_u32 v1, v4
	ds_sub_u32 v1, v4
	ds_rsub_u32 v1, v4
	ds_inc_u32 v1, v4
	ds_dec_u32 v1, v4
	ds_min_i32 v1, v4
	ds_max_i32 v1, v4
	ds_min_u32 v1, v4
	ds_max_u32 v1, v4
	ds_and_b32 v1, v4
	ds_or_b32 v1, v4
	ds_xor_b32 v1, v4
	ds_mskor_b32 v1, v4, v3
	ds_write_b32 v1, v4
	ds_write2_b32 v1, v4, v3
	ds_write2st64_b32 v1, v4, v3
	ds_cmpst_b32 v1, v4, v3
	ds_cmpst_f32 v1, v4, v3
	ds_min_f32 v1, v4
	ds_max_f32 v1, v4
	ds_add_f32 v1, v4
	ds_write_b8 v1, v4
	ds_write_b16 v1, v4
	ds_add_rtn_u32 v2, v1, v4
	ds_sub_rtn_u32 v2, v1, v4
	ds_rsub_rtn_u32 v2, v1, v4
	ds_inc_rtn_u32 v2, v1, v4
	ds_dec_rtn_u32 v2, v1, v4
	ds_min_rtn_i32 v2, v1, v4
	ds_max_rtn_i32 v2, v1, v4
	ds_min_rtn_u32 v2, v1, v4
	ds_max_rtn_u32 v2, v1, v4
	ds_and_rtn_b32 v2, v1, v4
	ds_or_rtn_b32 v2, v1, v4
	ds_xor_rtn_b32 v2, v1, v4
	ds_mskor_rtn_b32 v2, v1, v4, v3
	ds_wrxchg_rtn_b32 v2, v1, v4
	ds_wrxchg2_rtn_b32 v[2:3], v1, v4, v3
	ds_wrxchg2st64_rtn_b32 v[2:3], v1, v4, v3
	ds_cmpst_rtn_b32 v2, v1, v4, v3
	ds_cmpst_rtn_f32 v2, v1, v4, v3
	ds_min_rtn_f32 v2, v1, v4
	ds_max_rtn_f32 v2, v1, v4
	ds_wrap_rtn_b32 v2, v1, v4, v3
	ds_add_rtn_f32 v2, v1, v4
	ds_read_b32 v2, v1
	ds_read2_b32 v[2:3], v1
	ds_read2st64_b32 v[2:3], v1
	ds_read_i8 v2, v1
	ds_read_u8 v2, v1
	ds_read_i16 v2, v1
	ds_read_u16 v2, v1
	ds_swizzle_b32 v2, v1
	ds_permute_b32 v2, v1, v4
	ds_bpermute_b32 v2, v1, v4
	ds_add_u64 v1, v[4:5]
	ds_sub_u64 v1, v[4:5]
	ds_rsub_u64 v1, v[4:5]
	ds_inc_u64 v1, v[4:5]
	ds_dec_u64 v1, v[4:5]
	ds_min_i64 v1, v[4:5]
	ds_max_i64 v1, v[4:5]
	ds_min_u64 v1, v[4:5]
	ds_max_u64 v1, v[4:5]
	ds_and_b64 v1, v[4:5]
	ds_or_b64 v1, v[4:5]
	ds_xor_b64 v1, v[4:5]
	ds_mskor_b64 v1, v[4:5], v[3:4]
	ds_write_b64 v1, v[4:5]
	ds_write2_b64 v1, v[4:5], v[3:4]
	ds_write2st64_b64 v1, v[4:5], v[3:4]
	ds_cmpst_b64 v1, v[4:5], v[3:4]
	ds_cmpst_f64 v1, v[4:5], v[3:4]
	ds_min_f64 v1, v[4:5]
	ds_max_f64 v1, v[4:5]
	ds_write_b8_d16_hi v1, v4
	ds_write_b16_d16_hi v1, v4
	ds_read_u8_d16 v2, v1
	ds_read_u8_d16_hi v2, v1
	ds_read_i8_d16 v2, v1
	ds_read_i8_d16_hi v2, v1
	ds_read_u16_d16 v2, v1
	ds_read_u16_d16_hi v2, v1
	ds_add_rtn_u64 v[2:3], v1, v[4:5]
	ds_sub_rtn_u64 v[2:3], v1, v[4:5]
	ds_rsub_rtn_u64 v[2:3], v1, v[4:5]
	ds_inc_rtn_u64 v[2:3], v1, v[4:5]
	ds_dec_rtn_u64 v[2:3], v1, v[4:5]
	ds_min_rtn_i64 v[2:3], v1, v[4:5]
	ds_max_rtn_i64 v[2:3], v1, v[4:5]
	ds_min_rtn_u64 v[2:3], v1, v[4:5]
	ds_max_rtn_u64 v[2:3], v1, v[4:5]
	ds_and_rtn_b64 v[2:3], v1, v[4:5]
	ds_or_rtn_b64 v[2:3], v1, v[4:5]
	ds_xor_rtn_b64 v[2:3], v1, v[4:5]
	ds_mskor_rtn_b64 v[2:3], v1, v[4:5], v[3:4]
	ds_wrxchg_rtn_b64 v[2:3], v1, v[4:5]
	ds_wrxchg2_rtn_b64 v[2:5], v1, v[4:5], v[3:4]
	ds_wrxchg2st64_rtn_b64 v[2:5], v1, v[4:5], v[3:4]
	ds_cmpst_rtn_b64 v[2:3], v1, v[4:5], v[3:4]
	ds_cmpst_rtn_f64 v[2:3], v1, v[4:5], v[3:4]
	ds_min_rtn_f64 v[2:3], v1, v[4:5]
	ds_max_rtn_f64 v[2:3], v1, v[4:5]
	ds_read_b64 v[2:3], v1
	ds_read2_b64 v[2:5], v1
	ds_read2st64_b64 v[2:5], v1
	ds_write_b96 v1, v[4:6]
	ds_write_b128 v1, v[4:7]
	ds_read_b96 v[2:4], v1
	ds_read_b128 v[2:5], v1
	flat_load_ubyte v2, v[1:2]
	flat_load_sbyte v2, v[1:2]
	flat_load_ushort v2, v[1:2]
	flat_load_sshort v2, v[1:2]
	flat_load_dword v2, v[1:2]
	flat_load_dwordx2 v[2:3], v[1:2]
	flat_load_dwordx3 v[2:4], v[1:2]
	flat_load_dwordx4 v[2:5], v[1:2]
	flat_store_byte v[1:2], v4
	flat_store_byte_d16_hi v[1:2], v4
	flat_store_short v[1:2], v4
	flat_store_short_d16_hi v[1:2], v4
	flat_store_dword v[1:2], v4
	flat_store_dwordx2 v[1:2], v[4:5]
	flat_store_dwordx3 v[1:2], v[4:6]
	flat_store_dwordx4 v[1:2], v[4:7]
	flat_load_ubyte_d16 v2, v[1:2]
	flat_load_ubyte_d16_hi v2, v[1:2]
	flat_load_sbyte_d16 v2, v[1:2]
	flat_load_sbyte_d16_hi v2, v[1:2]
	flat_load_short_d16 v2, v[1:2]
	flat_load_short_d16_hi v2, v[1:2]
	flat_atomic_swap v[1:2], v4
	flat_atomic_cmpswap v[1:2], v[4:5]
	flat_atomic_add v[1:2], v4
	flat_atomic_sub v[1:2], v4
	flat_atomic_smin v[1:2], v4
	flat_atomic_umin v[1:2], v4
	flat_atomic_smax v[1:2], v4
	flat_atomic_umax v[1:2], v4
	flat_atomic_and v[1:2], v4
	flat_atomic_or v[1:2], v4
	flat_atomic_xor v[1:2], v4
	flat_atomic_inc v[1:2], v4
	flat_atomic_dec v[1:2], v4
	flat_atomic_swap_x2 v[1:2], v[4:5]
	flat_atomic_cmpswap_x2 v[1:2], v[4:7]
	flat_atomic_add_x2 v[1:2], v[4:5]
	flat_atomic_sub_x2 v[1:2], v[4:5]
	flat_atomic_smin_x2 v[1:2], v[4:5]
	flat_atomic_umin_x2 v[1:2], v[4:5]
	flat_atomic_smax_x2 v[1:2], v[4:5]
	flat_atomic_umax_x2 v[1:2], v[4:5]
	flat_atomic_and_x2 v[1:2], v[4:5]
	flat_atomic_or_x2 v[1:2], v[4:5]
	flat_atomic_xor_x2 v[1:2], v[4:5]
	flat_atomic_inc_x2 v[1:2], v[4:5]
	flat_atomic_dec_x2 v[1:2], v[4:5]
	  s_add_u32 s2, s0, s1
	  s_sub_u32 s2, s0, s1
	  s_add_i32 s2, s0, s1
	  s_sub_i32 s2, s0, s1
	  s_addc_u32 s2, s0, s1
	  s_subb_u32 s2, s0, s1
	  s_min_i32 s2, s0, s1
	  s_min_u32 s2, s0, s1
	  s_max_i32 s2, s0, s1
	  s_max_u32 s2, s0, s1
	  s_cselect_b32 s2, s0, s1
	  s_cselect_b64 s[2:3], s[0:1], s[0:1]
	  s_and_b32 s2, s0, s1
	  s_and_b64 s[2:3], s[0:1], s[0:1]
	  s_or_b32 s2, s0, s1
	  s_or_b64 s[2:3], s[0:1], s[0:1]
	  s_xor_b32 s2, s0, s1
	  s_xor_b64 s[2:3], s[0:1], s[0:1]
	  s_andn2_b32 s2, s0, s1
	  s_andn2_b64 s[2:3], s[0:1], s[0:1]
	  s_orn2_b32 s2, s0, s1
	  s_orn2_b64 s[2:3], s[0:1], s[0:1]
	  s_nand_b32 s2, s0, s1
	  s_nand_b64 s[2:3], s[0:1], s[0:1]
	  s_nor_b32 s2, s0, s1
	  s_nor_b64 s[2:3], s[0:1], s[0:1]
	  s_xnor_b32 s2, s0, s1
	  s_xnor_b64 s[2:3], s[0:1], s[0:1]
	  s_lshl_b32 s2, s0, s1
	  s_lshl_b64 s[2:3], s[0:1], s1
	  s_lshr_b32 s2, s0, s1
	  s_lshr_b64 s[2:3], s[0:1], s1
	  s_ashr_i32 s2, s0, s1
	  s_ashr_i64 s[2:3], s[0:1], s1
	  s_bfm_b32 s2, s0, s1
	  s_bfm_b64 s[2:3], s0, s1
	  s_mul_i32 s2, s0, s1
	  s_bfe_u32 s2, s0, s1
	  s_bfe_i32 s2, s0, s1
	  s_bfe_u64 s[2:3], s[0:1], s1
	  s_bfe_i64 s[2:3], s[0:1], s1
	  s_absdiff_i32 s2, s0, s1
	  s_mul_hi_u32 s2, s0, s1
	  s_mul_hi_i32 s2, s0, s1
	  s_lshl1_add_u32 s2, s0, s1
	  s_lshl2_add_u32 s2, s0, s1
	  s_lshl3_add_u32 s2, s0, s1
	  s_lshl4_add_u32 s2, s0, s1
	  s_pack_ll_b32_b16 s2, s0, s1
	  s_pack_lh_b32_b16 s2, s0, s1
	  s_pack_hh_b32_b16 s2, s0, s1
	  s_movk_i32 s2, 0x100
	  s_cmovk_i32 s2, 0x100
	  s_cmpk_eq_i32 s2, 0x100
	  s_cmpk_lg_i32 s2, 0x100
	  s_cmpk_gt_i32 s2, 0x100
	  s_cmpk_ge_i32 s2, 0x100
	  s_cmpk_lt_i32 s2, 0x100
	  s_cmpk_le_i32 s2, 0x100
	  s_cmpk_eq_u32 s2, 0x100
	  s_cmpk_lg_u32 s2, 0x100
	  s_cmpk_gt_u32 s2, 0x100
	  s_cmpk_ge_u32 s2, 0x100
	  s_cmpk_lt_u32 s2, 0x100
	  s_cmpk_le_u32 s2, 0x100
	  s_addk_i32 s2, 0x100
	  s_mulk_i32 s2, 0x100
	  s_getreg_b32 s2, hwreg(0, 4, 1)
	  s_setreg_b32 hwreg(0, 4, 1), s2
	  s_call_b64 s[2:3], 256
	  s_mov_b64 s[2:3], s[0:1]
	  s_cmp_gt_i32 s0, s1
	  s_branch 256
	  s_movk_i32 s2, 0x10
	  s_cmovk_i32 s2, 0x10
	  s_cmpk_eq_i32 s2, 0x10
	  s_cmpk_lg_i32 s2, 0x10
	  s_cmpk_gt_i32 s2, 0x10
	  s_cmpk_ge_i32 s2, 0x10
	  s_cmpk_lt_i32 s2, 0x10
	  s_cmpk_le_i32 s2, 0x10
	  s_cmpk_eq_u32 s2, 0x10
	  s_cmpk_lg_u32 s2, 0x10
	  s_cmpk_gt_u32 s2, 0x10
	  s_cmpk_ge_u32 s2, 0x10
	  s_cmpk_lt_u32 s2, 0x10
	  s_cmpk_le_u32 s2, 0x10
	  s_addk_i32 s2, 0x10
	  s_mulk_i32 s2, 0x10
	  s_getreg_b32 s2, hwreg(HW_REG_TBA_LO, 0, 1)
	  s_setreg_b32 hwreg(HW_REG_TBA_LO, 0, 1), s2
	  s_call_b64 s[2:3], 16
	  s_mov_b32 s2, s16
	  s_cmp_gt_i32 s16, s0
	  s_branch 16
	  s_mov_b32 s2, s4
	  s_mov_b64 s[2:3], s[4:5]
	  s_cmov_b32 s2, s4
	  s_cmov_b64 s[2:3], s[4:5]
	  s_not_b32 s2, s4
	  s_not_b64 s[2:3], s[4:5]
	  s_wqm_b32 s2, s4
	  s_wqm_b64 s[2:3], s[4:5]
	  s_brev_b32 s2, s4
	  s_brev_b64 s[2:3], s[4:5]
	  s_bcnt0_i32_b32 s2, s4
	  s_bcnt0_i32_b64 s2, s[4:5]
	  s_bcnt1_i32_b32 s2, s4
	  s_bcnt1_i32_b64 s2, s[4:5]
	  s_ff0_i32_b32 s2, s4
	  s_ff0_i32_b64 s2, s[4:5]
	  s_ff1_i32_b32 s2, s4
	  s_ff1_i32_b64 s2, s[4:5]
	  s_flbit_i32_b32 s2, s4
	  s_flbit_i32_b64 s2, s[4:5]
	  s_flbit_i32 s2, s4
	  s_flbit_i32_i64 s2, s[4:5]
	  s_sext_i32_i8 s2, s4
	  s_sext_i32_i16 s2, s4
	  s_bitset0_b32 s2, s4
	  s_bitset0_b64 s[2:3], s4
	  s_bitset1_b32 s2, s4
	  s_bitset1_b64 s[2:3], s4
	  s_getpc_b64 s[2:3]
	  s_setpc_b64 s[4:5]
	  s_swappc_b64 s[2:3], s[4:5]
	  s_and_saveexec_b64 s[2:3], s[4:5]
	  s_or_saveexec_b64 s[2:3], s[4:5]
	  s_xor_saveexec_b64 s[2:3], s[4:5]
	  s_andn2_saveexec_b64 s[2:3], s[4:5]
	  s_orn2_saveexec_b64 s[2:3], s[4:5]
	  s_nand_saveexec_b64 s[2:3], s[4:5]
	  s_nor_saveexec_b64 s[2:3], s[4:5]
	  s_xnor_saveexec_b64 s[2:3], s[4:5]
	  s_quadmask_b32 s2, s4
	  s_quadmask_b64 s[2:3], s[4:5]
	  s_movrels_b32 s2, s4
	  s_movrels_b64 s[2:3], s[4:5]
	  s_movreld_b32 s2, s4
	  s_movreld_b64 s[2:3], s[4:5]
	  s_abs_i32 s2, s4
	  s_set_gpr_idx_idx s4
	  s_andn1_saveexec_b64 s[2:3], s[4:5]
	  s_orn1_saveexec_b64 s[2:3], s[4:5]
	  s_andn1_wrexec_b64 s[2:3], s[4:5]
	  s_andn2_wrexec_b64 s[2:3], s[4:5]
	  s_bitreplicate_b64_b32 s[2:3], s4
	  s_cmp_eq_i32 s0, s1
	  s_cmp_lg_i32 s0, s1
	  s_cmp_gt_i32 s0, s1
	  s_cmp_ge_i32 s0, s1
	  s_cmp_lt_i32 s0, s1
	  s_cmp_le_i32 s0, s1
	  s_cmp_eq_u32 s0, s1
	  s_cmp_lg_u32 s0, s1
	  s_cmp_gt_u32 s0, s1
	  s_cmp_ge_u32 s0, s1
	  s_cmp_lt_u32 s0, s1
	  s_cmp_le_u32 s0, s1
	  s_bitcmp0_b32 s0, s1
	  s_bitcmp1_b32 s0, s1
	  s_bitcmp0_b64 s[0:1], s1
	  s_bitcmp1_b64 s[0:1], s1
	  s_cmp_eq_u64 s[0:1], s[0:1]
	  s_cmp_lg_u64 s[0:1], s[0:1]
	  s_nop 0
	  s_endpgm
	  s_branch 0
	  s_wakeup
	  s_cbranch_scc0 0
	  s_cbranch_scc1 0
	  s_cbranch_vccz 0
	  s_cbranch_vccnz 0
	  s_cbranch_execz 0
	  s_cbranch_execnz 0
	  s_barrier
	  s_setkill 0
	  s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	  s_sethalt 0
	  s_sleep 0
	  s_setprio 0
	  s_sendmsg sendmsg(0, 0, 0)
	  s_sendmsghalt sendmsg(0, 0, 0)
	  s_trap 0
	  s_icache_inv
	  s_incperflevel 0
	  s_decperflevel 0
	  s_cbranch_cdbgsys 0
	  s_cbranch_cdbguser 0
	  s_cbranch_cdbgsys_or_user 0
	  s_cbranch_cdbgsys_and_user 0
	  s_endpgm_saved
	  s_set_gpr_idx_off
	  s_set_gpr_idx_mode gpr_idx()
	  v_add_f32_e32 v2, v0, v1
	  v_subrev_f32_e32 v2, v0, v1
	  v_mul_legacy_f32_e32 v2, v0, v1
	  v_mul_f32_e32 v2, v0, v1
	  v_mul_i32_i24_e32 v2, v0, v1
	  v_mul_hi_i32_i24_e32 v2, v0, v1
	  v_mul_u32_u24_e32 v2, v0, v1
	  v_mul_hi_u32_u24_e32 v2, v0, v1
	  v_min_f32_e32 v2, v0, v1
	  v_max_f32_e32 v2, v0, v1
	  v_min_i32_e32 v2, v0, v1
	  v_max_i32_e32 v2, v0, v1
	  v_min_u32_e32 v2, v0, v1
	  v_max_u32_e32 v2, v0, v1
	  v_lshrrev_b32_e32 v2, v0, v1
	  v_ashrrev_i32_e32 v2, v0, v1
	  v_lshlrev_b32_e32 v2, v0, v1
	  v_and_b32_e32 v2, v0, v1
	  v_or_b32_e32 v2, v0, v1
	  v_xor_b32_e32 v2, v0, v1
	  v_mac_f32_e32 v2, v0, v1
	  v_add_co_u32_e32 v2, vcc, v0, v1
	  v_sub_co_u32_e32 v2, vcc, v0, v1
	  v_subrev_co_u32_e32 v2, vcc, v0, v1
	  v_addc_co_u32_e32 v2, vcc, v0, v1, vcc
	  v_subb_co_u32_e32 v2, vcc, v0, v1, vcc
	  v_subbrev_co_u32_e32 v2, vcc, v0, v1, vcc
	  v_add_f16_e32 v2, v0, v1
	  v_sub_f16_e32 v2, v0, v1
	  v_subrev_f16_e32 v2, v0, v1
	  v_mul_f16_e32 v2, v0, v1
	  v_mac_f16_e32 v2, v0, v1
	  v_add_u16_e32 v2, v0, v1
	  v_sub_u16_e32 v2, v0, v1
	  v_subrev_u16_e32 v2, v0, v1
	  v_mul_lo_u16_e32 v2, v0, v1
	  v_lshlrev_b16_e32 v2, v0, v1
	  v_lshrrev_b16_e32 v2, v0, v1
	  v_ashrrev_i16_e32 v2, v0, v1
	  v_max_f16_e32 v2, v0, v1
	  v_min_f16_e32 v2, v0, v1
	  v_max_u16_e32 v2, v0, v1
	  v_max_i16_e32 v2, v0, v1
	  v_min_u16_e32 v2, v0, v1
	  v_min_i16_e32 v2, v0, v1
	  v_ldexp_f16_e32 v2, v0, v1
	  v_add_u32_e32 v2, v0, v1
	  v_sub_u32_e32 v2, v0, v1
	  v_subrev_u32_e32 v2, v0, v1
	  v_mov_b32_e32 v2, v0
	  v_cmp_class_f32_e32 vcc, v0, v1
	  v_cmpx_class_f32_e32 vcc, v0, v1
	  v_cmp_class_f64_e32 vcc, v[0:1], v1
	  v_cmpx_class_f64_e32 vcc, v[0:1], v1
	  v_cmp_class_f16_e32 vcc, v0, v1
	  v_cmpx_class_f16_e32 vcc, v0, v1
	  v_cmp_f_f16_e32 vcc, v0, v1
	  v_cmp_lt_f16_e32 vcc, v0, v1
	  v_cmp_eq_f16_e32 vcc, v0, v1
	  v_cmp_le_f16_e32 vcc, v0, v1
	  v_cmp_gt_f16_e32 vcc, v0, v1
	  v_cmp_lg_f16_e32 vcc, v0, v1
	  v_cmp_ge_f16_e32 vcc, v0, v1
	  v_cmp_o_f16_e32 vcc, v0, v1
	  v_cmp_u_f16_e32 vcc, v0, v1
	  v_cmp_nge_f16_e32 vcc, v0, v1
	  v_cmp_nlg_f16_e32 vcc, v0, v1
	  v_cmp_ngt_f16_e32 vcc, v0, v1
	  v_cmp_nle_f16_e32 vcc, v0, v1
	  v_cmp_neq_f16_e32 vcc, v0, v1
	  v_cmp_nlt_f16_e32 vcc, v0, v1
	  v_cmp_tru_f16_e32 vcc, v0, v1
	  v_cmpx_f_f16_e32 vcc, v0, v1
	  v_cmpx_lt_f16_e32 vcc, v0, v1
	  v_cmpx_eq_f16_e32 vcc, v0, v1
	  v_cmpx_le_f16_e32 vcc, v0, v1
	  v_cmpx_gt_f16_e32 vcc, v0, v1
	  v_cmpx_lg_f16_e32 vcc, v0, v1
	  v_cmpx_ge_f16_e32 vcc, v0, v1
	  v_cmpx_o_f16_e32 vcc, v0, v1
	  v_cmpx_u_f16_e32 vcc, v0, v1
	  v_cmpx_nge_f16_e32 vcc, v0, v1
	  v_cmpx_nlg_f16_e32 vcc, v0, v1
	  v_cmpx_ngt_f16_e32 vcc, v0, v1
	  v_cmpx_nle_f16_e32 vcc, v0, v1
	  v_cmpx_neq_f16_e32 vcc, v0, v1
	  v_cmpx_nlt_f16_e32 vcc, v0, v1
	  v_cmpx_tru_f16_e32 vcc, v0, v1
	  v_cmp_f_f32_e32 vcc, v0, v1
	  v_cmp_lt_f32_e32 vcc, v0, v1
	  v_cmp_eq_f32_e32 vcc, v0, v1
	  v_cmp_le_f32_e32 vcc, v0, v1
	  v_cmp_gt_f32_e32 vcc, v0, v1
	  v_cmp_lg_f32_e32 vcc, v0, v1
	  v_cmp_ge_f32_e32 vcc, v0, v1
	  v_cmp_o_f32_e32 vcc, v0, v1
	  v_cmp_u_f32_e32 vcc, v0, v1
	  v_cmp_nge_f32_e32 vcc, v0, v1
	  v_cmp_nlg_f32_e32 vcc, v0, v1
	  v_cmp_ngt_f32_e32 vcc, v0, v1
	  v_cmp_nle_f32_e32 vcc, v0, v1
	  v_cmp_neq_f32_e32 vcc, v0, v1
	  v_cmp_nlt_f32_e32 vcc, v0, v1
	  v_cmp_tru_f32_e32 vcc, v0, v1
	  v_cmpx_f_f32_e32 vcc, v0, v1
	  v_cmpx_lt_f32_e32 vcc, v0, v1
	  v_cmpx_eq_f32_e32 vcc, v0, v1
	  v_cmpx_le_f32_e32 vcc, v0, v1
	  v_cmpx_gt_f32_e32 vcc, v0, v1
	  v_cmpx_lg_f32_e32 vcc, v0, v1
	  v_cmpx_ge_f32_e32 vcc, v0, v1
	  v_cmpx_o_f32_e32 vcc, v0, v1
	  v_cmpx_u_f32_e32 vcc, v0, v1
	  v_cmpx_nge_f32_e32 vcc, v0, v1
	  v_cmpx_nlg_f32_e32 vcc, v0, v1
	  v_cmpx_ngt_f32_e32 vcc, v0, v1
	  v_cmpx_nle_f32_e32 vcc, v0, v1
	  v_cmpx_neq_f32_e32 vcc, v0, v1
	  v_cmpx_nlt_f32_e32 vcc, v0, v1
	  v_cmpx_tru_f32_e32 vcc, v0, v1
	  v_cmp_f_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_lt_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_eq_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_le_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_gt_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_lg_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_ge_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_o_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_u_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_nge_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_nlg_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_ngt_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_nle_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_neq_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_nlt_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_tru_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_f_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_lt_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_eq_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_le_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_gt_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_lg_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_ge_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_o_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_u_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_nge_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_nlg_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_ngt_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_nle_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_neq_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_nlt_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_tru_f64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_f_i16_e32 vcc, v0, v1
	  v_cmp_lt_i16_e32 vcc, v0, v1
	  v_cmp_eq_i16_e32 vcc, v0, v1
	  v_cmp_le_i16_e32 vcc, v0, v1
	  v_cmp_gt_i16_e32 vcc, v0, v1
	  v_cmp_ne_i16_e32 vcc, v0, v1
	  v_cmp_ge_i16_e32 vcc, v0, v1
	  v_cmp_t_i16_e32 vcc, v0, v1
	  v_cmp_f_u16_e32 vcc, v0, v1
	  v_cmp_lt_u16_e32 vcc, v0, v1
	  v_cmp_eq_u16_e32 vcc, v0, v1
	  v_cmp_le_u16_e32 vcc, v0, v1
	  v_cmp_gt_u16_e32 vcc, v0, v1
	  v_cmp_ne_u16_e32 vcc, v0, v1
	  v_cmp_ge_u16_e32 vcc, v0, v1
	  v_cmp_t_u16_e32 vcc, v0, v1
	  v_cmpx_f_i16_e32 vcc, v0, v1
	  v_cmpx_lt_i16_e32 vcc, v0, v1
	  v_cmpx_eq_i16_e32 vcc, v0, v1
	  v_cmpx_le_i16_e32 vcc, v0, v1
	  v_cmpx_gt_i16_e32 vcc, v0, v1
	  v_cmpx_ne_i16_e32 vcc, v0, v1
	  v_cmpx_ge_i16_e32 vcc, v0, v1
	  v_cmpx_t_i16_e32 vcc, v0, v1
	  v_cmpx_f_u16_e32 vcc, v0, v1
	  v_cmpx_lt_u16_e32 vcc, v0, v1
	  v_cmpx_eq_u16_e32 vcc, v0, v1
	  v_cmpx_le_u16_e32 vcc, v0, v1
	  v_cmpx_gt_u16_e32 vcc, v0, v1
	  v_cmpx_ne_u16_e32 vcc, v0, v1
	  v_cmpx_ge_u16_e32 vcc, v0, v1
	  v_cmpx_t_u16_e32 vcc, v0, v1
	  v_cmp_f_i32_e32 vcc, v0, v1
	  v_cmp_lt_i32_e32 vcc, v0, v1
	  v_cmp_eq_i32_e32 vcc, v0, v1
	  v_cmp_le_i32_e32 vcc, v0, v1
	  v_cmp_gt_i32_e32 vcc, v0, v1
	  v_cmp_ne_i32_e32 vcc, v0, v1
	  v_cmp_ge_i32_e32 vcc, v0, v1
	  v_cmp_t_i32_e32 vcc, v0, v1
	  v_cmp_f_u32_e32 vcc, v0, v1
	  v_cmp_lt_u32_e32 vcc, v0, v1
	  v_cmp_eq_u32_e32 vcc, v0, v1
	  v_cmp_le_u32_e32 vcc, v0, v1
	  v_cmp_gt_u32_e32 vcc, v0, v1
	  v_cmp_ne_u32_e32 vcc, v0, v1
	  v_cmp_ge_u32_e32 vcc, v0, v1
	  v_cmp_t_u32_e32 vcc, v0, v1
	  v_cmpx_f_i32_e32 vcc, v0, v1
	  v_cmpx_lt_i32_e32 vcc, v0, v1
	  v_cmpx_eq_i32_e32 vcc, v0, v1
	  v_cmpx_le_i32_e32 vcc, v0, v1
	  v_cmpx_gt_i32_e32 vcc, v0, v1
	  v_cmpx_ne_i32_e32 vcc, v0, v1
	  v_cmpx_ge_i32_e32 vcc, v0, v1
	  v_cmpx_t_i32_e32 vcc, v0, v1
	  v_cmpx_f_u32_e32 vcc, v0, v1
	  v_cmpx_lt_u32_e32 vcc, v0, v1
	  v_cmpx_eq_u32_e32 vcc, v0, v1
	  v_cmpx_le_u32_e32 vcc, v0, v1
	  v_cmpx_gt_u32_e32 vcc, v0, v1
	  v_cmpx_ne_u32_e32 vcc, v0, v1
	  v_cmpx_ge_u32_e32 vcc, v0, v1
	  v_cmpx_t_u32_e32 vcc, v0, v1
	  v_cmp_f_i64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_lt_i64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_eq_i64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_le_i64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_gt_i64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_ne_i64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_ge_i64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_t_i64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_f_u64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_lt_u64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_eq_u64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_le_u64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_gt_u64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_ne_u64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_ge_u64_e32 vcc, v[0:1], v[1:2]
	  v_cmp_t_u64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_f_i64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_lt_i64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_eq_i64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_le_i64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_gt_i64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_ne_i64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_ge_i64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_t_i64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_f_u64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_lt_u64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_eq_u64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_le_u64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_gt_u64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_ne_u64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_ge_u64_e32 vcc, v[0:1], v[1:2]
	  v_cmpx_t_u64_e32 vcc, v[0:1], v[1:2]
	  s_load_dword s4, s[4:5], 0x10
	  s_load_dwordx2 s[4:5], s[4:5], 0x10
	  s_load_dwordx4 s[4:7], s[4:5], 0x10
	  s_load_dwordx8 s[4:11], s[4:5], 0x10
	  s_load_dwordx16 s[4:19], s[4:5], 0x10
	  s_buffer_load_dword s4, s[4:7], 0x10
	  s_buffer_load_dwordx2 s[4:5], s[4:7], 0x10
	  s_buffer_load_dwordx4 s[4:7], s[4:7], 0x10
	  s_buffer_load_dwordx8 s[4:11], s[4:7], 0x10
	  s_buffer_load_dwordx16 s[4:19], s[4:7], 0x10
	  s_store_dword s4, s[4:5], 0x10
	  s_store_dwordx2 s[4:5], s[4:5], 0x10
	  s_store_dwordx4 s[4:7], s[4:5], 0x10
	  s_atc_probe 4, s[4:5], 0x10
	  s_atc_probe_buffer 4, s[4:7], 0x10
	  s_dcache_discard s[4:5], 0x10
	  s_dcache_discard_x2 s[4:5], 0x10
	v_div_fmas_f32 v2, v1, v3, v4
	v_div_fmas_f64 v[2:3], v[4:5], v[6:7], v[8:9]
	v_mad_i64_i32 v[2:3], s[0:1], v1, v4, v[6:7]
	v_mad_u64_u32 v[2:3], vcc, v1, s4, v[6:7]
	s_set_gpr_idx_on s2, gpr_idx(SRC0,DST)
	s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 3
	s_ttracedata
	v_nop
	v_clrexcp
	ds_nop
	v_trig_preop_f64 v[2:3], v[4:5], v6
	s_dcache_inv
	s_dcache_wb
	s_dcache_inv_vol
	s_dcache_wb_vol
	s_memtime s[2:3]
	s_memrealtime s[2:3]
	buffer_wbinvl1
	buffer_wbinvl1_vol
	v_madmk_f32 v1, v2, 0x3f800000, v3
	v_madak_f32 v1, v2, v3, 0x40000000
	v_madmk_f16 v1, v2, 0x3c00, v3
	v_madak_f16 v1, v2, v3, 0x4000
	v_add_f32_e32 v1, 0x12345678, v2
	s_add_u32 s1, 0x12345678, s2
	v_add_f32_sdwa v1, v2, v3 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_2 src1_sel:WORD_0
	v_add_u32_sdwa v1, sext(v2), v3 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:DWORD
	v_cvt_f32_f16_sdwa v1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1
	v_cmp_eq_u32_sdwa s[4:5], v1, v2 src0_sel:WORD_1 src1_sel:DWORD
	v_mov_b32_dpp v1, v2 quad_perm:[1,0,3,2] row_mask:0xa bank_mask:0x5
	v_add_f32_dpp v1, -v2, |v3| row_shr:1 row_mask:0xf bank_mask:0xf
	v_add_u32_dpp v1, v2, v3 row_bcast:31 row_mask:0xc bank_mask:0xf
