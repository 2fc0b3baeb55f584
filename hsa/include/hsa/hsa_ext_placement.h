/*
 * hsa_ext_placement.h - the placement agent: a queue whose dispatches the
 * runtime sends to the agent predicted to finish them first (an hsa-metal
 * extension; not part of ROCr).
 *
 * The placement agent stands for "any agent". It is not listed by
 * hsa_iterate_agents (a ROCr program sees the same agents as before); a
 * program gets its handle from hsa_ext_placement_agent() and uses it where
 * the HSA API takes an agent:
 *   - hsa_executable_load_agent_code_object(exec, placement, reader, ...)
 *     loads every part of the file for the agents behind it (the GPU code
 *     objects for the GPU agents, the CPU part of a tools/hsacc file for the
 *     CPU agents); it succeeds when at least one agent took a part.
 *   - hsa_executable_get_symbol_by_name(exec, "k" or "k.kd", &placement, &s)
 *     finds the kernel of every agent that has it; its KERNEL_OBJECT is the
 *     placement kernel (only a placement queue runs it), its kernarg, group
 *     and private sizes the largest of the parts'.
 *   - hsa_queue_create(placement, ...) makes an AQL queue. The program
 *     writes ordinary packets into it (kernel dispatch, barrier-AND/OR, the
 *     AMD barrier-value packet) and rings its doorbell as usual.
 *
 * Forwarding. Storing to the doorbell forwards the packets written so far,
 * on the storing thread (no extra thread): each one goes to a queue the
 * placement queue owns on a real agent. The runtime keeps AQL's rules
 * (HSA Platform System Architecture Specification 1.2, 2.9; HSA Runtime PRM
 * 1.2, 2.5): a packet with the barrier bit starts after every earlier packet
 * of the queue completed, whichever agent ran it; a barrier packet holds
 * every later packet on every agent until it completes; completion signals
 * are decremented once the packet's work is done (with its release fence);
 * when an agent's queue fails (a GPU fault, a time limit, a bad packet) the
 * placement queue stops and its error callback gets the same status, once;
 * nothing is re-run elsewhere. A kernel that has no code for an agent (an
 * OpenCL C file built for the GPU only) never goes there.
 * The doorbell value is not used: every packet up to the write index whose
 * header is valid is forwarded.
 *
 * The decision. For each kernel the runtime records how long each agent took
 * per problem size (work-items, in power-of-two classes; the time from when
 * the agent could start the dispatch, forwarded and its previous one done,
 * to the end time stamp the agent's profiling writes, so that the launch
 * cost counts); a class's time is the median of its last 8 measurements
 * (a few outliers do not decide), and a size between or beyond measured
 * classes is predicted along the line through them. On a CPU agent, whose
 * clock reads cost the dispatch, a class that holds its 8 times is timed
 * one dispatch in 8. The per-kernel statistics (hsa_ext_placement_kernel_stats)
 * count what was sent where and what was measured.
 * Each dispatch goes where it is predicted to finish first: the predicted
 * time of the work already queued on that agent plus its own (earliest
 * finish time), counting what agents that share the machine do to each
 * other. Each agent's slowdown while others have work (the ratio of its
 * times then to its predictions from times alone, a moving average over
 * all kernels) stretches its own run and the others' queued work it
 * overlaps; the agent chosen is the one with which all queued work is
 * predicted to end first, then the one that ends this dispatch first. With
 * no slowdown that is plain earliest finish; on the host, where the virtual
 * APU's interpreter takes cores from the CPU agents, it keeps work off the
 * GPU while the CPU agents are busy unless the GPU saves more than it
 * costs them. Until each allowed agent has 3 measurements of a size class
 * the runtime explores (sends the dispatch to the agent with the fewest),
 * at most 16 times per kernel and agent; past an agent's first measurement
 * of a class, only while it is predicted within 4x of the best agent (a
 * wider gap is no noise, and each sample would cost it). Nothing about any
 * agent's speed is assumed. The word `placement_log` in the boot options / HSAR_OPTIONS logs
 * every decision and every measurement at info level.
 *
 * Hidden kernel arguments (code object v5): hsa_kernarg_fill_hidden(packet,
 * placement_queue, kernarg, size) with the placement kernel's object fills
 * those of its GPU part, for the queue that part runs on; a CPU part reads
 * the same kernarg bytes (tools/hsacc lays them out alike).
 *
 * Profiling: a dispatch's completion signal carries the time stamps of the
 * agent that ran it (hsa_amd_profiling_get_dispatch_time); a split
 * dispatch's are those of the barrier packet that ends it.
 * Limits: agent-dispatch packets are refused
 * (HSA_STATUS_ERROR_INVALID_PACKET_FORMAT): they name one agent's function.
 * The forwarding thread waits (at most 10 s, then the queue stops with
 * HSA_STATUS_ERROR_OUT_OF_RESOURCES) while an agent's queue is full.
 */
#ifndef HSA_EXT_PLACEMENT_H
#define HSA_EXT_PLACEMENT_H

#include "hsa.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Agent kinds, as bits of a mask. */
enum {
  HSA_EXT_PLACEMENT_KIND_CPU = 1u << 0,
  HSA_EXT_PLACEMENT_KIND_GPU = 1u << 1,
  HSA_EXT_PLACEMENT_KIND_ANY = HSA_EXT_PLACEMENT_KIND_CPU | HSA_EXT_PLACEMENT_KIND_GPU
};

