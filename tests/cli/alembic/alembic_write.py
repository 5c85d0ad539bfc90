"""Writes Alembic archives with Alembic's own library (alembic3d, PyPI; scripts/setup.sh installs it
in build/usd-venv), one per schema feature the reader handles or refuses:

    alembic_write.py OUT_DIR [DEFORM.csv FACES.obj]

- anim.abc: an IXform chain (translate, rotate about an axis, rotateY, scale, animated per
  frame on a float-stored 1/30 s step, the op list written once), a PolyMesh under it with uv
  (indexed, per corner), N, arbGeomParams (float per vertex, C3f per face) and an animated
  visibility, its P repeating samples (stored once: Ogawa's deduplication) and its faces written
  again at every sample (as Blender does); a second mesh under an Xform with inheritsXforms
  false at some samples and a matrix op.
- subd.abc: a SubD with no scheme property on a cyclic sampling (two samples a cycle).
- acyclic.abc: a PolyMesh on an acyclic sampling.
- houdini.abc: two meshes of one name ("mesh") under /a and /b.
- static.abc: a mesh at t = 0 alone (Maya's static meshes).
- bad_topology.abc, bad_count.abc, no_faces.abc, empty.abc: a face list that changes at
  sample 3, a P that loses a point at sample 2, a mesh with no faces, an archive of no objects.
With DEFORM.csv (`rigscope deform --format csv`) and FACES.obj (its mesh's faces): cache.abc,
the deformation as a PolyMesh's P per frame at 24 fps from frame 1 / 24, as Maya writes them, and
cache_cm.abc, the same in centimetres (x 100) under a translated Xform (Maya's units).
"""
import csv
import math
import os
import sys

import imath
from alembic3d import Abc, AbcCoreAbstract as C, AbcGeom as G

F30 = 0.03333333507180214  # 1/30 as a float32, as some exporters store the step


def times(ts):
    v = C.TimeVector()
    for t in ts:
        v.append(t)
    return v


def V3fs(pts):
    a = imath.V3fArray(len(pts))
    for i, p in enumerate(pts):
        a[i] = imath.V3f(*p)
    return a


def Ints(xs):
    a = imath.IntArray(len(xs))
    for i, x in enumerate(xs):
        a[i] = x
    return a


def grid(n, size=1.0):
    """An n x n grid of quads in the XZ plane: points, counts, indices (Alembic's clockwise)."""
    pts = [((i / (n - 1) - 0.5) * size, 0.0, (j / (n - 1) - 0.5) * size) for j in range(n) for i in range(n)]
    counts, idx = [], []
    for j in range(n - 1):
        for i in range(n - 1):
            a = j * n + i
            counts.append(4)
            idx += [a, a + n, a + n + 1, a + 1]
    return pts, counts, idx


def wave(pts, k):
    return [(x, 0.1 * math.sin(3 * x + 0.4 * k) + 0.05 * k * z, z) for x, y, z in pts]


def mesh_sample(pts, counts, idx, uv=None, n=None):
    s = G.OPolyMeshSchemaSample(V3fs(pts), Ints(idx), Ints(counts))
    if uv is not None:
        s.setUVs(uv)
    if n is not None:
        s.setNormals(n)
    return s


