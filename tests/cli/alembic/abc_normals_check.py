"""The N of an archive rigscope wrote from a glb with NORMAL (`deform/tension IN.glb -o out.abc`),
read with Alembic's own library (alembic3d, build/usd-venv) and checked with numpy, sharing no
code with rigscope:

    abc_normals_check.py OUT.abc IN.glb [--rest] [--dump=N.npz]
    abc_normals_check.py OUT.abc --none

- --none: the input had no normals (an OBJ): no mesh of the archive has N;

- every sample of the archive's one PolyMesh has N: float32 x3, vertex scope, not indexed, a
  unit normal per point;
- --rest (an archive of the bind pose alone): N is the glb's NORMAL (normalised), to 1e-5;
- else at every sample N is the glb's NORMAL carried to the sample's points as docs/alembic_notes.md
  says (Blender's way with custom normals): per vertex, the normal's coordinates in a frame of
  its area-weighted smooth normal and its first edge (to the next corner of the first face that
  has it) at the glb's positions, put back in that frame rebuilt from the written P and faces
  (the faces reversed from Alembic's clockwise winding), to 1e-4;
- --dump: writes the samples' N per corner in the glb's corner order (and P) for
  abc_blender_normals.py, which has no alembic3d.
Exit 0 when all agree; else one line per difference (at most 20).
"""
import json
import struct
import sys

import numpy as np
from alembic3d import Abc, AbcGeom as G

problems = []


def glb_mesh(path):
    """The first mesh's POSITION, NORMAL and triangles, primitives concatenated."""
    data = open(path, "rb").read()
    json_len, = struct.unpack_from("<I", data, 12)
    doc = json.loads(data[20:20 + json_len])
    blob = data[20 + json_len + 8:]

    def read(acc_index, comps, fmt, size):
        acc = doc["accessors"][acc_index]
        view = doc["bufferViews"][acc["bufferView"]]
        stride = view.get("byteStride", comps * size)
        base = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
        return [struct.unpack_from("<" + fmt * comps, blob, base + i * stride) for i in range(acc["count"])]

    pos, nrm, tris = [], [], []
    for prim in doc["meshes"][0]["primitives"]:
        a = prim["attributes"]
        for k in ("POSITION", "NORMAL"):
            acc = doc["accessors"][a[k]]
            if acc["componentType"] != 5126 or acc["type"] != "VEC3":
                raise SystemExit(f"{path}: {k} is not float VEC3 (this check reads only those)")
        base = len(pos)
        pos += read(a["POSITION"], 3, "f", 4)
        nrm += read(a["NORMAL"], 3, "f", 4)
        acc = doc["accessors"][prim["indices"]]
        fmt, size = {5121: ("B", 1), 5123: ("H", 2), 5125: ("I", 4)}[acc["componentType"]]
        idx = [i[0] + base for i in read(prim["indices"], 1, fmt, size)]
        tris += [idx[i:i + 3] for i in range(0, len(idx), 3)]
    return np.array(pos, dtype=np.float64), np.array(nrm, dtype=np.float64), tris


def unit(v):
    n = np.linalg.norm(v, axis=1, keepdims=True)
    return v / np.where(n > 0, n, 1)


def face_normals(p, faces):
    fn = np.zeros((len(faces), 3))
    for i, f in enumerate(faces):
        if len(f) == 3:
            fn[i] = np.cross(p[f[1]] - p[f[0]], p[f[2]] - p[f[0]])
        else:
            fn[i] = sum(np.cross(p[f[k]], p[f[(k + 1) % len(f)]]) for k in range(len(f)))
    return unit(fn)


def flat_faces(p, faces, normals):
    """Blender's glTF importer's rule: a face is flat when every corner's normal is the face's."""
    fn = face_normals(p, faces)
    return np.array([all(np.dot(normals[v], fn[i]) > 0.9999999 for v in f) for i, f in enumerate(faces)])


def smooth(p, faces, flat):
    """Per vertex the corner-angle-weighted sum of its smooth faces' unit normals."""
    fn = face_normals(p, faces)
    acc = np.zeros_like(p)
    for i, f in enumerate(faces):
        if flat[i]:
            continue
        for k, v in enumerate(f):
            e1 = p[f[(k + 1) % len(f)]] - p[v]
            e0 = p[f[k - 1]] - p[v]
            l = np.linalg.norm(e0) * np.linalg.norm(e1)
            if l > 0:
                acc[v] += fn[i] * np.arccos(np.clip(np.dot(e0, e1) / l, -1, 1))
    return acc


def first_edges(n, faces, flat):
    other = np.arange(n)
    seen = np.zeros(n, dtype=bool)
    for i, f in enumerate(faces):
        if flat[i]:
            continue
        for k, v in enumerate(f):
            if not seen[v]:
                seen[v] = True
                other[v] = f[(k + 1) % len(f)]
    return other


def frames(p, faces, flat, other):
    """Per vertex the columns (n, t, n x t) as rows of a (V, 3, 3) array."""
    n = unit(smooth(p, faces, flat))
    e = p[other] - p
    t = unit(e - np.sum(e * n, axis=1, keepdims=True) * n)
    return np.stack([n, t, np.cross(n, t)], axis=1)


