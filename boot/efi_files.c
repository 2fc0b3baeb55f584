/* efi_files.c - files of the boot volume: single files and the capture of
 * whole folders into the boot file system (UEFI 2.10, 13.4 "Simple File
 * System Protocol", 13.5 "File Protocol"). */
#include <efi.h>
#include <efiapi.h>
#include <string.h>

#include "boot/bootfs_build.h"
#include "boot/efi_util.h"

#define PATH_MAX_CHARS 256
#define MAX_DEPTH      8

EFI_FILE_HANDLE boot_open_volume(EFI_HANDLE device) {
  EFI_GUID guid = SIMPLE_FILE_SYSTEM_PROTOCOL;
  EFI_FILE_IO_INTERFACE *fs = NULL;
  EFI_STATUS st = efi_bs->HandleProtocol(device, &guid, (void **)&fs);
  if (EFI_ERROR(st)) { /* e.g. loaded over the network */
    boot_print("boot: the boot device has no file system: no \\cmdline.txt, no boot files");
    return NULL;
  }
  EFI_FILE_HANDLE root = NULL;
  st = fs->OpenVolume(fs, &root);
  if (EFI_ERROR(st)) boot_fatal("OpenVolume on the boot volume", st);
  return root;
}

/* EFI_FILE_INFO of an open file, in `buf`. */
static EFI_FILE_INFO *file_info(EFI_FILE_HANDLE f, void *buf, UINTN size) {
  EFI_GUID guid = EFI_FILE_INFO_ID;
  EFI_STATUS st = f->GetInfo(f, &guid, &size, buf);
  if (EFI_ERROR(st)) boot_fatal("GetInfo on a file", st);
  return buf;
}

static void print_path(const char *what, const CHAR16 *path) {
  char ascii[PATH_MAX_CHARS];
  size_t i = 0;
  for (; path[i] && i + 1 < sizeof ascii; i++) ascii[i] = path[i] < 0x80 ? (char)path[i] : '?';
  ascii[i] = '\0';
  boot_print("boot: %s %s", what, ascii);
}

/* Reads the whole of an open file into `dst` (exactly `size` bytes). */
static void read_all(EFI_FILE_HANDLE f, void *dst, uint64_t size, const CHAR16 *path) {
  uint64_t done = 0;
  while (done < size) {
    UINTN chunk = size - done;
    EFI_STATUS st = f->Read(f, &chunk, (UINT8 *)dst + done);
    if (EFI_ERROR(st) || chunk == 0) {
      print_path("cannot read", path);
      boot_fatal("Read", EFI_ERROR(st) ? st : EFI_END_OF_FILE);
    }
    done += chunk;
  }
}

void *boot_read_file(EFI_FILE_HANDLE root, const CHAR16 *path, size_t *size, bool required) {
  EFI_FILE_HANDLE f = NULL;
  EFI_STATUS st = root->Open(root, &f, (CHAR16 *)path, EFI_FILE_MODE_READ, 0);
  if (st == EFI_NOT_FOUND && !required) return NULL;
  if (EFI_ERROR(st)) {
    print_path("cannot open", path);
    boot_fatal("Open", st);
  }
  UINT64 info_buf[128];
  uint64_t file_size = file_info(f, info_buf, sizeof info_buf)->FileSize;
  void *data = boot_alloc_pages(file_size ? file_size : 1, "a file");
  read_all(f, data, file_size, path);
  f->Close(f);
  *size = file_size;
  return data;
}

/* ---- Folder capture: pass 1 lists the files, pass 2 reads them. ---- */

struct file_list {
  struct listed_file {
    CHAR16 path[PATH_MAX_CHARS];
    uint64_t size;
  } * files;
  size_t count, capacity;
};

static void list_append(struct file_list *l, const CHAR16 *path, uint64_t size) {
  if (l->count == l->capacity) {
    size_t cap = l->capacity ? 2 * l->capacity : 32;
    struct listed_file *grown = NULL;
    EFI_STATUS st = efi_bs->AllocatePool(EfiLoaderData, cap * sizeof *grown, (void **)&grown);
    if (EFI_ERROR(st)) boot_fatal("AllocatePool for the file list", st);
    if (l->count) memcpy(grown, l->files, l->count * sizeof *grown);
    if (l->files) efi_bs->FreePool(l->files);
    l->files = grown;
    l->capacity = cap;
  }
  struct listed_file *e = &l->files[l->count++];
  memcpy(e->path, path, sizeof e->path);
  e->size = size;
}

