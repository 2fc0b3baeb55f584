/*
 * amd_iommu_regs.h - the AMD IOMMU's hardware formats: MMIO registers,
 * device table entry, I/O page table entries, commands and event log entries.
 *
 * Sources (facts only, our own names):
 *   [SPEC]  AMD I/O Virtualization Technology (IOMMU) Specification, 48882
 *           rev 3.x: 2.2.2 "Device Table Entry Format", 2.2.3 "I/O Page
 *           Tables for Host Translations", 2.4 "Commands", 2.5 "Event
 *           Logging", 3.4 "IOMMU MMIO Registers".
 *   [LINUX] drivers/iommu/amd/amd_iommu_types.h (MMIO_*, CONTROL_*, CMD_*,
 *           EVENT_*, DTE_*, IOMMU_PTE_*, FEATURE_*).
 *   [QEMU]  hw/i386/amd_iommu.h (AMDVI_MMIO_*, AMDVI_DTE_*_RESERVED: what
 *           QEMU's model checks).
 *   [BSD]   FreeBSD sys/x86/iommu/amd_reg.h (event entry bit fields).
 */
#ifndef DRIVERS_IOMMU_AMD_IOMMU_REGS_H
#define DRIVERS_IOMMU_AMD_IOMMU_REGS_H

#include <stdint.h>

/* ---- MMIO registers [SPEC 3.4], [LINUX] MMIO_*_OFFSET ------------------- */
#define IOMMU_MMIO_DEV_TABLE_BASE 0x0000 /* base | size in 4 KiB pages - 1 (bits 8:0) */
#define IOMMU_MMIO_CMD_BUF_BASE   0x0008 /* base | log2(entries) in bits 59:56 */
#define IOMMU_MMIO_EVENT_LOG_BASE 0x0010 /* base | log2(entries) in bits 59:56 */
#define IOMMU_MMIO_CONTROL        0x0018
#define IOMMU_MMIO_EXCL_BASE      0x0020
#define IOMMU_MMIO_EXCL_LIMIT     0x0028
#define IOMMU_MMIO_EXT_FEATURES   0x0030
#define IOMMU_MMIO_CMD_HEAD       0x2000 /* byte offset into the ring, bits 18:4 */
#define IOMMU_MMIO_CMD_TAIL       0x2008
#define IOMMU_MMIO_EVENT_HEAD     0x2010
#define IOMMU_MMIO_EVENT_TAIL     0x2018
#define IOMMU_MMIO_STATUS         0x2020
/* The register window without performance counters: [LINUX] init.c maps
 * MMIO_CNTR_CONF_OFFSET (16 KiB) unless EFR.PC, and [QEMU] AMDVI_MMIO_SIZE
 * is 0x4000. */
#define IOMMU_MMIO_SIZE 0x4000

#define IOMMU_RING_PTR_MASK 0x7fff0ull            /* head/tail pointer bits 18:4 [SPEC 3.4] */
#define IOMMU_ADDR_MASK     0x000ffffffffff000ull /* physical address bits 51:12 */
#define IOMMU_RING_LEN_SHIFT \
  56 /* ComLen / EventLen field [SPEC 3.4], [LINUX] MMIO_CMD_SIZE_SHIFT */

/* Control register bits [SPEC 3.4 "IOMMU Control Register"], [LINUX] CONTROL_*. */
#define IOMMU_CTRL_IOMMU_EN          (1ull << 0)
#define IOMMU_CTRL_HT_TUN_EN         (1ull << 1)
#define IOMMU_CTRL_EVENT_LOG_EN      (1ull << 2)
#define IOMMU_CTRL_EVENT_INT_EN      (1ull << 3)
#define IOMMU_CTRL_COMWAIT_INT_EN    (1ull << 4)
#define IOMMU_CTRL_INV_TIMEOUT_SHIFT 5 /* 3 bits; 4 = 1 s, as Linux sets it */
#define IOMMU_CTRL_INV_TIMEOUT_MASK  (7ull << 5)
#define IOMMU_CTRL_INV_TIMEOUT_1S    4ull
#define IOMMU_CTRL_PASS_PW           (1ull << 8)
#define IOMMU_CTRL_RES_PASS_PW       (1ull << 9)
#define IOMMU_CTRL_COHERENT          (1ull << 10)
#define IOMMU_CTRL_ISOC              (1ull << 11)
#define IOMMU_CTRL_CMD_BUF_EN        (1ull << 12)
#define IOMMU_CTRL_PPR_LOG_EN        (1ull << 13)
#define IOMMU_CTRL_PPR_INT_EN        (1ull << 14)
#define IOMMU_CTRL_PPR_EN            (1ull << 15)
#define IOMMU_CTRL_GT_EN             (1ull << 16)
#define IOMMU_CTRL_GA_EN             (1ull << 17)

