/*
 * hsacl-barriers - tools/hsacc's pass over the linked CPU bitcode that lets
 * the work-items of a group run one after the other between work-group
 * barriers, without a stack of their own (cl/cpu_abi.h, hsacl_region_fn).
 *
 *   hsacl-barriers IN.bc OUT.bc
 *
 * For every kernel whose wrapper (__hsacl_wrap_<kernel>) reaches a barrier
 * (the overloads of barrier and work_group_barrier that cl/workitem.c
 * defines, OpenCL C 2.0 6.13.8), the pass adds
 *
 *   int32_t __hsacl_region_<kernel>(int32_t state, char *context,
 *                                   const char *uniform_in, char *uniform_out,
 *                                   const void *kernarg, void *group_segment)
 *
 * the wrapper's body with everything it calls that reaches a barrier
 * inlined, cut at each barrier: it runs from its start (state 0) or from
 * after barrier k (state k) up to the next barrier k' (returns k') or the
 * end (returns -1). A barrier becomes the fence it implies for the other
 * cores (a sequentially consistent fence for device scope with
 * CLK_GLOBAL_MEM_FENCE, as cl/workitem.c's barrier_wait makes it; none for
 * the work-group, whose work-items run in one thread). Values that one
 * piece leaves to another live in the work-item's `context`, but for those
 * the next piece can compute again as cheaply (calls of the work-item
 * functions, loads of the read-only kernarg, and arithmetic on them);
 * everything else stays local to the call, for the optimiser to keep in
 * registers. Of the values in the context, those the same for every
 * work-item of the group (a loop counter of a loop with a barrier, a value
 * computed from the kernarg and the group id) are kept once for the group
 * instead, where the optimiser sees that they do not change from one
 * work-item to the next (cl/cpu_abi.h, hsacl_region_fn). The region
 * function is alwaysinline: hsacc's group function calls it once per
 * state, with the state a constant, so that each copy keeps only its
 * region's code. stdout gets one line "<kernel> <context bytes per
 * work-item> <barriers> <uniform bytes per group> <same end> <routed>
 * <run>..." per kernel cut so: <same end> 1 when every work-item ends each
 * region at the same barrier (step 6), else 0; <routed> 1 when the group
 * function calls the region with STATE_ROUTE(k) after barrier k (step 8);
 * each <run> "<state>:<bound offset>:<end>" a state the group function
 * runs the work-items from, with the offset in the uniform areas of the
 * uint32_t bound in x (-1: none) and the state the work-items past it end
 * at. "<kernel> 0 0 0 1 0 0:-1:0" per kernel that reaches no barrier
 * (hsacc runs its work-items in one loop from item 0); a kernel it cannot
 * cut gets a note on stderr (it keeps one fiber per work-item) and no
 * line.
 *
 * How (LLVM Language Reference Manual for the IR's rules):
 *   1. the functions that reach a barrier get alwaysinline and the
 *      module's "always-inline" and SROA passes run (LLVMRunPasses), the
 *      work-item functions kept from inlining for the time (noinline) so
 *      that their calls stay recognisable;
 *   2. in the region function, phi nodes become stack slots (allocas of
 *      the entry block, as LLVM's reg2mem makes them);
 *   3. the entry block switches on `state`; each barrier's block ends in
 *      `ret k`, the rest of it is the block state k enters;
 *   4. a value used outside the block that defines it is made again before
 *      each such use (a copy of the instructions that compute it) when
 *      only calls of the work-item functions, loads from the kernarg and
 *      arithmetic compute it from constants and the region's parameters:
 *      it is the same for the work-item in every region. Any other such
 *      value becomes a stack slot, so that the cut breaks no SSA dominance;
 *   5. backward liveness of the slots from each block a state enters: a
 *      slot read there before it is written, or whose address is used
 *      otherwise than by a load or store, lives in the context (offsets by
 *      the module's data layout, LLVMABISizeOfType / alignment);
 *   6. which slots are uniform, the same for every work-item of the group
 *      at every point of the region (a divergence analysis: post-dominators
 *      and control dependence over the region's blocks, then a fixed point
 *      over values and slots, uniform_slots below);
 *   7. a uniform slot that lives across a barrier is kept in the group's
 *      uniform areas rather than the context: copied from `uniform_in` at
 *      the region's entry into a slot of the call's own, and from it to
 *      `uniform_out` before each return. `uniform_in` does not change while
 *      the work-items run the region one after the other, so each reads the
 *      value of the region's start even after another wrote a new one; the
 *      group function copies `uniform_out` to `uniform_in` between regions;
 *   8. the uniform start of each region (blocks every work-item runs the
 *      same way, touching only uniform slots and the kernarg) runs once
 *      per group, in a routing call before the loop over the work-items,
 *      which returns the state of the block where the start ends; the
 *      work-items enter there, so that the uniform branches of the start
 *      are no branches in the loop. When that block ends in
 *      `get_local_id(0) < bound` and the work-items out of range change
 *      nothing, the call also reports the bound and only the work-items in
 *      range run (route below).
 * Exit status 0, or 1 after a message (unreadable input, invalid result).
 */
#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The barriers cl/workitem.c defines, Itanium-mangled as clang mangles
 * opencl-c.h's overloads. */
static const char *const barrier_names[] = {
    "_Z7barrierj",                           /* barrier(cl_mem_fence_flags) */
    "_Z18work_group_barrierj",               /* work_group_barrier(flags) */
    "_Z18work_group_barrierj12memory_scope", /* work_group_barrier(flags, scope) */
};
/* The work-item functions cl/workitem.c defines (OpenCL C 2.0 6.13.1),
 * mangled the same way: pure functions of the work-group and the
 * work-item, so that a call of one may be made again in a later region
 * rather than its result kept in the context. */
static const char *const workitem_names[] = {
    "_Z12get_work_dimv",        "_Z15get_global_sizej",
    "_Z14get_local_sizej",      "_Z23get_enqueued_local_sizej",
    "_Z14get_num_groupsj",      "_Z12get_group_idj",
    "_Z12get_local_idj",        "_Z17get_global_offsetj",
    "_Z13get_global_idj",       "_Z20get_global_linear_idv",
    "_Z19get_local_linear_idv",
};
#define WRAPPER_PREFIX "__hsacl_wrap_"
#define REGION_PREFIX  "__hsacl_region_"
/* opencl-c-base.h, and clang's __OPENCL_MEMORY_SCOPE_DEVICE */
#define CLK_GLOBAL_MEM_FENCE 0x02
#define MEMORY_SCOPE_DEVICE  2
/* The runtime's context buffer is 64-byte aligned (hsa/cl_program.c). */
#define CONTEXT_ALIGN_MAX 64u
#define CONTEXT_ALIGN_MIN 16u
/* The region function's parameters (cl/cpu_abi.h, hsacl_region_fn). */
enum {
  PARAM_STATE,
  PARAM_CONTEXT,
  PARAM_UNIFORM_IN,
  PARAM_UNIFORM_OUT,
  PARAM_KERNARG,
  PARAM_GROUP_SEGMENT,
  PARAM_COUNT
};

static LLVMContextRef ctx;
static LLVMModuleRef mod;
static LLVMTargetDataRef layout;

static void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("hsacl-barriers: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(1);
}

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p) die("out of memory");
  return p;
}

/* Appends x to the array *v of *n (room for *cap), grown as needed. */
static void push_u32(uint32_t **v, uint32_t *n, uint32_t *cap, uint32_t x) {
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 8;
    *v = realloc(*v, *cap * sizeof **v);
    if (!*v) die("out of memory");
  }
  (*v)[(*n)++] = x;
}

/* ---- pointer -> index map (open addressing) ---------------------------- */

struct index_map {
  const void **keys;
  uint32_t *values;
  size_t mask;
};

static void map_init(struct index_map *m, size_t n) {
  size_t cap = 16;
  while (cap < 2 * n) cap *= 2;
  m->keys = xcalloc(cap, sizeof *m->keys);
  m->values = xcalloc(cap, sizeof *m->values);
  m->mask = cap - 1;
}

static size_t map_slot(const struct index_map *m, const void *key) {
  size_t h = ((uintptr_t)key >> 4) * 0x9e3779b97f4a7c15ull;
  for (size_t i = h & m->mask;; i = (i + 1) & m->mask)
    if (!m->keys[i] || m->keys[i] == key) return i;
}

static void map_put(struct index_map *m, const void *key, uint32_t value) {
  size_t i = map_slot(m, key);
  m->keys[i] = key;
  m->values[i] = value;
}

/* The value of `key`, or -1. */
static int64_t map_get(const struct index_map *m, const void *key) {
  size_t i = map_slot(m, key);
  return m->keys[i] ? (int64_t)m->values[i] : -1;
}

static void map_free(struct index_map *m) {
  free(m->keys);
  free(m->values);
}

/* ---- which functions reach a barrier ------------------------------------- */

struct call_graph {
  uint32_t count;
  LLVMValueRef *fns;
  struct index_map index;
  uint32_t **callees; /* per function: indexes of the functions it calls directly */
  uint32_t *callee_count;
  bool *reaches;   /* calls a barrier, directly or not */
  bool *recursive; /* among the functions that reach a barrier, on a cycle */
};

static bool named_one_of(LLVMValueRef fn, const char *const *names, size_t count) {
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  for (size_t i = 0; i < count; i++)
    if (strcmp(name, names[i]) == 0) return true;
  return false;
}

static bool is_barrier(LLVMValueRef fn) {
  return named_one_of(fn, barrier_names, sizeof barrier_names / sizeof *barrier_names);
}

static bool is_workitem_fn(LLVMValueRef fn) {
  return named_one_of(fn, workitem_names, sizeof workitem_names / sizeof *workitem_names);
}

