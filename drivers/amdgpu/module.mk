# drivers/amdgpu: the GPU driver. AMDGPU_SRCS go into the boot image,
# AMDGPU_HOST_SRCS into the host library; both share the portable files.
AMDGPU_PORTABLE_SRCS :=
AMDGPU_SRCS      := $(AMDGPU_PORTABLE_SRCS)
AMDGPU_HOST_SRCS := $(AMDGPU_PORTABLE_SRCS)
