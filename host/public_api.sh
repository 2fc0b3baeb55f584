#!/bin/sh
# public_api.sh CC INCLUDE_DIR - the runtime's public API: every function
# the public headers (INCLUDE_DIR/hsa/*.h) declare and do not define, one
# name a line, sorted. The host library exports exactly these (mk/host.mk)
# and tests/programs/check_api.sh checks that each one is defined.
#
# The compiler lists them: gcc's -aux-info writes one line per function
# declared or defined in the translation unit, headers included, as
#   /* FILE:LINE:NC */ extern TYPE NAME (PARAMETERS);
# where N is a prototype and C a declaration (F: a definition, as the
# headers' static inline helpers); gcc manual, "Options Controlling C
# Dialect", -aux-info.
set -eu
cc=$1; inc=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for h in "$inc"/hsa/*.h; do echo "#include <hsa/$(basename "$h")>"; done > "$tmp/all.c"
"$cc" -c -o /dev/null -aux-info "$tmp/aux" -I"$inc" "$tmp/all.c"
# The name is the last identifier before the parameter list's "(".
sed -n "s|^/\* $inc/hsa/[^ ]*:NC \*/ extern [^(]*[ *]\([A-Za-z_][A-Za-z_0-9]*\) (.*|\1|p" "$tmp/aux" | sort -u
