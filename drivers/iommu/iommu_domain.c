/*
 * iommu_domain.c - domains and the iommu.h calls on them: attach, map,
 * unmap, flush, protect (the system itself is in iommu_system.c).
 *
 * A domain is an ID (the tag of the IOMMU's translation caches) and a v1
 * page table; a device's DTE points at both (48882 2.2.2). Changing what a
 * device reaches is: change the table or the DTE, queue the invalidation of
 * what the IOMMU may have cached (INVALIDATE_DEVTAB_ENTRY, _IOMMU_PAGES),
 * then COMPLETION_WAIT (iommu_flush) before relying on it, as Linux does
 * (Linux drivers/iommu/amd/iommu.c, domain_flush_pages + domain_flush_complete).
 */
#define LOG_TAG "iommu"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "drivers/iommu/amd_iommu_regs.h"
#include "drivers/iommu/iommu_system.h"
#include "lib/plat.h"

#define PAGE 4096ull

void iommu_format_bdf(char buf[16], uint16_t segment, uint16_t bdf) {
  snprintf(buf, 16, "%04x:%02x:%02x.%u", segment, bdf >> 8, (bdf >> 3) & 0x1f, bdf & 7);
}

/* ---- Domains -------------------------------------------------------------- */

static void *pool_table(void *ctx) { return iommu_memory_table(ctx); }
static void pool_table_free(void *ctx, void *table) { iommu_memory_table_free(ctx, table); }

/* Domain IDs start at 1: 0 tags the DTEs of devices without a domain (and
 * Linux leaves it unused too). IDs with bit 8 set are skipped: QEMU 7.2
 * rejects DTE bit 72, which is DomainID bit 8, as reserved
 * (amd_iommu_regs.h DTE1_QEMU_RESERVED); that still leaves 32767 IDs. */
static int next_domain_id(struct iommu_system *s, uint16_t *id) {
  for (;;) {
    uint16_t candidate = s->next_domain_id;
    if (candidate == 0xffff) return -ENOSPC;
    s->next_domain_id++;
    if (candidate != 0 && !(candidate & 0x100)) {
      *id = candidate;
      return 0;
    }
  }
}

int iommu_domain_create(struct iommu_system *s, struct iommu_unit *unit,
                        struct iommu_domain **out) {
  struct iommu_domain *d = NULL;
  for (unsigned i = 0; i < IOMMU_MAX_DEVICES + IOMMU_MAX_UNITY && !d; i++)
    if (!s->domain_pool[i].in_use) d = &s->domain_pool[i];
  if (!d) return -ENOMEM; /* all kept by devices whose detach could not complete */
  *d = (struct iommu_domain){.in_use = true, .unit = unit};
  int err = next_domain_id(s, &d->id);
  if (!err)
    err = iopt_init(&d->pt, s->levels,
                    (struct iopt_allocator){pool_table, pool_table_free, &s->memory});
  if (err) {
    d->in_use = false;
    return err;
  }
  *out = d;
  return 0;
}

void iommu_domain_destroy(struct iommu_domain *d) {
  iopt_destroy(&d->pt);
  d->in_use = false;
}

/* ---- Protected memory ----------------------------------------------------- */

/* The protected range or IOMMU extent with the lowest base that overlaps
 * [base, end), rounded out to pages; false when there is none. */
static bool first_protected(struct iommu_system *s, uint64_t base, uint64_t end,
                            struct iommu_protected *out) {
  bool found = false;
  for (unsigned i = 0; i < s->protected_count; i++) {
    const struct iommu_protected *p = &s->protected_ranges[i];
    uint64_t pb = iommu_page_down(p->base), pe = iommu_page_up(p->base + p->size);
    if (pb < end && base < pe && (!found || pb < out->base)) {
      *out = (struct iommu_protected){pb, pe - pb, p->what};
      found = true;
    }
  }
  struct iommu_extent ext[IOMMU_MEM_MAX_EXTENTS];
  unsigned n = iommu_memory_extents(&s->memory, ext, IOMMU_MEM_MAX_EXTENTS);
  for (unsigned i = 0; i < n && i < IOMMU_MEM_MAX_EXTENTS; i++) {
    uint64_t pb = iommu_page_down(ext[i].base), pe = iommu_page_up(ext[i].base + ext[i].size);
    if (pb < end && base < pe && (!found || pb < out->base)) {
      *out = (struct iommu_protected){pb, pe - pb, ext[i].what};
      found = true;
    }
  }
  return found;
}

