/*
 * acpi_fadt.c - the Fixed ACPI Description Table, and \_S5 from the DSDT
 * (portable).
 *
 * Sources: ACPI Specification 6.5, 5.2.9 (FADT, Table 5.9, flags Table 5.10,
 * boot architecture flags Table 5.11); 20.2 (AML grammar: NameOp 0x08,
 * PackageOp 0x12, PkgLength 20.2.4, BytePrefix 0x0A, WordPrefix 0x0B,
 * DWordPrefix 0x0C, ZeroOp 0x00, OneOp 0x01); 7.4.2 (\_S5 package:
 * SLP_TYPa, SLP_TYPb).
 */
#define LOG_TAG "acpi"
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "kernel/acpi.h"
#include "lib/plat.h"

/* Table 5.9, byte offsets in comments. Revision 1 tables end at `flags`
 * (116 bytes); each later field is read only if the table is long enough. */
struct fadt_layout {
  struct acpi_header header;
  uint32_t firmware_ctrl;       /* 36 */
  uint32_t dsdt;                /* 40 */
  uint8_t reserved0;            /* 44 */
  uint8_t preferred_pm_profile; /* 45 */
  uint16_t sci_int;             /* 46 */
  uint32_t smi_cmd;             /* 48 */
  uint8_t acpi_enable;          /* 52 */
  uint8_t acpi_disable;         /* 53 */
  uint8_t s4bios_req;           /* 54 */
  uint8_t pstate_cnt;           /* 55 */
  uint32_t pm1a_evt_blk;        /* 56 */
  uint32_t pm1b_evt_blk;        /* 60 */
  uint32_t pm1a_cnt_blk;        /* 64 */
  uint32_t pm1b_cnt_blk;        /* 68 */
  uint32_t pm2_cnt_blk;         /* 72 */
  uint32_t pm_tmr_blk;          /* 76 */
  uint32_t gpe0_blk;            /* 80 */
  uint32_t gpe1_blk;            /* 84 */
  uint8_t pm1_evt_len;          /* 88 */
  uint8_t pm1_cnt_len;          /* 89 */
  uint8_t pm2_cnt_len;          /* 90 */
  uint8_t pm_tmr_len;           /* 91 */
  uint8_t gpe0_blk_len;         /* 92 */
  uint8_t gpe1_blk_len;         /* 93 */
  uint8_t gpe1_base;            /* 94 */
  uint8_t cst_cnt;              /* 95 */
  uint16_t p_lvl2_lat;          /* 96 */
  uint16_t p_lvl3_lat;          /* 98 */
  uint16_t flush_size;          /* 100 */
  uint16_t flush_stride;        /* 102 */
  uint8_t duty_offset;          /* 104 */
  uint8_t duty_width;           /* 105 */
  uint8_t day_alrm;             /* 106 */
  uint8_t mon_alrm;             /* 107 */
  uint8_t century;              /* 108 */
  uint16_t iapc_boot_arch;      /* 109 */
  uint8_t reserved1;            /* 111 */
  uint32_t flags;               /* 112 */
  struct acpi_gas reset_reg;    /* 116 */
  uint8_t reset_value;          /* 128 */
  uint16_t arm_boot_arch;       /* 129 */
  uint8_t minor_version;        /* 131 */
  uint64_t x_firmware_ctrl;     /* 132 */
  uint64_t x_dsdt;              /* 140 */
  struct acpi_gas x_pm1a_evt_blk; /* 148 */
  struct acpi_gas x_pm1b_evt_blk; /* 160 */
  struct acpi_gas x_pm1a_cnt_blk; /* 172 */
  struct acpi_gas x_pm1b_cnt_blk; /* 184 */
  struct acpi_gas x_pm2_cnt_blk;  /* 196 */
  struct acpi_gas x_pm_tmr_blk;   /* 208 */
} __attribute__((packed));

#define FADT_HAS(len, field) \
  ((len) >= offsetof(struct fadt_layout, field) + sizeof(((struct fadt_layout *)0)->field))

/* A register block: the 64-bit GAS form when the table has it and it is set,
 * else the legacy I/O port block of `len` bytes. */
static struct acpi_gas pick_block(bool has_x, const struct acpi_gas *x, uint32_t port,
                                  uint8_t len) {
  if (has_x && x->address != 0) return *x;
  struct acpi_gas g = {0};
  if (port != 0) {
    g.space_id = ACPI_SPACE_IO;
    g.bit_width = (uint8_t)(len * 8);
    g.address = port;
  }
  return g;
}