def write_anim(path):
    arch = Abc.OArchive(path)
    ts = arch.addTimeSampling(C.TimeSampling(F30, F30))
    rig = G.OXform(arch.getTop(), "rig", ts)
    body_pts, counts, idx = grid(4)
    for k in range(8):
        x = G.XformSample()
        x.setTranslation(imath.V3d(0.5 + 0.1 * k, 1.0, -0.25))
        x.setRotation(imath.V3d(1, 1, 0), 10.0 * k)
        x.setYRotation(5.0 + 3 * k)
        x.setScale(imath.V3d(1.0, 1.5, 0.5 + 0.05 * k))
        rig.getSchema().set(x)
    body = G.OPolyMesh(rig, "Body [main] shape", ts)
    ms = body.getSchema()
    corners = len(idx)
    uvs = imath.V2fArray(4)
    for i, (u, v) in enumerate([(0, 0), (1, 0), (1, 1), (0, 1)]):
        uvs[i] = imath.V2f(u, v)
    uvi = imath.UnsignedIntArray(corners)
    for i in range(corners):
        uvi[i] = i % 4
    nrm = imath.V3fArray(corners)
    for i in range(corners):
        nrm[i] = imath.V3f(0, 1, 0)
    arb = ms.getArbGeomParams()
    pressure = G.OFloatGeomParam(arb, "pressure", False, G.GeometryScope.kVertexScope, 1, ts)
    cd = G.OC3fGeomParam(arb, "Cd", False, G.GeometryScope.kUniformScope, 1, ts)
    vis = G.CreateVisibilityProperty(body, ts)
    for k in range(8):
        # Samples 0..2 alike (stored once), then a wave; faces written at every sample.
        pts = wave(body_pts, max(0, k - 2))
        s = mesh_sample(pts, counts, idx,
                        G.OV2fGeomParamSample(uvs, uvi, G.GeometryScope.kFacevaryingScope),
                        G.ON3fGeomParamSample(nrm, G.GeometryScope.kFacevaryingScope))
        ms.set(s)
        pa = imath.FloatArray(len(pts))
        for i in range(len(pts)):
            pa[i] = 0.1 * i + k
        pressure.set(G.OFloatGeomParamSample(pa, G.GeometryScope.kVertexScope))
        ca = imath.C3fArray(len(counts))
        for i in range(len(counts)):
            ca[i] = imath.Color3f(0.1 * i, 0.5, 1.0)
        cd.set(G.OC3fGeomParamSample(ca, G.GeometryScope.kUniformScope))
        vis.setValue(-1 if k < 4 else 0)
    free = G.OXform(rig, "free", ts)
    for k in range(8):
        x = G.XformSample()
        m = imath.M44d()
        m.setTranslation(imath.V3d(2.0, 0.5 * k, 0.0))
        x.setMatrix(m)
        x.setInheritsXforms(k % 2 == 0)
        free.getSchema().set(x)
    blob = G.OPolyMesh(free, "Blob", ts)
    pts, counts, idx = grid(3, 0.5)
    for k in range(8):
        blob.getSchema().set(mesh_sample(wave(pts, k), counts, idx))


def write_simple(path, sampling, n, name="mesh", parents=("",)):
    arch = Abc.OArchive(path)
    ts = arch.addTimeSampling(sampling) if sampling is not None else 0
    pts, counts, idx = grid(3)
    for p in parents:
        parent = arch.getTop()
        if p:
            parent = G.OXform(parent, p, ts)
            x = G.XformSample()
            x.setTranslation(imath.V3d(len(p), 0, 0))
            parent.getSchema().set(x)
        if sampling is None:
            m = G.OSubD(parent, name) if name == "subd" else G.OPolyMesh(parent, name)
        else:
            m = G.OSubD(parent, name, ts) if name == "subd" else G.OPolyMesh(parent, name, ts)
        for k in range(n):
            w = wave(pts, k)
            if name == "subd":
                s = G.OSubDSchemaSample(V3fs(w), Ints(idx), Ints(counts))
            else:
                s = mesh_sample(w, counts, idx)
            m.getSchema().set(s)


