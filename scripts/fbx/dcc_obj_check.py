"""How far rigscope's deformed control points are from a DCC's own OBJ exports of the same FBX
(ufbx's data folder pairs NAME_VVVV_{ascii,binary}.fbx with NAME_F.obj, the DCC's mesh at frame F;
corpus/ufbx_dcc holds nine of them). Used to find when a tangent weight counts
(docs/fbx_notes.md, "Curves"): run it with two rigscope builds over a folder and compare.

    /usr/bin/python3 scripts/fbx/dcc_obj_check.py build/rigscope FILE.fbx [FILE.fbx...]

Frames are the OBJ's numbers at the file's own rate (rigscope takes it from TimeMode). Pairing is
nearest point (every OBJ vertex to the nearest deformed control point: OBJ exporters reorder
vertices), so it is a lower bound where vertices coincide. Positions are compared in the file's
units: rigscope's metres are divided by the unit scale nearest to the size ratio. OBJs with
ufbx's `ufbx:position_scale=S` header are scaled by S; other ufbx headers (transform_skin, ...)
are not applied, so files that need them show large figures that are not the reader's.
Prints per file the worst distance as a fraction of the OBJ's bounding-box diagonal, and per frame.
"""
import csv
import glob
import io
import os
import re
import subprocess
import sys

import numpy as np
from scipy.spatial import cKDTree


def objs_of(fbx):
    base = re.sub(r'_[0-9]{4}_(ascii|binary).*', '', os.path.basename(fbx))
    out = []
    for p in glob.glob(os.path.join(os.path.dirname(fbx), base + '_*.obj')):
        m = re.match(re.escape(base) + r'_([0-9]+)\.obj$', os.path.basename(p))
        if m:
            out.append((int(m.group(1)), p))
    return sorted(out)


def read_obj(path):
    v, scale = [], 1.0
    for line in open(path, errors='replace'):
        if line.startswith('v '):
            v.append([float(x) for x in line.split()[1:4]])
        elif line.startswith('# ufbx:position_scale='):
            scale = float(line.split('=')[1])
    return np.array(v) * scale


def check(rigscope, fbx):
    objs = objs_of(fbx)
    if not objs:
        return '%-50s no OBJs' % os.path.basename(fbx)
    run = subprocess.run([rigscope, 'deform', fbx, '--frames', ','.join(str(f) for f, _ in objs), '-o', '-'],
                         capture_output=True, text=True)
    if run.returncode:
        return '%-50s %s' % (os.path.basename(fbx), run.stderr.strip().splitlines()[-1])
    rows = list(csv.DictReader(io.StringIO(run.stdout)))
    worst, per = 0.0, []
    for frame, path in objs:
        obj = read_obj(path)
        mine = np.array([[float(r['x']), float(r['y']), float(r['z'])] for r in rows if int(r['frame']) == frame])
        diag = np.linalg.norm(obj.max(0) - obj.min(0))
        ratio = np.linalg.norm(mine.max(0) - mine.min(0)) / diag
        unit = min([1, 0.01, 0.0254, 0.1, 10, 100, 0.001, 1000], key=lambda c: abs(np.log(ratio / c)))
        d = cKDTree(mine / unit).query(obj)[0].max() / diag
        worst = max(worst, d)
        per.append('%d:%.2g' % (frame, d))
    return '%-50s worst %.3g of the diagonal  [%s]' % (os.path.basename(fbx), worst, ' '.join(per))


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    for fbx in argv[2:]:
        print(check(argv[1], fbx))


if __name__ == '__main__':
    main(sys.argv)
