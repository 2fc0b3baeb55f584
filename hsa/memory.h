/*
 * memory.h - memory pools (which double as HSA regions) and the table of
 * allocations behind hsa_amd_pointer_info.
 *
 * The address space is single: every global pool is memory that every
 * agent reaches at the same address, so there is no migration and no
 * mapping; "allow access" only checks its arguments. Two system pools
 * exist: system (fine-grained, kernarg) and system-coarse (coarse-grained),
 * listed by every CPU agent. An agent adds its own with
 * memory_pool_add_local: a GPU's carve-out (global, with its allocator) or
 * its LDS (segment GROUP: described, never allocated from, as ROCr's LDS
 * region). hsa_agent_iterate_regions adds the system pools to an agent's
 * own, as ROCr's regions do; hsa_amd_agent_iterate_memory_pools does not.
 */
#ifndef HSA_MEMORY_H
#define HSA_MEMORY_H

#include <stdatomic.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "lib/avl_tree.h"
#include "lib/lock.h"

struct agent;

struct memory_pool {
  const char *name;
  hsa_amd_segment_t segment;
  uint32_t global_flags; /* hsa_amd_memory_pool_global_flag_t bits */
  size_t size;           /* bytes of memory behind the pool */
  struct agent *owner;   /* hsa_amd_pointer_info's agentOwner */
  /* Memory other than system RAM (a GPU's carve-out): its agent allocates
   * (MEMORY_GRANULE-aligned, NULL when no free extent holds the block),
   * frees (0, or non-zero when it does not know the block) and says how
   * many bytes are free. NULL for pools of system memory (the system
   * pools, a GPU's local pool that Linux would place in GTT: gpu_agent.c). */
  void *(*alloc)(struct memory_pool *p, size_t size);
  int (*release)(struct memory_pool *p, void *ptr);
  size_t (*free_bytes)(struct memory_pool *p);
  void *impl;
  size_t allocated; /* bytes of its live blocks (memory.c, under its lock) */
};

enum { MEMORY_POOL_SYSTEM = 0, MEMORY_POOL_SYSTEM_COARSE = 1, MEMORY_POOL_COUNT = 2 };

/* Agent-local pools (hsa_init, while agents are created): a copy of
 * `desc` becomes a pool; NULL when there is no room. */
#define MEMORY_POOL_LOCAL_MAX 8 /* a GPU's carve-out and LDS, for up to AMDGPU_MAX_DEVICES */
struct memory_pool *memory_pool_add_local(const struct memory_pool *desc);

/* The pool or region behind a handle, or NULL. */
struct memory_pool *memory_pool_from_handle(uint64_t handle);
struct memory_pool *memory_pool(int index);
static inline uint64_t memory_pool_handle(const struct memory_pool *p) {
  return (uint64_t)(uintptr_t)p;
}

/* Allocation granule and alignment of every pool. */
#define MEMORY_GRANULE 4096u

/* Bytes a pool can still give (HSA_AMD_AGENT_INFO_MEMORY_AVAIL): its size
 * less its live blocks, each counted in whole granules; for memory with
 * its own allocator, what that allocator has free. */
size_t memory_pool_available(struct memory_pool *p);

/* Memory the runtime allocated for its own use that programs see: a
 * queue's ring buffer, which ROCr takes from the system pool. It is an HSA
 * block of the system pool (pointer information, deallocation callbacks,
 * which run at untrack), and a program's free of it is refused while it is
 * tracked, as ROCr's driver refuses to free what a live queue uses
 * (memory.c refuse_free). */
hsa_status_t memory_track_runtime_block(void *base, size_t size);
void memory_untrack_runtime_block(void *base);

/* memory.c's state (rt.memory): the pools, and every allocation by base
 * in a tree (O(log n) to find, add or remove one). table_lock also covers
 * the pools' `allocated`. */
struct memory_state {
  struct memory_pool pools[MEMORY_POOL_COUNT + MEMORY_POOL_LOCAL_MAX];
  int pool_count;
  struct lock table_lock;
  struct avl_tree table;
  size_t table_count;
};

/* memory_async.c's state (rt.async_copy): the queue that carries the
 * runtime's copies, made at the first copy. */
struct queue;
struct async_copy_state {
  struct lock lock; /* queue */
  struct queue *queue;
  _Atomic bool profiling; /* hsa_amd_profiling_async_copy_enable */
};

/* Blocks the runtime knows of (pool allocations, locked and registered
 * memory, its own tracked blocks): 0 after hsa_shut_down. */
size_t memory_allocation_count(void);

#endif