/* Status register bits [SPEC 3.4 "IOMMU Status Register"], [LINUX]
 * MMIO_STATUS_*; the interrupt and overflow bits are write-1-to-clear. */
#define IOMMU_STATUS_EVENT_OVERFLOW (1u << 0)
#define IOMMU_STATUS_EVENT_INT      (1u << 1)
#define IOMMU_STATUS_COMWAIT_INT    (1u << 2)
#define IOMMU_STATUS_EVENT_RUN      (1u << 3)
#define IOMMU_STATUS_CMD_BUF_RUN    (1u << 4) /* [QEMU] AMDVI_MMIO_STATUS_CMDBUF_RUN */

/* Extended Feature Register bits [SPEC 3.4 "Extended Feature Register"],
 * [LINUX] FEATURE_*. */
#define IOMMU_EFR_PREF_SUP (1ull << 0)
#define IOMMU_EFR_PPR_SUP  (1ull << 1)
#define IOMMU_EFR_XT_SUP   (1ull << 2)
#define IOMMU_EFR_NX_SUP   (1ull << 3)
#define IOMMU_EFR_GT_SUP   (1ull << 4)
#define IOMMU_EFR_IA_SUP   (1ull << 6) /* INVALIDATE_IOMMU_ALL is implemented */
#define IOMMU_EFR_GA_SUP   (1ull << 7)
#define IOMMU_EFR_HE_SUP   (1ull << 8)
#define IOMMU_EFR_PC_SUP   (1ull << 9)
#define IOMMU_EFR_HATS_SHIFT \
  10 /* 2 bits: host translation levels, 0 = 4, 1 = 5, 2 = 6, 3 reserved */
#define IOMMU_EFR_HATS_MASK 3ull

/* PCI capability header of the IOMMU function (Secure Device capability,
 * ID 0Fh) [SPEC 3.3 "IOMMU Capability Header"], [LINUX] IOMMU_CAP_*. */
#define IOMMU_CAP_IOTLB_SUP (1u << 24)
#define IOMMU_CAP_NP_CACHE  (1u << 26) /* caches not-present entries: flush after map */
#define IOMMU_CAP_EFR_SUP   (1u << 27)

/* ---- Device table entry, 256 bits [SPEC 2.2.2.1], [LINUX] DTE_FLAG_* ---- */
#define DTE_SIZE        32
#define DTE_MAX_ENTRIES 65536 /* a 16-bit device ID */

/* Quadword 0 */
#define DTE0_V          (1ull << 0) /* entry valid */
#define DTE0_TV         (1ull << 1) /* translation information valid */
#define DTE0_MODE_SHIFT 9           /* 3 bits: page-table levels, 0 = no translation */
#define DTE0_MODE_MASK  (7ull << 9)
#define DTE0_IR         (1ull << 61) /* reads allowed */
#define DTE0_IW         (1ull << 62) /* writes allowed */
/* Quadword 1 */
#define DTE1_DOMAIN_MASK  0xffffull /* bits 79:64 */
#define DTE1_SYSMGT_SHIFT 40        /* bits 105:104 */
#define DTE1_SYSMGT_MASK  (3ull << 40)
/* Quadword 2: interrupt pass-through bits [SPEC 2.2.2.1], [LINUX]
 * DEV_ENTRY_INIT_PASS (0xb8) ... DEV_ENTRY_LINT1_PASS (0xbf). */
#define DTE2_INIT_PASS  (1ull << 56)
#define DTE2_EINT_PASS  (1ull << 57)
#define DTE2_NMI_PASS   (1ull << 58)
#define DTE2_LINT0_PASS (1ull << 62)
#define DTE2_LINT1_PASS (1ull << 63)

/* Bits QEMU 7.2's model rejects as reserved ([QEMU] AMDVI_DTE_LOWER_QUAD_
 * RESERVED, _MIDDLE_, _UPPER_; quadword 3 must be zero): a DTE with one of
 * them set is an ILLEGAL_DEV_TABLE_ENTRY there. Bit 72 is DomainID bit 8 in
 * the specification, which is why domain IDs avoid it (domain.c). */
