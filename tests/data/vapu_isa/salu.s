// salu.s - scalar ALU, hardware registers, rounding modes and program
// control (tests/host/vapu_isa_salu_test.c).
//
// Kernel ABI (vi_kd_default): kernarg +0: four input dwords a, b, c, d;
// +16: the output buffer. salu_ops writes, for each operation in order, its
// 32-bit result (low dword for 64-bit ones) and the SCC it left.

// R: run one scalar instruction writing s20 (or s[20:21]; s20 = a before
// it, for the forms that read their destination), then store s20 and SCC
// (as 0/1) to the output and move on 8 bytes.
.macro R insts:vararg
	s_mov_b32 s20, s4
	s_mov_b32 s21, 0
	s_cmp_eq_u32 s9, 1          // SCC = 1 before each op (s9 = 1)
	\insts
	s_cselect_b32 s21, 1, 0
	s_store_dwordx2 s[20:21], s[2:3], 0x0
	s_add_u32 s2, s2, 8
	s_addc_u32 s3, s3, 0
.endm

	.text
	.p2align 8
	.globl salu_ops
salu_ops:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	s_load_dwordx2 s[2:3], s[0:1], 0x10
	s_mov_b32 s9, 1
	s_waitcnt lgkmcnt(0)
	R s_add_u32 s20, s4, s5
	R s_sub_u32 s20, s4, s5
	R s_add_i32 s20, s4, s5
	R s_sub_i32 s20, s4, s5
	R s_addc_u32 s20, s4, s5
	R s_subb_u32 s20, s4, s5
	R s_min_i32 s20, s4, s5
	R s_max_u32 s20, s4, s5
	R s_and_b32 s20, s4, s5
	R s_orn2_b32 s20, s4, s5
	R s_xnor_b32 s20, s4, s5
	R s_lshl_b32 s20, s4, s5
	R s_lshr_b32 s20, s4, s5
	R s_ashr_i32 s20, s4, s5
	R s_bfm_b32 s20, s4, s5
	R s_mul_i32 s20, s4, s5
	R s_mul_hi_u32 s20, s4, s5
	R s_mul_hi_i32 s20, s4, s5
	R s_bfe_u32 s20, s4, s5
	R s_bfe_i32 s20, s4, s5
	R s_absdiff_i32 s20, s4, s5
	R s_lshl2_add_u32 s20, s4, s5
	R s_pack_lh_b32_b16 s20, s4, s5
	R s_cselect_b32 s20, s4, s5
	R s_lshl_b64 s[20:21], s[4:5], s6
	R s_lshr_b64 s[20:21], s[4:5], s6
	R s_ashr_i64 s[20:21], s[4:5], s6
	R s_bfe_i64 s[20:21], s[4:5], s6
	R s_xor_b64 s[20:21], s[4:5], s[6:7]
	R s_mov_b32 s20, s4
	R s_cmov_b32 s20, s4
	R s_not_b32 s20, s4
	R s_brev_b32 s20, s4
	R s_bcnt1_i32_b32 s20, s4
	R s_bcnt0_i32_b64 s20, s[4:5]
	R s_ff1_i32_b32 s20, s4
	R s_ff0_i32_b32 s20, s4
	R s_flbit_i32_b32 s20, s4
	R s_flbit_i32 s20, s4
	R s_flbit_i32_b64 s20, s[4:5]
	R s_sext_i32_i8 s20, s4
	R s_sext_i32_i16 s20, s4
	R s_abs_i32 s20, s4
	R s_wqm_b32 s20, s4
	R s_quadmask_b32 s20, s4
	R s_movk_i32 s20, 0x8765
	R s_addk_i32 s20, 0x7fff
	R s_mulk_i32 s20, 0xfff3
	R s_cmpk_lt_i32 s4, 0xff80
	R s_cmpk_gt_u32 s4, 0xff80
	R s_cmp_lt_i32 s4, s5
	R s_cmp_ge_u32 s4, s5
	R s_bitcmp1_b32 s4, s5
	R s_cmp_lg_u64 s[4:5], s[6:7]
	R s_bitset1_b32 s20, s5
	R s_bitset0_b32 s20, s5
	R s_add_u32 s20, 0x12345678, s4
	R s_mov_b64 s[20:21], -1
	s_dcache_wb
	s_endpgm

