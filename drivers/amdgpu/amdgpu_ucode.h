/*
 * amdgpu_ucode.h - firmware files in linux-firmware's amdgpu format: the
 * common header, the per-IP headers (gfx v1.0 for MEC, rlc v2.0/v2.1,
 * sdma v1.0), their checks, and the pieces the PSP loads from each file.
 *
 * Header layouts: Linux drivers/gpu/drm/amd/amdgpu/amdgpu_ucode.h (struct
 * common_firmware_header, gfx_firmware_header_v1_0,
 * rlc_firmware_header_v2_0/v2_1, sdma_firmware_header_v1_0); what is
 * loaded from each: amdgpu_ucode.c amdgpu_ucode_init_single_fw (MEC without
 * its jump table, the jump table alone) and amdgpu_rlc.c (the RLC v2.1
 * save/restore lists). All fields are little-endian.
 */
#ifndef DRIVERS_AMDGPU_AMDGPU_UCODE_H
#define DRIVERS_AMDGPU_AMDGPU_UCODE_H

#include <stddef.h>
#include <stdint.h>

struct ucode_common_header {
  uint32_t size_bytes;               /* the whole file */
  uint32_t header_size_bytes;
  uint16_t header_version_major, header_version_minor;
  uint16_t ip_version_major, ip_version_minor;
  uint32_t ucode_version;
  uint32_t ucode_size_bytes;
  uint32_t ucode_array_offset_bytes; /* from the start of the file */
  uint32_t crc32;
};

struct ucode_gfx_header_v1_0 {
  struct ucode_common_header header;
  uint32_t ucode_feature_version;
  uint32_t jt_offset;                /* dwords from the start of the ucode */
  uint32_t jt_size;                  /* dwords */
};

struct ucode_rlc_header_v2_0 {
  struct ucode_common_header header;
  uint32_t ucode_feature_version;
  uint32_t jt_offset, jt_size;
  uint32_t save_and_restore_offset;
  uint32_t clear_state_descriptor_offset;
  uint32_t avail_scratch_ram_locations;
  uint32_t reg_restore_list_size;
  uint32_t reg_list_format_start;
  uint32_t reg_list_format_separate_start;
  uint32_t starting_offsets_start;
  uint32_t reg_list_format_size_bytes, reg_list_format_array_offset_bytes;
  uint32_t reg_list_size_bytes, reg_list_array_offset_bytes;
  uint32_t reg_list_format_separate_size_bytes, reg_list_format_separate_array_offset_bytes;
  uint32_t reg_list_separate_size_bytes, reg_list_separate_array_offset_bytes;
};

struct ucode_rlc_header_v2_1 {
  struct ucode_rlc_header_v2_0 v2_0;
  uint32_t reg_list_format_direct_reg_list_length;
  uint32_t save_restore_list_cntl_ucode_ver, save_restore_list_cntl_feature_ver;
  uint32_t save_restore_list_cntl_size_bytes, save_restore_list_cntl_offset_bytes;
  uint32_t save_restore_list_gpm_ucode_ver, save_restore_list_gpm_feature_ver;
  uint32_t save_restore_list_gpm_size_bytes, save_restore_list_gpm_offset_bytes;
  uint32_t save_restore_list_srm_ucode_ver, save_restore_list_srm_feature_ver;
  uint32_t save_restore_list_srm_size_bytes, save_restore_list_srm_offset_bytes;
};

struct ucode_sdma_header_v1_0 {
  struct ucode_common_header header;
  uint32_t ucode_feature_version;
  uint32_t ucode_change_version;
  uint32_t jt_offset, jt_size;
};

_Static_assert(sizeof(struct ucode_common_header) == 32, "common firmware header");
_Static_assert(sizeof(struct ucode_gfx_header_v1_0) == 44, "gfx v1.0 header");
_Static_assert(sizeof(struct ucode_rlc_header_v2_0) == 104, "rlc v2.0 header");
_Static_assert(sizeof(struct ucode_rlc_header_v2_1) == 156, "rlc v2.1 header");
_Static_assert(sizeof(struct ucode_sdma_header_v1_0) == 48, "sdma v1.0 header");

enum ucode_kind { UCODE_MEC, UCODE_RLC, UCODE_SDMA };

/* One image the PSP loads: a byte range of the file and its PSP type. */
struct ucode_piece {
  const char *name;                  /* "MEC", "MEC jump table", ... for logs */
  uint32_t psp_type;                 /* enum psp_fw_type */
  const uint8_t *data;
  uint32_t size;
};

#define UCODE_MAX_PIECES 4

struct ucode_file {
  char path[112];
  uint8_t *data;                     /* the whole file (malloc'ed) */
  size_t size;
  uint32_t ucode_version, feature_version;
  uint16_t header_major, header_minor;
  struct ucode_piece pieces[UCODE_MAX_PIECES];
  int piece_count;
};

/* Checks `data` (size bytes, the contents of file `path`) as a firmware
 * file of `kind` and fills out->pieces. 0, or -EINVAL with one log line
 * naming the file, the field and its value. out->data is not set (the
 * caller owns the buffer). */
int ucode_parse(const char *path, const uint8_t *data, size_t size, enum ucode_kind kind,
                struct ucode_file *out);

#endif
