#!/usr/bin/env python3
"""Independent oracle: evaluates a case DESCRIPTION (make_cases.py) with numpy, without reading
the FBX file and without Blender. Implements the FBX SDK's documented behaviour:

- node transform  World = ParentWorld T Roff Rp Rpre R Rpost^-1 Rp^-1 Soff Sp S Sp^-1, column
  vectors; R in the node's RotationOrder (XYZ = Rz Ry Rx), pre/post-rotation always XYZ;
  InheritType RSrs (the plain matrix product) is the only inherit type the cases use;
- curves: KTime keys, values as the file stores them (float32), constant / linear / cubic
  (Hermite, slopes per second) per key, constant before the first and after the last key;
- blend shapes: channel weight w in percent against the shapes' FullWeights f1 < f2 < ...:
  below f1 the first shape scaled by w / f1, between two shapes a linear blend of the two;
- linear blend skinning: p = sum_i w_i J_i(t) TransformLink_i^-1 Transform G v, G the mesh
  model's geometric transform, Transform and TransformLink the bind (static) globals;
- output in metres: file units x UnitScaleFactor / 100, in the file's own axes.
"""
import math
import numpy as np

KTIME = 46186158000
ORDERS = ['XYZ', 'XZY', 'YZX', 'YXZ', 'ZXY', 'ZYX']


def translate(t):
    m = np.eye(4)
    m[:3, 3] = t
    return m


def scale(s):
    return np.diag([s[0], s[1], s[2], 1.0])


def axis_rotation(axis, deg):
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    m = np.eye(4)
    a, b = [(1, 2), (2, 0), (0, 1)][axis]
    m[a, a], m[a, b], m[b, a], m[b, b] = c, -s, s, c
    return m


def euler(deg, order=0):
    m = np.eye(4)
    for letter in ORDERS[order]:  # first letter applied first
        axis = 'XYZ'.index(letter)
        m = axis_rotation(axis, deg[axis]) @ m
    return m


def eval_curve(c, t):
    times = np.asarray(c['times'], dtype=np.int64)
    vals = np.asarray(c['values'], dtype=np.float32).astype(np.float64)
    interp = c.get('interp', 'linear')
    interp = [interp] * len(times) if isinstance(interp, str) else interp
    slopes = np.asarray(c.get('slopes', [(0.0, 0.0)] * len(times)), dtype=np.float32).astype(np.float64)
    if t <= times[0]:
        return vals[0]
    if t >= times[-1]:
        return vals[-1]
    k = int(np.searchsorted(times, t, side='right')) - 1
    t0, t1 = times[k], times[k + 1]
    u = (t - t0) / float(t1 - t0)
    if interp[k] == 'constant':
        return vals[k]
    if interp[k] == 'linear':
        return vals[k] + (vals[k + 1] - vals[k]) * u
    dt = (t1 - t0) / KTIME
    s0, s1 = slopes[k]
    return (vals[k] * (2 * u**3 - 3 * u**2 + 1) + s0 * dt * (u**3 - 2 * u**2 + u)
            + vals[k + 1] * (-2 * u**3 + 3 * u**2) + s1 * dt * (u**3 - u**2))


def local(props, anim=None):
    p = dict(props)
    for (prop, axis), value in (anim or {}).items():
        key = {'Lcl Translation': 'T', 'Lcl Rotation': 'R', 'Lcl Scaling': 'S'}[prop]
        v = list(p.get(key, (1, 1, 1) if key == 'S' else (0, 0, 0)))
        v[axis] = value
        p[key] = v
    g = lambda k, d=(0, 0, 0): np.asarray(p.get(k, d), dtype=float)
    return (translate(g('T')) @ translate(g('Roff')) @ translate(g('Rp')) @ euler(g('Rpre'))
            @ euler(g('R'), p.get('order', 0)) @ np.linalg.inv(euler(g('Rpost'))) @ translate(-g('Rp'))
            @ translate(g('Soff')) @ translate(g('Sp')) @ scale(g('S', (1, 1, 1))) @ translate(-g('Sp')))


def globals_at(desc, t):
    """Every model's global matrix at KTime t (None: the static values, the bind pose)."""
    anim = {}
    if t is not None:
        for c in desc.get('curves', []):
            anim.setdefault(c['model'], {})[(c['prop'], c['axis'])] = eval_curve(c, t)
    models = {m['name']: m for m in desc['models']}
    out = {}

    def glob(name):
        if name not in out:
            m = models[name]
            if m.get('props', {}).get('inherit', 1) != 1:
                raise NotImplementedError('only InheritType RSrs (1) is evaluated')
            loc = local(m.get('props', {}), anim.get(name))
            out[name] = glob(m['parent']) @ loc if m.get('parent') else loc
        return out[name]

    for name in models:
        glob(name)
    return out


def shape_offsets(channel, weight, n):
    shapes = channel['shapes']
    full = [s['full'] for s in shapes]
    dense = []
    for s in shapes:
        d = np.zeros((n, 3))
        d[np.asarray(s['indexes'])] = np.asarray(s['deltas'], dtype=float)
        dense.append(d)
    if weight <= 0:
        return np.zeros((n, 3))
    if weight <= full[0]:
        return dense[0] * (weight / full[0])
    for k in range(len(full) - 1):
        if weight <= full[k + 1]:
            f = (weight - full[k]) / (full[k + 1] - full[k])
            return dense[k] + (dense[k + 1] - dense[k]) * f
    return dense[-1] * (weight / full[-1])  # past the last shape: extrapolated along it


def geometric(props):
    g = lambda k, d=(0, 0, 0): np.asarray(props.get(k, d), dtype=float)
    return translate(g('GT')) @ euler(g('GR')) @ scale(g('GS', (1, 1, 1)))


def evaluate(desc):
    """{'rest': (N,3), 'frames': [(frame, (N,3))]} in metres, the file's axes."""
    mesh = desc['mesh']
    verts = np.asarray(mesh['vertices'], dtype=float)
    n = len(verts)
    hom = np.hstack([verts, np.ones((n, 1))])
    bind = globals_at(desc, None)
    mesh_model = next(m for m in desc['models'] if m['name'] == mesh['model'])
    G = geometric(mesh_model.get('props', {}))
    T = bind[mesh['model']]
    to_m = desc['unit_scale'] / 100.0
    rest = (T @ G @ hom.T).T[:, :3] * to_m

    weights = np.zeros((n, len(mesh['skin'])))
    for j, (_, idx, w) in enumerate(mesh['skin']):
        weights[np.asarray(idx), j] = w
    frames = []
    for f in desc['frames']:
        t = int(round(f * KTIME / desc['fps']))
        moved = verts.copy()
        for bs in mesh.get('blendshapes', []):
            for ch in bs['channels']:
                curve = next((c for c in desc.get('shape_curves', []) if c['channel'] == ch['name']), None)
                w = eval_curve(curve, t) if curve else ch.get('percent', 0.0)
                moved += shape_offsets(ch, w, n)
        h = np.hstack([moved, np.ones((n, 1))])
        g = globals_at(desc, t)
        out = np.zeros((n, 4))
        for j, (joint, _, _) in enumerate(mesh['skin']):
            m = g[joint] @ np.linalg.inv(bind[joint]) @ T @ G
            out += weights[:, j:j + 1] * (m @ h.T).T
        frames.append((f, out[:, :3] * to_m))
    return {'rest': rest, 'frames': frames}
