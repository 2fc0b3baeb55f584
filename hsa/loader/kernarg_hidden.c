/* kernarg_hidden.c - hsa_kernarg_fill_hidden (hsa/include/hsa/
 * hsa_kernarg_hidden.h): the dispatch packet and the queue turned into a
 * struct loader_dispatch, for the kernel the packet's kernel object names.
 * Packet fields: HSA Platform System Architecture Specification 1.2, 2.9.6
 * "Kernel dispatch packet"; queue fields: amd_hsa_queue.h. */
#include <hsa/amd_hsa_queue.h>
#include <hsa/hsa_kernarg_hidden.h>

#include "hsa/cl_program.h"
#include "hsa/loader/hidden_args.h"
#include "hsa/loader/loaded_code_object.h"
#include "hsa/placement.h"
#include "hsa/runtime.h"
#include "lib/plat.h"

#define LOG_TAG "loader"

struct fill {
  const hsa_kernel_dispatch_packet_t *packet;
  const hsa_queue_t *queue;
  void *kernarg;
  size_t kernarg_size;
  hsa_status_t status;
};

static void fill_for_kernel(const struct loader_symbol *kernel, void *ctx) {
  struct fill *f = ctx;
  const hsa_kernel_dispatch_packet_t *p = f->packet;
  const struct loader_kernel_meta *k = kernel->meta;
  f->status = HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (p->group_segment_size < k->group_segment_fixed_size) {
    log_error("%s: packet group_segment_size %u is below the kernel's fixed %u bytes", k->name,
              p->group_segment_size, k->group_segment_fixed_size);
    return;
  }
  struct loader_dispatch d = {
      .dims = (p->setup >> HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS) &
              ((1u << HSA_KERNEL_DISPATCH_PACKET_SETUP_WIDTH_DIMENSIONS) - 1),
      .workgroup_size = {p->workgroup_size_x, p->workgroup_size_y, p->workgroup_size_z},
      .grid_size = {p->grid_size_x, p->grid_size_y, p->grid_size_z},
      .dynamic_lds_size = p->group_segment_size - k->group_segment_fixed_size,
  };
  if (f->queue) {
    /* hsa_queue_t is the first member of amd_queue_t (amd_hsa_queue.h). */
    const amd_queue_t *q = (const amd_queue_t *)f->queue;
    d.queue_ptr = (uint64_t)(uintptr_t)q;
    d.private_base = q->private_segment_aperture_base_hi;
    d.shared_base = q->group_segment_aperture_base_hi;
  }
  if (loader_fill_hidden_args(k, &d, f->kernarg, f->kernarg_size, NULL, 0) == LOADER_OK)
    f->status = HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_kernarg_fill_hidden(const hsa_kernel_dispatch_packet_t *packet,
                                     const hsa_queue_t *queue, void *kernarg, size_t kernarg_size) {
  RETURN_IF_NOT_INITIALIZED();
  if (!packet || !kernarg) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  /* A placement kernel (hsa_ext_placement.h): its GPU part's arguments,
   * for the queue that part would run on. */
  hsa_kernel_dispatch_packet_t part;
  const hsa_queue_t *part_queue;
  if (placement_hidden_target(packet->kernel_object, queue, &part.kernel_object, &part_queue)) {
    uint64_t object = part.kernel_object;
    part = *packet;
    part.kernel_object = object;
    packet = &part;
    queue = part_queue;
  }
  struct fill f = {packet, queue, kernarg, kernarg_size, HSA_STATUS_ERROR_INVALID_ARGUMENT};
  /* An OpenCL C kernel loaded for a CPU agent: the same call, so that a
   * program's dispatch code is the same for both kinds of agent. */
  const hsa_cpu_kernel_descriptor_t *cpu = cl_kernel_from_object(packet->kernel_object);
  if (cpu) return cl_kernel_fill_hidden(cpu, kernarg, kernarg_size);
  if (!loaded_kernel_with(packet->kernel_object, fill_for_kernel, &f)) {
    log_error("hsa_kernarg_fill_hidden: kernel object 0x%llx is no kernel of a loaded code object",
              (unsigned long long)packet->kernel_object);
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return f.status;
}
