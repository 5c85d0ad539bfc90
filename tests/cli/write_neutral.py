"""Writes the first mesh of a .glb (its POSITION and triangle indices, read here, independently of
rigscope's readers) as the neutrals a modeller hands over: OBJ (triangles, 1-based), OBJ with
negative indices and v/vt corners, and PLY in ASCII, binary little- and big-endian.

    write_neutral.py IN.glb OUT_DIR
"""
import json
import os
import struct
import sys


def mesh_of(path):
    data = open(path, "rb").read()
    json_len, = struct.unpack_from("<I", data, 12)
    doc = json.loads(data[20:20 + json_len])
    off = 20 + json_len
    bin_len, = struct.unpack_from("<I", data, off)
    blob = data[off + 8:off + 8 + bin_len]

    def read(index, fmt_of):
        acc = doc["accessors"][index]
        view = doc["bufferViews"][acc["bufferView"]]
        width = {"SCALAR": 1, "VEC3": 3}[acc["type"]]
        code, size = fmt_of[acc["componentType"]]
        stride = view.get("byteStride", size * width)
        base = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
        return [struct.unpack_from("<%d%s" % (width, code), blob, base + i * stride) for i in range(acc["count"])]

    prim = doc["meshes"][0]["primitives"][0]
    assert prim.get("mode", 4) == 4, "triangles only"
    pos = read(prim["attributes"]["POSITION"], {5126: ("f", 4)})
    idx = [i[0] for i in read(prim["indices"], {5121: ("B", 1), 5123: ("H", 2), 5125: ("I", 4)})]
    return pos, [idx[k:k + 3] for k in range(0, len(idx), 3)]


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    pos, tris = mesh_of(src)
    # repr of a float32 widened to double prints enough digits to read back the same float32.
    with open(f"{out}/ref.obj", "w") as f:
        f.write("# neutral of %s\no Cylinder\n" % os.path.basename(src))
        f.writelines("v %r %r %r\n" % p for p in pos)
        f.writelines("f %d %d %d\n" % tuple(i + 1 for i in t) for t in tris)
    with open(f"{out}/ref_negative.obj", "w") as f:
        # All vertices first, then faces counted back from the end (-1 is the last vertex).
        f.write("g Cylinder\n")
        f.writelines("v %r %r %r\n" % p for p in pos)
        n = len(pos)
        f.writelines("f %d/1 %d/1 %d/1\n" % tuple(i - n for i in t) for t in tris)
    header = lambda fmt: ("ply\nformat %s 1.0\nelement vertex %d\nproperty float x\nproperty float y\n"
                          "property float z\nelement face %d\nproperty list uchar int vertex_indices\nend_header\n"
                          % (fmt, len(pos), len(tris))).encode()
    with open(f"{out}/ref_ascii.ply", "wb") as f:
        f.write(header("ascii"))
        f.write("".join("%r %r %r\n" % p for p in pos).encode())
        f.write("".join("3 %d %d %d\n" % tuple(t) for t in tris).encode())
    for name, order in (("ref_le.ply", "<"), ("ref_be.ply", ">")):
        with open(f"{out}/{name}", "wb") as f:
            f.write(header("binary_little_endian" if order == "<" else "binary_big_endian"))
            for p in pos:
                f.write(struct.pack(order + "3f", *p))
            for t in tris:
                f.write(struct.pack(order + "B3i", 3, *t))
    print(len(pos), len(tris))


if __name__ == "__main__":
    main()
