#!/bin/sh
# run.sh BIN LIBDIR KERNELS DEBIAN_PROGRAM... - runs the ROCr clients of
# suite rocm-clients (built by mk/rocm-clients.mk into BIN) on the host
# library in LIBDIR, by LD_LIBRARY_PATH alone, and prints one
# [PASS]/[FAIL]/[SKIP] line per check:
#   - HIP 5.2 (hip_features: one line per feature; hip_fault, hip_printf,
#     hip_host_unregister: what HIP does with a faulting kernel, device
#     printf and hipHostUnregister);
#   - LLVM 19's OpenMP offload (openmp_offload: one line per feature, and a
#     faulting target region);
#   - ROCr programs built against Debian's ROCr (BIN/debian/<name>, run
#     with the folder KERNELS as argument).
# First it prints the versions of the clients it runs (dpkg).
set -u
bin=$1; lib=$2; kernels=$3; shift 3
status=0
ulimit -c 0 # the runs that end in HIP's abort leave no core file

echo "rocm-clients: ran with $(dpkg-query -W -f='${Package} ${Version}; ' \
  libamdhip64-5 libamd-comgr2 libhsa-runtime64-1 libomp5-19 clang-19 rocm-device-libs 2>&1)"

# on_our_runtime LOG CMD...: CMD with our library first on the search path
# (and LLVM 19's, where libomptarget lives), its log at level info (for
# "hsa: runtime up", which says this runtime ran), a 120 s limit; output in LOG.
on_our_runtime() {
  log=$1; shift
  HSAR_OPTIONS=loglevel=info LD_LIBRARY_PATH=$lib:/usr/lib/llvm-19/lib timeout 120 "$@" > "$log" 2>&1
}
pass() { echo "[PASS] $1"; }
fail() { echo "[FAIL] $1: $2"; status=1; }
skip() { echo "[SKIP] $1: $2"; }
last() { tail -n 4 "$1" | tr '\n' ' '; }

# A program that reports its own [PASS]/[FAIL] lines: those, and a failure
# of its own if it ends badly without one.
run_reporting() {
  name=$1; log=$2; shift 2
  on_our_runtime "$log" "$@"
  rc=$?
  grep -E '^\[(PASS|FAIL|SKIP)\] ' "$log"
  grep -q '^\[FAIL\] ' "$log" && status=1
  if [ $rc -ne 0 ] && ! grep -q '^\[FAIL\] ' "$log"; then fail "$name" "exit $rc; $(last "$log")"; fi
  if ! grep -q 'hsa: runtime up' "$log"; then fail "$name" "this runtime did not start (its log has no 'hsa: runtime up')"; fi
}

# ---- HIP ---------------------------------------------------------------------
run_reporting rocm_hip_features "$bin/hip_features.log" "$bin/hip_features" "$bin/hip_module_kernels.co"

t=rocm_hip_faulting_kernel_is_reported_with_its_status
on_our_runtime "$bin/hip_fault.log" "$bin/hip_fault"
rc=$?
if [ $rc -eq 124 ]; then fail $t "hung (120 s)"
elif ! grep -q 'a good kernel ran' "$bin/hip_fault.log"; then fail $t "the good kernel did not run: exit $rc; $(last "$bin/hip_fault.log")"
elif grep -q 'callbackQueue aborting with error : HSA_STATUS_ERROR_MEMORY_FAULT' "$bin/hip_fault.log" && [ $rc -eq 134 ]; then
  pass "$t (HIP 5.2 reports HSA_STATUS_ERROR_MEMORY_FAULT from the queue's error callback, then aborts by design)"
elif grep -q 'hipDeviceSynchronize returned' "$bin/hip_fault.log" && [ $rc -eq 0 ]; then pass "$t (as a HIP error)"
else fail $t "exit $rc; $(last "$bin/hip_fault.log")"; fi

t=rocm_hip_host_unregister
on_our_runtime "$bin/hip_host_unregister.log" "$bin/hip_host_unregister"
rc=$?
if [ $rc -eq 0 ] && grep -q 'hipHostUnregister returned no error' "$bin/hip_host_unregister.log"; then pass $t
elif [ $rc -eq 134 ] && grep -q 'Memobj map does not have ptr' "$bin/hip_host_unregister.log" &&
     grep -q 'hip_host_unregister: host \(0x[0-9a-f]*\), device \1$' "$bin/hip_host_unregister.log"; then
  skip $t "HIP 5.2 aborts in hipHostUnregister when the device address of registered memory is the host address, as on every full-profile agent (its kernel ran on the registered memory first)"
