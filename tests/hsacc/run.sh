#!/bin/sh
# tests/hsacc/run.sh - tools/hsacc's command line, output and refusals
# (suite hsacc): every case prints [PASS]/[FAIL] and the run ends with the
# runner's total line. Usage: tests/hsacc/run.sh [pattern]
# The Makefile's suite-hsacc sets HSACC_LIBDIR and HSACL_BARRIERS to what it
# built; the cases that are about building them from the repository unset
# them.
set -u
HSACC=${HSACC:-tools/hsacc}
BUNDLER=${BUNDLER:-clang-offload-bundler-19}
pattern=${1:-*}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hsacc-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0 skipped=0

# case NAME: runs the function NAME, which returns 0 for a pass and prints
# why it failed otherwise.
case_() {
  match=0
  set -f # the patterns are for case, not for the file system
  for p in $(echo "$pattern" | tr ',' ' '); do
    case $1 in $p) match=1 ;; esac
  done
  set +f
  [ "$match" = 1 ] || return 0
  if out=$("$1" 2>&1); then
    echo "[PASS] $1"; passed=$((passed + 1))
  else
    echo "[FAIL] $1: $out"; failed=$((failed + 1))
  fi
}

src() { cat >"$tmp/$1"; }

# refused FILE TEXT: hsacc fails, says TEXT, leaves no output.
refused() {
  if "$HSACC" -o "$tmp/out.hsaco" "$tmp/$1" >"$tmp/log" 2>&1; then echo "accepted $1"; return 1; fi
  grep -q -- "$2" "$tmp/log" || { echo "no \"$2\" in: $(cat "$tmp/log")"; return 1; }
  [ ! -e "$tmp/out.hsaco" ] || { echo "left $tmp/out.hsaco"; return 1; }
  ls "$tmp" | grep -q 'hsacc\.' && { echo "left a temporary file"; return 1; }
  return 0
}

# Without HSACC_LIBDIR and HSACL_BARRIERS, as a user calls it: hsacc builds
# the libraries and the barrier pass from the repository.
hsacc_builds_one_bundle_for_every_agent() {
  src ok.cl <<'K'
__kernel void k(__global int *o) { o[get_global_id(0)] = SCALE * (int)get_global_id(0); }
K
  env -u HSACC_LIBDIR -u HSACL_BARRIERS "$HSACC" -O3 -mcode-object-version=4 -DSCALE=3 -o "$tmp/ok.hsaco" "$tmp/ok.cl" || return 1
  ids=$("$BUNDLER" -list -type=bc -input="$tmp/ok.hsaco" | sort | tr '\n' ' ')
  [ "$ids" = "hipv4-amdgcn-amd-amdhsa--gfx902 hipv4-amdgcn-amd-amdhsa--gfx90c host-x86_64-unknown-linux-gnu- " ] ||
    { echo "entries: $ids"; return 1; }
  "$BUNDLER" -unbundle -type=bc -targets=host-x86_64-unknown-linux-gnu -input="$tmp/ok.hsaco" -output="$tmp/cpu.so" &&
    llvm-readelf-19 -h "$tmp/cpu.so" | grep -q 'X86-64' || { echo "no x86-64 CPU part"; return 1; }
  llvm-nm-19 "$tmp/cpu.so" | grep -q ' t __hsacl_group_k$' || { echo "no work-group function for k"; return 1; }
}

hsacc_builds_several_sources_into_one_file() {
  src m1.cl <<'K'
int helper(int x);
__kernel void ka(__global int *o) { o[get_global_id(0)] = helper((int)get_global_id(0)); }
K
  src m2.cl <<'K'
int helper(int x) { return x * 5; }
__kernel void gs(__global int *o, __local int *ka) { ka[0] = helper(2); o[0] = ka[0]; }
K
  "$HSACC" -o "$tmp/m.hsaco" "$tmp/m1.cl" "$tmp/m2.cl" || return 1
  "$BUNDLER" -unbundle -type=bc -targets=host-x86_64-unknown-linux-gnu -input="$tmp/m.hsaco" -output="$tmp/m.so" || return 1
  for k in ka gs; do
    llvm-nm-19 "$tmp/m.so" | grep -q " t __hsacl_group_$k\$" || { echo "no work-group function for $k"; return 1; }
  done
}

