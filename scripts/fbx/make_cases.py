#!/usr/bin/env python3
"""Writes the crafted FBX cases into tests/fbx_cases/ (or the folder given as the first argument).

Each case is a description (plain data: models, mesh, skin, shapes, curves, the take, the frames
an oracle evaluates) built by one function below. fbx_write.write_scene turns a description into
a file; oracle_numpy.py evaluates the same description independently of any FBX reader.
Lengths are in the file's units (UnitScaleFactor cm each); angles in degrees; frames on the
file's own timeline (KTime = frame / fps seconds).
"""
import copy
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fbx_write import ktime, write_scene  # noqa: E402

TIME_MODE = {24: 11, 30: 6}  # FBX TimeMode enum: eFrames24, eFrames30; others use eCustom (14)


def tube(levels, seg, height, radius):
    """Open cylinder along +Y: `levels` rings of `seg` control points, quads between rings."""
    verts = []
    for i in range(levels):
        y = height * i / (levels - 1)
        for j in range(seg):
            a = 2 * math.pi * j / seg
            verts.append([radius * math.cos(a), y, -radius * math.sin(a)])
    polys = []
    for i in range(levels - 1):
        for j in range(seg):
            a, b = i * seg + j, i * seg + (j + 1) % seg
            polys.append([a, b, b + seg, a + seg])
    return verts, polys


def weights_by_height(verts, joint_ys, joints):
    """Each control point blended linearly between the two joints whose heights bracket it."""
    per_joint = {j: ([], []) for j in joints}
    for idx, v in enumerate(verts):
        y = v[1]
        if y <= joint_ys[0]:
            pairs = [(joints[0], 1.0)]
        elif y >= joint_ys[-1]:
            pairs = [(joints[-1], 1.0)]
        else:
            k = max(i for i in range(len(joint_ys)) if joint_ys[i] <= y)
            f = (y - joint_ys[k]) / (joint_ys[k + 1] - joint_ys[k])
            pairs = [(joints[k], 1.0 - f), (joints[k + 1], f)]
        for j, w in pairs:
            if w > 0:
                per_joint[j][0].append(idx)
                per_joint[j][1].append(w)
    return [(j, per_joint[j][0], per_joint[j][1]) for j in joints if per_joint[j][0]]


def keyed(model, prop, axis, frames, fn, fps, interp='linear'):
    """A curve with a key at each of `frames`, value fn(frame)."""
    return {'model': model, 'prop': prop, 'axis': axis, 'times': [ktime(f, fps) for f in frames],
            'values': [fn(f) for f in frames], 'interp': interp}


def base(case, fps=30, start=0, stop=24, unit=1.0, unit_scale=100.0):
    """A 2 m tube (36 control points) on a three-joint chain Root-Mid-Tip; `unit` is the number
    of file units in a metre (UnitScaleFactor = 100 / unit)."""
    verts, polys = tube(6, 6, 2.0 * unit, 0.25 * unit)
    desc = {
        'case': case, 'fps': fps, 'time_mode': TIME_MODE.get(fps, 14), 'unit_scale': unit_scale,
        'axes': ((1, 1), (2, 1), (0, 1)),  # Y up, Z front, X coord: Maya's default
        'take': {'name': case, 'start': ktime(start, fps), 'stop': ktime(stop, fps)},
        'models': [
            {'name': 'Body', 'kind': 'Mesh'},
            {'name': 'Root', 'kind': 'LimbNode', 'props': {'T': (0, 0, 0)}},
            {'name': 'Mid', 'kind': 'LimbNode', 'parent': 'Root', 'props': {'T': (0, 0.8 * unit, 0)}},
            {'name': 'Tip', 'kind': 'LimbNode', 'parent': 'Mid', 'props': {'T': (0, 0.8 * unit, 0)}},
        ],
        'mesh': {'name': 'Body', 'model': 'Body', 'vertices': verts, 'polygons': polys,
                 'skin': weights_by_height(verts, [0, 0.8 * unit, 1.6 * unit], ['Root', 'Mid', 'Tip'])},
        'curves': [],
        'frames': list(range(start, stop + 1)),
    }
    return desc


