/*
 * msgpack.h - a bounded, allocation-free MessagePack reader.
 *
 * The NT_AMDGPU_METADATA note of a code object is one MessagePack map
 * (AMDGPUUsage "Code Object V3 Metadata"). The reader walks a byte range
 * item by item; it never reads outside [p, end), never recurses (skipping a
 * nested item counts pending items instead), and after the first error
 * every call fails, so callers check once at the end or at each step.
 *
 * Format facts: the MessagePack specification (msgpack/msgpack spec.md,
 * "Formats"): type bytes, big-endian lengths and values.
 */
#ifndef HSA_LOADER_MSGPACK_H
#define HSA_LOADER_MSGPACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum mp_type {
  MP_NIL,
  MP_BOOL,
  MP_UINT,  /* positive fixint, uint 8-64, and non-negative int 8-64 */
  MP_INT,   /* a negative integer */
  MP_FLOAT, /* float 32 or 64, as a double */
  MP_STR,
  MP_BIN,
  MP_EXT,
  MP_ARRAY, /* header only: `count` items follow */
  MP_MAP,   /* header only: `count` key/value pairs follow */
};

struct mp_value {
  enum mp_type type;
  union {
    bool boolean;
    uint64_t u;
    int64_t i;
    double f;
    uint32_t count; /* MP_ARRAY, MP_MAP */
    struct {
      const char *ptr; /* not NUL-terminated: points into the buffer */
      uint32_t len;
    } str; /* MP_STR, MP_BIN, MP_EXT (payload) */
  };
};

struct mp_reader {
  const uint8_t *p, *end;
  bool failed;
};

void mp_reader_init(struct mp_reader *r, const void *data, size_t size);

/* Reads the next item's header (for a string, its bytes too). False at the
 * end of the buffer, on a malformed or reserved type byte (0xc1), or after an
 * earlier failure. */
bool mp_read(struct mp_reader *r, struct mp_value *v);

/* Skips the next item with everything nested in it. */
bool mp_skip(struct mp_reader *r);

/* Convenience checks on a value already read. */
bool mp_str_eq(const struct mp_value *v, const char *s);
/* A non-negative integer that fits in uint32_t (metadata sizes and counts). */
bool mp_get_u32(const struct mp_value *v, uint32_t *out);

#endif
