/*
 * iommu_fake_hw.c - the IOMMU model of iommu_fake_hw.h. Register offsets
 * and bits come from drivers/iommu/amd_iommu_regs.h (shared facts); the
 * behaviour is from the AMD IOMMU specification 48882: device table entry
 * 2.2.2, page walk 2.2.3, commands 2.4, event log 2.5, status and control
 * registers 3.4. Reserved-bit checks are the ones QEMU 7.2 makes.
 */
#include "tests/host/iommu_fake_hw.h"

#include <string.h>

#include "drivers/iommu/amd_iommu_regs.h"

#define REG(off)  f->regs[(off) / 8]
#define ADDR_MASK 0x000ffffffffff000ull

static void raise_event_interrupt(struct fake_iommu *f) {
  if ((REG(IOMMU_MMIO_CONTROL) & IOMMU_CTRL_EVENT_INT_EN) && f->interrupt)
    f->interrupt(f->interrupt_ctx);
}

void fake_iommu_log_event(struct fake_iommu *f, const uint32_t raw[4]) {
  if (!(REG(IOMMU_MMIO_CONTROL) & IOMMU_CTRL_EVENT_LOG_EN) ||
      !(REG(IOMMU_MMIO_STATUS) & IOMMU_STATUS_EVENT_RUN))
    return;
  uint64_t base = REG(IOMMU_MMIO_EVENT_LOG_BASE);
  uint32_t size = (1u << ((base >> 56) & 0xf)) * EVENT_SIZE;
  uint32_t tail = (uint32_t)REG(IOMMU_MMIO_EVENT_TAIL), next = (tail + EVENT_SIZE) % size;
  if (next == (uint32_t)REG(IOMMU_MMIO_EVENT_HEAD)) {
    /* Full: overflow, logging stops until software restarts it. */
    REG(IOMMU_MMIO_STATUS) |= IOMMU_STATUS_EVENT_OVERFLOW;
    REG(IOMMU_MMIO_STATUS) &= ~(uint64_t)IOMMU_STATUS_EVENT_RUN;
    raise_event_interrupt(f);
    return;
  }
  memcpy((uint8_t *)(uintptr_t)(base & ADDR_MASK) + tail, raw, EVENT_SIZE);
  REG(IOMMU_MMIO_EVENT_TAIL) = next;
  REG(IOMMU_MMIO_STATUS) |= IOMMU_STATUS_EVENT_INT;
  raise_event_interrupt(f);
}

static void log_simple_event(struct fake_iommu *f, unsigned code, uint16_t devid, uint16_t tag,
                             uint16_t flags, uint64_t address) {
  uint32_t raw[4] = {devid, (uint32_t)code << 28 | (uint32_t)flags << 16 | tag, (uint32_t)address,
                     (uint32_t)(address >> 32)};
  fake_iommu_log_event(f, raw);
}

/* ---- Commands ------------------------------------------------------------- */

/* The block an INVALIDATE_IOMMU_PAGES address names [48882 2.4.3]: with
 * S = 1 the first zero bit at or above bit 12 gives the size. */
static void inv_block(uint64_t q1, uint64_t *base, uint64_t *size) {
  uint64_t addr = q1 & ~0xfffull;
  if (!(q1 & CMD_INV_PAGES_S)) {
    *base = addr;
    *size = 4096;
    return;
  }
  unsigned bit = 12;
  while (bit < 64 && (addr >> bit) & 1) bit++;
  if (bit >= 63) {
    *base = 0;
    *size = 0; /* everything */
    return;
  }
  *size = 1ull << (bit + 1);
  *base = addr & ~(*size - 1);
}

static bool execute(struct fake_iommu *f, const uint64_t q[2]) {
  unsigned op = (unsigned)(q[0] >> 60);
  switch (op) {
    case CMD_COMPLETION_WAIT:
      if ((q[0] >> 52) & 0xff) return false;
      if (q[0] & CMD_COMPL_WAIT_STORE)
        *(volatile uint64_t *)(uintptr_t)(q[0] & 0x000ffffffffffff8ull) = q[1];
      if (q[0] & CMD_COMPL_WAIT_INT) REG(IOMMU_MMIO_STATUS) |= IOMMU_STATUS_COMWAIT_INT;
      break;
    case CMD_INV_DEVTAB_ENTRY:
      if ((q[0] >> 16) & ((1ull << 44) - 1) || q[1]) return false;
      for (int i = 0; i < FAKE_DTE_CACHE; i++)
        if (f->dte_cache[i].devid == (uint16_t)q[0]) f->dte_cache[i].valid = false;
      break;
    case CMD_INV_IOMMU_PAGES: {
      if ((q[0] >> 20) & 0xfff || (q[0] >> 48) & 0xfff || (q[1] >> 3) & 0x1ff) return false;
      uint16_t domain = (uint16_t)(q[0] >> 32);
      uint64_t base, size;
      inv_block(q[1], &base, &size);
      for (int i = 0; i < FAKE_TLB; i++) {
        uint64_t a = f->tlb[i].page << 12;
        if (f->tlb[i].valid && f->tlb[i].domain == domain &&
            (size == 0 || (a >= base && a - base < size)))
          f->tlb[i].valid = false;
      }
      break;
    }
    case CMD_INV_IOTLB_PAGES:
    case CMD_INV_INTR_TABLE:
      break;
    case CMD_INV_IOMMU_ALL:
      if ((q[0] & ((1ull << 60) - 1)) || q[1]) return false;
      memset(f->dte_cache, 0, sizeof f->dte_cache);
      memset(f->tlb, 0, sizeof f->tlb);
      break;
    default:
      return false;
  }
  f->executed[op]++;
  return true;
}

