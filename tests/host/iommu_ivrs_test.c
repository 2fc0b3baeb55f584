/*
 * iommu_ivrs_test.c - the IVRS parser on tables recorded from QEMU 7.2
 * (tests/data/iommu/README.md) and on tables built here byte by byte from
 * the layouts of the AMD IOMMU specification (48882, 5.2): types 11h/40h,
 * every device entry kind, IVMD blocks, several IOMMUs, and malformed ones.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/iommu/ivrs.h"
#include "lib/plat.h"
#include "lib/test.h"

/* ---- A tiny IVRS writer ---------------------------------------------------- */

struct ivrs_builder {
  uint8_t buf[2048];
  size_t len;
  size_t block; /* offset of the open block */
};

static void put(struct ivrs_builder *b, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; i++) b->buf[b->len++] = (uint8_t)(v >> (8 * i));
}

static void ivrs_begin(struct ivrs_builder *b, uint32_t ivinfo) {
  memset(b, 0, sizeof *b);
  memcpy(b->buf, "IVRS", 4);
  b->buf[8] = 2; /* revision */
  memcpy(b->buf + 10, "HSAMTL", 6);
  b->len = 36;
  put(b, ivinfo, 4);
  put(b, 0, 8);
}

/* IVHD header: type 10h (24 bytes) or 11h/40h (40 bytes with the EFR image). */
static void ivhd_begin(struct ivrs_builder *b, uint8_t type, uint8_t flags, uint16_t devid,
                       uint64_t mmio, uint16_t segment, uint64_t efr) {
  b->block = b->len;
  put(b, type, 1);
  put(b, flags, 1);
  put(b, 0, 2); /* length, patched by block_end */
  put(b, devid, 2);
  put(b, 0x40, 2); /* capability offset */
  put(b, mmio, 8);
  put(b, segment, 2);
  put(b, 0, 2);    /* IOMMU info */
  put(b, 0x44, 4); /* feature reporting / attributes */
  if (type != 0x10) {
    put(b, efr, 8);
    put(b, 0, 8);
  }
}

static void block_end(struct ivrs_builder *b) {
  size_t n = b->len - b->block;
  b->buf[b->block + 2] = (uint8_t)n;
  b->buf[b->block + 3] = (uint8_t)(n >> 8);
}

static void dev4(struct ivrs_builder *b, uint8_t type, uint16_t devid, uint8_t dte) {
  put(b, type, 1);
  put(b, devid, 2);
  put(b, dte, 1);
}

static void dev8(struct ivrs_builder *b, uint8_t type, uint16_t devid, uint8_t dte, uint32_t ext) {
  dev4(b, type, devid, dte);
  put(b, ext, 4);
}

static void ivmd(struct ivrs_builder *b, uint8_t type, uint8_t flags, uint16_t devid, uint16_t aux,
                 uint64_t start, uint64_t length) {
  put(b, type, 1);
  put(b, flags, 1);
  put(b, 32, 2);
  put(b, devid, 2);
  put(b, aux, 2);
  put(b, 0, 8); /* segment 0 + reserved */
  put(b, start, 8);
  put(b, length, 8);
}

static void put_id8(struct ivrs_builder *b, const char *id) {
  for (int i = 0; i < 8; i++) put(b, (uint8_t)(*id ? *id++ : 0), 1);
}

static size_t ivrs_end(struct ivrs_builder *b) {
  b->buf[4] = (uint8_t)b->len;
  b->buf[5] = (uint8_t)(b->len >> 8);
  uint8_t sum = 0;
  for (size_t i = 0; i < b->len; i++) sum += b->buf[i];
  b->buf[9] = (uint8_t)(0x100 - sum);
  return b->len;
}

static void *load_recorded(const char *name, size_t *size) {
  char path[256];
  snprintf(path, sizeof path, "tests/data/iommu/%s", name);
  void *data = plat_file_load(path, size);
  if (!data) FAIL("cannot read %s (run from the repository root)", path);
  return data;
}

static struct ivrs_info info; /* large: keep it off the stack */

/* ---- Recorded from QEMU ---------------------------------------------------- */

