/*
 * wave.c - running one wave: the fetch/decode/execute loop, scalar operand
 * values, VGPR indexing mode, and stopping a wave with an error.
 */
#include <stdarg.h>
#include <stdio.h>

#include "vapu/isa/wave.h"

#define LOG_TAG "vapu-isa"
#include "lib/plat.h"

uint64_t literal_for_type(uint32_t lit, enum optype t) {
  switch (t) {
  case T_F64: return (uint64_t)lit << 32; /* the high dword of a double */
  case T_I64: return (uint64_t)(int64_t)(int32_t)lit;
  default: return lit; /* 64-bit unsigned/bit operands: zero-extended */
  }
}

/* Aperture registers (Vega ISA 12.x: SRC_SHARED_BASE/LIMIT,
 * SRC_PRIVATE_BASE/LIMIT): 64-bit values; as 32-bit operands their low
 * dword (LLVM reads them with s_mov_b64 for that reason). */
static uint64_t aperture_value(const struct wave *w, unsigned code) {
  const struct vapu_apertures *ap = &w->x->ds.d.apertures;
  switch (code) {
  case SRC_SHARED_BASE: return ap->shared_base;
  case SRC_SHARED_LIMIT: return ap->shared_base | 0x0000ffffffffffffull;
  case SRC_PRIVATE_BASE: return ap->private_base;
  case SRC_PRIVATE_LIMIT: return ap->private_base | 0x0000ffffffffffffull;
  default: return 0; /* POPS_EXITING_WAVE_ID: no POPS in compute */
  }
}

uint32_t scalar_src32(const struct wave *w, unsigned code, uint32_t literal) {
  if (code < 128) return w->s[code];
  if (code <= 208 || (code >= 240 && code <= 248)) return (uint32_t)inline_constant(code, T_B32);
  switch (code) {
  case SRC_VCCZ: return vcc_mask(w) == 0;
  case SRC_EXECZ: return exec_mask(w) == 0;
  case SRC_SCC: return w->scc;
  case SRC_LITERAL: return literal;
  default: return (uint32_t)aperture_value(w, code);
  }
}

uint64_t scalar_src64(const struct wave *w, unsigned code, uint32_t literal, enum optype t) {
  if (code < 127) return sreg64(w, code);
  if (code == 127) return w->s[127];
  if (code <= 208 || (code >= 240 && code <= 248)) return inline_constant(code, t);
  switch (code) {
  case SRC_VCCZ: return vcc_mask(w) == 0;
  case SRC_EXECZ: return exec_mask(w) == 0;
  case SRC_SCC: return w->scc;
  case SRC_LITERAL: return literal_for_type(literal, t);
  default: return aperture_value(w, code);
  }
}

static void record_stop(struct wave *w, const struct inst *in, enum vapu_result r) {
  struct vapu_exec *x = w->x;
  w->state = WAVE_STOPPED;
  if (x->stopped) return; /* the first error of the work-group is the one reported */
  x->stopped = true;
  struct vapu_stop *s = &x->stop;
  memset(s, 0, sizeof *s);
  s->result = r;
  memcpy(s->workgroup, x->wg_id, sizeof s->workgroup);
  s->wave = w->index;
  s->pc = in->pc;
  s->nwords = in->size ? in->size / 4u : 1;
  memcpy(s->words, in->words, sizeof s->words);
}

void wave_stop(struct wave *w, const struct inst *in, enum vapu_result r, const char *fmt, ...) {
  bool first = !w->x->stopped;
  record_stop(w, in, r);
  if (!first) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(w->x->stop.detail, sizeof w->x->stop.detail, fmt, ap);
  va_end(ap);
}

void wave_fault(struct wave *w, const struct inst *in, enum vapu_result r, uint64_t address,
                uint32_t access) {
  bool first = !w->x->stopped;
  record_stop(w, in, r);
  if (!first) return;
  struct vapu_stop *s = &w->x->stop;
  s->address = address;
  s->access = access;
  snprintf(s->detail, sizeof s->detail, "%s %s 0x%llx by the instruction at 0x%llx",
           r == VAPU_APERTURE_VIOLATION ? "aperture violation:" : "memory fault:",
           access & VAPU_ACCESS_EXEC ? "fetch from"
           : (access & VAPU_ACCESS_WRITE) && (access & VAPU_ACCESS_READ) ? "atomic on"
           : access & VAPU_ACCESS_WRITE ? "write to" : "read of",
           (unsigned long long)address, (unsigned long long)in->pc);
}

