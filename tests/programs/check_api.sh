#!/bin/sh
# check_api.sh LIB - every function the public headers declare (hsa.h,
# hsa_ext_amd.h, hsa_ext_image.h, hsa_ven_amd_loader.h) is defined in LIB, so no ROCr program
# fails to link on a declared name. Prints one [PASS]/[FAIL] line.
set -u
lib=$1
tmp=${TMPDIR:-/tmp}/check_api.$$
mkdir -p "$tmp"
for h in hsa hsa_ext_amd hsa_ext_image hsa_ven_amd_loader; do cc -E -P -Ihsa/include "hsa/include/hsa/$h.h"; done > "$tmp/pp.c"
# Declarations: "name(" at the start of a declarator; skip static inline
# helpers (defined in the header) and typedef'd function pointer types.
grep -oE '\b(hsa|HSA)_[a-z0-9_]+ *\(' "$tmp/pp.c" | sed 's/ *($//' | sort -u > "$tmp/declared"
tr '\n' ' ' < "$tmp/pp.c" | grep -oE '\b(hsa_[a-z0-9_]+)\([^;{}]*\) *\{' | sed 's/(.*//' | sort -u > "$tmp/inline"
grep -oE '\(\*? *(hsa|HSA)_[a-z0-9_]+\)' "$tmp/pp.c" | tr -d '(*) ' | sort -u > "$tmp/types"
nm -g --defined-only "$lib" 2>/dev/null | awk '$2 == "T" {print $3}' | sort -u > "$tmp/defined"
missing=$(sort -u "$tmp/inline" "$tmp/types" "$tmp/defined" | comm -23 "$tmp/declared" - | grep -v '_t$' | tr '\n' ' ')
count=$(wc -l < "$tmp/declared")
rm -rf "$tmp"
if [ -n "$missing" ]; then
  echo "[FAIL] hsa_api_every_declared_function_is_defined: missing in $lib: $missing"
  exit 1
fi
echo "[PASS] hsa_api_every_declared_function_is_defined ($count names)"