def write_bad(out):
    pts, counts, idx = grid(3)
    arch = Abc.OArchive(f"{out}/bad_topology.abc")
    ts = arch.addTimeSampling(C.TimeSampling(1 / 24, 1 / 24))
    m = G.OPolyMesh(arch.getTop(), "cloth", ts)
    for k in range(5):
        i2 = list(idx) if k < 3 else [idx[1], idx[0]] + idx[2:]
        m.getSchema().set(mesh_sample(wave(pts, k), counts, i2))
    del arch, m
    arch = Abc.OArchive(f"{out}/bad_count.abc")
    ts = arch.addTimeSampling(C.TimeSampling(1 / 24, 1 / 24))
    m = G.OPolyMesh(arch.getTop(), "cloth", ts)
    for k in range(4):
        p = wave(pts, k)
        if k >= 2:
            p = p + [(9.0, 9.0, 9.0)]
        m.getSchema().set(mesh_sample(p, counts, idx))
    del arch, m
    arch = Abc.OArchive(f"{out}/no_faces.abc")
    m = G.OPolyMesh(arch.getTop(), "points_only")
    m.getSchema().set(mesh_sample(pts, [], []))
    del arch, m
    arch = Abc.OArchive(f"{out}/empty.abc")
    del arch


def write_cache(path, deform_csv, faces_obj):
    frames = {}
    for r in csv.DictReader(open(deform_csv)):
        frames.setdefault(int(r["frame"]), []).append((float(r["x"]), float(r["y"]), float(r["z"])))
    counts, idx = [], []
    for line in open(faces_obj):
        if line.startswith("f "):
            f = [int(c.split("/")[0]) for c in line.split()[1:]]
            f = [i - 1 if i > 0 else None for i in f]
            counts.append(len(f))
            idx += list(reversed(f))  # Alembic's winding: clockwise
    numbers = sorted(frames)
    arch = Abc.OArchive(path)
    ts = arch.addTimeSampling(C.TimeSampling(1 / 24, numbers[0] / 24))
    top = G.OXform(arch.getTop(), "Cylinder", ts)
    top.getSchema().set(G.XformSample())
    m = G.OPolyMesh(top, "CylinderShape", ts)
    for n in numbers:
        m.getSchema().set(mesh_sample(frames[n], counts, idx))


# Maya's centimetres: the same deformation x 100, under an Xform translated by CM_OFFSET (cm), the
# points stored less that offset: world = P + offset, in centimetres.
CM_OFFSET = (10.0, -20.0, 30.0)


def write_cache_cm(path, deform_csv, faces_obj):
    frames = {}
    for r in csv.DictReader(open(deform_csv)):
        frames.setdefault(int(r["frame"]), []).append(tuple(100.0 * float(r[k]) - o for k, o in zip("xyz", CM_OFFSET)))
    counts, idx = [], []
    for line in open(faces_obj):
        if line.startswith("f "):
            f = [int(c.split("/")[0]) - 1 for c in line.split()[1:]]
            counts.append(len(f))
            idx += list(reversed(f))
    numbers = sorted(frames)
    arch = Abc.OArchive(path)
    ts = arch.addTimeSampling(C.TimeSampling(1 / 24, numbers[0] / 24))
    top = G.OXform(arch.getTop(), "Body", ts)
    xs = G.XformSample()
    xs.setTranslation(imath.V3d(*CM_OFFSET))
    top.getSchema().set(xs)
    m = G.OPolyMesh(top, "BodyShape", ts)
    for n in numbers:
        m.getSchema().set(mesh_sample(frames[n], counts, idx))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    write_anim(f"{out}/anim.abc")
    write_simple(f"{out}/subd.abc", C.TimeSampling(C.TimeSamplingType(2, 0.1), times([0.0, 0.025])), 6, name="subd")
    write_simple(f"{out}/acyclic.abc", C.TimeSampling(C.TimeSamplingType(C.AcyclicFlag.kAcyclic),
                                                      times([0.0, 0.1, 0.15, 0.4])), 4)
    write_simple(f"{out}/houdini.abc", C.TimeSampling(1 / 24, 1 / 24), 3, parents=("a", "b"))
    write_simple(f"{out}/static.abc", None, 1)
    write_bad(out)
    if len(sys.argv) > 3:
        write_cache(f"{out}/cache.abc", sys.argv[2], sys.argv[3])
        write_cache_cm(f"{out}/cache_cm.abc", sys.argv[2], sys.argv[3])


if __name__ == "__main__":
    main()
