"""Alembic's own reading of an archive (alembic3d, its Python bindings), compared with rigscope's:

    alembic_oracle.py positions FILE.abc DEFORM.csv FPS   rigscope deform's CSV against every P sample
    alembic_oracle.py info FILE.abc INFO.json             rigscope info --json against the archive

positions: per mesh and P sample, the points placed in world space by Alembic's own transform
code (IXformSchema samples, XformSample.getMatrix, getInheritsXforms; imath's row-vector
multVecMatrix), against the CSV row of the frame round(time x FPS). Every sample must be found.
info: per mesh, its points, faces (.faceCounts), the frame rate 1 / P's time per sample (rounded
as the issue asks: an integer when within 1e-4 of one), and the arbGeomParams, uv and N names.
Exit 0 when all agree; otherwise one line per difference.
"""
import csv
import json
import sys

import imath
from alembic3d import Abc, AbcGeom as G

# Positions are float32 and the world matrix product is in double on both sides, in different
# orders of operations: 1e-6 of the scene's size (a few float ulps at size 1-3) bounds the gap.
TOLERANCE = 1e-6


def meshes(top):
    out = []

    def walk(obj):
        md = obj.getMetaData()
        if G.IPolyMesh.matches(md) or G.ISubD.matches(md):
            out.append(obj)
        for i in range(obj.getNumChildren()):
            walk(obj.getChild(i))

    walk(top)
    return out


def schema_of(obj):
    if G.IPolyMesh.matches(obj.getMetaData()):
        return G.IPolyMesh(obj, Abc.WrapExistingFlag.kWrapExisting).getSchema()
    return G.ISubD(obj, Abc.WrapExistingFlag.kWrapExisting).getSchema()


def world(obj, t):
    """Alembic's world matrix of obj at time t (seconds): the parents' xforms, row vectors."""
    chain = []
    p = obj.getParent()
    while p.valid() and p.getFullName() != "/":
        if G.IXform.matches(p.getMetaData()):
            chain.append(G.IXform(p, Abc.WrapExistingFlag.kWrapExisting).getSchema())
        p = p.getParent()
    m = imath.M44d()
    for x in reversed(chain):  # from the top down
        s = x.getValue(Abc.ISampleSelector(float(t)))
        m = s.getMatrix() * m if s.getInheritsXforms() else s.getMatrix()
    return m


def names(objs):
    short = [o.getName() for o in objs]
    return [o.getName() if short.count(o.getName()) == 1 else o.getFullName() for o in objs]


def frame_rate(schema):
    ts = schema.getTimeSampling()
    tst = ts.getTimeSamplingType()
    if schema.getNumSamples() < 2 or not tst.isUniform():
        return None
    raw = 1.0 / tst.getTimePerCycle()
    return float(round(raw)) if abs(raw - round(raw)) <= 1e-4 * raw else round(raw * 1e3) / 1e3


def positions(path, deform_csv, fps):
    rows = {}
    for r in csv.DictReader(open(deform_csv)):
        # By time: a still archive's one row set is the "bind" frame, at time 0.
        frame = round(float(r["time"]) * fps)
        rows.setdefault((r["mesh"], frame), {})[int(r["vertex"])] = (float(r["x"]), float(r["y"]), float(r["z"]))
    top = Abc.IArchive(path).getTop()
    objs = meshes(top)
    bad = 0
    checked = 0
    for obj, name in zip(objs, names(objs)):
        schema = schema_of(obj)
        ts = schema.getTimeSampling()
        for i in range(schema.getNumSamples()):
            t = ts.getSampleTime(i)
            # alembic3d's ISampleSelector takes a time in seconds (an int too), never an index.
            pts = schema.getValue(Abc.ISampleSelector(float(t))).getPositions()
            m = world(obj, t)
            frame = round(t * fps)
            got = rows.get((name, frame))
            if got is None:
                print(f"{path}: {name} sample {i} (t {t}): no CSV rows at frame {frame}")
                bad += 1
                continue
            if len(got) != len(pts):
                print(f"{name} frame {frame}: {len(got)} rows, Alembic has {len(pts)} points")
                bad += 1
                continue
            worst = 0.0
            for v in range(len(pts)):
                w = m.multVecMatrix(imath.V3d(pts[v][0], pts[v][1], pts[v][2]))
                g = got[v]
                worst = max(worst, abs(w[0] - g[0]), abs(w[1] - g[1]), abs(w[2] - g[2]))
            if worst > TOLERANCE:
                print(f"{name} frame {frame} (sample {i}, t {t}): positions differ by {worst}")
                bad += 1
            checked += 1
    if checked == 0:
        print(f"{path}: no sample compared")
        bad += 1
    return bad


def info(path, info_json):
    j = json.load(open(info_json))
    top = Abc.IArchive(path).getTop()
    objs = meshes(top)
    bad = 0
    got = {m["name"]: m for m in j["meshes"]}
    for obj, name in zip(objs, names(objs)):
        schema = schema_of(obj)
        s = schema.getValue(Abc.ISampleSelector(float(schema.getTimeSampling().getSampleTime(0))))
        m = got.get(name)
        if m is None:
            print(f"mesh {name}: not in info ({sorted(got)})")
            bad += 1
            continue
        if m["vertices"] != len(s.getPositions()) or m["faces"] != len(s.getFaceCounts()):
            print(f"mesh {name}: {m['vertices']} vertices, {m['faces']} faces; Alembic: {len(s.getPositions())}, {len(s.getFaceCounts())}")
            bad += 1
        listed = " ".join(j.get("attributes", []))
        params = []
        if schema.getUVsParam().valid():
            params.append("uv")
        if hasattr(schema, "getNormalsParam") and schema.getNormalsParam().valid():  # a SubD has no N
            params.append("N")
        arb = schema.getArbGeomParams()
        if arb.valid():
            params += [arb.getPropertyHeader(k).getName() for k in range(arb.getNumProperties())]
        for p in params:
            if f"{obj.getFullName()}: {p} (" not in listed and f"{obj.getFullName()}: arbGeomParam {p} (" not in listed:
                print(f"mesh {name}: {p} not listed by info")
                bad += 1
    rates = [r for r in (frame_rate(schema_of(o)) for o in objs) if r]
    if rates and abs(j["fps"] - rates[0]) > 1e-9:
        print(f"fps {j['fps']}, Alembic's P sampling gives {rates[0]}")
        bad += 1
    if not rates and j["fps_from_file"]:
        print("fps from the file, but no P has a uniform sampling")
        bad += 1
    if len(j["meshes"]) != len(objs):
        print(f"{len(j['meshes'])} meshes in info, Alembic has {len(objs)}")
        bad += 1
    return bad


def main():
    if sys.argv[1] == "positions":
        bad = positions(sys.argv[2], sys.argv[3], float(sys.argv[4]))
    else:
        bad = info(sys.argv[2], sys.argv[3])
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
