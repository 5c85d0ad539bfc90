#!/usr/bin/env python3
"""Makes tests/fbx_cases/<case>.oracle.json for each case (all, or those named) from two
independent evaluations: Blender 3.4.1's import of the committed .fbx (oracle_blender.py) and
oracle_numpy.py on the case's description. Needs numpy and Blender (Debian: blender,
python3-numpy); the test suite needs neither, only the committed JSON.

The oracle's positions are Blender's where the two agree within TOLERANCE of the mesh's
diagonal; where Blender is known wrong (the case says why) they are numpy's, and the JSON records
Blender's difference, plus the difference on a variant of the case that avoids what Blender gets
wrong. A case where the two disagree without a known reason is an error: nothing is written.
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_cases  # noqa: E402
import oracle_numpy  # noqa: E402
from fbx_write import write_scene  # noqa: E402

TOLERANCE = 1e-5  # of the rest pose's bounding-box diagonal
CASES_DIR = os.path.join(HERE, '..', '..', 'tests', 'fbx_cases')


def blender_eval(path, frames, scratch):
    out = os.path.join(scratch, os.path.basename(path) + '.blender.json')
    cmd = [os.environ.get('BLENDER', 'blender'), '-b', '--factory-startup', '--python',
           os.path.join(HERE, 'oracle_blender.py'), '--', path, out, json.dumps(frames)]
    run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if run.returncode != 0 or not os.path.exists(out):
        tail = [l for l in run.stdout.splitlines() if l.strip()][-3:]
        return None, 'Blender could not import it: ' + ' | '.join(tail)
    data = json.load(open(out))
    return data, None


def difference(blender, numpy_result):
    mesh = blender['meshes'][0]
    if mesh['control_points'] != len(numpy_result['rest']):
        return None, 'Blender made %d vertices, the file has %d control points' % (
            mesh['control_points'], len(numpy_result['rest']))
    worst = float(np.abs(np.asarray(mesh['rest']) - numpy_result['rest']).max())
    ours = dict(numpy_result['frames'])
    for fr in mesh['frames']:
        worst = max(worst, float(np.abs(np.asarray(fr['positions']) - ours[fr['frame']]).max()))
    return worst, None


def diagonal(points):
    p = np.asarray(points)
    return float(np.linalg.norm(p.max(axis=0) - p.min(axis=0)))


def rounded(a):
    return [[round(float(x), 10) for x in row] for row in a]


def make(name, scratch):
    desc = make_cases.CASES[name]()
    path = os.path.join(CASES_DIR, name + '.fbx')
    ours = oracle_numpy.evaluate(desc)
    diag = diagonal(ours['rest'])
    blender, err = blender_eval(path, desc['frames'], scratch)
    diff = None
    if blender:
        diff, err = difference(blender, ours)
    checked = {'numpy': 'scripts/fbx/oracle_numpy.py on the case description',
               'blender': 'Blender 3.4.1 FBX import, anim_offset=0, axes converted back to the file\'s',
               'tolerance_of_diagonal': TOLERANCE, 'diagonal_m': round(diag, 9),
               'blender_vs_numpy_max_m': diff, 'blender_vs_numpy_of_diagonal': None if diff is None else diff / diag}
    if err:
        checked['blender_error'] = err
    known = desc.get('blender_known_wrong')
    if known:
        checked['blender_known_wrong'] = known
        var = make_cases.variant(desc)
        if var:
            vpath = os.path.join(scratch, name + '_variant.fbx')
            write_scene(var, vpath)
            vb, verr = blender_eval(vpath, var['frames'], scratch)
            vdiff, verr = difference(vb, oracle_numpy.evaluate(var)) if vb else (None, verr)
            if verr or vdiff > TOLERANCE * diag:
                raise SystemExit('%s: variant %s: Blender and numpy disagree (%s, %s)' % (
                    name, desc['blender_variant'], vdiff, verr))
            checked['variant'] = {'change': desc['blender_variant'], 'blender_vs_numpy_max_m': vdiff,
                                  'blender_vs_numpy_of_diagonal': vdiff / diag}
        generator = 'numpy (scripts/fbx/oracle_numpy.py): Blender 3.4.1 is known wrong here'
        rest, frames = ours['rest'], ours['frames']
    else:
        if err or diff > TOLERANCE * diag:
            raise SystemExit('%s: Blender and numpy disagree: %s of diagonal %s (%s)' % (name, diff, diag, err))
        generator = 'blender 3.4.1 (scripts/fbx/oracle_blender.py)'
        mesh = blender['meshes'][0]
        rest = mesh['rest']
        frames = [(fr['frame'], fr['positions']) for fr in mesh['frames']]
    oracle = {'case': name, 'fps': desc['fps'], 'generator': generator, 'checked_by': checked,
              'meshes': [{'name': desc['mesh']['name'], 'control_points': len(ours['rest']), 'rest': rounded(rest),
                          'frames': [{'frame': f, 'positions': rounded(p)} for f, p in frames]}]}
    with open(os.path.join(CASES_DIR, name + '.oracle.json'), 'w') as f:
        json.dump(oracle, f, separators=(',', ':'))
        f.write('\n')
    print('%-26s %-8s blender-numpy %.3g m (%.3g of diagonal)%s' % (
        name, generator.split()[0], diff if diff is not None else float('nan'),
        diff / diag if diff is not None else float('nan'),
        '; variant %.3g of diagonal' % checked['variant']['blender_vs_numpy_of_diagonal'] if 'variant' in checked else
        (' [' + err + ']' if err else '')))


def main():
    names = sys.argv[1:] or list(make_cases.CASES)
    with tempfile.TemporaryDirectory() as scratch:
        for name in names:
            make(name, scratch)


if __name__ == '__main__':
    main()
