/*
 * workitem.c - the work-item functions and work-group barriers of OpenCL C
 * (OpenCL C 2.0 specification, 6.13.1 "Work-Item Functions" and 6.13.8
 * "Synchronization Functions") for the CPU agents, linked by tools/hsacc
 * into every CPU code object. Built as C for x86-64 with -fPIC
 * -fvisibility=hidden: one copy per loaded instance, i.e. per core, so the
 * state below belongs to the work-group that core runs.
 *
 * The names are the Itanium-mangled overloads that clang's opencl-c.h
 * declares (clang's overloadable attribute mangles C functions the same
 * way: "_Z13get_global_idj" for size_t get_global_id(uint)).
 *
 * tools/hsacc links this file as LLVM bitcode with the kernels and makes
 * everything but the interface (cl/cpu_abi.h) internal, so the work-item
 * functions are inlined into every caller (always_inline: opencl-c.h
 * declares them const, and a const call that stayed a call could be
 * hoisted out of the loop over work-items below) and the geometry they
 * read is internal data whose address is never taken: the optimiser can
 * keep it in registers across the kernel's own stores.
 *
 * Execution of a work-group (__hsacl_run_groups runs a run of them, one
 * after the other) of a kernel with a group function (hsacl_kernel.group:
 * tools/hsacc cut the kernel at its barriers, or it reaches none): the
 * kernel's group function, called on item 0's stack, __hsacl_for_region
 * below for one region after the other (or __hsacl_for_items from item
 * 0). Of any other kernel: work-item 0 runs on a fiber. If it returns
 * without reaching a barrier, no work-item of the group reaches one
 * (6.13.8: a barrier must be encountered by all work-items of a work-group
 * or by none), and the others run one after the other on the same stack in
 * the kernel's own loop, __hsacl_items_<kernel> (made by tools/hsacc from
 * __hsacl_for_items below, the kernel's body inlined in it). If it reaches
 * a barrier, every work-item gets a fiber of its own and a barrier
 * switches to the next one; the group passes a barrier when every
 * work-item has reached it. All work-items of a group run on one core, in
 * program order between switches, so the fences a barrier implies for
 * work-group scope are compiler barriers; device and wider scopes add a
 * sequentially consistent fence for the other cores.
 *
 * The fiber switch saves what the System V AMD64 ABI makes callee-saved
 * (section 3.2.1: rbx, rbp, r12-r15, rsp, and the control bits of MXCSR
 * and the x87 control word), so that a work-item that changes the rounding
 * mode or flush-to-zero before a barrier changes it for itself alone, and
 * the runtime gets its own back when the group ends.
 */
#include <stddef.h>
#include <stdint.h>

#include "cl/cpu_abi.h"

#define EXPORT __attribute__((visibility("default")))
#define OVL    __attribute__((overloadable))

/* __OPENCL_MEMORY_SCOPE_* as clang-19 predefines them (clang's
 * InitPreprocessor.cpp, used by opencl-c-base.h's memory_scope). */
enum memory_scope {
  memory_scope_work_item = 0,
  memory_scope_work_group = 1,
  memory_scope_device = 2,
  memory_scope_all_svm_devices = 3,
  memory_scope_sub_group = 4,
};
#define CLK_GLOBAL_MEM_FENCE 0x02 /* opencl-c-base.h */

EXPORT const uint32_t __hsacl_abi_version = HSACL_ABI_VERSION;

enum fiber_state { FIBER_NEW, FIBER_RUNNING, FIBER_WAITING, FIBER_DONE };
enum group_mode { MODE_FIRST_ITEM, MODE_PLAIN_LOOP, MODE_FIBERS };

struct fiber {
  void *sp;
  uint32_t state;
  uint32_t id[3]; /* its local id, computed once when the fiber is made */
};

static struct hsacl_group *group;
static uint32_t items, current, mode;
static uint32_t local_id[3];
/* The group's geometry, copied from *group when it starts: what the
 * work-item functions read (never through `group`, whose address the
 * runtime holds). */
static uint32_t dims, item_count[3], local_size[3], global_size[3], group_id[3], num_groups[3];
static uint64_t global_offset[3];
static void *scheduler_sp;
static struct fiber fibers[HSACL_MAX_ITEMS];

