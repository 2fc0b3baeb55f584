/* Metadata parsing from MessagePack written by the test itself, so that each
 * required key, type and bound of AMDGPUUsage "Code Object V3 Metadata"
 * (with the V4/V5 changes) can be broken on its own. */
#include <stdio.h>
#include <string.h>

#include "hsa/loader/metadata.h"
#include "lib/test.h"
#include "lib/util.h"

/* ---- A minimal MessagePack writer (spec "Formats") ---------------------------- */
struct writer {
  uint8_t buf[4096];
  size_t n;
};
static void w_byte(struct writer *w, uint8_t b) { w->buf[w->n++] = b; }
static void w_map(struct writer *w, unsigned count) { w_byte(w, (uint8_t)(0x80 | count)); }
static void w_array(struct writer *w, unsigned count) { w_byte(w, (uint8_t)(0x90 | count)); }
static void w_str(struct writer *w, const char *s) {
  size_t len = strlen(s);
  w_byte(w, 0xd9), w_byte(w, (uint8_t)len);
  memcpy(w->buf + w->n, s, len);
  w->n += len;
}
static void w_uint(struct writer *w, uint32_t v) {
  w_byte(w, 0xce);
  for (int i = 3; i >= 0; i--) w_byte(w, (uint8_t)(v >> (8 * i)));
}
static void w_bool(struct writer *w, bool b) { w_byte(w, b ? 0xc3 : 0xc2); }

/* What to leave out or change in the kernel map. */
struct variant {
  const char *skip_key;  /* drop this kernel key */
  uint32_t wavefront;    /* .wavefront_size */
  uint32_t align;        /* .kernarg_segment_align */
  uint32_t arg1_offset;  /* .offset of the second argument */
  const char *arg1_kind; /* .value_kind of the second argument */
  uint32_t version_major;
  unsigned kernels; /* how many copies of the kernel */
  bool trailing_byte;
};

static const struct variant good = {NULL, 64, 8, 8, "hidden_block_count_x", 1, 1, false};

static void write_kernel(struct writer *w, const struct variant *v) {
  unsigned keys = 9 - (v->skip_key != NULL);
  w_map(w, keys);
  if (!v->skip_key || strcmp(v->skip_key, ".name")) w_str(w, ".name"), w_str(w, "k");
  if (!v->skip_key || strcmp(v->skip_key, ".symbol")) w_str(w, ".symbol"), w_str(w, "k.kd");
  if (!v->skip_key || strcmp(v->skip_key, ".kernarg_segment_size"))
    w_str(w, ".kernarg_segment_size"), w_uint(w, 16);
  if (!v->skip_key || strcmp(v->skip_key, ".kernarg_segment_align"))
    w_str(w, ".kernarg_segment_align"), w_uint(w, v->align);
  if (!v->skip_key || strcmp(v->skip_key, ".group_segment_fixed_size"))
    w_str(w, ".group_segment_fixed_size"), w_uint(w, 256);
  if (!v->skip_key || strcmp(v->skip_key, ".private_segment_fixed_size"))
    w_str(w, ".private_segment_fixed_size"), w_uint(w, 32);
  if (!v->skip_key || strcmp(v->skip_key, ".wavefront_size"))
    w_str(w, ".wavefront_size"), w_uint(w, v->wavefront);
  if (!v->skip_key || strcmp(v->skip_key, ".vendor.extension"))
    w_str(w, ".vendor.extension"), w_array(w, 2), w_map(w, 1), w_str(w, "x"), w_bool(w, true),
        w_uint(w, 3);
  if (!v->skip_key || strcmp(v->skip_key, ".args")) {
    w_str(w, ".args"), w_array(w, 2);
    w_map(w, 4), w_str(w, ".name"), w_str(w, "p"), w_str(w, ".offset"), w_uint(w, 0),
        w_str(w, ".size"), w_uint(w, 8), w_str(w, ".value_kind"), w_str(w, "global_buffer");
    w_map(w, 3), w_str(w, ".offset"), w_uint(w, v->arg1_offset), w_str(w, ".size"), w_uint(w, 4),
        w_str(w, ".value_kind"), w_str(w, v->arg1_kind);
  }
}

static size_t write_metadata(struct writer *w, const struct variant *v) {
  w->n = 0;
  w_map(w, 3);
  w_str(w, "amdhsa.version"), w_array(w, 2), w_uint(w, v->version_major), w_uint(w, 2);
  w_str(w, "amdhsa.target"), w_str(w, "amdgcn-amd-amdhsa--gfx902");
  w_str(w, "amdhsa.kernels"), w_array(w, v->kernels);
  for (unsigned i = 0; i < v->kernels; i++) write_kernel(w, v);
  if (v->trailing_byte) w_byte(w, 0);
  return w->n;
}

/* NULL if the metadata `v` describes is refused with a message naming
 * `what` and so is every shorter prefix of it, else what went wrong (in
 * msg). */
static const char *refusal_problem(const struct variant *v, const char *what, char *msg,
                                   size_t msg_size) {
  struct writer w;
  struct loader_metadata md;
  char why[200] = "";
  size_t n = write_metadata(&w, v);
  if (loader_metadata_parse(w.buf, n, &md, why, sizeof why)) {
    loader_metadata_free(&md);
    snprintf(msg, msg_size, "accepted; expected a refusal naming \"%s\"", what);
    return msg;
  }
  if (!strstr(why, what)) {
    snprintf(msg, msg_size, "\"%s\" does not name \"%s\"", why, what);
    return msg;
  }
  /* Every shorter prefix is refused too (and leaks nothing); without its
   * trailing byte the map is whole again. */
  for (size_t cut = 0; cut < n - v->trailing_byte; cut++) {
    if (loader_metadata_parse(w.buf, cut, &md, why, sizeof why)) {
      loader_metadata_free(&md);
      snprintf(msg, msg_size, "a %zu-byte prefix was accepted", cut);
      return msg;
    }
  }
  return NULL;
}
/* Fails at the caller's line. */
#define REFUSED(v, what)                                                   \
  do {                                                                     \
    char msg_[400];                                                        \
    const char *problem_ = refusal_problem(&(v), what, msg_, sizeof msg_); \
    ASSERT_MSG(!problem_, "%s", problem_);                                 \
  } while (0)

