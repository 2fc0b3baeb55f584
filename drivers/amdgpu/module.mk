# drivers/amdgpu: the GPU driver. AMDGPU_SRCS go into the boot image,
# AMDGPU_HOST_SRCS into the host library; both share the portable files.
AMDGPU_PORTABLE_SRCS := drivers/amdgpu/amdgpu_chip.c drivers/amdgpu/amdgpu_reg.c \
    drivers/amdgpu/amdgpu_soc15.c drivers/amdgpu/amdgpu_discovery.c drivers/amdgpu/amdgpu_psp.c \
    drivers/amdgpu/amdgpu_smu.c drivers/amdgpu/amdgpu_nbio.c drivers/amdgpu/amdgpu_gmc.c \
    drivers/amdgpu/amdgpu_vm.c drivers/amdgpu/amdgpu_ih.c drivers/amdgpu/amdgpu_gfx.c \
    drivers/amdgpu/amdgpu_local.c drivers/amdgpu/amdgpu_device.c drivers/amdgpu/amdgpu_bus_vapu.c \
    drivers/amdgpu/amdgpu_cp.c drivers/amdgpu/amdgpu_mqd.c drivers/amdgpu/amdgpu_queue.c
# The image gets the driver with its platform files (PCI probe, RAM map,
# MSI) once the kernel's PCI and MSI interfaces land; until then it has none.
AMDGPU_SRCS      :=
AMDGPU_HOST_SRCS := $(AMDGPU_PORTABLE_SRCS) drivers/amdgpu/amdgpu_ram_host.c \
    drivers/amdgpu/amdgpu_msi_host.c drivers/amdgpu/amdgpu_probe_host.c
