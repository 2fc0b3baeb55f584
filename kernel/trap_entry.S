/*
 * trap_entry.S - the 256 interrupt and exception entry stubs and the common
 * path that saves the interrupted state as a struct trap_frame (cpu.h).
 *
 * Each stub is 16 bytes (cpu.c computes stub addresses from that): it
 * pushes a 0 where the CPU pushes no error code, then the vector number.
 * The vectors with an error code: SDM vol. 3A, 6.15 and Table 6-1 (8, 10-14,
 * 17, 21) and AMD APM vol. 2, 8.2 (29 #VC, 30 #SX).
 *
 * The common path pushes the general registers, saves the x87/SSE state
 * with FXSAVE (interrupted code may be in the middle of floating point
 * work, and C code uses SSE registers freely), calls trap_exception for
 * vectors 0-31 or irq_dispatch for 32-255 with the frame, and restores
 * everything in reverse before IRETQ.
 */
#define STUB_SIZE 16
#define FXSAVE_SIZE 512

/* One stub. The jump is encoded by hand as JMP rel32 so that every stub's
 * size is known to the assembler and checked against STUB_SIZE. */
	.macro trap_stub v
	.balign STUB_SIZE
.Lstub_\@:
	.if \v == 8 || (\v >= 10 && \v <= 14) || \v == 17 || \v == 21 || \v == 29 || \v == 30
	.else
	pushq $0
	.endif
	pushq $\v
	.byte 0xe9
	.long trap_common - . - 4
	.if . - .Lstub_\@ > STUB_SIZE
	.error "trap stub longer than STUB_SIZE"
	.endif
	.endm

	.section .text
	.balign STUB_SIZE
	.globl trap_stubs
	.hidden trap_stubs
trap_stubs:
	vector = 0
	.rept 256
	trap_stub vector
	vector = vector + 1
	.endr

trap_common:
	cld
	pushq %rax
	pushq %rbx
	pushq %rcx
	pushq %rdx
	pushq %rsi
	pushq %rdi
	pushq %rbp
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	subq $8, %rsp              /* trap_frame.fx */
	movq %rsp, %rbx            /* rbx = the frame, kept across the call */
	subq $FXSAVE_SIZE, %rsp
	andq $-64, %rsp            /* FXSAVE needs 16-byte alignment */
	fxsave64 (%rsp)
	movq %rsp, (%rbx)
	movq %rbx, %rdi
	xorl %ebp, %ebp            /* backtraces use the frame's rbp, not this one */
	cmpq $32, 8*16(%rbx)       /* trap_frame.vector */
	jae 1f
	call trap_exception
	jmp 2f
1:	call irq_dispatch
2:	fxrstor64 (%rsp)
	leaq 8(%rbx), %rsp
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %r11
	popq %r10
	popq %r9
	popq %r8
	popq %rbp
	popq %rdi
	popq %rsi
	popq %rdx
	popq %rcx
	popq %rbx
	popq %rax
	addq $16, %rsp             /* vector and error code */
	iretq

	.section .note.GNU-stack, "", @progbits