TEST(iommu_ivrs_qemu_recorded_table) {
  size_t size;
  void *t = load_recorded("qemu72_q35_ivrs.bin", &size);
  int rc = ivrs_parse(t, size, &info);
  free(t);
  ASSERT_EQ(rc, 0);
  ASSERT_EQ(info.ivinfo, 0x2800); /* PASize 40 (acpi-build.c) */
  ASSERT_EQ(info.iommu_count, 1);
  ASSERT_EQ(info.ivmd_count, 0);
  const struct ivrs_iommu *m = &info.iommus[0];
  ASSERT_EQ(m->ivhd_type, 0x10);
  ASSERT_EQ(m->devid, IVRS_BDF(0, 2, 0));
  ASSERT_EQ(m->cap_offset, 0x40);
  ASSERT_EQ_U(m->mmio_base, 0xfed80000ull);
  ASSERT_EQ(m->segment, 0);
  ASSERT_EQ(m->flags, 0xd1); /* HtTunEn, IotlbSup, PrefSup, PPRSup */
  /* One select entry per device on bus 0, as `pci` in the UEFI shell listed them. */
  static const uint16_t expected[] = {
      IVRS_BDF(0, 0, 0),    IVRS_BDF(0, 1, 0),    IVRS_BDF(0, 2, 0),   IVRS_BDF(0, 3, 0),
      IVRS_BDF(0, 0x1f, 0), IVRS_BDF(0, 0x1f, 2), IVRS_BDF(0, 0x1f, 3)};
  ASSERT_EQ(m->run_count, 7);
  for (unsigned i = 0; i < 7; i++) {
    ASSERT_EQ(m->runs[i].first, expected[i]);
    ASSERT_EQ(m->runs[i].last, expected[i]);
    ASSERT_FALSE(m->runs[i].alias);
  }
  ASSERT_EQ(m->special_count, 1);
  ASSERT_EQ(m->specials[0].kind, IVRS_SPECIAL_IOAPIC);
  ASSERT_EQ(m->specials[0].handle, 0);
  ASSERT_EQ(m->specials[0].devid, IVRS_BDF(0, 0x14, 0));
  ASSERT_EQ(m->last_devid, IVRS_BDF(0, 0x1f, 3));
  ASSERT_TRUE(ivrs_iommu_for(&info, 0, IVRS_BDF(0, 3, 0)) == m);
  ASSERT_NULL(ivrs_iommu_for(&info, 0, IVRS_BDF(0, 4, 0)));
  ASSERT_NULL(ivrs_iommu_for(&info, 1, IVRS_BDF(0, 3, 0)));
  ASSERT_EQ(ivrs_requester_id(m, IVRS_BDF(0, 3, 0)), IVRS_BDF(0, 3, 0));
}

TEST(iommu_ivrs_qemu_recorded_bridges) {
  size_t size;
  void *t = load_recorded("qemu72_q35_bridges_ivrs.bin", &size);
  int rc = ivrs_parse(t, size, &info);
  free(t);
  ASSERT_EQ(rc, 0);
  const struct ivrs_iommu *m = &info.iommus[0];
  /* Behind the PCIe root port 00:04.0: a plain range for bus 1. */
  const struct ivrs_devices *r = ivrs_run_for(m, IVRS_BDF(1, 0, 0));
  ASSERT_NOT_NULL(r);
  ASSERT_EQ(r->first, 0x0100);
  ASSERT_EQ(r->last, 0x01ff);
  ASSERT_FALSE(r->alias);
  ASSERT_EQ(ivrs_requester_id(m, IVRS_BDF(1, 0, 0)), IVRS_BDF(1, 0, 0));
  /* Behind the conventional bridge 00:05.0: bus 2 requests carry its ID. */
  r = ivrs_run_for(m, IVRS_BDF(2, 5, 0));
  ASSERT_NOT_NULL(r);
  ASSERT_TRUE(r->alias);
  ASSERT_EQ(r->first, 0x0200);
  ASSERT_EQ(r->last, 0x02ff);
  ASSERT_EQ(ivrs_requester_id(m, IVRS_BDF(2, 3, 0)), IVRS_BDF(0, 5, 0));
  ASSERT_EQ(ivrs_requester_id(m, IVRS_BDF(2, 5, 0)), IVRS_BDF(0, 5, 0));
  ASSERT_EQ(m->last_devid, 0x02ff);
  ASSERT_NULL(ivrs_run_for(m, IVRS_BDF(3, 0, 0)));
}

/* ---- Built from the specification's layouts ------------------------------- */

/* Two IOMMUs on segment 0, each described twice (10h and 11h, as firmware
 * does for older software), one of type 40h on segment 1, and IVMD blocks. */
