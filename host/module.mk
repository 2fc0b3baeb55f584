# host/: lib/plat.h on Linux, and the host unit-test program's main().
HOST_PLAT_SRCS := host/plat_host.c host/plat_host_protected.c host/plat_host_code.c
HOST_TEST_MAIN := host/test_main.c