static size_t wlen(const CHAR16 *s) {
  size_t n = 0;
  while (s[n]) n++;
  return n;
}

static void list_folder(EFI_FILE_HANDLE root, CHAR16 *path, int depth, struct file_list *l) {
  EFI_FILE_HANDLE dir = NULL;
  EFI_STATUS st = root->Open(root, &dir, path, EFI_FILE_MODE_READ, 0);
  if (st == EFI_NOT_FOUND) return;
  if (EFI_ERROR(st)) {
    print_path("cannot open folder", path);
    boot_fatal("Open", st);
  }
  size_t base_len = wlen(path);
  UINT64 buf[128]; /* EFI_FILE_INFO with a name of up to 255 characters */
  for (;;) {
    UINTN size = sizeof buf;
    st = dir->Read(dir, &size, buf);
    if (EFI_ERROR(st)) {
      print_path("cannot list folder", path);
      boot_fatal("Read (directory)", st);
    }
    if (size == 0) break; /* end of the directory */
    EFI_FILE_INFO *fi = (EFI_FILE_INFO *)buf;
    const CHAR16 *name = fi->FileName;
    if (name[0] == u'.' && (name[1] == 0 || (name[1] == u'.' && name[2] == 0))) continue;
    size_t name_len = wlen(name);
    if (base_len + 1 + name_len + 1 > PATH_MAX_CHARS) {
      print_path("path too long under", path);
      boot_fatal("capturing the boot file system", EFI_BAD_BUFFER_SIZE);
    }
    path[base_len] = u'\\';
    memcpy(path + base_len + 1, name, (name_len + 1) * sizeof(CHAR16));
    if (fi->Attribute & EFI_FILE_DIRECTORY) {
      if (depth + 1 >= MAX_DEPTH) {
        print_path("folders nested too deep at", path);
        boot_fatal("capturing the boot file system", EFI_BAD_BUFFER_SIZE);
      }
      list_folder(root, path, depth + 1, l);
    } else {
      list_append(l, path, fi->FileSize);
    }
    path[base_len] = 0;
  }
  dir->Close(dir);
}

/* "\amdgpu\X.bin" -> "/amdgpu/X.bin"; the FAT names are ASCII in practice,
 * anything else is rejected so that lookups stay exact. */
static void bootfs_name(const CHAR16 *path, char *out) {
  size_t i = 0;
  for (; path[i]; i++) {
    if (path[i] >= 0x80) {
      print_path("file name is not ASCII:", path);
      boot_fatal("capturing the boot file system", EFI_UNSUPPORTED);
    }
    out[i] = path[i] == u'\\' ? '/' : (char)path[i];
  }
  out[i] = '\0';
}

const struct bootfs_header *boot_capture_folders(EFI_FILE_HANDLE root, const CHAR16 *const *folders,
                                                 size_t count) {
  struct file_list list = {0};
  CHAR16 path[PATH_MAX_CHARS];
  for (size_t i = 0; root && i < count; i++) {
    memcpy(path, folders[i], (wlen(folders[i]) + 1) * sizeof(CHAR16));
    list_folder(root, path, 0, &list);
  }

  struct bootfs_plan plan = {0};
  for (size_t i = 0; i < list.count; i++)
    bootfs_plan_add(&plan, wlen(list.files[i].path), list.files[i].size);
  uint64_t total = bootfs_plan_size(&plan);
  void *block = boot_alloc_pages(total, "boot file system");
  struct bootfs_writer w;
  if (bootfs_writer_begin(&w, block, total, &plan) != 0)
    boot_fatal("laying out the boot file system", EFI_BAD_BUFFER_SIZE);

  for (size_t i = 0; i < list.count; i++) {
    char name[PATH_MAX_CHARS];
    bootfs_name(list.files[i].path, name);
    void *dst = bootfs_writer_add(&w, name, list.files[i].size);
    if (!dst) boot_fatal("adding a file to the boot file system", EFI_BAD_BUFFER_SIZE);
    EFI_FILE_HANDLE f = NULL;
    EFI_STATUS st = root->Open(root, &f, list.files[i].path, EFI_FILE_MODE_READ, 0);
    if (EFI_ERROR(st)) {
      print_path("cannot open", list.files[i].path);
      boot_fatal("Open", st);
    }
    read_all(f, dst, list.files[i].size, list.files[i].path);
    f->Close(f);
  }
  bootfs_writer_finish(&w);
  if (list.files) efi_bs->FreePool(list.files);
  return block;
}