#define DTE0_QEMU_RESERVED 0x80300000000000fcull
#define DTE1_QEMU_RESERVED 0x0000000000000100ull
#define DTE2_QEMU_RESERVED 0x08f0000000000000ull

/* ---- I/O page table entries [SPEC 2.2.3], [LINUX] IOMMU_PTE_* ----------- */
#define IOPTE_PR         (1ull << 0) /* present */
#define IOPTE_NEXT_SHIFT 9           /* 3 bits: level of the table pointed to; 0 = leaf */
#define IOPTE_NEXT_MASK  (7ull << 9)
#define IOPTE_FC         (1ull << 60) /* force coherent: Linux sets it on leaves */
#define IOPTE_IR         (1ull << 61)
#define IOPTE_IW         (1ull << 62)
#define IOPTE_ENTRIES    512
#define IOPT_MAX_LEVELS  6 /* DTE Mode 1..6 */

/* ---- Commands, 128 bits [SPEC 2.4], [LINUX] CMD_* ------------------------
 * The opcode is in bits 63:60 of the first quadword. */
#define CMD_SIZE             16
#define CMD_OPCODE_SHIFT     60
#define CMD_COMPLETION_WAIT  0x1
#define CMD_INV_DEVTAB_ENTRY 0x2
#define CMD_INV_IOMMU_PAGES  0x3
#define CMD_INV_IOTLB_PAGES  0x4
#define CMD_INV_INTR_TABLE   0x5
#define CMD_INV_IOMMU_ALL    0x8
/* COMPLETION_WAIT: s = store the data at the address, i = interrupt. */
#define CMD_COMPL_WAIT_STORE (1ull << 0)
#define CMD_COMPL_WAIT_INT   (1ull << 1)
/* INVALIDATE_IOMMU_PAGES: S = the address encodes a range, PDE = also
 * cached directory entries. All pages: this address with S = 1. */
#define CMD_INV_PAGES_S           (1ull << 0)
#define CMD_INV_PAGES_PDE         (1ull << 1)
#define CMD_INV_PAGES_ALL_ADDRESS 0x7ffffffffffff000ull

/* ---- Event log entries, 128 bits [SPEC 2.5], [LINUX] EVENT_*, [BSD] ----- */
#define EVENT_SIZE        16
#define EVENT_CODE_SHIFT  28 /* in dword 1 */
#define EVENT_FLAGS_SHIFT 16 /* 12 bits in dword 1 */
enum iommu_event_code {
  EVENT_ILLEGAL_DEV_TABLE_ENTRY = 0x1,
  EVENT_IO_PAGE_FAULT = 0x2,
  EVENT_DEV_TAB_HARDWARE_ERROR = 0x3,
  EVENT_PAGE_TAB_HARDWARE_ERROR = 0x4,
  EVENT_ILLEGAL_COMMAND_ERROR = 0x5,
  EVENT_COMMAND_HARDWARE_ERROR = 0x6,
  EVENT_IOTLB_INV_TIMEOUT = 0x7,
  EVENT_INVALID_DEVICE_REQUEST = 0x8,
  EVENT_INVALID_PPR_REQUEST = 0x9,
  EVENT_COUNTER_ZERO = 0xa,
};
/* Flags of IO_PAGE_FAULT (and the subset the other events use), bit n of the
 * 12-bit field = bit 48+n of the entry: [BSD] amdiommu_event_io_page_fault_
 * entry, [LINUX] EVENT_FLAG_RW / EVENT_FLAG_I. */
#define EVENT_FLAG_GN (1u << 0) /* guest (PASID) request */
#define EVENT_FLAG_NX (1u << 1) /* execute requested */
#define EVENT_FLAG_US (1u << 2) /* user-mode request */
#define EVENT_FLAG_I  (1u << 3) /* interrupt request, not memory */
#define EVENT_FLAG_PR (1u << 4) /* the page was present (permission fault) */
#define EVENT_FLAG_RW (1u << 5) /* write */
#define EVENT_FLAG_PE (1u << 6) /* permission denied */
#define EVENT_FLAG_RZ (1u << 7) /* reserved bit not zero in a table entry */
#define EVENT_FLAG_TR (1u << 8) /* translation request (ATS) */

#endif
