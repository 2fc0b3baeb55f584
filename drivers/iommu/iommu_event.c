/*
 * iommu_event.c - the event log: decoding, printing, counting and handing
 * on what the IOMMU reports (see iommu_unit.h).
 *
 * Entry layout [48882 2.5 "Event Logging"; Linux iommu_print_event; FreeBSD
 * amd_reg.h amdiommu_event_*]: dword 0 bits 15:0 device ID, 19:16 the high
 * bits of the PASID/domain; dword 1 bits 15:0 domain ID (or PASID), 27:16
 * flags, 31:28 event code; dwords 2-3 the address.
 *
 * Errata handled here, as Linux does:
 * - 732: the IOMMU may move the tail before the entry is in memory. Entries
 *   are zeroed after use and an entry still reading zero is waited for
 *   (Linux iommu_print_event "Did we hit the erratum?").
 * - ERBT1312: clearing the interrupt status bit may race with the IOMMU
 *   setting it again, which would stop further interrupts; the status is
 *   read back and handled until the bits stay clear (Linux
 *   amd_iommu_handle_irq).
 * - After an overflow the log stops; it is restarted once drained (Linux
 *   amd_iommu_restart_log).
 */
#define LOG_TAG "iommu"

#include <stdio.h>
#include <string.h>

#include "drivers/iommu/amd_iommu_regs.h"
#include "drivers/iommu/iommu_unit.h"
#include "lib/plat.h"
#include "lib/util.h"

/* How long an announced entry may stay unwritten (erratum 732); Linux
 * waits up to LOOP_TIMEOUT microseconds. */
#define ENTRY_WRITE_TIMEOUT_NS 10000000ull
/* Rounds of "drain, clear, re-read" before giving up on a status register
 * that never settles. */
#define MAX_DRAIN_ROUNDS 64
/* Events of one kind printed in full; after that only at powers of two. */
#define EVENTS_PRINTED 16

void iommu_event_decode(const uint32_t raw[4], struct iommu_event *out) {
  memset(out, 0, sizeof *out);
  memcpy(out->raw, raw, sizeof out->raw);
  out->code = raw[1] >> EVENT_CODE_SHIFT;
  out->devid = (uint16_t)raw[0];
  out->tag = (raw[0] & 0xf0000u) | (raw[1] & 0xffffu);
  out->flags = (uint16_t)((raw[1] >> EVENT_FLAGS_SHIFT) & 0xfffu);
  out->address = (uint64_t)raw[3] << 32 | raw[2];
}

const char *iommu_event_name(unsigned code) {
  switch (code) {
    case EVENT_ILLEGAL_DEV_TABLE_ENTRY:
      return "ILLEGAL_DEV_TABLE_ENTRY";
    case EVENT_IO_PAGE_FAULT:
      return "IO_PAGE_FAULT";
    case EVENT_DEV_TAB_HARDWARE_ERROR:
      return "DEV_TAB_HARDWARE_ERROR";
    case EVENT_PAGE_TAB_HARDWARE_ERROR:
      return "PAGE_TAB_HARDWARE_ERROR";
    case EVENT_ILLEGAL_COMMAND_ERROR:
      return "ILLEGAL_COMMAND_ERROR";
    case EVENT_COMMAND_HARDWARE_ERROR:
      return "COMMAND_HARDWARE_ERROR";
    case EVENT_IOTLB_INV_TIMEOUT:
      return "IOTLB_INV_TIMEOUT";
    case EVENT_INVALID_DEVICE_REQUEST:
      return "INVALID_DEVICE_REQUEST";
    case EVENT_INVALID_PPR_REQUEST:
      return "INVALID_PPR_REQUEST";
    case EVENT_COUNTER_ZERO:
      return "EVENT_COUNTER_ZERO";
    default:
      return "UNKNOWN";
  }
}

