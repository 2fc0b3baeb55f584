/*
 * tlb.c - the interpreter's side of memory translation: a small
 * direct-mapped software TLB of vapu_mem pages (mem.h), and copies that may
 * cross pages. Every fault comes back as the first unmapped or forbidden VA.
 */
#include "vapu/isa/wave.h"

void tlb_flush(struct vapu_exec *x) {
  memset(x->tlb, 0, sizeof x->tlb);
  x->mem_generation = __atomic_load_n(&x->mem->generation, __ATOMIC_ACQUIRE);
}

/* The page holding va that permits `access`, from the TLB or from the
 * translation interface (which raises the fault when there is none). */
static const struct tlb_entry *tlb_lookup(struct vapu_exec *x, uint64_t va, uint32_t access) {
  uint32_t gen = __atomic_load_n(&x->mem->generation, __ATOMIC_ACQUIRE);
  if (gen != x->mem_generation) tlb_flush(x);
  struct tlb_entry *e = &x->tlb[(va >> 12) & (TLB_ENTRIES - 1)];
  if (e->size && va - e->va < e->size && (e->allowed & access) == access) return e;
  struct vapu_page page;
  if (!x->mem->translate(x->mem->ctx, va, access, &page)) return NULL;
  if (va - page.va >= page.size || (page.allowed & access) != access) return NULL; /* a broken owner */
  e->va = page.va;
  e->size = page.size;
  e->host = page.host;
  e->allowed = page.allowed;
  return e;
}

uint8_t *mem_ptr(struct vapu_exec *x, uint64_t va, uint32_t len, uint32_t access,
                 uint64_t *fault_va) {
  const struct tlb_entry *e = tlb_lookup(x, va, access);
  if (!e) {
    *fault_va = va;
    return NULL;
  }
  uint64_t off = va - e->va;
  if (len > e->size - off) { /* runs past the page: only the caller's slow path can do it */
    *fault_va = e->va + e->size;
    return NULL;
  }
  return e->host + off;
}

const uint8_t *mem_span(struct vapu_exec *x, uint64_t va, uint32_t access, uint64_t *span,
                        uint64_t *fault_va) {
  const struct tlb_entry *e = tlb_lookup(x, va, access);
  if (!e) {
    *fault_va = va;
    return NULL;
  }
  *span = e->size - (va - e->va);
  return e->host + (va - e->va);
}

/* Copies byte ranges page by page, checking `access` on each. */
static bool mem_copy(struct vapu_exec *x, uint64_t va, uint8_t *buf, uint32_t len, uint32_t access,
                     uint64_t *fault_va) {
  bool write = access & VAPU_ACCESS_WRITE;
  while (len) {
    const struct tlb_entry *e = tlb_lookup(x, va, access);
    if (!e) {
      *fault_va = va;
      return false;
    }
    uint64_t off = va - e->va, room = e->size - off;
    uint32_t n = room < len ? (uint32_t)room : len;
    if (write) memcpy(e->host + off, buf, n);
    else memcpy(buf, e->host + off, n);
    va += n;
    buf += n;
    len -= n;
  }
  return true;
}

bool mem_read(struct vapu_exec *x, uint64_t va, void *dst, uint32_t len, uint64_t *fault_va) {
  return mem_copy(x, va, dst, len, VAPU_ACCESS_READ, fault_va);
}

bool mem_fetch(struct vapu_exec *x, uint64_t va, void *dst, uint32_t len, uint64_t *fault_va) {
  return mem_copy(x, va, dst, len, VAPU_ACCESS_EXEC, fault_va);
}

bool mem_write(struct vapu_exec *x, uint64_t va, const void *src, uint32_t len,
               uint64_t *fault_va) {
  return mem_copy(x, va, (uint8_t *)(uintptr_t)src, len, VAPU_ACCESS_WRITE, fault_va);
}
