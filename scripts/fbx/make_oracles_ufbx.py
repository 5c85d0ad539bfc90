"""Oracles for the crafted FBX 6.1 cases (tests/fbx_cases_v6/) from ufbx, an FBX reader that is
not rigscope's, built OUTSIDE the project (its code never enters it):

    git clone https://github.com/ufbx/ufbx /work/oracles/ufbx     # MIT; tested at fcc5d6b
    gcc -O1 -I/work/oracles/ufbx -o /work/oracles/probe/ufbx_probe scripts/fbx/ufbx_probe.c /work/oracles/ufbx/ufbx.c -lm
    python3 scripts/fbx/fbx_write_v6.py                          # the .v6.fbx / .v6.ascii.fbx files
    UFBX_PROBE=/work/oracles/probe/ufbx_probe python3 scripts/fbx/make_oracles_ufbx.py [CASE...]

scripts/fbx/ufbx_probe.c (this project's, compiled against ufbx outside it) loads a file with ufbx_load_file (no
axis or unit conversion), evaluates each frame of the first take with ufbx_evaluate_scene
(evaluate_skinning), and prints per mesh the control points' world positions in metres.

Cross-check: each case's 7.x twin has an oracle of its own (tests/fbx_cases/CASE.oracle.json,
Blender 3.4.1 and numpy, from the same description); the ufbx positions of the 6.1 file are
compared to it at every frame both hold, and the largest difference (as a fraction of the mesh's
diagonal) is written into "checked_by". A case where they differ by more than 1e-5 of the
diagonal is not written.
"""
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fbx_write_v6  # noqa: E402
import make_cases  # noqa: E402

ROOT = os.path.join(HERE, '..', '..')


def r9(v):
    return float('%.10g' % v)


def main(argv):
    probe = os.environ.get('UFBX_PROBE', '/work/oracles/probe/ufbx_probe')
    out_dir = os.path.join(ROOT, 'tests', 'fbx_cases_v6')
    # shape_channel has no ufbx oracle: ufbx 0.23 reads the take's curve of the shape's weight onto
    # the mesh Model's property (100 at frame 20, checked with ufbx_find_prop on the evaluated
    # scene) but ufbx_evaluate_scene does not carry it to the blend channel, whose weight stays 0.
    names = argv[1:] or [n for n in fbx_write_v6.V6_CASES if n != 'shape_channel']
    for name in names:
        twin_name = 'inbetween_shapes' if name == 'shape_channel' else name
        desc = make_cases.CASES[twin_name]()
        frames = desc['frames']
        path = os.path.join(out_dir, name + '.v6.fbx')
        got = json.loads(subprocess.run([probe, path, str(min(frames)), str(max(frames))], check=True,
                                        capture_output=True, text=True).stdout)
        twin = json.load(open(os.path.join(ROOT, 'tests', 'fbx_cases', twin_name + '.oracle.json')))
        if name == 'shape_channel':
            twin = None  # the 7.x twin holds two in-between shapes; this case holds only the last
        meshes = []
        worst = 0.0
        for m in got['rest']:
            pts = m['positions']
            lo = [min(p[i] for p in pts) for i in range(3)]
            hi = [max(p[i] for p in pts) for i in range(3)]
            diagonal = math.dist(lo, hi)
            mesh = {'name': m['name'], 'control_points': len(pts), 'rest': [[r9(x) for x in p] for p in pts], 'frames': []}
            for fr in got['frames']:
                if fr['frame'] not in frames:
                    continue
                pos = next(x for x in fr['meshes'] if x['name'] == m['name'])['positions']
                mesh['frames'].append({'frame': fr['frame'], 'positions': [[r9(x) for x in p] for p in pos]})
                if twin:
                    tm = next(x for x in twin['meshes'] if x['name'] == m['name'])
                    tf = next((x for x in tm['frames'] if x['frame'] == fr['frame']), None)
                    if tf:
                        worst = max(worst, max(math.dist(a, b) for a, b in zip(pos, tf['positions'])) / diagonal)
            meshes.append(mesh)
        checked = {'diagonal_m': r9(diagonal), 'tolerance_of_diagonal': 1e-5}
        if twin:
            checked['twin_7x_oracle'] = 'tests/fbx_cases/%s.oracle.json (%s)' % (twin_name, twin['generator'])
            checked['ufbx_vs_twin_7x_oracle_of_diagonal'] = worst
            if worst > 1e-5:
                print('%s: ufbx and the 7.x oracle differ by %.3g of the diagonal: not written' % (name, worst))
                continue
        oracle = {'case': name, 'fps': got['fps'], 'version': got['version'],
                  'generator': got['generator'] + ' (ufbx_evaluate_scene, evaluate_skinning; scripts/fbx/make_oracles_ufbx.py)',
                  'checked_by': checked, 'meshes': meshes}
        with open(os.path.join(out_dir, name + '.ufbx.json'), 'w') as f:
            json.dump(oracle, f, separators=(',', ':'))
        print('%-28s %d frames, ufbx vs 7.x oracle %s of the diagonal' % (name, len(meshes[0]['frames']),
                                                                        '%.2g' % worst if twin else '(no twin)'))


if __name__ == '__main__':
    main(sys.argv)
