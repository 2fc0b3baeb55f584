#!/bin/bash
# boot.sh [options] IMAGE.efi [boot options...] - boots the image in QEMU
# (q35, OVMF, amd-iommu, edu, isa-debug-exit) with a hard time limit, keeps
# the serial log, and exits with the image's exit status.
#
#   --smp N          cores (default 4)
#   --memory M       RAM (default 1G)
#   --timeout S      hard limit in seconds, OVMF included (default 120, >= 60)
#   --log FILE       serial log (default build/run/<image>.serial.log)
#   --esp-from IMG   start from this ESP image (else a fresh one)
#   --add NAME=DIR   put DIR's files in \NAME on the ESP (e.g. kernels=build/kernels)
#   --tree DIR       put DIR's contents at the root of the ESP (repeatable)
#   --tests          the run is a test run: also require the runner's summary
#                    line with no failure and at least one test run
#   --allow-empty    with --tests: no test matching the pattern is not a failure
#   --no-debug-exit  no isa-debug-exit device: the kernel must power the
#                    machine off through ACPI (a board's way); the status is
#                    then read from the log's "run ends with exit status N"
#   --expect-status N   the run must end with status N (then boot.sh exits 0)
#   --expect-log TEXT   the serial log must contain TEXT
#   --quiet          keep the serial output out of the terminal
# The boot options go into \cmdline.txt of the ESP.
#
# Exit status: the image's (0-127; the kernel uses 120 bad command line,
# 121 signal, 125 panic, 126 CPU exception), or 122 QEMU did not start or
# the log does not confirm the exit, 123 the machine stopped without an exit
# status (reset, power-off, triple fault), 124 time limit, 2 usage.
set -u
here=$(cd "$(dirname "$0")" && pwd)
smp=4; memory=1G; timeout_s=120; log=""; esp_from=""; adds=(); tests=0; quiet=0; allow_empty=0
expect_status=0; expect_log=(); debug_exit=1
usage() { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --smp) smp=$2; shift 2 ;;
    --memory) memory=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --log) log=$2; shift 2 ;;
    --esp-from) esp_from=$2; shift 2 ;;
    --add) adds+=(--add "$2"); shift 2 ;;
    --tree) adds+=(--tree "$2"); shift 2 ;;
    --allow-empty) allow_empty=1; shift ;;
    --expect-status) expect_status=$2; shift 2 ;;
    --no-debug-exit) debug_exit=0; shift ;;
    --expect-log) expect_log+=("$2"); shift 2 ;;
    --tests) tests=1; shift ;;
    --quiet) quiet=1; shift ;;
    -h|--help) usage ;;
    --*) echo "boot.sh: unknown option $1" >&2; usage ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || usage
efi=$1; shift
# The boot options as one line; a word with blanks is quoted for the
# kernel's parser (lib/options.h), which has no escape for '"'.
cmdline=""
for word in "$@"; do
  case $word in
    *\"*) echo "boot.sh: a boot option cannot contain '\"': $word" >&2; exit 2 ;;
    *[[:space:]]*) word="\"$word\"" ;;
  esac
  cmdline="${cmdline:+$cmdline }$word"
done
[ -f "$efi" ] || { echo "boot.sh: no image $efi" >&2; exit 2; }
[ "$timeout_s" -ge 60 ] 2>/dev/null || { echo "boot.sh: --timeout must be >= 60 s (OVMF alone takes 4-8 s)" >&2; exit 2; }
[ -n "$log" ] || log=build/run/$(basename "$efi" .efi).serial.log

ovmf_code=/usr/share/OVMF/OVMF_CODE_4M.fd
ovmf_vars=/usr/share/OVMF/OVMF_VARS_4M.fd
for f in "$ovmf_code" "$ovmf_vars"; do
  [ -f "$f" ] || { echo "boot.sh: $f missing (Debian package ovmf)" >&2; exit 2; }
done

