#!/usr/bin/env python3
"""Independent oracle: evaluates a case DESCRIPTION (make_cases.py) with numpy, without reading
the FBX file and without Blender. Implements the FBX SDK's documented behaviour:

- node transform  Local = T Roff Rp Rpre R Rpost^-1 Rp^-1 Soff Sp S Sp^-1, column vectors; R in
  the node's RotationOrder (XYZ = Rz Ry Rx), pre/post-rotation always XYZ. Local is exactly
  Tr(t) Q S(s): t the whole chain's translation (Local's last column), Q = Rpre R Rpost^-1, s the
  Lcl Scaling;
- inheritance (InheritType; ufbx's formulation of the FBX SDK's rule, which reproduces Maya's
  and MotionBuilder's own exports): each node has W (world), U (world without its own scale) and
  H (the scale it hands down). RSrs (1, and every top-level model): W = W_parent Local,
  U = W_parent Tr(t) Q, H = s. RrSs (0) and Rrs (2): the scale source is the parent for RrSs and
  the parent's source for Rrs (none under an RSrs parent); s' = s * H_source (componentwise; s
  without a source), t' = t * H_parent, W = U_parent Tr(t') Q S(s'), U = U_parent Tr(t') Q, H = s';
- curves: KTime keys, values as the file stores them (float32), constant / linear / cubic per
  key, constant before the first and after the last key. Cubic: slopes per second; without
  weights the Hermite of the two slopes; with tangent weights (n / 9999, as the file
  packs them; a side that is not weighted has 1/3) the Bezier in (time, value) through
  (t0 + wr dt, v0 + wr dt right_slope) and (t1 - wl dt, v1 - wl dt next_left_slope), solved for
  its parameter at the sample time;
- blend shapes: channel weight w in percent. The shapes sorted by FullWeights (stable), the base
  mesh a point at 0 after the negative ones; w between two neighbouring points blends those two
  linearly; beyond the ends (w > 0 past the last point, w <= 0 before the first) the two points
  at that end of w's side are extrapolated, the base counting as a point (w > 0 with no positive
  shape: the nearest negative shape and the base; w <= 0 with no negative shape: the base and
  the first positive shape, i.e. w / f1). A file written by Blender's exporter (Creator
  "Blender ...") holds in FullWeights one weight per offset of the channel's one shape
  (percent): the offsets are scaled by them, the channel then weighs the shape as at 100;
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
    wr, wl = c.get('weights', [(None, None)] * len(times))[k]
    if wr is not None or wl is not None:
        return weighted_bezier(vals[k], vals[k + 1], s0 * dt, s1 * dt, stored_weight(wr), stored_weight(wl), u)
    return (vals[k] * (2 * u**3 - 3 * u**2 + 1) + s0 * dt * (u**3 - 2 * u**2 + u)
            + vals[k + 1] * (-2 * u**3 + 3 * u**2) + s1 * dt * (u**3 - u**2))


# What a reader divides a packed weight by: the FBX SDK's 9999 (docs/fbx_notes.md); ufbx 0.23
# divides by 10000, which make_oracles_numpy_ufbx.py sets to cross-check the Bezier with ufbx.
READ_DIVIDER = 9999.0


def stored_weight(w):
    """A tangent weight as the file holds it (fbx_write.pack_weights: round(w x 9999)), read with
    READ_DIVIDER; a side not weighted is 1/3."""
    return 1.0 / 3.0 if w is None else round(w * 9999) / READ_DIVIDER


def weighted_bezier(v0, v1, d0, d1, wr, wl, x):
    """The Bezier through (0, v0), (wr, v0 + wr d0), (1 - wl, v1 - wl d1), (1, v1) at time x in
    [0, 1] of the segment (d0, d1: the slopes times the segment's length in seconds)."""
    bx = lambda p: 3 * (1 - p) ** 2 * p * wr + 3 * (1 - p) * p ** 2 * (1 - wl) + p ** 3
    # x'(p)/3 = wr (1-p)^2 + 2 (1 - wl - wr) p (1-p) + wl p^2: the time must not turn back, or
    # "the value at a time" has no single answer
    grid = np.linspace(0.0, 1.0, 1001)
    if np.any(wr * (1 - grid) ** 2 + 2 * (1 - wl - wr) * grid * (1 - grid) + wl * grid ** 2 < 0):
        raise ValueError('tangent weights %g, %g make the time curve turn back' % (wr, wl))
    lo, hi = 0.0, 1.0
    for _ in range(200):  # x(p) increases on [0, 1]: bisect
        mid = 0.5 * (lo + hi)
        if bx(mid) < x:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-17:
            break
    p = 0.5 * (lo + hi)
    q = 1 - p
    return q ** 3 * v0 + 3 * q * q * p * (v0 + wr * d0) + 3 * q * p * p * (v1 - wl * d1) + p ** 3 * v1


def rotation_part(p):
    g = lambda k, d=(0, 0, 0): np.asarray(p.get(k, d), dtype=float)
    return euler(g('Rpre')) @ euler(g('R'), p.get('order', 0)) @ np.linalg.inv(euler(g('Rpost')))


def animated_props(props, anim):
    p = dict(props)
    for (prop, axis), value in (anim or {}).items():
        key = {'Lcl Translation': 'T', 'Lcl Rotation': 'R', 'Lcl Scaling': 'S'}[prop]
        v = list(p.get(key, (1, 1, 1) if key == 'S' else (0, 0, 0)))
        v[axis] = value
        p[key] = v
    return p


def local(props, anim=None):
    p = animated_props(props, anim)
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
    out, unscaled, hands, source = {}, {}, {}, {}

    def glob(name):
        if name not in out:
            m = models[name]
            props = m.get('props', {})
            parent = m.get('parent')
            inherit = props.get('inherit', 1) if parent else 1  # a top-level model is RSrs
            if parent:
                glob(parent)
            loc = local(props, anim.get(name))
            p = animated_props(props, anim.get(name))
            s = np.asarray(p.get('S', (1, 1, 1)), dtype=float)
            q = rotation_part(p)
            if inherit == 1:
                out[name] = out[parent] @ loc if parent else loc
                unscaled[name] = (out[parent] if parent else np.eye(4)) @ translate(loc[:3, 3]) @ q
                hands[name], source[name] = s, None
            elif inherit in (0, 2):
                src = parent if inherit == 0 else source[parent]
                s2 = s * hands[src] if src else s
                unscaled[name] = unscaled[parent] @ translate(loc[:3, 3] * hands[parent]) @ q
                out[name] = unscaled[name] @ scale(s2)
                hands[name], source[name] = s2, src
            else:
                raise ValueError('%s: InheritType %r' % (name, inherit))
        return out[name]

    for name in models:
        glob(name)
    return out


def inbetween_segment(full, weight):
    """(a, b, f): the offsets at `weight` are shape a + (shape b - shape a) f, a shape given by
    its index in `full`, None for the base mesh (offsets 0)."""
    if any(f == 0 for f in full):
        raise ValueError('a FullWeights of 0 coincides with the base mesh')
    order = sorted(range(len(full)), key=lambda i: full[i])  # stable, as ufbx and the SDK sort
    neg = [i for i in order if full[i] < 0]
    pos = [i for i in order if full[i] > 0]
    if weight > 0:
        points = [None] + pos if pos else [neg[-1], None]
    else:
        points = neg + [None] if neg else [None, pos[0]]
    at = lambda i: 0.0 if i is None else full[i]
    k = 0
    while k < len(points) - 2 and weight > at(points[k + 1]):
        k += 1
    a, b = points[k], points[k + 1]
    return a, b, (weight - at(a)) / (at(b) - at(a))


def blender_weights(desc, channel):
    """Blender's exporter writes per-offset weights of a channel's one shape in FullWeights."""
    return (desc.get('creator', '').startswith('Blender') and len(channel['shapes']) == 1
            and len(channel.get('full_weights', ())) == len(channel['shapes'][0]['indexes']))


def shape_offsets(channel, weight, n, desc=None):
    shapes = channel['shapes']
    dense = []
    for s in shapes:
        d = np.zeros((n, 3))
        d[np.asarray(s['indexes'])] = np.asarray(s['deltas'], dtype=float)
        dense.append(d)
    if desc is not None and blender_weights(desc, channel):
        per = np.zeros(n)
        per[np.asarray(shapes[0]['indexes'])] = np.asarray(channel['full_weights'], dtype=float) / 100.0
        dense = [dense[0] * per[:, None]]
        full = [100.0]
    else:
        full = [s['full'] for s in shapes]
    a, b, f = inbetween_segment(full, weight)
    base = np.zeros((n, 3))
    lo = base if a is None else dense[a]
    hi = base if b is None else dense[b]
    return lo + (hi - lo) * f


def geometric(props):
    g = lambda k, d=(0, 0, 0): np.asarray(props.get(k, d), dtype=float)
    return translate(g('GT')) @ euler(g('GR')) @ scale(g('GS', (1, 1, 1)))


def evaluate(desc, sample_fps=None):
    """{'rest': (N,3), 'frames': [(frame, (N,3))]} in metres, the file's axes. Frame n is sampled
    at KTime n / fps, fps the case's own (or sample_fps: to compare with a reader that takes
    another rate)."""
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
        t = int(round(f * KTIME / (sample_fps or desc['fps'])))
        moved = verts.copy()
        for bs in mesh.get('blendshapes', []):
            for ch in bs['channels']:
                curve = next((c for c in desc.get('shape_curves', []) if c['channel'] == ch['name']), None)
                w = eval_curve(curve, t) if curve else ch.get('percent', 0.0)
                moved += shape_offsets(ch, w, n, desc)
        h = np.hstack([moved, np.ones((n, 1))])
        g = globals_at(desc, t)
        out = np.zeros((n, 4))
        for j, (joint, _, _) in enumerate(mesh['skin']):
            m = g[joint] @ np.linalg.inv(bind[joint]) @ T @ G
            out += weights[:, j:j + 1] * (m @ h.T).T
        frames.append((f, out[:, :3] * to_m))
    return {'rest': rest, 'frames': frames}
