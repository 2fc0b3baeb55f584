/* files.c - read-only files of the boot file system (see files.h). */
#include "kernel/files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "boot/boot_info.h"
#include "kernel/bootfs.h"
#include "lib/lock.h"
#include "lib/plat.h"

#define LOG_TAG        "files"
#define FIRST_FILE_FD  3
#define MAX_OPEN_FILES 32

static const struct bootfs_header *bootfs;

static struct open_file {
  const uint8_t *data; /* NULL: slot free */
  uint64_t size;
  uint64_t pos;
} open_files[MAX_OPEN_FILES];
static struct spinlock fd_lock = SPINLOCK_INIT;

int files_init(const struct boot_info *info) {
  char err[160];
  /* boot/ sized the block itself; total_size is the only bound there is. */
  if (bootfs_check(info->bootfs, info->bootfs->total_size, err, sizeof err) != 0) {
    log_error("%s", err);
    return -1;
  }
  bootfs = info->bootfs;
  uint64_t bytes = 0;
  for (uint32_t i = 0; i < bootfs->count; i++) {
    uint64_t size;
    const char *name = bootfs_name(bootfs, i, &size);
    log_debug("boot file %s (%llu bytes)", name, (unsigned long long)size);
    bytes += size;
  }
  log_info("boot file system: %u files, %llu bytes", bootfs->count, (unsigned long long)bytes);
  return 0;
}

const void *files_bootfs(unsigned long long *size) {
  *size = bootfs ? bootfs->total_size : 0;
  return bootfs;
}

static const void *find(const char *path, uint64_t *size) {
  if (!path) {
    errno = EFAULT;
    return NULL;
  }
  const void *data = bootfs ? bootfs_find(bootfs, path, size) : NULL;
  if (!data) errno = ENOENT;
  return data;
}

void *plat_file_load(const char *path, size_t *size) {
  uint64_t n;
  const void *data = find(path, &n);
  if (!data) return NULL;
  void *copy = malloc(n ? n : 1);
  if (!copy) {
    errno = ENOMEM;
    return NULL;
  }
  memcpy(copy, data, n);
  if (size) *size = n;
  return copy;
}

/* ---- newlib's file system calls (libc/include/sys/unistd.h) ---- */

static struct open_file *file_of(int fd) {
  int i = fd - FIRST_FILE_FD;
  if (i < 0 || i >= MAX_OPEN_FILES || !open_files[i].data) {
    errno = EBADF;
    return NULL;
  }
  return &open_files[i];
}

int open(const char *path, int flags, ...);
int open(const char *path, int flags, ...) {
  uint64_t size;
  const void *data = find(path, &size);
  if ((flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC))) {
    errno = data ? EROFS : (flags & O_CREAT) ? EROFS : ENOENT;
    return -1;
  }
  if (!data) return -1;
  uint64_t lock_flags = spin_lock_irqsave(&fd_lock);
  for (int i = 0; i < MAX_OPEN_FILES; i++) {
    if (!open_files[i].data) {
      open_files[i] = (struct open_file){data, size, 0};
      spin_unlock_irqrestore(&fd_lock, lock_flags);
      return FIRST_FILE_FD + i;
    }
  }
  spin_unlock_irqrestore(&fd_lock, lock_flags);
  errno = EMFILE;
  return -1;
}

int close(int fd);
int close(int fd) {
  if (fd >= 0 && fd < FIRST_FILE_FD) return 0; /* the console stays */
  struct open_file *f = file_of(fd);
  if (!f) return -1;
  f->data = NULL;
  return 0;
}

int files_read(int fd, void *buf, size_t n) {
  struct open_file *f = file_of(fd);
  if (!f) return -1;
  uint64_t left = f->pos < f->size ? f->size - f->pos : 0;
  if (n > left) n = left;
  memcpy(buf, f->data + f->pos, n);
  f->pos += n;
  return (int)n;
}

off_t lseek(int fd, off_t offset, int whence);
off_t lseek(int fd, off_t offset, int whence) {
  if (fd >= 0 && fd < FIRST_FILE_FD) {
    errno = ESPIPE;
    return -1;
  }
  struct open_file *f = file_of(fd);
  if (!f) return -1;
  int64_t base = whence == SEEK_SET   ? 0
                 : whence == SEEK_CUR ? (int64_t)f->pos
                 : whence == SEEK_END ? (int64_t)f->size
                                      : -1;
  if (base < 0 || (offset < 0 && -offset > base)) {
    errno = EINVAL;
    return -1;
  }
  f->pos = (uint64_t)(base + offset); /* past the end is allowed; reads return 0 */
  return (off_t)f->pos;
}

static void fill_stat(struct stat *st, uint64_t size, bool console) {
  memset(st, 0, sizeof *st);
  st->st_mode = console ? S_IFCHR | 0620 : S_IFREG | 0444;
  st->st_size = (off_t)size;
  st->st_blksize = 4096;
  st->st_nlink = 1;
}

int fstat(int fd, struct stat *st);
int fstat(int fd, struct stat *st) {
  if (fd >= 0 && fd < FIRST_FILE_FD) {
    fill_stat(st, 0, true);
    return 0;
  }
  struct open_file *f = file_of(fd);
  if (!f) return -1;
  fill_stat(st, f->size, false);
  return 0;
}

int stat(const char *path, struct stat *st);
int stat(const char *path, struct stat *st) {
  uint64_t size;
  if (!find(path, &size)) return -1;
  fill_stat(st, size, false);
  return 0;
}
