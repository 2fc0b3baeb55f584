/*
 * memory.c - regions and AMD memory pools (HSA Runtime PRM 1.2, 2.6; ROCr
 * hsa_ext_amd.h memory pool API): iterate, query, allocate, free, pointer
 * information, copy, fill, lock/unlock, access, deallocation callbacks.
 *
 * Every allocation is recorded (base, size, pool, kind) in a tree by
 * address, so that a free of a pointer the runtime did not hand out is
 * refused and hsa_amd_pointer_info finds the block around any address, in
 * O(log n) with any number of blocks. A pool holds as many blocks as its
 * size: each takes its size rounded up to MEMORY_GRANULE, and what is left
 * (HSA_AMD_AGENT_INFO_MEMORY_AVAIL) is the size less what they take. A
 * pool of system memory counts its own blocks only (system memory that
 * malloc or another pool took is not subtracted: the size is a limit on
 * the pool's share, as Linux's GTT limit on a GPU's); the carve-out's pool
 * asks the driver, whose firmware reserve counts too.
 */
#define LOG_TAG "memory"
#include "hsa/memory.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hsa/agent.h"
#include "hsa/runtime.h"
#include "lib/plat.h"
#include "lib/util.h"

struct dealloc_callback {
  hsa_amd_deallocation_callback_t fn;
  void *ptr; /* as registered (ROCr passes it back, not the block's base) */
  void *user_data;
  struct dealloc_callback *next;
};

struct allocation {
  struct avl_node node; /* in rt.memory.table, by base */
  uintptr_t base;
  size_t size;
  struct memory_pool *pool;    /* NULL for locked (registered) host memory */
  hsa_amd_pointer_type_t type; /* HSA or LOCKED */
  bool runtime_owned;          /* a live queue's ring: the program may not free it */
  void *user_data;
  struct dealloc_callback *callbacks, **callbacks_tail; /* in registration order */
};

static struct allocation *allocation_of(struct avl_node *n) {
  return avl_entry(n, struct allocation, node);
}

/* The allocation containing addr, or NULL. Caller holds the lock. */
static struct allocation *find_containing(uintptr_t addr) {
  struct allocation *below = NULL; /* the last one starting at or before addr */
  for (struct avl_node *n = rt.memory.table.root; n;) {
    struct allocation *a = allocation_of(n);
    if (a->base <= addr) {
      below = a;
      n = n->right;
    } else {
      n = n->left;
    }
  }
  return below && addr < below->base + (below->size ? below->size : 1) ? below : NULL;
}

/* The allocation of `type` starting exactly at base, or NULL. Caller holds the lock. */
static struct allocation *find_block(uintptr_t base, hsa_amd_pointer_type_t type) {
  struct allocation *a = find_containing(base);
  return a && a->base == base && a->type == type ? a : NULL;
}

/* Adds a copy of *a. false when out of memory. Caller holds the lock. */
static bool table_insert_locked(const struct allocation *a) {
  struct allocation *copy = malloc(sizeof *copy);
  if (!copy) return false;
  *copy = *a;
  copy->callbacks = NULL;
  copy->callbacks_tail = &copy->callbacks;
  struct avl_node *parent = NULL, **link = &rt.memory.table.root;
  while (*link) {
    parent = *link;
    link = a->base < allocation_of(parent)->base ? &parent->left : &parent->right;
  }
  avl_insert(&rt.memory.table, parent, link, &copy->node);
  rt.memory.table_count++;
  return true;
}

/* Takes a out of the table; its record (callbacks included) is the caller's. */
static void table_remove_locked(struct allocation *a) {
  avl_remove(&rt.memory.table, &a->node);
  rt.memory.table_count--;
}

size_t memory_allocation_count(void) {
  lock_acquire(&rt.memory.table_lock);
  size_t n = rt.memory.table_count;
  lock_release(&rt.memory.table_lock);
  return n;
}

static void free_callbacks(struct allocation *a) {
  while (a->callbacks) {
    struct dealloc_callback *next = a->callbacks->next;
    free(a->callbacks);
    a->callbacks = next;
  }
}