static size_t build_full_table(struct ivrs_builder *b) {
  ivrs_begin(b, 0x2800 | 1 /* EFRSup */);
  /* IOMMU A, type 10h copy: must be skipped for the 11h copy below. */
  ivhd_begin(b, 0x10, 0x01, IVRS_BDF(0, 0, 2), 0xfeb80000, 0, 0);
  dev4(b, 0x02, IVRS_BDF(0, 9, 0), 0);
  block_end(b);
  ivhd_begin(b, 0x11, 0x03, IVRS_BDF(0, 0, 2), 0xfeb80000, 0, 0x00000000c0000d6full);
  dev4(b, 0x03, IVRS_BDF(0, 1, 0), 0x00);                      /* range start */
  dev4(b, 0x02, IVRS_BDF(0, 1, 3), 0xc7);                      /* select inside the range */
  dev4(b, 0x04, IVRS_BDF(0, 7, 7), 0);                         /* range end */
  dev8(b, 0x42, IVRS_BDF(0, 8, 0), 0, IVRS_BDF(0, 8, 1) << 8); /* alias select */
  dev8(b, 0x43, IVRS_BDF(3, 0, 0), 0, IVRS_BDF(0, 8, 2) << 8); /* alias range ... */
  dev4(b, 0x04, IVRS_BDF(3, 0x1f, 7), 0);                      /* ... ends */
  dev8(b, 0x46, IVRS_BDF(0, 9, 0), 0x10, 0x80000000);          /* extended select */
  dev8(b, 0x47, IVRS_BDF(4, 0, 0), 0, 0x1);                    /* extended range ... */
  dev4(b, 0x04, IVRS_BDF(4, 0, 7), 0);
  dev4(b, 0x00, 0, 0);                                                    /* padding */
  dev8(b, 0x48, 0, 0xd7, 0x01000000u | (IVRS_BDF(0, 0x14, 0) << 8) | 33); /* IOAPIC 33 */
  dev8(b, 0x48, 0, 0x00, 0x02000000u | (IVRS_BDF(0, 0x14, 0) << 8) | 0);  /* HPET 0 */
  block_end(b);
  /* IOMMU B on segment 0, type 11h only. */
  ivhd_begin(b, 0x11, 0, IVRS_BDF(0x40, 0, 2), 0xfeb90000, 0, 0);
  dev4(b, 0x03, IVRS_BDF(0x40, 0, 0), 0);
  dev4(b, 0x04, IVRS_BDF(0x7f, 0x1f, 7), 0);
  block_end(b);
  /* IOMMU C on segment 1, type 40h with ACPI devices. */
  ivhd_begin(b, 0x40, 0, IVRS_BDF(0, 0, 2), 0xfeba0000, 1, 0);
  dev4(b, 0x01, 0, 0); /* all devices of segment 1 */
  dev4(b, 0xf0, IVRS_BDF(0, 0x14, 5), 0x40);
  put_id8(b, "AMDI0020");
  put_id8(b, "PNP05");
  put(b, 2, 1); /* UID is a string */
  put(b, 3, 1);
  put(b, 'I' | 'D' << 8 | '2' << 16, 3);
  dev4(b, 0xf0, IVRS_BDF(0, 0x14, 6), 0);
  put_id8(b, "AMDI0021");
  put_id8(b, "");
  put(b, 1, 1); /* UID is an integer */
  put(b, 2, 1);
  put(b, 0x1234, 2);
  block_end(b);
  ivmd(b, 0x21, IVMD_FLAG_UNITY | IVMD_FLAG_IR | IVMD_FLAG_IW, IVRS_BDF(0, 9, 0), 0, 0x000c0000,
       0x20000);
  ivmd(b, 0x22, IVMD_FLAG_UNITY | IVMD_FLAG_IR, IVRS_BDF(0, 1, 0), IVRS_BDF(0, 2, 7), 0x7f000000,
       0x1000);
  ivmd(b, 0x20, IVMD_FLAG_EXCL, 0, 0, 0x80000000, 0x100000);
  return ivrs_end(b);
}

