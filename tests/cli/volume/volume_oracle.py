#!/usr/bin/env python3
"""The volume oracle of tests/cli/volume/volume.sh: the same measures as `rigscope volume`,
computed here in numpy from the glTF's own arrays, with none of rigscope's code.

    volume_oracle.py FILE.glb OUT.csv linear|dq FRAMES [--fps 24]

Reads the file's positions, indices, joints, weights, inverse binds and the clip (one rotation
channel of LINEAR quaternion keys on the skin's second joint, as make_twist_cylinder.py writes),
skins each frame by linear blend or by dual quaternions (Kavan's blend, built here from the joint
matrices), and computes:
- the mesh's volume by the divergence theorem, sum over triangles of p0 . (p1 x p2) / 6, when the
  mesh, its vertices joined by equal position and weights, has every edge on exactly two
  triangles running opposite ways (then the '*' row);
- per joint region (vertices whose heaviest weight is the joint, ties to the lower joint; a
  triangle goes where most of its corners are), sum over its triangles of
  (p0 - q) . ((p1 - q) x (p2 - q)) / 6 with q the joint's world position;
- each over the same measure at bind (the stored positions, q the joint's bind position).
Compares every row of OUT.csv with these (relative 2e-5: rigscope skins in single precision)
and exits 1 naming the first row that differs, or a row missing or extra.
"""
import csv
import json
import struct
import sys

import numpy as np


def read_glb(path):
    data = open(path, "rb").read()
    n_json = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + n_json])
    binary = data[20 + n_json + 8:]

    def acc(i):
        a = doc["accessors"][i]
        v = doc["bufferViews"][a["bufferView"]]
        dt = {5126: np.float32, 5125: np.uint32, 5123: np.uint16, 5121: np.uint8}[a["componentType"]]
        width = {"SCALAR": 1, "VEC3": 3, "VEC4": 4, "MAT4": 16}[a["type"]]
        off = v.get("byteOffset", 0) + a.get("byteOffset", 0)
        return np.frombuffer(binary, dt, a["count"] * width, off).reshape(a["count"], width)
    return doc, acc


def quat_matrix(q):  # x, y, z, w
    x, y, z, w = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def slerp(a, b, t):
    d = float(np.dot(a, b))
    if d < 0:
        b, d = -b, -d
    if d > 0.9995:
        q = a + t * (b - a)
    else:
        th = np.arccos(d)
        q = (np.sin((1 - t) * th) * a + np.sin(t * th) * b) / np.sin(th)
    return q / np.linalg.norm(q)


def local_matrix(node, rotation=None):
    m = np.eye(4)
    q = rotation if rotation is not None else np.array(node.get("rotation", [0, 0, 0, 1]), float)
    m[:3, :3] = quat_matrix(q) * np.array(node.get("scale", [1, 1, 1]))[None, :]
    m[:3, 3] = node.get("translation", [0, 0, 0])
    return m


def matrix_quat(r):  # rotation matrix -> w, x, y, z (Shepperd)
    t = np.trace(r)
    if t > 0:
        s = np.sqrt(t + 1) * 2
        return np.array([s / 4, (r[2, 1] - r[1, 2]) / s, (r[0, 2] - r[2, 0]) / s, (r[1, 0] - r[0, 1]) / s])
    i = int(np.argmax(np.diag(r)))
    j, k = (i + 1) % 3, (i + 2) % 3
    s = np.sqrt(1 + r[i, i] - r[j, j] - r[k, k]) * 2
    q = np.zeros(4)
    q[0] = (r[k, j] - r[j, k]) / s
    q[1 + i] = s / 4
    q[1 + j] = (r[j, i] + r[i, j]) / s
    q[1 + k] = (r[k, i] + r[i, k]) / s
    return q


def qmul(a, b):  # w, x, y, z
    w1, v1 = a[..., :1], a[..., 1:]
    w2, v2 = b[..., :1], b[..., 1:]
    return np.concatenate([w1 * w2 - np.sum(v1 * v2, -1, keepdims=True), w1 * v2 + w2 * v1 + np.cross(v1, v2)], -1)


def skin(p, W, mats, method):
    if method == "linear":
        ph = np.concatenate([p, np.ones((len(p), 1))], 1)
        return np.einsum("vj,jrc,vc->vr", W, mats[:, :3, :], ph)
    real = np.array([matrix_quat(m[:3, :3]) for m in mats])
    tq = np.array([np.concatenate([[0.0], m[:3, 3]]) for m in mats])
    dual = 0.5 * qmul(tq, real)
    # Each joint's quaternion on the heaviest joint's hemisphere.
    heaviest = np.argmax(W, 1)
    sign = np.where(np.einsum("vjc,vc->vj", real[None].repeat(len(p), 0), real[heaviest]) < 0, -1.0, 1.0)
    b0 = np.einsum("vj,jc->vc", W * sign, real)
    be = np.einsum("vj,jc->vc", W * sign, dual)
    n = np.linalg.norm(b0, axis=1, keepdims=True)
    b0, be = b0 / n, be / n
    out = np.empty_like(p)
    for v in range(len(p)):
        w, x, y, z = b0[v]
        r = quat_matrix([x, y, z, w])
        conj = b0[v] * np.array([1, -1, -1, -1])
        t = 2 * qmul(be[v], conj)[1:]
        out[v] = r @ p[v] + t
    return out


