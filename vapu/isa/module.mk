# vapu/isa/: the gfx9 (GCN5) wave64 instruction interpreter of the virtual
# APU: decoder, scalar and vector ALUs, memory instructions, work-group
# dispatch. Portable C on lib/plat.h (runs in a host thread or on an image
# core). Appended to VAPU_SRCS; vapu/module.mk must also use +=.
VAPU_ISA_SRCS := \
  vapu/isa/decode.c vapu/isa/disasm.c vapu/isa/dispatch.c vapu/isa/ds.c vapu/isa/fp.c \
  vapu/isa/mem_ranges.c vapu/isa/salu.c vapu/isa/smem.c vapu/isa/tlb.c vapu/isa/valu.c \
  vapu/isa/vcmp.c vapu/isa/vconv.c vapu/isa/vfloat.c vapu/isa/vint.c vapu/isa/vlane.c \
  vapu/isa/vmem.c vapu/isa/vop3p.c vapu/isa/wave.c
VAPU_SRCS += $(VAPU_ISA_SRCS)
