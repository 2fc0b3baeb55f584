#!/usr/bin/env python3
"""acpi-record.py SERIAL_LOG OUT_DIR - turns the `acpidump` lines of a booted
image's serial log (boot option acpidump, kernel/acpi_init.c) back into one
binary file per table and the index.txt the host tests read
(tests/host/acpi_test_memory.h). Each table's checksum is verified."""
import os
import re
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    log, out = sys.argv[1], sys.argv[2]
    head = re.compile(r"acpidump (\w{4}) 0x([0-9a-f]+) (\d+)$")
    line_re = re.compile(r"acpidump 0x([0-9a-f]+): ((?:[0-9a-f]{2} ?)+)$")
    tables, current = [], None
    with open(log, errors="replace") as f:
        for raw in f:
            raw = raw.rstrip()
            m = head.search(raw)
            if m:
                current = [m.group(1), int(m.group(2), 16), int(m.group(3)), bytearray()]
                tables.append(current)
                continue
            m = line_re.search(raw)
            if m and current:
                if int(m.group(1), 16) != current[1] + len(current[3]):
                    sys.exit(f"acpi-record.py: a line of {current[0]} is missing before {m.group(1)}")
                current[3] += bytes.fromhex(m.group(2))
    if not tables:
        sys.exit("acpi-record.py: no acpidump lines (boot with the option acpidump)")
    os.makedirs(out, exist_ok=True)
    seen = {}
    with open(os.path.join(out, "index.txt"), "w") as index:
        index.write("# signature physical-address file (see ../README.md)\n")
        for sig, addr, length, data in tables:
            if len(data) != length:
                sys.exit(f"acpi-record.py: {sig} has {len(data)} of {length} bytes")
            checked = data[:20] if sig == "RSDP" else data
            if sum(checked) % 256:
                sys.exit(f"acpi-record.py: {sig} at {addr:#x} has a bad checksum")
            n = seen.get(sig, 0)
            seen[sig] = n + 1
            name = sig.lower() + (f"{n}" if n else "") + ".bin"
            with open(os.path.join(out, name), "wb") as f:
                f.write(data)
            index.write(f"{sig} {addr:#x} {name}\n")
            print(f"{sig} {addr:#x} {length} bytes -> {name}")


main()
