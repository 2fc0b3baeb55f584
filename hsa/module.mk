# hsa/: the HSA runtime (built into the image and into the host library).
# hsa/loader/module.mk adds the code object loader's files to HSA_SRCS.
HSA_SRCS += hsa/lock.c hsa/event.c hsa/object_set.c
