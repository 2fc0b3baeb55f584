/*
 * amdgpu_lifecycle.h - a device's life in the driver, whatever its bus:
 * the platform's probe finds and binds devices (amdgpu_probe_*.c), the
 * bring-up runs the blocks in order, registered devices are what
 * amdgpu_device_get() returns, removal undoes it all (amdgpu_device.c).
 */
#ifndef DRIVERS_AMDGPU_AMDGPU_LIFECYCLE_H
#define DRIVERS_AMDGPU_AMDGPU_LIFECYCLE_H

#include "drivers/amdgpu/amdgpu_dev.h"

/* Stops a device and frees it (and its model). */
void amdgpu_device_remove(struct amdgpu_device *dev);
/* Runs the bring-up of a bound device; on failure undoes what was done. */
int amdgpu_device_bring_up(struct amdgpu_device *dev);
int amdgpu_device_register(struct amdgpu_device *dev);
/* Finds this platform's devices and registers them (amdgpu_probe_*.c). */
int amdgpu_platform_probe(void);

#endif