// EXEC manipulation: saveexec forms, then a VALU write under the new EXEC.
// kernarg +0: the mask to AND into EXEC (64-bit), +16: output (64 dwords +
// the saved EXEC and the new EXEC).
	.p2align 8
	.globl saveexec
saveexec:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	s_load_dwordx2 s[2:3], s[0:1], 0x10
	v_lshlrev_b32 v1, 2, v0
	s_waitcnt lgkmcnt(0)
	s_and_saveexec_b64 s[6:7], s[4:5]
	v_mov_b32 v2, v0
	global_store_dword v1, v2, s[2:3]
	s_xor_saveexec_b64 s[10:11], s[6:7]     // exec = old ^ new: the other lanes
	v_add_u32 v2, 100, v0
	global_store_dword v1, v2, s[2:3]
	s_mov_b64 exec, s[6:7]
	v_mov_b32 v3, 0
	v_mov_b32 v4, s6
	v_mov_b32 v5, s7
	v_mov_b32 v6, s10
	v_mov_b32 v7, s11
	global_store_dwordx4 v3, v[4:7], s[2:3] offset:256
	s_endpgm

// Branches, calls and the PC: out[0..] gets a trace of visited blocks.
// kernarg +0: a (decides the conditional branches), +16: output.
	.p2align 8
	.globl control
control:
	s_load_dword s4, s[0:1], 0x0
	s_load_dwordx2 s[2:3], s[0:1], 0x10
	v_mov_b32 v1, 0
	s_waitcnt lgkmcnt(0)
	s_mov_b32 s10, 0                     // trace
	s_cmp_eq_u32 s4, 0
	s_cbranch_scc1 .Lzero
	s_or_b32 s10, s10, 1                 // a != 0
	s_branch .Ljoin
.Lzero:
	s_or_b32 s10, s10, 2                 // a == 0
.Ljoin:
	s_getpc_b64 s[12:13]               // the address of the next instruction
.Lafter_getpc:
	s_add_u32 s12, s12, .Lfunc - .Lafter_getpc
	s_addc_u32 s13, s13, 0
	s_swappc_b64 s[30:31], s[12:13]      // call: sets bit 4, returns
	s_or_b32 s10, s10, 8                 // after the return
	v_cmp_gt_u32 vcc, s4, v0             // lanes below a
	s_cbranch_vccz .Lnovcc
	s_or_b32 s10, s10, 32
.Lnovcc:
	s_and_saveexec_b64 s[14:15], vcc
	s_cbranch_execz .Lnoexec
	s_or_b32 s10, s10, 64
.Lnoexec:
	s_mov_b64 exec, s[14:15]
	s_call_b64 s[30:31], .Lfunc2
	s_or_b32 s10, s10, 256
	v_mov_b32 v2, s10
	global_store_dword v1, v2, s[2:3]
	s_endpgm
.Lfunc:
	s_or_b32 s10, s10, 16
	s_setpc_b64 s[30:31]
.Lfunc2:
	s_or_b32 s10, s10, 128
	s_setpc_b64 s[30:31]

// MODE rounding: kernarg +0: the FP_ROUND value (4 bits: f32 and f64),
// +16: output; inputs a, b, c (f32) at +32, x, y, z (f64) at +48.
// Writes a+b, a*b, fma(a,b,c), cvt_f32_u32(b bits), cvt_f32_f64(x),
// x+y (lo, hi), x*y (lo, hi), fma(x,y,z) (lo, hi), cvt_f16_f32(a), MODE.
	.p2align 8
	.globl round_modes
