/* amdgpu_soc15.c - where each IP block's registers are. The Raven family
 * has a fixed SOC15 base table (Linux include/vega10_ip_offset.h, used for
 * CHIP_RAVEN by vega10_reg_init.c); Renoir describes itself in the IP
 * discovery table near the end of its frame buffer (amdgpu_discovery.c). */
#define LOG_TAG "amdgpu"
#include <errno.h>
#include <string.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "drivers/amdgpu/regs/mp_10_0.h"
#include "drivers/amdgpu/regs/nbio_7_0.h"
#include "lib/plat.h"
#include "lib/util.h"

/* Linux amdgpu_discovery.h / amdgpu_discovery.c: the table lies 64 KiB
 * below the top of the frame buffer and 10 KiB are read; before the IP
 * bases are known the registers are at their fixed indices
 * (REG_*_FIXED). */
#define DISCOVERY_TMR_OFFSET (64u << 10)
#define DISCOVERY_TMR_SIZE (10u << 10)
#define IFWI_WAIT_MS 1000

static void set_ip(struct amdgpu_device *dev, enum amdgpu_ip ip, uint8_t major, uint8_t minor,
                   uint8_t revision, uint32_t seg0, uint32_t seg1, uint32_t seg2, uint32_t seg3) {
  dev->ip[ip] = (struct amdgpu_ip_block){true, major, minor, revision, {seg0, seg1, seg2, seg3, 0}};
}

/* Versions: Linux amdgpu_discovery.c, CHIP_RAVEN case (Raven2 when the
 * ATI revision is 8 or more). */
static void raven_fixed_bases(struct amdgpu_device *dev) {
  bool raven2 = dev->chip->raven2_ip_versions;
  set_ip(dev, IP_GC, 9, raven2 ? 2 : 1, raven2 ? 2 : 0, 0x00002000, 0x0000A000, 0, 0);
  set_ip(dev, IP_MMHUB, 9, raven2 ? 2 : 1, 0, 0x0001A000, 0, 0, 0);
  set_ip(dev, IP_NBIO, 7, 0, raven2 ? 1 : 0, 0x00000000, 0x00000014, 0x00000D20, 0x00010400);
  set_ip(dev, IP_HDP, 4, 1, raven2 ? 1 : 0, 0x00000F20, 0, 0, 0);
  set_ip(dev, IP_OSSSYS, 4, 1, raven2 ? 1 : 0, 0x000010A0, 0, 0, 0);
  set_ip(dev, IP_MP0, 10, 0, raven2 ? 1 : 0, 0x00016000, 0, 0, 0);
  set_ip(dev, IP_MP1, 10, 0, raven2 ? 1 : 0, 0x00016000, 0, 0, 0);
  set_ip(dev, IP_SDMA0, 4, 1, raven2 ? 1 : 0, 0x00001260, 0, 0, 0);
}

/* The IP versions this driver knows how to program, exactly as Linux
 * dispatches them to the code this driver follows (amdgpu_discovery.c
 * amdgpu_discovery_set_*_ip_blocks and the CHIP_RAVEN versions; gmc_v9_0.c
 * for the MM hubs): GC 9.1.0 (Raven, Picasso), 9.2.2 (Raven2), 9.3.0
 * (Renoir family) -> gmc_v9_0 / gfx_v9_0; MMHUB 9.1.0, 9.2.0, 1.5.0 and
 * 2.4.0 (mmhub_client_ids_raven / _renoir, mmhub_v1_0); NBIO 7.0.0, 7.0.1,
 * 2.5.0 -> nbio_v7_0; HDP 4.1.0-4.1.2 -> hdp_v4_0; OSSSYS 4.1.0, 4.1.1,
 * 4.3.0 -> vega10_ih; MP0 10.0.0/10.0.1 -> psp_v10_0, 11.0.3 (Renoir) and
 * 12.0.1 (Green Sardine) -> psp_v12_0; MP1 10.0.0/10.0.1 -> smu10,
 * 12.0.0/12.0.1 -> smu_v12_0; SDMA0 4.1.0-4.1.2 -> sdma_v4_0. */
static const struct known_ip { enum amdgpu_ip ip; uint8_t major, minor, revision; } known_ips[] = {
    {IP_GC, 9, 1, 0},     {IP_GC, 9, 2, 2},     {IP_GC, 9, 3, 0},     {IP_MMHUB, 9, 1, 0},
    {IP_MMHUB, 9, 2, 0},  {IP_MMHUB, 1, 5, 0},  {IP_MMHUB, 2, 4, 0},  {IP_NBIO, 7, 0, 0},
    {IP_NBIO, 7, 0, 1},   {IP_NBIO, 2, 5, 0},   {IP_HDP, 4, 1, 0},    {IP_HDP, 4, 1, 1},
    {IP_HDP, 4, 1, 2},    {IP_OSSSYS, 4, 1, 0}, {IP_OSSSYS, 4, 1, 1}, {IP_OSSSYS, 4, 3, 0},
    {IP_MP0, 10, 0, 0},   {IP_MP0, 10, 0, 1},   {IP_MP0, 11, 0, 3},   {IP_MP0, 12, 0, 1},
    {IP_MP1, 10, 0, 0},   {IP_MP1, 10, 0, 1},   {IP_MP1, 12, 0, 0},   {IP_MP1, 12, 0, 1},
    {IP_SDMA0, 4, 1, 0},  {IP_SDMA0, 4, 1, 1},  {IP_SDMA0, 4, 1, 2},
};

