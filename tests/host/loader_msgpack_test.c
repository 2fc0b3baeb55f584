/* The MessagePack reader against byte strings written by hand from the
 * MessagePack specification ("Formats"), including truncations and counts
 * that lie. */
#include <string.h>

#include "hsa/loader/msgpack.h"
#include "lib/test.h"
#include "lib/util.h"

static struct mp_value read_one(const void *bytes, size_t size, bool *ok) {
  struct mp_reader r;
  struct mp_value v;
  memset(&v, 0, sizeof v);
  mp_reader_init(&r, bytes, size);
  *ok = mp_read(&r, &v) && r.p == r.end; /* consumed exactly */
  return v;
}

#define EXPECT_UINT(bytes, value)                       \
  do {                                                  \
    static const uint8_t b_[] = bytes;                  \
    bool ok_;                                           \
    struct mp_value v_ = read_one(b_, sizeof b_, &ok_); \
    ASSERT_TRUE(ok_);                                   \
    ASSERT_EQ(v_.type, MP_UINT);                        \
    ASSERT_EQ_U(v_.u, value);                           \
  } while (0)
#define EXPECT_INT(bytes, value)                        \
  do {                                                  \
    static const uint8_t b_[] = bytes;                  \
    bool ok_;                                           \
    struct mp_value v_ = read_one(b_, sizeof b_, &ok_); \
    ASSERT_TRUE(ok_);                                   \
    ASSERT_EQ(v_.type, MP_INT);                         \
    ASSERT_EQ(v_.i, value);                             \
  } while (0)
#define B(...) \
  { __VA_ARGS__ }

TEST(loader_msgpack_integers) {
  EXPECT_UINT(B(0x00), 0);
  EXPECT_UINT(B(0x7f), 127);
  EXPECT_UINT(B(0xcc, 0xff), 255);
  EXPECT_UINT(B(0xcd, 0x12, 0x34), 0x1234);
  EXPECT_UINT(B(0xce, 0x12, 0x34, 0x56, 0x78), 0x12345678);
  EXPECT_UINT(B(0xcf, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08), 0x0102030405060708ull);
  EXPECT_INT(B(0xff), -1);
  EXPECT_INT(B(0xe0), -32);
  EXPECT_INT(B(0xd0, 0x80), -128);
  EXPECT_INT(B(0xd1, 0xff, 0x00), -256);
  EXPECT_INT(B(0xd2, 0x80, 0x00, 0x00, 0x00), INT32_MIN);
  EXPECT_INT(B(0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0), INT64_MIN);
  EXPECT_UINT(B(0xd0, 0x05), 5); /* a signed encoding of a non-negative value */
}

TEST(loader_msgpack_scalars_strings_containers) {
  bool ok;
  static const uint8_t nil[] = {0xc0}, t[] = {0xc3}, f[] = {0xc2};
  ASSERT_EQ(read_one(nil, 1, &ok).type, MP_NIL);
  ASSERT_TRUE(read_one(t, 1, &ok).boolean);
  ASSERT_FALSE(read_one(f, 1, &ok).boolean);

  static const uint8_t f32[] = {0xca, 0x3f, 0xc0, 0x00, 0x00};       /* 1.5f */
  static const uint8_t f64[] = {0xcb, 0xc0, 0x04, 0, 0, 0, 0, 0, 0}; /* -2.5 */
  ASSERT_TRUE(read_one(f32, sizeof f32, &ok).f == 1.5 && ok);
  ASSERT_TRUE(read_one(f64, sizeof f64, &ok).f == -2.5 && ok);

  static const uint8_t fixstr[] = {0xa3, 'a', 'b', 'c'};
  struct mp_value v = read_one(fixstr, sizeof fixstr, &ok);
  ASSERT_TRUE(ok && v.type == MP_STR && mp_str_eq(&v, "abc") && !mp_str_eq(&v, "ab"));
  static const uint8_t str8[] = {0xd9, 2, 'h', 'i'}, str16[] = {0xda, 0, 1, 'x'},
                       str32[] = {0xdb, 0, 0, 0, 1, 'y'};
  ASSERT_TRUE(mp_str_eq((v = read_one(str8, sizeof str8, &ok), &v), "hi") && ok);
  ASSERT_TRUE(mp_str_eq((v = read_one(str16, sizeof str16, &ok), &v), "x") && ok);
  ASSERT_TRUE(mp_str_eq((v = read_one(str32, sizeof str32, &ok), &v), "y") && ok);
  static const uint8_t bin8[] = {0xc4, 2, 1, 2}, ext[] = {0xd4, 7, 9}, ext8[] = {0xc7, 1, 7, 9};
  ASSERT_TRUE(read_one(bin8, sizeof bin8, &ok).type == MP_BIN && ok);
  ASSERT_TRUE(read_one(ext, sizeof ext, &ok).type == MP_EXT && ok);
  ASSERT_TRUE(read_one(ext8, sizeof ext8, &ok).type == MP_EXT && ok);

  static const uint8_t arr[] = {0x93}, arr16[] = {0xdc, 0x01, 0x00}, map32[] = {0xdf, 0, 1, 0, 0};
  v = read_one(arr, 1, &ok);
  ASSERT_TRUE(v.type == MP_ARRAY && v.count == 3);
  v = read_one(arr16, 3, &ok);
  ASSERT_TRUE(v.type == MP_ARRAY && v.count == 256);
  v = read_one(map32, 5, &ok);
  ASSERT_TRUE(v.type == MP_MAP && v.count == 65536);

  uint32_t u;
  v.type = MP_UINT, v.u = 1ull << 32;
  ASSERT_FALSE(mp_get_u32(&v, &u));
  v.u = 7;
  ASSERT_TRUE(mp_get_u32(&v, &u) && u == 7);
}