# The CPU part exports the loader's interface alone (cl/cpu_abi.h), and no
# work-item function is left as a call at any level: opencl-c.h declares
# them const, so one that stayed a call could be hoisted out of a kernel's
# loop over work-items.
hsacc_inlines_work_item_functions_and_exports_the_interface() {
  src wi.cl <<'K'
__kernel void k(__global ulong *o) {
  __global ulong *r = o + get_global_linear_id() * 12;
  r[0] = get_global_id(1); r[1] = get_local_id(2); r[2] = get_group_id(0);
  r[3] = get_local_size(0); r[4] = get_enqueued_local_size(1); r[5] = get_num_groups(2);
  r[6] = get_global_size(0); r[7] = get_global_offset(1); r[8] = get_work_dim();
  r[9] = get_local_linear_id();
}
K
  for o in -O0 -O2; do
    "$HSACC" $o -o "$tmp/wi.hsaco" "$tmp/wi.cl" || return 1
    "$BUNDLER" -unbundle -type=bc -targets=host-x86_64-unknown-linux-gnu -input="$tmp/wi.hsaco" -output="$tmp/wi.so" || return 1
    left=$(llvm-nm-19 "$tmp/wi.so" | awk '$NF ~ /^_Z[0-9]+get_/ { print $NF }')
    [ -z "$left" ] || { echo "$o: work-item functions not inlined: $left"; return 1; }
    exports=$(llvm-nm-19 -D --defined-only "$tmp/wi.so" | awk '{ print $3 }' | sort | tr '\n' ' ')
    [ "$exports" = "__hsacl_abi_version __hsacl_kernel_count __hsacl_kernels __hsacl_run_groups " ] ||
      { echo "$o: exports: $exports"; return 1; }
  done
}

# A kernel that reaches a barrier is cut at it (a group function in the CPU
# part, as for a kernel without one); one whose barrier is in a function
# that cannot be inlined keeps one fiber per work-item (a loop over the
# work-items after the first, no group function), and hsacc says why in a
# note, not an error.
hsacc_cuts_kernels_at_barriers_or_says_why_not() {
  src bar.cl <<'K'
void exchange(__local int *t, int v) { t[get_local_id(0)] = v; barrier(CLK_LOCAL_MEM_FENCE); }
__attribute__((noinline)) void exchange_noinline(__local int *t, int v) {
  t[get_local_id(0)] = v; barrier(CLK_LOCAL_MEM_FENCE);
}
int exchange_recursive(__local int *t, int v, int depth) {
  if (depth == 0) { t[get_local_id(0)] = v; barrier(CLK_LOCAL_MEM_FENCE); return t[0]; }
  return exchange_recursive(t, v + 1, depth - 1);
}
__kernel void cut(__global int *o) {
  __local int t[64]; exchange(t, 1); o[get_global_id(0)] = t[63 - get_local_id(0)];
}
__kernel void kept_noinline(__global int *o) {
  __local int t[64]; exchange_noinline(t, 2); o[get_global_id(0)] = t[0];
}
__kernel void kept_recursive(__global int *o, int d) {
  __local int t[64]; o[get_global_id(0)] = exchange_recursive(t, 3, d);
}
__kernel void plain(__global int *o) { o[get_global_id(0)] = 4; }
K
  "$HSACC" -o "$tmp/bar.hsaco" "$tmp/bar.cl" 2>"$tmp/notes" || { cat "$tmp/notes"; return 1; }
  grep -q "note: kernel kept_noinline keeps one fiber per work-item: a barrier in exchange_noinline, which is marked noinline" "$tmp/notes" ||
    { echo "no note for kept_noinline: $(cat "$tmp/notes")"; return 1; }
  grep -q "note: kernel kept_recursive keeps one fiber per work-item: a barrier in exchange_recursive, which is recursive" "$tmp/notes" ||
    { echo "no note for kept_recursive: $(cat "$tmp/notes")"; return 1; }
  [ "$(grep -c hsacl-barriers "$tmp/notes")" = 2 ] || { echo "other notes: $(grep hsacl-barriers "$tmp/notes")"; return 1; }
  cpu_part bar || return 1
  groups=$(llvm-nm-19 "$tmp/bar.so" | awk '$NF ~ /^__hsacl_group_/ { print $NF }' | tr '\n' ' ')
  [ "$groups" = "__hsacl_group_cut __hsacl_group_plain " ] || { echo "group functions: $groups"; return 1; }
  items=$(llvm-nm-19 "$tmp/bar.so" | awk '$NF ~ /^__hsacl_items_/ { print $NF }' | sort | tr '\n' ' ')
  [ "$items" = "__hsacl_items_kept_noinline __hsacl_items_kept_recursive " ] || { echo "work-item loops: $items"; return 1; }
}