static bool is_vector_alu(const struct inst *in) {
  return in->enc == ENC_VOP1 || in->enc == ENC_VOP2 || in->enc == ENC_VOPC ||
         in->enc == ENC_VOP3 || in->enc == ENC_VOP3P;
}

/* VGPR indexing (s_set_gpr_idx_on): the VGPR numbers of the operands enabled
 * in M0[15:12] (SRC0, SRC1, SRC2, DST) move by M0[7:0]. */
static void exec_indexed(struct wave *w, const struct inst *in) {
  uint32_t m0 = w->s[SREG_M0];
  unsigned idx = m0 & 0xff, enable = (m0 >> 12) & 0xf;
  struct inst moved = *in;
  for (unsigned i = 0; i < 3; i++) {
    if (!((enable >> i) & 1) || moved.src[i].kind != SRC_KIND_VGPR) continue;
    moved.src[i].index = (uint16_t)(moved.src[i].index + idx);
    if (moved.src[i].index >= NUM_VGPRS) goto out_of_range;
  }
  if ((enable >> 3) & 1) {
    moved.vdst = (uint16_t)(moved.vdst + idx);
    if (moved.vdst >= NUM_VGPRS) goto out_of_range;
  }
  in->fn(w, &moved);
  return;
out_of_range:
  wave_stop(w, in, VAPU_ILLEGAL_INSTRUCTION, "illegal instruction: VGPR index %u (M0) past v255 at 0x%llx", idx,
            (unsigned long long)in->pc);
}

/* loglevel=trace: each instruction with the first active lane's result
 * (its VGPR destination, or SCC and the first SGPR destination). */
static void trace(struct wave *w, const struct inst *in) {
  char m[48];
  inst_mnemonic(in, m, sizeof m);
  uint64_t e = exec_mask(w);
  unsigned l = e ? (unsigned)__builtin_ctzll(e) : 0;
  bool valu = in->enc >= ENC_VOP2 && in->enc <= ENC_VOP3P && !(in->op->flags & OPF_SDST_SGPR) &&
              in->opcode >= 0x100;
  log_trace("w%u pc %llx %-24s exec %016llx %s%u=%08x%s scc %u", w->index, (unsigned long long)in->pc, m,
            (unsigned long long)e, valu ? "v" : "s", valu ? in->vdst : in->sdst,
            valu ? w->v[in->vdst][l] : (in->sdst < 128 ? w->s[in->sdst] : 0),
            valu && optype_is64((enum optype)in->op->dst) ? "+" : "", w->scc);
}

void wave_run(struct wave *w, unsigned budget) {
  struct vapu_exec *x = w->x;
  uint64_t insts = 0, lanes = 0;
  while (budget--) {
    /* The decoded-instruction cache hit inline; a miss decodes (decode.c). */
    const struct inst *in = &x->icache[(w->pc >> 2) & (ICACHE_ENTRIES - 1)];
    if (in->pc != w->pc || in->epoch != x->icache_epoch || !in->fn) in = fetch_decode(w);
    if (!in) break;
    w->pc += in->size;
    insts++;
    if (in->enc >= ENC_VOP2 && in->enc <= ENC_VOP3P) {
      lanes += lane_count(exec_mask(w));
      if (__builtin_expect((w->mode & MODE_GPR_IDX_EN) != 0, 0) && is_vector_alu(in)) {
        exec_indexed(w, in);
        goto next;
      }
    }
    in->fn(w, in);
  next:
    if (__builtin_expect(x->trace, 0)) trace(w, in);
    if (w->state != WAVE_RUNNING || w->sleep) break;
  }
  x->stats.instructions += insts;
  x->stats.lane_instructions += lanes;
}