def bend(desc, frames, unit=1.0, t0=None, t1=None):
    """Root sways in X, Mid bends about Z and twists about X, Tip bends about Z: keys on each frame."""
    fps = desc['fps']
    t0 = frames[0] if t0 is None else t0
    t1 = frames[-1] if t1 is None else t1
    u = lambda f: (f - t0) / float(t1 - t0)
    desc['curves'] += [
        keyed('Root', 'Lcl Translation', 0, frames, lambda f: 0.3 * unit * math.sin(math.pi * u(f)), fps),
        keyed('Mid', 'Lcl Rotation', 2, frames, lambda f: 60.0 * u(f), fps),
        keyed('Mid', 'Lcl Rotation', 0, frames, lambda f: 20.0 * math.sin(2 * math.pi * u(f)), fps),
        keyed('Tip', 'Lcl Rotation', 2, frames, lambda f: 45.0 * u(f), fps),
    ]
    return desc


def take_start_50():
    d = base('take_start_50', fps=30, start=50, stop=80)
    return bend(d, list(range(50, 81)))


def key_past_stop():
    # Mixamo-like: keys on every frame of 0..29, the last key 29000 KTime past LocalStop (30).
    d = base('key_past_stop', fps=30, start=0, stop=30)
    fps = 30
    times = [ktime(f, fps) for f in range(30)] + [ktime(30, fps) + 29000]
    sec = [t / 46186158000.0 for t in times]
    for model, axis, rate in (('Mid', 2, 90.0), ('Tip', 0, 60.0)):  # degrees per second
        d['curves'].append({'model': model, 'prop': 'Lcl Rotation', 'axis': axis, 'times': times,
                            'values': [rate * s for s in sec], 'interp': 'linear'})
    return d


def keys_outside_take():
    # Maya/Unity humanoid: the take says frames 1..24, the keys sit at 56..233.
    d = base('keys_outside_take', fps=24, start=1, stop=24)
    bend(d, list(range(56, 234)))
    d['frames'] = [1, 12, 24] + list(range(56, 234, 3)) + [233, 240]
    return d


def constraint_connection():
    d = base('constraint_connection', fps=30, start=0, stop=20)
    bend(d, list(range(0, 21)))
    d['models'].append({'name': 'Locator', 'kind': 'Null', 'props': {'T': (0.5, 1.0, 0)}})
    d['constraint'] = {'name': 'Locator_pointConstraint1', 'constrained': 'Locator', 'source': 'Tip'}
    return d


def coinciding_control_points():
    # A seam: the first column of the tube is written twice, the copy (control points 36..41)
    # used by the faces on one side of the seam and weighted differently (all on Root below the
    # top ring, all on Tip at the top), so the two copies part when the chain bends.
    d = base('coinciding_control_points', fps=30, start=0, stop=20)
    mesh = d['mesh']
    verts = mesh['vertices']
    seg, levels = 6, 6
    first = len(verts)
    for i in range(levels):
        verts.append(list(verts[i * seg]))
    for p in mesh['polygons']:
        # faces between column seg-1 and column 0 use the copies
        if p[0] % seg == seg - 1:
            i = p[0] // seg
            p[1], p[2] = first + i, first + i + 1
    skin = {j: (list(ix), list(w)) for j, ix, w in mesh['skin']}
    for i in range(levels):
        j = 'Tip' if i == levels - 1 else 'Root'
        skin[j][0].append(first + i)
        skin[j][1].append(1.0)
    mesh['skin'] = [(j, skin[j][0], skin[j][1]) for j in ('Root', 'Mid', 'Tip')]
    return bend(d, list(range(0, 21)))


