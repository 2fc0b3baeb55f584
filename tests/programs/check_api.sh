#!/bin/sh
# check_api.sh LIB - every function the public headers declare
# (hsa/include/hsa/*.h, listed by host/public_api.sh) is defined in LIB, so
# no ROCr program fails to link on a declared name. Prints one
# [PASS]/[FAIL] line.
set -u
lib=$1
tmp=${TMPDIR:-/tmp}/check_api.$$
mkdir -p "$tmp"
host/public_api.sh cc hsa/include > "$tmp/declared"
nm -g --defined-only "$lib" 2>/dev/null | awk '$2 == "T" {print $3}' | sort -u > "$tmp/defined"
missing=$(comm -23 "$tmp/declared" "$tmp/defined" | tr '\n' ' ')
count=$(wc -l < "$tmp/declared")
rm -rf "$tmp"
if [ "$count" -eq 0 ]; then
  echo "[FAIL] hsa_api_every_declared_function_is_defined: no declaration found in hsa/include/hsa"
  exit 1
fi
if [ -n "$missing" ]; then
  echo "[FAIL] hsa_api_every_declared_function_is_defined: missing in $lib: $missing"
  exit 1
fi
echo "[PASS] hsa_api_every_declared_function_is_defined ($count names)"
