#!/usr/bin/env python3
"""Oracles of issue 40's crafted cases (make_cases.UFBX_CASES: inherit types, in-between and
Blender shapes, time modes, weighted tangents), where Blender 3.4.1 is wrong on all of them, so
the second computation is ufbx instead of Blender:

    python3 scripts/fbx/make_cases.py                                   # the .fbx files
    UFBX_PROBE=.../ufbx_probe /usr/bin/python3 scripts/fbx/make_oracles_numpy_ufbx.py [CASE...]

The positions are numpy's (oracle_numpy.py on the case's description, from the FBX SDK's rules;
it never reads the file). ufbx (MIT, 0.23; built OUTSIDE the project with scripts/fbx/ufbx_probe.c
as make_oracles_ufbx.py's docstring says, its code never enters the project) loads the committed
binary .fbx and its ASCII twin (fbx_write_ascii.py, as tests/io/test_fbx_ascii.cpp makes it), and
tests/fbx_cases/<case>.oracle.json is written only where

- ufbx's positions of the binary file and of the ASCII twin are the same, and
- numpy and ufbx agree within TOLERANCE of the rest pose's bounding-box diagonal, at rest and at
  every frame, numpy sampled at the rate ufbx takes.

The oracle's frames are on the case's own timeline at the FBX SDK's rate (make_cases.TIME_MODES);
where ufbx takes another rate (29.97 and 59.94 for the SDK's 29.97002617 and 59.94005234), the
difference that makes at the oracle's own times is recorded beside the like-for-like one.
"checked_by" also holds how far the oracle lies from the reading of a reader without the case's
feature (make_cases.without_feature): what the case catches.
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fbx_write_ascii  # noqa: E402
import make_cases  # noqa: E402
import oracle_numpy  # noqa: E402

TOLERANCE = 1e-6  # of the rest pose's bounding-box diagonal; float32 storage of keys and shapes puts ufbx near 1e-8
CASES_DIR = os.path.join(HERE, '..', '..', 'tests', 'fbx_cases')


def ufbx(probe, path, frames):
    run = subprocess.run([probe, path, str(min(frames)), str(max(frames))], capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit('%s: ufbx_probe failed: %s' % (path, run.stderr.strip()))
    got = json.loads(run.stdout)
    if len(got['rest']) != 1:
        raise SystemExit('%s: ufbx found %d meshes, the case has one' % (path, len(got['rest'])))
    by_frame = {f['frame']: np.asarray(f['meshes'][0]['positions']) for f in got['frames']}
    return got, np.asarray(got['rest'][0]['positions']), [(f, by_frame[f]) for f in frames]


def gap(rest_a, frames_a, rest_b, frames_b):
    """The largest distance between two evaluations, at rest and at each frame (metres)."""
    worst = float(np.linalg.norm(rest_a - rest_b, axis=1).max())
    for (fa, pa), (fb, pb) in zip(frames_a, frames_b):
        assert fa == fb
        worst = max(worst, float(np.linalg.norm(np.asarray(pa) - np.asarray(pb), axis=1).max()))
    return worst


def rounded(a):
    return [[round(float(x), 10) for x in row] for row in a]


def make(name, probe, scratch):
    desc = make_cases.UFBX_CASES[name]()
    path = os.path.join(CASES_DIR, name + '.fbx')
    frames = desc['frames']
    ours = oracle_numpy.evaluate(desc)
    rest = np.asarray(ours['rest'])
    diag = float(np.linalg.norm(rest.max(axis=0) - rest.min(axis=0)))

    got, u_rest, u_frames = ufbx(probe, path, frames)
    ascii_path = os.path.join(scratch, name + '.ascii.fbx')
    with open(path, 'rb') as f, open(ascii_path, 'wb') as out:
        out.write(fbx_write_ascii.to_ascii(f.read()))
    _, a_rest, a_frames = ufbx(probe, ascii_path, frames)
    ascii_gap = gap(u_rest, u_frames, a_rest, a_frames)

    ufbx_fps = got['fps']
    same_rate = abs(ufbx_fps - desc['fps']) <= 1e-9 * desc['fps']
    # ufbx reads a packed tangent weight n as n / 10000, the FBX SDK as n / 9999: numpy is
    # compared with ufbx at ufbx's reading (the same Bezier), and the oracle is numpy at the SDK's.
    oracle_numpy.READ_DIVIDER = 10000.0
    at_ufbx_reading = oracle_numpy.evaluate(desc, sample_fps=None if same_rate else ufbx_fps)
    with_ufbx_weights = oracle_numpy.evaluate(desc)
    oracle_numpy.READ_DIVIDER = 9999.0
    diff = gap(u_rest, u_frames, rest, at_ufbx_reading['frames'])
    divider_gap = gap(rest, ours['frames'], rest, with_ufbx_weights['frames'])
    change, plain, plain_fps = make_cases.without_feature(desc)
    plain_gap = gap(rest, ours['frames'], np.asarray(oracle_numpy.evaluate(plain)['rest']),
                    oracle_numpy.evaluate(plain, sample_fps=plain_fps)['frames'])

    checked = {'numpy': 'scripts/fbx/oracle_numpy.py on the case description',
               'ufbx': got['generator'] + ' (ufbx_evaluate_scene, evaluate_skinning) on the binary file and its '
                       'ASCII twin (scripts/fbx/make_oracles_numpy_ufbx.py)',
               'tolerance_of_diagonal': TOLERANCE, 'diagonal_m': round(diag, 9),
               'ufbx_fps': ufbx_fps,
               'numpy_vs_ufbx_max_m': diff, 'numpy_vs_ufbx_of_diagonal': diff / diag,
               'ufbx_ascii_vs_binary_max_m': ascii_gap,
               'weights_read_as_ufbx_vs_sdk_of_diagonal': divider_gap / diag,
               'without_feature': {'change': change, 'max_m': plain_gap, 'of_diagonal': plain_gap / diag}}
    if not same_rate:
        at_oracle_times = gap(u_rest, u_frames, rest, ours['frames'])
        checked['rate_note'] = ('ufbx takes %.9g fps where the FBX SDK has %.10g; numpy is compared at ufbx\'s '
                                'rate, and at the oracle\'s own times the two differ by the value below' %
                                (ufbx_fps, desc['fps']))
        checked['numpy_vs_ufbx_at_oracle_times_of_diagonal'] = at_oracle_times / diag
    if ascii_gap != 0.0 or diff > TOLERANCE * diag:
        raise SystemExit('%s: not written: numpy vs ufbx %.3g of the diagonal, ufbx ASCII vs binary %.3g m' % (
            name, diff / diag, ascii_gap))
    oracle = {'case': name, 'fps': desc['fps'],
              'generator': 'numpy (scripts/fbx/oracle_numpy.py), checked against ufbx',
              'checked_by': checked,
              'meshes': [{'name': desc['mesh']['name'], 'control_points': len(rest), 'rest': rounded(rest),
                          'frames': [{'frame': f, 'positions': rounded(p)} for f, p in ours['frames']]}]}
    with open(os.path.join(CASES_DIR, name + '.oracle.json'), 'w') as f:
        json.dump(oracle, f, separators=(',', ':'))
        f.write('\n')
    print('%-26s %2d frames  numpy-ufbx %.2g of diagonal%s  without the feature %.3g' % (
        name, len(frames), diff / diag,
        ' (%.2g at the SDK rate)' % checked['numpy_vs_ufbx_at_oracle_times_of_diagonal'] if not same_rate else '',
        plain_gap / diag))


def main(argv):
    probe = os.environ.get('UFBX_PROBE', 'ufbx_probe')
    names = argv[1:] or list(make_cases.UFBX_CASES)
    with tempfile.TemporaryDirectory() as scratch:
        for name in names:
            make(name, probe, scratch)


if __name__ == '__main__':
    main(sys.argv)