/* The function a call instruction calls, or NULL (indirect, inline asm). */
static LLVMValueRef direct_callee(LLVMValueRef call) {
  LLVMValueRef c = LLVMGetCalledValue(call);
  return c && LLVMIsAFunction(c) ? c : NULL;
}

static bool reaches_from(const struct call_graph *g, uint32_t from, uint32_t target, bool *seen) {
  for (uint32_t i = 0; i < g->callee_count[from]; i++) {
    uint32_t c = g->callees[from][i];
    if (c == target) return true;
    if (seen[c] || !g->reaches[c]) continue;
    seen[c] = true;
    if (reaches_from(g, c, target, seen)) return true;
  }
  return false;
}

static void call_graph_build(struct call_graph *g) {
  g->count = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) g->count++;
  g->fns = xcalloc(g->count, sizeof *g->fns);
  g->callees = xcalloc(g->count, sizeof *g->callees);
  g->callee_count = xcalloc(g->count, sizeof *g->callee_count);
  g->reaches = xcalloc(g->count, sizeof *g->reaches);
  g->recursive = xcalloc(g->count, sizeof *g->recursive);
  map_init(&g->index, g->count);
  uint32_t n = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
    map_put(&g->index, f, n);
    g->fns[n++] = f;
  }
  for (uint32_t i = 0; i < g->count; i++) {
    uint32_t cap = 0;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(g->fns[i]); b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef in = LLVMGetFirstInstruction(b); in; in = LLVMGetNextInstruction(in)) {
        LLVMValueRef callee = LLVMIsACallInst(in) ? direct_callee(in) : NULL;
        if (!callee) continue;
        if (is_barrier(callee)) g->reaches[i] = true;
        push_u32(&g->callees[i], &g->callee_count[i], &cap, (uint32_t)map_get(&g->index, callee));
      }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = 0; i < g->count; i++)
      for (uint32_t c = 0; c < g->callee_count[i] && !g->reaches[i]; c++)
        if (g->reaches[g->callees[i][c]] && !is_barrier(g->fns[g->callees[i][c]]))
          g->reaches[i] = changed = true;
  }
  bool *seen = xcalloc(g->count, sizeof *seen);
  for (uint32_t i = 0; i < g->count; i++) {
    if (!g->reaches[i]) continue;
    memset(seen, 0, g->count * sizeof *seen);
    g->recursive[i] = reaches_from(g, i, i, seen);
  }
  free(seen);
}

static bool has_fn_attr(LLVMValueRef fn, const char *name) {
  unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
  return LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, kind) != NULL;
}

/* Why the functions reaching a barrier from `from` cannot all be inlined
 * (NULL: they can), into why[]. */
static const char *why_not_inlinable(const struct call_graph *g, uint32_t from, bool *seen,
                                     char *why, size_t size) {
  for (uint32_t i = 0; i < g->callee_count[from]; i++) {
    uint32_t c = g->callees[from][i];
    if (seen[c] || !g->reaches[c] || is_barrier(g->fns[c])) continue;
    seen[c] = true;
    size_t len;
    const char *name = LLVMGetValueName2(g->fns[c], &len);
    if (g->recursive[c]) {
      snprintf(why, size, "a barrier in %s, which is recursive", name);
      return why;
    }
    if (has_fn_attr(g->fns[c], "noinline")) {
      snprintf(why, size, "a barrier in %s, which is marked noinline", name);
      return why;
    }
    if (why_not_inlinable(g, c, seen, why, size)) return why;
  }
  return NULL;
}

static void add_fn_attr(LLVMValueRef fn, const char *name) {
  unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, kind, 0));
}

static void remove_fn_attr(LLVMValueRef fn, const char *name) {
  LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                                 LLVMGetEnumAttributeKindForName(name, strlen(name)));
}

/* ---- the region function --------------------------------------------------- */

static void note(const char *kernel, const char *why) {
  fprintf(stderr, "hsacl-barriers: note: kernel %s keeps one fiber per work-item: %s\n", kernel,
          why);
}

/* int32_t __hsacl_region_<kernel>(int32_t, char *, const char *, char *,
 *                                 const void *, void *)
 * calling the wrapper, with the wrapper's function attributes (target
 * features: the inliner inlines a callee only into a caller whose
 * features include its own). */
static LLVMValueRef region_create(LLVMValueRef wrapper, const char *kernel) {
  LLVMTypeRef wty = LLVMGlobalGetValueType(wrapper);
  if (LLVMCountParamTypes(wty) != 2)
    die("%s: the wrapper does not take (kernarg, group segment)", kernel);
  LLVMTypeRef wparams[2];
  LLVMGetParamTypes(wty, wparams);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0);
  LLVMTypeRef params[PARAM_COUNT] = {i32, ptr, ptr, ptr, wparams[0], wparams[1]};
  char name[512];
  snprintf(name, sizeof name, REGION_PREFIX "%s", kernel);
  LLVMValueRef region = LLVMAddFunction(mod, name, LLVMFunctionType(i32, params, PARAM_COUNT, 0));
  unsigned n = LLVMGetAttributeCountAtIndex(wrapper, LLVMAttributeFunctionIndex);
  LLVMAttributeRef *attrs = xcalloc(n, sizeof *attrs);
  LLVMGetAttributesAtIndex(wrapper, LLVMAttributeFunctionIndex, attrs);
  for (unsigned i = 0; i < n; i++) {
    if (LLVMIsEnumAttribute(attrs[i])) {
      unsigned kind = LLVMGetEnumAttributeKind(attrs[i]);
      if (kind == LLVMGetEnumAttributeKindForName("alwaysinline", 12) ||
          kind == LLVMGetEnumAttributeKindForName("noinline", 8))
        continue;
    }
    LLVMAddAttributeAtIndex(region, LLVMAttributeFunctionIndex, attrs[i]);
  }
  free(attrs);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, region, "entry"));
  LLVMValueRef args[2] = {LLVMGetParam(region, PARAM_KERNARG),
                          LLVMGetParam(region, PARAM_GROUP_SEGMENT)};
  LLVMBuildCall2(b, wty, wrapper, args, 2, "");
  LLVMBuildRet(b, LLVMConstInt(i32, (unsigned long long)-1, true));
  LLVMDisposeBuilder(b);
  return region;
}

static bool is_lifetime_marker(LLVMValueRef in) {
  LLVMValueRef callee = LLVMIsACallInst(in) ? direct_callee(in) : NULL;
  size_t len;
  return callee && strncmp(LLVMGetValueName2(callee, &len), "llvm.lifetime.", 14) == 0;
}

/* What keeps the inlined region from being cut (NULL: nothing), into why[]. */
static const char *region_check(const struct call_graph *g, LLVMValueRef region, char *why,
                                size_t size) {
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(region);
  for (LLVMBasicBlockRef b = entry; b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef in = LLVMGetFirstInstruction(b); in; in = LLVMGetNextInstruction(in)) {
      if (LLVMIsAAllocaInst(in) && (b != entry || !LLVMIsAConstant(LLVMGetOperand(in, 0)))) {
        snprintf(why, size, "a stack allocation of run-time size");
        return why;
      }
      if (LLVMIsAInvokeInst(in) || LLVMIsACallBrInst(in)) {
        snprintf(why, size, "an invoke or callbr instruction");
        return why;
      }
      if (!LLVMIsACallInst(in)) continue;
      LLVMValueRef callee = direct_callee(in);
      if (!callee) {
        if (!LLVMIsAInlineAsm(LLVMGetCalledValue(in))) {
          snprintf(why, size, "an indirect call");
          return why;
        }
        continue;
      }
      int64_t c = map_get(&g->index, callee);
      size_t len;
      if (c >= 0 && g->reaches[c] && !is_barrier(callee)) {
        snprintf(why, size, "a call of %s, which reaches a barrier, was not inlined",
                 LLVMGetValueName2(callee, &len));
        return why;
      }
    }
  return NULL;
}

static void delete_lifetime_markers(LLVMValueRef region) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(region); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef in = LLVMGetFirstInstruction(b), next; in; in = next) {
      next = LLVMGetNextInstruction(in);
      if (is_lifetime_marker(in)) LLVMInstructionEraseFromParent(in);
    }
}

/* A new stack slot for values of type `ty`, at the top of the entry block
 * (which is empty while the cut is made if the kernel had no slot yet). */
static LLVMValueRef new_slot(LLVMBuilderRef b, LLVMValueRef region, LLVMTypeRef ty) {
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(region);
  LLVMValueRef first = LLVMGetFirstInstruction(entry);
  if (first)
    LLVMPositionBuilderBefore(b, first);
  else
    LLVMPositionBuilderAtEnd(b, entry);
  return LLVMBuildAlloca(b, ty, "");
}

/* Every phi node becomes a slot: stored at the end of each predecessor,
 * loaded where the phi was (LLVM's DemotePHIToStack does the same). */
static void demote_phis(LLVMBuilderRef b, LLVMValueRef region) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(region); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb), next; in && LLVMIsAPHINode(in); in = next) {
      next = LLVMGetNextInstruction(in);
      LLVMTypeRef ty = LLVMTypeOf(in);
      LLVMValueRef slot = new_slot(b, region, ty);
      for (unsigned i = 0; i < LLVMCountIncoming(in); i++) {
        LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(LLVMGetIncomingBlock(in, i)));
        LLVMBuildStore(b, LLVMGetIncomingValue(in, i), slot);
      }
      LLVMValueRef first = LLVMGetFirstInstruction(bb);
      while (LLVMIsAPHINode(first)) first = LLVMGetNextInstruction(first);
      LLVMPositionBuilderBefore(b, first);
      LLVMValueRef load = LLVMBuildLoad2(b, ty, slot, "");
      LLVMReplaceAllUsesWith(in, load);
      LLVMInstructionEraseFromParent(in);
    }
}

