/*
 * cp_mem.c - the interpreter's memory (vapu/isa/mem.h) on the GMC: every
 * GPU virtual address a wave touches is translated by vapu_translate for
 * the queue's VMID, as a request of the texture cache (client TCP), so it
 * goes through the page tables the driver built and a fault is raised the
 * way the hardware raises it (fault status registers, IH entry, MSI).
 *
 * The interpreter asks for a page without saying which access it is about
 * to make and checks the page's permissions itself. So a page is looked up
 * without raising anything (vapu_translate_probe), and when the interpreter
 * then stops on a fault, cp_mem_raise_fault replays the access it made
 * through the GMC, which raises the fault with its real kind (read, write,
 * execute) and address.
 */
#include <string.h>

#include "vapu/cp_internal.h"

static bool translate(void *ctx, uint64_t va, struct vapu_page *page) {
  struct cp_mem *m = ctx;
  struct vapu_gmc_page p;
  if (!vapu_translate_probe(m->v, &m->rq, &m->tlb, va, &p)) return false;
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
  m->rq = (struct vapu_requester){VAPU_GFXHUB, vmid, VAPU_CLIENT_TCP};
}

void cp_mem_raise_fault(struct cp_mem *m, uint64_t va, uint32_t access) {
  unsigned kind = (access & VAPU_ACCESS_WRITE ? VAPU_GMC_WRITE : 0) |
                  (access & VAPU_ACCESS_READ ? VAPU_GMC_READ : 0) |
                  (access & VAPU_ACCESS_EXEC ? VAPU_GMC_EXECUTE : 0);
  size_t run;
  /* Succeeds only if the page became valid meanwhile: then there is no
   * fault left to raise. */
  vapu_translate(m->v, &m->rq, &m->tlb, va, kind ? kind : VAPU_GMC_READ, &run);
}
