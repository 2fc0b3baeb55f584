/* vm.c - the kernel's identity map (see vm.h). */
#include "kernel/vm.h"

#include <string.h>

#include "boot/boot_info.h"
#include "kernel/cpu.h"
#include "kernel/exit.h"
#include "kernel/frames.h"
#include "kernel/kmem.h"
#include "kernel/kstack.h"
#include "lib/lock.h"
#include "lib/plat.h"
#include "lib/util.h"

#define LOG_TAG "vm"

/* Page tables come from chunks of kernel memory (kmem.h: no device
 * reaches them), so that they are a few ranges to protect. */
#define TABLE_CHUNK_SIZE (512 * 1024ull)
#define MAX_TABLE_CHUNKS 32
static struct { uint64_t base, used; } chunks[MAX_TABLE_CHUNKS];
static unsigned chunk_count;
static uint64_t free_tables; /* freed tables, linked through their first word */

static struct pt_ctx ctx;
static struct spinlock lock = SPINLOCK_INIT;
static void (*tlb_shootdown)(void);
static uint64_t mapped_top; /* [0, mapped_top) is mapped by vm_init */

/* The image's regions (boot/image.lds). */
extern const char ImageBase[] __attribute__((visibility("hidden")));
extern const char __text_start[], __text_end[] __attribute__((visibility("hidden")));
extern const char __rodata_start[], __rodata_end[] __attribute__((visibility("hidden")));
extern const char __data_start[], __data_end[] __attribute__((visibility("hidden")));
extern const char __image_end[] __attribute__((visibility("hidden")));
#define ADDR(sym) ((uint64_t)(uintptr_t)(sym))

static uint64_t *table_ptr(void *arg, uint64_t phys) {
  (void)arg;
  return (uint64_t *)(uintptr_t)phys;
}

static uint64_t alloc_table(void *arg) {
  (void)arg;
  uint64_t t = free_tables;
  if (t) {
    free_tables = *(uint64_t *)(uintptr_t)t;
  } else {
    if (chunk_count == 0 || chunks[chunk_count - 1].used == TABLE_CHUNK_SIZE) {
      if (chunk_count == MAX_TABLE_CHUNKS) return 0;
      uint64_t base = kmem_alloc(TABLE_CHUNK_SIZE, "page tables");
      if (!base) return 0;
      chunks[chunk_count++] = (typeof(chunks[0])){base, 0};
    }
    t = chunks[chunk_count - 1].base + chunks[chunk_count - 1].used;
    chunks[chunk_count - 1].used += FRAME_SIZE;
  }
  memset((void *)(uintptr_t)t, 0, FRAME_SIZE);
  return t;
}

static void free_table(void *arg, uint64_t phys) {
  (void)arg;
  *(uint64_t *)(uintptr_t)phys = free_tables;
  free_tables = phys;
}

static void map_or_panic(uint64_t base, uint64_t size, unsigned attrs, const char *what) {
  if (size && pt_map(&ctx, base, size, attrs) != 0)
    panic("page tables: cannot map %s 0x%llx+0x%llx", what, (unsigned long long)base,
          (unsigned long long)size);
}

static void unmap_guard(const struct kstack *s, void *unused) {
  (void)unused;
  map_or_panic(s->base, KSTACK_GUARD_SIZE, 0, "a guard page");
}

static void flush_tlb(void) {
  write_cr3(read_cr3()); /* no global pages: this drops every translation */
  if (tlb_shootdown) tlb_shootdown();
}

void vm_init(const struct boot_info *info) {
  uint32_t r[4];
  cpuid(0x80000001, 0, r);
  ctx = (struct pt_ctx){.allow_1g = (r[3] >> 26) & 1, /* CPUID.80000001H:EDX[26] Page1GB */
                        .alloc_table = alloc_table,
                        .free_table = free_table,
                        .table_ptr = table_ptr};
  if (pt_init(&ctx) != 0) panic("page tables: no memory for the PML4");

  /* 1. Everything up to the top of the memory map (at least 4 GiB, where
   *    the chipset's MMIO lives) uncached, then RAM write-back on top. */
  uint64_t top = 4ull << 30;
  for (uint32_t i = 0; i < info->mem_count; i++) {
    uint64_t end = info->mem[i].base + info->mem[i].pages * FRAME_SIZE;
    if (end > top) top = end;
  }
  mapped_top = (top + (1ull << 30) - 1) & ~((1ull << 30) - 1);
  map_or_panic(0, mapped_top, VM_MMIO, "the physical address space");
  for (uint32_t i = 0; i < info->mem_count; i++) {
    const struct boot_mem_range *m = &info->mem[i];
    bool wb = boot_mem_type_is_ram(m->type) ||
              (m->type == EFI_MEM_RESERVED && (m->attr & EFI_MEM_ATTR_WB));
    if (wb) map_or_panic(m->base, m->pages * FRAME_SIZE, VM_RAM, "RAM");
  }
  /* 2. The image: W^X by region. */
  uint64_t image_end = info->image_base + info->image_size;
  if (ADDR(__image_end) > image_end) image_end = ADDR(__image_end);
  map_or_panic(ADDR(ImageBase), image_end - ADDR(ImageBase), VM_READONLY, "the image");
  map_or_panic(ADDR(__text_start), ADDR(__text_end) - ADDR(__text_start), VM_TEXT, "kernel text");
  map_or_panic(ADDR(__data_start), ADDR(__data_end) - ADDR(__data_start), VM_RAM, "kernel data");
  /* 3. The boot file system read-only; page 0 and the guard pages unmapped. */
  map_or_panic((uint64_t)(uintptr_t)info->bootfs,
               ALIGN_UP(info->bootfs->total_size, FRAME_SIZE), VM_READONLY,
               "the boot file system");
  map_or_panic(0, FRAME_SIZE, 0, "page 0");
  kstack_for_each(unmap_guard, NULL);

  write_cr3(ctx.root);
  uint64_t table_bytes = 0;
  for (unsigned i = 0; i < chunk_count; i++) table_bytes += chunks[i].used;
  log_info("identity map up to %llu GiB loaded (%s pages, %llu KiB of tables)",
           (unsigned long long)(mapped_top >> 30), ctx.allow_1g ? "1 GiB" : "2 MiB",
           (unsigned long long)(table_bytes >> 10));
}

