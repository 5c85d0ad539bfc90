"""For tests/cli/tension/axes.sh: a .glb that rigscope wrote, seen as a viewer sees it (every node's
transform applied, the up-axis root included), against positions from a Y-up oracle.

    axes_check.py OUT.glb ORACLE.json FRAME TOLERANCE
        ORACLE: {"frames": [{"frame", "positions"}]} (Blender's, Y-up, metres) or, for the FBX
        case, {"meshes": [{"frames": [{"frame", "positions"}]}]} (tests/fbx_cases oracles).
        Every written vertex must lie within TOLERANCE metres of an oracle position of FRAME.

Independent of rigscope's reader: the GLB is parsed here, transforms composed with numpy."""
import json
import struct
import sys

import numpy as np


def read_glb(path):
    data = open(path, "rb").read()
    json_len, = struct.unpack_from("<I", data, 12)
    doc = json.loads(data[20:20 + json_len])
    off = 20 + json_len
    bin_len, = struct.unpack_from("<I", data, off)
    return doc, data[off + 8:off + 8 + bin_len]


def accessor(doc, blob, index):
    acc = doc["accessors"][index]
    assert acc["componentType"] == 5126 and acc["type"] == "VEC3"
    view = doc["bufferViews"][acc["bufferView"]]
    base = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
    stride = view.get("byteStride", 12)
    return np.array([struct.unpack_from("<3f", blob, base + i * stride) for i in range(acc["count"])], dtype=float)


def quat_matrix(q):
    x, y, z, w = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def local(node):
    m = np.eye(4)
    if "matrix" in node:
        return np.array(node["matrix"], dtype=float).reshape(4, 4).T
    t, r, s = node.get("translation", [0, 0, 0]), node.get("rotation", [0, 0, 0, 1]), node.get("scale", [1, 1, 1])
    m[:3, :3] = quat_matrix(r) @ np.diag(s)
    m[:3, 3] = t
    return m


def world_positions(doc, blob):
    """Each mesh's positions as a viewer places them: by its node's world matrix."""
    parent = {}
    for i, n in enumerate(doc["nodes"]):
        for c in n.get("children", []):
            parent[c] = i

    def world(i):
        m = local(doc["nodes"][i])
        while i in parent:
            i = parent[i]
            m = local(doc["nodes"][i]) @ m
        return m

    out = []
    for i, n in enumerate(doc["nodes"]):
        if "mesh" not in n:
            continue
        for prim in doc["meshes"][n["mesh"]]["primitives"]:
            p = accessor(doc, blob, prim["attributes"]["POSITION"])
            h = np.c_[p, np.ones(len(p))]
            # rigscope's tension glTF holds static meshes: the node's world matrix places them.
            assert "skin" not in n, "a static mesh was expected"
            out.append((h @ world(i).T)[:, :3])
    return np.vstack(out), doc


def oracle_frame(oracle, frame):
    frames = oracle["frames"] if "frames" in oracle else [f for m in oracle["meshes"] for f in m["frames"]]
    for f in frames:
        if f["frame"] == frame:
            return np.array(f["positions"], dtype=float)
    raise SystemExit("oracle has no frame %d" % frame)


def main():
    glb, oracle_path, frame, tol = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    doc, blob = read_glb(glb)
    got, doc = world_positions(doc, blob)
    want = oracle_frame(json.load(open(oracle_path)), frame)
    # Nearest oracle position of each written vertex (a few hundred each way: brute force).
    d = np.sqrt(((got[:, None, :] - want[None, :, :]) ** 2).sum(axis=2)).min(axis=1)
    roots = [doc["nodes"][r].get("name", "") for r in doc["scenes"][doc.get("scene", 0)]["nodes"]]
    print("roots %s; %d vertices; worst distance to the Y-up oracle %.3g m" % (roots, len(got), d.max()))
    sys.exit(0 if d.max() <= tol else 1)


if __name__ == "__main__":
    main()