/* The placement agent's HSA_AGENT_INFO_DEVICE (none of hsa_device_type_t). */
#define HSA_EXT_PLACEMENT_DEVICE_TYPE ((hsa_device_type_t)0x100)

/* The placement agent. HSA_STATUS_ERROR_NOT_INITIALIZED,
 * HSA_STATUS_ERROR_INVALID_ARGUMENT (agent NULL). */
hsa_status_t HSA_API hsa_ext_placement_agent(hsa_agent_t *agent);

/* Steering one kernel (a placement KERNEL_OBJECT): `kinds` the agent kinds
 * it may run on (one bit pins it, a missing bit forbids that kind;
 * HSA_EXT_PLACEMENT_KIND_ANY is the default), `latency_bound_ns` (0: none)
 * the longest it may run: an agent predicted slower is neither explored nor
 * chosen while another agent is predicted within the bound.
 * HSA_STATUS_ERROR_INVALID_ARGUMENT: not a placement kernel, or `kinds`
 * leaves no agent that has the kernel. */
hsa_status_t HSA_API hsa_ext_placement_kernel_set_policy(uint64_t kernel_object, uint32_t kinds,
                                                         uint64_t latency_bound_ns);

/* Steering one placement queue: its packets go to agents of `kinds` only
 * (with the kernel's own policy: both must allow an agent). A kernel that
 * then has no agent stops the queue with HSA_STATUS_ERROR_INVALID_ISA.
 * HSA_STATUS_ERROR_INVALID_QUEUE: not a placement queue;
 * HSA_STATUS_ERROR_INVALID_ARGUMENT: `kinds` names no kind. */
hsa_status_t HSA_API hsa_ext_placement_queue_set_kinds(hsa_queue_t *queue, uint32_t kinds);

/* Co-execution: one dispatch split between a GPU agent and the CPU agents.
 * The GPU runs a prefix of whole slices of the grid's slowest dimension
 * (z of a 3-D grid, y of 2-D, x of 1-D) as one dispatch; the CPU agents
 * take the other work-groups in chunks, each a share of what is left, until
 * none is; one completion signal (the packet's) for the whole. Work-group
 * ids, sizes and offsets are those of the whole grid on every agent, so the
 * results are those of one agent for kernels that follow OpenCL C's
 * semantics (work-groups independent of each other).
 * Which kernels can be split: those whose GPU part takes its sizes from
 * hidden kernel arguments (code object v5 and later) and does not read the
 * dispatch packet (its kernel descriptor leaves ENABLE_SGPR_DISPATCH_PTR
 * clear), with a CPU part. Never split: code object v4 GPU parts (they read
 * the grid from the packet, which holds the part's), kernels with one part
 * only, kernels that synchronise work-groups with each other (atomics
 * between groups assume nothing about which agent runs a group; global
 * atomics on the same memory are coherent on an APU, but ordering between
 * groups is not promised by OpenCL either). The program fills the hidden
 * arguments once with hsa_kernarg_fill_hidden(packet, placement_queue, ...):
 * for a placement kernel it fills the GPU part's.
 * Modes: AUTO (the default): split when every agent that may run it was
 * measured at this size, all are idle, and together they are predicted to
 * finish a fifth sooner than the best alone; the GPU's share from their
 * predicted rates; a size class where a split took longer than the best
 * agent alone was predicted to is not split again (until a reset). NEVER. ALWAYS: every dispatch of 2 slices or more (the
 * share from the rates, or half while nothing is measured); refused
 * (HSA_STATUS_ERROR_INVALID_ARGUMENT) for a kernel that cannot be split. */
enum {
  HSA_EXT_PLACEMENT_SPLIT_AUTO = 0,
  HSA_EXT_PLACEMENT_SPLIT_NEVER = 1,
  HSA_EXT_PLACEMENT_SPLIT_ALWAYS = 2
};
hsa_status_t HSA_API hsa_ext_placement_kernel_set_split(uint64_t kernel_object, uint32_t mode);

/* Forgets what was measured for one kernel (kernel_object 0: all). */
hsa_status_t HSA_API hsa_ext_placement_reset(uint64_t kernel_object);

/* What the runtime learnt about a kernel on one agent. */
typedef struct hsa_ext_placement_agent_stats_s {
  hsa_agent_t agent;         /* a real agent */
  uint64_t dispatches;       /* sent there */
  uint64_t measured;         /* of which measured */
  uint64_t explored;         /* of which sent to explore */
  uint64_t total_ns;         /* sum of the measured times */
  uint64_t total_items;      /* sum of the measured work-items */
  uint64_t split_dispatches; /* split dispatches this agent took part in */
  uint64_t split_groups;     /* work-groups it ran of them */
} hsa_ext_placement_agent_stats_t;

/* Per-agent statistics of a kernel: fills up to `capacity` entries (one per
 * agent that has the kernel, in hsa_iterate_agents order) and sets *count
 * to their number. HSA_STATUS_ERROR_INVALID_ARGUMENT: not a placement
 * kernel, or count NULL, or stats NULL with a capacity. */
hsa_status_t HSA_API hsa_ext_placement_kernel_stats(uint64_t kernel_object,
                                                    hsa_ext_placement_agent_stats_t *stats,
                                                    uint32_t capacity, uint32_t *count);

#ifdef __cplusplus
}
#endif

#endif
