#!/bin/sh
# check_library.sh LIBDIR API_LIST ALL_OBJECT OUTDIR - the host library's
# binary interface, one [PASS]/[FAIL] line per check:
#   - libhsa-runtime64.so.1 has that soname, libhsa-runtime64.so points at
#     it, and it exports exactly API_LIST (host/public_api.sh), each name
#     versioned ROCR_1;
#   - every name Debian's ROCr (libhsa-runtime64-1) exports under ROCR_1
#     that our headers declare is exported the same way (names it has and
#     we do not declare are listed);
#   - no other name is visible: a program that defines every other global of
#     the runtime's objects (ALL_OBJECT, before they were made local) links
#     against the archive and against the shared library and runs hsa_init.
set -u
libdir=$1; api=$2; all_object=$3; out=$4
so=$libdir/libhsa-runtime64.so.1
debian_rocr=/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1
mkdir -p "$out"
status=0
pass() { echo "[PASS] $1"; }
fail() { echo "[FAIL] $1: $2"; status=1; }

# Defined dynamic symbols as "name@@VERSION" (readelf --dyn-syms -W).
exports() { readelf --dyn-syms -W "$1" | awk '$7 != "UND" && $8 ~ /@/ {print $8}' | sort -u; }

t=rocm_library_exports_exactly_the_public_api_as_rocr_1
soname=$(readelf -d "$so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
link=$(readlink "$libdir/libhsa-runtime64.so")
exports "$so" > "$out/exports"
sed 's/$/@@ROCR_1/' "$api" | sort -u > "$out/want"
if [ "$soname" != libhsa-runtime64.so.1 ]; then fail $t "soname '$soname'"
elif [ "$link" != libhsa-runtime64.so.1 ]; then fail $t "libhsa-runtime64.so -> '$link'"
elif [ "$(wc -l < "$out/want")" -lt 200 ]; then fail $t "only $(wc -l < "$out/want") names in $api"
elif ! cmp -s "$out/exports" "$out/want"; then
  fail $t "exports differ from the public API (< exported, > declared): $(diff "$out/exports" "$out/want" | grep '^[<>]' | head -8 | tr '\n' ' ')"
else pass "$t ($(wc -l < "$out/want") functions)"; fi

t=rocm_library_exports_debian_rocr_names_it_declares
if [ ! -e "$debian_rocr" ]; then fail $t "$debian_rocr missing (package libhsa-runtime64-1)"
else
  exports "$debian_rocr" | grep '@@ROCR_1$' | grep -v '^ROCR_1@@' > "$out/debian"
  comm -12 "$out/debian" "$out/want" > "$out/common"
  missing=$(comm -23 "$out/common" "$out/exports" | tr '\n' ' ')
  only_debian=$(comm -23 "$out/debian" "$out/want" | sed 's/@@ROCR_1//' | tr '\n' ' ')
  if [ "$(wc -l < "$out/common")" -lt 200 ]; then fail $t "only $(wc -l < "$out/common") names in common with Debian's ROCr"
  elif [ -n "$missing" ]; then fail $t "not exported as Debian's ROCr does: $missing"
  else pass "$t ($(wc -l < "$out/common") of Debian's $(wc -l < "$out/debian"); not declared here: $only_debian)"; fi
fi

t=rocm_library_internal_names_stay_internal
nm -g --defined-only "$all_object" | awk 'NF == 3 {print $3}' | sort -u | comm -23 - "$api" \
  | grep -v '^_' > "$out/internal"
{
  echo '#include <hsa/hsa.h>'
  echo '#include <stdio.h>'
  # Data of the program's own under every internal name of the runtime.
  sed 's/.*/char &[8] = "program";/' "$out/internal"
  echo 'int main(void) {'
  echo '  if (hsa_init() != HSA_STATUS_SUCCESS || hsa_shut_down() != HSA_STATUS_SUCCESS) return 1;'
  sed -n '1p' "$out/internal" | sed 's/.*/  if (&[0] != (char)112) return 2;/'
  echo '  puts("internal names: the program keeps its own");'
  echo '  return 0;'
  echo '}'
} > "$out/internal_names.c"
count=$(wc -l < "$out/internal")
if [ "$count" -lt 100 ]; then fail $t "only $count internal names found in $all_object"
elif ! cc -w -Ihsa/include "$out/internal_names.c" "$libdir/libhsa-runtime64.a" -lpthread -lm \
        -o "$out/internal_names_static" > "$out/internal_static.log" 2>&1; then
  fail $t "does not link against the archive: $(grep -m 3 -i 'multiple\|error' "$out/internal_static.log" | tr '\n' ' ')"
elif ! cc -w -Ihsa/include "$out/internal_names.c" -L"$libdir" -lhsa-runtime64 \
        -o "$out/internal_names_shared" > "$out/internal_shared.log" 2>&1; then
  fail $t "does not link against the shared library: $(head -c 300 "$out/internal_shared.log")"
elif ! timeout 60 "$out/internal_names_static" > "$out/internal_static.run" 2>&1; then
  fail $t "static program: exit $?; $(tail -n 3 "$out/internal_static.run")"
elif ! LD_LIBRARY_PATH=$libdir timeout 60 "$out/internal_names_shared" > "$out/internal_shared.run" 2>&1; then
  fail $t "shared program: exit $?; $(tail -n 3 "$out/internal_shared.run")"
else pass "$t ($count names defined by the program)"; fi
exit $status
