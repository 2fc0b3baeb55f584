/*
 * wave.h - the interpreter's inside: a wave's registers, the decoded form of
 * an instruction, and the context that runs a work-group. Private to
 * vapu/isa/; the CP sees dispatch.h only.
 *
 * Register facts (AMD "Vega Instruction Set Architecture" reference guide,
 * ch. 3 "Kernel State" and 12.x "Scalar/vector operand encodings"; LLVM
 * SIRegisterInfo.td for the gfx9 operand numbers):
 *   0-101  SGPRs            102-103 FLAT_SCRATCH      104-105 XNACK_MASK
 *   106-107 VCC             108-123 TTMP0-15          124 M0
 *   126-127 EXEC            128-208 integer constants 0..64, -1..-16
 *   235-238 SHARED/PRIVATE BASE/LIMIT  240-248 float constants
 *   251 VCCZ  252 EXECZ  253 SCC  255 literal  256-511 VGPRs
 * The scalar file below is indexed by that operand number, so a scalar
 * operand 0..127 reads one array element.
 */
#ifndef VAPU_ISA_WAVE_H
#define VAPU_ISA_WAVE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "vapu/isa/dispatch.h"
#include "vapu/isa/mem.h"

#define WAVE_LANES 64
#define WAVE_MAX_PER_GROUP 16 /* 1024 work-items / 64 (AMDGPUUsage: max flat work-group size) */
#define NUM_VGPRS 256
#define LDS_BYTES_MAX 65536   /* gfx9: 64 KiB LDS per work-group */

/* Scalar operand numbers (see above). */
enum {
  SREG_FLAT_SCRATCH_LO = 102,
  SREG_FLAT_SCRATCH_HI = 103,
  SREG_XNACK_MASK_LO = 104,
  SREG_VCC_LO = 106,
  SREG_VCC_HI = 107,
  SREG_TTMP0 = 108,
  SREG_M0 = 124,
  SREG_EXEC_LO = 126,
  SREG_EXEC_HI = 127,
  SRC_SHARED_BASE = 235,
  SRC_SHARED_LIMIT = 236,
  SRC_PRIVATE_BASE = 237,
  SRC_PRIVATE_LIMIT = 238,
  SRC_POPS_EXITING_WAVE_ID = 239,
  SRC_SDWA = 249,
  SRC_DPP = 250,
  SRC_VCCZ = 251,
  SRC_EXECZ = 252,
  SRC_SCC = 253,
  SRC_LDS_DIRECT = 254,
  SRC_LITERAL = 255,
  SRC_VGPR0 = 256,
};

/* Operand types: how an inline constant or literal is formed, which input
 * modifiers mean what, and how wide the register is. */
enum optype {
  T_NONE = 0,
  T_B32,  /* 32-bit integer/bits */
  T_F32,
  T_B64,  /* 64-bit unsigned/bits: 32-bit literal zero-extended */
  T_I64,  /* 64-bit signed: 32-bit literal sign-extended */
  T_F64,  /* 32-bit literal is the high dword */
  T_B16,  /* 16-bit integer in a 32-bit register */
  T_F16,
  T_PK16, /* two 16-bit integers (VOP3P) */
  T_PKF16, /* two halves (VOP3P) */
  T_MASK  /* a 64-bit lane mask in an SGPR pair (carry in, cndmask select) */
};

static inline int optype_is64(enum optype t) {
  return t == T_B64 || t == T_I64 || t == T_F64 || t == T_MASK;
}

/* Instruction encodings (Vega ISA ch. 12 "Microcode Formats"). */
enum encoding {
  ENC_SOP2, ENC_SOPK, ENC_SOP1, ENC_SOPC, ENC_SOPP, ENC_SMEM,
  ENC_VOP2, ENC_VOP1, ENC_VOPC, ENC_VOP3, ENC_VOP3P, ENC_DS, ENC_FLAT, ENC_MUBUF,
  ENC_COUNT
};

/* Where a decoded VALU source comes from. */
enum src_kind {
  SRC_KIND_VGPR,  /* index = VGPR number */
  SRC_KIND_SGPR,  /* index = scalar operand number 0..127, read at run time */
  SRC_KIND_CONST, /* value = inline constant or literal, formed for its type */
  SRC_KIND_LIVE,  /* SCC, VCCZ, EXECZ, apertures: computed at run time */
};

