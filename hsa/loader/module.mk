# hsa/loader/: the AMDGPU code object loader, built into the image and the
# host library (hsa/module.mk leaves the loader's files to us).
#   LOADER_SRCS      portable core: lib/plat.h and libc only (also built alone
#                    into loader-dump, loader-tests and the fuzz targets)
#   LOADER_HSA_SRCS  its seam with the runtime's executables, the public
#                    hsa_kernarg_fill_hidden, the deprecated code object
#                    API (code_object_v1.c) and the AMD loader extension
LOADER_SRCS := hsa/loader/msgpack.c hsa/loader/metadata.c hsa/loader/target_id.c \
               hsa/loader/code_object.c hsa/loader/load.c hsa/loader/bundle.c \
               hsa/loader/hidden_args.c
LOADER_HSA_SRCS := hsa/loader/loaded_code_object.c hsa/loader/kernarg_hidden.c hsa/loader/x86_dso.c \
                   hsa/loader/code_object_v1.c hsa/loader/amd_loader_ext.c
HSA_SRCS += $(LOADER_SRCS) $(LOADER_HSA_SRCS)
