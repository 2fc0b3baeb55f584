/*
 * disasm.h - the decoder as a disassembler of mnemonics: what the
 * llvm-objdump cross-check (tests/host/vapu_isa_objdump_test.c) and error
 * reports use to name an instruction the way LLVM's AMDGPU disassembler does.
 */
#ifndef VAPU_ISA_DISASM_H
#define VAPU_ISA_DISASM_H

#include <stdbool.h>
#include <stdint.h>

/* Decodes the instruction in words[0..avail) and writes its LLVM mnemonic
 * ("v_add_f32_e32", "global_load_dword", ...) to buf; *size gets its length
 * in bytes. False (buf "<unknown>") when the interpreter does not know it. */
bool vapu_isa_disasm(const uint32_t *words, unsigned avail, char *buf, unsigned len,
                     unsigned *size);

#endif