struct src {
  uint8_t kind;
  uint8_t plain;  /* a VGPR read as it is: no DPP, SDWA, op_sel half nor abs/neg */
  uint16_t index; /* VGPR number, scalar operand number, or LIVE operand code */
  uint64_t value; /* SRC_KIND_CONST */
};

struct wave;
struct inst;
typedef void (*exec_fn)(struct wave *w, const struct inst *in);

/* Per-opcode facts, from the tables next to the code (salu.c, ...). */
struct opinfo {
  const char *name;   /* LLVM mnemonic without encoding suffix */
  exec_fn fn;
  uint8_t dst, src[3]; /* enum optype of destination and sources */
  uint16_t flags;     /* OPF_* */
  uint16_t opcode;    /* in its encoding (VALU: the VOP3 opcode) */
};

/* An encoding's opcodes: only those the interpreter has (indexed by opcode,
 * a table would be mostly empty entries, in the boot image too). Looked up
 * when an instruction is decoded, which the instruction cache makes once
 * per address. */
struct optable {
  const struct opinfo *ops;
  unsigned count;
};
#define OPTABLE(entries) {(entries), sizeof(entries) / sizeof((entries)[0])}
/* The entry of `opcode`, or NULL. */
const struct opinfo *optable_find(const struct optable *t, unsigned opcode);

enum opinfo_flags {
  OPF_VOP3_ONLY = 1u << 0,   /* exists only in VOP3 encoding */
  OPF_SDST = 1u << 1,        /* VOP3B: writes an SGPR pair (carry out / VCC) */
  OPF_READS_VCC = 1u << 2,   /* e32 form reads VCC as carry in / mask */
  OPF_OPSEL_PRESERVE = 1u << 3, /* 16-bit result keeps the other half (gfx9 op_sel insts) */
  OPF_ZERO_HI16 = 1u << 4,   /* 16-bit result zeroes bits 31:16 (gfx9 legacy 16-bit ops) */
  OPF_CMPX = 1u << 5,        /* VOPC: also writes EXEC */
  OPF_FLOAT = 1u << 6,       /* sources take abs/neg, result takes omod/clamp as floats */
  OPF_NO_DST = 1u << 7,      /* writes no VGPR (v_nop, v_readfirstlane writes SGPR) */
  OPF_SDST_SGPR = 1u << 8,   /* destination is an SGPR (readlane, readfirstlane) */
  OPF_KIMM = 1u << 9,        /* VOP2 madmk/madak: a literal constant follows */
  OPF_SCALAR_SIMM = 1u << 10, /* SOPK: immediate is sign-extended (signed compare/add) */
};

/* A decoded instruction: fields of every encoding in one record so the
 * decoder runs once per instruction address (the instruction cache). */
struct inst {
  uint64_t pc;            /* cache tag, valid in the cache's epoch only */
  uint32_t epoch;
  exec_fn fn;
  const struct opinfo *op;
  uint8_t enc;            /* enum encoding */
  uint8_t size;           /* bytes: 4, 8 or 12 */
  uint16_t opcode;        /* opcode in its encoding (VALU: the VOP3 opcode) */
  uint32_t words[3];

  /* Scalar: destination and sources (operand numbers), 16-bit immediate. */
  uint16_t sdst;          /* also VOP3B/VOPC-e64 scalar destination, readlane dst */
  uint16_t ssrc[2];
  int32_t simm;           /* SOPK/SOPP immediate (sign-extended where signed) */
  uint32_t literal;

  /* Vector ALU. */
  struct src src[3];
  uint16_t vdst;
  uint8_t nsrc;
  uint8_t abs, neg, neg_hi; /* bit i: source i */
  uint8_t op_sel, op_sel_hi; /* VOP3 op_sel bits 0-3, VOP3P op_sel/op_sel_hi bits 0-2 */
  uint8_t clamp, omod;
  uint8_t sdwa;           /* 1 if SDWA */
  uint8_t dst_sel, dst_unused, src_sel[2], src_sext; /* SDWA */
  uint8_t dpp;            /* 1 if DPP */
  uint16_t dpp_ctrl;
  uint8_t row_mask, bank_mask, bound_ctrl;