/* The flags in words, for the page-fault-like events. */
static int format_flags(char *buf, size_t size, uint16_t flags) {
  return snprintf(buf, size, " (%s%s%s%s%s%s%s%s)", flags & EVENT_FLAG_RW ? "write" : "read",
                  flags & EVENT_FLAG_PR ? ", page present" : ", not present",
                  flags & EVENT_FLAG_PE ? ", permission denied" : "",
                  flags & EVENT_FLAG_I ? ", interrupt" : "",
                  flags & EVENT_FLAG_RZ ? ", reserved bit set in a table" : "",
                  flags & EVENT_FLAG_TR ? ", translation request" : "",
                  flags & EVENT_FLAG_US ? ", user" : "", flags & EVENT_FLAG_NX ? ", execute" : "");
}

int iommu_event_format(const struct iommu_event *e, char *buf, size_t size) {
  char dev[16], flags[160] = "";
  snprintf(dev, sizeof dev, "%02x:%02x.%u", e->devid >> 8, (e->devid >> 3) & 0x1f, e->devid & 7);
  const char *name = iommu_event_name(e->code);
  unsigned long long addr = (unsigned long long)e->address;
  switch (e->code) {
    case EVENT_IO_PAGE_FAULT:
    case EVENT_INVALID_DEVICE_REQUEST:
    case EVENT_ILLEGAL_DEV_TABLE_ENTRY:
      format_flags(flags, sizeof flags, e->flags);
      return snprintf(buf, size, "%s device=%s domain=0x%04x address=0x%llx flags=0x%03x%s", name,
                      dev, e->tag, addr, e->flags, flags);
    case EVENT_DEV_TAB_HARDWARE_ERROR:
    case EVENT_PAGE_TAB_HARDWARE_ERROR:
      return snprintf(buf, size, "%s device=%s domain=0x%04x table entry at 0x%llx flags=0x%03x",
                      name, dev, e->tag, addr, e->flags);
    case EVENT_ILLEGAL_COMMAND_ERROR:
      return snprintf(buf, size, "%s command at 0x%llx", name, addr);
    case EVENT_COMMAND_HARDWARE_ERROR:
      return snprintf(buf, size, "%s reading 0x%llx flags=0x%03x", name, addr, e->flags);
    case EVENT_IOTLB_INV_TIMEOUT:
      return snprintf(buf, size, "%s device=%s address=0x%llx", name, dev, addr);
    default:
      return snprintf(buf, size, "%s code 0x%x raw %08x %08x %08x %08x", name, e->code, e->raw[0],
                      e->raw[1], e->raw[2], e->raw[3]);
  }
}

/* ---- The log ------------------------------------------------------------- */

static uint32_t log_bytes(void) { return IOMMU_EVENT_ENTRIES * EVENT_SIZE; }

static void handle_entry(struct iommu_unit *u, uint32_t head) {
  volatile uint32_t *slot = (volatile uint32_t *)(u->event_log + head);
  uint64_t deadline = plat_now_ns() + ENTRY_WRITE_TIMEOUT_NS;
  while ((slot[1] >> EVENT_CODE_SHIFT) == 0) { /* erratum 732 */
    if (plat_now_ns() > deadline) {
      u->counts.lost++;
      log_error("IOMMU %u: event at log offset 0x%x announced but never written", u->index, head);
      return;
    }
    plat_cpu_relax();
  }
  uint32_t raw[4] = {slot[0], slot[1], slot[2], slot[3]};
  for (int i = 0; i < 4; i++) slot[i] = 0;

  struct iommu_event e;
  iommu_event_decode(raw, &e);
  uint64_t n = ++u->counts.by_code[e.code % IOMMU_EVENT_CODES];
  u->counts.total++;
  if (n <= EVENTS_PRINTED || IS_POW2(n)) {
    char line[320];
    iommu_event_format(&e, line, sizeof line);
    log_error("IOMMU %u event: %s%s", u->index, line,
              n > EVENTS_PRINTED ? " (and more of this kind, counted)" : "");
  }
  if (u->sink) u->sink(u->sink_ctx, u, &e);
}

/* Linux amd_iommu_restart_log: once the log has stopped after an overflow,
 * turn it off, clear the overflow, turn it on again. */