TEST(iommu_ivrs_every_entry_kind) {
  static struct ivrs_builder b;
  size_t len = build_full_table(&b);
  ASSERT_EQ(ivrs_parse(b.buf, len, &info), 0);
  ASSERT_EQ(info.iommu_count, 3);
  ASSERT_EQ(info.skipped_blocks, 1); /* the 10h copy of IOMMU A */

  const struct ivrs_iommu *a = &info.iommus[0];
  ASSERT_EQ(a->ivhd_type, 0x11);
  ASSERT_EQ_U(a->efr_image, 0xc0000d6full);
  ASSERT_EQ(a->flags, 0x03);
  /* The select entry refines the range: its own DTE setting wins. */
  const struct ivrs_devices *r = ivrs_run_for(a, IVRS_BDF(0, 1, 3));
  ASSERT_EQ(r->first, IVRS_BDF(0, 1, 3));
  ASSERT_EQ(r->dte_setting, 0xc7);
  r = ivrs_run_for(a, IVRS_BDF(0, 5, 0));
  ASSERT_EQ(r->first, IVRS_BDF(0, 1, 0));
  ASSERT_EQ(r->last, IVRS_BDF(0, 7, 7));
  ASSERT_EQ(r->dte_setting, 0);
  ASSERT_EQ(ivrs_requester_id(a, IVRS_BDF(0, 8, 0)), IVRS_BDF(0, 8, 1));
  ASSERT_EQ(ivrs_requester_id(a, IVRS_BDF(3, 0x10, 4)), IVRS_BDF(0, 8, 2));
  r = ivrs_run_for(a, IVRS_BDF(0, 9, 0));
  ASSERT_EQ_U(r->ext_setting, 0x80000000u);
  ASSERT_EQ(r->dte_setting, 0x10);
  r = ivrs_run_for(a, IVRS_BDF(4, 0, 3));
  ASSERT_EQ(r->ext_setting, 1);
  ASSERT_EQ(r->entry_type, 0x47);
  ASSERT_EQ(a->special_count, 2);
  ASSERT_EQ(a->specials[0].kind, IVRS_SPECIAL_IOAPIC);
  ASSERT_EQ(a->specials[0].handle, 33);
  ASSERT_EQ(a->specials[0].devid, IVRS_BDF(0, 0x14, 0));
  ASSERT_EQ(a->specials[0].dte_setting, 0xd7);
  ASSERT_EQ(a->specials[1].kind, IVRS_SPECIAL_HPET);
  ASSERT_EQ(a->last_devid, IVRS_BDF(4, 0, 7));

  const struct ivrs_iommu *bm = &info.iommus[1];
  ASSERT_TRUE(ivrs_iommu_for(&info, 0, IVRS_BDF(0x50, 3, 1)) == bm);
  ASSERT_TRUE(ivrs_iommu_for(&info, 0, IVRS_BDF(3, 3, 1)) == a);

  const struct ivrs_iommu *c = &info.iommus[2];
  ASSERT_EQ(c->ivhd_type, 0x40);
  ASSERT_EQ(c->segment, 1);
  ASSERT_EQ(c->last_devid, 0xffff);
  ASSERT_TRUE(ivrs_iommu_for(&info, 1, IVRS_BDF(0x22, 0, 0)) == c);
  ASSERT_EQ(c->acpi_count, 2);
  ASSERT_STR_EQ(c->acpi_devices[0].hid, "AMDI0020");
  ASSERT_STR_EQ(c->acpi_devices[0].cid, "PNP05");
  ASSERT_STR_EQ(c->acpi_devices[0].uid, "ID2");
  ASSERT_EQ(c->acpi_devices[0].devid, IVRS_BDF(0, 0x14, 5));
  ASSERT_STR_EQ(c->acpi_devices[1].hid, "AMDI0021");
  ASSERT_STR_EQ(c->acpi_devices[1].cid, "");
  ASSERT_STR_EQ(c->acpi_devices[1].uid, "4660");

  ASSERT_EQ(info.ivmd_count, 3);
  ASSERT_EQ(info.ivmds[0].scope, IVMD_ONE);
  ASSERT_EQ(info.ivmds[0].first, IVRS_BDF(0, 9, 0));
  ASSERT_EQ(info.ivmds[0].last, IVRS_BDF(0, 9, 0));
  ASSERT_EQ_U(info.ivmds[0].start, 0xc0000);
  ASSERT_EQ_U(info.ivmds[0].length, 0x20000);
  ASSERT_TRUE(ivrs_ivmd_applies(&info.ivmds[1], 0, IVRS_BDF(0, 2, 7)));
  ASSERT_FALSE(ivrs_ivmd_applies(&info.ivmds[1], 0, IVRS_BDF(0, 3, 0)));
  ASSERT_FALSE(ivrs_ivmd_applies(&info.ivmds[1], 1, IVRS_BDF(0, 2, 0)));
  ASSERT_TRUE(ivrs_ivmd_applies(&info.ivmds[2], 0, 0xffff));
  ivrs_log(&info);
}

