#!/bin/sh
# check-library.sh LIBRARY.o NEWLIB_LIBDIR CL_CC - checks of the OpenCL C
# built-in library as a whole, one [PASS]/[FAIL] line each:
# - cl_library_imports: every undefined symbol is a work-item function or
#   barrier (the work-item code of the CPU agents defines them),
#   __hsa_cpu_write, or a function both C libraries define: newlib's
#   libm.a/libc.a (the image) and glibc's libm.so.6/libc.so.6 (the host).
# - cl_library_defines_opencl_c_h: every function clang's opencl-c.h
#   declares for OpenCL C 2.0 on x86-64 (its mangled name, from clang's
#   JSON AST dump) is defined, except the families the library leaves out
#   (cl/builtins/clb.h lists them) and the work-item functions.
set -u
lib=$1 newlib=$2 cc=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
workitem='_Z13get_global_idj _Z15get_global_sizej _Z17get_global_offsetj _Z12get_local_idj
_Z14get_local_sizej _Z23get_enqueued_local_sizej _Z12get_group_idj _Z14get_num_groupsj
_Z12get_work_dimv _Z20get_global_linear_idv _Z19get_local_linear_idv _Z7barrierj
_Z18work_group_barrierj _Z18work_group_barrierj12memory_scope'

for a in "$newlib/libm.a" "$newlib/libc.a"; do
  nm "$a" 2>/dev/null | awk '$2 == "T" || $2 == "W" { print $3 }'
done | sort -u > "$tmp/newlib"
for so in /lib/x86_64-linux-gnu/libm.so.6 /lib/x86_64-linux-gnu/libc.so.6; do
  nm -D --defined-only "$so" | awk '{ sub(/@.*/, "", $3); print $3 }'
done | sort -u > "$tmp/glibc"
bad=
for s in $(llvm-nm-19 -u "$lib" | awk '{ print $2 }'); do
  case " $(echo $workitem) __hsa_cpu_write " in *" $s "*) continue ;; esac
  grep -qx "$s" "$tmp/newlib" || bad="$bad $s(not in newlib)"
  grep -qx "$s" "$tmp/glibc" || bad="$bad $s(not in glibc)"
done
if [ -s "$tmp/newlib" ] && [ -z "$bad" ]; then
  echo "[PASS] cl_library_imports"
else
  echo "[FAIL] cl_library_imports:${bad:- no newlib libraries in $newlib}"
fi

echo > "$tmp/empty.cl"
$cc -target x86_64-unknown-linux-gnu -x cl -cl-std=CL2.0 -include opencl-c.h -fsyntax-only \
    -Xclang -ast-dump=json "$tmp/empty.cl" > "$tmp/ast.json"
llvm-nm-19 --defined-only -g "$lib" | awk '{ print $3 }' | sort -u > "$tmp/defined"
missing=$(python3 - "$tmp/ast.json" "$tmp/defined" "$workitem" <<'PY'
import json, re, sys
ast = json.load(open(sys.argv[1]))
defined = set(open(sys.argv[2]).read().split())
workitem = set(sys.argv[3].split())
left_out = re.compile(r'(read_image|write_image|get_image_|.*sub_group|intel_|amd_|work_group_'
                      r'(all|any|broadcast|reduce|scan)|ndrange_|enqueue_|get_default_queue|'
                      r'create_user_event|retain_event|release_event|set_user_event_status|'
                      r'is_valid_|capture_event_profiling_info|get_fence|get_kernel_|'
                      r'(read|write|reserve|commit|work_group_reserve|work_group_commit)_.*pipe|'
                      r'get_pipe_)')
names = {}
for d in ast['inner']:
    if d.get('kind') != 'FunctionDecl' or 'mangledName' not in d:
        continue
    m, n = d['mangledName'], d['name']
    if m in defined or m in workitem or left_out.match(n):
        continue
    names[n] = names.get(n, 0) + 1
print(' '.join('%s(%d)' % kv for kv in sorted(names.items())))
PY
)
if [ -s "$tmp/ast.json" ] && [ -z "$missing" ]; then
  echo "[PASS] cl_library_defines_opencl_c_h"
else
  echo "[FAIL] cl_library_defines_opencl_c_h: not defined: ${missing:-(no AST dump)}"
fi