TEST(loader_metadata_parses_kernel_and_args) {
  struct writer w;
  struct loader_metadata md;
  char why[200];
  size_t n = write_metadata(&w, &good);
  ASSERT_TRUE(loader_metadata_parse(w.buf, n, &md, why, sizeof why));
  ASSERT_EQ(md.version_major, 1);
  ASSERT_EQ(md.version_minor, 2);
  ASSERT_STR_EQ(md.target, "amdgcn-amd-amdhsa--gfx902");
  ASSERT_EQ(md.kernel_count, 1);
  const struct loader_kernel_meta *k = loader_metadata_kernel_by_symbol(&md, "k.kd");
  ASSERT_NOT_NULL(k);
  ASSERT_STR_EQ(k->name, "k");
  ASSERT_EQ(k->kernarg_segment_size, 16);
  ASSERT_EQ(k->group_segment_fixed_size, 256);
  ASSERT_EQ(k->private_segment_fixed_size, 32);
  ASSERT_EQ(k->arg_count, 2);
  ASSERT_STR_EQ(k->args[0].name, "p");
  ASSERT_EQ(k->args[0].kind, LOADER_ARG_GLOBAL_BUFFER);
  ASSERT_EQ(k->args[1].kind, LOADER_ARG_HIDDEN_BLOCK_COUNT_X);
  ASSERT_TRUE(loader_arg_kind_is_hidden(k->args[1].kind));
  ASSERT_FALSE(loader_arg_kind_is_hidden(k->args[0].kind));
  ASSERT_NULL(loader_metadata_kernel_by_symbol(&md, "k"));
  loader_metadata_free(&md);

  /* A value kind from a newer document is kept by name, not refused. */
  struct variant v = good;
  v.arg1_kind = "hidden_future_thing";
  n = write_metadata(&w, &v);
  ASSERT_TRUE(loader_metadata_parse(w.buf, n, &md, why, sizeof why));
  ASSERT_EQ(md.kernels[0].args[1].kind, LOADER_ARG_UNKNOWN);
  ASSERT_STR_EQ(md.kernels[0].args[1].kind_name, "hidden_future_thing");
  loader_metadata_free(&md);
}

TEST(loader_metadata_required_keys_and_bounds) {
  static const char *const required[] = {".name",
                                         ".symbol",
                                         ".kernarg_segment_size",
                                         ".kernarg_segment_align",
                                         ".group_segment_fixed_size",
                                         ".private_segment_fixed_size",
                                         ".wavefront_size"};
  for (size_t i = 0; i < countof(required); i++) {
    struct variant v = good;
    v.skip_key = required[i];
    REFUSED(v, "lacks a required key");
  }
  struct variant v = good;
  v.wavefront = 48;
  REFUSED(v, ".wavefront_size 48");
  v = good, v.align = 12;
  REFUSED(v, "not a power of 2");
  v = good, v.arg1_offset = 13; /* 13 + 4 > 16 */
  REFUSED(v, "ends beyond .kernarg_segment_size 16");
  v = good, v.arg1_offset = 0xfffffffe; /* offset + size overflows 32 bits */
  REFUSED(v, "ends beyond");
  v = good, v.kernels = 2;
  REFUSED(v, "two kernels with .symbol k.kd");
  v = good, v.version_major = 2;
  REFUSED(v, "amdhsa.version 2.2 is not supported");
  v = good, v.trailing_byte = true;
  REFUSED(v, "after the top-level map");
}

TEST(loader_metadata_wrong_types) {
  struct writer w;
  struct loader_metadata md;
  char why[200];
  /* The top level is not a map. */
  w.n = 0;
  w_array(&w, 0);
  ASSERT_FALSE(loader_metadata_parse(w.buf, w.n, &md, why, sizeof why));
  ASSERT_NOT_NULL(strstr(why, "not a map"));
  /* amdhsa.kernels is a string. */
  w.n = 0;
  w_map(&w, 2), w_str(&w, "amdhsa.version"), w_array(&w, 2), w_uint(&w, 1), w_uint(&w, 1);
  w_str(&w, "amdhsa.kernels"), w_str(&w, "oops");
  ASSERT_FALSE(loader_metadata_parse(w.buf, w.n, &md, why, sizeof why));
  ASSERT_NOT_NULL(strstr(why, "amdhsa.kernels is not a sequence"));
  /* No kernels key at all. */
  w.n = 0;
  w_map(&w, 1), w_str(&w, "amdhsa.version"), w_array(&w, 2), w_uint(&w, 1), w_uint(&w, 1);
  ASSERT_FALSE(loader_metadata_parse(w.buf, w.n, &md, why, sizeof why));
  ASSERT_NOT_NULL(strstr(why, "amdhsa.kernels"));
  /* A key that is not a string. */
  w.n = 0;
  w_map(&w, 1), w_uint(&w, 5), w_uint(&w, 6);
  ASSERT_FALSE(loader_metadata_parse(w.buf, w.n, &md, why, sizeof why));
  ASSERT_NOT_NULL(strstr(why, "not a string"));
}
