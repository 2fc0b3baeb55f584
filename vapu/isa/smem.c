/*
 * smem.c - scalar memory (SMEM): loads and stores of 1-16 dwords through the
 * scalar data cache, buffer loads through a V#, cache controls and the
 * clock reads (Vega ISA ch. 7 "Scalar Memory Operations", 12.4 SMEM).
 *
 * Address = SGPR pair base + offset (21-bit signed immediate, or an SGPR's
 * value) + optional SOFFSET SGPR; the two low bits are ignored (SMEM is
 * dword aligned). s_buffer_*: V# base, and bytes past NUM_RECORDS read as 0.
 */
#include "vapu/isa/wave.h"

#define LOG_TAG "vapu-isa"
#include "lib/plat.h"

static uint64_t smem_offset(struct wave *w, const struct inst *in) {
  int64_t off = in->smem_imm ? in->offset : (int64_t)(uint32_t)scalar_src32(w, in->soffset, 0);
  if (in->smem_imm && in->soffset != 0xffff) off += scalar_src32(w, in->soffset, 0);
  return (uint64_t)off;
}

/* Number of dwords of each load/store, from the opcode's low bits. */
static unsigned smem_dwords(unsigned op) { return 1u << (op & 7); }

static void s_load(struct wave *w, const struct inst *in) {
  unsigned n = smem_dwords(in->opcode);
  uint64_t va = (sreg64(w, in->ssrc[0]) + smem_offset(w, in)) & ~3ull, fault;
  uint32_t buf[16];
  if (!mem_read(w->x, va, buf, 4 * n, &fault)) {
    wave_fault(w, in, VAPU_MEMORY_FAULT, fault, VAPU_ACCESS_READ);
    return;
  }
  for (unsigned i = 0; i < n; i++) write_sdst(w, in->sdst + i, buf[i]);
}

static void s_store(struct wave *w, const struct inst *in) {
  unsigned n = smem_dwords(in->opcode);
  uint64_t va = (sreg64(w, in->ssrc[0]) + smem_offset(w, in)) & ~3ull, fault;
  uint32_t buf[4];
  for (unsigned i = 0; i < n; i++) buf[i] = scalar_src32(w, in->sdst + i, 0);
  if (!mem_write(w->x, va, buf, 4 * n, &fault))
    wave_fault(w, in, VAPU_MEMORY_FAULT, fault, VAPU_ACCESS_WRITE);
}

/* V# (Vega ISA 8.1.5 "Buffer resource"): base [47:0], stride [61:48],
 * NUM_RECORDS dword 2. */
static void s_buffer_load(struct wave *w, const struct inst *in) {
  unsigned n = smem_dwords(in->opcode);
  unsigned r = in->ssrc[0];
  uint64_t base = w->s[r] | (uint64_t)(w->s[r + 1] & 0xffff) << 32;
  uint32_t records = w->s[r + 2];
  uint64_t off = smem_offset(w, in) & 0xfffffffcull, fault;
  uint32_t buf[16];
  for (unsigned i = 0; i < n; i++) {
    uint64_t o = off + 4 * i;
    buf[i] = 0;
    if (o + 4 > records) continue; /* out of range: 0 */
    if (!mem_read(w->x, base + o, &buf[i], 4, &fault)) {
      wave_fault(w, in, VAPU_MEMORY_FAULT, fault, VAPU_ACCESS_READ);
      return;
    }
  }
  for (unsigned i = 0; i < n; i++) write_sdst(w, in->sdst + i, buf[i]);
}

static void s_cache_nop(struct wave *w, const struct inst *in) {}

/* s_memtime: a 64-bit free-running shader clock; s_memrealtime: the
 * constant 100 MHz "REFCLK" (AMDGPUUsage: s_memrealtime is 100 MHz on gfx9). */
static void s_memtime(struct wave *w, const struct inst *in) {
  write_sdst64(w, in->sdst, plat_now_ns());
}
static void s_memrealtime(struct wave *w, const struct inst *in) {
  write_sdst64(w, in->sdst, plat_now_ns() / 10);
}

#define OP(code, name, fn) {name, fn, T_NONE, {T_NONE, T_NONE, T_NONE}, 0, code}
static const struct opinfo optab_smem_entries[] = {
    OP(0x00, "s_load_dword", s_load),
    OP(0x01, "s_load_dwordx2", s_load),
    OP(0x02, "s_load_dwordx4", s_load),
    OP(0x03, "s_load_dwordx8", s_load),
    OP(0x04, "s_load_dwordx16", s_load),
    OP(0x08, "s_buffer_load_dword", s_buffer_load),
    OP(0x09, "s_buffer_load_dwordx2", s_buffer_load),
    OP(0x0a, "s_buffer_load_dwordx4", s_buffer_load),
    OP(0x0b, "s_buffer_load_dwordx8", s_buffer_load),
    OP(0x0c, "s_buffer_load_dwordx16", s_buffer_load),
    OP(0x10, "s_store_dword", s_store),
    OP(0x11, "s_store_dwordx2", s_store),
    OP(0x12, "s_store_dwordx4", s_store),
    OP(0x20, "s_dcache_inv", s_cache_nop),
    OP(0x21, "s_dcache_wb", s_cache_nop),
    OP(0x22, "s_dcache_inv_vol", s_cache_nop),
    OP(0x23, "s_dcache_wb_vol", s_cache_nop),
    OP(0x24, "s_memtime", s_memtime),
    OP(0x25, "s_memrealtime", s_memrealtime),
    OP(0x26, "s_atc_probe", s_cache_nop),
    OP(0x27, "s_atc_probe_buffer", s_cache_nop),
    OP(0x28, "s_dcache_discard", s_cache_nop),
    OP(0x29, "s_dcache_discard_x2", s_cache_nop),
};
const struct optable optab_smem = OPTABLE(optab_smem_entries);