void hsacl_switch(void **save_sp, void *to_sp);
__asm__(".text\n"
        ".globl hsacl_switch\n"
        ".hidden hsacl_switch\n"
        ".type hsacl_switch,@function\n"
        "hsacl_switch:\n"
        "  pushq %rbp\n"
        "  pushq %rbx\n"
        "  pushq %r12\n"
        "  pushq %r13\n"
        "  pushq %r14\n"
        "  pushq %r15\n"
        "  subq $8, %rsp\n" /* the FP control slot: MXCSR, then the x87 CW */
        "  stmxcsr (%rsp)\n"
        "  fnstcw 4(%rsp)\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  ldmxcsr (%rsp)\n"
        "  fldcw 4(%rsp)\n"
        "  addq $8, %rsp\n"
        "  popq %r15\n"
        "  popq %r14\n"
        "  popq %r13\n"
        "  popq %r12\n"
        "  popq %rbx\n"
        "  popq %rbp\n"
        "  ret\n"
        ".size hsacl_switch, .-hsacl_switch\n");

/* Calls fn(kernarg, group_segment, context) with the stack pointer at
 * `top` (16-byte aligned: the call leaves the return address below it,
 * as the System V AMD64 ABI, 3.2.2, has it at a function's entry), and
 * returns its result on the caller's stack. rbp, callee-saved (3.2.1),
 * keeps the caller's stack pointer across the call. */
uint32_t hsacl_call_on_stack(hsacl_group_fn fn, const void *kernarg, void *group_segment,
                             char *context, void *top);
__asm__(".text\n"
        ".globl hsacl_call_on_stack\n"
        ".hidden hsacl_call_on_stack\n"
        ".type hsacl_call_on_stack,@function\n"
        "hsacl_call_on_stack:\n"
        "  pushq %rbp\n"
        "  movq %rsp, %rbp\n"
        "  movq %r8, %rsp\n"
        "  movq %rdi, %rax\n"
        "  movq %rsi, %rdi\n"
        "  movq %rdx, %rsi\n"
        "  movq %rcx, %rdx\n"
        "  callq *%rax\n"
        "  movq %rbp, %rsp\n"
        "  popq %rbp\n"
        "  ret\n"
        ".size hsacl_call_on_stack, .-hsacl_call_on_stack\n");

/* The local id of item `item` (x fastest, 6.13.1's linear id order). */
static void item_id(uint32_t item, uint32_t id[3]) {
  id[0] = item % item_count[0];
  id[1] = item / item_count[0] % item_count[1];
  id[2] = item / (item_count[0] * item_count[1]);
}

/* Makes fiber `item` the current work-item: its id was computed when the
 * fiber was made, so a barrier's switch costs no division. */
static void set_item(uint32_t item) {
  current = item;
  local_id[0] = fibers[item].id[0];
  local_id[1] = fibers[item].id[1];
  local_id[2] = fibers[item].id[2];
}

static void run_current(void) { group->kernel->entry(group->kernarg, group->group_segment); }

/* What the runtime guarantees of the geometry, told to the optimiser of the
 * loops below: a packet has 1 to 3 dimensions (HSA Runtime PRM 1.2,
 * 2.5.2, hsa_kernel_dispatch_packet_t.setup), so the work-item functions'
 * test of their dimension index (d < dims) folds away for index 0 rather
 * than leaving a select in every kernel's index arithmetic; and a group
 * has at least one work-item in each dimension (__hsacl_run_groups runs no
 * empty one), so a loop over the work-items runs at least once. */
__attribute__((always_inline)) static inline void assume_geometry(void) {
  __builtin_assume(dims >= 1 && dims <= 3);
  __builtin_assume(item_count[0] >= 1 && item_count[1] >= 1 && item_count[2] >= 1);
}

/* Runs work-items first .. items - 1 of the current group one after the
 * other, x fastest (6.13.1's linear id order), calling `body` for each:
 * the loop of tools/hsacc's __hsacl_items_<kernel>, which passes its own
 * kernel's wrapper, so that once this is inlined there the call is direct
 * and the kernel's body is inlined too. */
