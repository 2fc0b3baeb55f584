# bench/: host benchmark programs (`make bench`, rules in mk/bench.mk).
BENCH_DISPATCH_SRCS := bench/main.c bench/stats.c bench/floor.c bench/hsa_dispatch.c \
                       bench/openmp.c bench/pocl.c
BENCH_KERNELS_SRCS  := bench/kernels.c bench/stats.c
