# boot/: the UEFI entry (GNU-EFI). BOOT_SRCS need the EFI headers;
# boot/bootfs_build.c is portable and also goes into the host unit tests.
BOOT_SRCS := boot/efi_main.c boot/efi_util.c boot/efi_files.c boot/bootfs_build.c boot/relocate.c
KERNEL_PORTABLE_SRCS += boot/bootfs_build.c
