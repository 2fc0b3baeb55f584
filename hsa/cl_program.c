/*
 * cl_program.c - OpenCL C programs on CPU agents (cl_program.h): loading
 * the CPU part of a tools/hsacc file, its symbols, and running one
 * work-group of one of its kernels on a core.
 *
 * Limits of a dispatch, refused before it runs with the statuses ROCr's
 * AQL queue reports for the same conditions on a GPU
 * (ROCR-Runtime src/core/runtime/amd_aql_queue.cpp,
 * AqlQueue::DynamicQueueEventsHandler: group memory over the limit ->
 * HSA_STATUS_ERROR_INVALID_ALLOCATION, scratch it cannot provide ->
 * HSA_STATUS_ERROR_OUT_OF_RESOURCES):
 *   - group segment: the kernel's static size (its kernel-scope __local
 *     variables) plus the packet's dynamic size at most the agent's
 *     per-work-group group memory;
 *   - private segment: the code object's private_segment_fixed_size at most
 *     CL_PRIVATE_SEGMENT_MAX, half the stack each work-item runs on (the
 *     other half is for the x86-64 frames and the library calls); for a
 *     kernel cut at its barriers (hsacl_kernel.group), that plus what each
 *     work-item keeps from one barrier to the next (context_stride).
 * The contexts of a cut kernel's work-items are one buffer per core,
 * grown to the largest group it has run and kept with the instance.
 * Work-item stacks (CL_STACK_BYTES) come with a no-access guard page below
 * them where the platform can protect pages (plat_code_protect), so that an
 * overflow faults instead of writing into the next stack.
 */
#define LOG_TAG "cl-program"
#include "hsa/cl_program.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl/cpu_abi.h"
#include "hsa/agent.h"
#include "hsa/executable_internal.h"
#include "lib/lock.h"
#include "hsa/loader/bundle.h"
#include "hsa/loader/x86_dso.h"
#include "hsa/runtime.h"
#include "lib/plat.h"

#define CL_STACK_BYTES         (64u * 1024)
#define CL_GUARD_BYTES         4096u
#define CL_STACK_STRIDE        (CL_GUARD_BYTES + CL_STACK_BYTES) /* a guard page below each */
#define CL_STACKS_PER_REGION   16u                               /* 1.06 MiB a region */
#define CL_PRIVATE_SEGMENT_MAX (CL_STACK_BYTES / 2)
#define CL_MAX_LOCAL_ARGS      64

struct cl_instance {
  hsacl_run_groups_fn run_groups;
  const struct hsacl_kernel *table;
  void *stacks[HSACL_MAX_ITEMS]; /* CL_GUARD_BYTES + CL_STACK_BYTES each, on demand */
  char *context;                 /* work-item contexts of a cut kernel, 64-byte aligned */
  size_t context_size;
};

struct cl_kernel {
  hsa_cpu_kernel_descriptor_t desc; /* first: the kernel object is its address */
  struct cl_program *program;
  uint32_t index;
  int32_t global_offset_arg;
  uint32_t local_arg_count;
  uint32_t context_stride;                /* bytes per work-item; 0 without a group function */
  bool cut;                               /* cut at its barriers: no fiber per work-item */
  uint32_t local_args[CL_MAX_LOCAL_ARGS]; /* kernarg offsets of the __local pointers */
  _Atomic uint32_t error; /* hsa_status_t of the first failed work-group */
  char symbol[72];        /* "name.kd" */
};

struct cl_program {
  struct x86_dso *dso;
  uint32_t instance_count;
  struct cl_instance *instances;
  uint32_t kernel_count;
  struct cl_kernel *kernels;
  struct cl_program *next;
};

static void stack_release(void *s) {
  if (!s) return;
  struct cl_programs *c = &rt.cl_programs;
  lock_acquire(&c->stack_pool_lock);
  c->stack_pool[c->stack_pool_count++] = s; /* room for every stack (runtime.h) */
  lock_release(&c->stack_pool_lock);
}

/* A stack from the pool, or from a new region whose other stacks go to the
 * pool; NULL when out of memory. */
