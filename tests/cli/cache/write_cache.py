"""Writes point caches of a `rigscope deform --format csv` run (frame, time, mesh, vertex, x, y, z),
byte by byte from the formats' published layouts, independently of rigscope's readers:

    write_cache.py DEFORM.csv FPS OUT_DIR

- cloth.pc2: POINTCACHE2, version 1, start frame = the first frame, sample rate 1 (3ds Max's and
  Blender's layout: little-endian);
- cloth.mdd: as Blender's io_shape_mdd exporter writes it: big-endian counts, times frame / fps
  from 0, then the samples;
- seq/cloth_0001.obj ...: one OBJ a frame, named by its frame number (four digits);
- welded.pc2: the first file vertex of each exact position only (a cache of the welded mesh).
The float32 positions are the CSV's shortest round-trip decimals, so they are the deformed bits.
"""
import csv
import os
import struct
import sys


def main():
    src, fps, out = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    frames = {}
    for r in csv.DictReader(open(src)):
        frames.setdefault(int(r["frame"]), []).append((float(r["x"]), float(r["y"]), float(r["z"])))
    numbers = sorted(frames)
    points = len(frames[numbers[0]])
    os.makedirs(f"{out}/seq", exist_ok=True)
    with open(f"{out}/cloth.pc2", "wb") as f:
        f.write(b"POINTCACHE2\0" + struct.pack("<iiffi", 1, points, float(numbers[0]), 1.0, len(numbers)))
        for n in numbers:
            f.write(b"".join(struct.pack("<3f", *p) for p in frames[n]))
    with open(f"{out}/cloth.mdd", "wb") as f:
        f.write(struct.pack(">2i", len(numbers), points))
        f.write(struct.pack(">%df" % len(numbers), *[i / fps for i in range(len(numbers))]))
        for n in numbers:
            f.write(struct.pack(">%df" % (3 * points), *[c for p in frames[n] for c in p]))
    for n in numbers:
        with open(f"{out}/seq/cloth_%04d.obj" % n, "w") as f:
            f.writelines("v %r %r %r\n" % p for p in frames[n])
    # Welded: the bind pose's exact duplicates (glTF seam copies) dropped, keeping first copies.
    bind = frames[numbers[0]]
    keep, seen = [], set()
    for i, p in enumerate(bind):
        if p not in seen:
            seen.add(p)
            keep.append(i)
    with open(f"{out}/welded.pc2", "wb") as f:
        f.write(b"POINTCACHE2\0" + struct.pack("<iiffi", 1, len(keep), float(numbers[0]), 1.0, len(numbers)))
        for n in numbers:
            f.write(b"".join(struct.pack("<3f", *frames[n][i]) for i in keep))
    print(len(numbers), points, len(keep))


if __name__ == "__main__":
    main()
