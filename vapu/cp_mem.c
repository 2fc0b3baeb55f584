/*
 * cp_mem.c - the interpreter's memory (vapu/isa/mem.h) on the GMC: every
 * GPU virtual address a wave touches is translated by vapu_translate for
 * the queue's VMID, as a request of the texture cache (client TCP), so it
 * goes through the page tables the driver built and a fault is raised the
 * way the hardware raises it (fault status registers, IH entry, MSI).
 *
 * The interpreter asks for a page without saying which access it is about
 * to make and checks the page's permissions itself. So a page is looked up
 * for reading (what every mapped page of a compute VMID allows), its real
 * permissions come from the GMC's translation, and when the interpreter
 * then stops on a permission it lacked, cp_mem_raise_fault replays that
 * access through the GMC so the fault is raised with its real kind.
 */
#include <string.h>

#include "vapu/cp_internal.h"

static bool translate(void *ctx, uint64_t va, struct vapu_page *page) {
  struct cp_mem *m = ctx;
  size_t run;
  uint8_t *host = vapu_translate(m->v, &m->rq, &m->tlb, va, VAPU_GMC_READ, &run);
  if (!host) {
    m->raised_fault_page = (va >> 12) + 1;
    return false;
  }
  /* The translation the GMC just used (or reused) is in our TLB: its
   * fragment bounds and permissions describe the page. */
  for (int i = 0; i < VAPU_TLB_ENTRIES; i++) {
    const struct vapu_tlb_entry *e = &m->tlb.e[i];
    if (e->size && e->vmid == m->rq.vmid && e->hub == m->rq.hub && va - e->va < e->size) {
      page->va = e->va;
      page->size = e->size;
      page->host = host - (va - e->va);
      page->allowed = (e->access & VAPU_GMC_READ ? VAPU_ACCESS_READ : 0) |
                      (e->access & VAPU_GMC_WRITE ? VAPU_ACCESS_WRITE : 0) |
                      (e->access & VAPU_GMC_EXECUTE ? VAPU_ACCESS_EXEC : 0);
      return true;
    }
  }
  /* Not cached (cannot happen with a TLB given): the byte run only. */
  page->va = va;
  page->size = run;
  page->host = host;
  page->allowed = VAPU_ACCESS_READ;
  return true;
}

void cp_mem_init(struct cp_mem *m, struct vapu *v, uint8_t vmid) {
  memset(m, 0, sizeof *m);
  m->mem.translate = translate;
  m->mem.ctx = m;
  m->v = v;
  m->rq = (struct vapu_requester){VAPU_GFXHUB, vmid, VAPU_CLIENT_TCP};
}

void cp_mem_raise_fault(struct cp_mem *m, uint64_t va, uint32_t access) {
  if (m->raised_fault_page == (va >> 12) + 1) return; /* the walk already raised it */
  unsigned kind = (access & VAPU_ACCESS_WRITE ? VAPU_GMC_WRITE : 0) |
                  (access & VAPU_ACCESS_READ ? VAPU_GMC_READ : 0) |
                  (access & VAPU_ACCESS_EXEC ? VAPU_GMC_EXECUTE : 0);
  size_t run;
  if (vapu_translate(m->v, &m->rq, &m->tlb, va, kind ? kind : VAPU_GMC_READ, &run)) return;
  m->raised_fault_page = (va >> 12) + 1;
}