# cpu_part NAME: the CPU part of $tmp/NAME.hsaco, as $tmp/NAME.so.
cpu_part() {
  "$BUNDLER" -unbundle -type=bc -targets=host-x86_64-unknown-linux-gnu -input="$tmp/$1.hsaco" -output="$tmp/$1.so"
}

# LLVM turns these printf calls into puts and putchar calls after the
# link (-O1 and up); those are the built-in library's, which write through
# the runtime's hook as printf does, not the C library's.
hsacc_printf_output_stays_on_the_runtimes_hook() {
  src pr.cl <<'K'
__kernel void k(__global int *o) {
  printf("a line\n"); printf("%s\n", "a string"); printf("!"); printf("%c", 'c'); printf("%d\n", o[0]);
}
K
  "$HSACC" -O2 -o "$tmp/pr.hsaco" "$tmp/pr.cl" && cpu_part pr || return 1
  imports=$(llvm-nm-19 -D --undefined-only "$tmp/pr.so" | awk '{ print $2 }' | tr '\n' ' ')
  case " $imports " in
    *" puts "* | *" putchar "* | *" printf "* | *" fwrite "* | *" fputc "*) echo "imports: $imports"; return 1 ;;
    *" __hsa_cpu_write "*) ;;
    *) echo "no __hsa_cpu_write in: $imports"; return 1 ;;
  esac
  for f in puts putchar; do
    llvm-nm-19 "$tmp/pr.so" | grep -q " t $f\$" || { echo "no $f of its own"; return 1; }
  done
}

# The code generator calls the half conversions of the built-in library
# after the link (a conversion to or from half is a call of __truncsfhf2 or
# __extendhfsf2 without F16C); hsacc links them from the library, not
# compiler-rt's (whose objects define them with the aliases __gnu_f2h_ieee
# and __gnu_h2f_ieee). A kernel without printf carries no printf, puts or
# putchar.
hsacc_links_the_librarys_half_conversions_for_the_code_generator() {
  src half.cl <<'K'
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void k(__global const float *in, __global half *h, __global float *out) {
  h[0] = (half)in[0];
  out[0] = (float)h[1];
}
K
  "$HSACC" -O0 -o "$tmp/half.hsaco" "$tmp/half.cl" && cpu_part half || return 1
  syms=$(llvm-nm-19 "$tmp/half.so")
  echo "$syms" | grep -q ' t __truncsfhf2$' || { echo "no __truncsfhf2"; return 1; }
  echo "$syms" | grep -q ' t __extendhfsf2$' || { echo "no __extendhfsf2"; return 1; }
  ! echo "$syms" | grep -q '__gnu_[fh]2[hf]_ieee' || { echo "compiler-rt's half conversions linked"; return 1; }
  left=$(echo "$syms" | awk '$NF ~ /^(printf|puts|putchar)$/ { print $NF }')
  [ -z "$left" ] || { echo "without printf: $left"; return 1; }
}

hsacc_compile_error_prints_clang_and_leaves_nothing() {
  src err.cl <<'K'
__kernel void k(__global int *o) { o[0] = no_such_name; }
K
  refused err.cl "error: use of undeclared identifier 'no_such_name'"
}

hsacc_refuses_images() {
  src img.cl <<'K'
__kernel void k(read_only image2d_t i, __global float4 *o) { o[0] = read_imagef(i, (int2)(0, 0)); }
K
  refused img.cl "argument of kind image"
}

hsacc_refuses_pipes() {
  src pipe.cl <<'K'
__kernel void k(__write_only pipe int p) { int v = 1; write_pipe(p, &v); }
K
  refused pipe.cl "pipe"
}

hsacc_refuses_device_enqueue() {
  src enq.cl <<'K'
__kernel void k(__global int *o) {
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ o[0] = 1; });
}
K
  refused enq.cl "device-side enqueue"
}

hsacc_refuses_sub_groups() {
  src sg.cl <<'K'
__kernel void k(__global uint *o) { o[0] = get_sub_group_id(); }
K
  refused sg.cl "sub-groups"
}

