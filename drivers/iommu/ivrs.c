/*
 * ivrs.c - parser for the ACPI IVRS table (see ivrs.h for the facts used).
 *
 * Layout reminders (byte offsets, little endian) [48882 5.2]:
 *   IVRS: ACPI header (36) | IVinfo u32 @36 | reserved (8) | blocks @48
 *   block: type u8 | flags u8 | length u16 | ...
 *   IVHD: devid u16 @4 | cap offset u16 @6 | MMIO base u64 @8 | segment u16 @16
 *         | info u16 @18 | feature reporting / attributes u32 @20
 *         | (11h, 40h) EFR image u64 @24 | EFR2 image u64 @32 | entries
 *         from @24 (10h) or @40 (11h, 40h)
 *   device entry: type u8 | devid u16 | DTE setting u8 | (8-byte types)
 *         4 more bytes; the length of types below 80h is 4 << (type >> 6)
 *   IVMD: devid u16 @4 | aux u16 @6 | segment u16 @8 | reserved (6)
 *         | start u64 @16 | length u64 @24
 */
#define LOG_TAG "ivrs"

#include "drivers/iommu/ivrs.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/plat.h"

#define IVRS_HEADER_LENGTH 48
#define IVRS_IVINFO_OFFSET 36
#define IVHD_HEADER_10H    24
#define IVHD_HEADER_11H    40 /* also 40h */
#define IVMD_LENGTH        32

/* IVHD device entry types [48882 5.2.2.2-5.2.2.4], Linux IVHD_DEV_*. */
enum {
  DEV_PAD = 0x00,
  DEV_ALL = 0x01,
  DEV_SELECT = 0x02,
  DEV_RANGE_START = 0x03,
  DEV_RANGE_END = 0x04,
  DEV_ALIAS_SELECT = 0x42,
  DEV_ALIAS_RANGE = 0x43,
  DEV_EXT_SELECT = 0x46,
  DEV_EXT_RANGE = 0x47,
  DEV_SPECIAL = 0x48,
  DEV_ACPI_HID = 0xf0,
};
#define ACPI_HID_FIXED_LENGTH 22 /* the UID follows; its length is byte 21 */
#define UID_NONE              0
#define UID_INTEGER           1
#define UID_STRING            2

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static int fail(struct ivrs_info *info, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct ivrs_info *info, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(info->error, sizeof info->error, fmt, ap);
  va_end(ap);
  return -EINVAL;
}

/* Something firmware got wrong that the parser can step over: kept for
 * ivrs_log (the first IVRS_MAX_WARNINGS of them), counted all. */
static void warn(struct ivrs_info *info, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void warn(struct ivrs_info *info, const char *fmt, ...) {
  if (info->warning_count < IVRS_MAX_WARNINGS) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(info->warnings[info->warning_count], sizeof info->warnings[0], fmt, ap);
    va_end(ap);
  }
  info->warning_count++;
}

static bool runs_overlap(const struct ivrs_devices *a, const struct ivrs_devices *b) {
  return a->first <= b->last && b->first <= a->last;
}

static bool run_contains(const struct ivrs_devices *outer, const struct ivrs_devices *inner) {
  return outer->first <= inner->first && inner->last <= outer->last;
}

static void format_bdf(char *buf, size_t size, uint16_t bdf) {
  snprintf(buf, size, "%02x:%02x.%u", IVRS_BUS(bdf), IVRS_DEV(bdf), IVRS_FN(bdf));
}

/* ---- Device entries of one IVHD block ----------------------------------- */

struct entry_parser {
  struct ivrs_info *info;
  struct ivrs_iommu *iommu;
  size_t block_offset; /* of the IVHD in the table, for messages */
  bool range_open;
  struct ivrs_devices range; /* the open range (first and settings) */
};

static int add_run(struct entry_parser *ep, struct ivrs_devices run, size_t at) {
  struct ivrs_iommu *iommu = ep->iommu;
  if (iommu->run_count == IVRS_MAX_DEVICE_RUNS)
    return fail(ep->info, "IVHD at offset %zu: more than %d device entries (entry at %zu)",
                ep->block_offset, IVRS_MAX_DEVICE_RUNS, at);
  iommu->runs[iommu->run_count++] = run;
  if (run.last > iommu->last_devid) iommu->last_devid = run.last;
  if (run.alias && run.alias_id > iommu->last_devid) iommu->last_devid = run.alias_id;
  return 0;
}

