# support/: helpers that tests, benchmarks and the fuzz targets share (none
# of them is a test itself): a GPU kernel loaded from a code object file as
# a program loads one (gpu_kernel.c), and the ROCr-style programs' helpers
# (program.h, header only).
SUPPORT_SRCS := support/gpu_kernel.c
