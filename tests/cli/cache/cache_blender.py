"""Compares `rigscope deform --cache` positions (CSV: frame, time, mesh, vertex, x, y, z) with
Blender's Mesh Cache positions (tests/cache/blender_*.csv) and with the cache file's own samples
read here with struct (the second, independent computation of the same answer):

    cache_blender.py RIGSCOPE.csv BLENDER.csv CACHE FORMAT FIRST_FRAME

Exactly equal as float32: at whole frames both copy the file's floats, nothing is computed.
"""
import csv
import struct
import sys


def f32(x):
    return struct.unpack("<f", struct.pack("<f", float(x)))[0]


def by_frame(path):
    out = {}
    for r in csv.DictReader(open(path)):
        out.setdefault(int(r["frame"]), []).append(tuple(f32(r[c]) for c in "xyz"))
    return out


def samples(path, fmt):
    data = open(path, "rb").read()
    if fmt == "PC2":
        _, _, points, _, _, n = struct.unpack_from("<12siiffi", data, 0)
        base, order = 32, "<"
    else:
        n, points = struct.unpack_from(">2i", data, 0)
        base, order = 8 + 4 * n, ">"
    return [[struct.unpack_from(order + "3f", data, base + (s * points + i) * 12) for i in range(points)] for s in range(n)]


def main():
    ours, blender = by_frame(sys.argv[1]), by_frame(sys.argv[2])
    file = samples(sys.argv[3], sys.argv[4])
    first = int(sys.argv[5])
    assert sorted(ours) == sorted(blender), (sorted(ours), sorted(blender))
    for frame in sorted(blender):
        assert ours[frame] == blender[frame], f"frame {frame}: rigscope and Blender differ"
        assert [tuple(f32(c) for c in p) for p in file[frame - first]] == blender[frame], f"frame {frame}: the file's sample differs"
    print(len(blender), "frames,", len(blender[sorted(blender)[0]]), "vertices, equal")


if __name__ == "__main__":
    main()