static void *stack_take(void) {
  struct cl_programs *c = &rt.cl_programs;
  void *s = NULL;
  lock_acquire(&c->stack_pool_lock);
  if (c->stack_pool_count) s = c->stack_pool[--c->stack_pool_count];
  lock_release(&c->stack_pool_lock);
  if (s) return s;
  struct cl_stack_region *r = malloc(sizeof *r);
  uint8_t *base = r ? plat_code_alloc(CL_STACKS_PER_REGION * CL_STACK_STRIDE) : NULL;
  if (!base) {
    free(r);
    return NULL;
  }
  /* Best effort: a guard below each stack where pages can be protected. */
  plat_code_protect_each(base, CL_STACKS_PER_REGION, CL_STACK_STRIDE, CL_GUARD_BYTES, 0);
  lock_acquire(&c->stack_pool_lock);
  void **pool =
      realloc(c->stack_pool, (c->stack_pool_capacity + CL_STACKS_PER_REGION) * sizeof *pool);
  if (pool) {
    c->stack_pool = pool;
    c->stack_pool_capacity += CL_STACKS_PER_REGION;
    *r = (struct cl_stack_region){c->stack_regions, base, CL_STACKS_PER_REGION};
    c->stack_regions = r;
    for (uint32_t i = 1; i < CL_STACKS_PER_REGION; i++)
      pool[c->stack_pool_count++] = base + i * CL_STACK_STRIDE;
  }
  lock_release(&c->stack_pool_lock);
  if (!pool) {
    plat_code_free(base, CL_STACKS_PER_REGION * CL_STACK_STRIDE);
    free(r);
    return NULL;
  }
  return base;
}

/* Whole regions: the platform gets back a few large blocks, not thousands
 * of stacks (the image's frame allocator records at most 512 free ranges). */
void cl_programs_fini(void) {
  struct cl_programs *c = &rt.cl_programs;
  lock_acquire(&c->stack_pool_lock);
  for (struct cl_stack_region *r = c->stack_regions, *next; r; r = next) {
    next = r->next;
    plat_code_free(r->base, (size_t)r->count * CL_STACK_STRIDE);
    free(r);
  }
  c->stack_regions = NULL;
  free(c->stack_pool);
  c->stack_pool = NULL;
  c->stack_pool_count = c->stack_pool_capacity = 0;
  lock_release(&c->stack_pool_lock);
}

static struct lock write_lock = LOCK_INIT;

static void stdout_write(const char *s, size_t n) {
  fwrite(s, 1, n, stdout);
  fflush(stdout);
}

static cl_output_fn output = stdout_write; /* under write_lock */

cl_output_fn cl_program_set_output(cl_output_fn fn) {
  lock_acquire(&write_lock);
  cl_output_fn previous = output;
  output = fn ? fn : stdout_write;
  lock_release(&write_lock);
  return previous;
}

/* The hook the built-in library's printf (and puts, putchar) calls: one
 * whole formatted output, written at once. */
static void cpu_write(const char *s, unsigned long n) {
  lock_acquire(&write_lock);
  output(s, n);
  lock_release(&write_lock);
}

struct resolve_ctx {
  struct executable *exec;
  const struct agent *agent;
};

static bool resolve_import(void *ctx, const char *name, uint64_t *address) {
  struct resolve_ctx *r = ctx;
  if (executable_lookup_variable(r->exec, r->agent, name, address)) return true;
  if (strcmp(name, "__hsa_cpu_write") == 0) {
    *address = (uint64_t)(uintptr_t)cpu_write;
    return true;
  }
  void *p = plat_import(name);
  *address = (uint64_t)(uintptr_t)p;
  return p != NULL;
}

static hsa_status_t status_of(enum loader_status st) {
  switch (st) {
    case LOADER_OK:
      return HSA_STATUS_SUCCESS;
    case LOADER_ERROR_INCOMPATIBLE_ISA:
      return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
    case LOADER_ERROR_VARIABLE_UNDEFINED:
      return HSA_STATUS_ERROR_VARIABLE_UNDEFINED;
    case LOADER_ERROR_OUT_OF_MEMORY:
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    default:
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }
}