static bool ip_version_known(const struct amdgpu_ip_block *b, enum amdgpu_ip ip) {
  for (size_t k = 0; k < countof(known_ips); k++)
    if (known_ips[k].ip == ip && known_ips[k].major == b->major && known_ips[k].minor == b->minor &&
        known_ips[k].revision == b->revision)
      return true;
  return false;
}

static int check_versions(struct amdgpu_device *dev) {
  for (int ip = 0; ip < IP_COUNT; ip++) {
    const struct amdgpu_ip_block *b = &dev->ip[ip];
    if (!b->present) {
      log_error("%s: no %s block in the IP table", dev->chip->name, amdgpu_ip_name(ip));
      return -ENODEV;
    }
    if (!ip_version_known(b, (enum amdgpu_ip)ip)) {
      log_error("%s: %s version %u.%u.%u is not supported", dev->chip->name, amdgpu_ip_name(ip),
                b->major, b->minor, b->revision);
      return -ENOTSUP;
    }
  }
  return 0;
}

/* Reads the discovery binary as Linux does before any aperture is mapped
 * (amdgpu_discovery_read_binary_from_vram -> amdgpu_device_mm_access):
 * after the IFWI says it is initialised, dword by dword through
 * MM_INDEX/MM_INDEX_HI/MM_DATA, whatever BAR0 covers. */
static int read_discovery(struct amdgpu_device *dev, uint8_t *binary) {
  int waited = 0;
  while (!(RREG(dev, REG_MP0_SMN_C2PMSG_33_FIXED) & 0x80000000u) && waited < IFWI_WAIT_MS) {
    plat_sleep_ns(1000000);
    waited++;
  }
  if (waited == IFWI_WAIT_MS) log_warn("%s: IFWI not initialised after %d ms (C2PMSG_33 bit 31)", dev->chip->name, waited);
  uint64_t vram = (uint64_t)RREG(dev, REG_NBIO_RCC_CONFIG_MEMSIZE_FIXED) << 20;
  if (vram < DISCOVERY_TMR_OFFSET) {
    log_error("%s: frame buffer of %llu bytes (RCC_CONFIG_MEMSIZE) holds no discovery table", dev->chip->name,
              (unsigned long long)vram);
    return -ENODEV;
  }
  uint64_t pos = vram - DISCOVERY_TMR_OFFSET;
  uint32_t hi = UINT32_MAX; /* MM_INDEX_HI is written when it changes */
  for (uint32_t i = 0; i < DISCOVERY_TMR_SIZE; i += 4, pos += 4) {
    WREG(dev, REG_NBIO_MM_INDEX_FIXED, (uint32_t)pos | 0x80000000u);
    if ((uint32_t)(pos >> 31) != hi) WREG(dev, REG_NBIO_MM_INDEX_HI_FIXED, hi = (uint32_t)(pos >> 31));
    uint32_t word = RREG(dev, REG_NBIO_MM_DATA_FIXED);
    memcpy(binary + i, &word, 4);
  }
  return 0;
}

static int soc15_ip_init_sw(struct amdgpu_device *dev) {
  memset(dev->ip, 0, sizeof dev->ip);
  if (!dev->chip->uses_discovery) {
    raven_fixed_bases(dev);
  } else {
    uint8_t *binary = plat_protected_alloc(DISCOVERY_TMR_SIZE);
    if (!binary) return -ENOMEM;
    int r = read_discovery(dev, binary);
    if (!r) r = amdgpu_discovery_parse(dev, binary, DISCOVERY_TMR_SIZE);
    plat_protected_free(binary);
    if (r) return r;
  }
  int r = check_versions(dev);
  if (r) return r;
  for (int ip = 0; ip < IP_COUNT; ip++)
    if (dev->ip[ip].present)
      log_debug("%s %u.%u.%u at 0x%05x", amdgpu_ip_name(ip), dev->ip[ip].major, dev->ip[ip].minor,
                dev->ip[ip].revision, dev->ip[ip].segment[0]);
  return 0;
}

/* where each IP's registers are */
const struct amdgpu_ip_funcs soc15_block = {.name = "soc15", .init_sw = soc15_ip_init_sw};
