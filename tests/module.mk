# tests/: host/ runs only on the host (under ASan/UBSan), image/ only in the
# boot image (QEMU), common/ in both.
TESTS_HOST_SRCS   := $(sort $(wildcard tests/host/*.c))
TESTS_COMMON_SRCS := $(sort $(wildcard tests/common/*.c))
TESTS_IMAGE_SRCS  := $(sort $(wildcard tests/image/*.c))
