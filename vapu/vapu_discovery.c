/* vapu_discovery.c - the IP discovery binary that Renoir's firmware leaves
 * 64 KiB below the top of the frame buffer: which IP blocks the chip has,
 * their versions and register bases, and the GC configuration.
 * Format: Linux drivers/gpu/drm/amd/include/discovery.h (binary_header,
 * ip_discovery_header, die_header, ip, gc_info_v1_0); location and size:
 * amdgpu_discovery.h (DISCOVERY_TMR_OFFSET 64 KiB, DISCOVERY_TMR_SIZE
 * 4 KiB); checksums: 16-bit byte sums (amdgpu_discovery.c). */
#define LOG_TAG "vapu"
#include <string.h>

#include "vapu/vapu_internal.h"
#include "lib/util.h"

#define DISCOVERY_TMR_OFFSET (64u << 10)
#define BINARY_SIGNATURE 0x28211407u
#define DISCOVERY_TABLE_SIGNATURE 0x53445049u
#define GC_TABLE_ID 0x4347u
#define TABLE_IP_DISCOVERY 0
#define TABLE_GC 1
#define BINARY_HEADER_BYTES 60   /* 12 bytes + 6 table_info of 8 */
#define IP_HEADER_BYTES 80       /* signature..num_dies, 16 die_info, padding */
#define GC_INFO_V1_0_BYTES (12 + 19 * 4)

static void put16(uint8_t *p, uint16_t x) { p[0] = (uint8_t)x; p[1] = (uint8_t)(x >> 8); }
static void put32(uint8_t *p, uint32_t x) { put16(p, (uint16_t)x); put16(p + 2, (uint16_t)(x >> 16)); }

static uint16_t byte_sum(const uint8_t *p, size_t n) {
  uint16_t sum = 0;
  while (n--) sum = (uint16_t)(sum + *p++);
  return sum;
}

static void set_table(uint8_t *bin, int table, uint16_t offset, uint16_t size) {
  uint8_t *info = bin + 12 + table * 8;
  put16(info, offset);
  put16(info + 2, byte_sum(bin + offset, size));
  put16(info + 4, size);
}

static size_t write_ip_table(const struct vapu_chip_desc *chip, uint8_t *t) {
  size_t die = IP_HEADER_BYTES, p = die + 4;
  for (int i = 0; i < chip->ip_count; i++) {
    const struct vapu_ip *ip = &chip->ips[i];
    put16(t + p, ip->hw_id);
    t[p + 2] = ip->instance;
    t[p + 3] = ip->segments;
    t[p + 4] = ip->major;
    t[p + 5] = ip->minor;
    t[p + 6] = ip->revision;
    t[p + 7] = 0; /* not harvested */
    for (int s = 0; s < ip->segments; s++) put32(t + p + 8 + 4 * s, ip->base[s]);
    p += 8 + 4u * ip->segments;
  }
  put32(t, DISCOVERY_TABLE_SIGNATURE);
  put16(t + 4, 1);            /* table version */
  put16(t + 6, (uint16_t)p);  /* size of the whole IP table */
  put32(t + 8, 0);            /* table id */
  put16(t + 12, 1);           /* one die */
  put16(t + 14, 0);           /* die_info[0]: die 0 ... */
  /* die_offset is relative to the binary; patched by the caller */
  put16(t + die, 0);          /* die_header: die_id */
  put16(t + die + 2, (uint16_t)chip->ip_count);
  return p;
}

static void write_gc_info(const struct vapu_chip_desc *chip, uint8_t *g) {
  /* gc_info_v1_0: counts in work-group processors of two CUs. */
  uint32_t fields[19] = {
      chip->shader_engines,       /* gc_num_se */
      chip->cu_per_sh / 2,        /* gc_num_wgp0_per_sa */
      0,                          /* gc_num_wgp1_per_sa */
      2,                          /* gc_num_rb_per_se */
      4,                          /* gc_num_gl2c */
      256,                        /* gc_num_gprs */
      32,                         /* gc_num_max_gs_thds */
      16,                         /* gc_gs_table_depth */
      64,                         /* gc_gsprim_buff_depth */
      1024,                       /* gc_parameter_cache_depth */
      1,                          /* gc_double_offchip_lds_buffer */
      64,                         /* gc_wave_size */
      chip->max_waves_per_simd,   /* gc_max_waves_per_simd */
      chip->max_scratch_slots_per_cu,
      chip->lds_bytes >> 10,      /* gc_lds_size, KiB */
      chip->sh_per_se,            /* gc_num_sc_per_se */
      chip->sh_per_se,            /* gc_num_sa_per_se */
      2,                          /* gc_num_packer_per_sc */
      0,                          /* gc_num_gl2a */
  };
  put32(g, GC_TABLE_ID);
  put16(g + 4, 1);
  put16(g + 6, 0);
  put32(g + 8, GC_INFO_V1_0_BYTES);
  for (int i = 0; i < 19; i++) put32(g + 12 + 4 * i, fields[i]);
}

void vapu_discovery_write(struct vapu *v) {
  uint8_t *bin = v->carveout + v->carveout_bytes - DISCOVERY_TMR_OFFSET;
  memset(bin, 0, 4096);
  uint16_t ip_offset = 64;
  size_t ip_size = write_ip_table(v->chip, bin + ip_offset);
  put16(bin + ip_offset + 16, (uint16_t)(ip_offset + IP_HEADER_BYTES)); /* die_info[0].die_offset */
  uint16_t gc_offset = (uint16_t)ALIGN_UP(ip_offset + ip_size, 16);
  write_gc_info(v->chip, bin + gc_offset);
  uint16_t total = (uint16_t)(gc_offset + GC_INFO_V1_0_BYTES);

  put32(bin, v->config.faults.bad_discovery_signature ? 0x12345678u : BINARY_SIGNATURE);
  put16(bin + 4, 1); /* version 1.0 */
  put16(bin + 6, 0);
  put16(bin + 10, total);
  set_table(bin, TABLE_IP_DISCOVERY, ip_offset, (uint16_t)ip_size);
  set_table(bin, TABLE_GC, gc_offset, GC_INFO_V1_0_BYTES);
  uint16_t checksum = byte_sum(bin + 10, total - 10u);
  if (v->config.faults.bad_discovery_checksum) checksum ^= 0x5a5a;
  put16(bin + 8, checksum);
}
