/* Files of the boot file system through every interface an application
 * has: plat_file_load, open/read/lseek/fstat/close, stdio, stat; and the
 * error paths (missing file, writes refused, bad descriptors).
 *
 * The test ESP carries tests/data/esp/data/bootfs/hello.txt and a
 * generated /data/bootfs/pattern.bin (mk/image.mk: byte i is
 * (i * 7 + (i >> 10)) & 0xff, 300000 bytes: several FAT clusters). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/plat.h"
#include "lib/test.h"

static const char hello[] = "hello from the boot file system\nsecond line\n";
#define PATTERN_SIZE 300000
static uint8_t pattern_byte(size_t i) { return (uint8_t)(i * 7 + (i >> 10)); }

TEST(bootfs_plat_file_load) {
  size_t size = 0;
  char *p = plat_file_load("/data/bootfs/hello.txt", &size);
  ASSERT_NOT_NULL(p);
  ASSERT_EQ(size, sizeof hello - 1);
  ASSERT_MEM_EQ(p, hello, size);
  free(p);
  /* FAT names ignore case; the leading '/' is optional. */
  p = plat_file_load("DATA/BOOTFS/HELLO.TXT", &size);
  ASSERT_NOT_NULL(p);
  free(p);
}

TEST(bootfs_large_file_contents) {
  size_t size = 0;
  uint8_t *p = plat_file_load("/data/bootfs/pattern.bin", &size);
  ASSERT_NOT_NULL(p);
  ASSERT_EQ(size, PATTERN_SIZE);
  for (size_t i = 0; i < size; i++)
    if (p[i] != pattern_byte(i)) FAIL("byte %zu is 0x%02x", i, p[i]);
  free(p);
}

TEST(bootfs_missing_file_is_enoent) {
  errno = 0;
  size_t size = 123;
  ASSERT_NULL(plat_file_load("/data/bootfs/nope.bin", &size));
  ASSERT_EQ(errno, ENOENT);
  errno = 0;
  /* (the test ESP carries synthetic GPU firmware under /amdgpu: a name no chip uses) */
  ASSERT_EQ(open("/amdgpu/no_such_chip_mec.bin", O_RDONLY), -1);
  ASSERT_EQ(errno, ENOENT);
  ASSERT_NULL(fopen("/nothing", "r"));
}

TEST(bootfs_posix_calls) {
  int fd = open("/data/bootfs/pattern.bin", O_RDONLY);
  ASSERT_GE(fd, 3);
  struct stat st;
  ASSERT_EQ(fstat(fd, &st), 0);
  ASSERT_EQ(st.st_size, PATTERN_SIZE);
  ASSERT_TRUE(S_ISREG(st.st_mode));
  ASSERT_EQ(lseek(fd, 100000, SEEK_SET), 100000);
  uint8_t buf[16];
  ASSERT_EQ(read(fd, buf, sizeof buf), 16);
  for (int i = 0; i < 16; i++) ASSERT_EQ(buf[i], pattern_byte(100000 + (size_t)i));
  ASSERT_EQ(lseek(fd, -4, SEEK_END), PATTERN_SIZE - 4);
  ASSERT_EQ(read(fd, buf, sizeof buf), 4); /* short read at the end */
  ASSERT_EQ(read(fd, buf, sizeof buf), 0); /* then end of file */
  ASSERT_EQ(lseek(fd, -1, SEEK_SET), -1);
  ASSERT_EQ(errno, EINVAL);
  ASSERT_EQ(close(fd), 0);
  ASSERT_EQ(close(fd), -1); /* already closed */
  ASSERT_EQ(errno, EBADF);
  ASSERT_EQ(read(fd, buf, 1), -1);
  ASSERT_EQ(stat("/data/bootfs/hello.txt", &st), 0);
  ASSERT_EQ(st.st_size, sizeof hello - 1);
}

TEST(bootfs_is_read_only) {
  errno = 0;
  ASSERT_EQ(open("/data/bootfs/hello.txt", O_WRONLY), -1);
  ASSERT_EQ(errno, EROFS);
  ASSERT_EQ(open("/data/new.txt", O_WRONLY | O_CREAT, 0644), -1);
  ASSERT_EQ(errno, EROFS);
  ASSERT_NULL(fopen("/data/bootfs/hello.txt", "w"));
  ASSERT_EQ(unlink("/data/bootfs/hello.txt"), -1);
}

TEST(bootfs_stdio) {
  FILE *f = fopen("/data/bootfs/hello.txt", "r");
  ASSERT_NOT_NULL(f);
  char line[64];
  ASSERT_NOT_NULL(fgets(line, sizeof line, f));
  ASSERT_STR_EQ(line, "hello from the boot file system\n");
  ASSERT_NOT_NULL(fgets(line, sizeof line, f));
  ASSERT_STR_EQ(line, "second line\n");
  ASSERT_NULL(fgets(line, sizeof line, f));
  ASSERT_TRUE(feof(f));
  ASSERT_EQ(fclose(f), 0);
}