def pivots_prepost():
    d = base('pivots_prepost', fps=24, start=0, stop=24)
    m = {x['name']: x for x in d['models']}
    m['Root']['props'].update({'Roff': (0.05, 0.0, 0.02), 'Rp': (0.0, 0.1, 0.03), 'Rpre': (5.0, -10.0, 15.0)})
    m['Mid']['props'].update({'Roff': (0.02, 0.01, 0.0), 'Rp': (0.03, 0.1, -0.02), 'Rpre': (10.0, -20.0, 30.0),
                              'Rpost': (-15.0, 5.0, 25.0), 'order': 4})  # ZXY
    m['Tip']['props'].update({'Rpost': (20.0, 10.0, -30.0), 'Soff': (0.01, 0.02, 0.0), 'Sp': (0.0, 0.05, 0.02),
                              'S': (1.0, 1.2, 0.9), 'order': 2})  # YZX
    frames = list(range(0, 25))
    fps = 24
    d['curves'] += [
        keyed('Root', 'Lcl Rotation', 1, frames, lambda f: 30.0 * f / 24.0, fps),
        keyed('Mid', 'Lcl Rotation', 0, frames, lambda f: 25.0 * math.sin(math.pi * f / 24.0), fps),
        keyed('Mid', 'Lcl Rotation', 1, frames, lambda f: -20.0 * f / 24.0, fps),
        keyed('Mid', 'Lcl Rotation', 2, frames, lambda f: 50.0 * f / 24.0, fps),
        keyed('Tip', 'Lcl Rotation', 2, frames, lambda f: 40.0 * f / 24.0, fps),
        keyed('Tip', 'Lcl Rotation', 0, frames, lambda f: 15.0 * f / 24.0, fps),
        keyed('Tip', 'Lcl Scaling', 0, frames, lambda f: 1.0 + 0.3 * f / 24.0, fps),
    ]
    d['blender_known_wrong'] = ('Blender 3.4.1 evaluates PreRotation/PostRotation in the node\'s '
                                'RotationOrder and does not invert PostRotation; its bones also drop the '
                                'non-uniform scale of a rest pose (Tip\'s static Lcl Scaling)')
    # The same scene without pre- and post-rotation and without Tip's static scale, where Blender
    # is right: checks the pivots, offsets, orders and the animated scale about a scaling pivot of
    # oracle_numpy.py against Blender.
    d['blender_variant'] = {'drop_props': ['Rpre', 'Rpost', 'S']}
    return d


def rotation_orders():
    # Six joints in a chain, one per RotationOrder (XYZ, XZY, YZX, YXZ, ZXY, ZYX), each turning
    # about all three axes at once, where the orders differ.
    fps = 30
    d = base('rotation_orders', fps=fps, start=0, stop=20)
    verts, polys = tube(8, 6, 3.0, 0.25)
    names = ['J%d_%s' % (i, o) for i, o in enumerate(['XYZ', 'XZY', 'YZX', 'YXZ', 'ZXY', 'ZYX'])]
    ys = [0.5 * i for i in range(6)]
    d['models'] = [{'name': 'Body', 'kind': 'Mesh'}]
    for i, n in enumerate(names):
        d['models'].append({'name': n, 'kind': 'LimbNode', 'parent': names[i - 1] if i else None,
                            'props': {'T': (0, 0.5 if i else 0.0, 0), 'order': i, 'R': (5.0 * i, 0, 0)}})
    d['mesh'] = {'name': 'Body', 'model': 'Body', 'vertices': verts, 'polygons': polys,
                 'skin': weights_by_height(verts, ys, names)}
    frames = list(range(0, 21))
    for i, n in enumerate(names):
        d['curves'] += [
            keyed(n, 'Lcl Rotation', 0, frames, lambda f, i=i: 5.0 * i + 30.0 * math.sin(math.pi * f / 20.0), fps),
            keyed(n, 'Lcl Rotation', 1, frames, lambda f: 40.0 * f / 20.0, fps),
            keyed(n, 'Lcl Rotation', 2, frames, lambda f: 25.0 * math.cos(math.pi * f / 20.0), fps),
        ]
    d['frames'] = frames
    return d


