/* The newlib glue in the image: console descriptors, time, process calls,
 * and the calls an appliance does not support failing with errno set. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#include "lib/plat.h"
#include "lib/test.h"

TEST(libc_console_descriptors) {
  ASSERT_EQ(write(STDOUT_FILENO, "libc_console_descriptors: stdout works\n", 39), 39);
  ASSERT_EQ(isatty(STDOUT_FILENO), 1);
  ASSERT_EQ(isatty(STDERR_FILENO), 1);
  errno = 0;
  ASSERT_EQ(isatty(42), 0);
  ASSERT_EQ(errno, ENOTTY);
  errno = 0;
  ASSERT_EQ(write(STDIN_FILENO, "x", 1), -1);
  ASSERT_EQ(errno, EBADF);
  struct stat st;
  ASSERT_EQ(fstat(STDOUT_FILENO, &st), 0);
  ASSERT_TRUE(S_ISCHR(st.st_mode));
  ASSERT_EQ(lseek(STDOUT_FILENO, 0, SEEK_SET), -1);
  ASSERT_EQ(errno, ESPIPE);
}

TEST(libc_clocks_advance) {
  struct timespec a, b, res;
  ASSERT_EQ(clock_gettime(CLOCK_MONOTONIC, &a), 0);
  uint64_t until = plat_now_ns() + 2000000; /* 2 ms of busy waiting */
  while (plat_now_ns() < until) plat_cpu_relax();
  ASSERT_EQ(clock_gettime(CLOCK_MONOTONIC, &b), 0);
  int64_t ns = (int64_t)(b.tv_sec - a.tv_sec) * 1000000000 + (b.tv_nsec - a.tv_nsec);
  ASSERT_GE(ns, 2000000);
  ASSERT_EQ(clock_getres(CLOCK_MONOTONIC, &res), 0);
  errno = 0;
  ASSERT_EQ(clock_gettime((clockid_t)99, &a), -1);
  ASSERT_EQ(errno, EINVAL);
  struct timeval tv;
  ASSERT_EQ(gettimeofday(&tv, NULL), 0);
  ASSERT_GT(tv.tv_sec, 1600000000); /* the firmware's RTC: after 2020 */
  ASSERT_GE(clock(), 0);
  struct tms t;
  ASSERT_GT(times(&t), 0);
}

TEST(libc_unsupported_calls_set_errno) {
  errno = 0;
  ASSERT_EQ(fork(), -1);
  ASSERT_EQ(errno, ENOSYS);
  errno = 0;
  ASSERT_EQ(mkdir("/x", 0755), -1);
  ASSERT_EQ(errno, EROFS);
  errno = 0;
  ASSERT_EQ(kill(77, SIGTERM), -1);
  ASSERT_EQ(errno, ESRCH);
  ASSERT_EQ(getpid(), 1);
}

TEST(libc_sysconf) {
  ASSERT_EQ(sysconf(_SC_PAGESIZE), 4096);
  ASSERT_GE(sysconf(_SC_NPROCESSORS_ONLN), 1);
  long phys = sysconf(_SC_PHYS_PAGES), avail = sysconf(_SC_AVPHYS_PAGES);
  ASSERT_GT(phys, (256l << 20) / 4096);
  ASSERT_GT(avail, 0);
  ASSERT_LT(avail, phys);
  errno = 0;
  ASSERT_EQ(sysconf(-1), -1);
  ASSERT_EQ(errno, EINVAL);
}

TEST(libc_boot_options_reach_the_image) {
  ASSERT_NOT_NULL(plat_option("test")); /* the test suites always pass test= */
  ASSERT_NULL(plat_option("no_such_option"));
  ASSERT_STR_EQ(plat_name(), "efi");
}