work="${log%.log}.d"
rm -rf "$work"; mkdir -p "$work" "$(dirname "$log")"
cp "$ovmf_vars" "$work/OVMF_VARS.fd"
esp="$work/esp.img"
if [ -n "$esp_from" ]; then
  cp "$esp_from" "$esp"
  printf '%s\n' "$cmdline" > "$work/cmdline.txt"
  MTOOLS_SKIP_CHECK=1 mcopy -o -i "$esp" "$work/cmdline.txt" ::/cmdline.txt
  for ((i = 0; i < ${#adds[@]}; i += 2)); do
    if [ "${adds[i]}" = --tree ]; then
      MTOOLS_SKIP_CHECK=1 mcopy -o -s -i "$esp" "${adds[i+1]}"/* ::/
    else
      name=${adds[i+1]%%=*}; dir=${adds[i+1]#*=}
      MTOOLS_SKIP_CHECK=1 mmd -i "$esp" "::/$name" 2>/dev/null
      MTOOLS_SKIP_CHECK=1 mcopy -o -s -i "$esp" "$dir"/* "::/$name/"
    fi
  done
else
  "$here/mkesp.sh" "$esp" "$efi" --cmdline "$cmdline" "${adds[@]}" || exit 2
fi

# amd-iommu first: QEMU 7.2 gives a PCI device the IOMMU's DMA address
# space only if the IOMMU exists when the device is created
# (hw/i386/amd_iommu.c amdvi_sysbus_realize calls pci_setup_iommu on the
# bus; hw/pci/pci.c takes a device's address space at its realize). It
# takes the first free slot, 00:02.0 (00:01.0 is the VGA).
qemu=(qemu-system-x86_64 -machine q35 -cpu max -m "$memory" -smp "$smp"
      -nographic -no-reboot -net none
      -drive "if=pflash,format=raw,unit=0,readonly=on,file=$ovmf_code"
      -drive "if=pflash,format=raw,unit=1,file=$work/OVMF_VARS.fd"
      -drive "if=none,id=esp,format=raw,readonly=on,file=$esp"
      -device amd-iommu -device virtio-blk-pci,drive=esp -device edu)
[ "$debug_exit" = 1 ] && qemu+=(-device isa-debug-exit,iobase=0xf4,iosize=0x04)
echo "boot.sh: ${qemu[*]}" > "$work/command"

start=$(date +%s)
# The serial console (COM1) is QEMU's stdout; keep it, without CRs.
if [ "$tests" = 1 ]; then
  # Only the tests' result lines on stdout, as they arrive: the suite
  # runner (tests/run-suites.sh) counts them there.
  timeout --foreground -k 5 "$timeout_s" "${qemu[@]}" < /dev/null 2> "$work/qemu.stderr" \
    | tr -d '\r' | tee "$log" | grep --line-buffered -E '^\[(PASS|FAIL|SKIP)\] '
  rc=${PIPESTATUS[0]}
elif [ "$quiet" = 1 ]; then
  timeout --foreground -k 5 "$timeout_s" "${qemu[@]}" < /dev/null 2> "$work/qemu.stderr" \
    | tr -d '\r' > "$log"
  rc=${PIPESTATUS[0]}
else
  timeout --foreground -k 5 "$timeout_s" "${qemu[@]}" 2> "$work/qemu.stderr" \
    | tr -d '\r' | tee "$log"
  rc=${PIPESTATUS[0]}
fi
elapsed=$(( $(date +%s) - start ))

fail() {
  echo "boot.sh: FAILED: $1 ($elapsed s; serial log $log)"
  [ -s "$work/qemu.stderr" ] && sed 's/^/  qemu: /' "$work/qemu.stderr" | tail -n 10
  # The tail (unless it was on the terminal already), with the result
  # markers defused so that suite counters do not count them twice.
  if [ "$quiet" = 1 ] || [ "$tests" = 1 ]; then
    echo "boot.sh: last lines of the serial log:"
    tail -n 40 "$log" | sed -e 's/\[\(PASS\|FAIL\|SKIP\)\]/<\1>/' -e 's/^/  | /'
  fi
  exit "$2"
}

if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then fail "no exit within the ${timeout_s} s limit" 124; fi
if [ "$debug_exit" = 0 ]; then
  # QEMU exits with 0 when the guest powers off (or resets: -no-reboot).
  [ "$rc" = 0 ] || fail "QEMU failed (status $rc)" 122
  status=$(sed -n 's/.*run ends with exit status \([0-9]*\)$/\1/p' "$log" | tail -n 1)
  [ -n "$status" ] || fail "the machine stopped but the log does not show the kernel ending the run" 123
  grep -q "power-off did not happen" "$log" && fail "ACPI power-off failed; the machine was reset" 123
else
  if [ "$rc" = 0 ]; then fail "the machine stopped without an exit status (reset, power-off or triple fault)" 123; fi
  if [ $((rc % 2)) = 0 ]; then fail "QEMU failed (status $rc)" 122; fi
  status=$((rc >> 1))
  # QEMU's own start-up errors exit with 1 too: require the kernel's last words.
  grep -q "run ends with exit status $status\$" "$log" ||
    fail "QEMU exited with $rc but the log does not show the kernel ending the run" 122
fi

if [ "$tests" = 1 ]; then
  summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$log" | tail -n 1)
  [ -n "$summary" ] || fail "no test summary line (status $status)" "$([ "$status" = 0 ] && echo 1 || echo "$status")"
  read -r passed _ failed _ <<< "$summary"
  [ "$failed" = 0 ] || fail "$failed test(s) failed: $summary" "$([ "$status" = 0 ] && echo 1 || echo "$status")"
  if [ "$passed" = 0 ] && [ "$failed" = 0 ] && [ "${summary#* failed, }" = "0 skipped" ]; then
    [ "$allow_empty" = 1 ] || fail "no test matched the pattern: $summary" 1
    echo "boot.sh: no image test matched the pattern"
  fi
fi
for text in "${expect_log[@]}"; do
  grep -qF -- "$text" "$log" || fail "the serial log lacks \"$text\"" 1
done
if [ "$status" != "$expect_status" ]; then
  [ "$expect_status" = 0 ] && fail "the image exited with status $status" "$status"
  fail "the image exited with status $status, expected $expect_status" 1
fi
echo "boot.sh: exit status $status as expected after $elapsed s (serial log $log)"
exit 0
