#!/usr/bin/env python3
"""Makes tests/fbx_dq/<case>.oracle.json for each case of make_dq_cases.py (all, or those named)
from two independent evaluations of the committed .fbx: oracle_dq_numpy.py on the case's
description, and Blender 3.4.1's import with the Armature modifier's Preserve Volume turned on
(oracle_blender.py, RIGSCOPE_PRESERVE_VOLUME=1; the importer ignores SkinningType). Both sets
of positions are stored; the test compares rigscope with each. A case where the two disagree by
more than TOLERANCE of the diagonal is an error: nothing is written. Blend cases have numpy only.

  /usr/bin/python3 scripts/fbx/make_dq_cases.py && /usr/bin/python3 scripts/fbx/make_dq_oracles.py
"""
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_dq_cases  # noqa: E402
import oracle_dq_numpy  # noqa: E402
from make_oracles import blender_eval, diagonal, difference, rounded  # noqa: E402

TOLERANCE = 1e-5  # of the rest pose's bounding-box diagonal
CASES_DIR = os.path.join(HERE, '..', '..', 'tests', 'fbx_dq')


def make(name, scratch):
    desc = make_dq_cases.CASES[name]()
    path = os.path.join(CASES_DIR, name + '.fbx')
    ours = oracle_dq_numpy.evaluate(desc)
    diag = diagonal(ours['rest'])
    checked = {'numpy': 'scripts/fbx/oracle_dq_numpy.py on the case description',
               'tolerance_of_diagonal': TOLERANCE, 'diagonal_m': round(diag, 9)}
    oracles = {'numpy': {'rest': rounded(ours['rest']),
                         'frames': [{'frame': f, 'positions': rounded(p)} for f, p in ours['frames']]}}
    if name in make_dq_cases.NUMPY_ONLY:
        checked['blender'] = 'not run: ' + make_dq_cases.NUMPY_ONLY[name]
    else:
        os.environ['RIGSCOPE_PRESERVE_VOLUME'] = '1'
        blender, err = blender_eval(path, desc['frames'], scratch)
        diff = None
        if blender:
            diff, err = difference(blender, ours)
        if err or diff > TOLERANCE * diag:
            raise SystemExit('%s: Blender and numpy disagree: %s of diagonal %s (%s)' % (name, diff, diag, err))
        checked.update({'blender': 'Blender 3.4.1 FBX import, anim_offset=0, Armature modifier Preserve Volume on, '
                                   'axes converted back to the file\'s',
                        'blender_vs_numpy_max_m': diff, 'blender_vs_numpy_of_diagonal': diff / diag})
        mesh = blender['meshes'][0]
        oracles['blender'] = {'rest': rounded(mesh['rest']),
                              'frames': [{'frame': fr['frame'], 'positions': rounded(fr['positions'])} for fr in mesh['frames']]}
    oracle = {'case': name, 'fps': desc['fps'], 'skinning_type': desc['mesh']['skinning_type'], 'checked_by': checked,
              'mesh': desc['mesh']['name'], 'control_points': len(ours['rest']), 'oracles': oracles}
    with open(os.path.join(CASES_DIR, name + '.oracle.json'), 'w') as f:
        json.dump(oracle, f, separators=(',', ':'))
        f.write('\n')
    print('%-10s %-15s blender-numpy %s' % (name, desc['mesh']['skinning_type'],
                                            '%.3g of diagonal' % checked['blender_vs_numpy_of_diagonal']
                                            if 'blender_vs_numpy_of_diagonal' in checked else 'n/a'))


def main():
    names = sys.argv[1:] or list(make_dq_cases.CASES)
    with tempfile.TemporaryDirectory() as scratch:
        for name in names:
            make(name, scratch)


if __name__ == '__main__':
    main()
