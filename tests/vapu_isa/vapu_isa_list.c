/*
 * vapu_isa_list.c - `make vapu-isa-list`: the instructions the interpreter
 * implements, read from its opcode tables (vapu/isa/wave.h), as Markdown
 * grouped by encoding, for anyone who wants to know what runs. VALU opcodes are in VOP3 numbering (VOPC 0x000-0x0ff,
 * VOP2 0x100-0x13f, VOP1 0x140-0x1bf, VOP3-only 0x1c0-0x3ff; Vega ISA
 * section 12.x opcode tables).
 */
#include <stdio.h>

#include "vapu/isa/wave.h"

typedef const struct opinfo *(*lookup_fn)(const struct optable *table, unsigned op);

static const struct opinfo *in_table(const struct optable *table, unsigned op) {
  return optable_find(table, op);
}

static const struct opinfo *in_valu(const struct optable *table, unsigned op) {
  (void)table;
  return valu_opinfo(op);
}

static void group(const char *title, lookup_fn find, const struct optable *t, unsigned first,
                  unsigned end) {
  unsigned n = 0;
  for (unsigned i = first; i < end; i++) n += find(t, i) != NULL;
  printf("\n%s (%u):", title, n);
  for (unsigned i = first; i < end; i++)
    if (find(t, i)) printf(" %s", find(t, i)->name);
  printf("\n");
}

int main(void) {
  group("SOP2", in_table, &optab_sop2, 0, 64);
  group("SOPK", in_table, &optab_sopk, 0, 32);
  group("SOP1", in_table, &optab_sop1, 0, 64);
  group("SOPC", in_table, &optab_sopc, 0, 32);
  group("SOPP", in_table, &optab_sopp, 0, 32);
  group("SMEM", in_table, &optab_smem, 0, 256);
  group("VOPC (e32, e64, SDWA)", in_valu, NULL, 0x000, 0x100);
  group("VOP2 (e32, e64, SDWA, DPP)", in_valu, NULL, 0x100, 0x140);
  group("VOP1 (e32, e64, SDWA, DPP)", in_valu, NULL, 0x140, 0x1c0);
  group("VOP3 only (VOP3A/VOP3B)", in_valu, NULL, 0x1c0, 0x400);
  group("VOP3P", in_table, &optab_vop3p, 0, 128);
  group("DS", in_table, &optab_ds, 0, 256);
  group("FLAT and GLOBAL (flat_/global_); SCRATCH (scratch_) for the loads and stores", in_table, &optab_flat, 0, 128);
  group("MUBUF (offen/idxen, V# from SGPRs; no lds/tfe forms)", in_table, &optab_mubuf, 0, 128);
  return 0;
}
