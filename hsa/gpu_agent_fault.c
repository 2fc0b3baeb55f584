/*
 * gpu_agent_fault.c - GPU memory faults as ROCr's system event
 * HSA_AMD_GPU_MEMORY_FAULT_EVENT.
 *
 * On Linux, KFD turns a VM fault of a process's VMID into a memory
 * exception (Linux amdkfd kfd_int_process_v9.c event_interrupt_wq_v9,
 * kfd_events.c kfd_signal_vm_fault_event: the faulting page's address,
 * NotPresent and ReadOnly from the fault's protection bits, not imprecise)
 * and an IOMMU fault into another (kfd_signal_iommu_event: NotPresent for
 * a page nothing maps); ROCr's VMFaultHandler (runtime.cpp) hands it to
 * every system event handler with the agent, the address and
 * HSA_AMD_MEMORY_FAULT_* bits. Here the driver's fault handler (interrupt
 * context) sees the fault: it is translated the same way and posted for
 * the runtime's async worker to deliver (system_event.c). The fault also
 * stops the queues of the VMID (the driver), whose error callbacks run
 * as before.
 *
 * The reasons, from VM_L2_PROTECTION_FAULT_STATUS: PAGE_NOT_PRESENT when
 * no valid translation exists (invalid PTE, invalid PDE: WALKER_ERROR,
 * outside the VM's range: MAPPING_ERROR), READ_ONLY for a write the PTE
 * does not allow, NX for an instruction fetch it does not allow (KFD
 * reports this from gfx10 on, kfd_int_process_v10.c prot_exec). KFD never
 * reports GpuAccess, ECC or a hang for a VM fault, so HOST_ONLY, the ECC
 * bits and HANG stay clear, as ROCr leaves them.
 */
#include "hsa/gpu_agent.h"
#include "hsa/runtime.h"

static bool compute_vmid(uint32_t vmid) {
  return vmid >= AMDGPU_COMPUTE_VMID_FIRST &&
         vmid < AMDGPU_COMPUTE_VMID_FIRST + AMDGPU_COMPUTE_VMID_COUNT;
}

bool gpu_fault_memory_event(hsa_agent_t agent, const struct amdgpu_fault *f,
                            hsa_amd_event_t *event) {
  uint32_t reasons = 0;
  if (f->kind == AMDGPU_FAULT_VM) {
    if (!compute_vmid(f->vm.vmid)) return false; /* the driver's own address space */
    if ((f->vm.permission_faults & AMDGPU_VM_DENIED_INVALID) || f->vm.walker_error ||
        f->vm.mapping_error)
      reasons |= HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT;
    if (f->vm.permission_faults & AMDGPU_VM_DENIED_WRITE) reasons |= HSA_AMD_MEMORY_FAULT_READ_ONLY;
    if (f->vm.permission_faults & AMDGPU_VM_DENIED_EXECUTE) reasons |= HSA_AMD_MEMORY_FAULT_NX;
  } else if (f->kind == AMDGPU_FAULT_DMA) {
    reasons = HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT; /* the GPU's I/O page tables do not map it */
  } else {
    return false; /* not a memory fault: the queue's error says what */
  }
  *event = (hsa_amd_event_t){.event_type = HSA_AMD_GPU_MEMORY_FAULT_EVENT};
  event->memory_fault.agent = agent;
  event->memory_fault.virtual_address = f->vm.address;
  event->memory_fault.fault_reason_mask = reasons;
  return true;
}

void gpu_agent_on_fault(void *ctx, const struct amdgpu_fault *f) {
  struct gpu_agent *ga = ctx;
  hsa_amd_event_t event;
  if (gpu_fault_memory_event(agent_handle(&ga->agent), f, &event))
    runtime_post_system_event(&event);
}