static int open_range(struct entry_parser *ep, const uint8_t *e, size_t at) {
  if (ep->range_open)
    return fail(ep->info,
                "IVHD at offset %zu: range start (type %02xh) at %zu while the "
                "range started at %04xh is still open",
                ep->block_offset, e[0], at, ep->range.first);
  ep->range_open = true;
  memset(&ep->range, 0, sizeof ep->range);
  ep->range.first = rd16(e + 1);
  ep->range.dte_setting = e[3];
  ep->range.entry_type = e[0];
  if (e[0] == DEV_ALIAS_RANGE) {
    ep->range.alias = true;
    ep->range.alias_id = rd16(e + 5);
  } else if (e[0] == DEV_EXT_RANGE) {
    ep->range.ext_setting = rd32(e + 4);
  }
  return 0;
}

static int close_range(struct entry_parser *ep, const uint8_t *e, size_t at) {
  uint16_t last = rd16(e + 1);
  if (!ep->range_open)
    return fail(ep->info,
                "IVHD at offset %zu: range end (device %04xh) at %zu without a "
                "range start",
                ep->block_offset, last, at);
  if (last < ep->range.first)
    return fail(ep->info, "IVHD at offset %zu: range end %04xh at %zu is below its start %04xh",
                ep->block_offset, last, at, ep->range.first);
  ep->range_open = false;
  ep->range.last = last;
  return add_run(ep, ep->range, at);
}

static int add_special(struct entry_parser *ep, const uint8_t *e, size_t at) {
  struct ivrs_iommu *iommu = ep->iommu;
  uint8_t variety = e[7];
  if (variety != IVRS_SPECIAL_IOAPIC && variety != IVRS_SPECIAL_HPET) {
    warn(ep->info,
         "IVHD at offset %zu: special device entry at %zu has variety %u (1 = IOAPIC, "
         "2 = HPET): skipped",
         ep->block_offset, at, variety);
    iommu->unknown_entries++;
    return 0;
  }
  if (iommu->special_count == IVRS_MAX_SPECIALS)
    return fail(ep->info, "IVHD at offset %zu: more than %d special device entries",
                ep->block_offset, IVRS_MAX_SPECIALS);
  struct ivrs_special *s = &iommu->specials[iommu->special_count++];
  s->kind = (enum ivrs_special_kind)variety;
  s->handle = e[4];
  s->devid = rd16(e + 5);
  s->dte_setting = e[3];
  if (s->devid > iommu->last_devid) iommu->last_devid = s->devid;
  return 0;
}

/* An 8-character ASCII ID (HID or CID) as a C string, "" when all zero. */
static void copy_acpi_id(char out[9], const uint8_t *in) {
  memcpy(out, in, 8);
  out[8] = '\0';
}

static int add_acpi_device(struct entry_parser *ep, const uint8_t *e, size_t at) {
  struct ivrs_iommu *iommu = ep->iommu;
  if (iommu->acpi_count == IVRS_MAX_ACPI_DEVICES)
    return fail(ep->info, "IVHD at offset %zu: more than %d ACPI device entries", ep->block_offset,
                IVRS_MAX_ACPI_DEVICES);
  struct ivrs_acpi_device d;
  memset(&d, 0, sizeof d);
  d.devid = rd16(e + 1);
  d.dte_setting = e[3];
  copy_acpi_id(d.hid, e + 4);
  copy_acpi_id(d.cid, e + 12);
  if (d.hid[0] == '\0')
    return fail(ep->info, "IVHD at offset %zu: ACPI device entry at %zu has an empty HID",
                ep->block_offset, at);
  uint8_t uid_format = e[20], uid_length = e[21];
  const uint8_t *uid = e + ACPI_HID_FIXED_LENGTH;
  switch (uid_format) {
    case UID_NONE:
      break;
    case UID_INTEGER: {
      if (uid_length == 0 || uid_length > 8)
        return fail(ep->info,
                    "IVHD at offset %zu: ACPI device entry at %zu has an integer UID "
                    "of %u bytes (1 to 8)",
                    ep->block_offset, at, uid_length);
      uint64_t value = 0;
      for (unsigned i = 0; i < uid_length; i++) value |= (uint64_t)uid[i] << (8 * i);
      snprintf(d.uid, sizeof d.uid, "%llu", (unsigned long long)value);
      break;
    }
    case UID_STRING: {
      size_t n = uid_length < sizeof d.uid - 1 ? uid_length : sizeof d.uid - 1;
      memcpy(d.uid, uid, n);
      d.uid[n] = '\0';
      break;
    }
    default:
      return fail(ep->info,
                  "IVHD at offset %zu: ACPI device entry at %zu has UID format %u "
                  "(0 none, 1 integer, 2 string)",
                  ep->block_offset, at, uid_format);
  }
  iommu->acpi_devices[iommu->acpi_count++] = d;
  if (d.devid > iommu->last_devid) iommu->last_devid = d.devid;
  return 0;
}

