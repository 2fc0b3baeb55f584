/* amdgpu_ucode.c - checks of a firmware file's headers and the images the
 * PSP loads from it (layouts and meaning: amdgpu_ucode.h). Linux only
 * checks size_bytes against the file size (amdgpu_ucode_validate); a bad
 * offset would then make it read past the file. Here every size and
 * offset is checked against the file before anything is used. */
#define LOG_TAG "ucode"
#include "drivers/amdgpu/amdgpu_ucode.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "drivers/amdgpu/regs/psp_gfx_if.h"
#include "lib/plat.h"
#include "lib/util.h"

/* Header versions each kind comes in (amdgpu_ucode.h: gfx v1.x, rlc v2.x,
 * sdma v1.x for gfx9 chips). */
static const struct {
  const char *what;
  uint16_t major;
  size_t header_bytes; /* the smallest header of that major version */
} kinds[] = {
    [UCODE_MEC] = {"MEC (gfx)", 1, sizeof(struct ucode_gfx_header_v1_0)},
    [UCODE_RLC] = {"RLC", 2, sizeof(struct ucode_rlc_header_v2_0)},
    [UCODE_SDMA] = {"SDMA", 1, sizeof(struct ucode_sdma_header_v1_0)},
};

/* [offset, offset + size) lies inside a file of file_size bytes. */
static bool inside(uint64_t offset, uint64_t size, uint64_t file_size) {
  return offset <= file_size && size <= file_size - offset;
}

static void add_piece(struct ucode_file *out, const char *name, uint32_t type, const uint8_t *data,
                      uint32_t size) {
  out->pieces[out->piece_count++] = (struct ucode_piece){name, type, data, size};
}

static int bad(const char *path, const char *field, uint64_t value, const char *why) {
  log_error("%s: %s = %llu (0x%llx): %s", path, field, (unsigned long long)value,
            (unsigned long long)value, why);
  return -EINVAL;
}

static int parse_mec(const char *path, const uint8_t *data, size_t size, struct ucode_file *out) {
  struct ucode_gfx_header_v1_0 h;
  memcpy(&h, data, sizeof h);
  const uint8_t *ucode = data + h.header.ucode_array_offset_bytes;
  uint64_t jt_bytes = (uint64_t)h.jt_size * 4, jt_start = (uint64_t)h.jt_offset * 4;
  /* The MEC needs its jump table (PSP type CP_MEC_ME1), at the end of the ucode. */
  if (!h.jt_size) return bad(path, "jt_size", h.jt_size, "the MEC firmware has no jump table");
  if (!inside(jt_start, jt_bytes, h.header.ucode_size_bytes))
    return bad(path, "jt_offset", h.jt_offset, "jump table outside the ucode");
  if (jt_bytes >= h.header.ucode_size_bytes)
    return bad(path, "jt_size", h.jt_size, "jump table as large as the ucode");
  out->feature_version = h.ucode_feature_version;
  add_piece(out, "MEC", PSP_FW_CP_MEC, ucode, (uint32_t)(h.header.ucode_size_bytes - jt_bytes));
  add_piece(out, "MEC jump table", PSP_FW_CP_MEC_ME1, ucode + jt_start, (uint32_t)jt_bytes);
  return 0;
}

/* The register lists of RLC v2.0, and the save/restore lists of v2.1 when
 * its header is that long; offsets count from the start of the file. */
