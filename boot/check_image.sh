#!/bin/sh
# check_image.sh IMAGE.so SECTION... - checks the linked image before
# objcopy turns it into the PE:
#  - every allocated section is in the list: a section that boot/image.lds
#    does not place would be left out of the PE image by objcopy, and
#    whatever lives in it would be missing at run time;
#  - every dynamic relocation is R_X86_64_RELATIVE: the relocation code
#    (boot/relocate.c) applies nothing else, so a symbol left undefined
#    (a weak reference, say) would make the image fail to start.
set -eu
elf=$1; shift
bad=$(objdump -h -w "$elf" | awk '$1 ~ /^[0-9]+$/ && /ALLOC/ {print $2}' | while read -r name; do
  known=0
  for s in "$@"; do [ "$name" = "$s" ] && known=1; done
  [ "$known" = 1 ] || echo "$name"
done)
if [ -n "$bad" ]; then
  echo "image: $elf has sections that boot/image.lds does not place:" $bad >&2
  exit 1
fi
relocs=$(readelf -r -W "$elf" | awk '$3 ~ /^R_X86_64_/ && $3 != "R_X86_64_RELATIVE" {print $3, $5}')
if [ -n "$relocs" ]; then
  echo "image: $elf needs relocations crt0 cannot apply (undefined or preemptible symbols):" >&2
  echo "$relocs" | sort -u | head -20 >&2
  exit 1
fi