/* The length of the device entry at `e` (`left` bytes remain in the block),
 * or 0 when it cannot be known. */
static size_t entry_length(const uint8_t *e, size_t left) {
  if (e[0] < 0x80) return (size_t)4 << (e[0] >> 6);
  if (e[0] == DEV_ACPI_HID && left >= ACPI_HID_FIXED_LENGTH)
    return ACPI_HID_FIXED_LENGTH + (size_t)e[21];
  return 0;
}

static int parse_entries(struct entry_parser *ep, const uint8_t *block, size_t header,
                         size_t length) {
  size_t pos = header;
  while (pos < length) {
    const uint8_t *e = block + pos;
    size_t at = ep->block_offset + pos, left = length - pos;
    size_t n = entry_length(e, left);
    if (n == 0) {
      if (e[0] == DEV_ACPI_HID)
        return fail(ep->info,
                    "IVHD at offset %zu: ACPI device entry at %zu is cut off "
                    "(%zu bytes left, at least %d needed)",
                    ep->block_offset, at, left, ACPI_HID_FIXED_LENGTH);
      return fail(ep->info,
                  "IVHD at offset %zu: unknown variable-length device entry type "
                  "%02xh at %zu: its length is not defined",
                  ep->block_offset, e[0], at);
    }
    if (n > left)
      return fail(ep->info,
                  "IVHD at offset %zu: device entry type %02xh at %zu needs %zu "
                  "bytes, the block has %zu left",
                  ep->block_offset, e[0], at, n, left);
    int err = 0;
    struct ivrs_devices run;
    memset(&run, 0, sizeof run);
    run.entry_type = e[0];
    run.first = run.last = rd16(e + 1);
    run.dte_setting = e[3];
    switch (e[0]) {
      case DEV_PAD:
        break;
      case DEV_ALL:
        run.first = 0;
        run.last = 0xffff;
        err = add_run(ep, run, at);
        break;
      case DEV_SELECT:
        err = add_run(ep, run, at);
        break;
      case DEV_ALIAS_SELECT:
        run.alias = true;
        run.alias_id = rd16(e + 5);
        err = add_run(ep, run, at);
        break;
      case DEV_EXT_SELECT:
        run.ext_setting = rd32(e + 4);
        err = add_run(ep, run, at);
        break;
      case DEV_RANGE_START:
      case DEV_ALIAS_RANGE:
      case DEV_EXT_RANGE:
        err = open_range(ep, e, at);
        break;
      case DEV_RANGE_END:
        err = close_range(ep, e, at);
        break;
      case DEV_SPECIAL:
        err = add_special(ep, e, at);
        break;
      case DEV_ACPI_HID:
        if (ep->iommu->ivhd_type != 0x40) {
          /* Linux init.c skips these too: only type 40h blocks define them. */
          warn(ep->info,
               "IVHD type %02xh at offset %zu: ACPI device entry at %zu is only defined "
               "in type 40h blocks: skipped",
               ep->iommu->ivhd_type, ep->block_offset, at);
          ep->iommu->unknown_entries++;
        } else {
          err = add_acpi_device(ep, e, at);
        }
        break;
      default:
        /* A reserved fixed-size type: its length is known from bits 7:6, so
         * the entries after it still parse. */
        warn(ep->info,
             "IVHD at offset %zu: reserved device entry type %02xh at %zu (%zu bytes): "
             "skipped",
             ep->block_offset, e[0], at, n);
        ep->iommu->unknown_entries++;
        break;
    }
    if (err) return err;
    pos += n;
  }
  if (ep->range_open)
    return fail(ep->info,
                "IVHD at offset %zu: the range started at device %04xh has no "
                "range end entry",
                ep->block_offset, ep->range.first);
  return 0;
}

