"""readelf-facts.py - turns `llvm-readelf-19 -h -s --notes --wide` of one
AMDGPU code object (on stdin) into the lines loader-dump prints (see
tests/loader/loader_dump.c), for tests/loader/check_readelf.sh to compare.
The metadata comes from the YAML that llvm-readelf prints for
NT_AMDGPU_METADATA; only the YAML subset LLVM writes (block maps and
sequences, plain or quoted scalars) is read."""
import re
import sys


def parse_yaml(lines):
    """lines: (indent, text) pairs; returns the value of the block."""
    pos = 0

    def scalar(text):
        text = text.strip()
        if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
            return text[1:-1]
        return text

    def block(indent):
        nonlocal pos
        if pos < len(lines) and lines[pos][1].startswith("- "):
            items = []
            while pos < len(lines) and lines[pos][0] == indent and lines[pos][1].startswith("- "):
                rest = lines[pos][1][2:]
                if re.match(r"^[^'\"]*:(\s|$)", rest):  # a map starts on the dash line
                    lines[pos] = (indent + 2, rest)
                    items.append(block(indent + 2))
                else:
                    items.append(scalar(rest))
                    pos += 1
            return items
        result = {}
        while pos < len(lines) and lines[pos][0] == indent and not lines[pos][1].startswith("- "):
            key, _, value = lines[pos][1].partition(":")
            pos += 1
            if value.strip():
                result[key.strip()] = scalar(value)
            elif pos < len(lines) and lines[pos][0] >= indent and (
                    lines[pos][0] > indent or lines[pos][1].startswith("- ")):
                result[key.strip()] = block(lines[pos][0])
            else:
                result[key.strip()] = ""
        return result

    return block(lines[0][0]) if lines else {}


def main():
    text = sys.stdin.read().splitlines()
    out = []
    flags = next(l for l in text if l.strip().startswith("Flags:")).split(":")[1].split(",")[0]
    abi = next(l for l in text if l.strip().startswith("ABI Version:")).split(":")[1].strip()
    out.append("file e_flags=0x%x abi_version=%s" % (int(flags.strip(), 16), abi))

    # Symbols of the full table (.symtab), else the dynamic one.
    symbols, table, tables = {}, None, {}
    for line in text:
        m = re.match(r"Symbol table '(\.\w+)'", line)
        if m:
            table = m.group(1)
            tables[table] = []
            continue
        m = re.match(r"\s*\d+: ([0-9a-f]+)\s+(\d+) (\w+)\s+(\w+)\s+\w+\s+(\w+) (\S+)$", line)
        if m and table:
            tables[table].append(m.groups())
    for value, size, kind, bind, ndx, name in tables.get(".symtab", tables.get(".dynsym", [])):
        symbols[name] = (int(value, 16), int(size), kind, bind, ndx)

    start = next(i for i, l in enumerate(text) if l.strip() == "AMDGPU Metadata:") + 2  # after ---
    end = next(i for i in range(start, len(text)) if text[i].strip() == "...")
    yaml = [(len(l) - len(l.lstrip()), l.strip()) for l in text[start:end] if l.strip()]
    md = parse_yaml(yaml)

    for k in md.get("amdhsa.kernels", []):
        sym = k[".symbol"]
        out.append("kernel %s name=%s vaddr=0x%x kernarg_size=%s kernarg_align=%s group=%s "
                   "private=%s wavefront=%s sgpr=%s vgpr=%s max_flat=%s dynamic_stack=%s" % (
                       sym, k[".name"], symbols[sym][0], k[".kernarg_segment_size"],
                       k[".kernarg_segment_align"], k[".group_segment_fixed_size"],
                       k[".private_segment_fixed_size"], k[".wavefront_size"],
                       k.get(".sgpr_count", "0"), k.get(".vgpr_count", "0"),
                       k.get(".max_flat_workgroup_size", "0"),
                       k.get(".uses_dynamic_stack", "false")))
        for i, a in enumerate(k.get(".args", [])):
            out.append("arg %s %d offset=%s size=%s kind=%s" % (
                sym, i, a[".offset"], a[".size"], a[".value_kind"]))
    for name, (value, size, kind, bind, ndx) in symbols.items():
        if kind == "OBJECT" and bind in ("GLOBAL", "WEAK") and ndx not in ("UND", "ABS") \
                and not name.endswith(".kd"):
            out.append("variable %s vaddr=0x%x size=%d" % (name, value, size))
    print("\n".join(out))


main()