/* The users of `in` outside its block, each once (a user of two operands
 * is listed once), into *users (grown as needed); returns their count. */
static size_t users_elsewhere(LLVMValueRef in, LLVMValueRef **users, size_t *cap) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(in);
  size_t n = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(in); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    bool listed = LLVMGetInstructionParent(user) == bb;
    for (size_t k = 0; k < n && !listed; k++) listed = (*users)[k] == user;
    if (listed) continue;
    if (n == *cap) {
      *cap = *cap ? 2 * *cap : 16;
      *users = realloc(*users, *cap * sizeof **users);
      if (!*users) die("out of memory");
    }
    (*users)[n++] = user;
  }
  return n;
}

/* `user`'s operands that are `in`, made `by`. */
static void replace_operand(LLVMValueRef user, LLVMValueRef in, LLVMValueRef by) {
  for (int op = 0; op < LLVMGetNumOperands(user); op++)
    if (LLVMGetOperand(user, (unsigned)op) == in) LLVMSetOperand(user, (unsigned)op, by);
}

/* Every instruction used in another block than its own (allocas of the
 * entry block aside) becomes a slot: stored after it, loaded before each
 * such use (LLVM's DemoteRegToStack). */
static void demote_values_across_blocks(LLVMBuilderRef b, LLVMValueRef region) {
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(region);
  LLVMValueRef *users = NULL;
  size_t cap = 0;
  for (LLVMBasicBlockRef bb = entry; bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
      if (bb == entry && LLVMIsAAllocaInst(in)) continue;
      size_t n = users_elsewhere(in, &users, &cap);
      if (!n) continue;
      LLVMTypeRef ty = LLVMTypeOf(in);
      LLVMValueRef slot = new_slot(b, region, ty);
      LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(in));
      LLVMBuildStore(b, in, slot);
      for (size_t i = 0; i < n; i++) {
        LLVMPositionBuilderBefore(b, users[i]);
        replace_operand(users[i], in, LLVMBuildLoad2(b, ty, slot, ""));
      }
    }
  free(users);
}

/* ---- values made again rather than kept ----------------------------------- */

#define REMAKE_MAX_INSTRUCTIONS 16 /* a copy longer than this is not cheap */

/* Whether `v` is the same in every region of the work-item and cheap to
 * compute again (step 4 above): counts the instructions a copy would take
 * into *count. */
static bool remakeable(LLVMValueRef v, LLVMValueRef region, unsigned *count) {
  if (LLVMIsAConstant(v)) return true;
  if (LLVMIsAArgument(v)) return v != LLVMGetParam(region, PARAM_STATE); /* the region's own */
  if (!LLVMIsAInstruction(v) || ++*count > REMAKE_MAX_INSTRUCTIONS) return false;
  if (LLVMIsALoadInst(v)) {
    /* The kernarg is read-only while the kernel runs (cl/cpu_abi.h). */
    if (LLVMGetVolatile(v) || LLVMGetOrdering(v) != LLVMAtomicOrderingNotAtomic) return false;
    LLVMValueRef p = LLVMGetOperand(v, 0);
    while (LLVMIsAGetElementPtrInst(p)) {
      for (int i = 1; i < LLVMGetNumOperands(p); i++)
        if (!LLVMIsAConstantInt(LLVMGetOperand(p, (unsigned)i))) return false;
      p = LLVMGetOperand(p, 0);
    }
    return p == LLVMGetParam(region, PARAM_KERNARG) && remakeable(LLVMGetOperand(v, 0), region, count);
  }
  if (LLVMIsACallInst(v)) {
    LLVMValueRef callee = direct_callee(v);
    if (!callee || !is_workitem_fn(callee)) return false;
    for (unsigned i = 0; i < LLVMGetNumArgOperands(v); i++)
      if (!remakeable(LLVMGetOperand(v, i), region, count)) return false;
    return true;
  }
  /* Not freeze: a copy of one of poison may give another value. */
  if (!LLVMIsACastInst(v) && !LLVMIsABinaryOperator(v) && !LLVMIsACmpInst(v) &&
      !LLVMIsASelectInst(v) && !LLVMIsAGetElementPtrInst(v))
    return false;
  for (int i = 0; i < LLVMGetNumOperands(v); i++)
    if (!remakeable(LLVMGetOperand(v, (unsigned)i), region, count)) return false;
  return true;
}

/* A copy of remakeable `v` before the builder's position. */
static LLVMValueRef remake(LLVMBuilderRef b, LLVMValueRef v) {
  if (!LLVMIsAInstruction(v)) return v;
  LLVMValueRef copy = LLVMInstructionClone(v);
  int n = LLVMIsACallInst(v) ? (int)LLVMGetNumArgOperands(v) : LLVMGetNumOperands(v);
  for (int i = 0; i < n; i++)
    LLVMSetOperand(copy, (unsigned)i, remake(b, LLVMGetOperand(v, (unsigned)i)));
  LLVMInsertIntoBuilder(b, copy);
  return copy;
}

/* Step 4: every use of a remakeable value outside its block gets a copy. */
static void remake_values_across_blocks(LLVMBuilderRef b, LLVMValueRef region) {
  LLVMValueRef *users = NULL;
  size_t cap = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(region); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
      unsigned count = 0;
      if (LLVMIsAAllocaInst(in) || !remakeable(in, region, &count)) continue;
      size_t n = users_elsewhere(in, &users, &cap);
      for (size_t i = 0; i < n; i++) {
        LLVMPositionBuilderBefore(b, users[i]);
        replace_operand(users[i], in, remake(b, in));
      }
    }
  free(users);
}

/* Moves `from` and the instructions after it, into `to`. */
static void move_tail(LLVMBuilderRef b, LLVMValueRef from, LLVMBasicBlockRef to) {
  LLVMPositionBuilderAtEnd(b, to);
  for (LLVMValueRef in = from, next; in; in = next) {
    next = LLVMGetNextInstruction(in);
    LLVMInstructionRemoveFromParent(in);
    LLVMInsertIntoBuilder(b, in);
  }
}

static bool const_u64(LLVMValueRef v, uint64_t *out) {
  if (!LLVMIsAConstantInt(v)) return false;
  *out = LLVMConstIntGetZExtValue(v);
  return true;
}

/* The fence barrier `call` implies for the other cores: a sequentially
 * consistent one for device scope with global memory (cl/workitem.c's
 * barrier_wait), none for the work-group. The work-items of a group run
 * one after the other in one thread, region after region (the group
 * function's loops), so program order already puts every access of a
 * region before those of the next, for the compiler as for the core: a
 * compiler barrier here would only keep the optimiser from the loop over
 * the work-items (no vector code, the work-item state stored for every
 * work-item). An argument that is not a constant gets the fence. */
static void build_barrier_fence(LLVMBuilderRef b, LLVMValueRef call) {
  size_t len;
  const char *name = LLVMGetValueName2(direct_callee(call), &len);
  if (strcmp(name, "_Z18work_group_barrierj12memory_scope") != 0) return;
  uint64_t flags, scope;
  if (!const_u64(LLVMGetOperand(call, 0), &flags) || !const_u64(LLVMGetOperand(call, 1), &scope) ||
      (scope >= MEMORY_SCOPE_DEVICE && (flags & CLK_GLOBAL_MEM_FENCE)))
    LLVMBuildFence(b, LLVMAtomicOrderingSequentiallyConsistent, false, "");
}

/* ---- slots live across a barrier -------------------------------------------- */

struct bitset_rows {
  uint32_t words;
  uint64_t *bits;
};

static uint64_t *row(struct bitset_rows *r, uint32_t i) { return r->bits + (size_t)i * r->words; }
static void bit_set(uint64_t *row, uint32_t i) { row[i / 64] |= 1ull << (i % 64); }
static bool bit_get(const uint64_t *row, uint32_t i) { return row[i / 64] >> (i % 64) & 1; }

/* Whether `in` loads from or stores to `slot` itself, the whole of it for
 * a store (*whole). */
static bool slot_access(LLVMValueRef in, LLVMValueRef slot, uint64_t slot_size, bool *whole) {
  *whole = false;
  if (LLVMIsALoadInst(in)) return LLVMGetOperand(in, 0) == slot;
  if (LLVMIsAStoreInst(in) && LLVMGetOperand(in, 1) == slot) {
    *whole = LLVMABISizeOfType(layout, LLVMTypeOf(LLVMGetOperand(in, 0))) == slot_size;
    return true;
  }
  return false;
}

/* Whether the address of `slot` is used otherwise than to load from it or
 * store to it. */
static bool slot_escapes(LLVMValueRef slot) {
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user)) continue;
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == slot &&
        LLVMGetOperand(user, 0) != slot)
      continue;
    return true;
  }
  return false;
}

static uint64_t slot_size(LLVMValueRef slot) {
  uint64_t count = LLVMConstIntGetZExtValue(LLVMGetOperand(slot, 0));
  return LLVMABISizeOfType(layout, LLVMGetAllocatedType(slot)) * count;
}

/* Marks in_context[s] for every slot read, before being written whole, on
 * some path from a block in `starts` (backward liveness). */
