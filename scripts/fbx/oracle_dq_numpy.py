#!/usr/bin/env python3
"""Independent oracle of dual-quaternion and blended skinning: evaluates a case DESCRIPTION
(make_dq_cases.py) with numpy, without reading the FBX file, from the formulas docs/methods.md
states ("Skinning methods"), written here with explicit dual-quaternion products:

- each joint: M = World(t) Bind^-1 (Bind = TransformLink) split as M = R S, R = P(World) P(Bind)^-1
  with P(A) = [Q(A) | t(A)], Q(A) Gram-Schmidt from A's Y axis (z = x cross y, x = y cross z);
  S = P(Bind) (L(World) L(Bind)^-1) P(Bind)^-1 with L(A) = Q(A)^T A;
- R as the unit dual quaternion q = r + e (t/2) r;
- per vertex: q = sum_i s_i w_i q_i, s_i = sign(<r_i, r_1>) against the first influence;
  q / |r|; p' = R_q (sum_i w_i S_i) p + t_q, by the sandwich q (1 + e p) conj*(q);
- Blend: p = (1 - b) p_linear + b p_dq.
Transform chain, curves and units come from oracle_numpy.py (the FBX SDK's documented rules).
"""
import numpy as np

import oracle_numpy as on


def qmul(a, b):
    """Quaternion product, (w, x, y, z)."""
    aw, av = a[0], a[1:]
    bw, bv = b[0], b[1:]
    return np.concatenate([[aw * bw - av @ bv], aw * bv + bw * av + np.cross(av, bv)])


def qconj(a):
    return np.array([a[0], -a[1], -a[2], -a[3]])


def quat_of(m):
    """Unit quaternion (w, x, y, z) of a rotation matrix, from the eigenvector of Bar-Itzhack's
    symmetric 4x4 (a different route from the kernel's)."""
    k = np.array([
        [m[0, 0] - m[1, 1] - m[2, 2], m[1, 0] + m[0, 1], m[2, 0] + m[0, 2], m[2, 1] - m[1, 2]],
        [m[1, 0] + m[0, 1], m[1, 1] - m[0, 0] - m[2, 2], m[2, 1] + m[1, 2], m[0, 2] - m[2, 0]],
        [m[2, 0] + m[0, 2], m[2, 1] + m[1, 2], m[2, 2] - m[0, 0] - m[1, 1], m[1, 0] - m[0, 1]],
        [m[2, 1] - m[1, 2], m[0, 2] - m[2, 0], m[1, 0] - m[0, 1], m[0, 0] + m[1, 1] + m[2, 2]]]) / 3.0
    vals, vecs = np.linalg.eigh(k)
    x, y, z, w = vecs[:, np.argmax(vals)]
    return np.array([w, x, y, z])


def frame_of(a):
    y = a[:, 1] / np.linalg.norm(a[:, 1])
    z = np.cross(a[:, 0], y)
    z /= np.linalg.norm(z)
    return np.column_stack([np.cross(y, z), y, z])


def split(world, bind):
    qw, qb = frame_of(world[:3, :3]), frame_of(bind[:3, :3])
    rot = qw @ qb.T
    t = world[:3, 3] - rot @ bind[:3, 3]
    lw, lb = qw.T @ world[:3, :3], qb.T @ bind[:3, :3]
    pb = np.eye(4)
    pb[:3, :3], pb[:3, 3] = qb, bind[:3, 3]
    inner = np.eye(4)
    inner[:3, :3] = lw @ np.linalg.inv(lb)
    s = pb @ inner @ np.linalg.inv(pb)
    r = quat_of(rot)
    d = 0.5 * qmul(np.concatenate([[0.0], t]), r)
    return r, d, s


def dq_point(parts, weights, p):
    """parts: [(r, d, S)] of the vertex's influences in order, weights likewise."""
    r1 = parts[0][0]
    r, d = np.zeros(4), np.zeros(4)
    s = np.zeros((4, 4))
    for (ri, di, si), w in zip(parts, weights):
        sign = -1.0 if ri @ r1 < 0 else 1.0
        r += sign * w * ri
        d += sign * w * di
        s += w * si
    n = np.linalg.norm(r)
    r, d = r / n, d / n
    x = (s @ np.append(p, 1.0))[:3]
    # (r + e d)(1 + e x)(conj r - e conj d): real part r conj r = 1, dual part r x conj r + d conj r - r conj d.
    xq = np.concatenate([[0.0], x])
    dual = qmul(qmul(r, xq), qconj(r)) + qmul(d, qconj(r)) - qmul(r, qconj(d))
    return dual[1:]


def evaluate(desc):
    """{'rest': (N,3), 'frames': [(frame, (N,3))]} in metres, the file's axes."""
    mesh = desc['mesh']
    verts = np.asarray(mesh['vertices'], dtype=float)
    n = len(verts)
    bind = on.globals_at(desc, None)
    mesh_model = next(m for m in desc['models'] if m['name'] == mesh['model'])
    place = bind[mesh['model']] @ on.geometric(mesh_model.get('props', {}))
    stored = (place @ np.hstack([verts, np.ones((n, 1))]).T).T[:, :3]
    to_m = desc['unit_scale'] / 100.0
    joints = [j for j, _, _ in mesh['skin']]
    rows = [[] for _ in range(n)]  # (joint index, weight) in joint order, as the reader sorts them
    for j, (_, idx, w) in enumerate(mesh['skin']):
        for i, wi in zip(idx, w):
            rows[i].append((j, wi))
    method = mesh.get('skinning_type', 'Linear')
    blend = np.zeros(n)
    for i, b in mesh.get('blend_weights', []):
        blend[i] = b
    frames = []
    for f in desc['frames']:
        t = int(round(f * on.KTIME / desc['fps']))
        g = on.globals_at(desc, t)
        mats = [g[j] @ np.linalg.inv(bind[j]) for j in joints]
        parts = [split(g[j], bind[j]) for j in joints]
        out = np.zeros((n, 3))
        for v in range(n):
            row = sorted(rows[v])
            total = sum(w for _, w in row)
            ws = [w / total for _, w in row]
            lin = sum(w * (mats[j] @ np.append(stored[v], 1.0))[:3] for (j, _), w in zip(row, ws))
            if method == 'Linear':
                out[v] = lin
                continue
            dq = dq_point([parts[j] for j, _ in row], ws, stored[v])
            b = 1.0 if method == 'DualQuaternion' else blend[v]
            out[v] = (1.0 - b) * lin + b * dq
        frames.append((f, out * to_m))
    return {'rest': stored * to_m, 'frames': frames}