__attribute__((always_inline)) void __hsacl_for_items(const void *kernarg, void *group_segment,
                                                      uint32_t first, hsacl_wrapper_fn body) {
  assume_geometry();
  uint32_t id[3];
  item_id(first, id);
  for (uint32_t z = id[2]; z < item_count[2]; z++, id[1] = 0)
    for (uint32_t y = id[1]; y < item_count[1]; y++, id[0] = 0)
      for (uint32_t x = id[0]; x < item_count[0]; x++) {
        local_id[0] = x;
        local_id[1] = y;
        local_id[2] = z;
        body(kernarg, group_segment);
      }
}

/* Runs every work-item of the current group from region `state` to the
 * next barrier, x fastest, as __hsacl_for_items. 6.13.8: a barrier must
 * be reached by all work-items of the group or by none, so all must stop
 * at the same barrier (return the same state): the lowest and the highest
 * state reached must be one. Kept as reductions rather than a test that
 * leaves the loop at the first work-item that differs, so that the loop
 * has one exit, as the vectoriser wants it. When tools/hsacl-barriers.c
 * proved that every work-item ends the region at the same barrier
 * (`same_end`), the last work-item's state is the answer: a plain exit
 * value, which the optimiser computes without the loop when the region's
 * end depends on uniform values alone, where the reductions kept every
 * work-item's iteration alive (after IRCE splits off a guard such as
 * `if (x < step)`, the rest of the loop). The work-item ids are set back
 * to 0 after the loop, so that the loop's last ids are no value live after
 * it either. The work-items from x_limit on in x are left out (the pass
 * proved they change nothing and end at skipped_end, cl/cpu_abi.h). The
 * uniform values every work-item left in `uniform_out` are the next
 * region's `uniform_in` (hsacl_region_fn). */
__attribute__((always_inline)) int32_t __hsacl_for_region(const void *kernarg, void *group_segment,
                                                          char *context, uint32_t stride,
                                                          char *uniform_in, char *uniform_out,
                                                          uint32_t uniform_size, uint32_t same_end,
                                                          uint32_t x_limit, int32_t skipped_end,
                                                          hsacl_region_fn region, int32_t state) {
  assume_geometry();
  int32_t lowest = INT32_MAX, highest = INT32_MIN, last = skipped_end;
  uint32_t x_end = item_count[0] < x_limit ? item_count[0] : x_limit;
  for (uint32_t z = 0; z < item_count[2]; z++)
    for (uint32_t y = 0; y < item_count[1]; y++)
      for (uint32_t x = 0; x < x_end; x++) {
        local_id[0] = x;
        local_id[1] = y;
        local_id[2] = z;
        int32_t reached = region(state, context, uniform_in, uniform_out, kernarg, group_segment);
        context += stride;
        if (same_end) {
          last = reached;
        } else {
          lowest = reached < lowest ? reached : lowest;
          highest = reached > highest ? reached : highest;
        }
      }
  local_id[0] = local_id[1] = local_id[2] = 0;
  __builtin_memcpy(uniform_in, uniform_out, uniform_size);
  if (same_end) return last;
  return lowest == highest ? lowest : HSACL_REGIONS_DIVERGED;
}

/* Where a fiber starts (through the `ret` of hsacl_switch); never returns. */
static void fiber_main(void) {
  uint32_t self = current;
  run_current();
  if (self == 0 && mode == MODE_FIRST_ITEM) {
    mode = MODE_PLAIN_LOOP;
    group->kernel->items(group->kernarg, group->group_segment, 1);
  }
  fibers[self].state = FIBER_DONE;
  hsacl_switch(&fibers[self].sp, scheduler_sp);
  __builtin_unreachable();
}

/* The FP control slot of hsacl_switch for the current MXCSR and x87
 * control word: MXCSR in the low 4 bytes, the control word above. */
static uint64_t fp_control_now(void) {
  uint32_t mxcsr;
  uint16_t x87_cw;
  __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
  __asm__ volatile("fnstcw %0" : "=m"(x87_cw));
  return (uint64_t)x87_cw << 32 | mxcsr;
}

/* Sets MXCSR and the x87 control word from a value of fp_control_now. */
static void fp_control_set(uint64_t v) {
  uint32_t mxcsr = (uint32_t)v;
  uint16_t x87_cw = (uint16_t)(v >> 32);
  __asm__ volatile("ldmxcsr %0" : : "m"(mxcsr));
  __asm__ volatile("fldcw %0" : : "m"(x87_cw));
}

/* The top of work-item `item`'s stack, 16-byte aligned, or 0 if the
 * runtime has none. */