static void live_across(LLVMValueRef region, LLVMValueRef *slots, uint32_t nslots,
                        LLVMBasicBlockRef *starts, uint32_t nstarts, bool *in_context) {
  uint32_t nblocks = LLVMCountBasicBlocks(region);
  LLVMBasicBlockRef *blocks = xcalloc(nblocks, sizeof *blocks);
  LLVMGetBasicBlocks(region, blocks);
  struct index_map block_index, slot_index;
  map_init(&block_index, nblocks);
  map_init(&slot_index, nslots);
  for (uint32_t i = 0; i < nblocks; i++) map_put(&block_index, blocks[i], i);
  for (uint32_t s = 0; s < nslots; s++) map_put(&slot_index, slots[s], s);
  uint64_t *sizes = xcalloc(nslots, sizeof *sizes);
  for (uint32_t s = 0; s < nslots; s++) sizes[s] = slot_size(slots[s]);
  uint32_t words = (nslots + 63) / 64;
  struct bitset_rows uses = {words, xcalloc((size_t)nblocks * words, 8)};
  struct bitset_rows kills = {words, xcalloc((size_t)nblocks * words, 8)};
  struct bitset_rows live = {words, xcalloc((size_t)nblocks * words, 8)};
  for (uint32_t i = 0; i < nblocks; i++)
    for (LLVMValueRef in = LLVMGetFirstInstruction(blocks[i]); in;
         in = LLVMGetNextInstruction(in)) {
      LLVMValueRef ptr = LLVMIsALoadInst(in)    ? LLVMGetOperand(in, 0)
                         : LLVMIsAStoreInst(in) ? LLVMGetOperand(in, 1)
                                                : NULL;
      int64_t s = ptr ? map_get(&slot_index, ptr) : -1;
      bool whole;
      if (s < 0 || !slot_access(in, slots[s], sizes[s], &whole)) continue;
      if (whole)
        bit_set(row(&kills, i), (uint32_t)s);
      else if (!bit_get(row(&kills, i), (uint32_t)s))
        bit_set(row(&uses, i), (uint32_t)s); /* a load, or a partial store: reads what was there */
    }
  /* live_in(b) = uses(b) | (union of live_in(successors) & ~kills(b)) */
  uint64_t *out = xcalloc(words, 8);
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = nblocks; i-- > 0;) {
      memset(out, 0, words * 8);
      LLVMValueRef term = LLVMGetBasicBlockTerminator(blocks[i]);
      for (unsigned k = 0; term && k < LLVMGetNumSuccessors(term); k++) {
        const uint64_t *succ =
            row(&live, (uint32_t)map_get(&block_index, LLVMGetSuccessor(term, k)));
        for (uint32_t w = 0; w < words; w++) out[w] |= succ[w];
      }
      uint64_t *in = row(&live, i);
      for (uint32_t w = 0; w < words; w++) {
        uint64_t v = row(&uses, i)[w] | (out[w] & ~row(&kills, i)[w]);
        if (v != in[w]) in[w] = v, changed = true;
      }
    }
  }
  for (uint32_t k = 0; k < nstarts; k++) {
    const uint64_t *in = row(&live, (uint32_t)map_get(&block_index, starts[k]));
    for (uint32_t s = 0; s < nslots; s++)
      if (bit_get(in, s)) in_context[s] = true;
  }
  free(out);
  free(uses.bits);
  free(kills.bits);
  free(live.bits);
  free(sizes);
  map_free(&block_index);
  map_free(&slot_index);
  free(blocks);
}

/* ---- slots the same for every work-item of the group ------------------------ */

/* The work-item functions whose result differs between the work-items of
 * a group (OpenCL C 2.0 6.13.1); the others answer for the whole group. */
static const char *const varying_workitem_names[] = {
    "_Z12get_local_idj",
    "_Z13get_global_idj",
    "_Z20get_global_linear_idv",
    "_Z19get_local_linear_idv",
};
/* The group function's uniform areas (tools/hsacc) are 16-byte aligned,
 * on item 0's stack, two of them: a slot aligned to more, or past this
 * many bytes in all, stays in the work-items' contexts. */
#define UNIFORM_ALIGN_MAX 16u
#define UNIFORM_BYTES_MAX 512u

/* The region's control flow graph with one more node, `exit` (= count),
 * that every block without a successor (ret, unreachable) leads to. */
struct cfg {
  uint32_t count;
  LLVMBasicBlockRef *blocks;
  struct index_map index;
  uint32_t **succ, *nsucc; /* per node; a block without one has `exit` */
  uint32_t *ipdom;         /* immediate post-dominator, ipdom[exit] = exit */
  uint32_t *cd_start, *cd; /* cd[cd_start[a] .. cd_start[a + 1]]: the blocks control dependent on a */
};

/* Post-dominators by the iterative algorithm of Cooper, Harvey and
 * Kennedy ("A Simple, Fast Dominance Algorithm", 2001) on the reversed
 * graph, then control dependence (Ferrante, Ottenstein and Warren, "The
 * Program Dependence Graph and Its Use in Optimization", 1987): for each
 * edge a -> c, the nodes from c up the post-dominator tree to ipdom(a),
 * that one excluded, depend on a. False when a block cannot reach the
 * exit (a loop without one): no post-dominator tree covers it. */
static bool cfg_build(struct cfg *g, LLVMValueRef region) {
  uint32_t n = LLVMCountBasicBlocks(region), exit = n;
  g->count = n;
  g->blocks = xcalloc(n, sizeof *g->blocks);
  LLVMGetBasicBlocks(region, g->blocks);
  map_init(&g->index, n);
  for (uint32_t i = 0; i < n; i++) map_put(&g->index, g->blocks[i], i);
  g->succ = xcalloc(n + 1, sizeof *g->succ);
  g->nsucc = xcalloc(n + 1, sizeof *g->nsucc);
  uint32_t **pred = xcalloc(n + 1, sizeof *pred), *npred = xcalloc(n + 1, sizeof *npred);
  uint32_t *scap = xcalloc(n + 1, sizeof *scap), *pcap = xcalloc(n + 1, sizeof *pcap);
  for (uint32_t i = 0; i < n; i++) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(g->blocks[i]);
    unsigned k = term ? LLVMGetNumSuccessors(term) : 0;
    for (unsigned j = 0; j < k; j++)
      push_u32(&g->succ[i], &g->nsucc[i], &scap[i],
               (uint32_t)map_get(&g->index, LLVMGetSuccessor(term, j)));
    if (!k) push_u32(&g->succ[i], &g->nsucc[i], &scap[i], exit);
    for (uint32_t j = 0; j < g->nsucc[i]; j++) {
      uint32_t s = g->succ[i][j];
      push_u32(&pred[s], &npred[s], &pcap[s], i);
    }
  }
  /* Post-order of a depth-first walk from the exit along reversed edges. */
  uint32_t *order = xcalloc(n + 1, sizeof *order), *number = xcalloc(n + 1, sizeof *number);
  uint32_t *stack = xcalloc(n + 1, sizeof *stack), *next = xcalloc(n + 1, sizeof *next);
  bool *seen = xcalloc(n + 1, sizeof *seen);
  uint32_t depth = 0, done = 0;
  stack[depth++] = exit;
  seen[exit] = true;
  while (depth) {
    uint32_t v = stack[depth - 1];
    if (next[v] < npred[v]) {
      uint32_t p = pred[v][next[v]++];
      if (!seen[p]) seen[p] = true, stack[depth++] = p;
    } else {
      number[v] = done;
      order[done++] = v;
      depth--;
    }
  }
  bool covered = done == n + 1;
  g->ipdom = xcalloc(n + 1, sizeof *g->ipdom);
  const uint32_t none = UINT32_MAX;
  for (uint32_t i = 0; i <= n; i++) g->ipdom[i] = none;
  g->ipdom[exit] = exit;
  for (bool changed = covered; changed;) {
    changed = false;
    for (uint32_t k = done - 1; k-- > 0;) { /* reverse post-order, the exit (last) aside */
      uint32_t v = order[k], best = none;
      for (uint32_t j = 0; j < g->nsucc[v]; j++) {
        uint32_t s = g->succ[v][j];
        if (g->ipdom[s] == none) continue;
        if (best == none) {
          best = s;
          continue;
        }
        uint32_t f1 = s, f2 = best;
        while (f1 != f2) {
          while (number[f1] < number[f2]) f1 = g->ipdom[f1];
          while (number[f2] < number[f1]) f2 = g->ipdom[f2];
        }
        best = f1;
      }
      if (best != g->ipdom[v]) g->ipdom[v] = best, changed = true;
    }
  }
  g->cd_start = xcalloc(n + 2, sizeof *g->cd_start);
  g->cd = NULL;
  uint32_t ncd = 0, cdcap = 0;
  for (uint32_t a = 0; a < n; a++) {
    g->cd_start[a] = ncd;
    for (uint32_t j = 0; covered && j < g->nsucc[a] && g->nsucc[a] > 1; j++)
      for (uint32_t r = g->succ[a][j]; r != g->ipdom[a]; r = g->ipdom[r])
        push_u32(&g->cd, &ncd, &cdcap, r);
  }
  g->cd_start[n] = g->cd_start[n + 1] = ncd;
  for (uint32_t i = 0; i <= n; i++) free(pred[i]);
  free(pred), free(npred), free(scap), free(pcap);
  free(order), free(number), free(stack), free(next), free(seen);
  return covered;
}

static void cfg_free(struct cfg *g) {
  for (uint32_t i = 0; i <= g->count; i++) free(g->succ[i]);
  free(g->succ), free(g->nsucc), free(g->ipdom), free(g->cd_start), free(g->cd);
  free(g->blocks);
  map_free(&g->index);
}

struct uniformity {
  LLVMValueRef region;
  struct index_map slot_index;
  bool *slot_uniform;
  struct index_map value; /* instruction -> 1 uniform, 0 varying, this sweep */
  bool covered;           /* the analysis ran (cfg_build) */
  struct index_map divergent; /* block -> 1 divergent, 0 not */
};

/* Whether callee's declaration says it touches no memory (memory(none),
 * LLVM Language Reference Manual, "Function Attributes"): the encoding of
 * no effect on any location is 0. */
