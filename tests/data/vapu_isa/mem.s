// mem.s - LDS, global atomics, scratch (MUBUF, SCRATCH and flat through
// the private aperture), flat LDS, barriers across waves, the initial wave
// state (tests/host/vapu_isa_mem_test.c). kernarg: pointers at +0, +8,
// +16, +24 unless a kernel says otherwise.

	.text

// LDS: every lane writes, then the whole work-group (4 waves) reads after
// a barrier: out[t] = f(lds) for each t. Exercises ds_write_b32/b64/b128,
// read2/write2 (st64), ds_read_u8/i16, atomics with return, permute and
// swizzle. kernarg +0: out (16 dwords per work-item).
	.p2align 8
	.globl lds_ops
lds_ops:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	v_lshlrev_b32 v1, 2, v0              // t * 4
	v_lshlrev_b32 v20, 6, v0             // t * 64: this work-item's 16 outputs
	v_add_u32 v2, 0x120081, v0           // value(t) = 0x120081 + t
	ds_write_b32 v1, v2                  // lds[t] = value(t) (dwords 0..255)
	v_mov_b32 v3, 0
	v_mov_b32 v4, 7
	s_barrier
	ds_add_u32 v3, v4                    // lds[0] += 7 per work-item
	s_waitcnt lgkmcnt(0)
	s_barrier
	v_sub_u32 v6, 255, v0
	v_lshlrev_b32 v6, 2, v6
	ds_read_b32 v7, v6                   // lds[255 - t]
	ds_read2_b32 v[8:9], v1 offset1:1    // lds[t], lds[t + 1]
	v_mov_b32 v10, 0
	ds_read_b32 v11, v10                 // the atomic sum
	v_mov_b32 v12, 2048
	ds_add_rtn_u32 v13, v12, v4          // returns 7 * (arrival order)
	ds_max_rtn_i32 v14, v12, v0 offset:4 // running max at 2052 (initially 0)
	ds_read_u16 v15, v1 offset:2         // high half of lds[t]
	ds_read_i8 v16, v1                   // low byte of lds[t], sign-extended
	s_waitcnt lgkmcnt(0)
	s_barrier
	v_mov_b32 v17, 3000
	v_lshlrev_b32 v18, 3, v0
	v_add_u32 v18, v18, v17              // 3000 + 8t: 8-byte slots
	v_mov_b32 v22, v0
	v_not_b32 v23, v0
	ds_write_b64 v18, v[22:23]
	ds_cmpst_rtn_b32 v19, v18, v22, v2   // if lds[..] == t: becomes t + 1000; returns t
	s_waitcnt lgkmcnt(0)
	ds_read_b64 v[24:25], v18
	ds_bpermute_b32 v26, v1, v2          // lane (t*4/4) of this wave: itself
	v_xor_b32 v27, 4, v1
	ds_bpermute_b32 v27, v27, v2         // the neighbour lane t ^ 1
	ds_swizzle_b32 v28, v2 offset:swizzle(QUAD_PERM, 3, 2, 1, 0)
	s_waitcnt lgkmcnt(0)
	s_waitcnt lgkmcnt(0)
	v_mov_b32 v10, v28
	global_store_dwordx4 v20, v[7:10], s[2:3]
	global_store_dwordx4 v20, v[11:14], s[2:3] offset:16
	global_store_dwordx4 v20, v[15:18], s[2:3] offset:32
	global_store_dwordx4 v20, v[24:27], s[2:3] offset:48
	s_endpgm

// Global atomics, every lane on one address and on its own.
// kernarg +0: counters (8 qwords), +8: per-lane slots (64 dwords),
// +16: out (returned values, 64 x 8 dwords).
	.p2align 8
	.globl global_atomics
