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
    names = sys.argv[2:] or list(CASES)
    os.makedirs(out, exist_ok=True)
    for name in names:
        size = write_scene(CASES[name](), os.path.join(out, name + '.fbx'))
        print('%-28s %7d bytes' % (name + '.fbx', size))


if __name__ == '__main__':
    main()