static void run_commands(struct fake_iommu *f) {
  if (!f->responsive || f->halted || !(REG(IOMMU_MMIO_CONTROL) & IOMMU_CTRL_CMD_BUF_EN)) return;
  uint64_t base = REG(IOMMU_MMIO_CMD_BUF_BASE);
  uint32_t size = (1u << ((base >> 56) & 0xf)) * CMD_SIZE;
  uint32_t head = (uint32_t)REG(IOMMU_MMIO_CMD_HEAD), tail = (uint32_t)REG(IOMMU_MMIO_CMD_TAIL);
  while (head != tail && head < size) {
    uint64_t addr = (base & ADDR_MASK) + head;
    const uint64_t *q = (const uint64_t *)(uintptr_t)addr;
    uint64_t cmd[2] = {q[0], q[1]};
    if (!execute(f, cmd)) {
      f->illegal_commands++;
      f->halted = true;
      REG(IOMMU_MMIO_STATUS) &= ~(uint64_t)IOMMU_STATUS_CMD_BUF_RUN;
      log_simple_event(f, EVENT_ILLEGAL_COMMAND_ERROR, 0, 0, 0, addr);
      return;
    }
    head = (head + CMD_SIZE) % size;
    REG(IOMMU_MMIO_CMD_HEAD) = head;
  }
}

/* ---- Registers ------------------------------------------------------------ */

static uint64_t fake_read(void *ctx, unsigned off) {
  struct fake_iommu *f = ctx;
  return REG(off);
}

static void fake_write(void *ctx, unsigned off, uint64_t v) {
  struct fake_iommu *f = ctx;
  switch (off) {
    case IOMMU_MMIO_EXT_FEATURES:
      return; /* read only */
    case IOMMU_MMIO_STATUS: {
      uint64_t w1c =
          IOMMU_STATUS_EVENT_OVERFLOW | IOMMU_STATUS_EVENT_INT | IOMMU_STATUS_COMWAIT_INT;
      REG(off) &= ~(v & w1c);
      return;
    }
    case IOMMU_MMIO_CONTROL: {
      uint64_t old = REG(off);
      REG(off) = v;
      if (v & IOMMU_CTRL_CMD_BUF_EN)
        REG(IOMMU_MMIO_STATUS) |= IOMMU_STATUS_CMD_BUF_RUN;
      else
        REG(IOMMU_MMIO_STATUS) &= ~(uint64_t)IOMMU_STATUS_CMD_BUF_RUN;
      if ((v & IOMMU_CTRL_EVENT_LOG_EN) && !(old & IOMMU_CTRL_EVENT_LOG_EN))
        REG(IOMMU_MMIO_STATUS) |= IOMMU_STATUS_EVENT_RUN;
      if (!(v & IOMMU_CTRL_EVENT_LOG_EN))
        REG(IOMMU_MMIO_STATUS) &= ~(uint64_t)IOMMU_STATUS_EVENT_RUN;
      if ((v & IOMMU_CTRL_CMD_BUF_EN) && !(old & IOMMU_CTRL_CMD_BUF_EN)) f->halted = false;
      return;
    }
    case IOMMU_MMIO_CMD_TAIL:
      REG(off) = v & IOMMU_RING_PTR_MASK;
      run_commands(f);
      return;
    default:
      REG(off) = v;
  }
}

const struct iommu_reg_ops fake_iommu_ops = {fake_read, fake_write};

void fake_iommu_init(struct fake_iommu *f, uint64_t efr) {
  memset(f, 0, sizeof *f);
  f->responsive = true;
  REG(IOMMU_MMIO_EXT_FEATURES) = efr;
}

/* ---- DMA ---------------------------------------------------------------------- */

