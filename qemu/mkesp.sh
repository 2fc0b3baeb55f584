#!/bin/sh
# mkesp.sh OUT.img IMAGE.efi [--cmdline "opts"] [--tree DIR] [--add NAME=DIR]...
#
# Builds an EFI system partition image with mtools (no loop mount, no root):
#   \EFI\BOOT\BOOTX64.EFI   the image (the removable-media boot path, UEFI 2.10, 3.5.1.1)
#   \cmdline.txt            the boot options, if --cmdline is given
#   \<tree contents>        every file of DIR (--tree), at the root
#   \NAME\...               every file of DIR (--add NAME=DIR)
# The boot code copies \amdgpu, \data and \kernels into its boot file system.
set -eu
usage() { echo "usage: $0 OUT.img IMAGE.efi [--cmdline OPTS] [--tree DIR] [--add NAME=DIR]..." >&2; exit 2; }
[ $# -ge 2 ] || usage
out=$1; efi=$2; shift 2
[ -f "$efi" ] || { echo "mkesp: no image $efi" >&2; exit 1; }
cmdline_set=0; cmdline=""; trees=""; adds=""
while [ $# -gt 0 ]; do
  case $1 in
    --cmdline) [ $# -ge 2 ] || usage; cmdline_set=1; cmdline=$2; shift 2 ;;
    --tree) [ $# -ge 2 ] || usage; [ -d "$2" ] || { echo "mkesp: no folder $2" >&2; exit 1; }
            trees="$trees $2"; shift 2 ;;
    --add) [ $# -ge 2 ] || usage; d=${2#*=}; [ -d "$d" ] || { echo "mkesp: no folder $d" >&2; exit 1; }
           adds="$adds $2"; shift 2 ;;
    *) usage ;;
  esac
done

# Size: the contents plus room for the FAT and directories, at least 34 MiB
# so that mkfs.fat picks FAT32 with plenty of free clusters.
kib=$(du -skL "$efi" $trees $(for a in $adds; do echo "${a#*=}"; done) | awk '{s += $1} END {print s}')
kib=$(( kib * 5 / 4 + 4096 )); [ "$kib" -ge 34816 ] || kib=34816

export MTOOLS_SKIP_CHECK=1
rm -f "$out"
mkfs.fat -C -n HSAMETAL "$out" "$kib" > /dev/null
mmd -i "$out" ::/EFI ::/EFI/BOOT
mcopy -i "$out" "$efi" ::/EFI/BOOT/BOOTX64.EFI
if [ "$cmdline_set" = 1 ]; then
  tmp=$(mktemp); printf '%s\n' "$cmdline" > "$tmp"
  mcopy -i "$out" "$tmp" ::/cmdline.txt; rm -f "$tmp"
fi
for t in $trees; do
  for f in "$t"/* ; do [ -e "$f" ] && mcopy -s -i "$out" "$f" ::/ ; done
done
for a in $adds; do
  name=${a%%=*}; dir=${a#*=}
  mmd -i "$out" "::/$name" 2>/dev/null || true
  for f in "$dir"/* ; do [ -e "$f" ] && mcopy -s -i "$out" "$f" "::/$name/" ; done
done