def inbetween_shapes():
    # One channel "Bulge" with two shapes: Bulge_50 (FullWeights 50) pushes the top rings out,
    # Bulge_100 (FullWeights 100) pushes them out less and up, so the in-between path is not a
    # straight line and a reader that ignores the in-between shape is visibly off.
    d = base('inbetween_shapes', fps=30, start=0, stop=20)
    bend(d, list(range(0, 21)))
    verts = d['mesh']['vertices']
    idx = [i for i, v in enumerate(verts) if v[1] > 1.0]
    out = lambda i, k: [verts[i][0] * k, 0.0, verts[i][2] * k]
    d['mesh']['blendshapes'] = [{'name': 'Shapes', 'channels': [{
        'name': 'Bulge', 'percent': 0.0, 'shapes': [
            {'name': 'Bulge_50', 'full': 50.0, 'indexes': idx, 'deltas': [out(i, 0.6) for i in idx]},
            {'name': 'Bulge_100', 'full': 100.0, 'indexes': idx,
             'deltas': [[a, 0.3, c] for a, _, c in (out(i, 0.2) for i in idx)]},
        ]}]}]
    d['shape_curves'] = [{'channel': 'Bulge', 'times': [ktime(0, 30), ktime(20, 30)], 'values': [0.0, 100.0],
                          'interp': 'linear'}]
    d['blender_known_wrong'] = ('Blender 3.4.1 reads FullWeights as per-vertex weights and stops on an '
                                'assertion when a channel holds more than one shape')
    # The same scene with only the 100 % shape, which Blender reads right.
    d['blender_variant'] = {'only_last_shape': True}
    return d


def units_cm():
    # UnitScaleFactor 1: the file is in centimetres (Maya's default), 200 cm tall.
    d = base('units_cm', fps=30, start=0, stop=20, unit=100.0, unit_scale=1.0)
    return bend(d, list(range(0, 21)), unit=100.0)


def unit_scale_2_54():
    # UnitScaleFactor 2.54: one file unit is an inch.
    unit = 100.0 / 2.54
    d = base('unit_scale_2_54', fps=30, start=0, stop=20, unit=unit, unit_scale=2.54)
    return bend(d, list(range(0, 21)), unit=unit)


def geometric_transform():
    # The mesh's model carries a geometric transform (applied to its geometry only, not
    # inherited) and a translation of its own; the skin's Transform is the model's global.
    d = base('geometric_transform', fps=30, start=0, stop=20)
    m = d['models'][0]
    m['props'] = {'T': (0.1, 0.0, 0.0), 'GT': (0.0, 0.05, 0.1), 'GR': (0.0, 30.0, 0.0), 'GS': (1.0, 1.0, 1.0)}
    return bend(d, list(range(0, 21)))


def interpolation():
    # Sparse keys with each interpolation: constant (held until the next key), linear, and cubic
    # from the file's tangents (user slopes in degrees per second, unbroken: a key's left slope
    # is the previous key's NextLeftSlope and equals its own RightSlope).
    fps = 24
    d = base('interpolation', fps=fps, start=0, stop=24)
    frames = [0, 6, 12, 20, 24]
    t = [ktime(f, fps) for f in frames]
    d['curves'] += [
        {'model': 'Mid', 'prop': 'Lcl Rotation', 'axis': 2, 'times': t, 'values': [0.0, 30.0, -10.0, 40.0, 40.0],
         'interp': ['constant', 'linear', 'cubic', 'cubic', 'linear'],
         'slopes': [(0, 0), (0, 0), (120.0, -60.0), (-60.0, 0.0), (0, 0)]},
        {'model': 'Tip', 'prop': 'Lcl Rotation', 'axis': 0, 'times': t, 'values': [0.0, 25.0, -20.0, -5.0, 10.0],
         'interp': 'cubic', 'slopes': [(200.0, 50.0), (50.0, -100.0), (-100.0, 80.0), (80.0, 0.0), (0.0, 0.0)]},
        {'model': 'Root', 'prop': 'Lcl Translation', 'axis': 0, 'times': t, 'values': [0.0, 0.1, 0.3, 0.2, -0.1],
         'interp': ['linear', 'constant', 'constant', 'linear', 'linear']},
    ]
    d['blender_known_wrong'] = ('Blender 3.4.1 imports every key as linear: constant and cubic keys and '
                                'their tangents are ignored between keys')
    # All three curves share their key frames; at those the interpolation does not matter, and
    # Blender checks them.
    d['blender_variant'] = {'key_frames_only': True}
    return d