static size_t system_memory_bytes(void) {
  long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
  return pages > 0 && page_size > 0 ? (size_t)pages * (size_t)page_size : 0;
}

hsa_status_t memory_init(void) {
  size_t size = system_memory_bytes();
  rt.memory.pools[MEMORY_POOL_SYSTEM] = (struct memory_pool){
      .name = "system", .segment = HSA_AMD_SEGMENT_GLOBAL,
      .global_flags = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED | HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT,
      .size = size};
  rt.memory.pools[MEMORY_POOL_SYSTEM_COARSE] = (struct memory_pool){
      .name = "system-coarse", .segment = HSA_AMD_SEGMENT_GLOBAL,
      .global_flags = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED, .size = size};
  rt.memory.pool_count = MEMORY_POOL_COUNT;
  return HSA_STATUS_SUCCESS;
}

struct memory_pool *memory_pool_add_local(const struct memory_pool *desc) {
  if (rt.memory.pool_count == MEMORY_POOL_COUNT + MEMORY_POOL_LOCAL_MAX) return NULL;
  rt.memory.pools[rt.memory.pool_count] = *desc;
  return &rt.memory.pools[rt.memory.pool_count++];
}

/* Gives a pool's block back to where it came from: 0, or what its owner
 * said when it refused. */
static int pool_release(struct memory_pool *p, void *ptr) {
  if (p->release) return p->release(p, ptr);
  free(ptr);
  return 0;
}

void memory_fini(void) {
  /* PRM 2.1: shut down releases the runtime's resources, memory the
   * program allocated from pools included (locked memory stays its own;
   * the runtime's own blocks were given back by their owners). */
  lock_acquire(&rt.memory.table_lock);
  while (rt.memory.table.root) {
    struct allocation *a = allocation_of(rt.memory.table.root);
    table_remove_locked(a);
    if (a->type == HSA_EXT_POINTER_TYPE_HSA && !a->runtime_owned) pool_release(a->pool, (void *)a->base);
    free_callbacks(a);
    free(a);
  }
  /* The pools go too: agents that added theirs are gone, memory_init
   * makes the system ones again. */
  memset(rt.memory.pools, 0, sizeof rt.memory.pools);
  rt.memory.pool_count = 0;
  lock_release(&rt.memory.table_lock);
}

size_t memory_pool_available(struct memory_pool *p) {
  if (p->free_bytes) return p->free_bytes(p);
  lock_acquire(&rt.memory.table_lock);
  size_t left = p->size - p->allocated;
  lock_release(&rt.memory.table_lock);
  return left;
}

struct memory_pool *memory_pool(int index) {
  return &rt.memory.pools[index];
}

struct memory_pool *memory_pool_from_handle(uint64_t handle) {
  for (int i = 0; i < rt.memory.pool_count; i++)
    if (handle == memory_pool_handle(&rt.memory.pools[i])) return &rt.memory.pools[i];
  return NULL;
}

/* ---- Pools and regions: discovery and attributes ------------------------ */

/* Calls `visit` with the handle of each pool of the agent; with
 * `with_system`, the system pools follow if the agent does not list them
 * (ROCr: an agent's regions include the system regions it reaches, its
 * memory pools only its own). Stops at the first status other than
 * success and returns it. */
static hsa_status_t visit_pools(hsa_agent_t agent_handle, bool with_system,
                                hsa_status_t (*visit)(uint64_t handle, void *ctx), void *ctx) {
  struct agent *agent = agent_from_handle(agent_handle);
  if (!agent) return HSA_STATUS_ERROR_INVALID_AGENT;
  struct memory_pool *list[AGENT_MAX_POOLS + MEMORY_POOL_COUNT];
  uint32_t n = 0;
  for (uint32_t i = 0; i < agent->pool_count; i++) list[n++] = agent->pools[i];
  for (int sys = 0; with_system && sys < MEMORY_POOL_COUNT; sys++) {
    bool listed = false;
    for (uint32_t i = 0; i < agent->pool_count; i++) listed = listed || agent->pools[i] == &rt.memory.pools[sys];
    if (!listed) list[n++] = &rt.memory.pools[sys];
  }
  for (uint32_t i = 0; i < n; i++) {
    hsa_status_t st = visit(memory_pool_handle(list[i]), ctx);
    if (st != HSA_STATUS_SUCCESS) return st;
  }
  return HSA_STATUS_SUCCESS;
}

