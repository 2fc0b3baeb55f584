#!/bin/sh
# run.sh SECONDS TARGET... - runs each libFuzzer target for SECONDS, starting
# from its seed folder ($FUZZ_DIR/seeds/<target>) and the recorded inputs
# that once crashed it (tests/data/fuzz/<target>/, kept as regressions), and
# keeps what it finds in $FUZZ_DIR/corpus/<target>. Prints one line per
# target: [PASS] after the time without a crash, [FAIL] with the input that
# crashed (saved to $FUZZ_DIR/crash-<target>-*, to be recorded under
# tests/data/fuzz/<target>/ once fixed).
set -u
seconds=$1; shift
status=0
for target in "$@"; do
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
    echo "[PASS] $name: ${runs:-?} inputs in ${seconds} s, no crash"
  else
    echo "[FAIL] $name: crashed; see $log"
    grep -E "ERROR|SUMMARY|artifact" "$log" | head -5 | sed 's/^/    /'
    status=1
  fi
done
exit $status
