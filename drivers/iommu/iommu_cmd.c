/*
 * iommu_cmd.c - the command ring: encoding the commands, queueing them and
 * waiting for their completion (see iommu_unit.h).
 *
 * Formats: AMD IOMMU Specification 48882, 2.4 "Commands" (COMPLETION_WAIT
 * 2.4.1, INVALIDATE_DEVTAB_ENTRY 2.4.2, INVALIDATE_IOMMU_PAGES 2.4.3,
 * INVALIDATE_INTERRUPT_TABLE 2.4.5, INVALIDATE_IOMMU_ALL 2.4.7); the same
 * layouts in Linux drivers/iommu/amd/iommu.c (build_completion_wait,
 * build_inv_dte, build_inv_iommu_pages, build_inv_address, build_inv_irt,
 * build_inv_all). QEMU 7.2 (hw/i386/amd_iommu.c) executes all of them and
 * checks that their reserved bits are zero.
 */
#define LOG_TAG "iommu"

#include <errno.h>
#include <string.h>

#include "drivers/iommu/amd_iommu_regs.h"
#include "drivers/iommu/iommu_unit.h"
#include "lib/plat.h"
#include "lib/util.h"

static uint64_t opcode(unsigned op) { return (uint64_t)op << CMD_OPCODE_SHIFT; }

struct iommu_cmd iommu_cmd_completion_wait(uint64_t semaphore, uint64_t value) {
  /* Store address bits 51:3 in place, s = 1: write `value` there. */
  return (struct iommu_cmd){
      {(semaphore & 0x000ffffffffffff8ull) | CMD_COMPL_WAIT_STORE | opcode(CMD_COMPLETION_WAIT),
       value}};
}

struct iommu_cmd iommu_cmd_inv_dte(uint16_t devid) {
  return (struct iommu_cmd){{devid | opcode(CMD_INV_DEVTAB_ENTRY), 0}};
}

/* The address field of INVALIDATE_IOMMU_PAGES for [address, address +
 * size): one page with S = 0, or with S = 1 the naturally aligned power of
 * two block holding the range, encoded by setting the address bits below
 * the block size to one (the first zero bit above bit 11 gives the size). */
static uint64_t inv_address(uint64_t address, uint64_t size) {
  if (size == 0) return CMD_INV_PAGES_ALL_ADDRESS | CMD_INV_PAGES_S;
  uint64_t first = ALIGN_DOWN(address, 0x1000ull), last = ALIGN_DOWN(address + size - 1, 0x1000ull);
  if (address + size - 1 < address) return CMD_INV_PAGES_ALL_ADDRESS | CMD_INV_PAGES_S;
  if (first == last) return first;
  unsigned msb = 63 - (unsigned)__builtin_clzll(first ^ last); /* highest differing bit */
  /* Bits 63:52 are a sign extension: a block that large is everything. */
  if (msb > 51) return CMD_INV_PAGES_ALL_ADDRESS | CMD_INV_PAGES_S;
  return ((first | ((1ull << msb) - 1)) & ~0xfffull) | CMD_INV_PAGES_S;
}

struct iommu_cmd iommu_cmd_inv_pages(uint16_t domain_id, uint64_t address, uint64_t size) {
  /* PDE = 1: cached directory entries go too, since unmaps may change them. */
  return (struct iommu_cmd){{(uint64_t)domain_id << 32 | opcode(CMD_INV_IOMMU_PAGES),
                             inv_address(address, size) | CMD_INV_PAGES_PDE}};
}

struct iommu_cmd iommu_cmd_inv_irt(uint16_t devid) {
  return (struct iommu_cmd){{devid | opcode(CMD_INV_INTR_TABLE), 0}};
}

struct iommu_cmd iommu_cmd_inv_all(void) {
  return (struct iommu_cmd){{opcode(CMD_INV_IOMMU_ALL), 0}};
}

/* ---- The ring ------------------------------------------------------------ */

static uint32_t ring_bytes(void) { return IOMMU_CMD_ENTRIES * CMD_SIZE; }