struct pool_visitor {
  hsa_status_t (*pool_fn)(hsa_amd_memory_pool_t pool, void *data);
  hsa_status_t (*region_fn)(hsa_region_t region, void *data);
  void *data;
};

static hsa_status_t visit_as_pool(uint64_t handle, void *ctx) {
  const struct pool_visitor *v = ctx;
  return v->pool_fn((hsa_amd_memory_pool_t){handle}, v->data);
}

static hsa_status_t visit_as_region(uint64_t handle, void *ctx) {
  const struct pool_visitor *v = ctx;
  return v->region_fn((hsa_region_t){handle}, v->data);
}

hsa_status_t hsa_amd_agent_iterate_memory_pools(hsa_agent_t agent_handle,
                                                hsa_status_t (*callback)(hsa_amd_memory_pool_t pool,
                                                                         void *data),
                                                void *data) {
  RETURN_IF_NOT_INITIALIZED();
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT; /* ROCr: the callback first */
  struct pool_visitor v = {.pool_fn = callback, .data = data};
  return visit_pools(agent_handle, false, visit_as_pool, &v);
}

hsa_status_t hsa_agent_iterate_regions(hsa_agent_t agent_handle,
                                       hsa_status_t (*callback)(hsa_region_t region, void *data),
                                       void *data) {
  RETURN_IF_NOT_INITIALIZED();
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct pool_visitor v = {.region_fn = callback, .data = data};
  return visit_pools(agent_handle, true, visit_as_region, &v);
}

/* The group segment pool (a GPU's LDS) holds no allocations. */
static bool pool_is_global(const struct memory_pool *p) {
  return p->segment == HSA_AMD_SEGMENT_GLOBAL;
}

/* Values as ROCr's MemoryRegion::GetInfo / GetPoolInfo give them for
 * system, local (GPU) and LDS regions (core/runtime/amd_memory_region.cpp);
 * what differs is the single address space: every global pool is
 * reachable by every agent and from the host. */
