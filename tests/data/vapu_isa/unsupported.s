// unsupported.s - gfx902 instructions the interpreter deliberately does not
// implement (graphics-only, typed buffer formats, scalar atomics, obsolete
// fork/join): each must decode as unknown and stop a wave with an illegal
// instruction error (vapu_isa_objdump_test, vapu_isa_failure_test).
	.text
	.globl unsupported
	.p2align 8
unsupported:
	v_cubeid_f32 v1, v2, v3, v4
	v_interp_p2_f16 v1, v2, attr0.x, v3
	buffer_load_format_x v1, off, s[8:11], s3
	tbuffer_load_format_x v1, off, s[8:11], s3 format:[BUF_DATA_FORMAT_32, BUF_NUM_FORMAT_FLOAT]
	image_load v[1:4], v2, s[8:15] dmask:0xf
	s_atomic_add s1, s[2:3], 0x0
	s_buffer_store_dword s1, s[4:7], 0x0
	s_cbranch_join s2
	ds_add_src2_u32 v1
	exp mrt0 v1, v2, v3, v4