def version_7500():
    # FBX 7.5: the record headers' offsets and counts are 64-bit (7.4 and earlier: 32-bit).
    d = base('version_7500', fps=30, start=0, stop=20)
    d['version'] = 7500
    return bend(d, list(range(0, 21)))


def custom_frame_rate():
    # TimeMode eCustom (14) with CustomFrameRate 12: frame n is KTime n / 12 s.
    d = base('custom_frame_rate', fps=12, start=0, stop=24)
    d['custom_fps'] = 12.0
    return bend(d, list(range(0, 25)))


CASES = {f.__name__: f for f in (take_start_50, key_past_stop, keys_outside_take, constraint_connection,
                                  coinciding_control_points, pivots_prepost, rotation_orders,
                                  inbetween_shapes, units_cm, unit_scale_2_54, geometric_transform, interpolation,
                                  version_7500, custom_frame_rate)}


# ----- cases of issue 40, where Blender 3.4.1 is wrong on all: numpy's oracle is checked against
# ufbx instead (make_oracles_numpy_ufbx.py) -------------------------------------------------------

def scale_under_rotation(d, frames, joint_s, joint_r):
    """Keys on every frame: each joint of joint_s a non-uniform Lcl Scaling from its static value
    (s0) to s1 and back towards it; each joint of joint_r rotations about two axes, so that the
    scales act on rotated frames (where the inherit types differ)."""
    fps = d['fps']
    n = float(frames[-1] - frames[0])
    props = {m['name']: m.get('props', {}) for m in d['models']}
    for j, s1 in joint_s.items():
        s0 = props[j].get('S', (1, 1, 1))
        for a in range(3):
            if s1[a] != s0[a]:
                d['curves'].append(keyed(j, 'Lcl Scaling', a, frames, lambda f, a=a, s0=s0, s1=s1: s0[a] + (
                    s1[a] - s0[a]) * math.sin(0.5 * math.pi * 1.3 * (f - frames[0]) / n), fps))
    for j, (rz, rx) in joint_r.items():
        r0 = props[j].get('R', (0, 0, 0))
        d['curves'] += [
            keyed(j, 'Lcl Rotation', 2, frames, lambda f, rz=rz, r0=r0: r0[2] + rz * (f - frames[0]) / n, fps),
            keyed(j, 'Lcl Rotation', 0, frames,
                  lambda f, rx=rx, r0=r0: r0[0] + rx * math.sin(2 * math.pi * (f - frames[0]) / n), fps),
        ]
    return d


def inherit_chain(case, inherit, root_s, mid_s):
    """Root (static non-uniform scale, keyed to another) over Mid and Tip of InheritType
    `inherit`; Mid's own scale keyed too (it is what Tip's translation inherits)."""
    d = base(case, fps=30, start=0, stop=24)
    m = {x['name']: x for x in d['models']}
    m['Root']['props'].update({'S': root_s, 'R': (0, 0, 10.0)})
    m['Mid']['props'].update({'inherit': inherit, 'S': mid_s})
    m['Tip']['props'].update({'inherit': inherit})
    frames = list(range(0, 25))
    scale_under_rotation(d, frames, {'Root': (1.5, 0.7, 1.3), 'Mid': (0.8, 1.3, 1.1)},
                         {'Root': (-15.0, 10.0), 'Mid': (50.0, 25.0), 'Tip': (40.0, -20.0)})
    d['feature'] = 'inherit'
    return d


def inherit_rrs():
    # InheritType 2 (Rrs), Maya's segment scale compensate: Mid and Tip ignore their parent's
    # scale but translate by it.
    return inherit_chain('inherit_rrs', 2, (1.2, 0.9, 1.1), (1.0, 1.1, 0.95))


def inherit_rrss():
    # InheritType 0 (RrSs): the parent's scale applies componentwise on the child's own axes,
    # after its rotation (no shear).
    return inherit_chain('inherit_rrss', 0, (1.2, 0.9, 1.1), (1.0, 1.1, 0.95))


