#!/bin/sh
# run.sh LIB OUTDIR PROGRAM.c... - builds each ROCr-style program exactly as
# an application developer would against the host library,
#   cc -Ihsa/include prog.c LIB -lpthread -lm
# runs it (60 s limit), and prints one [PASS]/[FAIL] line per program.
set -u
lib=$1; out=$2; shift 2
mkdir -p "$out"
status=0
for src in "$@"; do
  name=$(basename "$src" .c)
  if ! cc -Ihsa/include "$src" "$lib" -lpthread -lm -o "$out/$name" > "$out/$name.build.log" 2>&1; then
    echo "[FAIL] hsa_program_$name: does not build; $(head -c 600 "$out/$name.build.log")"
    status=1
    continue
  fi
  if timeout 60 "$out/$name" > "$out/$name.log" 2>&1; then
    echo "[PASS] hsa_program_$name: $(tail -n 1 "$out/$name.log")"
  else
    echo "[FAIL] hsa_program_$name: exit $?; $(tail -n 5 "$out/$name.log")"
    status=1
  fi
done
exit $status
