#!/usr/bin/env python3
"""gen_ksyms.py - turns `nm -n --defined-only image.so` (on stdin) into the
assembly of the image's symbol table, section .ksyms, which kernel/ksyms.c
decodes (kernel/ksyms.h describes the layout). Only code symbols (nm types
t, T, W) are kept, in nm's order (by address). Empty input gives an empty
table (the first of the two links, mk/image.mk).

The names are compressed the way Linux's scripts/kallsyms.c does it: every
byte value that no name uses becomes a token that stands for a string, chosen
by merging the pair of tokens that occurs most often, again and again until
no byte is left or no pair occurs twice; a name is then a length byte and
its tokens. That halves the names of an image; the decoder only looks the
tokens up.
"""
import collections
import sys

NAME_MAX = 127  # longest name (KSYM_NAME_MAX - 1, kernel/ksyms.h)
MARKER_EVERY = 256  # KSYM_MARKER_EVERY, kernel/ksyms.h


def fail(msg):
    sys.stderr.write("gen_ksyms: %s\n" % msg)
    sys.exit(1)


def read_symbols(lines):
    out = []
    for line in lines:
        fields = line.split()
        if len(fields) != 3 or fields[1] not in ("t", "T", "W"):
            continue
        addr, name = int(fields[0], 16), fields[2]
        if addr >= 1 << 32:
            fail("%s at 0x%x is past 4 GiB: the table holds 32-bit addresses" % (name, addr))
        if len(name.encode()) > NAME_MAX:
            fail("%s is longer than %d bytes (kernel/ksyms.h KSYM_NAME_MAX)" % (name, NAME_MAX))
        out.append((addr, name))
    return out


def pairs_of(seq):
    return zip(seq, seq[1:])


def compress(names):
    """(token texts, one token sequence per name): every byte value a name
    uses stands for itself, the others for the merged pairs."""
    seqs = [list(n.encode()) for n in names]
    texts = {c: bytes([c]) for s in seqs for c in s}
    count = collections.Counter()
    where = collections.defaultdict(set)  # pair -> names that had it (a superset)
    for i, s in enumerate(seqs):
        for p in pairs_of(s):
            count[p] += 1
            where[p].add(i)
    for token in range(256):
        if token in texts:
            continue
        if not count:
            break
        # Most frequent pair; ties by value, so that the output is the same
        # on every run.
        pair, n = max(count.items(), key=lambda kv: (kv[1], kv[0]))
        if n < 2:
            break
        texts[token] = texts[pair[0]] + texts[pair[1]]
        for i in sorted(where.pop(pair)):
            s = seqs[i]
            for p in pairs_of(s):
                count[p] -= 1
                if not count[p]:
                    del count[p]
            merged, j = [], 0
            while j < len(s):
                if j + 1 < len(s) and (s[j], s[j + 1]) == pair:
                    merged.append(token)
                    j += 2
                else:
                    merged.append(s[j])
                    j += 1
            for p in pairs_of(merged):
                count[p] += 1
                where[p].add(i)
            seqs[i] = merged
    return texts, seqs


def byte_lines(data):
    for i in range(0, len(data), 16):
        yield "\t.byte " + ", ".join(str(b) for b in data[i:i + 16])


def main():
    symbols = read_symbols(sys.stdin)
    texts, seqs = compress([name for _, name in symbols])

    names = bytearray()
    markers = []
    for i, seq in enumerate(seqs):
        if i % MARKER_EVERY == 0:
            markers.append(len(names))
        names.append(len(seq))  # at most NAME_MAX tokens: a name's length bounds it
        names.extend(seq)
    token_text = bytearray()
    token_index = []
    for token in range(256):
        token_index.append(len(token_text))
        token_text.extend(texts.get(token, b""))
        token_text.append(0)
    if len(token_text) > 0xffff:
        fail("token texts are %d bytes: the index holds 16-bit offsets" % len(token_text))

    out = ["\t.section .ksyms,\"a\"", "\t.balign 8", "\t.globl ksym_table",
           "\t.hidden ksym_table", "ksym_table:",
           "\t.long %d" % len(symbols),
           "\t.long .Lnames - ksym_table",
           "\t.long .Lmarkers - ksym_table",
           "\t.long .Ltokens - ksym_table"]
    out += ["\t.long 0x%x" % addr for addr, _ in symbols]
    out.append(".Lmarkers:")
    out += ["\t.long %d" % m for m in markers]
    out.append(".Ltokens:")
    out += ["\t.short %d" % t for t in token_index]
    out += byte_lines(token_text)
    out.append(".Lnames:")
    out += byte_lines(names)
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