uint64_t vm_root(void) { return ctx.root; }

void vm_set_tlb_shootdown(void (*shootdown)(void)) { tlb_shootdown = shootdown; }

static bool overlaps(uint64_t a, uint64_t a_end, uint64_t b, uint64_t b_end) {
  return a < b_end && b < a_end;
}

/* Changes `count` ranges of `size` bytes, `stride` apart from `base`, under
 * the lock, then flushes once: a flush reaches every core (an interrupt
 * each), so a batch of ranges costs one instead of one per range. */
static int change_each(uint64_t base, uint64_t count, uint64_t stride, uint64_t size,
                       unsigned attrs, const char *what) {
  uint64_t flags = spin_lock_irqsave(&lock);
  int rc = 0;
  for (uint64_t i = 0; i < count && rc == 0; i++) rc = pt_map(&ctx, base + i * stride, size, attrs);
  spin_unlock_irqrestore(&lock, flags);
  if (rc != 0)
    log_error("%s 0x%llx+0x%llx: bad range or out of page-table memory", what,
              (unsigned long long)base, (unsigned long long)size);
  flush_tlb();
  return rc;
}

static int change(uint64_t base, uint64_t size, unsigned attrs, const char *what) {
  return change_each(base, 1, size, size, attrs, what);
}

int vm_map_mmio(uint64_t phys, uint64_t size) {
  uint64_t base = ALIGN_DOWN(phys, FRAME_SIZE);
  uint64_t end = ALIGN_UP(phys + size, FRAME_SIZE);
  if (size == 0 || end <= base) {
    log_error("vm_map_mmio(0x%llx, %llu): empty or wrapping range", (unsigned long long)phys,
              (unsigned long long)size);
    return -1;
  }
  if (overlaps(base, end, ADDR(ImageBase), ADDR(__image_end))) {
    log_error("vm_map_mmio(0x%llx, %llu): overlaps the kernel image", (unsigned long long)phys,
              (unsigned long long)size);
    return -1;
  }
  return change(base, end - base, VM_MMIO, "vm_map_mmio");
}

int vm_set_attrs(uint64_t addr, uint64_t size, unsigned attrs) {
  if ((addr | size) & (FRAME_SIZE - 1) || size == 0) {
    log_error("vm_set_attrs(0x%llx, %llu): not page aligned", (unsigned long long)addr,
              (unsigned long long)size);
    return -1;
  }
  bool in_text = overlaps(addr, addr + size, ADDR(__text_start), ADDR(__text_end));
  if ((attrs & PT_EXEC) || (in_text && (attrs & PT_WRITE))) {
    log_error(
        "vm_set_attrs(0x%llx, %llu, 0x%x): refused (W^X: no new executable memory, "
        "text stays read-only)",
        (unsigned long long)addr, (unsigned long long)size, attrs);
    return -1;
  }
  return change(addr, size, attrs, "vm_set_attrs");
}

int vm_set_code_attrs(uint64_t addr, uint64_t size, unsigned attrs) {
  return vm_set_code_attrs_each(addr, 1, size, size, attrs);
}

int vm_set_code_attrs_each(uint64_t addr, uint64_t count, uint64_t stride, uint64_t size,
                           unsigned attrs) {
  if ((addr | size | stride) & (FRAME_SIZE - 1) || size == 0 || count == 0 || stride < size ||
      (count > 1 && stride > (UINT64_MAX - size) / (count - 1)) ||
      addr + (count - 1) * stride + size < addr) {
    log_error("vm_set_code_attrs(0x%llx, %llu x %llu, stride %llu): not page aligned, or wraps",
              (unsigned long long)addr, (unsigned long long)count, (unsigned long long)size,
              (unsigned long long)stride);
    return -1;
  }
  uint64_t end = addr + (count - 1) * stride + size;
  if (((attrs & PT_EXEC) && (attrs & PT_WRITE)) ||
      overlaps(addr, end, ADDR(ImageBase), ADDR(__image_end))) {
    log_error("vm_set_code_attrs(0x%llx, %llu, 0x%x): refused (W^X, or the kernel image)",
              (unsigned long long)addr, (unsigned long long)(end - addr), attrs);
    return -1;
  }
  return change_each(addr, count, stride, size, attrs, "vm_set_code_attrs");
}

int vm_unmap(uint64_t addr, uint64_t size) {
  if (!ctx.root) return 0; /* before vm_init: vm_init unmaps every registered guard */
  return vm_set_attrs(addr, size, 0);
}

unsigned vm_query(uint64_t addr, uint64_t *page_size) {
  uint64_t flags = spin_lock_irqsave(&lock);
  unsigned attrs = pt_query(&ctx, addr, page_size);
  spin_unlock_irqrestore(&lock, flags);
  return attrs;
}