global_atomics:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	s_load_dwordx2 s[8:9], s[0:1], 0x10
	v_mov_b32 v1, 0
	v_mov_b32 v2, 1
	v_lshlrev_b32 v10, 2, v0
	v_lshlrev_b32 v11, 6, v0
	s_waitcnt lgkmcnt(0)
	global_atomic_add v3, v1, v2, s[4:5] glc             // counter0 += 1, old
	global_atomic_umax v4, v1, v0, s[4:5] offset:4 glc   // counter1 = max(t)
	global_atomic_smin v5, v1, v0, s[4:5] offset:8 glc   // counter2 = min(t), starts 100
	v_mov_b32 v6, 50
	global_atomic_inc v6, v1, v6, s[4:5] offset:12 glc   // wraps at 50
	global_atomic_xor v7, v1, v10, s[4:5] offset:16 glc
	v_mov_b32 v12, v0
	v_mov_b32 v13, 0
	v_mov_b32 v14, 1
	global_atomic_add_x2 v[8:9], v1, v[12:13], s[4:5] offset:24 glc  // 64-bit sum of t
	v_add_u32 v15, 1, v0                    // new value t + 1
	v_mov_b32 v16, v0                       // compare with t
	global_atomic_cmpswap v16, v10, v[15:16], s[6:7] glc   // slot[t]: if == t: t + 1
	v_mov_b32 v17, v0
	global_atomic_swap v17, v10, v17, s[6:7] offset:256 glc
	global_atomic_dec v18, v1, v14, s[4:5] offset:32 glc   // dec with wrap at 1
	global_store_dwordx4 v11, v[3:6], s[8:9]
	global_store_dwordx4 v11, v[7:10], s[8:9] offset:16
	v_mov_b32 v19, v0
	global_store_dwordx4 v11, v[16:19], s[8:9] offset:32
	s_endpgm

// Scratch through all three paths. Each lane stores t + 1 at private
// offset 4*k via the private segment buffer (MUBUF, offen), reads it back
// with scratch_load, with flat_load through the private aperture, and
// overwrites one dword through flat_store, read again by buffer_load.
// Properties: private segment buffer s[0:3], kernarg s[4:5], flat scratch
// init s[6:7]; system: work-group id x s8, wave byte offset s9.
// kernarg +0: out (4 dwords per work-item).
	.p2align 8
	.globl scratch_paths
scratch_paths:
	s_add_u32 flat_scratch_lo, s6, s9        // AMDGPUUsage gfx9 prologue
	s_addc_u32 flat_scratch_hi, s7, 0
	s_load_dwordx2 s[12:13], s[4:5], 0x0
	v_add_u32 v1, 1, v0                      // t + 1
	v_mov_b32 v2, 8                          // private offset 8
	buffer_store_dword v1, v2, s[0:3], s9 offen offset:4   // at 12
	v_add_u32 v3, 2, v0
	buffer_store_dword v3, off, s[0:3], s9 offset:16
	s_waitcnt vmcnt(0)
	v_mov_b32 v4, 12
	scratch_load_dword v5, v4, off           // 12: t + 1
	s_mov_b32 s14, 16
	scratch_load_dword v6, off, s14          // 16: t + 2
	s_mov_b64 s[16:17], src_private_base
	v_mov_b32 v7, 12
	v_mov_b32 v8, s17                        // generic pointer to private 12
	flat_load_dword v9, v[7:8]
	v_add_u32 v10, 500, v0
	flat_store_dword v[7:8], v10 offset:8    // private 20
	s_waitcnt vmcnt(0) lgkmcnt(0)
	buffer_load_dword v11, off, s[0:3], s9 offset:20
	scratch_store_dwordx2 off, v[5:6], s14 offset:16  // private 32, 36
	s_waitcnt vmcnt(0)
	v_mov_b32 v12, 32
	buffer_load_dwordx2 v[13:14], v12, s[0:3], s9 offen
	s_waitcnt vmcnt(0)
	v_lshlrev_b32 v15, 4, v0
	v_add_u32 v16, v13, v14                  // private 32 + 36: (t + 1) + (t + 2)
	v_mov_b32 v7, v9
	v_mov_b32 v8, v11
	global_store_dwordx4 v15, v[5:8], s[12:13]          // t+1, t+2, t+1, 500+t
	global_store_dword v15, v16, s[12:13] offset:2048   // 2t + 3
	s_endpgm

// Flat addressing of LDS through the shared aperture: flat_store to
// shared_base + 4t, ds_read back, and flat_atomic_add on LDS.
// kernarg +0: out (2 dwords per work-item).
	.p2align 8
	.globl flat_lds
