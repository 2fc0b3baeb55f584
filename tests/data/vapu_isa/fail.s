// fail.s - kernels that stop on purpose (tests/host/vapu_isa_failure_test.c):
// an unknown instruction, faults of every access kind, traps, halt, a
// spinning wave, and out-of-range buffer/LDS accesses that must not fault.
// kernarg +0: a pointer (data or a bad address), +8: an output pointer.

.macro KERNEL name:req
	.p2align 8
	.globl \name
\name:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	v_lshlrev_b32 v1, 2, v0
	s_waitcnt lgkmcnt(0)
.endm

	.text
KERNEL illegal
	v_mov_b32 v2, 1
	.globl illegal_at
illegal_at:
	v_cubeid_f32 v1, v2, v3, v4              // graphics only: not implemented
	s_endpgm

KERNEL load_fault
	global_load_dword v2, v1, s[4:5]
	s_waitcnt vmcnt(0)
	s_endpgm

KERNEL store_fault
	global_store_dword v1, v0, s[4:5]
	s_endpgm

// A 16-byte FLAT load from p0 in every lane: the address decides between
// memory, the LDS or scratch aperture, and a memory violation (the hole,
// or a payload across a region's end; Linux kfd_flat_memory.c).
KERNEL flat_load_p0
	v_mov_b32 v2, s4
	v_mov_b32 v3, s5
	flat_load_dwordx4 v[4:7], v[2:3]
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_endpgm

KERNEL atomic_fault
	global_atomic_add v1, v0, s[4:5]
	s_endpgm

KERNEL smem_fault
	s_load_dword s8, s[4:5], 0x40
	s_waitcnt lgkmcnt(0)
	s_endpgm

KERNEL exec_fault
	s_setpc_b64 s[4:5]                        // jump into data

// Only the last wave of a 4-wave work-group faults; the others wait at a
// barrier first.
KERNEL fault_in_wave3
	s_barrier
	v_cmp_le_u32 vcc, 192, v0
	s_and_saveexec_b64 s[8:9], vcc
	global_load_dword v2, v1, s[4:5]
	s_waitcnt vmcnt(0)
	s_endpgm

KERNEL trap2
	s_trap 2
	global_store_dword v1, v0, s[6:7]
	s_endpgm

KERNEL trap3
	s_trap 3                                  // debugtrap: no-op without a debugger
	global_store_dword v1, v0, s[6:7]
	s_endpgm

KERNEL halt
	s_sethalt 1
	s_endpgm

KERNEL spin
	s_branch spin_loop
spin_loop:
	s_sleep 1
	s_branch spin_loop

// Out of range: a V# of 16 bytes at s[4:5]; loads past it read 0, stores
// past it are dropped. LDS past the allocation reads 0.
KERNEL out_of_range
	s_mov_b32 s8, s4
	s_and_b32 s9, s5, 0xffff
	s_mov_b32 s10, 16                         // NUM_RECORDS
	s_mov_b32 s11, 0x27fac                    // dst_sel xyzw, 32_FLOAT
	v_mov_b32 v2, 0x55
	buffer_store_dword v2, v1, s[8:11], 0 offen  // lanes 0..3 in range
	buffer_load_dword v3, v1, s[8:11], 0 offen offset:4
	v_mov_b32 v4, 0x100000                    // 1 MiB: past any LDS
	ds_write_b32 v4, v2
	ds_read_b32 v5, v4
	s_waitcnt vmcnt(0) lgkmcnt(0)
	v_lshlrev_b32 v6, 3, v0
	global_store_dwordx2 v6, v[3:4], s[6:7]
	v_mov_b32 v4, v5
	global_store_dwordx2 v6, v[3:4], s[6:7]
	s_endpgm
