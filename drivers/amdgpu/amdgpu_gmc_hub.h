/* amdgpu_gmc_hub.h - the VM block's registers that both hubs have: the GFX
 * hub in GC and the MM hub in MMHUB (regs/gc_9_1.h, regs/mmhub_9_1.h; the
 * same names after the IP's prefix, as Linux gfxhub_v1_0.c and
 * mmhub_v1_0.c program them). One list, from which the GMC's table of
 * each hub's registers (amdgpu_gmc.c) and the trace's names for them
 * (amdgpu_trace.c) are made.
 *
 * GMC_HUB_REGISTERS(X, P) expands X(P, field, NAME, count) once per
 * register: REG_<P>_<NAME> is its constant, `field` its name in the GMC's
 * table, `count` how many registers its array holds (one per VM context,
 * lo/hi pair or invalidation engine; the first is named), 1 for one. */
#ifndef DRIVERS_AMDGPU_AMDGPU_GMC_HUB_H
#define DRIVERS_AMDGPU_AMDGPU_GMC_HUB_H

#define GMC_HUB_REGISTERS(X, P)                                                                \
  X(P, fb_location_base, MC_VM_FB_LOCATION_BASE, 1)                                            \
  X(P, fb_location_top, MC_VM_FB_LOCATION_TOP, 1)                                              \
  X(P, fb_offset, MC_VM_FB_OFFSET, 1)                                                          \
  X(P, agp_base, MC_VM_AGP_BASE, 1)                                                            \
  X(P, agp_bot, MC_VM_AGP_BOT, 1)                                                              \
  X(P, agp_top, MC_VM_AGP_TOP, 1)                                                              \
  X(P, sys_low, MC_VM_SYSTEM_APERTURE_LOW_ADDR, 1)                                             \
  X(P, sys_high, MC_VM_SYSTEM_APERTURE_HIGH_ADDR, 1)                                           \
  X(P, sys_default_lsb, MC_VM_SYSTEM_APERTURE_DEFAULT_ADDR_LSB, 1)                             \
  X(P, sys_default_msb, MC_VM_SYSTEM_APERTURE_DEFAULT_ADDR_MSB, 1)                             \
  X(P, l1_tlb_cntl, MC_VM_MX_L1_TLB_CNTL, 1)                                                   \
  X(P, l2_cntl, VM_L2_CNTL, 1)                                                                 \
  X(P, l2_cntl2, VM_L2_CNTL2, 1)                                                               \
  X(P, l2_cntl3, VM_L2_CNTL3, 1)                                                               \
  X(P, l2_cntl4, VM_L2_CNTL4, 1)                                                               \
  X(P, fault_cntl, VM_L2_PROTECTION_FAULT_CNTL, 1)                                             \
  X(P, fault_cntl2, VM_L2_PROTECTION_FAULT_CNTL2, 1)                                           \
  X(P, fault_status, VM_L2_PROTECTION_FAULT_STATUS, 1)                                         \
  X(P, fault_addr_lo, VM_L2_PROTECTION_FAULT_ADDR_LO32, 1)                                     \
  X(P, fault_addr_hi, VM_L2_PROTECTION_FAULT_ADDR_HI32, 1)                                     \
  X(P, fault_default_lo, VM_L2_PROTECTION_FAULT_DEFAULT_ADDR_LO32, 1)                          \
  X(P, fault_default_hi, VM_L2_PROTECTION_FAULT_DEFAULT_ADDR_HI32, 1)                          \
  X(P, identity_low_lo, VM_L2_CONTEXT1_IDENTITY_APERTURE_LOW_ADDR_LO32, 1)                     \
  X(P, identity_low_hi, VM_L2_CONTEXT1_IDENTITY_APERTURE_LOW_ADDR_HI32, 1)                     \
  X(P, identity_high_lo, VM_L2_CONTEXT1_IDENTITY_APERTURE_HIGH_ADDR_LO32, 1)                   \
  X(P, identity_high_hi, VM_L2_CONTEXT1_IDENTITY_APERTURE_HIGH_ADDR_HI32, 1)                   \
  X(P, identity_offset_lo, VM_L2_CONTEXT_IDENTITY_PHYSICAL_OFFSET_LO32, 1)                     \
  X(P, identity_offset_hi, VM_L2_CONTEXT_IDENTITY_PHYSICAL_OFFSET_HI32, 1)                     \
  X(P, ctx0_cntl, VM_CONTEXT0_CNTL, 16)                                                        \
  X(P, ctx0_pt_base_lo, VM_CONTEXT0_PAGE_TABLE_BASE_ADDR_LO32, 32)                             \
  X(P, ctx0_pt_start_lo, VM_CONTEXT0_PAGE_TABLE_START_ADDR_LO32, 32)                           \
  X(P, ctx0_pt_end_lo, VM_CONTEXT0_PAGE_TABLE_END_ADDR_LO32, 32)                               \
  X(P, inv_sem0, VM_INVALIDATE_ENG0_SEM, 18)                                                   \
  X(P, inv_req0, VM_INVALIDATE_ENG0_REQ, 18)                                                   \
  X(P, inv_ack0, VM_INVALIDATE_ENG0_ACK, 18)                                                   \
  X(P, inv_range0_lo, VM_INVALIDATE_ENG0_ADDR_RANGE_LO32, 36)

#endif