round_modes:
	s_load_dword s4, s[0:1], 0x0
	s_load_dwordx2 s[2:3], s[0:1], 0x10
	s_load_dwordx4 s[8:11], s[0:1], 0x20
	s_load_dwordx8 s[12:19], s[0:1], 0x30
	s_waitcnt lgkmcnt(0)
	s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s4
	v_mov_b32 v1, s9
	v_mov_b32 v2, s10
	v_add_f32 v10, s8, v1
	v_mul_f32 v11, s8, v1
	v_fma_f32 v12, s8, v1, v2
	v_cvt_f32_u32 v13, s9
	v_cvt_f32_f64 v14, s[12:13]
	v_mov_b32 v3, s14
	v_mov_b32 v4, s15
	v_mov_b32 v5, s16
	v_mov_b32 v6, s17
	v_add_f64 v[15:16], s[12:13], v[3:4]
	v_mul_f64 v[17:18], s[12:13], v[3:4]
	v_fma_f64 v[19:20], s[12:13], v[3:4], v[5:6]
	v_cvt_f16_f32 v21, s8
	s_getreg_b32 s20, hwreg(HW_REG_MODE)
	v_mov_b32 v22, s20
	v_mov_b32 v0, 0
	global_store_dwordx4 v0, v[10:13], s[2:3]
	global_store_dwordx4 v0, v[14:17], s[2:3] offset:16
	global_store_dwordx4 v0, v[18:21], s[2:3] offset:32
	global_store_dword v0, v22, s[2:3] offset:48
	s_endpgm

// Hardware registers: MODE at start, SH_MEM_BASES, the aperture
// registers, GPR_ALLOC, s_setreg of MODE's denormal bits read back,
// SRC_SHARED_LIMIT as a 32-bit operand, STATUS EXECZ/VCCZ. kernarg +16:
// output (s8..s17).
	.p2align 8
	.globl hwregs
hwregs:
	s_load_dwordx2 s[2:3], s[0:1], 0x10
	s_getreg_b32 s8, hwreg(HW_REG_MODE)
	s_getreg_b32 s9, hwreg(HW_REG_SH_MEM_BASES)
	s_mov_b64 s[10:11], src_shared_base
	s_mov_b64 s[12:13], src_private_base
	s_getreg_b32 s14, hwreg(HW_REG_GPR_ALLOC)
	s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 4), 0
	s_getreg_b32 s15, hwreg(HW_REG_MODE, 4, 4)
	s_mov_b32 s16, src_shared_limit
	s_mov_b64 vcc, 0
	s_getreg_b32 s17, hwreg(HW_REG_STATUS, 9, 2)
	s_waitcnt lgkmcnt(0)
	s_store_dwordx4 s[8:11], s[2:3], 0x0
	s_store_dwordx4 s[12:15], s[2:3], 0x10
	s_store_dwordx2 s[16:17], s[2:3], 0x20
	s_dcache_wb
	s_endpgm

// VGPR indexing (s_set_gpr_idx_on): v[4 + idx] = v1 + idx for idx 0..3,
// then reads them back through the index. kernarg +16: output (64 x 4).
	.p2align 8
	.globl gpr_index
gpr_index:
	s_load_dwordx2 s[2:3], s[0:1], 0x10
	v_mov_b32 v1, v0
	s_mov_b32 s4, 0
.Lidx_loop:
	v_add_u32 v2, s4, v1
	s_set_gpr_idx_on s4, gpr_idx(DST)
	v_mov_b32 v4, v2                 // writes v[4 + s4]
	s_set_gpr_idx_off
	s_add_u32 s4, s4, 1
	s_cmp_lt_u32 s4, 4
	s_cbranch_scc1 .Lidx_loop
	s_mov_b32 s4, 3
	s_set_gpr_idx_on s4, gpr_idx(SRC0)
	v_mov_b32 v8, v4                 // reads v[4 + 3]
	s_set_gpr_idx_off
	v_lshlrev_b32 v9, 4, v0
	s_waitcnt lgkmcnt(0)
	global_store_dwordx4 v9, v[4:7], s[2:3]
	v_mov_b32 v10, 1024
	v_lshlrev_b32 v9, 2, v0
	v_add_u32 v9, v9, v10
	global_store_dword v9, v8, s[2:3]
	s_endpgm
