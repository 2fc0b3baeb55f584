#!/usr/bin/env python3
"""make-firmware.py [--failure-cases] OUT_DIR - synthetic GPU firmware files
for the tests and for QEMU runs of the virtual APU.

Never real firmware: the payloads are a counter-based pattern. The files
carry the real linux-firmware header formats (Linux amdgpu_ucode.h:
common_firmware_header, gfx_firmware_header_v1_0 for the MEC,
rlc_firmware_header_v2_1 with save/restore lists, sdma_firmware_header_v1_0),
little-endian, so the driver's checks and the PSP path run as on a board.

Writes, under OUT_DIR (the image captures only \amdgpu\, \data\ and
\kernels\ of the ESP, so the failure cases are folders inside amdgpu/):
  amdgpu/<chip>_{mec,rlc,sdma}.bin     for raven, picasso, raven2, renoir
  amdgpu/raven_kicker_rlc.bin
with --failure-cases also:
  amdgpu/missing/raven_{kicker_rlc,sdma}.bin  no MEC file: a missing-file test
  amdgpu/bad/raven_{mec,kicker_rlc,sdma}.bin  a MEC file with a bad header version
"""
import os
import struct
import sys

CHIPS = ["raven", "picasso", "raven2", "renoir"]
COMMON = "<IIHHHHIIII"  # size, header size, hdr major/minor, ip major/minor, ucode version, ucode size, offset, crc32
UCODE_OFFSET = 0x100    # payload after the header, as in linux-firmware's files


def pattern(n_bytes, seed):
    """A payload that differs per file and per position (never real firmware)."""
    words = [(seed * 0x9E3779B1 + i * 0x85EBCA6B) & 0xFFFFFFFF for i in range(n_bytes // 4)]
    return struct.pack("<%dI" % len(words), *words)


def common(total, header_size, major, minor, ucode_version, ucode_size, ip=(9, 0)):
    return struct.pack(COMMON, total, header_size, major, minor, ip[0], ip[1], ucode_version,
                       ucode_size, UCODE_OFFSET, 0)


def mec(seed, header_major=1):
    ucode_dwords, jt_dwords = 8192, 512  # 32 KiB ucode whose last 2 KiB are the jump table
    ucode = pattern(ucode_dwords * 4, seed)
    header_size = 44
    total = UCODE_OFFSET + len(ucode)
    head = common(total, header_size, header_major, 0, 0x1a5 + seed, len(ucode))
    head += struct.pack("<III", 60 + seed, ucode_dwords - jt_dwords, jt_dwords)
    return head.ljust(UCODE_OFFSET, b"\0") + ucode


def rlc(seed):
    ucode = pattern(16 * 1024, seed + 100)
    lists = [pattern(n, seed + 200 + i) for i, n in enumerate((1024, 2048, 512, 768, 256, 512, 128))]
    # register list format, register list, (separate format, separate list: empty),
    # save/restore list CNTL, GPM, SRM
    header_size = 156
    offset = UCODE_OFFSET + len(ucode)
    offsets = []
    for blob in lists:
        offsets.append(offset)
        offset += len(blob)
    total = offset
    head = common(total, header_size, 2, 1, 0x217 + seed, len(ucode))
    v2_0 = [1 + seed, 0, 0, 0x40, 0x4c0, 0x20, len(lists[1]) // 4, 0x10, 0x20, 0x30,
            len(lists[0]), offsets[0], len(lists[1]), offsets[1], 0, 0, 0, 0]
    v2_1 = [len(lists[2]) // 4,
            0x10 + seed, 1, len(lists[4]), offsets[4],
            0x11 + seed, 1, len(lists[5]), offsets[5],
            0x12 + seed, 1, len(lists[6]), offsets[6]]
    head += struct.pack("<18I", *v2_0) + struct.pack("<13I", *v2_1)
    return head.ljust(UCODE_OFFSET, b"\0") + ucode + b"".join(lists)


def sdma(seed):
    ucode = pattern(16 * 1024, seed + 300)
    header_size = 48
    total = UCODE_OFFSET + len(ucode)
    head = common(total, header_size, 1, 0, 0x2c + seed, len(ucode), ip=(4, 1))
    head += struct.pack("<IIII", 40 + seed, 0, len(ucode) // 4 - 256, 256)
    return head.ljust(UCODE_OFFSET, b"\0") + ucode


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def main():
    args = sys.argv[1:]
    failure_cases = "--failure-cases" in args
    args = [a for a in args if a != "--failure-cases"]
    if len(args) != 1:
        sys.exit(__doc__)
    out = args[0]
    for seed, chip in enumerate(CHIPS):
        write(os.path.join(out, "amdgpu", chip + "_mec.bin"), mec(seed))
        write(os.path.join(out, "amdgpu", chip + "_rlc.bin"), rlc(seed))
        write(os.path.join(out, "amdgpu", chip + "_sdma.bin"), sdma(seed))
    # Raven with SMU firmware 0x41e2b or later takes the "kicker" RLC
    # (Linux gfx_v9_0_init_rlc_microcode); the model's Raven SMU is that new.
    write(os.path.join(out, "amdgpu", "raven_kicker_rlc.bin"), rlc(7))
    if not failure_cases:
        return
    write(os.path.join(out, "amdgpu", "missing", "raven_kicker_rlc.bin"), rlc(0))
    write(os.path.join(out, "amdgpu", "missing", "raven_sdma.bin"), sdma(0))
    write(os.path.join(out, "amdgpu", "bad", "raven_mec.bin"), mec(0, header_major=2))
    write(os.path.join(out, "amdgpu", "bad", "raven_kicker_rlc.bin"), rlc(0))
    write(os.path.join(out, "amdgpu", "bad", "raven_sdma.bin"), sdma(0))


if __name__ == "__main__":
    main()
