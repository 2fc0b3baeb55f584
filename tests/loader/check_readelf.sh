#!/bin/sh
# check_readelf.sh LOADER_DUMP DIR - for every code object in DIR, what the
# loader reads (loader-dump) must equal what llvm-readelf-19 reads from the
# same file: e_flags and ABI version (-h), each kernel's descriptor symbol
# address and its metadata from the NT_AMDGPU_METADATA note (--notes, which
# LLVM decodes with its own MessagePack reader), every argument's offset,
# size and value kind, and each global data object (-s). One [PASS]/[FAIL]
# line per code object.
set -u
dump=$1; dir=$2
status=0
sorted_expected=$(mktemp)
trap 'rm -f "$sorted_expected"' EXIT
for co in "$dir"/*.co; do
  name=loader_readelf_$(basename "$co" .co)
  expected=$(llvm-readelf-19 -h -s --notes --wide "$co" | python3 "$(dirname "$0")/../../tools/readelf-facts.py") || {
    echo "[FAIL] $name: llvm-readelf-19 output not understood"; status=1; continue; }
  actual=$("$dump" "$co" 2>&1) || { echo "[FAIL] $name: $actual"; status=1; continue; }
  printf '%s\n' "$expected" | sort > "$sorted_expected"
  difference=$(printf '%s\n' "$actual" | sort | diff "$sorted_expected" -)
  if [ -n "$difference" ]; then
    echo "[FAIL] $name: loader and llvm-readelf-19 disagree (< readelf, > loader):"
    printf '%s\n' "$difference" | head -20 | sed 's/^/    /'
    status=1
  else
    echo "[PASS] $name"
  fi
done
exit $status