/* Maps the parts of [addr, addr + size) that are not protected; *skipped
 * gets how many bytes were left out. With the lock held. */
int iommu_map_unprotected_locked(struct iommu_system *s, struct iommu_domain *d, uint64_t addr,
                                 uint64_t size, unsigned prot, uint64_t *skipped) {
  uint64_t cur = addr, end = addr + size;
  *skipped = 0;
  while (cur < end) {
    struct iommu_protected p;
    if (!first_protected(s, cur, end, &p)) return iopt_map(&d->pt, cur, cur, end - cur, prot);
    uint64_t hole_start = p.base > cur ? p.base : cur;
    uint64_t hole_end = p.base + p.size < end ? p.base + p.size : end;
    if (hole_start > cur) {
      int err = iopt_map(&d->pt, cur, cur, hole_start - cur, prot);
      if (err) return err;
    }
    *skipped += hole_end - hole_start;
    cur = hole_end;
  }
  return 0;
}

static int refill_tables(struct iommu_system *s);

/* ---- Devices -------------------------------------------------------------- */

static bool valid_device(const struct iommu_device *dev) {
  struct iommu_system *s = iommu_current();
  return s && dev && dev >= s->devices && dev < s->devices + IOMMU_MAX_DEVICES && dev->in_use;
}

static bool valid_range(uint64_t addr, uint64_t size) {
  return size && !((addr | size) & (PAGE - 1)) && addr + size > addr;
}

static const char *error_name(int err) {
  switch (err) {
    case -EEXIST:
      return "part of it is mapped already";
    case -ERANGE:
      return "beyond the address space of the page tables";
    case -ENOMEM:
      return "out of memory for page tables";
    case -EINVAL:
      return "bad range or rights";
    default:
      return "error";
  }
}

/* What the locked part of an attach found, logged once the lock is gone. */
struct attach_report {
  char why[96]; /* the refusal, when there is one */
  bool shared;  /* the domain is another device's (same requester ID) */
};

/* The free slot for (segment, bdf), filled with what the IVRS says of the
 * device (its IOMMU, the requester ID its requests arrive with), or why
 * there is none. With the lock held. */
static int lookup_locked(struct iommu_system *s, uint16_t segment, uint16_t bdf, const char *owner,
                         struct iommu_device **out, struct attach_report *report) {
  struct iommu_device *dev = NULL;
  for (unsigned i = 0; i < IOMMU_MAX_DEVICES; i++) {
    struct iommu_device *d = &s->devices[i];
    if (d->in_use && d->segment == segment && d->bdf == bdf) {
      snprintf(report->why, sizeof report->why, "already attached by %s", d->owner);
      return -EBUSY;
    }
    if (!d->in_use && !dev) dev = d;
  }
  if (!dev) {
    snprintf(report->why, sizeof report->why, "more than %d devices attached", IOMMU_MAX_DEVICES);
    return -ENOSPC;
  }
  const struct ivrs_iommu *ivhd =
      s->mode == IOMMU_MODE_OFF ? NULL : ivrs_iommu_for(s->ivrs, segment, bdf);
  if (s->mode != IOMMU_MODE_OFF && !ivhd) {
    snprintf(report->why, sizeof report->why, "no IOMMU translates this device: its DMA is not confined");
    return -ENODEV;
  }
  if (ivhd && ivhd->devid == bdf) {
    snprintf(report->why, sizeof report->why, "this is an IOMMU, not a device to confine");
    return -EINVAL;
  }
  memset(dev, 0, sizeof *dev);
  dev->segment = segment;
  dev->bdf = dev->requester = bdf;
  snprintf(dev->owner, sizeof dev->owner, "%s", owner);
  if (ivhd) {
    dev->unit = &s->units[ivhd - s->ivrs->iommus];
    dev->requester = ivrs_requester_id(ivhd, bdf);
  }
  *out = dev;
  return 0;
}