static bool touches_no_memory(LLVMValueRef fn) {
  LLVMAttributeRef a = LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                                                   LLVMGetEnumAttributeKindForName("memory", 6));
  return a && LLVMGetEnumAttributeValue(a) == 0;
}

/* Whether operand value `v` is the same for every work-item at the point
 * of its use: constants, the state and the kernarg and group segment
 * pointers, and instructions found so (earlier in the same block: every
 * other value crosses blocks through a slot, step 4). */
static bool uniform_value(const struct uniformity *u, LLVMValueRef v) {
  if (LLVMIsAConstant(v)) return true;
  if (LLVMIsAArgument(v))
    return v == LLVMGetParam(u->region, PARAM_STATE) ||
           v == LLVMGetParam(u->region, PARAM_KERNARG) ||
           v == LLVMGetParam(u->region, PARAM_GROUP_SEGMENT);
  return LLVMIsAInstruction(v) && map_get(&u->value, v) == 1;
}

/* Arithmetic: an instruction whose result depends on its operands alone
 * and that has no other effect. */
static bool is_arithmetic(LLVMValueRef in) {
  return LLVMIsABinaryOperator(in) || LLVMIsAUnaryOperator(in) || LLVMIsACastInst(in) ||
         LLVMIsACmpInst(in) || LLVMIsASelectInst(in) || LLVMIsAGetElementPtrInst(in) ||
         LLVMIsAExtractValueInst(in) || LLVMIsAInsertValueInst(in) ||
         LLVMIsAExtractElementInst(in) || LLVMIsAInsertElementInst(in) ||
         LLVMIsAShuffleVectorInst(in);
}

/* A call of a work-item function or of an intrinsic that touches no memory:
 * no effect, a result from the arguments and the work-item alone. */
static bool pure_call(LLVMValueRef call) {
  LLVMValueRef callee = direct_callee(call);
  return callee &&
         (is_workitem_fn(callee) || (LLVMGetIntrinsicID(callee) && touches_no_memory(callee)));
}

static bool uniform_operands(const struct uniformity *u, LLVMValueRef in, int count) {
  for (int i = 0; i < count; i++)
    if (!uniform_value(u, LLVMGetOperand(in, (unsigned)i))) return false;
  return true;
}

/* Whether instruction `in` computes the same value for every work-item
 * that runs it, given the slots found uniform so far. Varying: the
 * work-item's ids, loads but from the kernarg (read-only while the kernel
 * runs, cl/cpu_abi.h) or a uniform slot, calls but of the group's
 * work-item functions and of intrinsics that touch no memory, and
 * anything computed from a varying value; freeze too (of poison, it may
 * give each work-item another value). */
static bool uniform_instruction(const struct uniformity *u, LLVMValueRef in) {
  if (LLVMIsALoadInst(in)) {
    if (LLVMGetVolatile(in) || LLVMGetOrdering(in) != LLVMAtomicOrderingNotAtomic) return false;
    LLVMValueRef p = LLVMGetOperand(in, 0);
    int64_t s = map_get(&u->slot_index, p);
    if (s >= 0) return u->slot_uniform[s];
    for (; LLVMIsAGetElementPtrInst(p); p = LLVMGetOperand(p, 0))
      if (!uniform_operands(u, p, LLVMGetNumOperands(p))) return false;
    return p == LLVMGetParam(u->region, PARAM_KERNARG);
  }
  if (LLVMIsACallInst(in)) {
    LLVMValueRef callee = direct_callee(in);
    if (!callee) return false;
    bool group_wide = is_workitem_fn(callee) &&
                      !named_one_of(callee, varying_workitem_names,
                                    sizeof varying_workitem_names / sizeof *varying_workitem_names);
    if (!group_wide && !(LLVMGetIntrinsicID(callee) && touches_no_memory(callee))) return false;
    return uniform_operands(u, in, (int)LLVMGetNumArgOperands(in));
  }
  if (is_arithmetic(in)) return uniform_operands(u, in, LLVMGetNumOperands(in));
  return false;
}

/* Whether block terminator `term` sends every work-item the same way. */
static bool uniform_branch(const struct uniformity *u, LLVMValueRef term) {
  if (LLVMIsABranchInst(term)) return !LLVMIsConditional(term) || uniform_value(u, LLVMGetCondition(term));
  if (LLVMIsASwitchInst(term)) return uniform_value(u, LLVMGetOperand(term, 0));
  return LLVMGetNumSuccessors(term) <= 1;
}

/* Step 6: which of the slots hold the same value for every work-item at
 * every point of the region (uniform[s]), as an optimistic fixed point:
 * every slot whose address is used only to load and store it starts
 * uniform, and one becomes varying when a store gives it a varying value
 * or a store in a divergent block writes it. A block is divergent when it
 * is control dependent on a divergent branch: one whose condition is
 * varying, or that is in a divergent block. The work-items of a group
 * enter the region at the same state with the same uniform slots, so
 * each runs the blocks that are not divergent in the same order, the same
 * number of times, with the same uniform values (loops whose exit is
 * varying make their blocks divergent: they depend on that exit); the
 * slots stored only there agree at every point, the region's returns
 * included. By the same argument, when no return is in a divergent block
 * every work-item ends the region at the same barrier (returns true): one
 * return that a work-item reaches all reach. Nothing here relies on the
 * kernel meeting 6.13.8: otherwise __hsacl_for_region compares the
 * barriers the work-items reached. */
static bool uniform_slots(struct uniformity *result, LLVMValueRef region, LLVMValueRef *slots,
                          uint32_t nslots, bool *uniform) {
  struct cfg g;
  bool covered = cfg_build(&g, region);
  struct uniformity u = {.region = region, .slot_uniform = uniform, .covered = covered};
  map_init(&u.slot_index, nslots);
  for (uint32_t s = 0; s < nslots; s++) {
    map_put(&u.slot_index, slots[s], s);
    uniform[s] = covered && !slot_escapes(slots[s]);
  }
  size_t ninstr = 0;
  for (uint32_t i = 0; i < g.count; i++)
    for (LLVMValueRef in = LLVMGetFirstInstruction(g.blocks[i]); in; in = LLVMGetNextInstruction(in))
      ninstr++;
  map_init(&u.value, ninstr);
  bool *divergent = xcalloc(g.count, sizeof *divergent);
  bool *branch_divergent = xcalloc(g.count, sizeof *branch_divergent);
  for (bool changed = covered; changed;) {
    changed = false;
    for (uint32_t i = 0; i < g.count; i++) {
      for (LLVMValueRef in = LLVMGetFirstInstruction(g.blocks[i]); in;
           in = LLVMGetNextInstruction(in)) {
        map_put(&u.value, in, uniform_instruction(&u, in));
        if (!LLVMIsAStoreInst(in)) continue;
        int64_t s = map_get(&u.slot_index, LLVMGetOperand(in, 1));
        if (s < 0 || !uniform[s]) continue;
        if (divergent[i] || LLVMGetVolatile(in) ||
            LLVMGetOrdering(in) != LLVMAtomicOrderingNotAtomic ||
            !uniform_value(&u, LLVMGetOperand(in, 0)))
          uniform[s] = false, changed = true;
      }
      LLVMValueRef term = LLVMGetBasicBlockTerminator(g.blocks[i]);
      if (branch_divergent[i] || !term || (!divergent[i] && uniform_branch(&u, term))) continue;
      branch_divergent[i] = changed = true;
      for (uint32_t k = g.cd_start[i]; k < g.cd_start[i + 1]; k++) divergent[g.cd[k]] = true;
    }
  }
  bool same_end = covered;
  map_init(&u.divergent, g.count);
  for (uint32_t i = 0; i < g.count; i++) {
    map_put(&u.divergent, g.blocks[i], divergent[i]);
    if (divergent[i] && LLVMIsAReturnInst(LLVMGetBasicBlockTerminator(g.blocks[i])))
      same_end = false;
  }
  free(divergent);
  free(branch_divergent);
  cfg_free(&g);
  *result = u;
  return same_end;
}

static void uniformity_free(struct uniformity *u) {
  map_free(&u->value);
  map_free(&u->slot_index);
  map_free(&u->divergent);
}

static void add_param_attr(LLVMValueRef fn, unsigned param, const char *name, uint64_t value) {
  LLVMAddAttributeAtIndex(
      fn, param + 1, LLVMCreateEnumAttribute(ctx, LLVMGetEnumAttributeKindForName(name, strlen(name)), value));
}

/* Step 7: the uniform slots that live across a barrier (in_context[s] and
 * uniform[s]) move out of the context into the group's uniform areas,
 * each at one offset in both: the region copies the slot from
 * `uniform_in` on entry and to `uniform_out` before each return, and the
 * slot itself stays the call's own (for the optimiser, a value in a
 * register). `uniform_in` is the same for every work-item of the region,
 * whose loads from it the optimiser hoists out of the loop over the
 * work-items; it is never written in the region, so a work-item that
 * rewrote the value leaves the next work-item its value at the region's
 * entry; __hsacl_for_region copies `uniform_out`, where every work-item
 * left the same values, to `uniform_in` for the next region. Clears
 * in_context[s] of each and sets its offsets[s] (else -1); returns the
 * areas' size. */