static const uint64_t *fetch_dte(struct fake_iommu *f, uint16_t devid) {
  for (int i = 0; i < FAKE_DTE_CACHE; i++)
    if (f->dte_cache[i].valid && f->dte_cache[i].devid == devid) return f->dte_cache[i].q;
  const uint64_t *table = (const uint64_t *)(uintptr_t)(REG(IOMMU_MMIO_DEV_TABLE_BASE) & ADDR_MASK);
  int slot = devid % FAKE_DTE_CACHE;
  f->dte_cache[slot].valid = true;
  f->dte_cache[slot].devid = devid;
  memcpy(f->dte_cache[slot].q, table + (size_t)devid * 4, 32);
  return f->dte_cache[slot].q;
}

static bool refuse(struct fake_iommu *f, uint16_t devid, uint16_t domain, uint64_t addr, bool write,
                   bool present) {
  uint16_t flags = (write ? EVENT_FLAG_RW : 0) | (present ? EVENT_FLAG_PR | EVENT_FLAG_PE : 0);
  log_simple_event(f, EVENT_IO_PAGE_FAULT, devid, domain, flags, addr);
  return false;
}

bool fake_iommu_dma(struct fake_iommu *f, uint16_t devid, uint64_t addr, bool write,
                    uint64_t *phys) {
  unsigned need = write ? 2 : 1; /* bit 1 = IW, bit 0 = IR, as in (entry >> 61) */
  if (!(REG(IOMMU_MMIO_CONTROL) & IOMMU_CTRL_IOMMU_EN)) {
    *phys = addr;
    return true;
  }
  uint64_t entries = ((REG(IOMMU_MMIO_DEV_TABLE_BASE) & 0x1ff) + 1) * 4096 / DTE_SIZE;
  if (devid >= entries) {
    log_simple_event(f, EVENT_ILLEGAL_DEV_TABLE_ENTRY, devid, 0, write ? EVENT_FLAG_RW : 0, addr);
    return false;
  }
  const uint64_t *dte = fetch_dte(f, devid);
  if (!(dte[0] & DTE0_V)) { /* not translated at all */
    *phys = addr;
    return true;
  }
  if ((dte[0] & DTE0_QEMU_RESERVED) || (dte[1] & DTE1_QEMU_RESERVED) ||
      (dte[2] & DTE2_QEMU_RESERVED) || dte[3]) {
    log_simple_event(f, EVENT_ILLEGAL_DEV_TABLE_ENTRY, devid, 0, write ? EVENT_FLAG_RW : 0, addr);
    return false;
  }
  uint16_t domain = (uint16_t)(dte[1] & 0xffff);
  if (!(dte[0] & DTE0_TV)) return refuse(f, devid, domain, addr, write, false);
  unsigned rights = (unsigned)(dte[0] >> 61) & 3;
  unsigned mode = (unsigned)(dte[0] >> 9) & 7;
  if (mode == 0) { /* no page table: IR/IW decide */
    if ((rights & need) != need) return refuse(f, devid, domain, addr, write, true);
    *phys = addr;
    return true;
  }
  for (int i = 0; i < FAKE_TLB; i++)
    if (f->tlb[i].valid && f->tlb[i].domain == domain && f->tlb[i].page == addr >> 12) {
      if ((f->tlb[i].prot & need) != need) return refuse(f, devid, domain, addr, write, true);
      *phys = f->tlb[i].phys_page << 12 | (addr & 0xfff);
      return true;
    }
  if (mode > 6 || (12 + 9 * mode < 64 && addr >> (12 + 9 * mode)))
    return refuse(f, devid, domain, addr, write, false);
  const uint64_t *table = (const uint64_t *)(uintptr_t)(dte[0] & ADDR_MASK);
  unsigned level = mode;
  uint64_t e;
  for (;;) {
    e = table[(addr >> (12 + 9 * (level - 1))) & 511];
    if (!(e & IOPTE_PR)) return refuse(f, devid, domain, addr, write, false);
    rights &= (unsigned)(e >> 61) & 3;
    unsigned next = (unsigned)(e >> 9) & 7;
    if (next == 0) break;
    if (next >= level) return refuse(f, devid, domain, addr, write, false);
    table = (const uint64_t *)(uintptr_t)(e & ADDR_MASK);
    level = next;
  }
  if ((rights & need) != need) return refuse(f, devid, domain, addr, write, true);
  uint64_t size = 1ull << (12 + 9 * (level - 1));
  *phys = (e & ADDR_MASK & ~(size - 1)) | (addr & (size - 1));
  unsigned slot = f->tlb_next++ % FAKE_TLB;
  f->tlb[slot].valid = true;
  f->tlb[slot].domain = domain;
  f->tlb[slot].page = addr >> 12;
  f->tlb[slot].phys_page = *phys >> 12;
  f->tlb[slot].prot = rights;
  return true;
}
