#!/usr/bin/env python3
"""Writes the dual-quaternion and blended skinning cases into tests/fbx_dq/ (or the folder given
as the first argument): make_cases.py's tube and chain with the Skin's SkinningType set.

- dq_twist: a 3 m tube of 11 rings on Root-Mid-Tip, Mid twisting about the bone (Y) up to 150
  degrees and Tip back: linear skinning collapses the tube there (candy wrapper), DQ does not;
- dq_bend: make_cases.bend's sway, bends and twist on the 2 m tube;
- dq_scale: dq_bend plus Mid's own non-uniform scale keyed 1 -> (1.5, 0.7, 1.2), which Tip
  inherits under its rotation (a sheared world matrix): the scale path and its rigid frame;
- dq_blend: SkinningType Blend, blend weights a gradient 0 -> 1 up the tube, on dq_bend's motion
  (numpy only: Blender has no per-vertex blend).
Pre/PostRotation stay out: Blender's FBX importer gets them wrong (make_cases.pivots_prepost).
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_cases  # noqa: E402
from fbx_write import write_scene  # noqa: E402


def dq_twist():
    d = make_cases.base('dq_twist')
    verts, polys = make_cases.tube(11, 8, 3.0, 0.3)
    d['models'][2]['props']['T'] = (0, 1.2, 0)
    d['models'][3]['props']['T'] = (0, 1.2, 0)
    d['mesh'].update(vertices=verts, polygons=polys, skinning_type='DualQuaternion',
                     skin=make_cases.weights_by_height(verts, [0, 1.2, 2.4], ['Root', 'Mid', 'Tip']))
    frames = list(range(0, 25))
    d['curves'] += [
        make_cases.keyed('Mid', 'Lcl Rotation', 1, frames, lambda f: 150.0 * f / 24.0, d['fps']),
        make_cases.keyed('Tip', 'Lcl Rotation', 1, frames, lambda f: -60.0 * f / 24.0, d['fps']),
        make_cases.keyed('Root', 'Lcl Rotation', 2, frames, lambda f: 10.0 * math.sin(math.pi * f / 24.0), d['fps']),
    ]
    return d


def dq_bend():
    d = make_cases.base('dq_bend')
    d['mesh']['skinning_type'] = 'DualQuaternion'
    return make_cases.bend(d, list(range(0, 25)))


def dq_scale():
    d = dq_bend()
    d['case'] = 'dq_scale'
    d['take']['name'] = 'dq_scale'
    frames = list(range(0, 25))
    for axis, end in enumerate((1.5, 0.7, 1.2)):
        d['curves'].append(make_cases.keyed('Mid', 'Lcl Scaling', axis, frames,
                                            lambda f, e=end: 1.0 + (e - 1.0) * f / 24.0, d['fps']))
    return d


def dq_blend():
    d = dq_bend()
    d['case'] = 'dq_blend'
    d['take']['name'] = 'dq_blend'
    d['mesh']['skinning_type'] = 'Blend'
    # A gradient up the tube, every control point listed except the bottom ring (b = 0 there by
    # omission, as the SDK reads an unlisted point).
    top = max(v[1] for v in d['mesh']['vertices'])
    d['mesh']['blend_weights'] = [(i, v[1] / top) for i, v in enumerate(d['mesh']['vertices']) if v[1] > 0]
    return d


CASES = {f.__name__: f for f in (dq_twist, dq_bend, dq_scale, dq_blend)}
NUMPY_ONLY = {'dq_blend': 'Blender has no per-vertex blend of linear and dual-quaternion skinning'}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..', 'tests', 'fbx_dq')
    names = sys.argv[2:] or list(CASES)
    os.makedirs(out, exist_ok=True)
    for name in names:
        size = write_scene(CASES[name](), os.path.join(out, name + '.fbx'))
        print('%-14s %7d bytes' % (name + '.fbx', size))


if __name__ == '__main__':
    main()
