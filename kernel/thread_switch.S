/*
 * thread_switch.S - the context switch of kernel/thread.c.
 *
 * thread_switch(uint64_t *save_rsp, uint64_t next_rsp): pushes the
 * registers the System V AMD64 ABI (3.2.1, "Registers") makes callee-saved
 * (rbx, rbp, r12-r15), stores the stack pointer in *save_rsp, loads
 * next_rsp and pops the same registers from it: the switch is a function
 * call, so the caller-saved registers (SSE included) need no saving.
 * thread_entry is where a new thread's first switch returns to
 * (thread.c lays out its stack).
 */
  .text
  .globl thread_switch
  .type thread_switch, @function
thread_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size thread_switch, .-thread_switch

  .globl thread_entry
  .type thread_entry, @function
thread_entry:
  xorl %ebp, %ebp
  andq $-16, %rsp
  call thread_start
  ud2
  .size thread_entry, .-thread_entry

  .section .note.GNU-stack, "", @progbits