void cl_program_unload(struct cl_program *pr) {
  if (!pr) return;
  lock_acquire(&rt.cl_programs.lock);
  for (struct cl_program **p = &rt.cl_programs.list; *p; p = &(*p)->next)
    if (*p == pr) {
      *p = pr->next;
      break;
    }
  lock_release(&rt.cl_programs.lock);
  for (uint32_t i = 0; pr->instances && i < pr->instance_count; i++) {
    for (uint32_t s = 0; s < HSACL_MAX_ITEMS; s++)
      stack_release(pr->instances[i].stacks[s]);
    free(pr->instances[i].context);
  }
  free(pr->instances);
  free(pr->kernels);
  x86_dso_unload(pr->dso);
  free(pr);
}

/* Reads the shared object's table (instance by instance: each has its own
 * copy, pointing at its own wrappers) and fills pr->kernels. */
static hsa_status_t read_tables(struct cl_program *pr, const char *source) {
  struct x86_dso *dso = pr->dso;
  const uint32_t *version = (const uint32_t *)(uintptr_t)x86_dso_symbol(dso, 0, "__hsacl_abi_version");
  const uint32_t *count = (const uint32_t *)(uintptr_t)x86_dso_symbol(dso, 0, "__hsacl_kernel_count");
  if (!version || !count || !x86_dso_symbol(dso, 0, "__hsacl_kernels") ||
      !x86_dso_symbol(dso, 0, "__hsacl_run_groups")) {
    log_error(
        "%s: not built by tools/hsacc (no __hsacl_abi_version, __hsacl_kernels, "
        "__hsacl_kernel_count or __hsacl_run_groups)",
        source);
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }
  if (*version != HSACL_ABI_VERSION) {
    log_error("%s: CPU interface version %u, the runtime's is %u (rebuild with tools/hsacc)",
              source, *version, HSACL_ABI_VERSION);
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }
  pr->kernel_count = *count;
  if (pr->kernel_count > 65536) {
    log_error("%s: %u kernels", source, pr->kernel_count);
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }
  pr->kernels = aligned_alloc(64, (pr->kernel_count + 1) * sizeof *pr->kernels);
  if (!pr->kernels) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  memset(pr->kernels, 0, (pr->kernel_count + 1) * sizeof *pr->kernels);
  for (uint32_t i = 0; i < pr->instance_count; i++) {
    pr->instances[i].table =
        (const struct hsacl_kernel *)(uintptr_t)x86_dso_symbol(dso, i, "__hsacl_kernels");
    pr->instances[i].run_groups =
        (hsacl_run_groups_fn)(uintptr_t)x86_dso_symbol(dso, i, "__hsacl_run_groups");
  }
  const struct hsacl_kernel *t = pr->instances[0].table;
  for (uint32_t k = 0; k < pr->kernel_count; k++) {
    struct cl_kernel *ck = &pr->kernels[k];
    uint32_t align = t[k].kernarg_segment_align;
    if (t[k].name && !t[k].items && !t[k].group) {
      log_error("%s: kernel %s has neither a work-group function nor a work-item loop "
                "(hsacl_kernel.group, .items; rebuild with tools/hsacc)",
                source, t[k].name);
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    }
    if (!t[k].name || !t[k].entry || strlen(t[k].name) + 4 > sizeof ck->symbol ||
        (align & (align - 1)) != 0 ||
        (t[k].global_offset_arg >= 0 &&
         (uint64_t)t[k].global_offset_arg + 24 > t[k].kernarg_segment_size) ||
        t[k].local_arg_count > CL_MAX_LOCAL_ARGS || (t[k].local_arg_count && !t[k].local_args) ||
        (t[k].context_stride && !t[k].group) || t[k].context_stride % 16 != 0) {
      log_error("%s: kernel table entry %u is malformed", source, k);
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    }
    snprintf(ck->symbol, sizeof ck->symbol, "%s.kd", t[k].name);
    ck->desc = (hsa_cpu_kernel_descriptor_t){
        .magic = HSA_CL_KERNEL_MAGIC,
        .entry = NULL, /* the agent calls cl_kernel_run_groups */
        .name = ck->symbol,
        .kernarg_segment_size = t[k].kernarg_segment_size,
        .kernarg_segment_alignment = align > MIN_KERNARG_ALIGNMENT ? align : MIN_KERNARG_ALIGNMENT,
        .group_segment_size = t[k].group_segment_size,
        .private_segment_size = t[k].private_segment_size,
    };
    ck->program = pr;
    ck->index = k;
    ck->global_offset_arg = t[k].global_offset_arg;
    ck->local_arg_count = t[k].local_arg_count;
    ck->context_stride = t[k].context_stride;
    ck->cut = t[k].group != NULL && t[k].barrier_count > 0;
    for (uint32_t a = 0; a < ck->local_arg_count; a++) {
      ck->local_args[a] = t[k].local_args[a];
      if ((uint64_t)ck->local_args[a] + 4 > t[k].kernarg_segment_size) {
        log_error("%s: kernel %s: __local argument at kernarg offset %u is outside its %u bytes",
                  source, t[k].name, ck->local_args[a], t[k].kernarg_segment_size);
        return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
      }
    }
  }
  return HSA_STATUS_SUCCESS;
}