/* ---- Malformed tables ------------------------------------------------------ */

static void expect_rejected(const void *t, size_t len, const char *why) {
  ASSERT_EQ(ivrs_parse(t, len, &info), -EINVAL);
  if (!strstr(info.error, why))
    FAIL("error \"%s\" does not say \"%s\"", info.error, why);
}

TEST(iommu_ivrs_rejects_bad_lengths) {
  static struct ivrs_builder b;
  size_t len = build_full_table(&b);
  expect_rejected(b.buf, 40, "shorter than the 48-byte IVRS header");
  expect_rejected(b.buf, len - 1, "does not fit");
  /* A block longer than what is left of the table. */
  static struct ivrs_builder c;
  c = b;
  c.buf[48 + 2] = 0xff;
  c.buf[48 + 3] = 0x0f;
  expect_rejected(c.buf, len, "has length 4095");
  /* A block of length 0 would loop forever. */
  c = b;
  c.buf[48 + 2] = 0;
  c.buf[48 + 3] = 0;
  expect_rejected(c.buf, len, "has length 0");
  /* An IVHD 11h shorter than its 40-byte header. */
  ivrs_begin(&c, 0);
  ivhd_begin(&c, 0x11, 0, 2, 0xfeb80000, 0, 0);
  c.len -= 16;
  block_end(&c);
  len = ivrs_end(&c);
  expect_rejected(c.buf, len, "shorter than its 40-byte header");
  /* A device entry cut off by the end of its block. */
  ivrs_begin(&c, 0);
  ivhd_begin(&c, 0x10, 0, 2, 0xfeb80000, 0, 0);
  dev8(&c, 0x42, 0x10, 0, 0x11 << 8);
  c.len -= 4;
  block_end(&c);
  len = ivrs_end(&c);
  expect_rejected(c.buf, len, "needs 8 bytes, the block has 4 left");
  /* An IVMD shorter than 32 bytes. */
  ivrs_begin(&c, 0);
  ivhd_begin(&c, 0x10, 0, 2, 0xfeb80000, 0, 0);
  dev4(&c, 0x01, 0, 0);
  block_end(&c);
  c.block = c.len;
  ivmd(&c, 0x21, 1, 0, 0, 0x1000, 0x1000);
  c.len -= 8;
  block_end(&c);
  len = ivrs_end(&c);
  expect_rejected(c.buf, len, "(32 expected)");
}

