# vapu/: the virtual APU. The register-level model (this folder, owner
# amdgpu) and the gfx9 interpreter (vapu/isa/, its own module.mk adds to
# VAPU_SRCS) and the command processor (vapu/cp*, added by its owner here).
VAPU_SRCS += vapu/vapu_core.c vapu/vapu_chip.c vapu/vapu_pci.c vapu/vapu_nbio.c \
             vapu/vapu_mp.c vapu/vapu_discovery.c vapu/vapu_gmc.c vapu/vapu_ih.c \
             vapu/vapu_gfx.c vapu/vapu_hqd.c vapu/vapu_psp.c
# The command processor's AQL engine (owner gpu-agent).
VAPU_SRCS += vapu/cp.c vapu/cp_packet.c vapu/cp_mem.c