static uint32_t keep_uniform(LLVMBuilderRef b, LLVMValueRef region, LLVMValueRef *slots,
                             uint32_t nslots, bool *in_context, const bool *uniform,
                             int64_t *offsets) {
  LLVMTypeRef i8 = LLVMInt8TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
  LLVMValueRef in_area = LLVMGetParam(region, PARAM_UNIFORM_IN);
  LLVMValueRef out_area = LLVMGetParam(region, PARAM_UNIFORM_OUT);
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(region);
  uint64_t offset = 0;
  for (uint32_t s = 0; s < nslots; s++) {
    offsets[s] = -1;
    if (!in_context[s] || !uniform[s] || LLVMConstIntGetZExtValue(LLVMGetOperand(slots[s], 0)) != 1)
      continue;
    LLVMTypeRef ty = LLVMGetAllocatedType(slots[s]);
    uint64_t align = LLVMGetAlignment(slots[s]);
    if (LLVMABIAlignmentOfType(layout, ty) > align) align = LLVMABIAlignmentOfType(layout, ty);
    uint64_t at = (offset + align - 1) / align * align;
    if (align > UNIFORM_ALIGN_MAX || at + slot_size(slots[s]) > UNIFORM_BYTES_MAX) continue;
    offset = at + slot_size(slots[s]);
    offsets[s] = (int64_t)at;
    in_context[s] = false;
    LLVMValueRef off = LLVMConstInt(i64, at, false);
    LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(entry));
    LLVMValueRef v = LLVMBuildLoad2(b, ty, LLVMBuildInBoundsGEP2(b, i8, in_area, &off, 1, ""), "");
    LLVMSetAlignment(v, (unsigned)align);
    LLVMBuildStore(b, v, slots[s]);
    for (LLVMBasicBlockRef bb = entry; bb; bb = LLVMGetNextBasicBlock(bb)) {
      LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
      if (!LLVMIsAReturnInst(term)) continue;
      LLVMPositionBuilderBefore(b, term);
      LLVMValueRef st = LLVMBuildStore(b, LLVMBuildLoad2(b, ty, slots[s], ""),
                                       LLVMBuildInBoundsGEP2(b, i8, out_area, &off, 1, ""));
      LLVMSetAlignment(st, (unsigned)align);
    }
  }
  /* Each area is the group function's own, read (in) or written (out)
   * alone in the call. */
  add_param_attr(region, PARAM_UNIFORM_IN, "noalias", 0);
  add_param_attr(region, PARAM_UNIFORM_IN, "align", UNIFORM_ALIGN_MAX);
  add_param_attr(region, PARAM_UNIFORM_OUT, "noalias", 0);
  add_param_attr(region, PARAM_UNIFORM_OUT, "align", UNIFORM_ALIGN_MAX);
  return (uint32_t)offset;
}

/* ---- regions entered past their uniform start ------------------------------ */

/* The region function's state for routing state k (step 8). */
#define STATE_ROUTE(k) (-2 - (int64_t)(k))
/* A work-item id fits in this many bits (HSACL_MAX_ITEMS, cl/cpu_abi.h). */
#define LOCAL_ID_BITS 16u

/* Whether the work-items may run `in` once for the group instead of each
 * for itself, with the same result: it touches no memory but the
 * uniform slots (their loads, and stores of the uniform values they
 * hold) and the kernarg, and calls nothing but the work-item functions and
 * intrinsics that touch no memory. */
static bool group_once(const struct uniformity *u, LLVMValueRef in) {
  if (LLVMIsAStoreInst(in)) {
    int64_t s = map_get(&u->slot_index, LLVMGetOperand(in, 1));
    return s >= 0 && u->slot_uniform[s] && !LLVMGetVolatile(in) &&
           LLVMGetOrdering(in) == LLVMAtomicOrderingNotAtomic;
  }
  if (LLVMIsALoadInst(in)) return uniform_instruction(u, in);
  if (LLVMIsACallInst(in)) return pure_call(in);
  return is_arithmetic(in);
}

static bool block_divergent(const struct uniformity *u, LLVMBasicBlockRef bb) {
  return map_get(&u->divergent, bb) != 0; /* new blocks (-1) count as divergent */
}

/* Whether every instruction of bb but its terminator is group_once. */
static bool body_group_once(const struct uniformity *u, LLVMBasicBlockRef bb) {
  LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
  for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in != term; in = LLVMGetNextInstruction(in))
    if (!group_once(u, in)) return false;
  return true;
}

/* A block of the uniform start of a region: every work-item runs it, the
 * same way (not divergent, a uniform branch), and the group may run it
 * once for all (body_group_once). */
static bool prefix_block(const struct uniformity *u, LLVMBasicBlockRef bb) {
  LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
  return !block_divergent(u, bb) && (LLVMIsABranchInst(term) || LLVMIsASwitchInst(term)) &&
         uniform_branch(u, term) && body_group_once(u, bb);
}

/* Whether v is get_local_id(0), or a cast of it that keeps its value. */
static bool is_local_id_x(LLVMValueRef v) {
  if (LLVMIsATruncInst(v) && LLVMGetIntTypeWidth(LLVMTypeOf(v)) >= LOCAL_ID_BITS)
    v = LLVMGetOperand(v, 0);
  else if (LLVMIsAZExtInst(v))
    v = LLVMGetOperand(v, 0);
  LLVMValueRef callee = LLVMIsACallInst(v) ? direct_callee(v) : NULL;
  uint64_t d;
  size_t len;
  return callee && strcmp(LLVMGetValueName2(callee, &len), "_Z12get_local_idj") == 0 &&
         const_u64(LLVMGetOperand(v, 0), &d) && d == 0;
}

/* Whether bb ends in a branch on `get_local_id(0) < bound`, bound uniform:
 * the work-items out of that range go to *out. */
static bool local_range_check(const struct uniformity *u, LLVMBasicBlockRef bb, LLVMValueRef *bound,
                              LLVMBasicBlockRef *out) {
  LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
  if (!LLVMIsABranchInst(term) || !LLVMIsConditional(term)) return false;
  LLVMValueRef cmp = LLVMGetCondition(term);
  if (!LLVMIsAICmpInst(cmp) || LLVMGetInstructionParent(cmp) != bb) return false;
  LLVMValueRef a = LLVMGetOperand(cmp, 0), c = LLVMGetOperand(cmp, 1);
  bool in_when_true;
  switch (LLVMGetICmpPredicate(cmp)) {
  case LLVMIntULT: /* id < bound */
  case LLVMIntUGE: /* id >= bound */
    if (!is_local_id_x(a) || !uniform_value(u, c)) return false;
    *bound = c;
    in_when_true = LLVMGetICmpPredicate(cmp) == LLVMIntULT;
    break;
  case LLVMIntUGT: /* bound > id */
  case LLVMIntULE: /* bound <= id */
    if (!is_local_id_x(c) || !uniform_value(u, a)) return false;
    *bound = a;
    in_when_true = LLVMGetICmpPredicate(cmp) == LLVMIntUGT;
    break;
  case LLVMIntEQ: /* id == 0: id < 1 */
  case LLVMIntNE: /* id != 0 */
    if (!is_local_id_x(a) || !LLVMIsAConstantInt(c) || LLVMConstIntGetZExtValue(c) != 0)
      return false;
    *bound = LLVMConstInt(LLVMTypeOf(c), 1, false);
    in_when_true = LLVMGetICmpPredicate(cmp) == LLVMIntEQ;
    break;
  default:
    return false;
  }
  *out = LLVMGetSuccessor(term, in_when_true ? 1 : 0);
  return true;
}

/* Whether a work-item that enters the region at `from` changes nothing
 * (no store, call with an effect, fence or atomic) before it returns, and
 * always the same state (*end). */
static bool no_effect_to_end(LLVMValueRef region, LLVMBasicBlockRef from, int32_t *end) {
  uint32_t n = LLVMCountBasicBlocks(region), depth = 0;
  LLVMBasicBlockRef *stack = xcalloc(n, sizeof *stack);
  struct index_map seen;
  map_init(&seen, n);
  bool ok = true, have_end = false;
  stack[depth++] = from;
  map_put(&seen, from, 1);
  while (ok && depth) {
    LLVMBasicBlockRef bb = stack[--depth];
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); ok && in != term;
         in = LLVMGetNextInstruction(in)) {
      if (LLVMIsALoadInst(in))
        ok = !LLVMGetVolatile(in) && LLVMGetOrdering(in) == LLVMAtomicOrderingNotAtomic;
      else if (LLVMIsAStoreInst(in))
        ok = false;
      else if (LLVMIsACallInst(in))
        ok = pure_call(in);
      else
        ok = is_arithmetic(in);
    }
    if (!ok) break;
    if (LLVMIsAReturnInst(term)) {
      uint64_t k = 0;
      ok = const_u64(LLVMGetOperand(term, 0), &k) && (!have_end || (int32_t)k == *end);
      *end = (int32_t)k;
      have_end = true;
      continue;
    }
    if (!LLVMIsABranchInst(term) && !LLVMIsASwitchInst(term)) ok = false;
    for (unsigned k = 0; ok && k < LLVMGetNumSuccessors(term); k++) {
      LLVMBasicBlockRef s = LLVMGetSuccessor(term, k);
      if (map_get(&seen, s) >= 0) continue;
      map_put(&seen, s, 1);
      stack[depth++] = s;
    }
  }
  free(stack);
  map_free(&seen);
  return ok && have_end;
}

/* A state __hsacl_for_region runs, after step 8. */
struct run {
  int32_t state;
  int64_t limit_slot;  /* the slot of the work-item bound in x (step 8), or -1 */
  int32_t skipped_end; /* the state the work-items past the bound end at */
};

static LLVMBasicBlockRef route_return(LLVMValueRef region, int32_t state) {
  LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(ctx, region, "route");
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMPositionBuilderAtEnd(b, bb);
  LLVMBuildRet(b, LLVMConstInt(LLVMInt32TypeInContext(ctx), (uint64_t)(int64_t)state, true));
  LLVMDisposeBuilder(b);
  return bb;
}