  /* Memory. */
  int32_t offset;         /* SMEM/FLAT/MUBUF byte offset; DS offset0 | offset1 << 8 */
  uint16_t vaddr, vdata, saddr; /* VGPR numbers / scalar operand (saddr 0x7f = off) */
  uint16_t soffset;       /* SMEM soffset register or MUBUF soffset operand */
  uint8_t srsrc;          /* first SGPR of the V# */
  uint8_t glc, slc, lds, tfe, gds;
  uint8_t offen, idxen, seg; /* MUBUF addressing, FLAT segment 0 flat 1 scratch 2 global */
  uint8_t smem_imm;       /* SMEM: offset is an immediate */
};

/* MODE bit 27 GPR_IDX_EN: VGPR indexing by M0 on (s_set_gpr_idx_on). */
#define MODE_GPR_IDX_EN (1u << 27)

enum wave_state {
  WAVE_RUNNING,
  WAVE_AT_BARRIER,
  WAVE_DONE,
  WAVE_STOPPED, /* error or halt: see exec->stop */
};

/* One wavefront: everything the ISA lets a program see. */
struct wave {
  uint32_t v[NUM_VGPRS][WAVE_LANES] __attribute__((aligned(64)));
  uint32_t s[128] __attribute__((aligned(8))); /* by scalar operand number */
  uint64_t pc;            /* address of the next instruction */
  uint32_t scc;
  uint32_t mode;          /* MODE hardware register */
  uint32_t trapsts;       /* TRAPSTS hardware register */
  uint32_t ib_sts;
  uint32_t gpr_alloc;     /* GPR_ALLOC (read-only) */
  uint32_t lds_alloc;     /* LDS_ALLOC (read-only) */
  uint32_t hw_id;         /* HW_ID (read-only) */
  uint8_t state;          /* enum wave_state */
  uint8_t index;          /* wave number in the work-group */
  uint16_t sleep;         /* s_sleep: time slices left to skip */
  struct vapu_exec *x;
};

/* The software TLB: direct-mapped on the 4 KiB page number. */
#define TLB_ENTRIES 64
struct tlb_entry {
  uint64_t va, size; /* size 0: empty */
  uint8_t *host;
  uint32_t allowed;
};

/* The decoded-instruction cache: direct-mapped on the dword address. */
#define ICACHE_ENTRIES 4096

/* Dispatch-wide state computed once by vapu_dispatch_begin. */
struct dispatch_state {
  struct vapu_dispatch d;
  uint64_t code_va;       /* first instruction */
  uint32_t rsrc1, rsrc2;
  uint16_t properties;
  uint32_t lds_bytes;     /* LDS allocated per work-group */
  uint32_t wg_count[3];   /* work-groups per dimension */
  uint32_t scratch_wave_bytes; /* one wave's scratch slot (0: no private segment) */
  uint32_t private_segment_size; /* per work-item, for the PRIVATE_SEGMENT_SIZE SGPR */
  bool active;
};

struct vapu_exec {
  struct wave waves[WAVE_MAX_PER_GROUP]; /* first: 64-byte aligned */
  uint8_t lds[LDS_BYTES_MAX] __attribute__((aligned(16)));
  struct vapu_mem *mem;
  uint32_t mem_generation;
  struct tlb_entry tlb[TLB_ENTRIES];
  struct inst *icache;    /* ICACHE_ENTRIES */
  uint32_t icache_epoch;  /* entries of another epoch are empty (icache_invalidate) */
  struct dispatch_state ds;
  unsigned nwaves;        /* waves of the running work-group */
  uint32_t wg_id[3];
  uint32_t group_hw_id;   /* HW_ID fields of its placement (vapu_run_workgroup) */
  struct vapu_stop stop;  /* first error of the running work-group */
  bool stopped;
  bool trace;             /* log every instruction (loglevel=trace), set per dispatch */
  struct vapu_exec_stats stats;
};