/* Gives dev a domain (its requester ID's, or a new one with the IVMD's
 * unity ranges) and points its DTEs there, the invalidations queued (the
 * caller waits for them). dev->domain is set once the DTEs may point at
 * it, even when an invalidation then fails: iommu_detach undoes that.
 * With the lock held. */
static int bind_locked(struct iommu_system *s, struct iommu_device *dev, const char *name,
                       struct attach_report *report) {
  /* Devices behind one PCI bridge share its requester ID, hence one DTE
   * and one domain. */
  struct iommu_domain *d = NULL;
  for (unsigned i = 0; i < IOMMU_MAX_DEVICES && !d; i++) {
    struct iommu_device *o = &s->devices[i];
    if (o->in_use && o->unit == dev->unit && o->requester == dev->requester) d = o->domain;
  }
  report->shared = d != NULL;
  if (!d) {
    int err = iommu_domain_create(s, dev->unit, &d);
    if (!err) {
      err = iommu_map_unity_locked(s, d, dev->segment, dev->bdf, dev->requester, name);
      if (err) iommu_domain_destroy(d);
    }
    if (err) {
      snprintf(report->why, sizeof report->why, "cannot create its domain (%d)", err);
      return err;
    }
  }
  d->users++;
  dev->domain = d;
  iommu_dte_set_translated(dev->unit, dev->requester, d->id, iopt_dte_root(&d->pt));
  int err = iommu_inv_dte(dev->unit, dev->requester);
  /* Linux sets the device's own entry as well as its alias's. */
  if (dev->bdf != dev->requester && dev->bdf < dev->unit->dev_entries) {
    iommu_dte_set_translated(dev->unit, dev->bdf, d->id, iopt_dte_root(&d->pt));
    if (!err) err = iommu_inv_dte(dev->unit, dev->bdf);
  }
  if (!err) err = iommu_inv_pages(dev->unit, d->id, 0, 0);
  return err;
}

int iommu_attach(uint16_t segment, uint16_t bdf, const char *owner, struct iommu_device **out) {
  struct iommu_system *s = iommu_current();
  char name[16];
  iommu_format_bdf(name, segment, bdf);
  if (!out || !owner) return -EINVAL;
  *out = NULL;
  if (!s && iommu_system_failed()) {
    log_error(
        "%s (%s): the IOMMU bring-up failed: not attached (iommu=off runs without DMA "
        "protection)",
        name, owner);
    return -EIO;
  }
  if (!s) {
    log_error("%s (%s): no IOMMU on this machine: its DMA is not confined", name, owner);
    return -ENODEV;
  }
  struct attach_report report = {.why = ""};
  struct iommu_device *dev = NULL;
  spin_lock(&s->lock);
  int err = lookup_locked(s, segment, bdf, owner, &dev, &report);
  if (!err && s->mode == IOMMU_MODE_ON) err = bind_locked(s, dev, name, &report);
  /* In use once it may be translated: a failed bind is undone by a detach. */
  bool bound = dev && dev->domain;
  if (!err || bound) __atomic_store_n(&dev->in_use, true, __ATOMIC_RELEASE);
  spin_unlock(&s->lock);
  if (bound && !err) err = iommu_sync(dev->unit);
  if (bound && err) {
    if (!report.why[0])
      snprintf(report.why, sizeof report.why, "the IOMMU did not take the new device table entry (%d)", err);
    iommu_detach(dev); /* the default DTE back; the domain kept if the IOMMU may still use it */
  }
  if (err) {
    log_error("%s (%s): %s", name, owner, report.why);
    return err;
  }
  if (!bound) {
    log_info("%s (%s) attached: %s, it reaches all memory", name, owner, iommu_mode_name(s->mode));
  } else {
    char req[16];
    iommu_format_bdf(req, segment, dev->requester);
    log_info("%s (%s) attached to domain %u%s%s%s", name, owner, dev->domain->id,
             dev->requester != bdf ? ", requests arrive as " : "", dev->requester != bdf ? req : "",
             report.shared ? " (shared with the other devices of that requester ID)" : "");
    refill_tables(s);
  }
  *out = dev;
  return 0;
}

