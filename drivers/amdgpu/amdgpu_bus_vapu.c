/* amdgpu_bus_vapu.c - the bus ops bound to the virtual APU: configuration
 * space and BAR5 registers through the model's entry points, the MSI
 * capability programmed like a PCI function's (PCI Local Bus Specification
 * 3.0, 6.8.1: capability list from offset 0x34, MSI capability ID 5). */
#define LOG_TAG "amdgpu"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "drivers/amdgpu/amdgpu_vapu.h"
#include "lib/plat.h"

#define PCI_CAPABILITY_LIST 0x34
#define PCI_CAP_ID_MSI 0x05
#define MSI_ENABLE (1u << 16)
#define MSI_64BIT (1u << 23)

PLAT_OPTION(vapu_inactive_cus, "vapu_inactive_cus",
            "mask: the virtual APU's fused-off CUs (bit n = CU n of each shader array; default none)");

PLAT_OPTION(vapu_workgroup_delay_us, "vapu_workgroup_delay_us",
            "N: the virtual APU takes N us longer per work-group (a slower GPU; default 0)");

static struct vapu *model(struct amdgpu_device *dev) { return dev->bus_ctx; }

static uint32_t config_read(struct amdgpu_device *dev, uint16_t offset) {
  return vapu_pci_config_read(model(dev), offset);
}
static void config_write(struct amdgpu_device *dev, uint16_t offset, uint32_t value) {
  vapu_pci_config_write(model(dev), offset, value);
}
static uint32_t mmio_read(struct amdgpu_device *dev, uint32_t byte_offset) {
  return vapu_mmio_read(model(dev), byte_offset);
}
static void mmio_write(struct amdgpu_device *dev, uint32_t byte_offset, uint32_t value) {
  vapu_mmio_write(model(dev), byte_offset, value);
}

/* The model keeps its register file as memory: a store there is what a
 * BAR5 write stores, though no write hook runs (the HDP flush's only
 * effect in the model is a fence and a count, vapu_nbio.c). */
static volatile uint32_t *mmio_word(struct amdgpu_device *dev, uint32_t byte_offset) {
  return vapu_mmio_word(model(dev), byte_offset);
}

static int find_msi(struct amdgpu_device *dev) {
  uint32_t cap = config_read(dev, PCI_CAPABILITY_LIST) & 0xfc;
  for (int hops = 0; cap && hops < 48; hops++) {
    uint32_t header = config_read(dev, (uint16_t)cap);
    if ((header & 0xff) == PCI_CAP_ID_MSI) return (int)cap;
    cap = (header >> 8) & 0xfc;
  }
  return -ENODEV;
}

static int enable_msi(struct amdgpu_device *dev) {
  int cap = find_msi(dev);
  if (cap < 0) {
    log_error("virtual APU has no MSI capability");
    return cap;
  }
  uint64_t address;
  uint32_t data;
  int r = amdgpu_vapu_msi_route(dev, &address, &data);
  if (r) return r;
  uint32_t control = config_read(dev, (uint16_t)cap);
  config_write(dev, (uint16_t)(cap + 4), (uint32_t)address);
  if (control & MSI_64BIT) {
    config_write(dev, (uint16_t)(cap + 8), (uint32_t)(address >> 32));
    config_write(dev, (uint16_t)(cap + 12), data);
  } else {
    config_write(dev, (uint16_t)(cap + 8), data);
  }
  config_write(dev, (uint16_t)cap, control | MSI_ENABLE);
  return 0;
}

static void disable_msi(struct amdgpu_device *dev) {
  int cap = find_msi(dev);
  if (cap >= 0) config_write(dev, (uint16_t)cap, config_read(dev, (uint16_t)cap) & ~MSI_ENABLE);
  amdgpu_vapu_msi_unroute(dev);
}

/* A store to BAR2 is a bus write the model's NBIO decodes. */
static void doorbell_written(struct amdgpu_device *dev, uint32_t byte_offset, uint64_t value) {
  vapu_doorbell_write(model(dev), byte_offset, value);
}

static void release(struct amdgpu_device *dev) {
  vapu_destroy(model(dev));
  dev->bus_ctx = NULL;
}

static const struct amdgpu_bus_ops vapu_bus = {
    .name = "vapu", .virtual_apu = true, .config_read = config_read, .config_write = config_write,
    .mmio_read = mmio_read, .mmio_write = mmio_write, .mmio_word = mmio_word,
    .enable_msi = enable_msi, .disable_msi = disable_msi, .doorbell_written = doorbell_written,
    .release = release,
};

struct vapu *amdgpu_vapu_of(struct amdgpu_device *dev) {
  return dev && dev->bus == &vapu_bus ? model(dev) : NULL;
}

int amdgpu_vapu_probe(const struct vapu_config *config, const char *firmware_dir,
                      struct amdgpu_device **out) {
  *out = NULL;
  struct amdgpu_device *dev = plat_protected_alloc(sizeof *dev);
  if (!dev) return -ENOMEM;
  if (firmware_dir) snprintf(dev->firmware_dir, sizeof dev->firmware_dir, "%s", firmware_dir);
  struct vapu_config c = *config;
  c.msi = amdgpu_vapu_msi_deliver;
  c.msi_ctx = dev;
  struct vapu *v = vapu_create(&c);
  if (!v) {
    plat_protected_free(dev);
    return -ENODEV;
  }
  dev->bus = &vapu_bus;
  dev->bus_ctx = v;
  int r = amdgpu_device_bring_up(dev);
  if (r) {
    release(dev);
    plat_protected_free(dev);
    return r;
  }
  *out = dev;
  return 0;
}

int amdgpu_vapu_add(const char *chip_name) {
  int chip = vapu_chip_by_name(chip_name);
  if (chip < 0) {
    log_error("vapu=%s: unknown chip (raven, picasso, raven2, renoir)", chip_name);
    return -EINVAL;
  }
  struct vapu_config config = {.chip = (enum vapu_chip_id)chip};
  /* A board's SKU: the same die with CUs fused off (the V1000 and R1000
   * parts differ by their CU count). */
  config.inactive_cus = (uint16_t)plat_option_uint("vapu_inactive_cus", 0, 0xffff, 0);
  config.workgroup_delay_us = (uint32_t)plat_option_uint("vapu_workgroup_delay_us", 0, 1000000, 0);
  struct amdgpu_device *dev;
  int r = amdgpu_vapu_probe(&config, NULL, &dev);
  if (r) return r;
  r = amdgpu_device_register(dev);
  if (r) amdgpu_device_remove(dev);
  return r;
}
