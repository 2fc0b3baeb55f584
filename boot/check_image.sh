#!/bin/sh
# check_sections.sh IMAGE.so SECTION... - fails (and names it) when the
# linked image has an allocated section that is not in the list: a section
# that boot/image.lds does not place would be left out of the PE image by
# objcopy, and whatever lives in it would be missing at run time.
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