int iommu_detach(struct iommu_device *dev) {
  struct iommu_system *s = iommu_current();
  if (!valid_device(dev)) return -EINVAL;
  spin_lock(&s->lock);
  struct iommu_domain *d = dev->domain;
  struct iommu_unit *unit = dev->unit;
  int err = 0;
  bool last = false;
  if (d) {
    last = --d->users == 0;
    if (last) {
      iommu_set_default_dte(s, unit, dev->requester);
      if (dev->bdf != dev->requester && dev->bdf < unit->dev_entries)
        iommu_set_default_dte(s, unit, dev->bdf);
      err = iommu_inv_dte(unit, dev->requester);
      if (!err && dev->bdf != dev->requester) err = iommu_inv_dte(unit, dev->bdf);
      if (!err) err = iommu_inv_pages(unit, d->id, 0, 0);
    }
  }
  __atomic_store_n(&dev->in_use, false, __ATOMIC_RELEASE);
  spin_unlock(&s->lock);
  if (unit && s->mode != IOMMU_MODE_OFF && !err) err = iommu_sync(unit);
  /* Only once the IOMMU has dropped the DTE may the tables go. */
  if (last && !err) {
    spin_lock(&s->lock);
    iommu_domain_destroy(d);
    spin_unlock(&s->lock);
  } else if (last) {
    log_error("domain %u kept: the IOMMU may still walk its tables (%d)", d->id, err);
  }
  return err;
}

static int change_mapping(struct iommu_device *dev, uint64_t addr, uint64_t size, unsigned prot,
                          bool skip_protected) {
  struct iommu_system *s = iommu_current();
  if (!valid_device(dev)) return -EINVAL;
  if (!valid_range(addr, size) || !prot || (prot & ~(IOMMU_READ | IOMMU_WRITE))) {
    log_error("%s: bad map request 0x%llx + 0x%llx rights %u", dev->owner, (unsigned long long)addr,
              (unsigned long long)size, prot);
    return -EINVAL;
  }
  if (!dev->domain) return 0; /* off or passthrough: it reaches everything */
  char name[16];
  iommu_format_bdf(name, dev->segment, dev->bdf);
  spin_lock(&s->lock);
  struct iommu_protected p;
  int err;
  uint64_t skipped = 0;
  if (!skip_protected && first_protected(s, addr, addr + size, &p)) {
    spin_unlock(&s->lock);
    log_error("%s (%s): refusing to map 0x%llx-0x%llx: it overlaps the %s at 0x%llx-0x%llx", name,
              dev->owner, (unsigned long long)addr, (unsigned long long)(addr + size - 1), p.what,
              (unsigned long long)p.base, (unsigned long long)(p.base + p.size - 1));
    return -EPERM;
  }
  err = iommu_map_unprotected_locked(s, dev->domain, addr, size, prot, &skipped);
  /* An IOMMU that caches not-present entries must forget them (capability
   * NpCache, 48882 3.3; Linux flushes after map when amd_iommu_np_cache). */
  if (dev->unit->cap_header & IOMMU_CAP_NP_CACHE) {
    int inv = iommu_inv_pages(dev->unit, dev->domain->id, addr, size);
    if (!err) err = inv;
  }
  spin_unlock(&s->lock);
  refill_tables(s);
  if (err)
    log_error("%s (%s): cannot map 0x%llx-0x%llx: %s", name, dev->owner, (unsigned long long)addr,
              (unsigned long long)(addr + size - 1), error_name(err));
  else if (skipped)
    log_info("%s (%s): mapped 0x%llx-0x%llx except %llu KiB of protected memory", name, dev->owner,
             (unsigned long long)addr, (unsigned long long)(addr + size - 1),
             (unsigned long long)(skipped >> 10));
  return err;
}