hsacc_refuses_static_global_variables() {
  src st.cl <<'K'
static __global int counter;
__kernel void k(__global int *o) { o[0] = counter++; }
K
  refused st.cl "static __global variables are not supported"
}

hsacc_refuses_bad_options() {
  src ok2.cl <<'K'
__kernel void k(__global int *o) { o[0] = 1; }
K
  "$HSACC" -o "$tmp/ok2.hsaco" "$tmp/ok2.cl" || return 1
  "$HSACC" -O5 -o "$tmp/x" "$tmp/ok2.cl" 2>&1 | grep -q "unsupported optimisation level" || return 1
  "$HSACC" -mcode-object-version=6 -o "$tmp/x" "$tmp/ok2.cl" 2>&1 | grep -q "unsupported" || return 1
  "$HSACC" "$tmp/ok2.cl" 2>&1 | grep -q "no output file" || return 1
  HSACC_LIBDIR="$tmp/nolib" "$HSACC" -o "$tmp/x" "$tmp/ok2.cl" 2>&1 |
    grep -q "$tmp/nolib/hsacl-workitem.bc is missing" || { echo "no message for a bad HSACC_LIBDIR"; return 1; }
  HSACL_BARRIERS="$tmp/nobar" "$HSACC" -o "$tmp/x" "$tmp/ok2.cl" 2>&1 |
    grep -q "$tmp/nobar: no such program" || { echo "no message for a bad HSACL_BARRIERS"; return 1; }
  [ ! -e "$tmp/x" ]
}

# The barrier pass's line for each kernel of $tmp/FILE.cl ("<kernel>
# <context bytes> <barriers> <uniform bytes>"), into $tmp/FILE.lines, from a
# wrapper around the pass that make suite-hsacc built (HSACL_BARRIERS).
pass_lines() {
  [ -n "${HSACL_BARRIERS:-}" ] || { echo "HSACL_BARRIERS is not set (make suite-hsacc sets it)"; return 1; }
  printf '#!/bin/sh\n"%s" "$@" | tee "%s"\n' "$HSACL_BARRIERS" "$tmp/$1.lines" >"$tmp/tee-pass"
  chmod +x "$tmp/tee-pass"
  HSACL_BARRIERS="$tmp/tee-pass" "$HSACC" -o "$tmp/$1.hsaco" "$tmp/$1.cl"
}

# uniform FILE KERNEL BYTES SAME_END: the pass kept BYTES of KERNEL's
# values once per work-group, and found that every work-item ends each
# region at the same barrier (SAME_END 1) or not (0).
uniform() {
  got=$(awk -v k="$2" '$1 == k { print $4, $5 }' "$tmp/$1.lines")
  [ "$got" = "$3 $4" ] ||
    { echo "$2: \"$got\", not \"$3 $4\" (uniform bytes, same end): $(cat "$tmp/$1.lines")"; return 1; }
}

# Values live across a barrier that are the same for every work-item of the
# group are kept once per group: the counters of nested barrier loops, a
# value from the kernarg and the group id rewritten between two barriers.
# Never one stored under a branch on the work-item's id (even of a value
# the same for all), one from a loop whose trip count is the work-item's,
# or one loaded from memory that the work-items write. A barrier under a
# branch on the work-item's id may end a region at different barriers.
hsacc_keeps_values_uniform_across_the_group_once() {
  src uni.cl <<'K'
__kernel void nested(__global int *o, uint n) {
  __local int t[64];
  int v = 0;
  for (uint i = 0; i < n; i++)
    for (uint j = 0; j < i; j++) {
      t[get_local_id(0)] = v; barrier(CLK_LOCAL_MEM_FENCE);
      v += t[0]; barrier(CLK_LOCAL_MEM_FENCE);
    }
  o[get_global_id(0)] = v;
}
__kernel void rewritten(__global uint *o, uint n, uint rounds) {
  __local uint t[64];
  uint acc = n * (uint)get_group_id(0);
  for (uint r = 0; r < rounds; r++) {
    t[get_local_id(0)] = acc; barrier(CLK_LOCAL_MEM_FENCE);
    acc = acc * 3u + r;
  }
  o[get_global_id(0)] = acc + t[0];
}
__kernel void under_branch(__global int *o) {
  __local int t[64];
  int v = 1;
  if (get_local_id(0) & 1) v = 2;
  t[get_local_id(0)] = 0; barrier(CLK_LOCAL_MEM_FENCE);
  o[get_global_id(0)] = v + t[0];
}
__kernel void varying_trip(__global uint *o) {
  __local uint t[64];
  uint k = 0;
  for (uint i = 0; i < get_local_id(0); i++) k += 2;
  t[get_local_id(0)] = 0; barrier(CLK_LOCAL_MEM_FENCE);
  o[get_global_id(0)] = k + t[0];
}
__kernel void from_memory(__global int *o) {
  __local int t[64];
  t[get_local_id(0)] = 5; barrier(CLK_LOCAL_MEM_FENCE);
  int v = t[0]; barrier(CLK_LOCAL_MEM_FENCE);
  o[get_global_id(0)] = v;
}
__kernel void divergent_barrier(__global int *o) {
  if (get_local_id(0) == 0) barrier(CLK_LOCAL_MEM_FENCE);
  o[get_global_id(0)] = 1;
}
K
  pass_lines uni || return 1
  uniform uni nested 8 1 && uniform uni rewritten 8 1 && uniform uni under_branch 0 1 &&
    uniform uni varying_trip 0 1 && uniform uni from_memory 0 1 &&
    uniform uni divergent_barrier 0 0
}

