#!/usr/bin/env python3
"""image_size.py IMAGE.efi IMAGE.map IMAGE.so [GOAL_KIB] - what each part of
the boot image costs (and, with GOAL_KIB, the goal it is held to).

Reads GNU ld's link map (-Map) and sums the input sections of every object
by the part of the tree it comes from: kernel (boot/, kernel/, lib/ and the
symbol table), drivers (drivers/), runtime (hsa/), model (vapu/), newlib
(libc, libm, libgcc), app (apps/<name>/; tests/ for the test image). Bytes
in the file (code, read-only data, data, and the relocations of the part's
pointers that boot/relocate.c applies: 24 bytes for an entry of .rela, 8 for
a word of the packed .relr, which goes to the part of the first pointer it
relocates) are counted apart from zero-initialised data (.bss: loaded, not in the file).
What no part owns (PE headers, crt0, page alignment) is the last line, so
that the column of file bytes adds up to the size of the .efi file.
"""
import bisect
import os
import re
import subprocess
import sys

PARTS = ["kernel", "drivers", "runtime", "model", "newlib", "app"]
# Output section -> column.
COLUMNS = {".text": "text", ".rodata": "rodata", ".data": "data", ".bss": "bss",
           ".ksyms": "rodata"}
RELA_ENTRY = 24  # Elf64_Rela
RELR_ENTRY = 8   # an address or a bitmap of 63 words (boot/relocate.c)


def part_of(path):
    m = re.search(r"\(([^()]*)\)$", path)  # archive(member)
    member = m.group(1) if m else path
    if "/newlib/" in path or re.search(r"lib(c|m|gcc)\.a", path):
        return "newlib"
    for prefix, part in (("boot/", "kernel"), ("kernel/", "kernel"), ("lib/", "kernel"),
                         ("drivers/", "drivers"), ("hsa/", "runtime"), ("vapu/", "model"),
                         ("apps/", "app"), ("tests/", "app")):
        if "/obj/" + prefix in member:
            return part
    if member.endswith("/app_name.o"):
        return "app"
    if member.endswith("ksyms.o"):
        return "kernel"  # the symbol table for backtraces
    return None


def input_sections(map_path):
    """(output column, address, size, part) of every input section placed."""
    out = []
    column = None
    pending = None  # an input section whose address and size are on the next line
    with open(map_path, errors="replace") as f:
        for line in f:
            m = re.match(r"^(\.[\w.]+)\s+0x[0-9a-f]+\s+0x[0-9a-f]+", line)
            if m or re.match(r"^\S", line):
                column = COLUMNS.get(m.group(1)) if m else None
                pending = None
                continue
            if column is None:
                continue
            m = re.match(r"^ (\S+)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$", line)
            if m:
                fields = m.group(2), m.group(3), m.group(4)
            elif pending:
                m = re.match(r"^\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$", line)
                fields = m.groups() if m else None
            else:
                fields = None
            pending = None
            if not fields:
                if re.match(r"^ (\.\S+|COMMON)\s*$", line):
                    pending = line.strip()
                continue
            out.append((column, int(fields[0], 16), int(fields[1], 16), part_of(fields[2].strip())))
    return out


def relr_words(so_path):
    """The words of the .relr section of the linked IMAGE.so, if any."""
    text = subprocess.run(["readelf", "-S", "-W", so_path], capture_output=True, text=True,
                          check=True).stdout
    m = re.search(r"\]\s+\.relr\s+\S+\s+[0-9a-f]+\s+([0-9a-f]+)\s+([0-9a-f]+)", text)
    if not m:
        return []
    with open(so_path, "rb") as f:
        f.seek(int(m.group(1), 16))
        data = f.read(int(m.group(2), 16))
    return [int.from_bytes(data[i:i + RELR_ENTRY], "little") for i in range(0, len(data), RELR_ENTRY)]


def relocations(so_path):
    """(offset, bytes of table) of every relocation entry of IMAGE.so: the
    .rela entries readelf lists, and each .relr word at the first pointer it
    relocates."""
    text = subprocess.run(["readelf", "-r", "-W", so_path], capture_output=True, text=True,
                          check=True).stdout
    out = [(int(m.group(1), 16), RELA_ENTRY)
           for m in re.finditer(r"^([0-9a-f]+)\s+[0-9a-f]+\s+R_X86_64_", text, re.M)]
    where = None
    for w in relr_words(so_path):
        if not w & 1:
            out.append((w, RELR_ENTRY))
            where = w + RELR_ENTRY
        else:
            first = ((w >> 1) & -(w >> 1)).bit_length() - 1  # its lowest bit set
            out.append((where + first * RELR_ENTRY, RELR_ENTRY))
            where += 63 * RELR_ENTRY
    return out


def main():
    efi, map_path, so_path = sys.argv[1:4]
    goal_kib = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    sizes = {p: {c: 0 for c in ("text", "rodata", "data", "rela", "bss")} for p in PARTS}
    sections = sorted((addr, addr + size, part)
                      for column, addr, size, part in input_sections(map_path) if size)
    for column, addr, size, part in input_sections(map_path):
        if part:
            sizes[part][column] += size
    starts = [s[0] for s in sections]
    for offset, cost in relocations(so_path):
        i = bisect.bisect_right(starts, offset) - 1
        if i >= 0 and offset < sections[i][1] and sections[i][2]:
            sizes[sections[i][2]]["rela"] += cost
    file_size = os.path.getsize(efi)
    goal = "   (goal: under %d KiB)" % goal_kib if goal_kib else ""
    print("%s: %d bytes (%d KiB)%s; by part, bytes in the file and zero-initialised:"
          % (os.path.basename(efi), file_size, (file_size + 1023) // 1024, goal))
    print("  %-8s %8s %8s %8s %8s %8s %8s" % ("part", "text", "rodata", "data", "relocs", "file",
                                              "bss"))
    owned = 0
    for p in PARTS:
        s = sizes[p]
        in_file = s["text"] + s["rodata"] + s["data"] + s["rela"]
        owned += in_file
        print("  %-8s %8d %8d %8d %8d %8d %8d" % (p, s["text"], s["rodata"], s["data"], s["rela"],
                                                in_file, s["bss"]))
    print("  %-8s %44d   (PE headers, crt0, alignment)" % ("other", file_size - owned))


if __name__ == "__main__":
    main()
