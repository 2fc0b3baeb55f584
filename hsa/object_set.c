/* object_set.c - live-object sets (object_set.h). */
#include "hsa/object_set.h"

#include <stdlib.h>

#define SLOT_EMPTY   ((uintptr_t)0)
#define SLOT_DELETED ((uintptr_t)1)

static size_t slot_of(uintptr_t key, size_t capacity) {
  /* Objects are at least 8-byte aligned: drop the low bits, then mix. */
  uint64_t h = (uint64_t)(key >> 3) * 0x9E3779B97F4A7C15ull;
  return (size_t)(h >> 32) & (capacity - 1);
}

static bool rehash(struct object_set *s, size_t capacity) {
  uintptr_t *slots = calloc(capacity, sizeof *slots);
  if (!slots) return false;
  for (size_t i = 0; i < s->capacity; i++) {
    uintptr_t key = s->slots[i];
    if (key == SLOT_EMPTY || key == SLOT_DELETED) continue;
    size_t j = slot_of(key, capacity);
    while (slots[j] != SLOT_EMPTY) j = (j + 1) & (capacity - 1);
    slots[j] = key;
  }
  free(s->slots);
  s->slots = slots;
  s->capacity = capacity;
  s->used = s->count;
  return true;
}

/* Index of key's slot, or SIZE_MAX. Caller holds the lock. */
static size_t find(const struct object_set *s, uintptr_t key) {
  if (s->capacity == 0) return SIZE_MAX;
  for (size_t j = slot_of(key, s->capacity), n = 0; n < s->capacity;
       j = (j + 1) & (s->capacity - 1), n++) {
    if (s->slots[j] == key) return j;
    if (s->slots[j] == SLOT_EMPTY) return SIZE_MAX;
  }
  return SIZE_MAX;
}

bool object_set_insert(struct object_set *s, const void *obj) {
  uintptr_t key = (uintptr_t)obj;
  bool ok = true;
  lock_acquire(&s->lock);
  if ((s->used + 1) * 2 > s->capacity) {
    size_t capacity = s->capacity ? s->capacity : 64;
    while ((s->count + 1) * 4 > capacity) capacity *= 2; /* a quarter full after rehash */
    ok = rehash(s, capacity);
  }
  if (ok) {
    size_t j = slot_of(key, s->capacity);
    while (s->slots[j] != SLOT_EMPTY && s->slots[j] != SLOT_DELETED)
      j = (j + 1) & (s->capacity - 1);
    if (s->slots[j] == SLOT_EMPTY) s->used++;
    s->slots[j] = key;
    s->count++;
  }
  lock_release(&s->lock);
  return ok;
}

bool object_set_remove(struct object_set *s, const void *obj) {
  lock_acquire(&s->lock);
  size_t j = find(s, (uintptr_t)obj);
  if (j != SIZE_MAX) {
    s->slots[j] = SLOT_DELETED;
    s->count--;
  }
  lock_release(&s->lock);
  return j != SIZE_MAX;
}

bool object_set_contains(struct object_set *s, const void *obj) {
  if ((uintptr_t)obj <= SLOT_DELETED) return false;
  lock_acquire(&s->lock);
  bool found = find(s, (uintptr_t)obj) != SIZE_MAX;
  lock_release(&s->lock);
  return found;
}

size_t object_set_count(struct object_set *s) {
  lock_acquire(&s->lock);
  size_t n = s->count;
  lock_release(&s->lock);
  return n;
}

void object_set_for_each(struct object_set *s, void (*fn)(void *obj, void *arg), void *arg) {
  lock_acquire(&s->lock);
  for (size_t i = 0; i < s->capacity; i++)
    if (s->slots[i] != SLOT_EMPTY && s->slots[i] != SLOT_DELETED) fn((void *)s->slots[i], arg);
  lock_release(&s->lock);
}

void *object_set_pop(struct object_set *s) {
  void *obj = NULL;
  lock_acquire(&s->lock);
  for (size_t i = 0; i < s->capacity && !obj; i++)
    if (s->slots[i] != SLOT_EMPTY && s->slots[i] != SLOT_DELETED) {
      obj = (void *)s->slots[i];
      s->slots[i] = SLOT_DELETED;
      s->count--;
    }
  lock_release(&s->lock);
  return obj;
}

void object_set_free(struct object_set *s) {
  lock_acquire(&s->lock);
  free(s->slots);
  s->slots = NULL;
  s->capacity = s->used = s->count = 0;
  lock_release(&s->lock);
}