/* ---- Register access ---------------------------------------------------- */
static inline uint64_t sreg64(const struct wave *w, unsigned n) {
  return (uint64_t)w->s[n] | (uint64_t)w->s[n + 1] << 32;
}
static inline void set_sreg64(struct wave *w, unsigned n, uint64_t v) {
  w->s[n] = (uint32_t)v;
  w->s[n + 1] = (uint32_t)(v >> 32);
}
static inline uint64_t exec_mask(const struct wave *w) { return sreg64(w, SREG_EXEC_LO); }
/* Runs the statements for each lane l of `mask` in lane order: a plain
 * count when every lane is in it, else one ctz a lane (two loops, so that
 * the full one has no test a lane). */
#define FOR_EACH_LANE(mask, l, ...)                                                  \
  do {                                                                              \
    uint64_t m_ = (mask);                                                           \
    if (m_ == ~0ull) {                                                              \
      for (unsigned l = 0; l < WAVE_LANES; l++) { __VA_ARGS__; }                    \
    } else {                                                                        \
      for (; m_; m_ &= m_ - 1) {                                                    \
        unsigned l = (unsigned)__builtin_ctzll(m_);                                 \
        __VA_ARGS__;                                                                \
      }                                                                             \
    }                                                                               \
  } while (0)

/* Lanes set in a mask, in a few bit operations (the portable build has no
 * POPCNT instruction: __builtin_popcountll would be a library call). */
static inline unsigned lane_count(uint64_t m) {
  m = m - ((m >> 1) & 0x5555555555555555ull);
  m = (m & 0x3333333333333333ull) + ((m >> 2) & 0x3333333333333333ull);
  m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return (unsigned)((m * 0x0101010101010101ull) >> 56);
}
static inline uint64_t vcc_mask(const struct wave *w) { return sreg64(w, SREG_VCC_LO); }

/* Writes an SGPR destination; writes to constants and reserved numbers are
 * dropped as the hardware does (SGPR numbers 0..127 only). */
static inline void write_sdst(struct wave *w, unsigned n, uint32_t v) {
  if (n < 128 && n != 125) w->s[n] = v;
}
static inline void write_sdst64(struct wave *w, unsigned n, uint64_t v) {
  write_sdst(w, n, (uint32_t)v);
  write_sdst(w, n + 1, (uint32_t)(v >> 32));
}

/* Value of scalar source operand `code` (0..255 except VGPRs) as 32 bits;
 * `literal` for code 255. */
uint32_t scalar_src32(const struct wave *w, unsigned code, uint32_t literal);
/* The same as a 64-bit operand of type t (T_B64, T_I64 or T_F64). */
uint64_t scalar_src64(const struct wave *w, unsigned code, uint32_t literal, enum optype t);
/* Inline constant `code` (128..248) formed for operand type t. */
uint64_t inline_constant(unsigned code, enum optype t);
/* A 32-bit literal as an operand of type t: the high dword of an f64,
 * sign-extended for signed 64-bit integers, zero-extended otherwise (LLVM
 * AMDGPU asm parser notes on 64-bit operands). */
uint64_t literal_for_type(uint32_t lit, enum optype t);