# bounded FILE KERNEL N: N of KERNEL's runs have a bound in x (the pass's
# <run> fields "<state>:<bound offset>:<end>").
bounded() {
  got=$(awk -v k="$2" '$1 == k { n = 0; for (i = 7; i <= NF; i++) { split($i, r, ":"); n += r[2] >= 0 } print n }' "$tmp/$1.lines")
  [ "$got" = "$3" ] || { echo "$2: $got bounded runs, not $3: $(cat "$tmp/$1.lines")"; return 1; }
}

# The uniform start of a region runs once per group (the pass routes the
# kernel), and a region whose work is `if (get_local_id(0) < bound)` with
# nothing done out of range runs the work-items below the bound only: the
# steps of a tree reduction, and the last one's `lid == 0`. Not when the
# work-items out of range still store (a write after the guard, a scan's
# `lid >= offset`), nor for a bound that is not the same for all.
hsacc_runs_the_uniform_start_once_and_bounds_the_work_items() {
  src route.cl <<'K'
__kernel void tree(__global int *o) {
  __local int t[256];
  uint lid = get_local_id(0);
  t[lid] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s /= 2) {
    if (lid < s) t[lid] += t[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) o[get_group_id(0)] = t[0];
}
__kernel void store_after(__global int *o, uint n) {
  __local int t[256];
  uint lid = get_local_id(0);
  t[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < n) t[lid] = 1;
  o[get_global_id(0)] = t[0];
}
__kernel void scan_step(__global int *o) {
  __local int t[256];
  uint lid = get_local_id(0);
  int v = lid;
  for (uint s = 1; s < get_local_size(0); s *= 2) {
    t[lid] = v; barrier(CLK_LOCAL_MEM_FENCE);
    if (lid >= s) v += t[lid - s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  o[get_global_id(0)] = v;
}
__kernel void varying_bound(__global int *o, __global const uint *n) {
  __local int t[256];
  uint lid = get_local_id(0);
  t[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < n[0]) t[lid] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  o[get_global_id(0)] = t[0];
}
K
  pass_lines route || return 1
  routed=$(awk '$1 == "tree" { print $6 }' "$tmp/route.lines")
  [ "$routed" = 1 ] || { echo "tree not routed: $(cat "$tmp/route.lines")"; return 1; }
  bounded route tree 2 && bounded route store_after 0 && bounded route scan_step 0 &&
    bounded route varying_bound 0
}

case_ hsacc_builds_one_bundle_for_every_agent
case_ hsacc_builds_several_sources_into_one_file
case_ hsacc_inlines_work_item_functions_and_exports_the_interface
case_ hsacc_cuts_kernels_at_barriers_or_says_why_not
case_ hsacc_keeps_values_uniform_across_the_group_once
case_ hsacc_runs_the_uniform_start_once_and_bounds_the_work_items
case_ hsacc_printf_output_stays_on_the_runtimes_hook
case_ hsacc_links_the_librarys_half_conversions_for_the_code_generator
case_ hsacc_compile_error_prints_clang_and_leaves_nothing
case_ hsacc_refuses_images
case_ hsacc_refuses_pipes
case_ hsacc_refuses_device_enqueue
case_ hsacc_refuses_sub_groups
case_ hsacc_refuses_static_global_variables
case_ hsacc_refuses_bad_options
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