static void restart_log(struct iommu_unit *u) {
  uint64_t status = u->regs->read(u->regs_ctx, IOMMU_MMIO_STATUS);
  if (status & IOMMU_STATUS_EVENT_RUN) return;
  u->counts.overflows++;
  log_warn("IOMMU %u: event log overflowed, restarting it (%llu events so far)", u->index,
           (unsigned long long)u->counts.total);
  uint64_t ctrl = u->regs->read(u->regs_ctx, IOMMU_MMIO_CONTROL);
  uint64_t on = ctrl & (IOMMU_CTRL_EVENT_LOG_EN | IOMMU_CTRL_EVENT_INT_EN);
  u->regs->write(u->regs_ctx, IOMMU_MMIO_CONTROL, ctrl & ~on);
  u->regs->write(u->regs_ctx, IOMMU_MMIO_STATUS, IOMMU_STATUS_EVENT_OVERFLOW);
  u->regs->write(u->regs_ctx, IOMMU_MMIO_CONTROL, ctrl | on);
}

static unsigned drain(struct iommu_unit *u) {
  unsigned handled = 0;
  const uint64_t mask = IOMMU_STATUS_EVENT_INT | IOMMU_STATUS_EVENT_OVERFLOW;
  uint64_t status = u->regs->read(u->regs_ctx, IOMMU_MMIO_STATUS);
  for (unsigned round = 0;; round++) {
    if (status & mask) u->regs->write(u->regs_ctx, IOMMU_MMIO_STATUS, status & mask);
    uint32_t head =
        (uint32_t)(u->regs->read(u->regs_ctx, IOMMU_MMIO_EVENT_HEAD) & IOMMU_RING_PTR_MASK);
    uint32_t tail =
        (uint32_t)(u->regs->read(u->regs_ctx, IOMMU_MMIO_EVENT_TAIL) & IOMMU_RING_PTR_MASK);
    if (head >= log_bytes() || tail >= log_bytes()) {
      log_error("IOMMU %u: event log head 0x%x / tail 0x%x outside the %u-byte log", u->index, head,
                tail, log_bytes());
      return handled;
    }
    while (head != tail) {
      handle_entry(u, head);
      head = (head + EVENT_SIZE) % log_bytes();
      u->regs->write(u->regs_ctx, IOMMU_MMIO_EVENT_HEAD, head);
      handled++;
    }
    if (status & IOMMU_STATUS_EVENT_OVERFLOW) restart_log(u);
    /* Erratum ERBT1312: the bits may have been set again while clearing. */
    status = u->regs->read(u->regs_ctx, IOMMU_MMIO_STATUS);
    uint32_t new_tail =
        (uint32_t)(u->regs->read(u->regs_ctx, IOMMU_MMIO_EVENT_TAIL) & IOMMU_RING_PTR_MASK);
    if (!(status & mask) && new_tail == tail) return handled;
    if (round == MAX_DRAIN_ROUNDS) {
      log_error("IOMMU %u: event status 0x%llx does not settle after %d rounds", u->index,
                (unsigned long long)status, MAX_DRAIN_ROUNDS);
      return handled;
    }
  }
}

unsigned iommu_events_process(struct iommu_unit *u) {
  unsigned handled = 0;
  /* Whoever holds the lock drains; it re-reads the tail after letting go,
   * so an entry that arrived while another caller found the lock taken is
   * not left behind. A few passes at most: drain() has its own limits. */
  for (int pass = 0; pass < 4 && spin_trylock(&u->event_lock); pass++) {
    handled += drain(u);
    spin_unlock(&u->event_lock);
    uint64_t head = u->regs->read(u->regs_ctx, IOMMU_MMIO_EVENT_HEAD) & IOMMU_RING_PTR_MASK;
    uint64_t tail = u->regs->read(u->regs_ctx, IOMMU_MMIO_EVENT_TAIL) & IOMMU_RING_PTR_MASK;
    if (head == tail) break;
  }
  return handled;
}

void iommu_event_interrupt(void *unit) {
  struct iommu_unit *u = unit;
  __atomic_fetch_add(&u->counts.interrupts, 1, __ATOMIC_RELAXED);
  iommu_events_process(u);
}
