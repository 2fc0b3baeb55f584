#!/bin/sh
# run.sh SECONDS TARGET... - runs each libFuzzer target for SECONDS, starting
# from its seed folder ($FUZZ_DIR/seeds/<target>) and the recorded inputs
# that once crashed it (tests/data/fuzz/<target>/, kept as regressions), and
# keeps what it finds in $FUZZ_DIR/corpus/<target>. Prints one line per
# target: [PASS] after the time without a crash, [FAIL] with the input that
# crashed (saved to $FUZZ_DIR/crash-<target>-*, to be recorded under
# tests/data/fuzz/<target>/ once fixed).
# FUZZ_JOBS targets run at once (default: one per online CPU), each on a
# core of its own for the whole time: the same fuzzing per target in less
# time. Results are printed in the order of the targets.
set -u
seconds=$1; shift
jobs=${FUZZ_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
status=0

# Runs one target; its result line goes to $FUZZ_DIR/<name>.result and its
# exit status is that of the fuzzer.
fuzz_one() {
  target=$1
  name=$(basename "$target")
  corpus=$FUZZ_DIR/corpus/$name
  mkdir -p "$corpus"
  regressions=tests/data/fuzz/$name
  [ -d "$regressions" ] || regressions=
  log=$FUZZ_DIR/$name.log
  # -rss_limit_mb and -timeout turn a blow-up or a hang into a failure.
  if "$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$FUZZ_DIR/crash-$name-" "$corpus" "$FUZZ_DIR/seeds/$name" $regressions \
       > "$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "[PASS] $name: ${runs:-?} inputs in ${seconds} s, no crash" > "$FUZZ_DIR/$name.result"
  else
    { echo "[FAIL] $name: crashed; see $log"
      grep -E "ERROR|SUMMARY|artifact" "$log" | head -5 | sed 's/^/    /'; } > "$FUZZ_DIR/$name.result"
    return 1
  fi
}

# A batch of up to $jobs targets at a time.
while [ $# -gt 0 ]; do
  batch=""
  n=0
  while [ $# -gt 0 ] && [ "$n" -lt "$jobs" ]; do
    fuzz_one "$1" &
    batch="$batch $! $1"
    n=$((n + 1))
    shift
  done
  # The batch's pids and targets first, then the targets left (paths
  # without blanks: build outputs).
  # shellcheck disable=SC2086
  set -- $batch -- "$@"
  while [ "$1" != "--" ]; do
    pid=$1 target=$2
    shift 2
    wait "$pid" || status=1
    cat "$FUZZ_DIR/$(basename "$target").result"
  done
  shift # the "--"
done
exit $status