flat_lds:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	s_mov_b64 s[4:5], src_shared_base
	v_lshlrev_b32 v1, 2, v0
	v_mov_b32 v2, s5
	v_mul_u32_u24 v3, v0, v0
	flat_store_dword v[1:2], v3
	v_mov_b32 v4, 0x200
	v_mov_b32 v5, s5
	v_mov_b32 v6, 3
	flat_atomic_add v7, v[4:5], v6 glc
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_barrier
	ds_read_b32 v8, v1
	v_mov_b32 v9, 0x200
	ds_read_b32 v9, v9
	v_lshlrev_b32 v10, 3, v0
	s_waitcnt lgkmcnt(0)
	global_store_dwordx2 v10, v[8:9], s[2:3]
	s_endpgm

// Initial state: every user and system SGPR enabled (AMDGPUUsage order:
// private segment buffer s[0:3], dispatch ptr s[4:5], queue ptr s[6:7],
// kernarg s[8:9], dispatch id s[10:11], flat scratch init s[12:13], private
// segment size s14; then work-group id x, y, z s15..s17, work-group info
// s18, wave byte offset s19), work-item ids x, y, z in v0..v2.
// kernarg +0: SGPR dump (32 dwords per wave: s0..s23, EXEC), +8: VGPR dump
// (4 dwords per work-item: v0, v1, v2, lane), +16: slot counter. A wave takes
// its slot from the counter with an atomic.
	.p2align 8
	.globl initial_state
initial_state:
	s_mov_b64 s[40:41], exec
	s_load_dwordx4 s[44:47], s[8:9], 0x0
	s_load_dwordx2 s[42:43], s[8:9], 0x10
	v_mov_b32 v10, 0
	v_mov_b32 v11, 1
	s_waitcnt lgkmcnt(0)
	s_mov_b64 exec, 1                              // lane 0 is always active
	global_atomic_add v12, v10, v11, s[42:43] glc
	s_waitcnt vmcnt(0)
	v_readfirstlane_b32 s50, v12                   // this wave's slot
	s_mov_b64 exec, s[40:41]
	v_mbcnt_lo_u32_b32 v6, -1, 0
	v_mbcnt_hi_u32_b32 v6, -1, v6                  // lane
	s_lshl_b32 s51, s50, 6
	v_add_u32 v7, s51, v6
	v_lshlrev_b32 v7, 4, v7
	v_mov_b32 v3, v0
	v_mov_b32 v4, v1
	v_mov_b32 v5, v2
	global_store_dwordx4 v7, v[3:6], s[46:47]      // vgpr dump [slot * 64 + lane]
	s_mov_b64 exec, 1
	s_lshl_b32 s51, s50, 7                         // 128 bytes per slot
	v_mov_b32 v10, s51
	v_mov_b32 v11, s0
	v_mov_b32 v12, s1
	v_mov_b32 v13, s2
	v_mov_b32 v14, s3
	global_store_dwordx4 v10, v[11:14], s[44:45]
	v_mov_b32 v11, s4
	v_mov_b32 v12, s5
	v_mov_b32 v13, s6
	v_mov_b32 v14, s7
	global_store_dwordx4 v10, v[11:14], s[44:45] offset:16
	v_mov_b32 v11, s8
	v_mov_b32 v12, s9
	v_mov_b32 v13, s10
	v_mov_b32 v14, s11
	global_store_dwordx4 v10, v[11:14], s[44:45] offset:32
	v_mov_b32 v11, s12
	v_mov_b32 v12, s13
	v_mov_b32 v13, s14
	v_mov_b32 v14, s15
	global_store_dwordx4 v10, v[11:14], s[44:45] offset:48
	v_mov_b32 v11, s16
	v_mov_b32 v12, s17
	v_mov_b32 v13, s18
	v_mov_b32 v14, s19
	global_store_dwordx4 v10, v[11:14], s[44:45] offset:64
	v_mov_b32 v11, s40
	v_mov_b32 v12, s41
	v_mov_b32 v13, 0
	v_mov_b32 v14, 0
	global_store_dwordx4 v10, v[11:14], s[44:45] offset:80
	s_endpgm