TEST(loader_msgpack_truncated_and_invalid) {
  /* Every prefix of these items is refused, and so is the unused 0xc1. */
  static const uint8_t items[][10] = {{0xcd, 0x12, 0x34},
                                      {0xcf, 1, 2, 3, 4, 5, 6, 7, 8},
                                      {0xa3, 'a', 'b', 'c'},
                                      {0xda, 0x00, 0x02, 'h', 'i'},
                                      {0xc5, 0x00, 0x01, 0x00},
                                      {0xc8, 0x00, 0x01, 5, 0},
                                      {0xdd, 0, 0, 0, 1},
                                      {0xca, 0, 0, 0, 0},
                                      {0xd7, 1, 1, 2, 3, 4, 5, 6, 7, 8}};
  static const size_t sizes[] = {3, 9, 4, 5, 4, 5, 5, 5, 10};
  for (size_t i = 0; i < countof(sizes); i++) {
    bool ok;
    read_one(items[i], sizes[i], &ok);
    ASSERT_TRUE(ok);
    for (size_t n = 0; n < sizes[i]; n++) { /* each needs all its bytes */
      struct mp_reader r;
      struct mp_value v;
      mp_reader_init(&r, items[i], n);
      ASSERT_FALSE(mp_read(&r, &v));
      ASSERT_TRUE(r.failed);
    }
  }
  static const uint8_t never[] = {0xc1};
  struct mp_reader r;
  struct mp_value v;
  mp_reader_init(&r, never, 1);
  ASSERT_FALSE(mp_read(&r, &v));
  ASSERT_TRUE(r.failed);
  ASSERT_FALSE(mp_read(&r, &v)); /* stays failed */
}

TEST(loader_msgpack_skip_nested_and_lying_counts) {
  /* {"a": [1, {"b": nil}], "c": "d"} then 0x05 */
  static const uint8_t nested[] = {0x82, 0xa1, 'a',  0x92, 0x01, 0x81, 0xa1,
                                   'b',  0xc0, 0xa1, 'c',  0xa1, 'd',  0x05};
  struct mp_reader r;
  struct mp_value v;
  mp_reader_init(&r, nested, sizeof nested);
  ASSERT_TRUE(mp_skip(&r));
  ASSERT_TRUE(mp_read(&r, &v) && v.type == MP_UINT && v.u == 5);

  /* An array claiming 2^32-1 items in 5 bytes: refused at once, not walked. */
  static const uint8_t huge[] = {0xdd, 0xff, 0xff, 0xff, 0xff};
  mp_reader_init(&r, huge, sizeof huge);
  ASSERT_FALSE(mp_skip(&r));
  /* A map of maps nested deeper than any stack would allow: no recursion. */
  static uint8_t deep[100000];
  memset(deep, 0x81, sizeof deep); /* each a map with one key... that is a map */
  mp_reader_init(&r, deep, sizeof deep);
  ASSERT_FALSE(mp_skip(&r));
}