struct variables {
  struct symbol_desc *descs;
  uint32_t count, capacity;
};

static void add_variable(void *ctx, const char *name, uint64_t address, uint64_t size, bool writable) {
  struct variables *v = ctx;
  if (strncmp(name, "__hsacl_", 8) == 0 || v->count == v->capacity) return;
  v->descs[v->count++] = (struct symbol_desc){
      .name = name,
      .kind = HSA_SYMBOL_KIND_VARIABLE,
      .linkage = HSA_SYMBOL_LINKAGE_PROGRAM,
      .address = address,
      .allocation = HSA_VARIABLE_ALLOCATION_AGENT,
      .segment = writable ? HSA_VARIABLE_SEGMENT_GLOBAL : HSA_VARIABLE_SEGMENT_READONLY,
      .variable_size = size,
      .is_const = !writable,
  };
}

static void count_variable(void *ctx, const char *name, uint64_t address, uint64_t size, bool writable) {
  (void)name, (void)address, (void)size, (void)writable;
  ++*(uint32_t *)ctx;
}

static hsa_status_t add_symbols(struct cl_program *pr, struct executable *exec,
                                const struct agent *agent) {
  uint32_t vars = 0;
  x86_dso_for_each_object(pr->dso, count_variable, &vars);
  struct variables v = {calloc(pr->kernel_count + vars + 1, sizeof *v.descs), 0, vars};
  if (!v.descs) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  for (uint32_t k = 0; k < pr->kernel_count; k++) {
    const hsa_cpu_kernel_descriptor_t *d = &pr->kernels[k].desc;
    v.descs[v.count++] = (struct symbol_desc){
        .name = d->name,
        .kind = HSA_SYMBOL_KIND_KERNEL,
        .linkage = HSA_SYMBOL_LINKAGE_PROGRAM,
        .address = (uint64_t)(uintptr_t)d,
        .kernarg_segment_size = d->kernarg_segment_size,
        .kernarg_segment_alignment = d->kernarg_segment_alignment,
        .group_segment_size = d->group_segment_size,
        .private_segment_size = d->private_segment_size,
    };
  }
  v.capacity = v.count + vars;
  x86_dso_for_each_object(pr->dso, add_variable, &v);
  uint32_t failed = 0;
  hsa_status_t st = executable_add_symbols(exec, agent, v.descs, v.count, &failed);
  if (st != HSA_STATUS_SUCCESS)
    log_error("CPU code: symbol %s: %s", v.count ? v.descs[failed].name : "-",
              st == HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED ? "already defined in the executable"
                                                              : "cannot be added");
  free(v.descs);
  return st;
}

