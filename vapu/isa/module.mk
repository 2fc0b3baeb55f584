# vapu/isa/: the gfx9 (GCN5) wave64 instruction interpreter of the virtual
# APU: decoder, scalar and vector ALUs, memory instructions, work-group
# dispatch. Portable C on lib/plat.h (runs in a host thread or on an image
# core). Appended to VAPU_SRCS; vapu/module.mk must also use +=.
VAPU_ISA_SRCS :=
VAPU_SRCS += $(VAPU_ISA_SRCS)