def triple(a, b, c):
    return np.einsum("ij,ij->i", a, np.cross(b, c))


def main():
    path, csv_path, method, frames = sys.argv[1:5]
    fps = 24.0
    doc, acc = read_glb(path)
    prim = doc["meshes"][0]["primitives"][0]
    p = acc(prim["attributes"]["POSITION"]).astype(np.float64)
    tris = acc(prim["indices"]).reshape(-1, 3).astype(np.int64)
    J = acc(prim["attributes"]["JOINTS_0"]).astype(np.int64)
    Wt = acc(prim["attributes"]["WEIGHTS_0"]).astype(np.float64)
    skin_doc = doc["skins"][0]
    joints = skin_doc["joints"]
    W = np.zeros((len(p), len(joints)))
    for c in range(4):
        np.add.at(W, (np.arange(len(p)), J[:, c]), Wt[:, c])
    W /= W.sum(1, keepdims=True)
    ibm = acc(skin_doc["inverseBindMatrices"]).astype(np.float64).reshape(-1, 4, 4).transpose(0, 2, 1)
    nodes = doc["nodes"]
    parent = {c: i for i, n in enumerate(nodes) for c in n.get("children", [])}
    anim = doc["animations"][0]
    ch = anim["channels"][0]
    key_t = acc(anim["samplers"][0]["input"]).reshape(-1).astype(np.float64)
    key_q = acc(anim["samplers"][0]["output"]).astype(np.float64)

    def rotation_at(t):
        k = int(np.clip(np.searchsorted(key_t, t, side="right") - 1, 0, len(key_t) - 2))
        u = np.clip((t - key_t[k]) / (key_t[k + 1] - key_t[k]), 0, 1)
        return slerp(key_q[k], key_q[k + 1], u)

    def world(i, t):
        rot = rotation_at(t) if (t is not None and i == ch["target"]["node"]) else None
        m = local_matrix(nodes[i], rot)
        return world(parent[i], t) @ m if i in parent else m

    # Weld by equal position and weights; closed when every welded edge has two triangles
    # running opposite ways.
    key = np.concatenate([p, W], 1)
    _, welded = np.unique(key, axis=0, return_inverse=True)
    wt = welded.reshape(-1)[tris]
    directed = np.concatenate([wt[:, [0, 1]], wt[:, [1, 2]], wt[:, [2, 0]]])
    und = np.sort(directed, 1)
    fwd = directed[:, 0] < directed[:, 1]
    uniq, inv, counts = np.unique(und, axis=0, return_inverse=True, return_counts=True)
    fsum = np.bincount(inv.reshape(-1), fwd.astype(int))
    closed = bool(np.all(counts == 2) and np.all(fsum == 1))

    region_v = np.argmax(W, 1)  # first maximum: the lower joint on a tie
    corner = region_v[tris]
    votes = np.stack([(corner == j).sum(1) for j in range(len(joints))], 1)
    region_t = np.argmax(votes, 1)
    bind_q = np.array([np.linalg.inv(m)[:3, 3] for m in ibm])

    def measures(pos, q):
        a, b, c = pos[tris[:, 0]], pos[tris[:, 1]], pos[tris[:, 2]]
        vol = triple(a, b, c).sum() / 6
        regs = {}
        for j in range(len(joints)):
            sel = region_t == j
            if sel.any():
                regs[j] = triple(a[sel] - q[j], b[sel] - q[j], c[sel] - q[j]).sum() / 6
        return vol, regs

    bind_vol, bind_regs = measures(p, bind_q)
    expected = []
    for f in frames_of(frames):
        t = f / fps
        mats = np.array([world(joints[j], t) @ ibm[j] for j in range(len(joints))])
        q = np.array([world(joints[j], t)[:3, 3] for j in range(len(joints))])
        pos = skin(p, W, mats, method)
        vol, regs = measures(pos, q)
        if closed:
            expected.append((str(f), "*", vol, vol / bind_vol))
        for j in sorted(regs):
            expected.append((str(f), nodes[joints[j]]["name"], regs[j], regs[j] / bind_regs[j]))
    got = list(csv.reader(open(csv_path)))
    if got[0] != ["frame", "mesh", "region", "volume", "ratio"]:
        sys.exit(f"FAIL: header {got[0]}")
    got = got[1:]
    if len(got) != len(expected):
        sys.exit(f"FAIL: {len(got)} rows, the oracle has {len(expected)} (closed: {closed})")
    for row, (f, region, vol, ratio) in zip(got, expected):
        if row[0] != f or row[2] != region:
            sys.exit(f"FAIL: row {row}, the oracle's is frame {f} region {region}")
        for name, g, e in (("volume", float(row[3]), vol), ("ratio", float(row[4]), ratio)):
            if abs(g - e) > 2e-5 * max(1.0, abs(e)):
                sys.exit(f"FAIL: frame {f} region {region}: {name} {g}, the oracle's {e}")
    print(f"{len(got)} rows match the numpy oracle ({method}, closed: {closed})")


def frames_of(spec):
    a, b, step = spec.replace(":", "..").split("..")
    return range(int(a), int(b) + 1, int(step))


if __name__ == "__main__":
    main()
