"""Reads an archive rigscope wrote (`deform/tension IN -o out.abc`) with Alembic's own library
(alembic3d, in build/usd-venv) and compares it with rigscope's CSV output of the same run:

    abc_written_check.py OUT.abc FPS DEFORM.csv FACES.obj|- [TENSION.csv] [--uv=IN.glb]

- the archive's meshes are the CSV's (PolyMesh objects named as its mesh column, a '/' of a
  name made '_': Alembic's names hold none);
- P's time sampling: a sample per CSV frame, at frame / FPS seconds (ISampleSelector by time);
- every P sample equals the CSV's x, y, z as float32, exactly (CSV numbers are the shortest text
  of the float32);
- the faces: .faceCounts and .faceIndices, each face's corners reversed (Alembic winds clockwise),
  are the OBJ's faces (FACES.obj: the glb's triangles, read by write_neutral.py, not by rigscope);
- with TENSION.csv: the arbGeomParams tension, compress and stretch (float32, vertex scope) equal
  the CSV's columns at every frame, and Cd (C3f, vertex scope, interpretation rgb, mayaColorSet=1:
  Maya's mark of a colour set) is (compress, stretch, 0) per vertex, the maps colour.
- with --uv=IN.glb: the uv (indexed, facevarying), at every corner, is the glb's TEXCOORD_0 of the
  corner's vertex as Blender shows it, (u, 1 - v) (read from the glb here, not by rigscope);
  without it, the archive has no uv.
Exit 0 when all agree; else one line per difference (at most 20).
"""
import csv
import json
import struct
import sys

from alembic3d import Abc, AbcGeom as G

problems = []


def fail(msg):
    problems.append(msg)


def f32(text):
    return struct.unpack("<f", struct.pack("<f", float(text)))[0]


def read_csv(path, cols):
    """{mesh: {frame: [tuple of float32 per vertex]}} in vertex order."""
    out = {}
    for r in csv.DictReader(open(path)):
        rows = out.setdefault(r["mesh"].replace("/", "_"), {}).setdefault(int(r["frame"]), [])
        if int(r["vertex"]) != len(rows):
            fail(f"{path}: vertex {r['vertex']} out of order")
        rows.append(tuple(f32(r[c]) for c in cols))
    return out


def obj_faces(path):
    faces = []
    for line in open(path):
        if line.startswith("f "):
            faces.append([int(c.split("/")[0]) - 1 for c in line.split()[1:]])
    return faces


def glb_uvs(path):
    """The first mesh's TEXCOORD_0 per vertex, primitives in order, as float32 (u, 1 - v)."""
    data = open(path, "rb").read()
    json_len, = struct.unpack_from("<I", data, 12)
    doc = json.loads(data[20:20 + json_len])
    blob = data[20 + json_len + 8:]
    out = []
    for prim in doc["meshes"][0]["primitives"]:
        acc = doc["accessors"][prim["attributes"]["TEXCOORD_0"]]
        if acc["componentType"] != 5126 or acc["type"] != "VEC2":
            raise SystemExit(f"{path}: TEXCOORD_0 is not float VEC2 (this check reads only those)")
        view = doc["bufferViews"][acc["bufferView"]]
        stride = view.get("byteStride", 8)
        base = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
        for i in range(acc["count"]):
            u, v = struct.unpack_from("<2f", blob, base + i * stride)
            out.append((u, f32(1.0 - v)))
    return out


def meshes(top):
    out = {}

    def walk(o):
        if G.IPolyMesh.matches(o.getMetaData()):
            out[o.getName()] = G.IPolyMesh(o, Abc.WrapExistingFlag.kWrapExisting).getSchema()
        for i in range(o.getNumChildren()):
            walk(o.getChild(i))

    walk(top)
    return out


