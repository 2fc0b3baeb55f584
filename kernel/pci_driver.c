/*
 * pci_driver.c - the driver registry: drivers declared with PCI_DRIVER()
 * sit in linker section "pci_drivers"; each unbound function is offered to
 * them by probe_order (portable: host tests declare drivers of their own).
 */
#define LOG_TAG "pci"
#include <errno.h>

#include "kernel/pci.h"
#include "lib/plat.h"

/* Bounds of the section, from the linker; weak so that a program without
 * any driver links. */
extern const struct pci_driver __start_pci_drivers[] __attribute__((weak));
extern const struct pci_driver __stop_pci_drivers[] __attribute__((weak));

static void probe_with(const struct pci_driver *d, struct pci_function *functions,
                       unsigned count) {
  for (unsigned i = 0; i < count; i++) {
    struct pci_function *f = &functions[i];
    if (f->driver) continue;
    const struct pci_match *m = pci_match_function(d->matches, f);
    if (!m) continue;
    char name[16];
    pci_function_name(f, name);
    int err = d->probe(f, m);
    if (err) {
      log_error("%s: driver %s failed to bind (error %d)", name, d->name, err);
      continue;
    }
    f->driver = d;
    log_info("%s: bound to driver %s", name, d->name);
  }
}

bool pci_driver_matches(const struct pci_function *f) {
  for (const struct pci_driver *d = __start_pci_drivers; d < __stop_pci_drivers; d++)
    if (d->matches && d->probe && pci_match_function(d->matches, f)) return true;
  return false;
}

unsigned pci_probe_function_list(struct pci_function *functions, unsigned count) {
  unsigned drivers = (unsigned)(__stop_pci_drivers - __start_pci_drivers);
  /* Drivers by ascending probe_order, then by link order: a selection walk
   * over the (few) drivers instead of sorting the read-only section. */
  bool any_done = false;
  int done_order = 0;
  unsigned done_index = 0;
  for (unsigned n = 0; n < drivers; n++) {
    const struct pci_driver *next = NULL;
    unsigned next_index = 0;
    for (unsigned i = 0; i < drivers; i++) {
      const struct pci_driver *d = &__start_pci_drivers[i];
      bool after_done = !any_done || d->probe_order > done_order ||
                        (d->probe_order == done_order && i > done_index);
      if (!after_done) continue;
      if (!next || d->probe_order < next->probe_order) {
        next = d;
        next_index = i;
      }
    }
    if (!next) break;
    if (next->matches && next->probe) probe_with(next, functions, count);
    any_done = true;
    done_order = next->probe_order;
    done_index = next_index;
  }
  unsigned bound = 0;
  for (unsigned i = 0; i < count; i++) bound += functions[i].driver != NULL;
  return bound;
}