/* Step 8's changes to the region for the targets found by route(). */
static void route_targets(LLVMBuilderRef b, LLVMValueRef region, LLVMValueRef sw,
                          LLVMBasicBlockRef *first, uint32_t nbarriers, LLVMBasicBlockRef *targets,
                          const int32_t *ids, LLVMValueRef *bounds, uint32_t ntargets,
                          LLVMBasicBlockRef *starts, uint32_t *nstarts, LLVMValueRef *slots,
                          uint32_t *nslots, bool *uniform, struct run *runs) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
  for (uint32_t k = 0; k <= nbarriers; k++)
    LLVMAddCase(sw, LLVMConstInt(i32, (uint64_t)STATE_ROUTE(k), true), first[k]);
  LLVMValueRef state = LLVMGetParam(region, PARAM_STATE);
  for (uint32_t t = 0; t < ntargets; t++) {
    LLVMBasicBlockRef bb = targets[t];
    if (ids[t] > (int32_t)nbarriers) {
      LLVMAddCase(sw, LLVMConstInt(i32, (uint64_t)ids[t], false), bb);
      starts[(*nstarts)++] = bb;
    }
    bool bounded = runs[t].limit_slot == 0;
    LLVMValueRef bound = bounds[t];
    /* Where the routing call returns: at the block's start (its code
     * moves to `rest`), or after its body when that computes the bound
     * (its terminator moves). */
    LLVMBasicBlockRef rest = LLVMAppendBasicBlockInContext(ctx, region, "routed");
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    move_tail(b, bounded ? term : LLVMGetFirstInstruction(bb), rest);
    LLVMBasicBlockRef ret = route_return(region, ids[t]);
    LLVMPositionBuilderAtEnd(b, bb);
    LLVMValueRef routing = LLVMBuildICmp(b, LLVMIntSLT, state, LLVMConstInt(i32, (uint64_t)-1, true), "");
    LLVMBuildCondBr(b, routing, ret, rest);
    if (!bounded) continue;
    /* The bound as a uint32_t, saturated (work-items number at most
     * HSACL_MAX_ITEMS). */
    LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(ret));
    LLVMTypeRef ty = LLVMTypeOf(bound);
    if (LLVMGetIntTypeWidth(ty) > 32) {
      LLVMValueRef max = LLVMConstInt(ty, UINT32_MAX, false);
      bound = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, bound, max, ""), max, bound, "");
      bound = LLVMBuildTrunc(b, bound, i32, "");
    } else if (LLVMGetIntTypeWidth(ty) < 32) {
      bound = LLVMBuildZExt(b, bound, i32, "");
    }
    LLVMValueRef limit = new_slot(b, region, i32);
    LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(ret));
    LLVMBuildStore(b, bound, limit);
    runs[t].limit_slot = *nslots;
    uniform[*nslots] = true;
    slots[(*nslots)++] = limit;
  }
}

/* Step 8: the uniform start of each region runs once for the group, in a
 * call of the region function with state STATE_ROUTE(k) before the loop
 * over the work-items: from state k's block through the blocks of the
 * uniform start (prefix_block) up to the first other block, the target,
 * whose state it returns (a new one, or k when state k's own block is
 * not such a start); its slots are uniform, so the call leaves in
 * `uniform_out` what each work-item would have there at the target. The
 * work-items then enter at the target: the uniform branches of the start
 * are taken once, outside the loop. A target whose body is group_once and
 * that ends in `get_local_id(0) < bound` with a uniform bound, where the
 * work-items out of range change nothing up to one end (no_effect_to_end),
 * also reports the bound, in a slot of its own, and __hsacl_for_region
 * runs only the work-items in range. Returns how many states
 * __hsacl_for_region runs (runs[]); adds the bound slots to slots[] (room
 * for one per block) and the targets entered by a new state to starts[]
 * (room for one per block). */
static uint32_t route(LLVMBuilderRef b, LLVMValueRef region, const struct uniformity *u,
                      bool same_end, LLVMBasicBlockRef *starts, uint32_t *nstarts,
                      LLVMValueRef *slots, uint32_t *nslots, bool *uniform, struct run *runs) {
  uint32_t nbarriers = *nstarts, nblocks = LLVMCountBasicBlocks(region);
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(region);
  LLVMValueRef sw = LLVMGetBasicBlockTerminator(entry);
  LLVMBasicBlockRef *first = xcalloc(nbarriers + 1, sizeof *first);
  first[0] = LLVMGetSwitchDefaultDest(sw);
  for (uint32_t k = 0; k < nbarriers; k++) first[k + 1] = starts[k];
  /* The targets, by a walk through the starts' prefix blocks, and their
   * bounds. */
  struct index_map seen;
  map_init(&seen, nblocks);
  LLVMBasicBlockRef *stack = xcalloc(nblocks, sizeof *stack);
  LLVMBasicBlockRef *targets = xcalloc(nblocks, sizeof *targets), *outs = xcalloc(nblocks, sizeof *outs);
  LLVMValueRef *bounds = xcalloc(nblocks, sizeof *bounds);
  int32_t *ids = xcalloc(nblocks, sizeof *ids);
  uint32_t ntargets = 0, next_id = nbarriers + 1;
  bool worth = false;
  for (uint32_t k = 0; u->covered && k <= nbarriers; k++) {
    uint32_t depth = 0;
    stack[depth++] = first[k];
    map_put(&seen, first[k], 1);
    while (depth) {
      LLVMBasicBlockRef bb = stack[--depth];
      if (!prefix_block(u, bb)) {
        uint32_t t = ntargets++;
        targets[t] = bb;
        ids[t] = bb == first[k] ? (int32_t)k : (int32_t)next_id++;
        runs[t] = (struct run){ids[t], -1, 0};
        if (same_end && !block_divergent(u, bb) && body_group_once(u, bb) &&
            local_range_check(u, bb, &bounds[t], &outs[t]) &&
            no_effect_to_end(region, outs[t], &runs[t].skipped_end))
          runs[t].limit_slot = 0; /* bounded: route_targets gives it its slot */
        worth |= ids[t] > (int32_t)nbarriers || runs[t].limit_slot == 0;
        continue;
      }
      LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
      for (unsigned j = 0; j < LLVMGetNumSuccessors(term); j++) {
        LLVMBasicBlockRef s = LLVMGetSuccessor(term, j);
        if (map_get(&seen, s) >= 0) continue;
        map_put(&seen, s, 1);
        stack[depth++] = s;
      }
    }
  }
  /* Room: every slot the start stores, and the bounds, must fit the
   * uniform areas. */
  uint64_t bytes = 4u * ntargets;
  for (uint32_t s = 0; worth && s < *nslots; s++) {
    if (!uniform[s]) continue;
    bytes += (slot_size(slots[s]) + UNIFORM_ALIGN_MAX - 1) / UNIFORM_ALIGN_MAX * UNIFORM_ALIGN_MAX;
    if (LLVMConstIntGetZExtValue(LLVMGetOperand(slots[s], 0)) != 1 ||
        LLVMGetAlignment(slots[s]) > UNIFORM_ALIGN_MAX ||
        LLVMABIAlignmentOfType(layout, LLVMGetAllocatedType(slots[s])) > UNIFORM_ALIGN_MAX)
      worth = false;
  }
  if (!worth || bytes > UNIFORM_BYTES_MAX) {
    for (uint32_t k = 0; k <= nbarriers; k++) runs[k] = (struct run){(int32_t)k, -1, 0};
    ntargets = nbarriers + 1;
  } else {
    route_targets(b, region, sw, first, nbarriers, targets, ids, bounds, ntargets, starts, nstarts,
                  slots, nslots, uniform, runs);
  }
  free(first);
  free(stack);
  free(targets);
  free(outs);
  free(bounds);
  free(ids);
  map_free(&seen);
  return ntargets;
}

/* What the cut of a kernel made: its line on stdout. */
struct cut {
  uint32_t barriers;      /* states after the first */
  uint32_t uniform_bytes; /* of each uniform area */
  bool same_end;          /* every work-item ends each region at the same barrier */
  bool routed;            /* step 8: the group calls STATE_ROUTE(k) after barrier k */
  uint32_t nruns;         /* the states __hsacl_for_region runs */
  struct run *runs;       /* with the offset of the bound in the uniform areas */
};

/* Moves the slots that must outlive a call into the uniform areas (the
 * uniform ones) or the context; returns the context's bytes per work-item,
 * or -1 after writing why[]. */