/* ---- Blocks --------------------------------------------------------------- */

static size_t ivhd_header_length(uint8_t type) {
  return type == 0x10 ? IVHD_HEADER_10H : IVHD_HEADER_11H;
}

static bool is_ivhd(uint8_t type) { return type == 0x10 || type == 0x11 || type == 0x40; }
static bool is_ivmd(uint8_t type) { return type >= 0x20 && type <= 0x22; }

/* Firmware may describe one IOMMU several times, once per IVHD type, so that
 * older software finds the type it knows (48882 5.2.2; Linux init.c
 * get_highest_supported_ivhd_type). Use the highest type we know for each
 * (segment, devid); the others are skipped. */
static bool is_best_ivhd_for_its_iommu(const uint8_t *table, size_t len, size_t offset) {
  const uint8_t *b = table + offset;
  uint16_t devid = rd16(b + 4), segment = rd16(b + 16);
  for (size_t pos = IVRS_HEADER_LENGTH; pos + 4 <= len;) {
    const uint8_t *o = table + pos;
    uint16_t olen = rd16(o + 2);
    if (olen < 4 || pos + olen > len) break; /* reported by the main walk */
    if (pos != offset && is_ivhd(o[0]) && olen >= IVHD_HEADER_10H && rd16(o + 4) == devid &&
        rd16(o + 16) == segment && (o[0] > b[0] || (o[0] == b[0] && pos < offset)))
      return false;
    pos += olen;
  }
  return true;
}

static int parse_ivhd(struct ivrs_info *info, const uint8_t *b, size_t length, size_t offset) {
  size_t header = ivhd_header_length(b[0]);
  if (length < header)
    return fail(info,
                "IVHD type %02xh at offset %zu is %zu bytes, shorter than its %zu-byte "
                "header",
                b[0], offset, length, header);
  if (info->iommu_count == IVRS_MAX_IOMMUS)
    return fail(info, "more than %d IOMMUs (IVHD at offset %zu)", IVRS_MAX_IOMMUS, offset);
  struct ivrs_iommu *iommu = &info->iommus[info->iommu_count];
  memset(iommu, 0, sizeof *iommu);
  iommu->ivhd_type = b[0];
  iommu->flags = b[1];
  iommu->devid = rd16(b + 4);
  iommu->cap_offset = rd16(b + 6);
  iommu->mmio_base = rd64(b + 8);
  iommu->segment = rd16(b + 16);
  iommu->info = rd16(b + 18);
  iommu->attributes = rd32(b + 20);
  if (b[0] != 0x10) iommu->efr_image = rd64(b + 24);
  /* The base address register holds bits 51:14 [48882 3.3 "IOMMU Base
   * Address Low Register"]. */
  if (iommu->mmio_base == 0 || (iommu->mmio_base & 0x3fff))
    return fail(info,
                "IVHD at offset %zu: IOMMU %02x:%02x.%u has MMIO base 0x%llx (must be "
                "non-zero and 16 KiB aligned)",
                offset, IVRS_BUS(iommu->devid), IVRS_DEV(iommu->devid), IVRS_FN(iommu->devid),
                (unsigned long long)iommu->mmio_base);
  struct entry_parser ep = {.info = info, .iommu = iommu, .block_offset = offset};
  int err = parse_entries(&ep, b, header, length);
  if (err) return err;
  info->iommu_count++;
  return 0;
}

