# hsa/loader/: the AMDGPU code object loader, portable C built into the image
# and the host library (hsa/module.mk leaves the loader's files to us).
LOADER_SRCS := hsa/loader/msgpack.c hsa/loader/metadata.c hsa/loader/isa.c \
               hsa/loader/code_object.c hsa/loader/load.c hsa/loader/bundle.c \
               hsa/loader/hidden_args.c
HSA_SRCS += $(LOADER_SRCS)