def per_corner(vertex_normals, face_ns, faces, flat):
    """The normal of every corner, in Alembic's order (each face's corners reversed)."""
    out = []
    for i, f in enumerate(faces):
        for v in reversed(f):
            out.append(face_ns[i] if flat[i] else vertex_normals[v])
    return np.array(out)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    rest_only = "--rest" in sys.argv
    dump = [a[7:] for a in sys.argv if a.startswith("--dump=")]
    if "--none" in sys.argv:
        found = []

        def walk(o):
            if G.IPolyMesh.matches(o.getMetaData()):
                if G.IPolyMesh(o, Abc.WrapExistingFlag.kWrapExisting).getSchema().getNormalsParam().valid():
                    found.append(o.getFullName())
            for i in range(o.getNumChildren()):
                walk(o.getChild(i))

        walk(Abc.IArchive(args[0]).getTop())
        if found:
            print(f"N on {found}, whose input has no normals")
        return 1 if found else 0
    path, glb = args[0], args[1]
    gp, gn, gtris = glb_mesh(glb)
    gn = unit(gn)
    archive = Abc.IArchive(path)
    top = archive.getTop()
    if top.getNumChildren() != 1 or not G.IPolyMesh.matches(top.getChild(0).getMetaData()):
        print(f"{path}: not one PolyMesh under the top")
        return 1
    schema = G.IPolyMesh(top.getChild(0), Abc.WrapExistingFlag.kWrapExisting).getSchema()
    np_ = schema.getNormalsParam()
    if not np_.valid():
        print(f"{path}: no N")
        return 1
    if np_.getScope() != G.GeometryScope.kFacevaryingScope or not np_.isIndexed():
        problems.append(f"N: scope {np_.getScope()}, indexed {np_.isIndexed()}; facevarying, indexed expected")
    ts = schema.getTimeSampling()
    flat = flat_faces(gp, gtris, gn)
    other = first_edges(len(gp), gtris, flat)
    coeffs = np.einsum("vij,vj->vi", frames(gp, gtris, flat, other), gn)  # the normal in the rest frame
    saved_n, saved_p = [], []
    for k in range(schema.getNumSamples()):
        sel = Abc.ISampleSelector(ts.getSampleTime(k))
        s = schema.getValue(sel)
        p = np.array([(q.x, q.y, q.z) for q in s.getPositions()], dtype=np.float64)
        nv = np_.getExpandedValue(sel).getVals()
        n = np.array([(q.x, q.y, q.z) for q in nv], dtype=np.float64)
        counts, idx = list(s.getFaceCounts()), list(s.getFaceIndices())
        if len(n) != len(idx):
            problems.append(f"sample {k}: {len(n)} normals for {len(idx)} corners")
            continue
        faces, at = [], 0
        for c in counts:
            faces.append(list(reversed(idx[at:at + c])))
            at += c
        if faces != gtris:
            problems.append(f"sample {k}: the faces are not the glb's")
            continue
        # For Blender (abc_blender_normals.py): per corner in the glb's order (each face's corners
        # reversed back, as Blender's Alembic importer and its glTF importer order them).
        saved_n.append(np.concatenate([n[sum(counts[:i]):sum(counts[:i]) + c][::-1] for i, c in enumerate(counts)]))
        saved_p.append(p)
        if np.max(np.abs(np.linalg.norm(n, axis=1) - 1)) > 1e-5:
            problems.append(f"sample {k}: N is not unit length")
        if rest_only:
            # Smooth corners: the glb's NORMAL itself. A flat face's corners: its normal, which
            # Blender's rule puts within 4.5e-4 of the glb's NORMAL (a dot product over 0.9999999).
            smooth_corner = ~np.repeat(flat, [len(f) for f in faces])
            want = np.where(smooth_corner[:, None], per_corner(gn, np.zeros((len(faces), 3)), faces, flat),
                            per_corner(gn, face_normals(p, faces), faces, flat))
            d = np.max(np.abs(n - want), axis=1)
            flat_gap = np.where(smooth_corner, 0, np.max(np.abs(n - per_corner(gn, gn[[f[0] for f in faces]], faces, np.zeros(len(faces), bool))), axis=1))
            if flat_gap.max() > 4.5e-4:
                problems.append(f"a flat face's corner {int(np.argmax(flat_gap))}: {flat_gap.max():.3g} from the glb's NORMAL")
            tol = 1e-5
        else:
            vn = unit(np.einsum("vji,vj->vi", frames(p, faces, flat, other), coeffs))
            want = per_corner(vn, face_normals(p, faces), faces, flat)
            d = np.max(np.abs(n - want), axis=1)
            tol = 1e-4
        if d.max() > tol:
            c = int(np.argmax(d))
            problems.append(f"sample {k} corner {c} (vertex {idx[c]}): N {n[c]}, expected {want[c]} (difference {d.max():.3g} > {tol})")
    print(f"{len(gtris)} faces, {int(flat.sum())} flat (Blender's rule)", file=sys.stderr)
    if dump:
        np.savez(dump[0], n=np.array(saved_n), p=np.array(saved_p), times=np.array([ts.getSampleTime(k) for k in range(schema.getNumSamples())]))
    for p in problems[:20]:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
