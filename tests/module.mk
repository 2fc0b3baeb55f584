# tests/: host/ runs only on the host (under ASan/UBSan), image/ only in the
# boot image (QEMU), common/ in both.
TESTS_HOST_SRCS   := $(sort $(wildcard tests/host/*.c))
TESTS_COMMON_SRCS := $(sort $(wildcard tests/common/*.c))
TESTS_IMAGE_SRCS  := $(sort $(wildcard tests/image/*.c))
# The tests that drive the virtual APU itself (its registers, the driver on
# it): by name, amdgpu_* and vapu_*. The image built without the model
# (make VAPU=no, mk/image.mk) runs the others.
TESTS_VAPU_SRCS := $(wildcard tests/common/amdgpu_*.c tests/common/vapu_*.c tests/image/amdgpu_*.c)

