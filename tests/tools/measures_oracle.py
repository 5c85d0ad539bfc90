#!/usr/bin/env python3
"""Independent numpy computation of the area and principal measures (docs/methods.md) on a glTF
file, compared with rigscope's CSV.

    measures_oracle.py FILE.glb REST.csv DEFORMED.csv AREA.csv PRINCIPAL.csv

REST.csv and DEFORMED.csv are `rigscope deform` rows (positions per file vertex); AREA.csv and
PRINCIPAL.csv are `rigscope tension --measure area|principal` rows for the same frame. Faces come
straight from the GLB's index accessors. The formulation differs from the C++ kernel on purpose:
per triangle a 3x3 deformation gradient F3 = Ds pinv(Dm) of rest-space vectors, C3 = F3^T F3
rotated into the vertex's rest tangent plane as a 3x3 tensor, averaged, then numpy's eigh, all
in float64.

Tolerances: rigscope works in float32 on coordinates of order 1 with edges of order 0.1 (about
six significant digits after the differences), and prints shortest round-trip floats; a lambda
or T_area of order 1 from a handful of such terms agrees to a few 1e-6. 1e-4 relative leaves a
margin of more than ten while still catching any wrong term (a missing triangle changes the
values by percent). Directions are compared only where lambda_max - lambda_min > 0.01 (else the
eigenvector is ill-determined): |cos| > 1 - 1e-3.
"""
import json
import struct
import sys

import numpy as np


def glb_triangles(path):
    data = open(path, "rb").read()
    magic, _, length = struct.unpack_from("<III", data, 0)
    assert magic == 0x46546C67, "not a GLB"
    off, doc, binary = 12, None, None
    while off < length:
        clen, ctype = struct.unpack_from("<II", data, off)
        chunk = data[off + 8: off + 8 + clen]
        if ctype == 0x4E4F534A:
            doc = json.loads(chunk)
        elif ctype == 0x004E4942:
            binary = chunk
        off += 8 + clen
    types = {5121: np.uint8, 5123: np.uint16, 5125: np.uint32}
    tris, base = [], 0
    for prim in doc["meshes"][0]["primitives"]:
        count = doc["accessors"][prim["attributes"]["POSITION"]]["count"]
        acc = doc["accessors"][prim["indices"]]
        view = doc["bufferViews"][acc["bufferView"]]
        start = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
        idx = np.frombuffer(binary, dtype=types[acc["componentType"]], count=acc["count"], offset=start)
        tris.append(idx.astype(np.int64).reshape(-1, 3) + base)
        base += count
    return np.concatenate(tris)


def read_csv(path):
    with open(path) as f:
        header = f.readline().strip().split(",")
        rows = [line.rstrip("\n").split(",") for line in f]
    cols = {name: i for i, name in enumerate(header)}
    return cols, rows


def positions(path):
    cols, rows = read_csv(path)
    return np.array([[float(r[cols[k]]) for k in "xyz"] for r in rows])


