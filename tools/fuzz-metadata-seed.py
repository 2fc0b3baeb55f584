"""fuzz-metadata-seed.py CODE_OBJECT OUT - writes the descriptor of the
NT_AMDGPU_METADATA note (owner "AMDGPU", type 32; AMDGPUUsage "Note
Records") of an ELF64 code object to OUT: a seed for fuzz_metadata. Section
and note layouts: System V gABI."""
import struct
import sys

data = open(sys.argv[1], "rb").read()
shoff, = struct.unpack_from("<Q", data, 40)
shnum, = struct.unpack_from("<H", data, 60)
for i in range(shnum):
    _, sh_type, _, _, offset, size = struct.unpack_from("<IIQQQQ", data, shoff + 64 * i)
    pos = 0
    while sh_type == 7 and pos + 12 <= size:  # SHT_NOTE
        namesz, descsz, note_type = struct.unpack_from("<III", data, offset + pos)
        name = data[offset + pos + 12:offset + pos + 12 + namesz]
        desc_at = offset + pos + 12 + ((namesz + 3) & ~3)
        if name == b"AMDGPU\0" and note_type == 32:
            open(sys.argv[2], "wb").write(data[desc_at:desc_at + descsz])
            sys.exit(0)
        pos = desc_at - offset + ((descsz + 3) & ~3)
sys.exit("%s: no NT_AMDGPU_METADATA note" % sys.argv[1])