static uintptr_t stack_top(uint32_t item) {
  size_t size = 0;
  void *base = group->stack(group->stack_ctx, item, &size);
  if (!base || size < 4096) return 0;
  return ((uintptr_t)base + size) & ~(uintptr_t)15;
}

/* A new fiber's stack: hsacl_switch loads the FP control slot, pops six
 * registers and returns to fiber_main, which then finds rsp + 8 16-byte
 * aligned as a called function does (System V AMD64 ABI, 3.2.2). The slot
 * holds the scheduler's values (fiber_init runs on its stack, where they
 * are the ones the runtime called __hsacl_run_groups with): every work-item
 * starts with the modes of the caller, as a function the runtime called
 * directly would, rather than with the ABI's process-start values (MXCSR
 * 0x1f80, x87 control word 0x037f), which are the same unless the runtime
 * chose others. */
static int fiber_init(uint32_t item) {
  uintptr_t top = stack_top(item);
  if (!top) return -1;
  uint64_t *sp = (uint64_t *)top;
  *--sp = 0;                               /* fiber_main's return address: none */
  *--sp = (uint64_t)(uintptr_t)fiber_main; /* hsacl_switch's ret */
  for (int r = 0; r < 6; r++) *--sp = 0;   /* rbp, rbx, r12-r15 */
  *--sp = fp_control_now();
  fibers[item].sp = sp;
  fibers[item].state = FIBER_NEW;
  item_id(item, fibers[item].id);
  return 0;
}

static void resume(uint32_t item) {
  set_item(item);
  fibers[item].state = FIBER_RUNNING;
  hsacl_switch(&scheduler_sp, fibers[item].sp);
}

/* Makes the group at group_id the current one: its size is local_size,
 * less at the grid's far edge (6.13.1, get_local_size). */
static void start_group(void) {
  for (int d = 0; d < 3; d++) {
    uint32_t left = global_size[d] - group_id[d] * local_size[d];
    item_count[d] = left < local_size[d] ? left : local_size[d];
  }
  items = item_count[0] * item_count[1] * item_count[2];
}

/* The group after the current one in linear order, x fastest. */
static void next_group(void) {
  for (int d = 0; d < 3 && ++group_id[d] == num_groups[d]; d++) group_id[d] = 0;
}

/* The run's groups of a kernel with a group function, called on item 0's
 * stack (hsacl_call_on_stack), which the loop stays on: each group costs
 * a call of the group function, no switch. Stops at the first group that
 * fails. */
static uint32_t run_cut_groups(const uint8_t *kernarg, void *group_segment, char *context) {
  hsacl_group_fn fn = group->kernel->group;
  for (uint64_t n = 0; n < group->group_count; n++) {
    if (n) next_group();
    start_group();
    /* The ids item 0 has: what the group function's routing calls see
     * (tools/hsacl-barriers.c, step 8), as work-item 0 would. */
    local_id[0] = local_id[1] = local_id[2] = 0;
    uint32_t status = fn(kernarg, group_segment, context);
    if (status != HSACL_OK) return status;
  }
  return HSACL_OK;
}

/* The current group of a kernel without a group function: item 0 on a
 * fiber, then the plain loop or a fiber for every work-item. Sets
 * group->status. */
static void run_group_on_fibers(void) {
  if (fiber_init(0) != 0) {
    group->status = HSACL_NO_STACK;
    return;
  }
  mode = MODE_FIRST_ITEM;
  resume(0);
  if (fibers[0].state == FIBER_DONE) return; /* no barrier: the plain loop ran them all */
  /* Item 0 waits at its first barrier: bring the others there, then let
   * the group through one barrier after another. */
  uint32_t first = 1;
  for (;;) {
    uint32_t waiting = 0, finished = 0;
    for (uint32_t i = first; i < items; i++) {
      if (first == 1 && fiber_init(i) != 0) { /* the first pass starts them */
        group->status = HSACL_NO_STACK;
        return;
      }
      if (fibers[i].state == FIBER_DONE) continue;
      resume(i);
      if (fibers[i].state == FIBER_WAITING)
        waiting++;
      else
        finished++;
    }
    if (first == 1) waiting++; /* item 0 */
    first = 0;
    if (waiting == 0) return;
    if (finished) group->status = HSACL_BARRIER_DIVERGENCE; /* and let the rest finish */
  }
}