def main():
    uv_glb = [a[5:] for a in sys.argv if a.startswith("--uv=")]
    args = [a for a in sys.argv if not a.startswith("--uv=")]
    path, fps, deform_csv, faces_obj = args[1], float(args[2]), args[3], args[4]
    tension_csv = args[5] if len(args) > 5 else None
    # --uv=any: the input has UVs no second reader here gives (an FBX's): the archive's uv is
    # checked for its form and count only.
    any_uv = uv_glb == ["any"]
    uvs = glb_uvs(uv_glb[0]) if uv_glb and not any_uv else None
    deform = read_csv(deform_csv, ("x", "y", "z"))
    tension = read_csv(tension_csv, ("t", "compress", "stretch")) if tension_csv else None
    archive = Abc.IArchive(path)
    found = meshes(archive.getTop())
    if sorted(found) != sorted(deform):
        fail(f"meshes {sorted(found)} in the archive, {sorted(deform)} in the CSV")
    faces = obj_faces(faces_obj) if faces_obj != "-" else None
    for name, schema in found.items():
        frames = sorted(deform.get(name, {}))
        if schema.getNumSamples() != len(frames):
            fail(f"{name}: {schema.getNumSamples()} P samples, {len(frames)} frames in the CSV")
        ts = schema.getTimeSampling()
        arb = schema.getArbGeomParams()
        params = {}
        if tension is not None:
            if not arb.valid():
                fail(f"{name}: no arbGeomParams")
                continue
            for pname in ("tension", "compress", "stretch"):
                h = arb.getPropertyHeader(pname)
                if h is None or not G.IFloatGeomParam.matches(h):
                    fail(f"{name}: arbGeomParam {pname} missing or not a float geometry parameter")
                    continue
                params[pname] = G.IFloatGeomParam(arb, pname)
                if params[pname].getScope() != G.GeometryScope.kVertexScope:
                    fail(f"{name}: {pname} is not of vertex scope")
            h = arb.getPropertyHeader("Cd")
            if h is None or not G.IC3fGeomParam.matches(h):
                fail(f"{name}: Cd missing or not a C3f geometry parameter")
            else:
                params["Cd"] = G.IC3fGeomParam(arb, "Cd")
                if params["Cd"].getScope() != G.GeometryScope.kVertexScope:
                    fail(f"{name}: Cd is not of vertex scope")
                md = h.getMetaData()
                if md.get("mayaColorSet") != "1" or md.get("interpretation") != "rgb":
                    fail(f"{name}: Cd's metadata {md.serialize()} lacks mayaColorSet=1 or interpretation=rgb")
        elif arb.valid() and arb.getNumProperties() > 0:
            fail(f"{name}: a deform archive carries arbGeomParams")
        for k, frame in enumerate(frames):
            t = frame / fps
            if abs(ts.getSampleTime(k) - t) > 1e-9:
                fail(f"{name}: sample {k} at {ts.getSampleTime(k)} s, frame {frame} is at {t} s")
            sel = Abc.ISampleSelector(t)
            s = schema.getValue(sel)
            pts = s.getPositions()
            want = deform[name][frame]
            if len(pts) != len(want):
                fail(f"{name} frame {frame}: {len(pts)} points, {len(want)} in the CSV")
                continue
            for i, w in enumerate(want):
                p = pts[i]
                if (p.x, p.y, p.z) != w:
                    fail(f"{name} frame {frame} point {i}: {(p.x, p.y, p.z)} in the archive, {w} in the CSV")
                    break
            if k == 0:
                uvp = schema.getUVsParam()
                if any_uv:
                    if not uvp.valid() or not uvp.isIndexed() or uvp.getScope() != G.GeometryScope.kFacevaryingScope:
                        fail(f"{name}: no indexed facevarying uv")
                    elif len(uvp.getExpandedValue(sel).getVals()) != len(s.getFaceIndices()):
                        fail(f"{name}: uv corners and face corners differ in number")
                elif uvs is None and uvp.valid():
                    fail(f"{name}: a uv the input does not have")
                elif uvs is not None:
                    if not uvp.valid() or not uvp.isIndexed() or uvp.getScope() != G.GeometryScope.kFacevaryingScope:
                        fail(f"{name}: no indexed facevarying uv")
                    else:
                        ex = uvp.getExpandedValue(sel).getVals()
                        idx = s.getFaceIndices()
                        if len(ex) != len(idx):
                            fail(f"{name}: {len(ex)} uv corners, {len(idx)} face corners")
                        else:
                            for c in range(len(idx)):
                                if (ex[c][0], ex[c][1]) != uvs[idx[c]]:
                                    fail(f"{name}: corner {c} (vertex {idx[c]}): uv {(ex[c][0], ex[c][1])}, the glb's "
                                         f"(u, 1 - v) {uvs[idx[c]]}")
                                    break
            if k == 0 and faces is not None:
                counts, idx = list(s.getFaceCounts()), list(s.getFaceIndices())
                got, at = [], 0
                for c in counts:
                    got.append(list(reversed(idx[at:at + c])))
                    at += c
                if got != faces:
                    fail(f"{name}: faces (reversed from Alembic's winding) differ from the OBJ's "
                         f"({len(got)} and {len(faces)} faces)")
            if tension is not None and params:
                rows = tension[name][frame]
                for col, pname in enumerate(("tension", "compress", "stretch")):
                    if pname not in params:
                        continue
                    vals = params[pname].getExpandedValue(sel).getVals()
                    if [vals[i] for i in range(len(vals))] != [r[col] for r in rows]:
                        fail(f"{name} frame {frame}: {pname} differs from the CSV's column")
                if "Cd" in params:
                    cd = params["Cd"].getExpandedValue(sel).getVals()
                    got = [(cd[i][0], cd[i][1], cd[i][2]) for i in range(len(cd))]
                    if got != [(r[1], r[2], 0.0) for r in rows]:
                        fail(f"{name} frame {frame}: Cd is not (compress, stretch, 0) per vertex")
    for p in problems[:20]:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
