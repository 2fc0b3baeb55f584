#!/bin/bash
# boot_compare.sh [--runs N] [--deps] - `make run`'s wall time next to a
# Debian 12 kernel with a busybox init, booted the same way: the same QEMU
# (qemu/boot.sh's machine: q35, -cpu max, OVMF, 4 cores, 1 GiB, amd-iommu,
# edu, the virtio-blk ESP), the kernel through OVMF (QEMU's -kernel: OVMF
# loads it from fw_cfg and starts its EFI stub), an initramfs built here
# from busybox-static whose init powers the machine off at once. Each side
# N times (default 3); prints each median and their ratio. Figures, not
# pass/fail (make bench runs it).
#
#   --deps   install the two Debian packages it needs (linux-image-amd64,
#            busybox-static) when they are missing (root; make bench does)
#
# Run from the repository root after `make image` (make bench builds first).
set -u
runs=3; deps=0
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --deps) deps=1; shift ;;
    *) echo "usage: $0 [--runs N] [--deps]" >&2; exit 2 ;;
  esac
done
build=${BUILD:-build}
work=$build/bench-boot
mkdir -p "$work"

missing=""
for p in linux-image-amd64 busybox-static; do
  dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
  if [ "$deps" = 1 ] && [ "$(id -u)" = 0 ]; then
    echo "boot-compare: installing Debian packages:$missing"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing \
      > "$work/apt.log" 2>&1 || { echo "boot-compare: apt-get failed (see $work/apt.log)"; exit 1; }
  else
    echo "boot-compare: needs the Debian packages$missing (run as root with --deps)"; exit 0
  fi
fi
kernel=$(ls /boot/vmlinuz-*-amd64 2>/dev/null | sort -V | tail -n 1)
[ -n "$kernel" ] || { echo "boot-compare: no /boot/vmlinuz-*-amd64 (linux-image-amd64)"; exit 1; }

# The initramfs: busybox and an init that says so and powers off; a cpio
# "newc" archive (Linux Documentation/driver-api/early-userspace/
# buffer-format.rst) written here, with /dev/console, which the kernel
# opens for init before it runs it.
cat > "$work/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
echo "linux: init reached"
/bin/busybox poweroff -f
EOF
python3 - "$work/initramfs.cpio" "$work/init" /bin/busybox <<'EOF'
import os, sys
out, init, busybox = sys.argv[1:4]
def entry(name, mode, data=b"", rdev=(0, 0)):
    name = name.encode() + b"\0"
    hdr = "070701" + "".join("%08x" % v for v in (
        0, mode, 0, 0, 1, 0, len(data), 0, 0, rdev[0], rdev[1], len(name), 0))
    rec = hdr.encode() + name
    rec += b"\0" * (-len(rec) % 4) + data
    return rec + b"\0" * (-len(rec) % 4)
parts = [entry("dev", 0o40755), entry("dev/console", 0o20600, rdev=(5, 1)),
         entry("proc", 0o40755), entry("bin", 0o40755),
         entry("bin/busybox", 0o100755, open(busybox, "rb").read()),
         entry("init", 0o100755, open(init, "rb").read()), entry("TRAILER!!!", 0)]
open(out, "wb").write(b"".join(parts))
EOF

ovmf_code=/usr/share/OVMF/OVMF_CODE_4M.fd
ovmf_vars=/usr/share/OVMF/OVMF_VARS_4M.fd
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
median() { sort -n | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# quiet: the kernel's log at warning level (it would print hundreds of lines
# to the serial port otherwise); no_timer_check: under emulation the check
# that the timer interrupt arrives through the interrupt-remapped I/O APIC
# fails at random ("timer doesn't work through Interrupt-remapped
# IO-APIC", a panic), as virtual machines' kernel lines usually say.
linux_cmdline="console=ttyS0 quiet panic=-1 no_timer_check"
ours=(); theirs=()
for ((i = 0; i < runs; i++)); do
  t0=$(now_ms)
  make --no-print-directory -s run > "$work/run.log" 2>&1
  rc=$?
  t1=$(now_ms)
  [ "$rc" = 0 ] || { echo "boot-compare: make run failed (status $rc, $work/run.log)"; exit 1; }
  ours+=($((t1 - t0)))

  cp "$ovmf_vars" "$work/OVMF_VARS.fd"
  cp "$build/demo.img" "$work/esp.img"
  t0=$(now_ms)
  timeout 300 qemu-system-x86_64 -machine q35 -cpu max -m 1G -smp 4 -nographic -no-reboot \
    -net none -drive "if=pflash,format=raw,unit=0,readonly=on,file=$ovmf_code" \
    -drive "if=pflash,format=raw,unit=1,file=$work/OVMF_VARS.fd" \
    -drive "if=none,id=esp,format=raw,readonly=on,file=$work/esp.img" \
    -device amd-iommu -device virtio-blk-pci,drive=esp -device edu \
    -kernel "$kernel" -initrd "$work/initramfs.cpio" -append "$linux_cmdline" \
    < /dev/null > "$work/linux.log" 2>&1
  rc=$?
  t1=$(now_ms)
  grep -q 'linux: init reached' "$work/linux.log" ||
    { echo "boot-compare: the Linux boot did not reach init (status $rc, $work/linux.log)"; exit 1; }
  theirs+=($((t1 - t0)))
done
a=$(printf '%s\n' "${ours[@]}" | median)
b=$(printf '%s\n' "${theirs[@]}" | median)
awk -v a="$a" -v b="$b" -v n="$runs" -v ours="${ours[*]}" -v theirs="${theirs[*]}" \
    -v linux="Debian $(basename "$kernel" | sed 's/vmlinuz-//') + busybox" 'BEGIN {
  printf "boot-compare: %-36s %6.2f s  median of %d (%s ms)\n", "make run (demo, QEMU TCG)", a / 1000, n, ours
  printf "boot-compare: %-36s %6.2f s  median of %d (%s ms)\n", linux, b / 1000, n, theirs
  printf "boot-compare: make run / Linux = %.2f   (goal: at most 0.50)\n", a / b
}'
