/*
 * object_set.h - the set of live runtime objects of one kind (signals,
 * queues, executables, ...), so that an API call given a stale or made-up
 * handle answers "invalid handle" instead of touching freed memory.
 *
 * An open-addressing hash set of pointers under a lock; it grows by
 * doubling. Lookups are a lock plus one or two probes.
 */
#ifndef HSA_OBJECT_SET_H
#define HSA_OBJECT_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/lock.h"

struct object_set {
  struct lock lock;
  uintptr_t *slots; /* 0 = empty, 1 = deleted */
  size_t capacity;  /* power of two, or 0 before the first insert */
  size_t used;      /* live + deleted slots */
  size_t count;     /* live objects */
};

#define OBJECT_SET_INIT \
  { LOCK_INIT, NULL, 0, 0, 0 }

bool object_set_insert(struct object_set *s, const void *obj); /* false: out of memory */
bool object_set_remove(struct object_set *s, const void *obj); /* false: was not there */
bool object_set_contains(struct object_set *s, const void *obj);
size_t object_set_count(struct object_set *s);
/* Calls fn on every member (under the lock: fn must not touch the set). */
void object_set_for_each(struct object_set *s, void (*fn)(void *obj, void *arg), void *arg);
/* Removes and returns any member, or NULL when empty (for tear-down). */
void *object_set_pop(struct object_set *s);
void object_set_free(struct object_set *s);

#endif
