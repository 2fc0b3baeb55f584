/* amdgpu_discovery.c - parser of the IP discovery binary (Renoir and
 * later): checked before it is believed. A bad signature, checksum, size or
 * offset is an error, never a guess.
 * Format: Linux drivers/gpu/drm/amd/include/discovery.h; checks as in
 * amdgpu_discovery.c amdgpu_discovery_init (binary checksum over the bytes
 * after binary_checksum, per-table byte-sum checksums, signatures),
 * amdgpu_discovery_reg_base_init (die/IP walk) and
 * amdgpu_discovery_get_gfx_info (gc_info v1: CUs = 2 x work-group processors). */
#define LOG_TAG "amdgpu"
#include <errno.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "lib/plat.h"
#include "lib/util.h"

#define BINARY_SIGNATURE 0x28211407u
#define DISCOVERY_TABLE_SIGNATURE 0x53445049u
#define GC_TABLE_ID 0x4347u
#define BINARY_HEADER_BYTES 60
#define IP_HEADER_BYTES 80
#define MAX_DIES 16
#define TABLE_IP_DISCOVERY 0
#define TABLE_GC 1

/* Hardware IDs (Linux include/soc15_hw_ip.h) of the blocks we use. */
static const struct { uint16_t hw_id; enum amdgpu_ip ip; } hw_ids[] = {
    {11, IP_GC}, {34, IP_MMHUB}, {108, IP_NBIO}, {41, IP_HDP},
    {40, IP_OSSSYS}, {255, IP_MP0}, {1, IP_MP1}, {42, IP_SDMA0},
};

static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t get32(const uint8_t *p) { return get16(p) | (uint32_t)get16(p + 2) << 16; }

static uint16_t byte_sum(const uint8_t *p, size_t n) {
  uint16_t sum = 0;
  while (n--) sum = (uint16_t)(sum + *p++);
  return sum;
}

/* Table `t` of the binary header: offset, checksum, and the size the table
 * says it has (read at size_field); checks bounds and checksum. */
static int check_table(const uint8_t *bin, size_t size, int t, const char *what, uint32_t signature,
                       size_t size_field, int size_width, uint16_t *offset_out) {
  const uint8_t *info = bin + 12 + 8 * t;
  uint16_t offset = get16(info), checksum = get16(info + 2);
  *offset_out = offset;
  if (!offset) return 0;
  if (offset + size_field + 4 > size) {
    log_error("discovery: %s table offset 0x%x out of the binary", what, offset);
    return -EINVAL;
  }
  if (get32(bin + offset) != signature) {
    log_error("discovery: %s table signature 0x%08x, expected 0x%08x", what, get32(bin + offset), signature);
    return -EINVAL;
  }
  uint32_t table_size = size_width == 2 ? get16(bin + offset + size_field) : get32(bin + offset + size_field);
  if (table_size < size_field + 2 || offset + table_size > size) {
    log_error("discovery: %s table size %u out of the binary", what, table_size);
    return -EINVAL;
  }
  if (byte_sum(bin + offset, table_size) != checksum) {
    log_error("discovery: %s table checksum 0x%04x, expected 0x%04x", what,
              byte_sum(bin + offset, table_size), checksum);
    return -EINVAL;
  }
  return 0;
}

