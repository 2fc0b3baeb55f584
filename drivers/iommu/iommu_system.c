/*
 * iommu_system.c - the machine's IOMMUs as a whole: start in the chosen
 * mode, IVMD unity domains, fault reports to drivers, the state in the log
 * (see iommu_system.h).
 */
#define LOG_TAG "iommu"

#include "drivers/iommu/iommu_system.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "drivers/iommu/amd_iommu_regs.h"
#include "lib/plat.h"
#include "lib/util.h"

static struct iommu_system *current_system;
static int bring_up_error;

void iommu_system_set_failed(int err) { bring_up_error = err; }
bool iommu_system_failed(void) { return bring_up_error != 0; }

struct iommu_system *iommu_current(void) {
  return __atomic_load_n(&current_system, __ATOMIC_ACQUIRE);
}

enum iommu_mode iommu_mode(void) {
  struct iommu_system *s = iommu_current();
  return s ? s->mode : IOMMU_MODE_OFF;
}

const char *iommu_mode_name(enum iommu_mode mode) {
  switch (mode) {
    case IOMMU_MODE_ON:
      return "on";
    case IOMMU_MODE_PASSTHROUGH:
      return "passthrough";
    default:
      return "off";
  }
}

/* ---- IVMD unity ranges ------------------------------------------------------ */

/* Which IVMD blocks (bit i = ivrs->ivmds[i]) ask for memory to stay
 * reachable by these device IDs. Exclusion ranges count as read-write unity
 * ranges, as Linux init_unity_map_range treats them. */
static uint32_t ivmd_mask_for(const struct ivrs_info *ivrs, uint16_t segment, uint16_t devid,
                              uint16_t requester) {
  uint32_t mask = 0;
  for (unsigned i = 0; i < ivrs->ivmd_count && i < 32; i++) {
    const struct ivrs_ivmd *m = &ivrs->ivmds[i];
    if (!(m->flags & (IVMD_FLAG_UNITY | IVMD_FLAG_EXCL))) continue;
    if (ivrs_ivmd_applies(m, segment, devid) || ivrs_ivmd_applies(m, segment, requester))
      mask |= 1u << i;
  }
  return mask;
}

static unsigned ivmd_prot(const struct ivrs_ivmd *m) {
  if (m->flags & IVMD_FLAG_EXCL) return IOMMU_READ | IOMMU_WRITE;
  return (m->flags & IVMD_FLAG_IR ? IOMMU_READ : 0) | (m->flags & IVMD_FLAG_IW ? IOMMU_WRITE : 0);
}

struct unity_range {
  uint64_t start, end;
  unsigned prot;
};

/* The ranges of the blocks in `mask`, page aligned outwards, sorted and
 * merged (overlapping blocks for one device agree on their rights: the
 * parser rejects those that do not). */
static unsigned unity_ranges(const struct ivrs_info *ivrs, uint32_t mask, struct unity_range *out) {
  unsigned n = 0;
  for (unsigned i = 0; i < ivrs->ivmd_count && i < 32; i++) {
    if (!(mask & (1u << i))) continue;
    const struct ivrs_ivmd *m = &ivrs->ivmds[i];
    /* The parser made sure start + length - 1 does not wrap; a range
     * reaching the last page of the address space ends one page short
     * (no page table covers it anyway). */
    uint64_t end = ((m->start + m->length - 1) | 0xfff) + 1;
    struct unity_range r = {iommu_page_down(m->start), end ? end : ~0xfffull, ivmd_prot(m)};
    if (!r.prot) continue;
    unsigned at = n++;
    while (at > 0 && out[at - 1].start > r.start) {
      out[at] = out[at - 1];
      at--;
    }
    out[at] = r;
  }
  unsigned merged = 0;
  for (unsigned i = 0; i < n; i++) {
    if (merged && out[i].start <= out[merged - 1].end) {
      if (out[i].end > out[merged - 1].end) out[merged - 1].end = out[i].end;
      out[merged - 1].prot |= out[i].prot;
    } else {
      out[merged++] = out[i];
    }
  }
  return merged;
}

static int map_ivmd_mask(struct iommu_system *s, struct iommu_domain *d, uint32_t mask,
                         const char *who) {
  struct unity_range r[32];
  unsigned n = unity_ranges(s->ivrs, mask, r);
  for (unsigned i = 0; i < n; i++) {
    uint64_t skipped;
    int err =
        iommu_map_unprotected_locked(s, d, r[i].start, r[i].end - r[i].start, r[i].prot, &skipped);
    if (err) return err;
    if (skipped)
      log_error(
          "%s: firmware (IVMD) asks for 0x%llx-0x%llx to stay reachable, but %llu KiB of "
          "it is protected memory: left out",
          who, (unsigned long long)r[i].start, (unsigned long long)(r[i].end - 1),
          (unsigned long long)(skipped >> 10));
  }
  return 0;
}