hsa_status_t hsa_amd_memory_pool_get_info(hsa_amd_memory_pool_t handle,
                                          hsa_amd_memory_pool_info_t attribute, void *value) {
  RETURN_IF_NOT_INITIALIZED();
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT; /* ROCr: the pointer first */
  struct memory_pool *p = memory_pool_from_handle(handle.handle);
  if (!p) return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;
  bool global = pool_is_global(p);
  switch (attribute) {
    case HSA_AMD_MEMORY_POOL_INFO_SEGMENT:
      *(hsa_amd_segment_t *)value = p->segment;
      break;
    case HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS:
      *(uint32_t *)value = global ? p->global_flags : 0;
      break;
    case HSA_AMD_MEMORY_POOL_INFO_SIZE:
      *(size_t *)value = p->size;
      break;
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED:
      *(bool *)value = global;
      break;
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE:
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT:
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_REC_GRANULE:
      *(size_t *)value = global ? MEMORY_GRANULE : 0;
      break;
    case HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL:
      *(bool *)value = global;
      break;
    case HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE:
      *(size_t *)value = global ? p->size : 0;
      break;
    case HSA_AMD_MEMORY_POOL_INFO_LOCATION:
      if (!global) return HSA_STATUS_ERROR_INVALID_ARGUMENT; /* as ROCr for LDS */
      *(hsa_amd_memory_pool_location_t *)value =
          p->owner && p->owner->device_type == HSA_DEVICE_TYPE_GPU ? HSA_AMD_MEMORY_POOL_LOCATION_GPU
                                                                   : HSA_AMD_MEMORY_POOL_LOCATION_CPU;
      break;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_region_get_info(hsa_region_t region, hsa_region_info_t attribute, void *value) {
  RETURN_IF_NOT_INITIALIZED();
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct memory_pool *p = memory_pool_from_handle(region.handle);
  if (!p) return HSA_STATUS_ERROR_INVALID_REGION;
  bool global = pool_is_global(p);
  switch ((int)attribute) {
    case HSA_REGION_INFO_SEGMENT:
      *(hsa_region_segment_t *)value = global ? HSA_REGION_SEGMENT_GLOBAL : HSA_REGION_SEGMENT_GROUP;
      break;
    /* The region flag values equal the pool flag values (hsa.h, hsa_ext_amd.h). */
    case HSA_REGION_INFO_GLOBAL_FLAGS:
      *(uint32_t *)value = global ? p->global_flags : 0;
      break;
    case HSA_REGION_INFO_SIZE:
      *(size_t *)value = p->size;
      break;
    case HSA_REGION_INFO_ALLOC_MAX_SIZE:
      *(size_t *)value = global ? p->size : 0;
      break;
    case HSA_REGION_INFO_ALLOC_MAX_PRIVATE_WORKGROUP_SIZE:
      *(uint32_t *)value = 0;
      break;
    case HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED:
      *(bool *)value = global;
      break;
    case HSA_REGION_INFO_RUNTIME_ALLOC_GRANULE:
    case HSA_REGION_INFO_RUNTIME_ALLOC_ALIGNMENT:
      *(size_t *)value = global ? MEMORY_GRANULE : 0;
      break;
    case HSA_AMD_REGION_INFO_HOST_ACCESSIBLE:
      *(bool *)value = global; /* the carve-out too: the CPU reaches it at the same address */
      break;
    case HSA_AMD_REGION_INFO_BASE:
      *(void **)value = NULL;
      break;
    case HSA_AMD_REGION_INFO_BUS_WIDTH:
    case HSA_AMD_REGION_INFO_MAX_CLOCK_FREQUENCY:
      *(uint32_t *)value = 0;
      break;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_agent_memory_pool_get_info(hsa_agent_t agent_handle,
                                                hsa_amd_memory_pool_t pool,
                                                hsa_amd_agent_memory_pool_info_t attribute,
                                                void *value) {
  RETURN_IF_NOT_INITIALIZED();
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct agent *agent = agent_from_handle(agent_handle);
  if (!agent) return HSA_STATUS_ERROR_INVALID_AGENT;
  struct memory_pool *p = memory_pool_from_handle(pool.handle);
  if (!p) return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;
  switch (attribute) {
    case HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS:
      /* Single address space: every agent reaches every global pool
       * directly; a GPU's LDS only that GPU's work-groups. */
      *(hsa_amd_memory_pool_access_t *)value =
          pool_is_global(p) || p->owner == agent ? HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT
                                                 : HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED;
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS:
      *(uint32_t *)value = 0; /* the same memory, no link in between */
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO:
      return HSA_STATUS_SUCCESS; /* zero hops: no entries to write */
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

/* ---- Allocation ------------------------------------------------------------ */

/* The agent that owns a block (hsa_amd_pointer_info's agentOwner): its
 * pool's, or the first agent for memory of no agent's pool. */
static struct agent *block_owner(const struct allocation *a) {
  return a->pool && a->pool->owner ? a->pool->owner : agent_at(0);
}

/* size and ptr were checked by the API entry, before the pool (ROCr's order).
 * A size beyond the pool is an invalid allocation (ROCr's
 * max_single_alloc_size_); one beyond what is left, out of resources. */
static hsa_status_t pool_allocate(struct memory_pool *p, size_t size, void **ptr) {
  if (!pool_is_global(p) || size > p->size || size > SIZE_MAX - MEMORY_GRANULE)
    return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  size_t rounded = ALIGN_UP(size, (size_t)MEMORY_GRANULE);
  lock_acquire(&rt.memory.table_lock);
  size_t left = p->size - p->allocated;
  bool room = rounded <= left;
  if (room) p->allocated += rounded; /* reserved before the memory is taken */
  lock_release(&rt.memory.table_lock);
  if (!room) {
    log_error("pool %s: %zu bytes asked, %zu of %zu left", p->name, rounded, left, p->size);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  void *mem = p->alloc ? p->alloc(p, rounded) : aligned_alloc(MEMORY_GRANULE, rounded);
  struct allocation a = {.base = (uintptr_t)mem, .size = rounded, .pool = p, .type = HSA_EXT_POINTER_TYPE_HSA};
  lock_acquire(&rt.memory.table_lock);
  bool recorded = mem && table_insert_locked(&a);
  if (!recorded) p->allocated -= rounded;
  lock_release(&rt.memory.table_lock);
  if (!recorded) {
    if (mem) pool_release(p, mem);
    log_error("pool %s: no memory for %zu bytes%s", p->name, rounded,
              p->alloc ? " (no free extent that large)" : "");
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  *ptr = mem;
  return HSA_STATUS_SUCCESS;
}

/* In the order they were registered, each with the pointer it was
 * registered with, as ROCr's FreeMemory (whose removal moves the last
 * callback into the removed one's place; here the order stays). */
static void run_dealloc_callbacks(struct allocation *a) {
  while (a->callbacks) {
    struct dealloc_callback *cb = a->callbacks;
    a->callbacks = cb->next;
    cb->fn(cb->ptr, cb->user_data);
    free(cb);
  }
  a->callbacks_tail = &a->callbacks;
}

/* ROCr's answer when the driver refuses to free a block it knows (KFD
 * will not unmap memory a queue uses: amdgpu_amdkfd_gpuvm.c,
 * unmap_bo_from_gpuvm, queue_refcount; ROCr runtime.cpp FreeMemory): an
 * HSA_AMD_GPU_MEMORY_ERROR_EVENT with the address, the memory's agent and
 * MEMORY_IN_USE, to the system event handlers on the freeing thread, and
 * HSA_STATUS_ERROR. ROCr aborts when no handler took the event; this
 * runtime logs it and returns the error. */
static hsa_status_t refuse_free(void *ptr, struct agent *owner, const char *why) {
  hsa_amd_event_t e = {.event_type = HSA_AMD_GPU_MEMORY_ERROR_EVENT};
  e.memory_error.agent = agent_handle(owner);
  e.memory_error.virtual_address = (uint64_t)(uintptr_t)ptr;
  e.memory_error.error_reason_mask = HSA_AMD_MEMORY_ERROR_MEMORY_IN_USE;
  bool handled = runtime_report_system_event(&e);
  log_error("free of %p refused: %s%s", ptr, why,
            handled ? "" : " (no system event handler took the memory error event)");
  return HSA_STATUS_ERROR;
}

static hsa_status_t pool_free(void *ptr) {
  if (!ptr) return HSA_STATUS_SUCCESS; /* 2.6: a NULL pointer is ignored */
  lock_acquire(&rt.memory.table_lock);
  struct allocation *a = find_block((uintptr_t)ptr, HSA_EXT_POINTER_TYPE_HSA);
  struct agent *owner = a ? block_owner(a) : NULL;
  bool in_use = a && a->runtime_owned;
  if (a && !in_use) {
    table_remove_locked(a);
    a->pool->allocated -= a->size;
  }
  lock_release(&rt.memory.table_lock);
  if (!a) {
    log_error("free of %p: not the start of a block this runtime allocated", ptr);
    return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  }
  if (in_use) return refuse_free(ptr, owner, "the memory of a live queue");
  /* As ROCr: the callbacks first, then the memory goes back. */
  run_dealloc_callbacks(a);
  struct memory_pool *pool = a->pool;
  free(a);
  if (pool_release(pool, ptr)) return refuse_free(ptr, owner, "its pool's owner does not know the block");
  return HSA_STATUS_SUCCESS;
}

hsa_status_t memory_track_runtime_block(void *base, size_t size) {
  struct allocation a = {.base = (uintptr_t)base, .size = size, .pool = &rt.memory.pools[MEMORY_POOL_SYSTEM],
                         .type = HSA_EXT_POINTER_TYPE_HSA, .runtime_owned = true};
  lock_acquire(&rt.memory.table_lock);
  bool recorded = table_insert_locked(&a);
  lock_release(&rt.memory.table_lock);
  return recorded ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

void memory_untrack_runtime_block(void *base) {
  lock_acquire(&rt.memory.table_lock);
  struct allocation *a = find_block((uintptr_t)base, HSA_EXT_POINTER_TYPE_HSA);
  if (a && a->runtime_owned) table_remove_locked(a);
  else a = NULL;
  lock_release(&rt.memory.table_lock);
  if (!a) return;
  run_dealloc_callbacks(a);
  free(a);
}

/* ROCr: size and pointer before the pool; flags it does not know are
 * ignored (the pool flags are hints for dGPU placement). */
hsa_status_t hsa_amd_memory_pool_allocate(hsa_amd_memory_pool_t pool, size_t size, uint32_t flags,
                                          void **ptr) {
  RETURN_IF_NOT_INITIALIZED();
  (void)flags;
  if (size == 0 || !ptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct memory_pool *p = memory_pool_from_handle(pool.handle);
  if (!p) return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;
  return pool_allocate(p, size, ptr);
}

hsa_status_t hsa_memory_allocate(hsa_region_t region, size_t size, void **ptr) {
  RETURN_IF_NOT_INITIALIZED();
  if (size == 0 || !ptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct memory_pool *p = memory_pool_from_handle(region.handle);
  if (!p) return HSA_STATUS_ERROR_INVALID_REGION;
  return pool_allocate(p, size, ptr);
}

hsa_status_t hsa_amd_memory_pool_free(void *ptr) {
  RETURN_IF_NOT_INITIALIZED();
  return pool_free(ptr);
}

hsa_status_t hsa_memory_free(void *ptr) {
  RETURN_IF_NOT_INITIALIZED();
  return pool_free(ptr);
}

hsa_status_t hsa_memory_assign_agent(void *ptr, hsa_agent_t agent, hsa_access_permission_t access) {
  RETURN_IF_NOT_INITIALIZED();
  if (!ptr || access < HSA_ACCESS_PERMISSION_RO || access > HSA_ACCESS_PERMISSION_RW)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!agent_from_handle(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  return HSA_STATUS_SUCCESS; /* every agent already reaches every byte */
}

/* Registration is a hint that memory will be shared with agents: nothing
 * to do when all memory already is. ROCr refuses only a size of zero with
 * an address, and deregisters anything. */
hsa_status_t hsa_memory_register(void *ptr, size_t size) {
  RETURN_IF_NOT_INITIALIZED();
  if (ptr && size == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_memory_deregister(void *ptr, size_t size) {
  RETURN_IF_NOT_INITIALIZED();
  (void)ptr;
  (void)size;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_agents_allow_access(uint32_t num_agents, const hsa_agent_t *agents,
                                         const uint32_t *flags, const void *ptr) {
  RETURN_IF_NOT_INITIALIZED();
  /* ROCr: flags are reserved and must be NULL. */
  if (num_agents == 0 || !agents || flags || !ptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (uint32_t i = 0; i < num_agents; i++)
    if (!agent_from_handle(agents[i])) return HSA_STATUS_ERROR_INVALID_AGENT;
  lock_acquire(&rt.memory.table_lock);
  bool known = find_containing((uintptr_t)ptr) != NULL;
  lock_release(&rt.memory.table_lock);
  if (!known) {
    log_error("hsa_amd_agents_allow_access: %p was not allocated from a pool", ptr);
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS; /* single address space: already reachable */
}

hsa_status_t hsa_amd_memory_pool_can_migrate(hsa_amd_memory_pool_t src, hsa_amd_memory_pool_t dst,
                                             bool *result) {
  RETURN_IF_NOT_INITIALIZED();
  if (!result) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!memory_pool_from_handle(src.handle) || !memory_pool_from_handle(dst.handle))
    return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;
  *result = false; /* all pools are the same memory: nothing to migrate */
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_migrate(const void *ptr, hsa_amd_memory_pool_t pool, uint32_t flags) {
  RETURN_IF_NOT_INITIALIZED();
  if (!ptr || flags != 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!memory_pool_from_handle(pool.handle))
    return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;
  log_error("hsa_amd_memory_migrate: pools share one memory; migration is not offered");
  return HSA_STATUS_ERROR;
}

/* ---- Copy and fill ------------------------------------------------------------ */

hsa_status_t hsa_memory_copy(void *dst, const void *src, size_t size) {
  RETURN_IF_NOT_INITIALIZED();
  if (!dst || !src) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  memmove(dst, src, size);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_fill(void *ptr, uint32_t value, size_t count) {
  RETURN_IF_NOT_INITIALIZED();
  if (!ptr || ((uintptr_t)ptr & 3) != 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  uint32_t *p = ptr;
  for (size_t i = 0; i < count; i++) p[i] = value;
  return HSA_STATUS_SUCCESS;
}

/* ---- Locking host memory --------------------------------------------------------- */

/* Locking (pinning) is what an APU never needs: ROCr answers a full-profile
 * system at once with the host address (AMD::MemoryRegion::Lock), and so
 * does this runtime, after ROCr's argument checks. The block is recorded
 * (pointer info says LOCKED) unless it overlaps one already known; unlock
 * forgets it, and like ROCr's accepts any pointer. */
static hsa_status_t lock_memory(void *host_ptr, size_t size, hsa_agent_t *agents, int num_agent,
                                void **agent_ptr) {
  for (int i = 0; i < num_agent; i++)
    if (!agent_from_handle(agents[i])) return HSA_STATUS_ERROR_INVALID_AGENT;
  struct allocation a = {.base = (uintptr_t)host_ptr, .size = size, .type = HSA_EXT_POINTER_TYPE_LOCKED};
  lock_acquire(&rt.memory.table_lock);
  bool known = find_containing((uintptr_t)host_ptr) || find_containing((uintptr_t)host_ptr + size - 1);
  bool recorded = known || table_insert_locked(&a);
  lock_release(&rt.memory.table_lock);
  if (!recorded) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  *agent_ptr = host_ptr; /* the address agents use is the host address */
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_lock(void *host_ptr, size_t size, hsa_agent_t *agents, int num_agent,
                                 void **agent_ptr) {
  RETURN_IF_NOT_INITIALIZED();
  if (size == 0 || !host_ptr || !agent_ptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *agent_ptr = NULL;
  if ((agents != NULL) != (num_agent != 0) || num_agent < 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return lock_memory(host_ptr, size, agents, num_agent, agent_ptr);
}

hsa_status_t hsa_amd_memory_lock_to_pool(void *host_ptr, size_t size, hsa_agent_t *agents,
                                         int num_agent, hsa_amd_memory_pool_t pool, uint32_t flags,
                                         void **agent_ptr) {
  RETURN_IF_NOT_INITIALIZED();
  if (size == 0 || !host_ptr || !agent_ptr || flags != 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *agent_ptr = NULL;
  if ((agents != NULL) != (num_agent != 0) || num_agent < 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  /* ROCr: the pool must be a CPU agent's (system memory). */
  struct memory_pool *p = memory_pool_from_handle(pool.handle);
  if (!p || (p->owner && p->owner->device_type != HSA_DEVICE_TYPE_CPU) || !pool_is_global(p))
    return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;
  return lock_memory(host_ptr, size, agents, num_agent, agent_ptr);
}

hsa_status_t hsa_amd_memory_unlock(void *host_ptr) {
  RETURN_IF_NOT_INITIALIZED();
  lock_acquire(&rt.memory.table_lock);
  struct allocation *a = host_ptr ? find_block((uintptr_t)host_ptr, HSA_EXT_POINTER_TYPE_LOCKED) : NULL;
  if (a) table_remove_locked(a);
  lock_release(&rt.memory.table_lock);
  free(a); /* no callbacks: ROCr takes none for memory it did not allocate */
  return HSA_STATUS_SUCCESS;
}

/* ---- Pointer information -------------------------------------------------------- */

/* As ROCr's Runtime::PtrInfo: info->size says how much of the structure
 * the caller has (0 is refused; an older, shorter layout such as LLVM's
 * offload plugin's 32 bytes gets its fields, the rest is not written), and
 * the list of agents is returned only when alloc, num_agents_accessible
 * and accessible are all given. */
hsa_status_t hsa_amd_pointer_info(const void *ptr, hsa_amd_pointer_info_t *info,
                                  void *(*alloc)(size_t), uint32_t *num_agents_accessible,
                                  hsa_agent_t **accessible) {
  RETURN_IF_NOT_INITIALIZED();
  if (!ptr || !info || info->size == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!alloc || !num_agents_accessible) accessible = NULL;
  hsa_amd_pointer_info_t out = {0};
  out.size = info->size < sizeof out ? info->size : (uint32_t)sizeof out;
  lock_acquire(&rt.memory.table_lock);
  struct allocation *a = find_containing((uintptr_t)ptr);
  if (a) {
    out.type = a->type;
    out.agentBaseAddress = out.hostBaseAddress = (void *)a->base;
    out.sizeInBytes = a->size;
    out.userData = a->user_data;
    out.agentOwner = agent_handle(block_owner(a));
    out.global_flags =
        a->pool ? a->pool->global_flags : HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED;
  } else {
    out.type = HSA_EXT_POINTER_TYPE_UNKNOWN;
  }
  lock_release(&rt.memory.table_lock);
  memcpy(info, &out, out.size);
  if (accessible) {
    /* Known blocks are reachable by every agent; unknown ones by none. */
    uint32_t n = a ? agent_count() : 0;
    *num_agents_accessible = n;
    *accessible = NULL;
    if (n) {
      hsa_agent_t *list = alloc(n * sizeof *list);
      if (!list) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
      for (uint32_t i = 0; i < n; i++) list[i] = agent_handle(agent_at(i));
      *accessible = list;
    }
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_pointer_info_set_userdata(const void *ptr, void *userdata) {
  RETURN_IF_NOT_INITIALIZED();
  if (!ptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  lock_acquire(&rt.memory.table_lock);
  struct allocation *a = find_containing((uintptr_t)ptr);
  bool ok = a && a->base == (uintptr_t)ptr;
  if (ok) a->user_data = userdata;
  lock_release(&rt.memory.table_lock);
  return ok ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

/* ---- Deallocation callbacks ---------------------------------------------------- */

/* ROCr (runtime.cpp RegisterReleaseNotifier): any address inside a block
 * the runtime allocated takes callbacks; memory it did not allocate (no
 * block, or locked host memory, which ROCr keeps no block for) is an
 * invalid allocation. */
hsa_status_t hsa_amd_register_deallocation_callback(void *ptr,
                                                    hsa_amd_deallocation_callback_t callback,
                                                    void *user_data) {
  RETURN_IF_NOT_INITIALIZED();
  if (!ptr || !callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct dealloc_callback *cb = malloc(sizeof *cb);
  if (!cb) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  *cb = (struct dealloc_callback){callback, ptr, user_data, NULL};
  lock_acquire(&rt.memory.table_lock);
  struct allocation *a = find_containing((uintptr_t)ptr);
  bool ours = a && a->type == HSA_EXT_POINTER_TYPE_HSA;
  if (ours) {
    *a->callbacks_tail = cb;
    a->callbacks_tail = &cb->next;
  }
  lock_release(&rt.memory.table_lock);
  if (ours) return HSA_STATUS_SUCCESS;
  free(cb);
  log_error("deallocation callback on %p: no block this runtime allocated holds it", ptr);
  return HSA_STATUS_ERROR_INVALID_ALLOCATION;
}

/* ROCr (DeregisterReleaseNotifier): removes every registration of this
 * callback with this very pointer; none is an invalid argument. */
hsa_status_t hsa_amd_deregister_deallocation_callback(void *ptr,
                                                      hsa_amd_deallocation_callback_t callback) {
  RETURN_IF_NOT_INITIALIZED();
  if (!ptr || !callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  bool found = false;
  lock_acquire(&rt.memory.table_lock);
  struct allocation *a = find_containing((uintptr_t)ptr);
  if (a) {
    struct dealloc_callback **p = &a->callbacks;
    while (*p) {
      struct dealloc_callback *cb = *p;
      if (cb->fn == callback && cb->ptr == ptr) {
        *p = cb->next;
        free(cb);
        found = true;
      } else {
        p = &cb->next;
      }
    }
    a->callbacks_tail = p;
  }
  lock_release(&rt.memory.table_lock);
  return found ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}
