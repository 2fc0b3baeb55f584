/*
 * disasm.c - mnemonics of decoded instructions, spelled as LLVM's AMDGPU
 * disassembler prints them (AMDGPUInstPrinter: "_e32"/"_e64" on VALU
 * instructions that have both encodings, "_sdwa"/"_dpp" on those forms, the
 * segment prefix of FLAT instructions).
 */
#include <stdio.h>

#include "vapu/isa/disasm.h"
#include "vapu/isa/wave.h"

/* VOP1/VOP2 instructions with one encoding only: no suffix. */
static bool single_encoding(const struct inst *in) {
  switch (in->opcode) {
  case 0x140: /* v_nop */
  case 0x142: /* v_readfirstlane_b32 */
  case 0x175: /* v_clrexcp */
  case 0x191: /* v_swap_b32 */
    return true;
  default:
    return (in->op->flags & OPF_KIMM) != 0; /* v_madmk / v_madak */
  }
}

void inst_mnemonic(const struct inst *in, char *buf, unsigned len) {
  const char *name = in->op->name, *suffix = "", *prefix = "";
  switch (in->enc) {
  case ENC_VOP1: case ENC_VOP2: case ENC_VOPC:
    suffix = in->sdwa ? "_sdwa" : in->dpp ? "_dpp" : single_encoding(in) ? "" : "_e32";
    break;
  case ENC_VOP3:
    if (in->opcode < 0x1c0 && !single_encoding(in)) suffix = "_e64";
    break;
  case ENC_FLAT:
    prefix = in->seg == 0 ? "flat_" : in->seg == 1 ? "scratch_" : "global_";
    break;
  default:
    break;
  }
  snprintf(buf, len, "%s%s%s", prefix, name, suffix);
}

bool vapu_isa_disasm(const uint32_t *words, unsigned avail, char *buf, unsigned len,
                     unsigned *size) {
  struct inst in;
  if (!decode_words(words, avail, &in)) {
    snprintf(buf, len, "<unknown>");
    *size = 4;
    return false;
  }
  inst_mnemonic(&in, buf, len);
  *size = in.size;
  return true;
}
