#!/bin/sh
# boot_steps.sh SERIAL.LOG - the boot's steps from a boot log of the image
# (efi_main's stages, the kernel's steps, main()'s start), with the goal.
set -eu
log=$1
[ -f "$log" ] || { echo "boot-steps: no log $log"; exit 1; }
sed -n 's/^\[ *[0-9.]* c0\] I kernel: boot: \([^k].*\)$/boot-steps: efi_main: \1/p' "$log"
sed -n 's/^\[ *[0-9.]* c0\] I kernel: boot: kernel steps (ms): \(.*\); main() at.*$/boot-steps: kernel (ms): \1/p' "$log"
ms=$(sed -n 's/.*kernel steps (ms): .*; main() at \([0-9.]*\) ms$/\1/p' "$log" | tail -n 1)
[ -n "$ms" ] || { echo "boot-steps: $log has no kernel steps line"; exit 1; }
echo "boot-steps: efi_main -> main(): $ms ms   (goal: at most 150 ms; GPU bring-up comes after, in hsa_init)"
