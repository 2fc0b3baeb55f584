/*
 * amdgpu_vapu.h - the driver bound to the virtual APU: probing a model,
 * reaching the model behind a device (tests make GPU accesses with it), and
 * the platform's MSI seam (amdgpu_msi_host.c; the image's comes with the
 * kernel's MSI API).
 */
#ifndef DRIVERS_AMDGPU_AMDGPU_VAPU_H
#define DRIVERS_AMDGPU_AMDGPU_VAPU_H

#include "drivers/amdgpu/amdgpu_dev.h"
#include "drivers/amdgpu/amdgpu_lifecycle.h"
#include "vapu/vapu.h"

/* Creates a model from `config` (its msi fields are set here), binds a
 * device to it and brings it up with the firmware files of `firmware_dir`
 * (NULL: the amdgpu_fw boot option, else /amdgpu). On failure everything
 * is released and *out is NULL. */
int amdgpu_vapu_probe(const struct vapu_config *config, const char *firmware_dir,
                      struct amdgpu_device **out);
struct vapu *amdgpu_vapu_of(struct amdgpu_device *dev);
/* Probes the virtual APU of chip `chip_name` ("raven", ...) with the
 * default configuration and registers it as a GPU (the image's vapu=
 * option, the host's GPU). 0 or a negative errno (logged). */
int amdgpu_vapu_add(const char *chip_name);

/* Platform MSI seam for the model. */
int amdgpu_vapu_msi_route(struct amdgpu_device *dev, uint64_t *address, uint32_t *data);
void amdgpu_vapu_msi_unroute(struct amdgpu_device *dev);
void amdgpu_vapu_msi_deliver(void *ctx, uint64_t address, uint32_t data);

#endif