def inherit_nested():
    # Six joints: Root (RSrs, top level) > J1 Rrs > J2 Rrs > J3 RrSs > J4 Rrs > J5 RSrs. J2 is a
    # compensated joint under a compensated joint; J3's scale source is J2, J4's is J3's (J2);
    # J5 is a plain product under a compensated joint. Scales keyed on Root, J2 and J3.
    fps = 30
    d = base('inherit_nested', fps=fps, start=0, stop=24)
    verts, polys = tube(8, 6, 3.0, 0.25)
    inherit = [1, 2, 2, 0, 2, 1]
    static_s = [(1.2, 0.85, 1.1), (1.0, 1.0, 1.0), (0.9, 1.15, 1.05), (1.1, 0.9, 1.0), (1.0, 1.0, 1.0),
                (1.05, 1.0, 0.9)]
    names = ['Root', 'J1', 'J2', 'J3', 'J4', 'J5']
    ys = [0.5 * i for i in range(6)]
    d['models'] = [{'name': 'Body', 'kind': 'Mesh'}]
    for i, n in enumerate(names):
        d['models'].append({'name': n, 'kind': 'LimbNode', 'parent': names[i - 1] if i else None,
                            'props': {'T': (0.02 * i, 0.5 if i else 0.0, 0), 'S': static_s[i],
                                      'R': (0, 5.0 * i, 0), 'inherit': inherit[i]}})
    d['mesh'] = {'name': 'Body', 'model': 'Body', 'vertices': verts, 'polygons': polys,
                 'skin': weights_by_height(verts, ys, names)}
    frames = list(range(0, 25))
    scale_under_rotation(d, frames, {'Root': (1.4, 0.7, 1.25), 'J2': (0.75, 1.35, 1.0), 'J3': (1.3, 1.1, 0.7)},
                         {n: (12.0 + 4 * i, 8.0 - 3 * i) for i, n in enumerate(names)})
    d['feature'] = 'inherit'
    return d


def inbetween_case(case, fulls, percent_from, percent_to, frames_n):
    """One channel "Morph" with a shape per FullWeights entry, in the order given, each moving the
    top rings its own way; DeformPercent keyed linearly from percent_from to percent_to."""
    d = base(case, fps=30, start=0, stop=frames_n)
    bend(d, list(range(0, frames_n + 1)))
    verts = d['mesh']['vertices']
    idx = [i for i, v in enumerate(verts) if v[1] > 1.0]
    moves = [lambda v: [0.6 * v[0], 0.2, 0.6 * v[2]],          # out and up
             lambda v: [-0.5 * v[0], -0.1, -0.5 * v[2]],       # in and down
             lambda v: [-0.8 * v[2], 0.05, 0.8 * v[0]],        # round the axis
             lambda v: [0.3, 0.0, -0.2]]                       # sideways
    shapes = [{'name': 'Morph_%s' % ('m%g' % -f if f < 0 else '%g' % f), 'full': f, 'indexes': idx,
               'deltas': [moves[k](verts[i]) for i in idx]} for k, f in enumerate(fulls)]
    d['mesh']['blendshapes'] = [{'name': 'Shapes', 'channels': [{'name': 'Morph', 'percent': 0.0,
                                                                 'shapes': shapes}]}]
    d['shape_curves'] = [{'channel': 'Morph', 'times': [ktime(0, 30), ktime(frames_n, 30)],
                          'values': [percent_from, percent_to], 'interp': 'linear'}]
    d['feature'] = 'inbetween'
    return d


def inbetween_negative():
    # FullWeights 150, -50, 40 (out of order; one below 0, one above 100): sorted -50, base, 40,
    # 150. DeformPercent -80 .. 200, 10 per frame: below -50 (frames 0-2: extrapolated from the
    # base and -50), -50 .. 0 (3-8), 0 .. 40 (8-12), 40 .. 150 (12-23), past 150 (24-28:
    # extrapolated from 40 and 150).
    return inbetween_case('inbetween_negative', [150.0, -50.0, 40.0], -80.0, 200.0, 28)


def inbetween_negative_only():
    # FullWeights -30, -100 and no positive shape: below -100 extrapolated from -100 and -30,
    # then -100 .. -30, -30 .. base, and above 0 extrapolated from -30 and the base.
    # DeformPercent -150 .. 60, 10 per frame.
    return inbetween_case('inbetween_negative_only', [-30.0, -100.0], -150.0, 60.0, 21)


