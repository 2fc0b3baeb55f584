/* frames.c - the image's frame allocator over the UEFI map (see frames.h). */
#include "kernel/frames.h"

#include <string.h>

#include "boot/boot_info.h"
#include "kernel/kernel.h"
#include "lib/lock.h"
#include "lib/plat.h"
#include "lib/util.h"

#define LOG_TAG    "frames"
#define MAX_RANGES 512

/* Free memory in two sets: `pool` is ready to hand out; `firmware_code`
 * holds the firmware's boot-services code, handed out only when `pool`
 * cannot serve a request, and cleared first (clear_firmware_code). */
static struct frame_range storage[MAX_RANGES], firmware_code_storage[MAX_RANGES];
static struct frame_pool pool, firmware_code;
static struct spinlock lock = SPINLOCK_INIT;
static uint64_t ram_bytes; /* all RAM of the map, whoever uses it */

static const char *add_error_text(int rc) {
  switch (rc) {
    case FRAME_POOL_MISALIGNED:
      return "not whole pages";
    case FRAME_POOL_OVERLAP:
      return "free already (overlapping ranges, or a double free)";
    case FRAME_POOL_FULL:
      return "no room in the free-range table (MAX_RANGES)";
    default:
      return "refused";
  }
}

static void add_type(const struct boot_info *info, uint32_t type, struct frame_pool *to,
                     const char *what, const char *note) {
  uint64_t added = 0;
  for (uint32_t i = 0; i < info->mem_count; i++) {
    const struct boot_mem_range *r = &info->mem[i];
    if (r->type != type) continue;
    int rc = frame_pool_add(to, r->base, r->pages * FRAME_SIZE);
    if (rc != 0)
      log_error("memory map range 0x%llx+0x%llx (type %u) not usable: %s",
                (unsigned long long)r->base, (unsigned long long)(r->pages * FRAME_SIZE), type,
                add_error_text(rc));
    else
      added += r->pages * FRAME_SIZE;
  }
  log_info("%llu MiB of %s added%s", (unsigned long long)(added >> 20), what, note);
}

void frames_init(const struct boot_info *info) {
  for (uint32_t i = 0; i < info->mem_count; i++) {
    const struct boot_mem_range *r = &info->mem[i];
    log_debug("memory map: 0x%012llx-0x%012llx type %2u attr 0x%llx", (unsigned long long)r->base,
              (unsigned long long)(r->base + r->pages * FRAME_SIZE), r->type,
              (unsigned long long)r->attr);
    if (boot_mem_type_is_ram(r->type)) ram_bytes += r->pages * FRAME_SIZE;
  }
  frame_pool_init(&pool, storage, MAX_RANGES);
  frame_pool_init(&firmware_code, firmware_code_storage, MAX_RANGES);
  add_type(info, EFI_MEM_CONVENTIONAL, &pool, "conventional memory", "");
}

/* Memory that held the firmware's code is overwritten before it is used.
 * Under QEMU's TCG (the CI machine) a page the firmware executed from stays
 * write-protected while any block translated from it survives, and stores
 * that miss those bytes never clear them: every store to such a page, a
 * stack or a heap block later, takes the slow path (a 60x slower GPU model
 * core was measured). Overwriting every byte invalidates the blocks for
 * good, at a cost of 0.1-0.2 s per MiB there (a memset on a board); so it
 * is done to a block when it is handed out, and that memory is handed out
 * last. Page 0 is never handed out. */
static void clear_firmware_code(uint64_t base, uint64_t size) {
  memset((void *)(uintptr_t)base, 0, size);
}

void frames_reclaim_boot_services(const struct boot_info *info) {
  uint64_t flags = spin_lock_irqsave(&lock);
  add_type(info, EFI_MEM_BOOT_SERVICES_CODE, &firmware_code, "boot services code",
           " (handed out last, cleared first)");
  add_type(info, EFI_MEM_BOOT_SERVICES_DATA, &pool, "boot services data", "");
  spin_unlock_irqrestore(&lock, flags);
}

uint64_t frames_alloc_below(uint64_t size, uint64_t align, uint64_t limit) {
  if (align < FRAME_SIZE) align = FRAME_SIZE;
  size = ALIGN_UP(size, FRAME_SIZE);
  uint64_t flags = spin_lock_irqsave(&lock);
  uint64_t base = frame_pool_alloc(&pool, size, align, limit);
  bool from_firmware_code = false;
  if (!base) {
    base = frame_pool_alloc(&firmware_code, size, align, limit);
    from_firmware_code = base != 0;
  }
  spin_unlock_irqrestore(&lock, flags);
  if (from_firmware_code) clear_firmware_code(base, size);
  return base;
}

uint64_t frames_alloc(uint64_t size, uint64_t align) {
  return frames_alloc_below(size, align, UINT64_MAX);
}

void frames_free(uint64_t base, uint64_t size) {
  uint64_t flags = spin_lock_irqsave(&lock);
  /* Freed memory has been handed out, so cleared if it ever was code. */
  int rc = frame_pool_overlaps(&firmware_code, base, ALIGN_UP(size, FRAME_SIZE))
               ? FRAME_POOL_OVERLAP
               : frame_pool_add(&pool, base, ALIGN_UP(size, FRAME_SIZE));
  spin_unlock_irqrestore(&lock, flags);
  if (rc != 0)
    log_error("frames_free(0x%llx, %llu): %s", (unsigned long long)base, (unsigned long long)size,
              add_error_text(rc));
}

int frames_claim(uint64_t base, uint64_t size) {
  bool from_firmware_code = false;
  uint64_t flags = spin_lock_irqsave(&lock);
  int rc = frame_pool_claim_either(&pool, &firmware_code, base, size, &from_firmware_code);
  spin_unlock_irqrestore(&lock, flags);
  if (rc == 0 && from_firmware_code) clear_firmware_code(base, size);
  return rc;
}

uint64_t frames_ram_bytes(void) { return ram_bytes; }

int frames_for_each_ram_range(int (*fn)(void *ctx, uint64_t base, uint64_t size), void *ctx) {
  const struct boot_info *info = kernel_boot_info();
  for (uint32_t i = 0; i < info->mem_count; i++) {
    const struct boot_mem_range *r = &info->mem[i];
    if (!boot_mem_type_is_ram(r->type)) continue;
    int err = fn(ctx, r->base, r->pages * FRAME_SIZE);
    if (err) return err;
  }
  return 0;
}

uint64_t frames_free_bytes(void) {
  uint64_t flags = spin_lock_irqsave(&lock);
  uint64_t n = frame_pool_free_bytes(&pool) + frame_pool_free_bytes(&firmware_code);
  spin_unlock_irqrestore(&lock, flags);
  return n;
}