static int parse_ivmd(struct ivrs_info *info, const uint8_t *b, size_t length, size_t offset) {
  if (length < IVMD_LENGTH)
    return fail(info, "IVMD type %02xh at offset %zu is %zu bytes (%d expected)", b[0], offset,
                length, IVMD_LENGTH);
  if (info->ivmd_count == IVRS_MAX_IVMD)
    return fail(info, "more than %d IVMD blocks (at offset %zu)", IVRS_MAX_IVMD, offset);
  struct ivrs_ivmd m = {
      .scope = (enum ivmd_scope)b[0],
      .flags = b[1],
      .first = rd16(b + 4),
      .segment = rd16(b + 8),
      .start = rd64(b + 16),
      .length = rd64(b + 24),
  };
  switch (m.scope) {
    case IVMD_ALL:
      m.first = 0;
      m.last = 0xffff;
      break;
    case IVMD_ONE:
      m.last = m.first;
      break;
    case IVMD_RANGE:
      m.last = rd16(b + 6);
      if (m.last < m.first)
        return fail(info, "IVMD at offset %zu: device range %04xh..%04xh ends below its start",
                    offset, m.first, m.last);
      break;
  }
  if (m.length == 0 || m.start + m.length - 1 < m.start)
    return fail(info, "IVMD at offset %zu: memory range 0x%llx + 0x%llx is empty or wraps", offset,
                (unsigned long long)m.start, (unsigned long long)m.length);
  if (!(m.flags & (IVMD_FLAG_UNITY | IVMD_FLAG_EXCL)))
    warn(info,
         "IVMD at offset %zu: flags 0x%02x ask for neither a unity map nor an exclusion "
         "range: nothing to do for it",
         offset, m.flags);
  info->ivmds[info->ivmd_count++] = m;
  return 0;
}

/* ---- Whole-table checks --------------------------------------------------- */

/* Within one IOMMU, a select entry may refine a range (Linux init.c keeps
 * the narrowest one), but two runs that cross each other say two different
 * things about the same devices. */
static int check_runs_of(struct ivrs_info *info, const struct ivrs_iommu *iommu) {
  for (unsigned i = 0; i < iommu->run_count; i++)
    for (unsigned j = i + 1; j < iommu->run_count; j++) {
      const struct ivrs_devices *a = &iommu->runs[i], *b = &iommu->runs[j];
      if (runs_overlap(a, b) && !run_contains(a, b) && !run_contains(b, a))
        return fail(info, "IOMMU %04xh: device ranges %04xh..%04xh and %04xh..%04xh overlap",
                    iommu->devid, a->first, a->last, b->first, b->last);
    }
  return 0;
}

static int check_iommus_disjoint(struct ivrs_info *info) {
  for (unsigned i = 0; i < info->iommu_count; i++)
    for (unsigned j = i + 1; j < info->iommu_count; j++) {
      const struct ivrs_iommu *a = &info->iommus[i], *b = &info->iommus[j];
      if (a->segment != b->segment) continue;
      if (a->mmio_base == b->mmio_base)
        return fail(info, "IOMMUs %04xh and %04xh share the MMIO base 0x%llx", a->devid, b->devid,
                    (unsigned long long)a->mmio_base);
      for (unsigned x = 0; x < a->run_count; x++)
        for (unsigned y = 0; y < b->run_count; y++)
          if (runs_overlap(&a->runs[x], &b->runs[y])) {
            uint16_t dev =
                a->runs[x].first > b->runs[y].first ? a->runs[x].first : b->runs[y].first;
            char bdf[16];
            format_bdf(bdf, sizeof bdf, dev);
            return fail(info, "device %04x:%s is claimed by IOMMU %04xh and by IOMMU %04xh",
                        a->segment, bdf, a->devid, b->devid);
          }
    }
  return 0;
}

static bool ivmd_devices_overlap(const struct ivrs_ivmd *a, const struct ivrs_ivmd *b) {
  return a->segment == b->segment && a->first <= b->last && b->first <= a->last;
}

/* Two memory blocks for the same device may overlap only when they ask for
 * the same thing; otherwise one device would get two answers. */