# FBX TimeMode (FbxTime::EMode) -> frames per second, as the FBX SDK documents them (fbxtime.h; 0
# is eDefaultMode, 30 fps; NTSC 29.97002617, documented in the SDK's older headers, is
# 46186158000 / 1541078334 KTime per frame to ten digits, and 59.94005234 half that frame; the
# newer headers say only "~29.97", "~59.94"). 6 (30) and 11 (24) are the other cases' own.
TIME_MODES = [('time_mode_default', 0, 30.0), ('time_mode_120', 1, 120.0), ('time_mode_100', 2, 100.0),
              ('time_mode_60', 3, 60.0), ('time_mode_50', 4, 50.0), ('time_mode_48', 5, 48.0),
              ('time_mode_30_drop', 7, 30.0), ('time_mode_ntsc_drop', 8, 29.97002617),
              ('time_mode_ntsc_full', 9, 29.97002617), ('time_mode_pal', 10, 25.0), ('time_mode_1000', 12, 1000.0),
              ('time_mode_film', 13, 23.976), ('time_mode_custom', 14, 47.952), ('time_mode_96', 15, 96.0),
              ('time_mode_72', 16, 72.0), ('time_mode_59_94', 17, 59.94005234),
              ('time_mode_missing', None, 24.0)]


def time_mode_case(case, mode, fps):
    # Keys on every frame 0..24 of the file's own rate; a reader taking another rate samples the
    # wrong keys. time_mode_missing has no TimeMode property at all: 24 fps, as ufbx reads it
    # (ufbx's default TimeMode is eFrames24). The oracle holds every third frame.
    d = base(case, fps=fps, start=0, stop=24)
    d['time_mode'] = mode
    if mode == 14:
        d['custom_fps'] = fps
    bend(d, list(range(0, 25)))
    d['frames'] = list(range(0, 25, 3))
    d['feature'] = 'time_mode'
    return d


def weighted_tangents():
    # Cubic keys with user tangents and tangent weights other than 1/3 (flags cubic | user |
    # weighted right | weighted next left, weights in KeyAttrDataFloat's third value). Some keys
    # weight one side only (the other keeps 1/3); Tip's first segment has weights summing over 1
    # (0.7 + 0.6) whose time curve still rises; segments of unequal length.
    fps = 24
    d = base('weighted_tangents', fps=fps, start=0, stop=24)
    t = lambda frames: [ktime(f, fps) for f in frames]
    d['curves'] += [
        {'model': 'Mid', 'prop': 'Lcl Rotation', 'axis': 2, 'times': t([0, 8, 16, 24]),
         'values': [0.0, 50.0, -10.0, 30.0], 'interp': 'cubic',
         'slopes': [(300.0, 60.0), (60.0, -150.0), (-150.0, 0.0), (0.0, 0.0)],
         'weights': [(0.6, 0.2), (0.15, 0.7), (0.5, None), (None, None)]},
        {'model': 'Tip', 'prop': 'Lcl Rotation', 'axis': 0, 'times': t([0, 6, 14, 24]),
         'values': [0.0, 30.0, -20.0, 10.0], 'interp': 'cubic',
         'slopes': [(200.0, 40.0), (40.0, -90.0), (-90.0, 60.0), (0.0, 0.0)],
         'weights': [(0.7, 0.6), (None, 0.25), (0.4, 0.4), (None, None)]},
        {'model': 'Root', 'prop': 'Lcl Translation', 'axis': 0, 'times': t([0, 12, 24]),
         'values': [0.0, 0.2, -0.1], 'interp': 'cubic',
         'slopes': [(1.5, -0.5), (-0.5, 0.8), (0.0, 0.0)],
         'weights': [(0.45, 0.3), (0.25, 0.55), (None, None)]},
    ]
    d['feature'] = 'tangent_weights'
    return d


BLENDER_CREATOR = 'Blender (stable FBX IO) - 4.4.1 - 5.12.7'