int iommu_map_unity_locked(struct iommu_system *s, struct iommu_domain *d, uint16_t segment,
                           uint16_t devid, uint16_t requester, const char *who) {
  return map_ivmd_mask(s, d, ivmd_mask_for(s->ivrs, segment, devid, requester), who);
}

static struct iommu_unity *find_unity(struct iommu_system *s, struct iommu_unit *unit,
                                      uint32_t mask) {
  for (unsigned i = 0; i < s->unity_count; i++)
    if (s->unity[i].unit == unit && s->unity[i].ivmd_mask == mask) return &s->unity[i];
  return NULL;
}

void iommu_set_default_dte(struct iommu_system *s, struct iommu_unit *unit, uint16_t devid) {
  uint32_t mask =
      s->mode == IOMMU_MODE_ON ? ivmd_mask_for(s->ivrs, unit->ivhd->segment, devid, devid) : 0;
  struct iommu_unity *u = mask ? find_unity(s, unit, mask) : NULL;
  if (u)
    iommu_dte_set_translated(unit, devid, u->domain->id, iopt_dte_root(&u->domain->pt));
  else
    iommu_dte_set_default(unit, devid);
}

/* Devices no driver has attached still reach their IVMD ranges: one domain
 * per set of ranges (Linux gives such devices their unity mappings in
 * their default domain, amd_iommu_get_resv_regions). */
static int setup_unity_domains(struct iommu_system *s, struct iommu_unit *unit, unsigned *changed) {
  const struct ivrs_iommu *ivhd = unit->ivhd;
  *changed = 0;
  for (unsigned devid = 0; devid < unit->dev_entries; devid++) {
    if (devid == ivhd->devid || !ivrs_run_for(ivhd, (uint16_t)devid)) continue;
    uint32_t mask = ivmd_mask_for(s->ivrs, ivhd->segment, (uint16_t)devid, (uint16_t)devid);
    if (!mask) continue;
    struct iommu_unity *u = find_unity(s, unit, mask);
    if (!u) {
      if (s->unity_count == IOMMU_MAX_UNITY) return -ENOSPC;
      struct iommu_domain *d;
      int err = iommu_domain_create(s, unit, &d);
      if (err) return err;
      err = map_ivmd_mask(s, d, mask, "IVMD unity domain");
      if (err) {
        iommu_domain_destroy(d);
        return err;
      }
      u = &s->unity[s->unity_count++];
      *u = (struct iommu_unity){unit, mask, 0, d};
    }
    u->devices++;
    (*changed)++;
    iommu_dte_set_translated(unit, (uint16_t)devid, u->domain->id, iopt_dte_root(&u->domain->pt));
  }
  return 0;
}

/* ---- Faults --------------------------------------------------------------- */

/* The event log's sink, in interrupt context: hands IO_PAGE_FAULT to the
 * handlers of the devices that use the requester ID. Reads the device table
 * without the lock (see struct iommu_fault_handler). */
static void report_event(void *ctx, struct iommu_unit *unit, const struct iommu_event *e) {
  struct iommu_system *s = ctx;
  if (e->code != EVENT_IO_PAGE_FAULT) return;
  struct iommu_fault f = {
      .segment = unit->ivhd->segment,
      .requester = e->devid,
      .address = e->address,
      .write = (e->flags & EVENT_FLAG_RW) != 0,
      .present = (e->flags & EVENT_FLAG_PR) != 0,
      .flags = e->flags,
      .domain = e->tag,
  };
  for (unsigned i = 0; i < IOMMU_MAX_DEVICES; i++) {
    struct iommu_device *dev = &s->devices[i];
    if (!__atomic_load_n(&dev->in_use, __ATOMIC_ACQUIRE) || dev->unit != unit) continue;
    if (dev->requester != e->devid && dev->bdf != e->devid) continue;
    __atomic_fetch_add(&dev->faults, 1, __ATOMIC_RELAXED);
    struct iommu_fault_handler h =
        dev->handlers[__atomic_load_n(&dev->handler_index, __ATOMIC_ACQUIRE)];
    if (h.fn) h.fn(h.ctx, &f);
  }
}

/* ---- Start and stop --------------------------------------------------------- */

/* The host page tables may not have more levels than EFR.HATS allows
 * (00b: 4, 01b: 5, 10b: 6; 11b reserved: Linux then disables host
 * translation, init.c early_amd_iommu_init). */