/* ---- Stopping a wave ------------------------------------------------------ */
/* Records the first error of the work-group and stops the wave. */
void wave_stop(struct wave *w, const struct inst *in, enum vapu_result r, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void wave_fault(struct wave *w, const struct inst *in, enum vapu_result r, uint64_t address,
                uint32_t access);

/* ---- Memory (tlb.c) -------------------------------------------------------
 * Every call is an access the wave makes: a page that does not permit it is
 * a fault, raised by the memory's owner (vapu_mem.translate) before the call
 * returns false / NULL with the faulting VA in *fault_va.
 * mem_ptr: host pointer for [va, va+len) with `access`; also NULL (no fault
 * raised, *fault_va = the page's end) when the range runs past its page,
 * so only naturally aligned accesses (atomics) use it. mem_span: host
 * pointer of va and in *span the bytes its page holds from there.
 * mem_read/mem_write copy across pages. */
uint8_t *mem_ptr(struct vapu_exec *x, uint64_t va, uint32_t len, uint32_t access,
                 uint64_t *fault_va);
const uint8_t *mem_span(struct vapu_exec *x, uint64_t va, uint32_t access, uint64_t *span,
                        uint64_t *fault_va);
bool mem_read(struct vapu_exec *x, uint64_t va, void *dst, uint32_t len, uint64_t *fault_va);
bool mem_write(struct vapu_exec *x, uint64_t va, const void *src, uint32_t len,
               uint64_t *fault_va);
/* Instruction fetch: needs VAPU_ACCESS_EXEC. */
bool mem_fetch(struct vapu_exec *x, uint64_t va, void *dst, uint32_t len, uint64_t *fault_va);
void tlb_flush(struct vapu_exec *x);
/* Drops the TLB when the owner changed a mapping (vapu_mem_changed); the
 * vector memory instructions call it once, then use mem_ptr_cached. */
static inline void tlb_check(struct vapu_exec *x) {
  if (__atomic_load_n(&x->mem->generation, __ATOMIC_ACQUIRE) != x->mem_generation) tlb_flush(x);
}
/* mem_ptr's fast path: a TLB hit, or NULL (then call mem_ptr). */
static inline uint8_t *mem_ptr_cached(struct vapu_exec *x, uint64_t va, uint32_t len, uint32_t access) {
  const struct tlb_entry *e = &x->tlb[(va >> 12) & (TLB_ENTRIES - 1)];
  uint64_t off = va - e->va;
  if (off < e->size && len <= e->size - off && (e->allowed & access) == access) return e->host + off;
  return NULL;
}

/* ---- Decoder (decode.c) --------------------------------------------------- */
/* Decodes the instruction at w->pc; returns the cached record, or NULL after
 * stopping the wave (illegal instruction or fetch fault). */
const struct inst *fetch_decode(struct wave *w);
/* Empties the instruction cache: a new epoch (entries are cleared only
 * when the 32-bit epoch wraps). */
void icache_invalidate(struct vapu_exec *x);
/* Decodes raw words (at least 3 dwords readable, fewer used); false if the
 * encoding or opcode is unknown. Used by fetch_decode and the disassembler. */
bool decode_words(const uint32_t *words, unsigned avail, struct inst *out);
/* LLVM-style mnemonic of a decoded instruction ("v_add_f32_e32", ...). */
void inst_mnemonic(const struct inst *in, char *buf, unsigned len);

/* Opcode tables of each encoding, each next to the code it names (salu.c,
 * smem.c, vop3p.c, ds.c, vmem.c). */
extern const struct optable optab_sop2, optab_sopk, optab_sop1, optab_sopc, optab_sopp,
    optab_smem, optab_vop3p, optab_ds, optab_flat, optab_mubuf;
/* The VALU encodings share the VOP3 opcode space (VOPC 0x000-0x0ff, VOP2
 * 0x100-0x13f, VOP1 0x140-0x1bf, VOP3-only 0x1c0-0x3ff), split over the
 * files by kind (vcmp.c, vint.c, vfloat.c, vconv.c, vlane.c); an opcode is
 * in one of them. valu_opinfo (decode.c) finds it, NULL if none has it. */
extern const struct optable vop_cmp_ops, vop_int_ops, vop_float_ops, vop_conv_ops, vop_lane_ops;
const struct opinfo *valu_opinfo(unsigned op);

/* Atomic read-modify-write operations of DS and FLAT/GLOBAL/MUBUF (ds.c):
 * new value from old `t` and data `a` (and `b`: the second data operand of
 * mskor/cmpst/wrap). 32-bit unless `wide`. */
enum atomic_op { A_ADD, A_SUB, A_RSUB, A_INC, A_DEC, A_MIN_I, A_MAX_I, A_MIN_U, A_MAX_U, A_AND,
                 A_OR, A_XOR, A_MSKOR, A_XCHG, A_CMPST, A_CMPST_F, A_MIN_F, A_MAX_F, A_ADD_F,
                 A_WRAP };
uint64_t atomic_apply(enum atomic_op op, uint64_t t, uint64_t a, uint64_t b, bool wide, uint32_t mode);

/* Wave run loop (wave.c). */
void wave_run(struct wave *w, unsigned budget);

#endif
