/* msgpack.c - bounded MessagePack reader (format: msgpack spec.md "Formats"). */
#include "hsa/loader/msgpack.h"

#include <string.h>

void mp_reader_init(struct mp_reader *r, const void *data, size_t size) {
  r->p = data;
  r->end = r->p + size;
  r->failed = false;
}

static bool fail(struct mp_reader *r) {
  r->failed = true;
  return false;
}

/* Big-endian unsigned integer of `n` bytes (1, 2, 4 or 8). */
static bool take_be(struct mp_reader *r, unsigned n, uint64_t *out) {
  if ((size_t)(r->end - r->p) < n) return fail(r);
  uint64_t v = 0;
  for (unsigned i = 0; i < n; i++) v = (v << 8) | r->p[i];
  r->p += n;
  *out = v;
  return true;
}

static bool take_bytes(struct mp_reader *r, uint64_t len, struct mp_value *v) {
  if ((uint64_t)(r->end - r->p) < len) return fail(r);
  v->str.ptr = (const char *)r->p;
  v->str.len = (uint32_t)len; /* len came from at most a 32-bit field */
  r->p += len;
  return true;
}

static void set_signed(struct mp_value *v, int64_t x) {
  if (x >= 0) {
    v->type = MP_UINT;
    v->u = (uint64_t)x;
  } else {
    v->type = MP_INT;
    v->i = x;
  }
}

bool mp_read(struct mp_reader *r, struct mp_value *v) {
  if (r->failed || r->p >= r->end) return fail(r);
  uint8_t t = *r->p++;
  uint64_t x;

  if (t <= 0x7f) { /* positive fixint */
    v->type = MP_UINT;
    v->u = t;
    return true;
  }
  if (t >= 0xe0) { /* negative fixint */
    v->type = MP_INT;
    v->i = (int8_t)t;
    return true;
  }
  if ((t & 0xf0) == 0x80) { /* fixmap */
    v->type = MP_MAP;
    v->count = t & 0x0f;
    return true;
  }
  if ((t & 0xf0) == 0x90) { /* fixarray */
    v->type = MP_ARRAY;
    v->count = t & 0x0f;
    return true;
  }
  if ((t & 0xe0) == 0xa0) { /* fixstr */
    v->type = MP_STR;
    return take_bytes(r, t & 0x1f, v);
  }

  switch (t) {
    case 0xc0:
      v->type = MP_NIL;
      return true;
    case 0xc2:
    case 0xc3:
      v->type = MP_BOOL;
      v->boolean = t == 0xc3;
      return true;
    case 0xc4: /* bin 8/16/32 */
    case 0xc5:
    case 0xc6:
      v->type = MP_BIN;
      return take_be(r, 1u << (t - 0xc4), &x) && take_bytes(r, x, v);
    case 0xc7: /* ext 8/16/32: length, type byte, payload */
    case 0xc8:
    case 0xc9:
      v->type = MP_EXT;
      return take_be(r, 1u << (t - 0xc7), &x) && take_be(r, 1, &(uint64_t){0}) &&
             take_bytes(r, x, v);
    case 0xca: { /* float 32 */
      if (!take_be(r, 4, &x)) return false;
      uint32_t bits = (uint32_t)x;
      float f;
      memcpy(&f, &bits, sizeof f);
      v->type = MP_FLOAT;
      v->f = f;
      return true;
    }
    case 0xcb: /* float 64 */
      if (!take_be(r, 8, &x)) return false;
      v->type = MP_FLOAT;
      memcpy(&v->f, &x, sizeof v->f);
      return true;
    case 0xcc: /* uint 8/16/32/64 */
    case 0xcd:
    case 0xce:
    case 0xcf:
      if (!take_be(r, 1u << (t - 0xcc), &x)) return false;
      v->type = MP_UINT;
      v->u = x;
      return true;
    case 0xd0: /* int 8/16/32/64: sign-extend from the stored width */
    case 0xd1:
    case 0xd2:
    case 0xd3: {
      unsigned n = 1u << (t - 0xd0);
      if (!take_be(r, n, &x)) return false;
      unsigned shift = 64 - 8 * n;
      set_signed(v, (int64_t)(x << shift) >> shift);
      return true;
    }
    case 0xd4: /* fixext 1/2/4/8/16: type byte, payload */
    case 0xd5:
    case 0xd6:
    case 0xd7:
    case 0xd8:
      v->type = MP_EXT;
      return take_be(r, 1, &x) && take_bytes(r, 1u << (t - 0xd4), v);
    case 0xd9: /* str 8/16/32 */
    case 0xda:
    case 0xdb:
      v->type = MP_STR;
      return take_be(r, 1u << (t - 0xd9), &x) && take_bytes(r, x, v);
    case 0xdc: /* array 16/32 */
    case 0xdd:
      if (!take_be(r, t == 0xdc ? 2 : 4, &x)) return false;
      v->type = MP_ARRAY;
      v->count = (uint32_t)x;
      return true;
    case 0xde: /* map 16/32 */
    case 0xdf:
      if (!take_be(r, t == 0xde ? 2 : 4, &x)) return false;
      v->type = MP_MAP;
      v->count = (uint32_t)x;
      return true;
    default: /* 0xc1: never used */
      return fail(r);
  }
}

bool mp_skip(struct mp_reader *r) {
  /* Items still to skip. Each costs at least one byte, so a count larger
   * than what is left of the buffer is malformed: checking that keeps the
   * loop bounded by the buffer size whatever the headers claim. */
  uint64_t pending = 1;
  while (pending > 0) {
    struct mp_value v;
    if (!mp_read(r, &v)) return false;
    pending--;
    if (v.type == MP_ARRAY) pending += v.count;
    if (v.type == MP_MAP) pending += 2 * (uint64_t)v.count;
    if (pending > (uint64_t)(r->end - r->p)) return fail(r);
  }
  return true;
}

bool mp_str_eq(const struct mp_value *v, const char *s) {
  size_t n = strlen(s);
  return v->type == MP_STR && v->str.len == n && memcmp(v->str.ptr, s, n) == 0;
}

bool mp_get_u32(const struct mp_value *v, uint32_t *out) {
  if (v->type != MP_UINT || v->u > UINT32_MAX) return false;
  *out = (uint32_t)v->u;
  return true;
}