TEST(iommu_ivrs_handles_unknown_entry_types) {
  static struct ivrs_builder b;
  /* Reserved fixed-size types (their size is in bits 7:6) and unknown block
   * types are skipped with a warning; the rest still parses. */
  ivrs_begin(&b, 0);
  ivhd_begin(&b, 0x10, 0, 2, 0xfeb80000, 0, 0);
  dev4(&b, 0x05, 0x100, 0);    /* reserved 4-byte type */
  dev8(&b, 0x49, 0x100, 0, 0); /* reserved 8-byte type */
  dev4(&b, 0x02, 0x18, 0);
  dev8(&b, 0x48, 0, 0, 0x07000000u | (0xa0 << 8)); /* special of an unknown variety */
  block_end(&b);
  b.block = b.len;
  put(&b, 0x30, 1); /* a block type from a newer revision */
  put(&b, 0, 1);
  put(&b, 8, 2);
  put(&b, 0, 4);
  size_t len = ivrs_end(&b);
  ASSERT_EQ(ivrs_parse(b.buf, len, &info), 0);
  ASSERT_EQ(info.iommus[0].run_count, 1);
  ASSERT_EQ(info.iommus[0].runs[0].first, 0x18);
  ASSERT_EQ(info.iommus[0].unknown_entries, 3);
  ASSERT_EQ(info.iommus[0].special_count, 0);
  ASSERT_EQ(info.skipped_blocks, 1);

  /* An unknown variable-length type: nothing after it can be found. */
  ivrs_begin(&b, 0);
  ivhd_begin(&b, 0x40, 0, 2, 0xfeb80000, 0, 0);
  dev8(&b, 0x85, 0x100, 0, 0);
  block_end(&b);
  len = ivrs_end(&b);
  expect_rejected(b.buf, len, "unknown variable-length device entry type 85h");

  /* An ACPI device entry in a type 10h block is skipped (Linux does too). */
  ivrs_begin(&b, 0);
  ivhd_begin(&b, 0x10, 0, 2, 0xfeb80000, 0, 0);
  dev4(&b, 0xf0, 0xa5, 0);
  put(&b, 0x4141414141414141ull, 8);
  put(&b, 0, 8);
  put(&b, 0, 2);
  dev4(&b, 0x02, 0x18, 0);
  block_end(&b);
  len = ivrs_end(&b);
  ASSERT_EQ(ivrs_parse(b.buf, len, &info), 0);
  ASSERT_EQ(info.iommus[0].acpi_count, 0);
  ASSERT_EQ(info.iommus[0].run_count, 1);

  /* An ACPI device entry with an unknown UID format. */
  ivrs_begin(&b, 0);
  ivhd_begin(&b, 0x40, 0, 2, 0xfeb80000, 0, 0);
  dev4(&b, 0xf0, 0xa5, 0);
  put(&b, 0x4141414141414141ull, 8);
  put(&b, 0, 8);
  put(&b, 7, 1);
  put(&b, 0, 1);
  block_end(&b);
  len = ivrs_end(&b);
  expect_rejected(b.buf, len, "UID format 7");

  /* No IVHD at all. */
  ivrs_begin(&b, 0);
  len = ivrs_end(&b);
  expect_rejected(b.buf, len, "no IVHD block");
  memcpy(b.buf, "DMAR", 4);
  expect_rejected(b.buf, len, "not \"IVRS\"");
}

TEST(iommu_ivrs_rejects_broken_ranges) {
  static struct ivrs_builder b;
  ivrs_begin(&b, 0);
  ivhd_begin(&b, 0x10, 0, 2, 0xfeb80000, 0, 0);
  dev4(&b, 0x04, 0x20, 0);
  block_end(&b);
  size_t len = ivrs_end(&b);
  expect_rejected(b.buf, len, "without a range start");

  ivrs_begin(&b, 0);
  ivhd_begin(&b, 0x10, 0, 2, 0xfeb80000, 0, 0);
  dev4(&b, 0x03, 0x20, 0);
  block_end(&b);
  len = ivrs_end(&b);
  expect_rejected(b.buf, len, "has no range end entry");

  ivrs_begin(&b, 0);
  ivhd_begin(&b, 0x10, 0, 2, 0xfeb80000, 0, 0);
  dev4(&b, 0x03, 0x20, 0);
  dev8(&b, 0x43, 0x30, 0, 0x10 << 8);
  block_end(&b);
  len = ivrs_end(&b);
  expect_rejected(b.buf, len, "is still open");

  ivrs_begin(&b, 0);
  ivhd_begin(&b, 0x10, 0, 2, 0xfeb80000, 0, 0);
  dev4(&b, 0x03, 0x20, 0);
  dev4(&b, 0x04, 0x10, 0);
  block_end(&b);
  len = ivrs_end(&b);
  expect_rejected(b.buf, len, "is below its start");

  /* Crossing ranges in one IOMMU. */
  ivrs_begin(&b, 0);
  ivhd_begin(&b, 0x10, 0, 2, 0xfeb80000, 0, 0);
  dev4(&b, 0x03, 0x100, 0);
  dev4(&b, 0x04, 0x1ff, 0);
  dev4(&b, 0x03, 0x180, 0);
  dev4(&b, 0x04, 0x2ff, 0);
  block_end(&b);
  len = ivrs_end(&b);
  expect_rejected(b.buf, len, "0100h..01ffh and 0180h..02ffh overlap");

  /* A device claimed by two IOMMUs of the same segment. */
  ivrs_begin(&b, 0);
  ivhd_begin(&b, 0x10, 0, 2, 0xfeb80000, 0, 0);
  dev4(&b, 0x03, 0x100, 0);
  dev4(&b, 0x04, 0x1ff, 0);
  block_end(&b);
  ivhd_begin(&b, 0x10, 0, 0x4002, 0xfeb90000, 0, 0);
  dev4(&b, 0x02, 0x118, 0);
  block_end(&b);
  len = ivrs_end(&b);
  expect_rejected(b.buf, len, "device 0000:01:03.0 is claimed by IOMMU 0002h and by IOMMU 4002h");

  /* The same devices on another segment are fine. */
  b.buf[b.block + 16] = 1;
  len = ivrs_end(&b);
  ASSERT_EQ(ivrs_parse(b.buf, len, &info), 0);
  ASSERT_EQ(info.iommu_count, 2);

  /* An IOMMU whose MMIO base is not 16 KiB aligned. */
  ivrs_begin(&b, 0);
  ivhd_begin(&b, 0x10, 0, 2, 0xfeb81000, 0, 0);
  block_end(&b);
  len = ivrs_end(&b);
  expect_rejected(b.buf, len, "MMIO base 0xfeb81000");
}