static int64_t place_in_context(LLVMBuilderRef b, LLVMValueRef region, LLVMBasicBlockRef *starts,
                                uint32_t nstarts, struct cut *cut, char *why, size_t size) {
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(region);
  uint32_t nslots = 0, nblocks = LLVMCountBasicBlocks(region), nbarriers = nstarts;
  for (LLVMValueRef in = LLVMGetFirstInstruction(entry); in; in = LLVMGetNextInstruction(in))
    nslots += LLVMIsAAllocaInst(in) != NULL;
  /* Room for step 8's bounds and targets: at most one per block. */
  LLVMValueRef *slots = xcalloc(nslots + nblocks, sizeof *slots);
  bool *uniform = xcalloc(nslots + nblocks, sizeof *uniform);
  LLVMBasicBlockRef *all_starts = xcalloc(nstarts + nblocks, sizeof *all_starts);
  memcpy(all_starts, starts, nstarts * sizeof *starts);
  cut->runs = xcalloc(nbarriers + 1 + nblocks, sizeof *cut->runs);
  nslots = 0;
  for (LLVMValueRef in = LLVMGetFirstInstruction(entry); in; in = LLVMGetNextInstruction(in))
    if (LLVMIsAAllocaInst(in)) slots[nslots++] = in;
  struct uniformity u;
  cut->same_end = uniform_slots(&u, region, slots, nslots, uniform);
  uint32_t first_bound = nslots;
  cut->nruns = route(b, region, &u, cut->same_end, all_starts, &nstarts, slots, &nslots, uniform,
                     cut->runs);
  /* A state of its own for a target, or a bound the routing call reports. */
  cut->routed = nstarts != nbarriers || nslots != first_bound;
  uniformity_free(&u);
  bool *in_context = xcalloc(nslots, sizeof *in_context);
  for (uint32_t s = 0; s < nslots; s++) in_context[s] = s >= first_bound || slot_escapes(slots[s]);
  live_across(region, slots, nslots, all_starts, nstarts, in_context);
  int64_t *offsets = xcalloc(nslots, sizeof *offsets);
  cut->uniform_bytes = keep_uniform(b, region, slots, nslots, in_context, uniform, offsets);
  for (uint32_t r = 0; r < cut->nruns; r++)
    if (cut->runs[r].limit_slot >= 0) cut->runs[r].limit_slot = offsets[cut->runs[r].limit_slot];
  for (uint32_t s = first_bound; s < nslots; s++)
    if (offsets[s] < 0) die("a work-item bound out of the uniform areas (a bug of this tool)");
  free(offsets);
  free(uniform);
  free(all_starts);
  uint64_t offset = 0, align_max = CONTEXT_ALIGN_MIN;
  LLVMTypeRef i8 = LLVMInt8TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
  LLVMValueRef context = LLVMGetParam(region, PARAM_CONTEXT);
  int64_t result = 0;
  for (uint32_t s = 0; s < nslots; s++) {
    if (!in_context[s]) continue;
    uint64_t align = LLVMGetAlignment(slots[s]);
    uint64_t abi = LLVMABIAlignmentOfType(layout, LLVMGetAllocatedType(slots[s]));
    if (abi > align) align = abi;
    if (align > CONTEXT_ALIGN_MAX) {
      snprintf(why, size, "a private variable aligned to %llu bytes (at most %u)",
               (unsigned long long)align, CONTEXT_ALIGN_MAX);
      result = -1;
      break;
    }
    if (align > align_max) align_max = align;
    offset = (offset + align - 1) / align * align;
    LLVMPositionBuilderBefore(b, slots[s]);
    LLVMValueRef at = LLVMConstInt(i64, offset, false);
    LLVMValueRef p = LLVMBuildInBoundsGEP2(b, i8, context, &at, 1, "");
    offset += slot_size(slots[s]);
    LLVMReplaceAllUsesWith(slots[s], p);
    LLVMInstructionEraseFromParent(slots[s]);
  }
  if (result == 0) {
    result = (int64_t)((offset + align_max - 1) / align_max * align_max);
    if (result > INT32_MAX) {
      snprintf(why, size, "%lld bytes of private data live across barriers", (long long)result);
      result = -1;
    }
  }
  if (result >= 0) {
    /* The context is the work-item's own: nothing else points into it. */
    add_param_attr(region, PARAM_CONTEXT, "noalias", 0);
    add_param_attr(region, PARAM_CONTEXT, "align", align_max);
  }
  free(in_context);
  free(slots);
  return result;
}

/* Cuts the inlined region at its barriers (steps 2-8 above); returns the
 * context's bytes per work-item, or -1 after writing why[]. */
static int64_t region_cut(LLVMValueRef region, struct cut *cut, char *why, size_t size) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  delete_lifetime_markers(region);
  demote_phis(b, region);
  /* The entry block keeps its allocas alone; the code goes to `body`. */
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(region);
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(ctx, region, "body");
  LLVMMoveBasicBlockAfter(body, entry);
  LLVMPositionBuilderAtEnd(b, body);
  for (LLVMValueRef in = LLVMGetFirstInstruction(entry), next; in; in = next) {
    next = LLVMGetNextInstruction(in);
    if (LLVMIsAAllocaInst(in)) continue;
    LLVMInstructionRemoveFromParent(in);
    LLVMInsertIntoBuilder(b, in);
  }
  /* The barriers, numbered in block order from 1. */
  uint32_t n = 0, cap = 0;
  LLVMValueRef *barriers = NULL;
  for (LLVMBasicBlockRef bb = body; bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
      LLVMValueRef callee = LLVMIsACallInst(in) ? direct_callee(in) : NULL;
      if (!callee || !is_barrier(callee)) continue;
      if (n == cap) {
        cap = cap ? 2 * cap : 8;
        barriers = realloc(barriers, cap * sizeof *barriers);
        if (!barriers) die("out of memory");
      }
      barriers[n++] = in;
    }
  LLVMBasicBlockRef *starts = xcalloc(n + 1, sizeof *starts);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
  for (uint32_t k = 0; k < n; k++) {
    LLVMValueRef call = barriers[k];
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(call);
    starts[k] = LLVMAppendBasicBlockInContext(ctx, region, "after.barrier");
    move_tail(b, LLVMGetNextInstruction(call), starts[k]);
    LLVMPositionBuilderAtEnd(b, bb);
    build_barrier_fence(b, call);
    LLVMBuildRet(b, LLVMConstInt(i32, k + 1, false));
    LLVMInstructionEraseFromParent(call);
  }
  remake_values_across_blocks(b, region);
  demote_values_across_blocks(b, region);
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef sw = LLVMBuildSwitch(b, LLVMGetParam(region, PARAM_STATE), body, n);
  for (uint32_t k = 0; k < n; k++) LLVMAddCase(sw, LLVMConstInt(i32, k + 1, false), starts[k]);
  int64_t stride = place_in_context(b, region, starts, n, cut, why, size);
  cut->barriers = n;
  free(starts);
  free(barriers);
  LLVMDisposeBuilder(b);
  return stride;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: hsacl-barriers IN.bc OUT.bc\n");
    return 2;
  }
  ctx = LLVMContextCreate();
  LLVMMemoryBufferRef buf;
  char *msg = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(argv[1], &buf, &msg)) die("%s: %s", argv[1], msg);
  if (LLVMParseBitcodeInContext2(ctx, buf, &mod)) die("%s: not LLVM bitcode", argv[1]);
  LLVMDisposeMemoryBuffer(buf);
  layout = LLVMGetModuleDataLayout(mod);

  struct call_graph g;
  call_graph_build(&g);
  /* The kernels whose wrapper reaches a barrier get a region function;
   * the others are listed as they are. */
  LLVMValueRef *regions = xcalloc(g.count, sizeof *regions);
  const char **kernels = xcalloc(g.count, sizeof *kernels);
  uint32_t nregions = 0;
  bool *seen = xcalloc(g.count, sizeof *seen);
  char why[600];
  for (uint32_t i = 0; i < g.count; i++) {
    size_t len;
    const char *name = LLVMGetValueName2(g.fns[i], &len);
    if (LLVMIsDeclaration(g.fns[i]) || strncmp(name, WRAPPER_PREFIX, strlen(WRAPPER_PREFIX)))
      continue;
    const char *kernel = name + strlen(WRAPPER_PREFIX);
    if (!g.reaches[i]) {
      printf("%s 0 0 0 1 0 0:-1:0\n", kernel);
      continue;
    }
    memset(seen, 0, g.count * sizeof *seen);
    if (why_not_inlinable(&g, i, seen, why, sizeof why)) {
      note(kernel, why);
      continue;
    }
    kernels[nregions] = kernel;
    regions[nregions++] = region_create(g.fns[i], kernel);
  }
  for (uint32_t i = 0; i < g.count; i++)
    if (g.reaches[i] && !is_barrier(g.fns[i]) && !g.recursive[i] &&
        !has_fn_attr(g.fns[i], "noinline") && !LLVMIsDeclaration(g.fns[i]))
      add_fn_attr(g.fns[i], "alwaysinline");
  /* Step 1: the work-item functions stay calls until the cut is made. */
  for (uint32_t i = 0; i < g.count; i++)
    if (is_workitem_fn(g.fns[i]) && !LLVMIsDeclaration(g.fns[i])) {
      remove_fn_attr(g.fns[i], "alwaysinline");
      add_fn_attr(g.fns[i], "noinline");
    }
  if (nregions) {
    LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
    LLVMErrorRef err = LLVMRunPasses(mod, "always-inline,function(sroa)", NULL, opts);
    if (err) die("inlining: %s", LLVMGetErrorMessage(err));
    LLVMDisposePassBuilderOptions(opts);
  }
  for (uint32_t r = 0; r < nregions; r++) {
    int64_t stride = -1;
    struct cut cut = {0};
    if (!region_check(&g, regions[r], why, sizeof why))
      stride = region_cut(regions[r], &cut, why, sizeof why);
    if (stride < 0) {
      note(kernels[r], why);
      LLVMDeleteFunction(regions[r]);
      continue;
    }
    if (LLVMVerifyFunction(regions[r], LLVMPrintMessageAction))
      die("kernel %s: the cut region is not valid IR (a bug of this tool)", kernels[r]);
    add_fn_attr(regions[r], "alwaysinline");
    printf("%s %lld %u %u %d %d", kernels[r], (long long)stride, cut.barriers, cut.uniform_bytes,
           cut.same_end, cut.routed);
    for (uint32_t k = 0; k < cut.nruns; k++)
      printf(" %d:%lld:%d", cut.runs[k].state, (long long)cut.runs[k].limit_slot,
             cut.runs[k].skipped_end);
    printf("\n");
    free(cut.runs);
  }
  for (uint32_t i = 0; i < g.count; i++)
    if (is_workitem_fn(g.fns[i]) && !LLVMIsDeclaration(g.fns[i])) {
      remove_fn_attr(g.fns[i], "noinline");
      add_fn_attr(g.fns[i], "alwaysinline");
    }
  if (LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg))
    die("the module is not valid IR: %s", msg);
  if (LLVMWriteBitcodeToFile(mod, argv[2])) die("cannot write %s", argv[2]);
  if (fflush(stdout) != 0) die("cannot write the kernel list");
  return 0;
}
