"""Damaged copies of archives alembic_write.py wrote, each with one defect the Alembic reader must
refuse in one line (tests/cli/alembic/alembic.sh):

    alembic_corrupt.py IN_DIR OUT_DIR

The defects are placed from the Ogawa layout (16-byte header with the root group's offset; a
group is a count and 64-bit child offsets, the top bit marking data; data is a 64-bit size and
its bytes) and from byte patterns of the values alembic_write.py wrote, not from rigscope:
- truncated.abc: static.abc cut in half;
- root_past_end.abc: the root group's offset past the end of the file;
- cycle.abc: static.abc's first child object group pointing back at the top object's group;
- array_past_end.abc: the size of the block holding bad_count.abc's P at frame 1 set to 2^40;
- zero_step.abc, negative_step.abc: bad_topology.abc's 1/24 s time sampling with a step of 0
  and of -1/24 s;
- hdf5.abc: an HDF5 signature and superblock start (Alembic's other back end);
- not_frozen.abc: static.abc with the frozen flag a writer sets on closing cleared.
"""
import math
import os
import struct
import sys


def u64(b, at):
    return struct.unpack_from("<Q", b, at)[0]


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    static = open(f"{src}/static.abc", "rb").read()

    open(f"{out}/truncated.abc", "wb").write(static[: len(static) // 2])

    b = bytearray(static)
    struct.pack_into("<Q", b, 8, len(static) + 4096)
    open(f"{out}/root_past_end.abc", "wb").write(b)

    # Root group children: 0 version, 1 library version, 2 the top object's group, 3..5 data.
    root = u64(static, 8)
    top = u64(static, root + 8 + 2 * 8)
    n = u64(static, top)
    children = [u64(static, top + 8 + 8 * i) for i in range(n)]
    # Top object: child 0 its properties, 1..n-2 its child objects, n-1 the headers.
    assert n >= 3 and not children[1] >> 63, children
    b = bytearray(static)
    struct.pack_into("<Q", b, top + 8 + 8, top)
    open(f"{out}/cycle.abc", "wb").write(b)

    b = bytearray(open(f"{src}/bad_count.abc", "rb").read())
    # Frame 1's P: the grid's first point of alembic_write.wave(pts, 1): (-0.5, 0.1 sin(-1.1), -0.5).
    first = struct.pack("<3f", -0.5, 0.1 * math.sin(3 * -0.5 + 0.4 * 1) + 0.05 * 1 * -0.5, -0.5)
    at = bytes(b).find(first)
    assert at > 24, "frame 1's P not found"
    struct.pack_into("<Q", b, at - 16 - 8, 1 << 40)  # the size field before the 16-byte key
    open(f"{out}/array_past_end.abc", "wb").write(b)

    topo = open(f"{src}/bad_topology.abc", "rb").read()
    step = struct.pack("<dI", 1 / 24, 1) + struct.pack("<d", 1 / 24)
    at = topo.find(step)
    assert at > 0, "the 1/24 s sampling not found"
    for name, value in (("zero_step", 0.0), ("negative_step", -1 / 24)):
        b = bytearray(topo)
        struct.pack_into("<d", b, at, value)
        open(f"{out}/{name}.abc", "wb").write(b)

    open(f"{out}/hdf5.abc", "wb").write(b"\x89HDF\r\n\x1a\n" + bytes([0, 0, 0, 0, 0, 8, 8, 0]) + bytes(512))

    b = bytearray(static)
    b[5] = 0
    open(f"{out}/not_frozen.abc", "wb").write(b)


if __name__ == "__main__":
    main()