static int check_levels(const struct iommu_system *s, const struct iommu_unit *u) {
  unsigned hats = (unsigned)((u->efr >> IOMMU_EFR_HATS_SHIFT) & IOMMU_EFR_HATS_MASK);
  if (hats == 3) {
    log_error("IOMMU %u reports a reserved host translation size (EFR 0x%llx)", u->index,
              (unsigned long long)u->efr);
    return -ENODEV;
  }
  if (s->levels > 4 + hats) {
    log_error("IOMMU %u walks at most %u levels, the address space needs %u", u->index, 4 + hats,
              s->levels);
    return -ERANGE;
  }
  return 0;
}

int iommu_system_start(struct iommu_system *s, enum iommu_mode mode, const struct ivrs_info *ivrs,
                       const struct iommu_hw *hw, uint64_t max_address) {
  memset(s, 0, sizeof *s);
  s->mode = mode;
  s->ivrs = ivrs;
  s->lock = (struct spinlock)SPINLOCK_INIT;
  s->next_domain_id = 1;
  iommu_memory_init(&s->memory);
  s->levels = iopt_levels_for(max_address);
  if (!s->levels) return -ERANGE;
  int err = iommu_memory_reserve_tables(&s->memory, IOMMU_TABLE_RESERVE_CHUNKS);
  for (unsigned i = 0; i < ivrs->iommu_count && !err; i++) {
    struct iommu_unit *u = &s->units[i];
    err = iommu_unit_init(u, i, &ivrs->iommus[i], hw[i].regs, hw[i].regs_ctx, hw[i].cap_header,
                          mode == IOMMU_MODE_PASSTHROUGH, &s->memory);
    if (!err) {
      s->unit_count = i + 1;
      u->sink = report_event;
      u->sink_ctx = s;
      if (mode == IOMMU_MODE_ON) err = check_levels(s, u);
    }
  }
  for (unsigned i = 0; i < s->unit_count && !err && mode == IOMMU_MODE_ON; i++) {
    unsigned changed;
    err = setup_unity_domains(s, &s->units[i], &changed);
    if (!err && changed) err = iommu_inv_all(&s->units[i]);
  }
  if (err) {
    for (unsigned i = 0; i < s->unit_count; i++) iommu_unit_disable(&s->units[i]);
    log_error("IOMMU bring-up failed (%d): every IOMMU left disabled", err);
    return err;
  }
  __atomic_store_n(&current_system, s, __ATOMIC_RELEASE);
  return 0;
}

void iommu_system_start_off(struct iommu_system *s, const char *why) {
  memset(s, 0, sizeof *s);
  s->mode = IOMMU_MODE_OFF;
  s->lock = (struct spinlock)SPINLOCK_INIT;
  iommu_memory_init(&s->memory);
  __atomic_store_n(&current_system, s, __ATOMIC_RELEASE);
  log_warn("IOMMU off (%s): devices reach all memory", why);
}

void iommu_system_stop(struct iommu_system *s) {
  for (unsigned i = 0; i < s->unit_count; i++) iommu_unit_disable(&s->units[i]);
  for (unsigned i = 0; i < IOMMU_MAX_DEVICES; i++) {
    struct iommu_domain *d = s->devices[i].in_use ? s->devices[i].domain : NULL;
    if (d && --d->users == 0) iommu_domain_destroy(d);
    s->devices[i].in_use = false;
  }
  for (unsigned i = 0; i < s->unity_count; i++) iommu_domain_destroy(s->unity[i].domain);
  s->unity_count = 0;
  iommu_memory_release(&s->memory);
  if (iommu_current() == s) __atomic_store_n(&current_system, NULL, __ATOMIC_RELEASE);
}

/* ---- The boot log ------------------------------------------------------------ */

struct range_printer {
  unsigned count;
};

#define RANGES_PRINTED 24

static void print_range(void *ctx, uint64_t iova, uint64_t phys, uint64_t size, unsigned prot) {
  struct range_printer *p = ctx;
  if (++p->count <= RANGES_PRINTED)
    log_info("    0x%012llx-0x%012llx %s%s (%llu KiB)", (unsigned long long)iova,
             (unsigned long long)(iova + size - 1), prot & IOMMU_READ ? "r" : "-",
             prot & IOMMU_WRITE ? "w" : "-", (unsigned long long)(size >> 10));
  (void)phys; /* identity: equal to iova */
}

static void print_domain(const struct iommu_domain *d) {
  struct range_printer p = {0};
  iopt_for_each_range(&d->pt, print_range, &p);
  if (p.count == 0) log_info("    nothing: every access is refused");
  if (p.count > RANGES_PRINTED) log_info("    ... %u more ranges", p.count - RANGES_PRINTED);
}

