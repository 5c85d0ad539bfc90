#!/usr/bin/env python3
"""Writes the bench tube at another density: scripts/bench.sh's size-scaling line (issue 44: "the
4M-vertex tube at no less than 0.9 of the 262k tube's rate").

    make_bench_tube.py TUBE_262K.glb OUT.glb SEGMENTS RINGS [--uv]

The new file is tube_262k.glb's rig made denser, nothing else changed: the same node tree (an
Armature with two bones, the skinned Tube and the unskinned TubeRef copy of its mesh), the same
inverse bind matrices and the same 24-key clip, copied from the file; a closed tube of radius 1
and height 2 of SEGMENTS around by RINGS high, ring-major, two triangles a quad; each vertex's two
weights read off the original's weight-against-height profile (the mean of its vertices at each
height, interpolated), so that the bend is the same. Both sizes are made by this script when
their rates are compared, so that vertex order and weights are alike (the original's own order
is Blender's).

--uv (issue 60: bake's bench line) adds a cylindrical unwrap, TEXCOORD_0: u around the tube
(0 to 1), v along it (glTF's v = 0 at the top of the image: the tube's top, y = 2). The seam is a
column of its own, as glTF holds seams: each ring has SEGMENTS + 1 vertices, the last at the
first's place with u = 1, so the faces that close the tube do not wrap across the image. The weld
(by position) joins the two columns again, so the tension is the closed tube's.
"""
import json
import os
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from glb_read import read_glb  # noqa: E402


def accessors(path):
    """The document, and read(i): accessor i as a numpy array of one row per element."""
    doc, read_flat = read_glb(path)

    def read(i):
        flat, width = read_flat(i)
        return np.frombuffer(flat, {"f": np.float32, "B": np.uint8, "H": np.uint16, "I": np.uint32}[flat.typecode]).reshape(-1, width)
    return doc, read


def main():
    src, out, segments, rings = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    uv = "--uv" in sys.argv[5:]
    columns = segments + 1 if uv else segments  # --uv: the seam column repeated at u = 1
    doc, read = accessors(src)
    prim = doc["meshes"][0]["primitives"][0]["attributes"]
    p0, j0, w0 = read(prim["POSITION"]), read(prim["JOINTS_0"]), read(prim["WEIGHTS_0"])
    # Joint 0's weight against height, averaged over the vertices at each height.
    w_first = np.where(j0 == 0, w0, 0).sum(1)
    heights, inverse = np.unique(np.round(p0[:, 1], 5), return_inverse=True)
    profile = np.bincount(inverse, w_first) / np.bincount(inverse)

    a = np.arange(columns) * (2 * np.pi / segments)
    y = np.linspace(0.0, 2.0, rings)
    pos = np.empty((rings, columns, 3), np.float32)
    pos[..., 0] = np.sin(a)[None, :]
    pos[..., 1] = y[:, None]
    pos[..., 2] = -np.cos(a)[None, :]
    if uv:
        pos[:, segments, :] = pos[:, 0, :]  # the same point, not sin(2 pi) rounded elsewhere
        texcoord = np.empty((rings, columns, 2), np.float32)
        texcoord[..., 0] = (np.arange(columns) / segments)[None, :]
        texcoord[..., 1] = (1.0 - y / 2.0)[:, None]
        texcoord = texcoord.reshape(-1, 2)
    pos = pos.reshape(-1, 3)
    first = np.interp(pos[:, 1], heights, profile).astype(np.float32)
    joints = np.zeros((len(pos), 4), np.uint8)
    joints[:, 1] = 1
    weights = np.zeros((len(pos), 4), np.float32)
    weights[:, 0], weights[:, 1] = first, 1.0 - first
    r, s = np.meshgrid(np.arange(rings - 1), np.arange(segments), indexing="ij")
    v00 = r * columns + s
    v01 = r * columns + (s + 1 if uv else (s + 1) % segments)
    v10, v11 = v00 + columns, v01 + columns
    tris = np.stack([v00, v01, v11, v00, v11, v10], -1).reshape(-1).astype(np.uint32)

    # The original's other accessors (inverse bind matrices, the clip) are copied as they are.
    blobs, views, accs = [], [], []

    def add(array, gl_type, component, target=None, bounds=False):
        data = np.ascontiguousarray(array).tobytes()
        offset = sum(len(b) for b in blobs)
        blobs.append(data + b"\0" * (-len(data) % 4))
        view = {"buffer": 0, "byteOffset": offset, "byteLength": len(data)}
        if target:
            view["target"] = target
        views.append(view)
        acc = {"bufferView": len(views) - 1, "componentType": component, "count": len(array), "type": gl_type}
        if bounds:
            acc["min"], acc["max"] = [float(x) for x in array.min(0)], [float(x) for x in array.max(0)]
        accs.append(acc)
        return len(accs) - 1

    remap = {}
    i_pos = add(pos, "VEC3", 5126, 34962, True)
    i_joints = add(joints, "VEC4", 5121, 34962)
    i_weights = add(weights, "VEC4", 5126, 34962)
    i_tris = add(tris, "SCALAR", 5125, 34963)
    i_uv = add(texcoord, "VEC2", 5126, 34962) if uv else None
    for old in range(len(doc["accessors"])):
        if old in (prim["POSITION"], prim["JOINTS_0"], prim["WEIGHTS_0"], doc["meshes"][0]["primitives"][0]["indices"],
                   doc["meshes"][1]["primitives"][0]["attributes"]["POSITION"]):
            continue
        a = doc["accessors"][old]
        remap[old] = add(read(old), a["type"], a["componentType"], None, "min" in a)
    i_ref = add(pos, "VEC3", 5126, 34962, True)
    doc["meshes"][0]["primitives"][0] = {"attributes": {"POSITION": i_pos, "JOINTS_0": i_joints, "WEIGHTS_0": i_weights}, "indices": i_tris}
    doc["meshes"][1]["primitives"][0] = {"attributes": {"POSITION": i_ref}, "indices": i_tris}
    if uv:
        for m in (0, 1):
            doc["meshes"][m]["primitives"][0]["attributes"]["TEXCOORD_0"] = i_uv
    doc["skins"][0]["inverseBindMatrices"] = remap[doc["skins"][0]["inverseBindMatrices"]]
    for sampler in doc["animations"][0]["samplers"]:
        sampler["input"], sampler["output"] = remap[sampler["input"]], remap[sampler["output"]]
    doc["accessors"], doc["bufferViews"] = accs, views
    binary = b"".join(blobs)
    doc["buffers"] = [{"byteLength": len(binary)}]
    doc["asset"] = {"version": "2.0", "generator": f"rigscope make_bench_tube.py {segments}x{rings} from {src.split('/')[-1]}"}
    text = json.dumps(doc, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    with open(out, "wb") as f:
        f.write(struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(text) + 8 + len(binary)))
        f.write(struct.pack("<I4s", len(text), b"JSON") + text)
        f.write(struct.pack("<I4s", len(binary), b"BIN\0") + binary)
    print(f"{out}: {len(pos)} vertices, {len(tris) // 3} triangles")


if __name__ == "__main__":
    main()