int iommu_map(struct iommu_device *dev, uint64_t addr, uint64_t size, unsigned prot) {
  return change_mapping(dev, addr, size, prot, false);
}

int iommu_map_allowed(struct iommu_device *dev, uint64_t addr, uint64_t size, unsigned prot) {
  return change_mapping(dev, addr, size, prot, true);
}

int iommu_unmap(struct iommu_device *dev, uint64_t addr, uint64_t size) {
  struct iommu_system *s = iommu_current();
  if (!valid_device(dev)) return -EINVAL;
  if (!valid_range(addr, size)) {
    log_error("%s: bad unmap request 0x%llx + 0x%llx", dev->owner, (unsigned long long)addr,
              (unsigned long long)size);
    return -EINVAL;
  }
  if (!dev->domain) return 0;
  spin_lock(&s->lock);
  uint64_t unmapped;
  int err = iopt_unmap(&dev->domain->pt, addr, size, &unmapped);
  if (!err && unmapped) {
    err = iommu_inv_pages(dev->unit, dev->domain->id, addr, size);
  }
  spin_unlock(&s->lock);
  if (err)
    log_error("%s: cannot unmap 0x%llx-0x%llx: %s", dev->owner, (unsigned long long)addr,
              (unsigned long long)(addr + size - 1), error_name(err));
  return err;
}

int iommu_flush(struct iommu_device *dev) {
  if (!valid_device(dev)) return -EINVAL;
  if (!dev->unit || iommu_mode() == IOMMU_MODE_OFF) return 0;
  return iommu_sync(dev->unit);
}

unsigned iommu_all_domains(struct iommu_system *s, struct iommu_domain **out, unsigned max) {
  unsigned n = 0;
  for (unsigned i = 0; i < IOMMU_MAX_DEVICES; i++) {
    struct iommu_domain *d = s->devices[i].in_use ? s->devices[i].domain : NULL;
    bool seen = false;
    for (unsigned j = 0; j < n && d; j++) seen = seen || out[j] == d;
    if (d && !seen && n < max) out[n++] = d;
  }
  for (unsigned i = 0; i < s->unity_count && n < max; i++) out[n++] = s->unity[i].domain;
  return n;
}

/* Removes [start, end) from every domain and queues the invalidations;
 * sync[i] is set for each IOMMU that must then be waited for. With the
 * lock held. */
static int revoke_locked(struct iommu_system *s, uint64_t start, uint64_t end, const char *what,
                         bool sync[IVRS_MAX_IOMMUS]) {
  struct iommu_domain *domains[IOMMU_MAX_DEVICES + IOMMU_MAX_UNITY];
  unsigned n = s->mode == IOMMU_MODE_ON
                   ? iommu_all_domains(s, domains, IOMMU_MAX_DEVICES + IOMMU_MAX_UNITY)
                   : 0;
  int err = 0;
  for (unsigned i = 0; i < n; i++) {
    uint64_t unmapped;
    int e = iopt_unmap(&domains[i]->pt, start, end - start, &unmapped);
    if (!e && unmapped) {
      /* Usual for memory the kernel or the IOMMU takes for itself: a
       * domain given all free RAM (the GPU's) reached it until now. */
      log_debug("domain %u could reach the %s (0x%llx-0x%llx): revoked", domains[i]->id, what,
                (unsigned long long)start, (unsigned long long)(end - 1));
      e = iommu_inv_pages(domains[i]->unit, domains[i]->id, start, end - start);
      sync[domains[i]->unit->index] = true;
    }
    if (e && !err) err = e;
  }
  return err;
}

/* Waits for the IOMMUs marked in sync. Without the lock. */
static int sync_units(struct iommu_system *s, const bool sync[IVRS_MAX_IOMMUS]) {
  int err = 0;
  for (unsigned i = 0; i < s->unit_count; i++)
    if (sync[i]) {
      int e = iommu_sync(&s->units[i]);
      if (e && !err) err = e;
    }
  return err;
}

