#!/bin/sh
# run-suites.sh LOGDIR "MAKE" SUITE... - runs each test suite (`MAKE suite-<name>`)
# under a time limit, keeps its output in LOGDIR/<name>.log, and prints the
# total as the last line: "N passed, N failed[, N skipped]".
#
# A suite reports its tests as lines containing "[PASS] name", "[FAIL] name"
# or "[SKIP] name". A suite that exits non-zero without any [FAIL] line, or
# that runs out of time, counts as one failure of its own.
set -u
logdir=$1; make_cmd=$2; shift 2
limit=${SUITE_TIMEOUT:-900}
mkdir -p "$logdir"
passed=0; failed=0; skipped=0
failures=""   # "suite: test" of every failure, repeated before the total

for suite in "$@"; do
  log="$logdir/$suite.log"
  echo "== suite $suite"
  start=$(date +%s)
  timeout --foreground -k 10 "$limit" sh -c "$make_cmd suite-$suite" > "$log" 2>&1 &
  pid=$!
  # Show the suite's result lines as they arrive.
  tail -n +1 -f "$log" --pid=$pid 2>/dev/null | grep --line-buffered -E '\[(PASS|FAIL|SKIP)\] ' &
  tailpid=$!
  wait $pid; status=$?
  wait $tailpid 2>/dev/null
  p=$(grep -c '\[PASS\] ' "$log"); f=$(grep -c '\[FAIL\] ' "$log"); s=$(grep -c '\[SKIP\] ' "$log")
  if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then why="ran out of time (${limit} s)"; else why="exited with status $status"; fi
    echo "[FAIL] suite-$suite: $why; last lines of $log:"
    tail -n 30 "$log" | sed 's/^/    /'
    f=$((f + 1))
    failures="$failures
  $suite: the suite itself ($why)"
  elif [ "$f" -gt 0 ]; then
    echo "   (details in $log)"
    failures="$failures
$(grep -E '\[FAIL\] ' "$log" | sed "s|^.*\[FAIL\] |  $suite: |")"
  fi
  echo "== suite $suite: $p passed, $f failed, $s skipped in $(( $(date +%s) - start )) s"
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
done

# The failures again, so that the last lines of a long run (all a CI log
# may keep) say what failed.
if [ -n "$failures" ]; then
  echo "Failed:$failures"
fi
if [ "$skipped" -gt 0 ]; then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
