#!/bin/sh
# trace_diff_test.sh UNIT_TESTS - tools/amdgpu-trace-diff against the
# virtual APU's own bring-up trace: the trace turned into each of Linux's
# two forms (amdgpu tracepoints, mmiotrace) must agree with itself, and
# every kind of difference must show. Prints one [PASS]/[FAIL] line per
# check and the summary line the suite runner counts.
set -u
unit_tests=$1
tool=$(dirname "$0")/../../tools/amdgpu-trace-diff
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { # name, then the command; passes when it succeeds
  name=$1; shift
  if "$@" > "$tmp/out" 2>&1; then echo "[PASS] $name"; pass=$((pass + 1))
  else echo "[FAIL] $name"; sed 's/^/    /' "$tmp/out" | head -20; fail=$((fail + 1)); fi
}

# A Renoir bring-up (discovery through MM_INDEX/MM_DATA, every block).
HSAR_OPTIONS="amdgpu_trace=on loglevel=info" "$unit_tests" 'amdgpu_renoir_ip_bases_come_from_discovery' \
  > "$tmp/ours.log" 2>&1
lines=$(grep -c 'mmio: ' "$tmp/ours.log" || true)
check "trace_has_the_bring_up ($lines accesses)" sh -c "[ $lines -gt 1000 ] && grep -q 'gmc/init_hw W .* GC GC_VM_CONTEXT0_CNTL' '$tmp/ours.log' && ! grep 'mmio: ' '$tmp/ours.log' | grep -q '? ?'"

# The same accesses as Linux's tracepoints would print them.
awk 'index($0, "mmio: ") { split(substr($0, index($0, "mmio: ") + 6), f, " ");
       printf "  kworker/0:1-42 [000] ..... 1.%06d: amdgpu_device_%sreg: 0x1636, %s, %s\n", NR,
              f[3] == "W" ? "w" : "r", f[4], f[5] }' "$tmp/ours.log" > "$tmp/linux.tp"
check tracepoint_trace_agrees "$tool" "$tmp/ours.log" "$tmp/linux.tp"

# Linux reads a polled register more often, and touches display registers.
awk '{ print } /amdgpu_device_rreg/ && NR % 7 == 0 { print }' "$tmp/linux.tp" > "$tmp/linux.polls"
echo '  kworker/0:1-42 [000] ..... 9.000000: amdgpu_device_wreg: 0x1636, 0x00012345, 0x00000001' >> "$tmp/linux.polls"
check differing_reads_show_unless_writes_only sh -c "! '$tool' '$tmp/ours.log' '$tmp/linux.polls' > /dev/null"
check writes_only_and_ours_only_agree "$tool" --writes --ours-only "$tmp/ours.log" "$tmp/linux.polls"

# One value differs: the diff names the register.
awk '/amdgpu_device_wreg/ && ++n == 100 { sub(/0x[0-9a-f]+$/, "0xdeadbeef") } { print }' "$tmp/linux.tp" > "$tmp/linux.bad"
"$tool" "$tmp/ours.log" "$tmp/linux.bad" > "$tmp/bad.out" 2>&1; status=$?
check one_changed_value_is_a_difference sh -c "[ $status -eq 1 ] && grep -q '^+W 0x[0-9a-f]* 0xdeadbeef [A-Z0-9]* ' '$tmp/bad.out'"

# mmiotrace: physical addresses in BAR5 (0xfe700000, 512 KiB). Accesses
# beyond BAR5 go through the index pair there, so both sides keep only
# what lies inside it.
hexval='function hex(s, i, v) { sub(/^0x/, "", s); v = 0; for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }'
awk "$hexval"' index($0, "mmio: ") { split(substr($0, index($0, "mmio: ") + 6), f, " "); if (hex(f[4]) < 131072) print }' \
  "$tmp/ours.log" > "$tmp/ours.bar5"
{ echo "VERSION 20070824"; echo "MAP 0.000001 1 0xfe700000 0xffffc90000000000 0x80000 0x0 0"
  awk "$hexval"' { split(substr($0, index($0, "mmio: ") + 6), f, " ");
         printf "%s 4 1.%06d 1 0x%x %s 0x0 0\n", f[3], NR, 4268752896 + hex(f[4]) * 4, f[5] }' "$tmp/ours.bar5"
} > "$tmp/linux.mmio"
check mmiotrace_agrees "$tool" "$tmp/ours.bar5" "$tmp/linux.mmio"
check bad_usage_is_status_2 sh -c "'$tool' only-one-file > /dev/null 2>&1; [ \$? -eq 2 ]"

echo "$pass passed, $fail failed, 0 skipped"
[ "$fail" -eq 0 ]