def main():
    glb, rest_csv, def_csv, area_csv, principal_csv = sys.argv[1:6]
    tris_file = glb_triangles(glb)
    X, Y = positions(rest_csv), positions(def_csv)
    # Welding: identical rest positions are one vertex (the cylinder's seam copies share their
    # skin weights, so rigscope's rule gives the same groups; the count is checked below).
    _, welded_of, inverse = np.unique(X, axis=0, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    rep = np.zeros(inverse.max() + 1, dtype=np.int64)
    for v in range(len(inverse) - 1, -1, -1):
        rep[inverse[v]] = v  # first file vertex of each group
    W = len(rep)
    tris = inverse[tris_file]
    tris = tris[(tris[:, 0] != tris[:, 1]) & (tris[:, 1] != tris[:, 2]) & (tris[:, 0] != tris[:, 2])]
    x, y = X[rep], Y[rep]

    # area: one-ring rest area over deformed area (barycentric thirds cancel).
    e1, e2 = x[tris[:, 1]] - x[tris[:, 0]], x[tris[:, 2]] - x[tris[:, 0]]
    d1, d2 = y[tris[:, 1]] - y[tris[:, 0]], y[tris[:, 2]] - y[tris[:, 0]]
    rest_area = np.linalg.norm(np.cross(e1, e2), axis=1)
    def_area = np.linalg.norm(np.cross(d1, d2), axis=1)
    ring_rest, ring_def = np.zeros(W), np.zeros(W)
    for k in range(3):
        np.add.at(ring_rest, tris[:, k], rest_area)
        np.add.at(ring_def, tris[:, k], def_area)
    t_area = ring_rest / ring_def

    # principal
    n_t = np.cross(e1, e2)
    n_t /= np.linalg.norm(n_t, axis=1)[:, None]
    Dm = np.stack([e1, e2], axis=2)  # rest edges, 3x2
    Ds = np.stack([d1, d2], axis=2)
    F3 = Ds @ np.linalg.pinv(Dm)  # 3x3: rest-space vectors in the plane -> deformed
    C3 = np.transpose(F3, (0, 2, 1)) @ F3
    n_v = np.zeros((W, 3))
    for k in range(3):
        np.add.at(n_v, tris[:, k], np.cross(e1, e2))
    n_v /= np.linalg.norm(n_v, axis=1)[:, None]
    Csum, Fsum, wsum = np.zeros((W, 3, 3)), np.zeros((W, 3, 3)), np.zeros(W)
    for t in range(len(tris)):
        for k in range(3):
            v = tris[t, k]
            a, b = n_t[t], n_v[v]
            axis = np.cross(a, b)
            s, c = np.linalg.norm(axis), a @ b
            if s < 1e-15:
                R = np.eye(3)
            else:
                u = axis / s
                K = np.array([[0, -u[2], u[1]], [u[2], 0, -u[0]], [-u[1], u[0], 0]])
                R = np.eye(3) + s * K + (1 - c) * K @ K
            Csum[v] += rest_area[t] * R @ C3[t] @ R.T
            Fsum[v] += rest_area[t] * F3[t] @ R.T
            wsum[v] += rest_area[t]
    Cv, Fv = Csum / wsum[:, None, None], Fsum / wsum[:, None, None]
    lam_max, lam_min, direction = np.zeros(W), np.zeros(W), np.zeros((W, 3))
    for v in range(W):
        n = n_v[v]
        t1 = np.cross(n, [1.0, 0, 0]) if abs(n[0]) < 0.9 else np.cross(n, [0, 1.0, 0])
        t1 /= np.linalg.norm(t1)
        T = np.stack([t1, np.cross(n, t1)], axis=1)
        vals, vecs = np.linalg.eigh(T.T @ Cv[v] @ T)
        lam_min[v], lam_max[v] = np.sqrt(max(vals[0], 0)), np.sqrt(vals[1])
        d = Fv[v] @ T @ vecs[:, 0]
        direction[v] = d / np.linalg.norm(d)

    failures = 0

    def check(name, ok, detail):
        nonlocal failures
        if not ok:
            failures += 1
            print(f"FAIL: {name}: {detail}")
        else:
            print(f"ok: {name}" + (f" ({detail})" if detail else ""))

    cols, rows = read_csv(area_csv)
    check("file vertices", len(rows) == len(X), f"{len(rows)} rows, {len(X)} vertices")
    got = np.array([float(r[cols["t_area"]]) for r in rows])
    want = t_area[inverse]
    err = np.max(np.abs(got / want - 1))
    check("T_area within 1e-4 relative", err < 1e-4, f"max relative error {err:.3g}")
    check("T_area departs from 1 somewhere (a bent frame)", np.max(np.abs(want - 1)) > 0.05, "")

    cols, rows = read_csv(principal_csv)
    got_max = np.array([float(r[cols["lambda_max"]]) for r in rows])
    got_min = np.array([float(r[cols["lambda_min"]]) for r in rows])
    got_dir = np.array([[float(r[cols[k]]) for k in ("dir_x", "dir_y", "dir_z")] for r in rows])
    e_max = np.max(np.abs(got_max / lam_max[inverse] - 1))
    e_min = np.max(np.abs(got_min / lam_min[inverse] - 1))
    check("lambda_max within 1e-4 relative", e_max < 1e-4, f"max relative error {e_max:.3g}")
    check("lambda_min within 1e-4 relative", e_min < 1e-4, f"max relative error {e_min:.3g}")
    sep = (lam_max - lam_min)[inverse] > 0.01
    cos = np.abs(np.sum(got_dir * direction[inverse], axis=1))
    check("directions where the stretches differ", sep.sum() > 10 and np.all(cos[sep] > 1 - 1e-3),
          f"{sep.sum()} compared, worst |cos| {cos[sep].min() if sep.any() else 'n/a'}")
    check("the bend compresses somewhere", lam_min.min() < 0.95, f"lowest lambda_min {lam_min.min():.4g}")
    # compress and stretch: the node group's remap (defaults) of 1 / lambda_min and 1 / lambda_max.
    t_s = 0.75 - 0.0  # smooth_min(0.75, 1, 0.1): |a - b| > k, the plain min
    t_c = 1 / 0.6
    comp = np.clip((1 / got_min - 1) / (t_c - 1), 0, 1)
    stre = np.clip((1 - 1 / got_max) / (1 - t_s), 0, 1)
    e_c = np.max(np.abs(np.array([float(r[cols["compress"]]) for r in rows]) - comp))
    e_s = np.max(np.abs(np.array([float(r[cols["stretch"]]) for r in rows]) - stre))
    check("compress = remap(1 / lambda_min), stretch = remap(1 / lambda_max)", e_c < 1e-5 and e_s < 1e-5,
          f"errors {e_c:.3g}, {e_s:.3g}")
    print(f"{W} welded vertices, {len(tris)} triangles")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