static int parse_ips(struct amdgpu_device *dev, const uint8_t *bin, uint16_t offset) {
  const uint8_t *h = bin + offset;
  uint16_t table_end = (uint16_t)(offset + get16(h + 6));
  uint16_t dies = get16(h + 12);
  if (dies == 0 || dies > MAX_DIES) {
    log_error("discovery: %u dies", dies);
    return -EINVAL;
  }
  for (int d = 0; d < dies; d++) {
    uint16_t die_offset = get16(h + 16 + 4 * d);
    if (die_offset < offset + IP_HEADER_BYTES || die_offset + 4 > table_end) {
      log_error("discovery: die %d header at 0x%x outside the IP table", d, die_offset);
      return -EINVAL;
    }
    if (get16(bin + die_offset) != d) {
      log_error("discovery: die id %u, expected %d", get16(bin + die_offset), d);
      return -EINVAL;
    }
    uint16_t count = get16(bin + die_offset + 2);
    size_t p = die_offset + 4u;
    for (int i = 0; i < count; i++) {
      if (p + 8 > table_end) {
        log_error("discovery: IP entry %d of die %d runs past the table", i, d);
        return -EINVAL;
      }
      const uint8_t *e = bin + p;
      uint8_t bases = e[3];
      if (p + 8 + 4u * bases > table_end) {
        log_error("discovery: IP entry %d of die %d runs past the table", i, d);
        return -EINVAL;
      }
      for (size_t k = 0; k < countof(hw_ids); k++) {
        if (hw_ids[k].hw_id != get16(e) || e[2] != 0 || d != 0) continue;
        struct amdgpu_ip_block *b = &dev->ip[hw_ids[k].ip];
        b->present = true;
        b->major = e[4];
        b->minor = e[5];
        b->revision = e[6];
        for (int s = 0; s < bases && s < AMDGPU_MAX_SEGMENTS; s++) b->segment[s] = get32(e + 8 + 4 * s);
      }
      p += 8 + 4u * bases;
    }
  }
  return 0;
}

static int parse_gc_info(struct amdgpu_device *dev, const uint8_t *g) {
  uint16_t major = get16(g + 4);
  if (major != 1) {
    log_error("discovery: GC info table version %u.%u not supported", major, get16(g + 6));
    return -ENOTSUP;
  }
  const uint8_t *f = g + 12; /* gc_info_v1_0 fields */
  dev->shader_engines = get32(f + 0);
  dev->cu_per_sh = 2 * (get32(f + 4) + get32(f + 8));
  dev->wave_size = get32(f + 44);
  dev->waves_per_simd = get32(f + 48);
  dev->lds_bytes = get32(f + 56) << 10;
  dev->sh_per_se = get32(f + 64);
  if (!dev->shader_engines || !dev->cu_per_sh || !dev->sh_per_se || dev->wave_size != 64) {
    log_error("discovery: implausible GC info (%u SE, %u SH/SE, %u CU/SH, wave %u)",
              dev->shader_engines, dev->sh_per_se, dev->cu_per_sh, dev->wave_size);
    return -EINVAL;
  }
  return 0;
}

int amdgpu_discovery_parse(struct amdgpu_device *dev, const uint8_t *bin, size_t size) {
  if (get32(bin) != BINARY_SIGNATURE) {
    log_error("discovery: binary signature 0x%08x, expected 0x%08x", get32(bin), BINARY_SIGNATURE);
    return -EINVAL;
  }
  uint16_t total = get16(bin + 10);
  if (total < BINARY_HEADER_BYTES || total > size) {
    log_error("discovery: binary size %u out of range (%u..%zu)", total, BINARY_HEADER_BYTES, size);
    return -EINVAL;
  }
  uint16_t sum = byte_sum(bin + 10, total - 10u);
  if (sum != get16(bin + 8)) {
    log_error("discovery: binary checksum 0x%04x, expected 0x%04x", sum, get16(bin + 8));
    return -EINVAL;
  }
  uint16_t ip_offset, gc_offset;
  int r = check_table(bin, total, TABLE_IP_DISCOVERY, "IP", DISCOVERY_TABLE_SIGNATURE, 6, 2, &ip_offset);
  if (!r) r = check_table(bin, total, TABLE_GC, "GC", GC_TABLE_ID, 8, 4, &gc_offset);
  if (r) return r;
  if (!ip_offset || !gc_offset) {
    log_error("discovery: %s table missing", ip_offset ? "GC" : "IP");
    return -EINVAL;
  }
  r = parse_ips(dev, bin, ip_offset);
  if (!r) r = parse_gc_info(dev, bin + gc_offset);
  return r;
}