static int parse_rlc(const char *path, const uint8_t *data, size_t size, struct ucode_file *out) {
  struct ucode_rlc_header_v2_1 h;
  memset(&h, 0, sizeof h);
  bool v2_1 = out->header_minor >= 1;
  uint32_t header_bytes;
  memcpy(&header_bytes, data + offsetof(struct ucode_common_header, header_size_bytes), 4);
  if (v2_1 && header_bytes < sizeof h)
    return bad(path, "header_size_bytes", header_bytes, "shorter than an RLC v2.1 header (156 bytes)");
  memcpy(&h, data, v2_1 ? sizeof h : sizeof h.v2_0);
  const struct ucode_rlc_header_v2_0 *v = &h.v2_0;
  struct { const char *name; uint32_t offset, bytes; } lists[] = {
      {"reg_list_format_array", v->reg_list_format_array_offset_bytes, v->reg_list_format_size_bytes},
      {"reg_list_array", v->reg_list_array_offset_bytes, v->reg_list_size_bytes},
      {"reg_list_format_separate_array", v->reg_list_format_separate_array_offset_bytes,
       v->reg_list_format_separate_size_bytes},
      {"reg_list_separate_array", v->reg_list_separate_array_offset_bytes, v->reg_list_separate_size_bytes},
  };
  for (size_t i = 0; i < countof(lists); i++)
    if (lists[i].bytes && !inside(lists[i].offset, lists[i].bytes, size)) {
      char field[64];
      snprintf(field, sizeof field, "%s (%u bytes at)", lists[i].name, lists[i].bytes);
      return bad(path, field, lists[i].offset, "register list outside the file");
    }
  out->feature_version = v->ucode_feature_version;
  if (v2_1) {
    /* The PSP loads the three save/restore lists before RLC_G when all
     * three are present (gfx_v9_0.c, amdgpu_rlc.c). */
    struct { const char *name; uint32_t type, offset, bytes; } sr[] = {
        {"RLC save/restore list CNTL", PSP_FW_RLC_RESTORE_LIST_SRM_CNTL,
         h.save_restore_list_cntl_offset_bytes, h.save_restore_list_cntl_size_bytes},
        {"RLC save/restore list GPM", PSP_FW_RLC_RESTORE_LIST_GPM_MEM,
         h.save_restore_list_gpm_offset_bytes, h.save_restore_list_gpm_size_bytes},
        {"RLC save/restore list SRM", PSP_FW_RLC_RESTORE_LIST_SRM_MEM,
         h.save_restore_list_srm_offset_bytes, h.save_restore_list_srm_size_bytes},
    };
    bool all = true;
    for (int i = 0; i < 3; i++) {
      if (sr[i].bytes && !inside(sr[i].offset, sr[i].bytes, size))
        return bad(path, sr[i].name, sr[i].offset, "save/restore list outside the file");
      all &= sr[i].bytes != 0;
    }
    if (all)
      for (int i = 0; i < 3; i++) add_piece(out, sr[i].name, sr[i].type, data + sr[i].offset, sr[i].bytes);
  }
  add_piece(out, "RLC", PSP_FW_RLC_G, data + v->header.ucode_array_offset_bytes,
            v->header.ucode_size_bytes);
  return 0;
}

static int parse_sdma(const char *path, const uint8_t *data, size_t size, struct ucode_file *out) {
  struct ucode_sdma_header_v1_0 h;
  memcpy(&h, data, sizeof h);
  if (h.jt_size && !inside((uint64_t)h.jt_offset * 4, (uint64_t)h.jt_size * 4, h.header.ucode_size_bytes))
    return bad(path, "jt_offset", h.jt_offset, "jump table outside the ucode");
  out->feature_version = h.ucode_feature_version;
  add_piece(out, "SDMA0", PSP_FW_SDMA0, data + h.header.ucode_array_offset_bytes,
            h.header.ucode_size_bytes);
  return 0;
}

int ucode_parse(const char *path, const uint8_t *data, size_t size, enum ucode_kind kind,
                struct ucode_file *out) {
  memset(out->pieces, 0, sizeof out->pieces);
  out->piece_count = 0;
  if ((unsigned)kind > UCODE_SDMA) return -EINVAL;
  if (size < sizeof(struct ucode_common_header))
    return bad(path, "file size", size, "shorter than the common firmware header (32 bytes)");
  struct ucode_common_header c;
  memcpy(&c, data, sizeof c);
  if (c.size_bytes != size) return bad(path, "size_bytes", c.size_bytes, "not the size of the file");
  if (c.header_version_major != kinds[kind].major) {
    char why[96];
    snprintf(why, sizeof why, "a %s file has a version %u header", kinds[kind].what, kinds[kind].major);
    return bad(path, "header_version_major", c.header_version_major, why);
  }
  if (c.header_size_bytes < kinds[kind].header_bytes || c.header_size_bytes > size)
    return bad(path, "header_size_bytes", c.header_size_bytes,
               "shorter than the header of its version, or longer than the file");
  if (c.ucode_array_offset_bytes < c.header_size_bytes)
    return bad(path, "ucode_array_offset_bytes", c.ucode_array_offset_bytes, "inside the header");
  if (!c.ucode_size_bytes || (c.ucode_size_bytes & 3))
    return bad(path, "ucode_size_bytes", c.ucode_size_bytes, "empty or not whole dwords");
  if (!inside(c.ucode_array_offset_bytes, c.ucode_size_bytes, size))
    return bad(path, "ucode_size_bytes", c.ucode_size_bytes, "the ucode runs past the end of the file");
  snprintf(out->path, sizeof out->path, "%s", path);
  out->size = size;
  out->ucode_version = c.ucode_version;
  out->header_major = c.header_version_major;
  out->header_minor = c.header_version_minor;
  switch (kind) {
    case UCODE_MEC: return parse_mec(path, data, size, out);
    case UCODE_RLC: return parse_rlc(path, data, size, out);
    case UCODE_SDMA: return parse_sdma(path, data, size, out);
  }
  return -EINVAL;
}
