/*
 * cp_mem.c - the interpreter's memory (vapu/isa/mem.h) on the GMC: every
 * GPU virtual address a wave touches is translated by the GMC for the
 * queue's VMID, as a request of the texture cache (client TCP), with the
 * kind of access the wave makes (read, write, execute; both for an
 * atomic). So it goes through the page tables the driver built, and a
 * fault is raised at the access itself the way the hardware raises it
 * (fault status registers with the R/W bit, IH entry, MSI).
 */
#include <string.h>

#include "vapu/cp_internal.h"
#include "vapu/vapu_internal.h"

static unsigned gmc_access(uint32_t access) {
  return (access & VAPU_ACCESS_READ ? VAPU_GMC_READ : 0) |
         (access & VAPU_ACCESS_WRITE ? VAPU_GMC_WRITE : 0) |
         (access & VAPU_ACCESS_EXEC ? VAPU_GMC_EXECUTE : 0);
}

static bool translate(void *ctx, uint64_t va, uint32_t access, struct vapu_page *page) {
  struct cp_mem *m = ctx;
  struct vapu_gmc_page p;
  if (!vapu_translate_page(m->v, &m->rq, &m->tlb, va, gmc_access(access), &p)) return false;
  page->va = p.va;
  page->size = p.size;
  page->host = p.host; /* of p.va, the fragment's start */
  page->allowed = (p.allowed & VAPU_GMC_READ ? VAPU_ACCESS_READ : 0) |
                  (p.allowed & VAPU_GMC_WRITE ? VAPU_ACCESS_WRITE : 0) |
                  (p.allowed & VAPU_GMC_EXECUTE ? VAPU_ACCESS_EXEC : 0);
  return true;
}

void cp_mem_init(struct cp_mem *m, struct vapu *v, uint8_t vmid) {
  memset(m, 0, sizeof *m);
  m->mem.translate = translate;
  m->mem.ctx = m;
  m->v = v;
  m->rq = (struct vapu_requester){VAPU_GFXHUB, vmid, VAPU_CLIENT_TCP, false};
  m->hub_generation = __atomic_load_n(&v->hubs[m->rq.hub].tlb_generation[vmid], __ATOMIC_ACQUIRE);
}

void cp_mem_sync(struct cp_mem *m) {
  uint32_t g = __atomic_load_n(&m->v->hubs[m->rq.hub].tlb_generation[m->rq.vmid], __ATOMIC_ACQUIRE);
  if (g == m->hub_generation) return;
  m->hub_generation = g;
  vapu_mem_changed(&m->mem);
}