static void features_text(uint64_t efr, char *buf, size_t size) {
  /* Bit names as Linux print_iommu_info lists them. */
  static const char *const names[] = {"PreF", "PPR", "X2APIC", "NX", "GT",
                                      "[5]",  "IA",  "GA",     "HE", "PC"};
  size_t len = 0;
  buf[0] = '\0';
  for (unsigned i = 0; i < countof(names); i++)
    if (efr & (1ull << i))
      len += (size_t)snprintf(buf + len, len < size ? size - len : 0, " %s", names[i]);
}

/* The IOMMU's own memory, neighbouring extents of one kind merged (the
 * page-table reserve is many chunks in a row). */
static void log_iommu_memory(struct iommu_system *s) {
  struct iommu_extent ext[IOMMU_MEM_MAX_EXTENTS];
  unsigned n = iommu_memory_extents(&s->memory, ext, IOMMU_MEM_MAX_EXTENTS);
  if (n > IOMMU_MEM_MAX_EXTENTS) n = IOMMU_MEM_MAX_EXTENTS;
  for (unsigned i = 1; i < n; i++) /* by address */
    for (unsigned j = i; j > 0 && ext[j - 1].base > ext[j].base; j--) {
      struct iommu_extent t = ext[j];
      ext[j] = ext[j - 1];
      ext[j - 1] = t;
    }
  for (unsigned i = 0; i < n;) {
    uint64_t base = ext[i].base, end = ext[i].base + ext[i].size;
    const char *what = ext[i].what;
    for (i++; i < n && ext[i].base == end && strcmp(ext[i].what, what) == 0; i++)
      end += ext[i].size;
    log_info("protected from every device: 0x%llx-0x%llx IOMMU %s", (unsigned long long)base,
             (unsigned long long)(end - 1), what);
  }
}

void iommu_log_state(void) {
  struct iommu_system *s = iommu_current();
  if (!s) {
    log_info("IOMMU not initialised");
    return;
  }
  log_info("IOMMU mode %s: %u IOMMU(s), domains with %u-level page tables",
           iommu_mode_name(s->mode), s->unit_count, s->levels);
  for (unsigned i = 0; i < s->unit_count; i++) {
    const struct iommu_unit *u = &s->units[i];
    char bdf[16], feat[96];
    iommu_format_bdf(bdf, u->ivhd->segment, u->ivhd->devid);
    features_text(u->efr, feat, sizeof feat);
    log_info(
        "IOMMU %u at %s MMIO 0x%llx: features 0x%llx (%s ), %u device table entries at 0x%llx, "
        "commands at 0x%llx, events at 0x%llx: %llu event(s), %llu interrupt(s)",
        i, bdf, (unsigned long long)u->ivhd->mmio_base, (unsigned long long)u->efr, feat,
        u->dev_entries, (unsigned long long)(uintptr_t)u->dev_table,
        (unsigned long long)(uintptr_t)u->cmd_buf, (unsigned long long)(uintptr_t)u->event_log,
        (unsigned long long)u->counts.total, (unsigned long long)u->counts.interrupts);
  }
  spin_lock(&s->lock);
  for (unsigned i = 0; i < s->protected_count; i++)
    log_info("protected from every device: 0x%llx-0x%llx %s",
             (unsigned long long)s->protected_ranges[i].base,
             (unsigned long long)(s->protected_ranges[i].base + s->protected_ranges[i].size - 1),
             s->protected_ranges[i].what);
  log_iommu_memory(s);
  for (unsigned i = 0; i < IOMMU_MAX_DEVICES; i++) {
    const struct iommu_device *dev = &s->devices[i];
    if (!dev->in_use) continue;
    char bdf[16], req[16];
    iommu_format_bdf(bdf, dev->segment, dev->bdf);
    iommu_format_bdf(req, dev->segment, dev->requester);
    if (!dev->domain) {
      log_info("device %s (%s): %s, reaches all memory", bdf, dev->owner, iommu_mode_name(s->mode));
      continue;
    }
    log_info("device %s (%s), requester %s, domain %u, %llu fault(s), may reach:", bdf, dev->owner,
             req, dev->domain->id, (unsigned long long)dev->faults);
    print_domain(dev->domain);
  }
  for (unsigned i = 0; i < s->unity_count; i++) {
    log_info("domain %u (IVMD unity ranges only) for %u device(s) no driver attached:",
             s->unity[i].domain->id, s->unity[i].devices);
    print_domain(s->unity[i].domain);
  }
  spin_unlock(&s->lock);
  if (s->mode == IOMMU_MODE_ON) log_info("every other device behind the IOMMU(s) is blocked");
}