def blender_shape_weights():
    # Blender's exporter: a channel of one shape whose FullWeights holds the shape key's vertex
    # group weight (percent) of each of the shape's offsets; the creator string says so.
    d = base('blender_shape_weights', fps=30, start=0, stop=20)
    d['creator'] = BLENDER_CREATOR
    bend(d, list(range(0, 21)))
    verts = d['mesh']['vertices']
    idx = [i for i, v in enumerate(verts) if v[1] > 1.0]
    d['mesh']['blendshapes'] = [{'name': 'Body', 'channels': [{
        'name': 'Key', 'percent': 0.0,
        'full_weights': [25.0 * (k % 5) for k in range(len(idx))],  # 0, 25, 50, 75, 100, 0, ...
        'shapes': [{'name': 'Key', 'full': 100.0, 'indexes': idx,
                    'deltas': [[0.5 * verts[i][0], 0.25, 0.5 * verts[i][2]] for i in idx]}]}]}]
    d['shape_curves'] = [{'channel': 'Key', 'times': [ktime(0, 30), ktime(20, 30)], 'values': [0.0, 120.0],
                          'interp': 'linear'}]
    d['feature'] = 'blender_weights'
    return d


UFBX_CASES = {f.__name__: f for f in (inherit_rrs, inherit_rrss, inherit_nested, inbetween_negative,
                                       inbetween_negative_only, weighted_tangents, blender_shape_weights)}
for _name, _mode, _fps in TIME_MODES:
    UFBX_CASES[_name] = lambda _n=_name, _m=_mode, _f=_fps: time_mode_case(_n, _m, _f)
ALL_CASES = dict(CASES, **UFBX_CASES)


def without_feature(desc):
    """(what changed, the description, the rate frames are sampled at) of a case of UFBX_CASES
    as a reader without the case's feature reads it: how far the oracle is from that reading
    shows what the case catches."""
    d = copy.deepcopy(desc)
    feature = d['feature']
    if feature == 'inherit':
        for m in d['models']:
            m.get('props', {}).pop('inherit', None)
        return 'every InheritType read as RSrs (1)', d, None
    if feature == 'inbetween':
        for bs in d['mesh']['blendshapes']:
            for ch in bs['channels']:
                ch['shapes'] = [max(ch['shapes'], key=lambda sh: sh['full'])]
        return 'only the channel\'s shape of the largest FullWeights f, at w / f', d, None
    if feature == 'time_mode':
        wrong = 30.0 if d['fps'] == 24.0 else 24.0
        return 'frames sampled at %g fps' % wrong, d, wrong
    if feature == 'tangent_weights':
        for c in d['curves']:
            c.pop('weights', None)
        return 'tangent weights read as 1/3 (Hermite)', d, None
    if feature == 'blender_weights':
        for bs in d['mesh']['blendshapes']:
            for ch in bs['channels']:
                ch.pop('full_weights')
        return 'per-vertex FullWeights ignored (every offset at full weight)', d, None
    raise ValueError(feature)


def variant(desc):
    """The Blender cross-check variant of a case where Blender is known wrong, or None."""
    v = desc.get('blender_variant')
    if not v:
        return None
    d = copy.deepcopy(desc)
    for m in d['models']:
        for k in v.get('drop_props', []):
            m.get('props', {}).pop(k, None)
    if v.get('only_last_shape'):
        for bs in d['mesh']['blendshapes']:
            for ch in bs['channels']:
                ch['shapes'] = ch['shapes'][-1:]
    if v.get('key_frames_only'):
        keys = {c_t * d['fps'] / 46186158000.0 for c in d['curves'] + d.get('shape_curves', []) for c_t in c['times']}
        d['frames'] = sorted(int(round(k)) for k in keys if abs(k - round(k)) < 1e-9)
    d.pop('blender_variant')
    d.pop('blender_known_wrong', None)
    return d


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..', 'tests',
                                                              'fbx_cases')
    names = sys.argv[2:] or list(ALL_CASES)
    os.makedirs(out, exist_ok=True)
    for name in names:
        size = write_scene(ALL_CASES[name](), os.path.join(out, name + '.fbx'))
        print('%-28s %7d bytes' % (name + '.fbx', size))


if __name__ == '__main__':
    main()