int acpi_parse_fadt(const struct acpi_header *t, struct acpi_fadt *out) {
  memset(out, 0, sizeof(*out));
  uint32_t len = t->length;
  if (!FADT_HAS(len, flags)) {
    log_warn("FADT: length %u shorter than the ACPI 1.0 layout (116)", len);
    return -EINVAL;
  }
  const struct fadt_layout *f = (const void *)t;
  out->revision = t->revision;
  out->flags = f->flags;
  out->boot_arch = f->iapc_boot_arch; /* reserved (0) before revision 3 */
  out->sci_irq = f->sci_int;
  out->smi_cmd = f->smi_cmd;
  out->acpi_enable = f->acpi_enable;
  out->acpi_disable = f->acpi_disable;
  out->century = f->century;
  out->dsdt = FADT_HAS(len, x_dsdt) && f->x_dsdt ? f->x_dsdt : f->dsdt;
  out->facs = FADT_HAS(len, x_firmware_ctrl) && f->x_firmware_ctrl ? f->x_firmware_ctrl
                                                                     : f->firmware_ctrl;
  out->pm1a_event = pick_block(FADT_HAS(len, x_pm1a_evt_blk), &f->x_pm1a_evt_blk,
                               f->pm1a_evt_blk, f->pm1_evt_len);
  out->pm1b_event = pick_block(FADT_HAS(len, x_pm1b_evt_blk), &f->x_pm1b_evt_blk,
                               f->pm1b_evt_blk, f->pm1_evt_len);
  out->pm1a_control = pick_block(FADT_HAS(len, x_pm1a_cnt_blk), &f->x_pm1a_cnt_blk,
                                 f->pm1a_cnt_blk, f->pm1_cnt_len);
  out->pm1b_control = pick_block(FADT_HAS(len, x_pm1b_cnt_blk), &f->x_pm1b_cnt_blk,
                                 f->pm1b_cnt_blk, f->pm1_cnt_len);
  /* 4.8.3.3: the PM timer block is 4 bytes; a PM_TMR_LEN other than 4
   * means there is no PM timer. */
  out->pm_timer = pick_block(FADT_HAS(len, x_pm_tmr_blk), &f->x_pm_tmr_blk, f->pm_tmr_blk,
                             f->pm_tmr_len);
  if (f->pm_tmr_len != 4) {
    if (out->pm_timer.address)
      log_warn("FADT: PM_TMR_LEN %u (must be 4), PM timer not used", f->pm_tmr_len);
    out->pm_timer = (struct acpi_gas){0};
  }
  out->pm_timer_32bit = f->flags & ACPI_FADT_TMR_VAL_EXT;
  if (FADT_HAS(len, reset_value) && (f->flags & ACPI_FADT_RESET_REG_SUP)) {
    out->reset_register = f->reset_reg;
    out->reset_value = f->reset_value;
    out->reset_supported = f->reset_reg.address != 0;
  }
  if (out->dsdt == 0 && !(f->flags & ACPI_FADT_HW_REDUCED)) {
    log_warn("FADT: no DSDT address");
    return -EINVAL;
  }
  return 0;
}

/* AML PkgLength (20.2.4): bits 7:6 of the lead byte give the number of
 * bytes that follow (0-3). Returns the encoding's size, 0 if it runs off. */
static size_t pkg_length_size(const uint8_t *p, const uint8_t *end) {
  if (p >= end) return 0;
  size_t n = 1 + (p[0] >> 6);
  return (size_t)(end - p) >= n ? n : 0;
}

/* One integer element of a package: a constant object (ZeroOp, OneOp) or a
 * prefixed constant. Returns the bytes used, 0 if it is something else. */
static size_t aml_integer(const uint8_t *p, const uint8_t *end, uint32_t *value) {
  if (p >= end) return 0;
  switch (p[0]) {
  case 0x00: *value = 0; return 1; /* ZeroOp */
  case 0x01: *value = 1; return 1; /* OneOp */
  case 0x0a:                      /* BytePrefix */
    if (end - p < 2) return 0;
    *value = p[1];
    return 2;
  case 0x0b: /* WordPrefix */
    if (end - p < 3) return 0;
    *value = p[1] | (uint32_t)p[2] << 8;
    return 3;
  case 0x0c: /* DWordPrefix */
    if (end - p < 5) return 0;
    *value = p[1] | (uint32_t)p[2] << 8 | (uint32_t)p[3] << 16 | (uint32_t)p[4] << 24;
    return 5;
  default: return 0;
  }
}

/* Looks for the byte pattern of `Name(_S5_, Package(){a, b, ...})`: the
 * namespace object is declared at the root of every DSDT that supports
 * soft-off, and this is all the AML we need to interpret for it. */
bool acpi_find_s5(const struct acpi_header *t, uint8_t *slp_typ_a, uint8_t *slp_typ_b) {
  const uint8_t *aml = (const uint8_t *)(t + 1);
  const uint8_t *end = (const uint8_t *)t + t->length;
  for (const uint8_t *p = aml; end - p >= 5; p++) {
    if (memcmp(p, "_S5_", 4) != 0) continue;
    /* NameOp directly before the name, or before a root prefix '\'. */
    bool named = (p > aml && p[-1] == 0x08) || (p - aml >= 2 && p[-1] == '\\' && p[-2] == 0x08);
    if (!named || p[4] != 0x12) continue; /* PackageOp */
    const uint8_t *q = p + 5;
    size_t n = pkg_length_size(q, end);
    if (!n) return false;
    q += n;
    if (q >= end || q[0] < 2) return false; /* NumElements */
    q++;
    uint32_t a, b;
    size_t used = aml_integer(q, end, &a);
    if (!used) return false;
    if (!aml_integer(q + used, end, &b)) return false;
    /* SLP_TYPx is a 3-bit field of PM1x_CNT (4.8.3.2.1, Table 4.13). */
    *slp_typ_a = (uint8_t)(a & 7);
    *slp_typ_b = (uint8_t)(b & 7);
    return true;
  }
  return false;
}