hsa_status_t cl_program_load(struct executable *exec, const struct agent *agent, const void *data,
                             size_t size, struct cl_program **out) {
  char why[256];
  const char *source = "CPU code object";
  *out = NULL;
  if (loader_bundle_is_bundle(data, size)) {
    enum loader_status st = loader_bundle_select_id(data, size, "offload bundle", LOADER_BUNDLE_CPU_ENTRY,
                                                    &data, &size, why, sizeof why);
    if (st != LOADER_OK) return status_of(st);
    source = "offload bundle's CPU entry";
  }
  struct cl_program *pr = calloc(1, sizeof *pr);
  if (!pr) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  pr->instance_count = agent->compute_units ? agent->compute_units : 1;
  pr->instances = calloc(pr->instance_count, sizeof *pr->instances);
  if (!pr->instances) {
    free(pr);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  struct resolve_ctx r = {exec, agent};
  enum loader_status ls = x86_dso_load(data, size, source, pr->instance_count, resolve_import, &r,
                                       &pr->dso, why, sizeof why);
  hsa_status_t st = status_of(ls);
  if (st == HSA_STATUS_SUCCESS) st = read_tables(pr, source);
  if (st == HSA_STATUS_SUCCESS) st = add_symbols(pr, exec, agent);
  if (st != HSA_STATUS_SUCCESS) {
    cl_program_unload(pr);
    return st;
  }
  lock_acquire(&rt.cl_programs.lock);
  pr->next = rt.cl_programs.list;
  rt.cl_programs.list = pr;
  lock_release(&rt.cl_programs.lock);
  log_debug("%s: %u kernels, %u instances", source, pr->kernel_count, pr->instance_count);
  *out = pr;
  return HSA_STATUS_SUCCESS;
}

const hsa_cpu_kernel_descriptor_t *cl_kernel_from_object(uint64_t kernel_object) {
  const hsa_cpu_kernel_descriptor_t *found = NULL;
  lock_acquire(&rt.cl_programs.lock);
  for (struct cl_program *p = rt.cl_programs.list; p && !found; p = p->next) {
    uintptr_t base = (uintptr_t)p->kernels;
    if (kernel_object >= base && kernel_object < base + p->kernel_count * sizeof *p->kernels &&
        (kernel_object - base) % sizeof *p->kernels == 0)
      found = &p->kernels[(kernel_object - base) / sizeof *p->kernels].desc;
  }
  lock_release(&rt.cl_programs.lock);
  return found;
}

hsa_status_t cl_kernel_check_dispatch(const hsa_cpu_kernel_descriptor_t *kernel,
                                      const hsa_kernel_dispatch_packet_t *p,
                                      uint32_t group_segment_limit) {
  /* The kernel's group function takes the kernarg as aligned so
   * (cl/cpu_abi.h, hsacl_items_fn). */
  if ((uintptr_t)p->kernarg_address % MIN_KERNARG_ALIGNMENT) {
    log_error("%s: kernarg at %p is not %u-byte aligned", kernel->name, p->kernarg_address,
              MIN_KERNARG_ALIGNMENT);
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  /* The packet's size is the whole group segment, static part included
   * (HSA Runtime PRM 1.2, 2.6.1), as for a GPU kernel. */
  if (kernel->group_segment_size > group_segment_limit || p->group_segment_size > group_segment_limit) {
    log_error("%s: %u bytes of group memory (the kernel's own %u), the agent has %u", kernel->name,
              p->group_segment_size > kernel->group_segment_size ? p->group_segment_size
                                                                 : kernel->group_segment_size,
              kernel->group_segment_size, group_segment_limit);
    return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  }
  /* A __local pointer argument is an offset into the group segment (as on
   * the GPU): one past its end would let the kernel write other memory. */
  const struct cl_kernel *k = (const struct cl_kernel *)(uintptr_t)kernel;
  uint32_t group = p->group_segment_size > kernel->group_segment_size ? p->group_segment_size
                                                                      : kernel->group_segment_size;
  for (uint32_t a = 0; a < k->local_arg_count && p->kernarg_address; a++) {
    uint32_t offset;
    memcpy(&offset, (const uint8_t *)p->kernarg_address + k->local_args[a], 4);
    if (offset >= group) {
      log_error("%s: __local argument (kernarg offset %u) is at group segment offset %u, past "
                "the packet's %u bytes", kernel->name, k->local_args[a], offset, group);
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
  }
  uint32_t private_bytes = kernel->private_segment_size > p->private_segment_size
                              ? kernel->private_segment_size
                              : p->private_segment_size;
  if ((uint64_t)private_bytes + k->context_stride > CL_PRIVATE_SEGMENT_MAX) {
    log_error("%s: %u bytes of private memory per work-item and %u kept across barriers, the "
              "agent has %u",
              kernel->name, private_bytes, k->context_stride, CL_PRIVATE_SEGMENT_MAX);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t cl_kernel_fill_hidden(const hsa_cpu_kernel_descriptor_t *kernel, void *kernarg,
                                   size_t kernarg_size) {
  const struct cl_kernel *k = (const struct cl_kernel *)(uintptr_t)kernel;
  if (kernarg_size < kernel->kernarg_segment_size) {
    log_error("%s: kernarg of %zu bytes, the kernel's segment has %u", k->symbol, kernarg_size,
              kernel->kernarg_segment_size);
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  if (k->global_offset_arg >= 0) memset((uint8_t *)kernarg + k->global_offset_arg, 0, 24);
  return HSA_STATUS_SUCCESS;
}

bool cl_kernel_is_cut_at_barriers(const hsa_cpu_kernel_descriptor_t *kernel) {
  return ((const struct cl_kernel *)(uintptr_t)kernel)->cut;
}

hsa_status_t cl_kernel_take_error(const hsa_cpu_kernel_descriptor_t *kernel) {
  struct cl_kernel *k = (struct cl_kernel *)(uintptr_t)kernel;
  return (hsa_status_t)atomic_exchange_explicit(&k->error, HSA_STATUS_SUCCESS, memory_order_acq_rel);
}

/* A work-item's stack, made on first use and kept with the instance. */
static void *item_stack(void *ctx, uint32_t item, size_t *size) {
  struct cl_instance *in = ctx;
  if (item >= HSACL_MAX_ITEMS) return NULL;
  if (!in->stacks[item] && !(in->stacks[item] = stack_take())) return NULL;
  *size = CL_STACK_BYTES;
  return (uint8_t *)in->stacks[item] + CL_GUARD_BYTES;
}

/* The instance's context buffer, at least `size` bytes (NULL if there is
 * no memory for it): grown, never shrunk, so that a core allocates once
 * for the groups of a kernel. */
static char *item_contexts(struct cl_instance *in, size_t size) {
  if (size <= in->context_size) return in->context;
  size = (size + 63) & ~(size_t)63;
  char *c = aligned_alloc(64, size);
  if (!c) return NULL;
  free(in->context);
  in->context = c;
  in->context_size = size;
  return c;
}

static void fail(struct cl_kernel *k, hsa_status_t st) {
  uint32_t none = HSA_STATUS_SUCCESS;
  atomic_compare_exchange_strong_explicit(&k->error, &none, (uint32_t)st, memory_order_acq_rel,
                                          memory_order_relaxed);
}

void cl_kernel_run_groups(const hsa_cpu_dispatch_t *d, uint64_t count, const uint32_t groups[3]) {
  struct cl_kernel *k = (struct cl_kernel *)(uintptr_t)d->packet->kernel_object;
  struct cl_program *pr = k->program;
  if (d->core >= pr->instance_count) {
    log_error("%s: core %u has no instance (the program has %u)", k->symbol, d->core, pr->instance_count);
    fail(k, HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
    return;
  }
  struct cl_instance *in = &pr->instances[d->core];
  struct hsacl_group g = {
      .kernel = &in->table[k->index],
      .kernarg = d->kernarg,
      .group_segment = d->group_segment,
      .group_segment_size = d->group_segment_size,
      .dims = d->dimensions,
      .group_count = count,
      .stack = item_stack,
      .stack_ctx = in,
  };
  uint64_t offset[3] = {0, 0, 0};
  if (k->global_offset_arg >= 0 && d->kernarg)
    memcpy(offset, (const uint8_t *)d->kernarg + k->global_offset_arg, sizeof offset);
  for (int i = 0; i < 3; i++) {
    g.global_size[i] = d->grid_size[i];
    g.local_size[i] = d->workgroup_size[i];
    g.group_id[i] = d->workgroup_id[i];
    g.num_groups[i] = groups[i];
    g.global_offset[i] = offset[i];
  }
  if (k->context_stride)
    g.context = item_contexts(in, (size_t)k->context_stride * d->workgroup_size[0] *
                                      d->workgroup_size[1] * d->workgroup_size[2]);
  in->run_groups(&g);
  if (g.status == HSACL_BARRIER_DIVERGENCE) {
    log_error("%s: work-group (%u,%u,%u): some work-items reached a barrier that others did not "
              "(OpenCL C 2.0, 6.13.8: all or none must)", k->symbol, g.group_id[0], g.group_id[1],
              g.group_id[2]);
    fail(k, HSA_STATUS_ERROR_EXCEPTION);
  } else if (g.status != HSACL_OK) {
    log_error("%s: no stack or context memory for a work-item of work-group (%u,%u,%u)", k->symbol,
              g.group_id[0], g.group_id[1], g.group_id[2]);
    fail(k, HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  }
}