static void report_stuck(struct iommu_unit *u, const char *what) {
  uint64_t head = u->regs->read(u->regs_ctx, IOMMU_MMIO_CMD_HEAD);
  uint64_t tail = u->regs->read(u->regs_ctx, IOMMU_MMIO_CMD_TAIL);
  uint64_t status = u->regs->read(u->regs_ctx, IOMMU_MMIO_STATUS);
  log_error(
      "IOMMU %u: %s for %llu ms (command head 0x%llx tail 0x%llx status 0x%llx): no "
      "further commands will be sent to it",
      u->index, what, (unsigned long long)(u->timeout_ns / 1000000), (unsigned long long)head,
      (unsigned long long)tail, (unsigned long long)status);
  u->dead = true;
}

/* With cmd_lock held. */
static int queue_locked(struct iommu_unit *u, struct iommu_cmd cmd) {
  if (u->dead) return -EIO;
  uint32_t next = (u->cmd_tail + CMD_SIZE) % ring_bytes();
  if (next == u->cmd_head) {
    /* Full as far as we know: see how far the IOMMU has read. */
    uint64_t deadline = plat_now_ns() + u->timeout_ns;
    for (;;) {
      u->cmd_head =
          (uint32_t)(u->regs->read(u->regs_ctx, IOMMU_MMIO_CMD_HEAD) & IOMMU_RING_PTR_MASK);
      if (next != u->cmd_head) break;
      if (plat_now_ns() > deadline) {
        report_stuck(u, "command ring full");
        return -ETIMEDOUT;
      }
      plat_cpu_relax();
    }
  }
  memcpy(u->cmd_buf + u->cmd_tail, &cmd, sizeof cmd);
  /* The entry must be in memory before the IOMMU sees the new tail. */
  __atomic_thread_fence(__ATOMIC_RELEASE);
  u->cmd_tail = next;
  u->regs->write(u->regs_ctx, IOMMU_MMIO_CMD_TAIL, next);
  return 0;
}

int iommu_cmd_queue(struct iommu_unit *u, struct iommu_cmd cmd) {
  spin_lock(&u->cmd_lock);
  int err = queue_locked(u, cmd);
  spin_unlock(&u->cmd_lock);
  return err;
}

int iommu_inv_dte(struct iommu_unit *u, uint16_t devid) {
  return iommu_cmd_queue(u, iommu_cmd_inv_dte(devid));
}
int iommu_inv_irt(struct iommu_unit *u, uint16_t devid) {
  return iommu_cmd_queue(u, iommu_cmd_inv_irt(devid));
}
int iommu_inv_pages(struct iommu_unit *u, uint16_t domain_id, uint64_t address, uint64_t size) {
  return iommu_cmd_queue(u, iommu_cmd_inv_pages(domain_id, address, size));
}

int iommu_sync(struct iommu_unit *u) {
  spin_lock(&u->cmd_lock);
  uint64_t value = ++u->semaphore_value;
  int err = queue_locked(u, iommu_cmd_completion_wait((uint64_t)(uintptr_t)u->semaphore, value));
  if (!err) {
    uint64_t deadline = plat_now_ns() + u->timeout_ns;
    while (__atomic_load_n(u->semaphore, __ATOMIC_ACQUIRE) != value) {
      if (plat_now_ns() > deadline) {
        report_stuck(u, "completion wait not answered");
        err = -ETIMEDOUT;
        break;
      }
      plat_cpu_relax();
    }
  }
  spin_unlock(&u->cmd_lock);
  return err;
}

int iommu_inv_all(struct iommu_unit *u) {
  int err = 0;
  if (u->efr & IOMMU_EFR_IA_SUP) {
    err = iommu_cmd_queue(u, iommu_cmd_inv_all());
  } else {
    /* No INVALIDATE_IOMMU_ALL: every DTE and interrupt table, then every
     * domain ID up to the last device ID, as Linux amd_iommu_flush_dte_all,
     * _irt_all and _tlb_all do. */
    for (unsigned id = 0; id < u->dev_entries && !err; id++) err = iommu_inv_dte(u, (uint16_t)id);
    for (unsigned id = 0; id < u->dev_entries && !err; id++) err = iommu_inv_irt(u, (uint16_t)id);
    for (unsigned id = 0; id < u->dev_entries && !err; id++)
      err = iommu_inv_pages(u, (uint16_t)id, 0, 0);
  }
  return err ? err : iommu_sync(u);
}