static int check_ivmds(struct ivrs_info *info) {
  for (unsigned i = 0; i < info->ivmd_count; i++)
    for (unsigned j = i + 1; j < info->ivmd_count; j++) {
      const struct ivrs_ivmd *a = &info->ivmds[i], *b = &info->ivmds[j];
      bool memory_overlaps =
          a->start <= b->start + b->length - 1 && b->start <= a->start + a->length - 1;
      if (memory_overlaps && ivmd_devices_overlap(a, b) && a->flags != b->flags)
        return fail(info,
                    "IVMD ranges 0x%llx+0x%llx (flags 0x%02x) and 0x%llx+0x%llx (flags "
                    "0x%02x) overlap for the same devices with different permissions",
                    (unsigned long long)a->start, (unsigned long long)a->length, a->flags,
                    (unsigned long long)b->start, (unsigned long long)b->length, b->flags);
    }
  return 0;
}

int ivrs_parse(const void *table, size_t len, struct ivrs_info *info) {
  const uint8_t *t = table;
  memset(info, 0, sizeof *info);
  if (!table || len < IVRS_HEADER_LENGTH)
    return fail(info, "table of %zu bytes is shorter than the %d-byte IVRS header", len,
                IVRS_HEADER_LENGTH);
  if (memcmp(t, "IVRS", 4) != 0)
    return fail(info, "signature is \"%.4s\", not \"IVRS\"", (const char *)t);
  uint32_t length = rd32(t + 4);
  if (length < IVRS_HEADER_LENGTH || length > len)
    return fail(info, "header length %u does not fit the %zu bytes given (at least %d)", length,
                len, IVRS_HEADER_LENGTH);
  info->ivinfo = rd32(t + IVRS_IVINFO_OFFSET);

  for (size_t pos = IVRS_HEADER_LENGTH; pos < length;) {
    const uint8_t *b = t + pos;
    if (length - pos < 4)
      return fail(info, "%zu stray bytes at offset %zu after the last block", length - pos, pos);
    size_t block_length = rd16(b + 2);
    if (block_length < 4 || block_length > length - pos)
      return fail(info,
                  "block type %02xh at offset %zu has length %zu (at least 4, at most "
                  "%zu left)",
                  b[0], pos, block_length, length - pos);
    int err = 0;
    if (is_ivhd(b[0])) {
      if (block_length >= IVHD_HEADER_10H && !is_best_ivhd_for_its_iommu(t, length, pos))
        info->skipped_blocks++;
      else
        err = parse_ivhd(info, b, block_length, pos);
    } else if (is_ivmd(b[0])) {
      err = parse_ivmd(info, b, block_length, pos);
    } else {
      /* A block type from a newer revision: its length is known, skip it. */
      warn(info,
           "block type %02xh at offset %zu (%zu bytes) is not IVHD 10h/11h/40h or IVMD "
           "20h-22h: skipped",
           b[0], pos, block_length);
      info->skipped_blocks++;
    }
    if (err) return err;
    pos += block_length;
  }
  if (info->iommu_count == 0) return fail(info, "no IVHD block: the table describes no IOMMU");
  for (unsigned i = 0; i < info->iommu_count; i++) {
    int err = check_runs_of(info, &info->iommus[i]);
    if (err) return err;
  }
  int err = check_iommus_disjoint(info);
  if (err) return err;
  return check_ivmds(info);
}

/* ---- Lookups -------------------------------------------------------------- */

const struct ivrs_devices *ivrs_run_for(const struct ivrs_iommu *iommu, uint16_t devid) {
  const struct ivrs_devices *best = NULL;
  for (unsigned i = 0; i < iommu->run_count; i++) {
    const struct ivrs_devices *r = &iommu->runs[i];
    if (devid < r->first || devid > r->last) continue;
    if (!best || (unsigned)(r->last - r->first) < (unsigned)(best->last - best->first)) best = r;
  }
  return best;
}

const struct ivrs_iommu *ivrs_iommu_for(const struct ivrs_info *info, uint16_t segment,
                                        uint16_t devid) {
  for (unsigned i = 0; i < info->iommu_count; i++) {
    const struct ivrs_iommu *iommu = &info->iommus[i];
    if (iommu->segment == segment && ivrs_run_for(iommu, devid)) return iommu;
  }
  return NULL;
}

