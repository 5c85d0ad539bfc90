"""Alembic UVs for tests/cli/bake/bake_alembic.sh, with Alembic's own library (alembic3d, PyPI;
scripts/setup.sh installs it in build/usd-venv), on both sides of rigscope's reader:

  abc_uv.py write OUT.abc corner|point
    A waving 9 x 9 grid of quads (8 samples at 24 fps) whose uv is per corner and indexed (as
    Blender and Maya write it) or per point, plain; `short`: per point with one value missing.
  abc_uv.py mesh IN.abc OUT.json
    The first mesh's faces and per-corner uv as alembic3d reads them (each face reversed, as the
    DCCs import it), in bake_oracle.py's form ({"faces", "uv", "v_down": false}: Alembic's row 0
    is v = 1).
"""
import json
import math
import sys

import imath
from alembic3d import Abc, AbcCoreAbstract as C, AbcGeom as G


def write(path, kind):
    n = 9
    arch = Abc.OArchive(path)
    ts = arch.addTimeSampling(C.TimeSampling(1 / 24, 1 / 24))
    mesh = G.OPolyMesh(arch.getTop(), "Sheet", ts)
    pts = [((i / (n - 1) - 0.5), 0.0, (j / (n - 1) - 0.5)) for j in range(n) for i in range(n)]
    counts, idx = [], []
    for j in range(n - 1):
        for i in range(n - 1):
            a = j * n + i
            counts.append(4)
            idx += [a, a + n, a + n + 1, a + 1]  # clockwise seen from +y, as Alembic winds
    if kind == "corner":
        # A value per (point, side of a seam): the last column's corners of the first face column
        # get u = 1 + u0 values of their own, so indices and values differ from the points'.
        values, uvi = [], []
        key = {}
        for f in range(len(counts)):
            for c in range(4):
                p = idx[4 * f + c]
                i, j = p % n, p // n
                u, v = 0.05 + 0.9 * i / (n - 1), 0.1 + 0.8 * (j / (n - 1)) ** 1.3
                k = (round(u, 6), round(v, 6))
                if k not in key:
                    key[k] = len(values)
                    values.append(k)
                uvi.append(key[k])
        vals = imath.V2fArray(len(values))
        for i, (u, v) in enumerate(values):
            vals[i] = imath.V2f(u, v)
        ind = imath.UnsignedIntArray(len(uvi))
        for i, k in enumerate(uvi):
            ind[i] = k
        uv = G.OV2fGeomParamSample(vals, ind, G.GeometryScope.kFacevaryingScope)
    else:
        vals = imath.V2fArray(len(pts) - (kind == "short"))
        for p in range(len(vals)):
            i, j = p % n, p // n
            vals[p] = imath.V2f(0.9 - 0.8 * j / (n - 1), 0.05 + 0.9 * i / (n - 1))  # rotated: u along z
        uv = G.OV2fGeomParamSample(vals, G.GeometryScope.kVertexScope)
    ia = imath.IntArray(len(idx))
    for i, x in enumerate(idx):
        ia[i] = x
    ca = imath.IntArray(len(counts))
    for i, x in enumerate(counts):
        ca[i] = x
    for k in range(8):
        p = imath.V3fArray(len(pts))
        for i, (x, y, z) in enumerate(pts):
            p[i] = imath.V3f(x * (1 + 0.04 * k * z), 0.15 * math.sin(4 * x + 0.5 * k), z * (1 - 0.05 * k * x))
        s = G.OPolyMeshSchemaSample(p, ia, ca)
        if k == 0:
            s.setUVs(uv)
        mesh.getSchema().set(s)


def mesh(path, out):
    arch = Abc.IArchive(path)
    obj = arch.getTop().getChild(0)
    schema = G.IPolyMesh(obj, Abc.WrapExistingFlag.kWrapExisting).getSchema()
    s = schema.getValue(Abc.ISampleSelector(0))
    counts, idx = list(s.getFaceCounts()), list(s.getFaceIndices())
    uvp = schema.getUVsParam()
    u = uvp.getIndexedValue(Abc.ISampleSelector(0))
    vals = [(float(v[0]), float(v[1])) for v in u.getVals()]
    ind = list(u.getIndices())
    per_corner = uvp.getScope() == G.GeometryScope.kFacevaryingScope
    # Each face reversed, as Blender's and Maya's importers hold it (Alembic winds clockwise): a
    # quad then splits from the file's last corner, where Blender's tessellation splits it
    # (loops 0-2), so the oracle interpolates over the triangles the DCC shows.
    faces, uv, c = [], [], 0
    for k in counts:
        faces.append(idx[c:c + k][::-1])
        for j in reversed(range(c, c + k)):
            uv.append(vals[ind[j]] if per_corner else vals[ind[idx[j]]])
        c += k
    json.dump({"faces": faces, "uv": uv, "v_down": False}, open(out, "w"))


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "mesh":
        mesh(sys.argv[2], sys.argv[3])
    else:
        sys.exit(f"unknown command {sys.argv[1]}")
