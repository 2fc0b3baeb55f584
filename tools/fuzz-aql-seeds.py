#!/usr/bin/env python3
"""fuzz-aql-seeds.py OUTDIR - seed inputs of fuzz_aql: well-formed AQL packet
sequences (HSA PRM 1.2, 2.8 layouts), one file each, which the fuzzer
mutates: a kernel dispatch, barrier-AND and barrier-OR with dependencies,
an AMD barrier-value packet, and a mix."""
import os
import struct
import sys

SYSTEM = 2  # HSA_FENCE_SCOPE_SYSTEM


def header(ptype, barrier=1):
    return ptype | barrier << 8 | SYSTEM << 9 | SYSTEM << 11


def dispatch(grid=256, wg=64, sel_kernel=0, sel_done=1):
    # header, setup, wg xyz, reserved, grid xyz, private, group, kernel object,
    # kernarg, reserved, completion signal
    return struct.pack('<HHHHHHIIIIIQQQQ', header(2), 1, wg, 1, 1, 0, grid, 1, 1, 0, 0,
                       sel_kernel, 0, 0, sel_done)


def barrier(ptype, deps, sel_done=5):
    return struct.pack('<HHI5QQQ', header(ptype), 0, 0, *deps, 0, sel_done)


def barrier_value(sel_signal=1, value=0, mask=1, cond=0, sel_done=9):
    # header, AmdFormat=2 (barrier-value), reserved, signal, value, mask, cond
    return struct.pack('<HBBIQqqIIQQQ', header(0), 2, 0, 0, sel_signal, value, mask, cond, 0, 0, 0,
                       sel_done)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    seeds = {
        'dispatch': dispatch(),
        'barrier_and': barrier(3, [1, 5, 0, 0, 9]),
        'barrier_or': barrier(5, [5, 9, 13, 0, 0]),
        'barrier_value': barrier_value(),
        'mix': dispatch(4096, 256) + barrier(3, [0, 0, 0, 0, 0]) + dispatch(64, 64, 0, 0),
    }
    for name, data in seeds.items():
        assert len(data) % 64 == 0, name
        with open(os.path.join(out, name + '.aql'), 'wb') as f:
            f.write(data)


if __name__ == '__main__':
    main()