uint16_t ivrs_requester_id(const struct ivrs_iommu *iommu, uint16_t devid) {
  const struct ivrs_devices *r = ivrs_run_for(iommu, devid);
  return r && r->alias ? r->alias_id : devid;
}

bool ivrs_ivmd_applies(const struct ivrs_ivmd *m, uint16_t segment, uint16_t devid) {
  return m->segment == segment && devid >= m->first && devid <= m->last;
}

/* ---- Boot log ------------------------------------------------------------- */

static const char *entry_name(uint8_t type) {
  switch (type) {
    case DEV_ALL:
      return "all";
    case DEV_SELECT:
      return "select";
    case DEV_RANGE_START:
      return "range";
    case DEV_ALIAS_SELECT:
      return "alias";
    case DEV_ALIAS_RANGE:
      return "alias range";
    case DEV_EXT_SELECT:
      return "extended";
    case DEV_EXT_RANGE:
      return "extended range";
    default:
      return "?";
  }
}

void ivrs_log(const struct ivrs_info *info) {
  log_info(
      "IVinfo 0x%08x (PA %u bits, VA %u bits%s), %u IOMMU(s), %u IVMD block(s), "
      "%u block(s) skipped",
      info->ivinfo, (info->ivinfo >> 8) & 0x7f, (info->ivinfo >> 15) & 0x7f,
      info->ivinfo & IVINFO_EFR_SUP ? ", EFR image valid" : "", info->iommu_count, info->ivmd_count,
      info->skipped_blocks);
  for (unsigned i = 0; i < info->iommu_count; i++) {
    const struct ivrs_iommu *m = &info->iommus[i];
    char bdf[16];
    format_bdf(bdf, sizeof bdf, m->devid);
    log_info(
        "IOMMU %u at %04x:%s (IVHD %02xh) MMIO 0x%llx cap 0x%02x flags 0x%02x "
        "last device %04xh",
        i, m->segment, bdf, m->ivhd_type, (unsigned long long)m->mmio_base, m->cap_offset, m->flags,
        m->last_devid);
    for (unsigned r = 0; r < m->run_count; r++) {
      const struct ivrs_devices *d = &m->runs[r];
      char first[16], last[16], alias[16];
      format_bdf(first, sizeof first, d->first);
      format_bdf(last, sizeof last, d->last);
      format_bdf(alias, sizeof alias, d->alias_id);
      log_info("  %-14s %s%s%s dte 0x%02x%s%s", entry_name(d->entry_type), first,
               d->first != d->last ? ".." : "", d->first != d->last ? last : "", d->dte_setting,
               d->alias ? " as " : "", d->alias ? alias : "");
    }
    for (unsigned s = 0; s < m->special_count; s++) {
      const struct ivrs_special *sp = &m->specials[s];
      char dev[16];
      format_bdf(dev, sizeof dev, sp->devid);
      log_info("  %-14s %s id %u at %s", "special",
               sp->kind == IVRS_SPECIAL_IOAPIC ? "IOAPIC" : "HPET", sp->handle, dev);
    }
    for (unsigned a = 0; a < m->acpi_count; a++) {
      const struct ivrs_acpi_device *ad = &m->acpi_devices[a];
      char dev[16];
      format_bdf(dev, sizeof dev, ad->devid);
      log_info("  %-14s %s (cid %s uid %s) at %s", "acpi", ad->hid, ad->cid[0] ? ad->cid : "-",
               ad->uid[0] ? ad->uid : "-", dev);
    }
  }
  for (unsigned i = 0; i < info->ivmd_count; i++) {
    const struct ivrs_ivmd *d = &info->ivmds[i];
    log_info("IVMD %02xh devices %04xh..%04xh memory 0x%llx..0x%llx%s%s%s%s", d->scope, d->first,
             d->last, (unsigned long long)d->start, (unsigned long long)(d->start + d->length - 1),
             d->flags & IVMD_FLAG_UNITY ? " unity" : "", d->flags & IVMD_FLAG_IR ? " read" : "",
             d->flags & IVMD_FLAG_IW ? " write" : "",
             d->flags & IVMD_FLAG_EXCL ? " exclusion" : "");
  }
}
