/* The boot file system block: written by boot/bootfs_build.c, read and
 * checked by kernel/bootfs.c, including blocks damaged in every field. */
#include <stdlib.h>
#include <string.h>

#include "boot/bootfs_build.h"
#include "kernel/bootfs.h"
#include "lib/test.h"

static char err[200];

/* Two files, the block in a malloc'ed buffer the caller frees. */
static struct bootfs_header *build(uint64_t *size_out) {
  static const char a[] = "firmware bytes";
  static const char b[] = "x";
  struct bootfs_plan plan = {0};
  bootfs_plan_add(&plan, strlen("/amdgpu/raven_mec.bin"), sizeof a);
  bootfs_plan_add(&plan, strlen("/data/b"), sizeof b);
  uint64_t size = bootfs_plan_size(&plan);
  void *buf = malloc(size);
  struct bootfs_writer w;
  ASSERT_EQ(bootfs_writer_begin(&w, buf, size, &plan), 0);
  memcpy(bootfs_writer_add(&w, "/amdgpu/raven_mec.bin", sizeof a), a, sizeof a);
  memcpy(bootfs_writer_add(&w, "/data/b", sizeof b), b, sizeof b);
  ASSERT_NULL(bootfs_writer_add(&w, "/one/too/many", 1)); /* beyond the plan */
  ASSERT_EQ_U(bootfs_writer_finish(&w), size);
  *size_out = size;
  return buf;
}

TEST(bootfs_round_trip) {
  uint64_t size, n;
  struct bootfs_header *fs = build(&size);
  ASSERT_EQ(bootfs_check(fs, size, err, sizeof err), 0);
  ASSERT_EQ(fs->count, 2);
  const char *data = bootfs_find(fs, "/amdgpu/raven_mec.bin", &n);
  ASSERT_NOT_NULL(data);
  ASSERT_EQ(n, sizeof "firmware bytes");
  ASSERT_STR_EQ(data, "firmware bytes");
  ASSERT_EQ((uintptr_t)(data - (const char *)fs) % BOOTFS_DATA_ALIGN, 0);
  ASSERT_NOT_NULL(bootfs_find(fs, "AMDGPU/Raven_MEC.bin", &n)); /* FAT: no case */
  ASSERT_NULL(bootfs_find(fs, "/amdgpu/raven_me.bin", &n));
  ASSERT_NULL(bootfs_find(fs, "/amdgpu", &n));
  ASSERT_STR_EQ(bootfs_name(fs, 1, &n), "/data/b");
  ASSERT_EQ(n, 2);
  free(fs);
}

TEST(bootfs_empty_block) {
  struct bootfs_plan plan = {0};
  uint64_t size = bootfs_plan_size(&plan);
  struct bootfs_header *fs = malloc(size);
  struct bootfs_writer w;
  ASSERT_EQ(bootfs_writer_begin(&w, fs, size, &plan), 0);
  bootfs_writer_finish(&w);
  ASSERT_EQ(bootfs_check(fs, size, err, sizeof err), 0);
  uint64_t n;
  ASSERT_NULL(bootfs_find(fs, "/x", &n));
  free(fs);
}

TEST(bootfs_writer_refuses_small_buffer) {
  struct bootfs_plan plan = {0};
  bootfs_plan_add(&plan, 5, 100);
  char buf[64];
  struct bootfs_writer w;
  ASSERT_EQ(bootfs_writer_begin(&w, buf, sizeof buf, &plan), -1);
}

/* Each damage must be caught, with a reason that names it. */
TEST(bootfs_check_rejects_damage) {
  uint64_t size;
  struct bootfs_header *good = build(&size);
  struct bootfs_header *fs = malloc(size);
  struct bootfs_entry *e = (struct bootfs_entry *)(fs + 1);
  /* bad magic */
  memcpy(fs, good, size);
  fs->magic ^= 1;
  ASSERT_EQ(bootfs_check(fs, size, err, sizeof err), -1);
  ASSERT_TRUE(strstr(err, "magic") != NULL);
  /* total size beyond what is there */
  memcpy(fs, good, size);
  fs->total_size = size + 64;
  ASSERT_EQ(bootfs_check(fs, size, err, sizeof err), -1);
  ASSERT_TRUE(strstr(err, "total size") != NULL);
  /* too many entries for the block */
  memcpy(fs, good, size);
  fs->count = 0x10000000;
  ASSERT_EQ(bootfs_check(fs, size, err, sizeof err), -1);
  ASSERT_TRUE(strstr(err, "entries") != NULL);
  /* a name outside the block, and one inside the entry table */
  memcpy(fs, good, size);
  e[1].name_offset = size;
  ASSERT_EQ(bootfs_check(fs, size, err, sizeof err), -1);
  ASSERT_TRUE(strstr(err, "name offset") != NULL);
  memcpy(fs, good, size);
  e[0].name_offset = 4;
  ASSERT_EQ(bootfs_check(fs, size, err, sizeof err), -1);
  /* a name without its NUL up to the end */
  memcpy(fs, good, size);
  e[1].name_offset = size - 1;
  ((char *)fs)[size - 1] = 'z';
  ASSERT_EQ(bootfs_check(fs, size, err, sizeof err), -1);
  ASSERT_TRUE(strstr(err, "not terminated") != NULL);
  /* data past the end, and a size that wraps the offset */
  memcpy(fs, good, size);
  e[0].size = size;
  ASSERT_EQ(bootfs_check(fs, size, err, sizeof err), -1);
  ASSERT_TRUE(strstr(err, "out of range") != NULL);
  memcpy(fs, good, size);
  e[0].size = UINT64_MAX - 8;
  ASSERT_EQ(bootfs_check(fs, size, err, sizeof err), -1);
  /* a block shorter than its header */
  ASSERT_EQ(bootfs_check(fs, 8, err, sizeof err), -1);
  free(fs);
  free(good);
}
