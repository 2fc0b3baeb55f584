#!/bin/sh
# run.sh LIB OUTDIR KERNEL_DIR PROGRAM.c... - builds each ROCr-style program
# exactly as an application developer would against the host library, the
# archive or the shared library,
#   cc -I. -Ihsa/include prog.c LIB -lpthread -lm                        (libhsa-runtime64.a)
#   cc -I. -Ihsa/include prog.c -L$(dirname LIB) -lhsa-runtime64 -lm      (libhsa-runtime64.so.1)
# runs it with the folder of its code objects as argument (60 s limit; the
# shared library by LD_LIBRARY_PATH), and prints one [PASS]/[FAIL] line per
# run, named hsa_program_<name> (..._shared for the shared library). A
# program that says
#   run-also: VAR=value
# in a comment runs a second time with that in its environment (for
# example HSA_XNACK=0, ROCr's switch).
set -u
lib=$1; out=$2; kernels=$3; shift 3
mkdir -p "$out"
status=0
case $lib in
  *.so.1) libdir=$(cd "$(dirname "$lib")" && pwd); link="-L$libdir -lhsa-runtime64 -lm"; suffix=_shared ;;
  *) libdir=; link="$lib -lpthread -lm"; suffix= ;;
esac

# run_one NAME LABEL [VAR=value]
run_one() {
  name=$1; label=$2; shift 2
  if env ${libdir:+LD_LIBRARY_PATH=$libdir} "$@" timeout 60 "$out/$name" "$kernels" > "$out/$label.log" 2>&1; then
    echo "[PASS] hsa_program_$label: $(tail -n 1 "$out/$label.log")"
  else
    echo "[FAIL] hsa_program_$label: exit $?; $(tail -n 5 "$out/$label.log")"
    status=1
  fi
}

for src in "$@"; do
  name=$(basename "$src" .c)$suffix
  # shellcheck disable=SC2086 # $link is several words
  if ! cc -I. -Ihsa/include "$src" $link -o "$out/$name" > "$out/$name.build.log" 2>&1; then
    echo "[FAIL] hsa_program_$name: does not build; $(head -c 600 "$out/$name.build.log")"
    status=1
    continue
  fi
  run_one "$name" "$name"
  also=$(sed -n 's/.*run-also: \([A-Z_]*=[^ ]*\).*/\1/p' "$src" | head -n 1)
  [ -n "$also" ] && run_one "$name" "${name}_$(echo "$also" | tr 'A-Z=' 'a-z_')" "$also"
done

# HSAR_OPTIONS is the boot command line's language: a key nobody declares
# or a level that is none stops hsa_init with a line that names it (the
# image refuses such a command line at boot). rocminfo_like says when
# hsa_init fails.
# refused LABEL OPTIONS EXPECTED-TEXT
refused() {
  prog=$out/rocminfo_like$suffix
  if env ${libdir:+LD_LIBRARY_PATH=$libdir} HSAR_OPTIONS="$2" timeout 60 "$prog" > "$out/$1.log" 2>&1; then
    echo "[FAIL] hsa_program_$1: HSAR_OPTIONS=\"$2\" was taken"; status=1
  elif grep -qF "$3" "$out/$1.log"; then
    echo "[PASS] hsa_program_$1: $(grep -F "$3" "$out/$1.log" | head -n 1)"
  else
    echo "[FAIL] hsa_program_$1: no line with '$3'; $(tail -n 3 "$out/$1.log")"; status=1
  fi
}
if [ -x "$out/rocminfo_like$suffix" ]; then
  refused "unknown_option_refused$suffix" "no_such_option=1" 'unknown boot option "no_such_option"'
  refused "wrong_loglevel_refused$suffix" "loglevel=3x" 'loglevel: unknown level in "3x"'
  refused "words_after_dashes_refused$suffix" "-- input.bin" 'application arguments'
fi
exit $status
