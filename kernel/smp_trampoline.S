/*
 * smp_trampoline.S - how an application processor gets from the real mode
 * it starts in to the kernel's 64-bit C code.
 *
 * The start-up IPI starts the core at CS:IP = (vector << 8):0000 in real
 * mode (Intel SDM vol. 3A, 9.4.4 "MP Initialization Example"). The code
 * between smp_trampoline_start and smp_trampoline_end is copied to that
 * page below 1 MiB; the boot core patches the physical addresses (marked
 * "patched") into the copy. The core then goes through 32-bit protected
 * mode into IA-32e mode the way SDM vol. 3A, 10.8.5 "Initializing IA-32e
 * Mode" describes: PAE on, CR3 loaded, EFER.LME set, paging on, a far jump
 * to a 64-bit code segment. CR3 is first a temporary identity map of the low
 * 4 GiB (2 MiB pages, built by kernel/smp.c beside the trampoline), in
 * which the low page may execute; the far jump lands in kernel text
 * (smp_ap_entry64), which loads the kernel's page tables and stack.
 *
 * SSE is switched on before any compiled code runs (SDM vol. 3A, 13.1.3):
 * CR0.EM = 0, CR0.MP = 1, CR4.OSFXSR and OSXMMEXCPT; EFER.NXE because the
 * kernel's page tables use the NX bit (SDM vol. 3A, 4.1.1).
 */
#include "kernel/smp_trampoline.h"

#define CR0_PE (1 << 0)
#define CR0_MP (1 << 1)
#define CR0_EM (1 << 2)
#define CR0_PG (1 << 31)
#define CR4_PAE (1 << 5)
#define CR4_OSFXSR (1 << 9)
#define CR4_OSXMMEXCPT (1 << 10)
#define MSR_EFER 0xc0000080
#define EFER_LME (1 << 8)
#define EFER_NXE (1 << 11)

#define OFF(label) ((label) - smp_trampoline_start)

	.text
	.code16
	.balign 16
	.globl smp_trampoline_start
	.hidden smp_trampoline_start
smp_trampoline_start:
	cli
	cld
	movw %cs, %ax
	movw %ax, %ds
	movzwl %ax, %esi
	shll $4, %esi /* %esi = physical address of this page, kept across modes */
	lgdtl OFF(tramp_gdt_pointer)
	movl %cr0, %eax
	orl $CR0_PE, %eax
	movl %eax, %cr0
	ljmpl *OFF(tramp_far32)

	.code32
	.globl tramp_protected
	.hidden tramp_protected
tramp_protected:
	movw $TRAMP_DATA, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	movl %cr4, %eax
	orl $(CR4_PAE | CR4_OSFXSR | CR4_OSXMMEXCPT), %eax
	movl %eax, %cr4
	movl OFF(tramp_cr3)(%esi), %eax
	movl %eax, %cr3
	movl $MSR_EFER, %ecx
	rdmsr
	orl $(EFER_LME | EFER_NXE), %eax
	wrmsr
	movl %cr0, %eax
	andl $~CR0_EM, %eax
	orl $(CR0_PG | CR0_MP), %eax
	movl %eax, %cr0
	ljmpl *OFF(tramp_far64)(%esi)

	.balign 8
	.globl tramp_gdt
	.hidden tramp_gdt
tramp_gdt: /* null, 32-bit code, data, 64-bit code (SDM vol. 3A, 3.4.5) */
	.quad 0
	.quad 0x00cf9a000000ffff
	.quad 0x00cf92000000ffff
	.quad 0x00af9a000000ffff
	.globl tramp_gdt_pointer
	.hidden tramp_gdt_pointer
tramp_gdt_pointer:
	.word 4 * 8 - 1
	.long 0 /* patched: physical address of tramp_gdt */
	.globl tramp_far32
	.hidden tramp_far32
tramp_far32:
	.long 0 /* patched: physical address of tramp_protected */
	.word TRAMP_CODE32
	.globl tramp_far64
	.hidden tramp_far64
tramp_far64:
	.long 0 /* patched: smp_ap_entry64 (the image lies below 4 GiB) */
	.word TRAMP_CODE64
	.globl tramp_cr3
	.hidden tramp_cr3
tramp_cr3:
	.long 0 /* patched: the temporary page tables */
	.globl smp_trampoline_end
	.hidden smp_trampoline_end
smp_trampoline_end:

/*
 * 64-bit, still on the temporary page tables and the trampoline's GDT.
 * Only a core whose APIC ID the boot core put in a slot of smp_ap_boot may
 * go on: it claims its slot atomically, so that a core that answers too
 * late (or a stray start-up) never shares another core's stack; any other
 * parks. The APIC ID comes from CPUID: leaf 0BH EDX (x2APIC ID) when the
 * leaf exists, else leaf 01H EBX[31:24] (SDM vol. 2A, CPUID).
 */
	.code64
	.globl smp_ap_entry64
	.hidden smp_ap_entry64
smp_ap_entry64:
	xorl %eax, %eax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	cpuid
	cmpl $0xb, %eax
	jb 1f
	movl $0xb, %eax
	xorl %ecx, %ecx
	cpuid
	testl %ebx, %ebx
	jz 1f
	movl %edx, %r8d
	jmp 2f
1:	movl $1, %eax
	cpuid
	shrl $24, %ebx
	movl %ebx, %r8d
2:	leaq smp_ap_boot(%rip), %rdi
	movl AP_BOOT_SLOT_COUNT(%rdi), %ecx
	leaq AP_BOOT_SLOTS(%rdi), %rsi
4:	testl %ecx, %ecx
	jz 3f
	movl %r8d, %eax
	movl $AP_BOOT_CLAIMED, %edx
	lock cmpxchgl %edx, AP_SLOT_TARGET(%rsi)
	je 5f
	addq $AP_SLOT_SIZE, %rsi
	decl %ecx
	jmp 4b
5:	movq AP_BOOT_CR3(%rdi), %rax
	movq %rax, %cr3
	movq AP_SLOT_STACK(%rsi), %rsp
	movl AP_SLOT_INDEX(%rsi), %edi
	xorl %ebp, %ebp
	call smp_ap_main
3:	cli
	hlt
	jmp 3b

	.section .note.GNU-stack, "", @progbits