else fail $t "exit $rc; $(last "$bin/hip_host_unregister.log")"; fi

t=rocm_hip_device_printf
on_our_runtime "$bin/hip_printf.log" "$bin/hip_printf" printf
rc=$?
want=$(for b in 0 1; do for th in 0 1 2; do echo "device printf: block $b thread $th value $((1000 + b * 10 + th))"; done; done | sort)
got=$(grep '^device printf:' "$bin/hip_printf.log" | sort)
if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then pass $t
elif [ $rc -eq 139 ]; then
  on_our_runtime "$bin/hip_completion_action.log" "$bin/hip_printf" completion-action
  if [ $? -eq 139 ]; then
    skip $t "HIP 5.2 crashes on every kernel whose metadata lists hidden_completion_action (clang 19 lists it with printf): it takes them for device-enqueue kernels; the control kernel without printf crashes alike"
  else fail $t "printf crashed, the control kernel did not: $(last "$bin/hip_printf.log")"; fi
else fail $t "exit $rc; $(last "$bin/hip_printf.log")"; fi

# ---- OpenMP offload ------------------------------------------------------------
OMP_TARGET_OFFLOAD=MANDATORY; export OMP_TARGET_OFFLOAD
run_reporting rocm_openmp_offload "$bin/openmp_offload.log" "$bin/openmp_offload"
# The plugin reports what the runtime refused even when it carries on (its
# 512 MiB device heap from the GPU's local pool, the pointer information
# of each host buffer it maps).
if grep -q 'AMDGPU error\|"PluginInterface" error\|omptarget error' "$bin/openmp_offload.log"; then
  fail rocm_openmp_offload_plugin_reports_no_error "$(grep -m 3 'error' "$bin/openmp_offload.log" | tr '\n' ' ')"
else pass rocm_openmp_offload_plugin_reports_no_error; fi

t=rocm_openmp_faulting_region_is_reported_with_its_status
on_our_runtime "$bin/openmp_fault.log" "$bin/openmp_offload" fault
rc=$?
# Two reports reach the plugin, each from the runtime's async worker: the
# system event HSA_AMD_GPU_MEMORY_FAULT_EVENT (its handler names the
# address, 0x1000, and the reason, as on ROCm) and the queue's error
# callback; whichever runs first ends the program.
if [ $rc -eq 124 ]; then fail $t "hung (120 s)"
elif [ $rc -ne 0 ] && grep -q 'Memory access fault by GPU [0-9]* (agent 0x[0-9a-f]*) at virtual address 0x1000\. Reasons: Page not present' "$bin/openmp_fault.log"; then
  pass "$t (the plugin's system event handler names the address and the reason and ends the program, exit $rc)"
elif [ $rc -ne 0 ] && grep -q 'Received error in queue.*HSA_STATUS_ERROR_MEMORY_FAULT' "$bin/openmp_fault.log"; then
  pass "$t (the plugin names HSA_STATUS_ERROR_MEMORY_FAULT and ends the program, exit $rc)"
else fail $t "exit $rc; $(last "$bin/openmp_fault.log")"; fi
unset OMP_TARGET_OFFLOAD

# ---- Programs built against Debian's ROCr ------------------------------------------
for name in "$@"; do
  t=rocm_debian_rocr_program_$name
  prog=$bin/debian/$name
  needed=$(readelf -d "$prog" 2>/dev/null | grep -c 'NEEDED.*\[libhsa-runtime64.so.1\]')
  if [ "$needed" != 1 ]; then fail $t "$prog does not need libhsa-runtime64.so.1"; continue; fi
  on_our_runtime "$bin/debian/$name.log" "$prog" "$kernels"
  rc=$?
  if [ $rc -ne 0 ]; then fail $t "exit $rc; $(last "$bin/debian/$name.log")"
  elif ! grep -q 'hsa: runtime up' "$bin/debian/$name.log"; then fail $t "ran, but not on this runtime"
  else pass "$t: $(tail -n 1 "$bin/debian/$name.log")"; fi
done
exit $status