/* Keeps at least IOMMU_TABLE_LOW_WATER page tables free, so that no change
 * runs out of them midway. Without the lock: a new chunk may be memory a
 * device reaches; it is recorded first (no new mapping takes it), removed
 * from every domain, and only once the IOMMUs have dropped what they
 * cached are its tables handed out. The removal itself takes tables from
 * what is left above zero (splitting a large page: two per domain). */
static int refill_tables(struct iommu_system *s) {
  while (s->mode == IOMMU_MODE_ON && iommu_memory_free_tables(&s->memory) < IOMMU_TABLE_LOW_WATER) {
    void *chunk = iommu_memory_take_table_chunk(&s->memory);
    if (!chunk) return -ENOMEM;
    uint64_t base = (uint64_t)(uintptr_t)chunk;
    bool sync[IVRS_MAX_IOMMUS] = {false};
    spin_lock(&s->lock);
    int err = revoke_locked(s, base, base + IOMMU_TABLE_CHUNK, "new IOMMU page tables", sync);
    spin_unlock(&s->lock);
    if (!err) err = sync_units(s, sync);
    if (err) {
      log_error("new IOMMU page tables at 0x%llx may still be reachable by a device (%d): not used",
                (unsigned long long)base, err);
      return err;
    }
    iommu_memory_add_tables(&s->memory, chunk);
  }
  return 0;
}

/* A protected range right after or before one of the same name grows it
 * (the kernel's stacks and page tables come one block at a time). With
 * the lock held. */
static int record_protected_locked(struct iommu_system *s, uint64_t addr, uint64_t size,
                                   const char *what) {
  for (unsigned i = 0; i < s->protected_count; i++) {
    struct iommu_protected *p = &s->protected_ranges[i];
    if (strcmp(p->what, what) != 0) continue;
    if (p->base + p->size == addr) {
      p->size += size;
      return 0;
    }
    if (addr + size == p->base) {
      p->base = addr;
      p->size += size;
      return 0;
    }
  }
  if (s->protected_count == IOMMU_MAX_PROTECTED) return -ENOMEM;
  s->protected_ranges[s->protected_count++] = (struct iommu_protected){addr, size, what};
  return 0;
}

int iommu_protect(uint64_t addr, uint64_t size, const char *what) {
  struct iommu_system *s = iommu_current();
  if (!s) return -ENODEV;
  if (!size || addr + size < addr || !what) return -EINVAL;
  spin_lock(&s->lock);
  if (record_protected_locked(s, addr, size, what) != 0) {
    spin_unlock(&s->lock);
    log_error("cannot protect the %s: %d ranges protected already", what, IOMMU_MAX_PROTECTED);
    return -ENOMEM;
  }
  bool sync[IVRS_MAX_IOMMUS] = {false};
  int err = revoke_locked(s, iommu_page_down(addr), iommu_page_up(addr + size), what, sync);
  spin_unlock(&s->lock);
  int e = sync_units(s, sync);
  refill_tables(s);
  return err ? err : e;
}

int iommu_set_fault_handler(struct iommu_device *dev, iommu_fault_fn fn, void *ctx) {
  if (!valid_device(dev)) return -EINVAL;
  unsigned next = !__atomic_load_n(&dev->handler_index, __ATOMIC_RELAXED);
  dev->handlers[next] = (struct iommu_fault_handler){fn, ctx};
  __atomic_store_n(&dev->handler_index, next, __ATOMIC_RELEASE);
  return 0;
}

bool iommu_can_reach(const struct iommu_device *dev, uint64_t addr, unsigned access) {
  struct iommu_system *s = iommu_current();
  if (!valid_device(dev)) return false;
  if (!dev->domain) return true;
  uint64_t phys, page;
  unsigned prot;
  spin_lock(&s->lock);
  bool ok = iopt_translate(&dev->domain->pt, addr, access, &phys, &page, &prot) && phys == addr;
  spin_unlock(&s->lock);
  return ok;
}

uint64_t iommu_fault_count(const struct iommu_device *dev) {
  return valid_device(dev) ? __atomic_load_n(&dev->faults, __ATOMIC_RELAXED) : 0;
}