EXPORT void __hsacl_run_groups(struct hsacl_group *g) {
  group = g;
  g->status = HSACL_OK;
  dims = g->dims;
  for (int d = 0; d < 3; d++) {
    local_size[d] = g->local_size[d];
    global_size[d] = g->global_size[d];
    group_id[d] = g->group_id[d];
    num_groups[d] = g->num_groups[d];
    global_offset[d] = g->global_offset[d];
  }
  uint64_t whole = (uint64_t)local_size[0] * local_size[1] * local_size[2];
  if (whole == 0 || whole > HSACL_MAX_ITEMS) {
    g->status = HSACL_NO_STACK;
    return;
  }
  if (g->kernel->group) {
    /* Called on item 0's stack rather than switched to as a fiber: no
     * other stack is needed until it returns, so a call costs less than
     * two switches. The modes are put back if the kernel changed them,
     * as the switch back would. */
    uintptr_t top = stack_top(0);
    if (!top || (!g->context && g->kernel->context_stride)) {
      g->status = HSACL_NO_STACK;
      return;
    }
    uint64_t fp = fp_control_now();
    g->status =
        hsacl_call_on_stack(run_cut_groups, g->kernarg, g->group_segment, g->context, (void *)top);
    if (fp_control_now() != fp) fp_control_set(fp);
  } else {
    for (uint64_t n = 0; n < g->group_count && g->status == HSACL_OK; n++) {
      if (n) next_group();
      start_group();
      run_group_on_fibers();
    }
  }
  if (g->status != HSACL_OK)
    for (int d = 0; d < 3; d++) g->group_id[d] = group_id[d];
}

static void barrier_wait(uint32_t flags, uint32_t scope) {
  if (scope >= memory_scope_device && (flags & CLK_GLOBAL_MEM_FENCE))
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
  else
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
  if (mode == MODE_PLAIN_LOOP) {
    group->status = HSACL_BARRIER_DIVERGENCE; /* item 0 returned without one */
    return;
  }
  if (items == 1) return;
  mode = MODE_FIBERS;
  uint32_t self = current;
  fibers[self].state = FIBER_WAITING;
  hsacl_switch(&fibers[self].sp, scheduler_sp);
  set_item(self);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

OVL void barrier(uint32_t flags) { barrier_wait(flags, memory_scope_work_group); }
OVL void work_group_barrier(uint32_t flags) { barrier_wait(flags, memory_scope_work_group); }
OVL void work_group_barrier(uint32_t flags, enum memory_scope scope) {
  barrier_wait(flags, (uint32_t)scope);
}

/* 6.13.1: for a dimension index past get_work_dim() - 1, sizes are 1 and
 * ids and offsets 0. */
#define WORKITEM __attribute__((overloadable, always_inline))
WORKITEM uint32_t get_work_dim(void) { return dims; }
WORKITEM size_t get_global_size(uint32_t d) { return d < dims ? global_size[d] : 1; }
WORKITEM size_t get_local_size(uint32_t d) { return d < dims ? item_count[d] : 1; }
WORKITEM size_t get_enqueued_local_size(uint32_t d) { return d < dims ? local_size[d] : 1; }
WORKITEM size_t get_num_groups(uint32_t d) { return d < dims ? num_groups[d] : 1; }
WORKITEM size_t get_group_id(uint32_t d) { return d < dims ? group_id[d] : 0; }
WORKITEM size_t get_local_id(uint32_t d) { return d < dims ? local_id[d] : 0; }
WORKITEM size_t get_global_offset(uint32_t d) { return d < dims ? global_offset[d] : 0; }
WORKITEM size_t get_global_id(uint32_t d) {
  if (d >= dims) return 0;
  return (size_t)group_id[d] * local_size[d] + local_id[d] + global_offset[d];
}
WORKITEM size_t get_global_linear_id(void) {
  size_t id = 0;
  for (int d = 2; d >= 0; d--) {
    size_t gid = (size_t)group_id[d] * local_size[d] + local_id[d];
    id = id * global_size[d] + gid;
  }
  return id;
}
WORKITEM size_t get_local_linear_id(void) {
  return ((size_t)local_id[2] * item_count[1] + local_id[1]) * item_count[0] + local_id[0];
}