TEST(iommu_ivrs_rejects_conflicting_ivmd) {
  static struct ivrs_builder b;
  ivrs_begin(&b, 0);
  ivhd_begin(&b, 0x10, 0, 2, 0xfeb80000, 0, 0);
  dev4(&b, 0x01, 0, 0);
  block_end(&b);
  ivmd(&b, 0x21, IVMD_FLAG_UNITY | IVMD_FLAG_IR, 0x18, 0, 0x100000, 0x4000);
  ivmd(&b, 0x22, IVMD_FLAG_UNITY | IVMD_FLAG_IR, 0x10, 0x1f, 0x102000, 0x4000);
  size_t len = ivrs_end(&b);
  /* Same permissions: overlapping is harmless. */
  ASSERT_EQ(ivrs_parse(b.buf, len, &info), 0);
  ASSERT_EQ(info.ivmd_count, 2);
  /* Different permissions for the same device and memory: rejected. */
  b.buf[b.len - 32 + 1] |= IVMD_FLAG_IW;
  len = ivrs_end(&b);
  expect_rejected(b.buf, len, "overlap for the same devices with different permissions");
  /* Not the same devices: fine. */
  b.buf[b.len - 32 + 4] = 0x20;
  b.buf[b.len - 32 + 6] = 0x2f;
  len = ivrs_end(&b);
  ASSERT_EQ(ivrs_parse(b.buf, len, &info), 0);
  /* Empty and wrapping memory ranges. */
  ivrs_begin(&b, 0);
  ivhd_begin(&b, 0x10, 0, 2, 0xfeb80000, 0, 0);
  block_end(&b);
  ivmd(&b, 0x20, IVMD_FLAG_UNITY, 0, 0, 0x1000, 0);
  len = ivrs_end(&b);
  expect_rejected(b.buf, len, "is empty or wraps");
  ivrs_begin(&b, 0);
  ivhd_begin(&b, 0x10, 0, 2, 0xfeb80000, 0, 0);
  block_end(&b);
  ivmd(&b, 0x20, IVMD_FLAG_UNITY, 0, 0, 0xfffffffffffff000ull, 0x2000);
  len = ivrs_end(&b);
  expect_rejected(b.buf, len, "is empty or wraps");
  ivrs_begin(&b, 0);
  ivhd_begin(&b, 0x10, 0, 2, 0xfeb80000, 0, 0);
  block_end(&b);
  ivmd(&b, 0x22, IVMD_FLAG_UNITY, 0x30, 0x20, 0x1000, 0x1000);
  len = ivrs_end(&b);
  expect_rejected(b.buf, len, "ends below its start");
}

/* Truncating a valid table anywhere, or flipping any byte, gives an answer
 * (0 or -EINVAL), never a crash or an endless loop (ASan watches). */
TEST(iommu_ivrs_survives_truncation_and_corruption) {
  static struct ivrs_builder b, c;
  size_t len = build_full_table(&b);
  for (size_t cut = 0; cut <= len; cut++) {
    c = b;
    c.buf[4] = (uint8_t)cut;
    c.buf[5] = (uint8_t)(cut >> 8);
    int rc = ivrs_parse(c.buf, cut, &info);
    ASSERT_TRUE(rc == 0 || rc == -EINVAL);
  }
  for (size_t i = 36; i < len; i++)
    for (int bit = 0; bit < 8; bit++) {
      c = b;
      c.buf[i] ^= (uint8_t)(1u << bit);
      int rc = ivrs_parse(c.buf, len, &info);
      ASSERT_TRUE(rc == 0 || rc == -EINVAL);
    }
}
