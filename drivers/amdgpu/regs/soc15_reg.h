/*
 * soc15_reg.h - a register as SOC15 chips address it: the IP block, the
 * segment of that block's bases (Linux's BASE_IDX, the index into
 * adev->reg_offset[ip][inst]) and the dword offset in the segment, as
 * Linux's SOC15_REG_OFFSET(ip, inst, reg) combines them. The register
 * headers define each register the driver reads or writes as one such
 * constant (REG_<name>), so an access names the register alone and
 * cannot pair its offset with another segment; fields are composed and
 * taken apart through their own shift and mask (Linux REG_SET_FIELD /
 * REG_GET_FIELD).
 */
#ifndef DRIVERS_AMDGPU_REGS_SOC15_REG_H
#define DRIVERS_AMDGPU_REGS_SOC15_REG_H

#include <stdint.h>

/* The blocks before IP_COUNT have their bases in the device's IP table
 * (the fixed table or discovery); PWR and SMUIO, of which the driver reads
 * one status register each, have none: their registers are fixed
 * constants (SOC15_REG_FIXED). */
enum amdgpu_ip {
  IP_GC,
  IP_MMHUB,
  IP_NBIO,
  IP_HDP,
  IP_OSSSYS,
  IP_MP0,
  IP_MP1,
  IP_SDMA0,
  IP_COUNT,
  IP_PWR = IP_COUNT,
  IP_SMUIO,
  IP_NAMED_COUNT,
};

struct amdgpu_reg {
  enum amdgpu_ip ip;
  uint8_t seg;     /* BASE_IDX */
  uint32_t offset; /* dword offset in the segment */
};
#define SOC15_REG(ip_, seg_, offset_) ((struct amdgpu_reg){.ip = (ip_), .seg = (seg_), .offset = (offset_)})

/* A register read before the IP bases are known (the revision strap, the
 * IP discovery table's reads, as Linux amdgpu_discovery.c does them), or
 * one of a block without bases here (PWR, SMUIO: each read on the chips
 * whose segment base its header names), is at a fixed dword index: its
 * segment's base plus its offset. Such a constant has seg
 * SOC15_SEG_FIXED and the whole index as its offset. */
#define SOC15_SEG_FIXED 0xff
#define SOC15_REG_FIXED(ip_, base_, offset_)                                                     \
  ((struct amdgpu_reg){.ip = (ip_), .seg = SOC15_SEG_FIXED, .offset = (base_) + (offset_)})

/* The n-th register of an array that starts at r (one per pipe, VMID,
 * engine, ...: the header says the stride). */
static inline struct amdgpu_reg reg_at(struct amdgpu_reg r, uint32_t n) {
  r.offset += n;
  return r;
}

/* Field FIELD (FIELD_SHIFT and FIELD_MASK defined) holding v, and the
 * value of field FIELD in a register value. */
#define REG_FIELD(field, v) ((((uint32_t)(v)) << field##_SHIFT) & field##_MASK)
#define REG_GET_FIELD(value, field) ((((uint32_t)(value)) & field##_MASK) >> field##_SHIFT)

#endif
