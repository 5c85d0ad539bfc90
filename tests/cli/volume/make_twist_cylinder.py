#!/usr/bin/env python3
"""Writes the candy-wrapper rig of tests/cli/volume/volume.sh as a binary glTF:

    make_twist_cylinder.py OUT.glb [--segments N] [--rings N] [--open] [--seam] [--no-faces] [--nan]

A capped cylinder of radius 1 along +Y from y = 0 to y = 2, SEGMENTS around and RINGS high,
skinned to two joints: Root at the origin and Tip at y = 1 (Root's child). Tip's weight ramps
linearly from 0 at y = 0.5 to 1 at y = 1.5, Root takes the rest. The clip (24 fps, 1 s) twists
Tip about +Y from 0 to 180 degrees (keys every 45 degrees, so that each key pair's slerp turns
the short way): frame f is a twist of 7.5 f degrees.

The caps are split as exporters write them: each cap's rim is a copy of the side's rim (same
positions and weights, other vertex ids) around a centre vertex, so the mesh is closed only
once welded. --seam also splits the side at angle 0 (a UV seam: the first column twice).
--open leaves the top cap out; --no-faces writes no indices (a point cloud); --nan puts a NaN
in one position.
"""
import argparse
import json
import struct

import numpy as np


def build(segments, rings, seam, open_top):
    cols = segments + 1 if seam else segments
    angle = np.arange(cols) * (2 * np.pi / segments)
    angle[-1] = 0.0 if seam else angle[-1]  # the seam's second column at exactly the first's angle
    y = np.linspace(0.0, 2.0, rings)
    side = np.zeros((rings, cols, 3))
    side[..., 0] = np.cos(angle)[None, :]
    side[..., 1] = y[:, None]
    side[..., 2] = -np.sin(angle)[None, :]
    pos = [side.reshape(-1, 3)]
    tris = []
    for r in range(rings - 1):
        for s in range(segments):
            a, b = r * cols + s, r * cols + (s + 1) % cols
            c, d = a + cols, b + cols
            # Outward: the side's normal points away from the axis.
            tris += [(a, b, d), (a, d, c)]
    n = rings * cols
    caps = [(0.0, -1)] + ([] if open_top else [(2.0, +1)])
    for height, up in caps:
        rim = np.stack([np.cos(angle[:segments]), np.full(segments, height), -np.sin(angle[:segments])], -1)
        centre = n + segments
        pos += [rim, np.array([[0.0, height, 0.0]])]
        for s in range(segments):
            a, b = n + s, n + (s + 1) % segments
            tris.append((centre, a, b) if up > 0 else (centre, b, a))
        n += segments + 1
    pos = np.concatenate(pos).astype(np.float32)
    tip = np.clip(pos[:, 1].astype(np.float64) - 0.5, 0.0, 1.0).astype(np.float32)
    weights = np.zeros((len(pos), 4), np.float32)
    weights[:, 0], weights[:, 1] = 1.0 - tip, tip
    joints = np.zeros((len(pos), 4), np.uint8)
    joints[:, 1] = 1
    return pos, np.array(tris, np.uint32).reshape(-1), joints, weights


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--segments", type=int, default=32)
    ap.add_argument("--rings", type=int, default=17)
    ap.add_argument("--open", action="store_true")
    ap.add_argument("--seam", action="store_true")
    ap.add_argument("--no-faces", action="store_true")
    ap.add_argument("--nan", action="store_true")
    a = ap.parse_args()
    pos, tris, joints, weights = build(a.segments, a.rings, a.seam, a.open)
    if a.nan:
        pos[5, 0] = np.nan

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
            acc["min"] = [float(x) for x in np.nanmin(array, 0)]
            acc["max"] = [float(x) for x in np.nanmax(array, 0)]
        accs.append(acc)
        return len(accs) - 1

    prim = {"attributes": {"POSITION": add(pos, "VEC3", 5126, 34962, True), "JOINTS_0": add(joints, "VEC4", 5121, 34962),
                           "WEIGHTS_0": add(weights, "VEC4", 5126, 34962)}}
    if not a.no_faces:
        prim["indices"] = add(tris, "SCALAR", 5125, 34963)
    else:
        prim["mode"] = 0  # points
    ibm = np.stack([np.eye(4), np.eye(4)]).astype(np.float32)
    ibm[1, 1, 3] = -1.0  # Tip bound at y = 1
    i_ibm = add(ibm.transpose(0, 2, 1).reshape(-1, 16), "MAT4", 5126)  # glTF matrices are column-major
    deg = np.array([0.0, 45.0, 90.0, 135.0, 180.0])
    times = (deg / 180.0).astype(np.float32).reshape(-1, 1)
    half = np.radians(deg) / 2
    quats = np.stack([np.zeros_like(half), np.sin(half), np.zeros_like(half), np.cos(half)], -1).astype(np.float32)
    i_t = add(times, "SCALAR", 5126, None, True)
    i_q = add(quats, "VEC4", 5126)
    doc = {
        "asset": {"version": "2.0", "generator": "rigscope tests/cli/volume/make_twist_cylinder.py"},
        "scene": 0,
        "scenes": [{"nodes": [0, 2]}],
        "nodes": [{"name": "Root", "children": [1]}, {"name": "Tip", "translation": [0.0, 1.0, 0.0]},
                  {"name": "Cylinder", "mesh": 0, "skin": 0}],
        "meshes": [{"name": "Cylinder", "primitives": [prim]}],
        "skins": [{"joints": [0, 1], "inverseBindMatrices": i_ibm, "skeleton": 0}],
        "animations": [{"name": "Twist", "samplers": [{"input": i_t, "output": i_q, "interpolation": "LINEAR"}],
                        "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}]}],
        "accessors": accs,
        "bufferViews": views,
    }
    binary = b"".join(blobs)
    doc["buffers"] = [{"byteLength": len(binary)}]
    text = json.dumps(doc, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    with open(a.out, "wb") as f:
        f.write(struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(text) + 8 + len(binary)))
        f.write(struct.pack("<I4s", len(text), b"JSON") + text)
        f.write(struct.pack("<I4s", len(binary), b"BIN\0") + binary)


if __name__ == "__main__":
    main()
