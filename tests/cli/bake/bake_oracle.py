"""The oracle of tests/cli/bake/bake.sh: a UV rasteriser written here with numpy, independent of
rigscope's (src/core/uv_raster.cpp), over rigscope's own per-vertex values (`tension -o x.csv`),
and the images read back by independent readers (Pillow for PNG, OpenEXR's module for EXR).

  bake_oracle.py gltf_mesh|usd_mesh|collada_mesh|obj_mesh FILE ... OUT_JSON: a mesh's faces and UVs, read here
  bake_oracle.py obj_with_uvs NEUTRAL.obj MESH.glb OUT.obj: the neutral with the glb's UVs as vt
  bake_oracle.py ply_with_uvs NEUTRAL.obj MESH.glb OUT.ply vertex|texcoord ascii|little|big OUT_JSON:
    the neutral as a PLY written here with the glb's UVs (v up) per vertex (s, t) or per face
    corner (MeshLab's texcoord list), and the faces and UVs it wrote as MESH_JSON
  bake_oracle.py check MESH_JSON VALUES_CSV COLUMN FRAME IMAGE SIZE PADDING LO HI [values-only]
    MESH_JSON: {"faces": [[corner, ...], ...] (file vertex per corner), "uv": [[u, v] per corner
    of the faces, flattened], "v_down": bool}; the column of VALUES_CSV at FRAME, mapped by
    (x - LO) / (HI - LO), is the value per file vertex. COLUMN ramp_r, ramp_g, ramp_b: that
    channel of `--color t`'s ramp of the t column (docs/methods.md). IMAGE#C: channel C (R, G
    or B) of a colour image.
Prints what it compared and exits 1 on a mismatch.
"""
import json
import struct
import sys
from pathlib import Path

import numpy as np

# The Python module's tests read bake's files with their own PNG and EXR readers (the interpreter
# ctest runs need not have Pillow or OpenEXR's module): here, beside Pillow and OpenEXR, those
# readers are checked on every image the CLI tests read.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))
from image_files import read_exr_half, read_png16  # noqa: E402


def ramp(t, channel):
    """`--color t`'s colour of T, written here from its definition (docs: stretch blue, T = 1
    white, compression red, log2 T clamped to -1..1)."""
    x = np.clip(np.log2(np.maximum(t, 1e-30)), -1.0, 1.0)
    if channel == "r":
        return np.where(x < 0, 1 + x, 1.0)
    if channel == "g":
        return 1 - np.abs(x)
    return np.where(x > 0, 1 - x, 1.0)


def read_values(path, column, frame):
    if column.startswith("ramp_"):
        return ramp(read_values(path, "t", frame), column[5:])
    import csv
    vals = {}
    with open(path) as f:
        rows = csv.DictReader(f)
        for r in rows:
            if r["frame"] == frame:
                vals[int(r["vertex"])] = float(r[column])
    out = np.zeros(max(vals) + 1)
    for k, v in vals.items():
        out[k] = v
    return out


def rasterise(faces, uv, v_down, n, values):
    """Per texel: value and coverage, loose (centre on or inside an edge, 1e-9 of the area) and
    strict (inside by that margin), the first face in file order giving the value."""
    value = np.zeros((n, n))
    loose = np.zeros((n, n), bool)
    strict = np.zeros((n, n), bool)
    corner = 0
    jj, ii = np.mgrid[0:n, 0:n]
    cx, cy = ii + 0.5, jj + 0.5
    for face in faces:
        k = len(face)
        pts = uv[corner:corner + k].astype(np.float64)
        corner += k
        x = pts[:, 0] * n
        y = (pts[:, 1] if v_down else 1.0 - pts[:, 1]) * n
        for t in range(1, k - 1):
            idx = [0, t, t + 1]
            ax, ay = x[idx], y[idx]
            area = (ax[1] - ax[0]) * (ay[2] - ay[0]) - (ay[1] - ay[0]) * (ax[2] - ax[0])
            if area == 0:
                continue
            x0, x1 = max(0, int(np.floor(ax.min())) - 1), min(n, int(np.ceil(ax.max())) + 1)
            y0, y1 = max(0, int(np.floor(ay.min())) - 1), min(n, int(np.ceil(ay.max())) + 1)
            if x0 >= x1 or y0 >= y1:
                continue
            px, py = cx[y0:y1, x0:x1], cy[y0:y1, x0:x1]

            def e(a, b):
                return ((ax[b] - ax[a]) * (py - ay[a]) - (ay[b] - ay[a]) * (px - ax[a])) / area
            w0, w1, w2 = e(1, 2), e(2, 0), e(0, 1)   # barycentric weights of corners 0, 1, 2
            eps = 1e-9
            inl = (w0 >= -eps) & (w1 >= -eps) & (w2 >= -eps)
            ins = (w0 > eps) & (w1 > eps) & (w2 > eps)
            v = values[face[idx[0]]] * w0 + values[face[idx[1]]] * w1 + values[face[idx[2]]] * w2
            sub_v, sub_l, sub_s = value[y0:y1, x0:x1], loose[y0:y1, x0:x1], strict[y0:y1, x0:x1]
            take = inl & ~sub_l          # the first face in file order keeps a texel
            sub_v[take] = v[take]
            sub_l |= inl
            sub_s |= ins
    return value, loose, strict


def dilate(value, filled, passes):
    """Padding: pass after pass, an empty texel touching filled ones (8-neighbours) takes their mean."""
    n = value.shape[0]
    value, filled = value.copy(), filled.copy()
    for _ in range(passes):
        s = np.zeros_like(value)
        c = np.zeros_like(value)
        pv = np.pad(value * filled, 1)
        pf = np.pad(filled.astype(float), 1)
        for dj in (-1, 0, 1):
            for di in (-1, 0, 1):
                if di == 0 and dj == 0:
                    continue
                s += pv[1 + dj:1 + dj + n, 1 + di:1 + di + n]
                c += pf[1 + dj:1 + dj + n, 1 + di:1 + di + n]
        new = ~filled & (c > 0)
        if not new.any():
            break
        value[new] = s[new] / c[new]
        filled = filled | new
    return value, filled


def png_chunks(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, chunks = 8, []
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunks.append((kind.decode(), data[pos + 8:pos + 8 + length]))
        pos += 12 + length
    return chunks


def read_image(path):
    """(values in 0..1 or as stored, quantum) read by Pillow (PNG) or OpenEXR (EXR); PATH#C reads
    channel C (R, G or B) of a colour image."""
    path, _, channel = path.partition("#")
    if path.endswith(".png"):
        chunks = png_chunks(path)
        ihdr = chunks[0][1]
        width, height, depth, colour = struct.unpack(">IIBB", ihdr[:10])
        kinds = [k for k, _ in chunks]
        for bad in ("gAMA", "sRGB", "iCCP", "cHRM"):
            assert bad not in kinds, f"{path}: has a {bad} chunk"
        if channel:
            assert depth == 16 and colour == 2, f"{path}: bit depth {depth}, colour type {colour}: not 16-bit RGB"
            return read_png16(path)[:, :, "RGB".index(channel)].astype(np.float64) / 65535.0, 1.0 / 65535.0
        assert depth == 16 and colour == 0, f"{path}: bit depth {depth}, colour type {colour}: not 16-bit grey"
        from PIL import Image
        img = Image.open(path)
        assert img.mode in ("I;16", "I;16B", "I"), img.mode
        a = np.array(img, dtype=np.float64)
        assert a.shape == (height, width)
        assert np.array_equal(a, read_png16(path)), f"{path}: image_files.read_png16 reads other samples than Pillow"
        return a / 65535.0, 1.0 / 65535.0
    import OpenEXR
    with OpenEXR.File(path) as f:
        h = f.header()
        dw, disp = [a.tolist() for a in h["dataWindow"]], [a.tolist() for a in h["displayWindow"]]
        assert dw == disp and dw[0] == [0, 0], (dw, disp)
        assert str(h["type"]).endswith("scanlineimage"), h["type"]
        assert str(h["lineOrder"]).endswith("INCREASING_Y"), h["lineOrder"]
        ch = f.channels()
        if channel:
            # The module gathers a file's R, G and B channels into one "RGB" of 3 values a pixel.
            assert list(ch) == ["RGB"], list(ch)
            px = ch["RGB"].pixels[:, :, "RGB".index(channel)]
        else:
            assert list(ch) == ["Y"], list(ch)
            px = ch["Y"].pixels
        assert px.dtype == np.float16, px.dtype
        own, own_dw, own_disp = read_exr_half(path)
        assert [list(own_dw[:2]), list(own_dw[2:])] == dw and own_dw == own_disp, (own_dw, own_disp)
        own_px = own[channel] if channel else own["Y"]
        assert np.array_equal(own_px, px, equal_nan=True), f"{path}: image_files.read_exr_half reads other values than OpenEXR"
        return px.astype(np.float64), None


def check(mesh_json, values_csv, column, frame, image, size, padding, lo, hi, mode="coverage"):
    m = json.load(open(mesh_json))
    n = int(size)
    vals = (read_values(values_csv, column, frame) - float(lo)) / (float(hi) - float(lo))
    value, loose, strict = rasterise(m["faces"], np.array(m["uv"]), m["v_down"], n, vals)
    got, quantum = read_image(image)
    assert got.shape == (n, n), got.shape
    # Coverage: the values here never reach 0, so a texel is covered where the image is not 0.
    covered = got > 0
    # values-only: a map that is 0 on covered texels (compress where nothing bends) shows no
    # coverage; its values are compared where they are not 0.
    bad_strict = int((strict & ~covered).sum()) if mode == "coverage" else 0
    outside_loose = covered & ~loose
    dil, dfilled = dilate(value, covered & loose, int(padding))
    bad_pad = int((outside_loose & ~dfilled).sum())
    if quantum:
        want = np.round(np.clip(value, 0, 1) * 65535) / 65535
        dwant = np.round(np.clip(dil, 0, 1) * 65535) / 65535
        tol = quantum * 1.0001
    else:
        want, dwant = value, dil
        tol = None
    inner = covered & loose
    if tol is None:
        err = np.abs(got - want)[inner] / np.maximum(np.abs(want[inner]), 1e-3)
        worst = float(err.max()) if err.size else 0.0
        limit = 2.0 ** -10  # half's relative step, with room for its rounding
    else:
        err = np.abs(got - want)[inner]
        worst = float(err.max()) if err.size else 0.0
        limit = tol
    pad = covered & ~loose
    perr = np.abs(got - dwant)[pad]
    pworst = float(perr.max()) if perr.size else 0.0
    plimit = limit if tol is not None else 2.0 ** -10
    if tol is None:
        perr = perr / np.maximum(np.abs(dwant[pad]), 1e-3)
        pworst = float(perr.max()) if perr.size else 0.0
    print(f"{image}: {int(inner.sum())} covered texels (oracle: {int(strict.sum())} inside, {int(loose.sum())} touching), "
          f"worst {worst:.3g} (limit {limit:.3g}); {int(pad.sum())} padded, worst {pworst:.3g}; "
          f"{bad_strict} inside texels empty, {bad_pad} texels filled past the padding")
    if mode != "coverage":
        bad_pad = 0
    ok = bad_strict == 0 and bad_pad == 0 and worst <= limit and pworst <= plimit and inner.sum() > 0
    if int(padding) > 0:
        ok = ok and pad.sum() > 0
    return ok


def gltf_mesh(path, out):
    """Faces and per-corner TEXCOORD_0 of a .glb's first mesh (triangles), read here from its bytes."""
    glb = open(path, "rb").read()
    n = struct.unpack_from("<I", glb, 12)[0]
    doc = json.loads(glb[20:20 + n])
    base = 20 + n + 8
    types = {5126: np.float32, 5121: np.uint8, 5123: np.uint16, 5125: np.uint32}
    widths = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}

    def acc(i):
        a = doc["accessors"][i]
        v = doc["bufferViews"][a["bufferView"]]
        dt = np.dtype(types[a["componentType"]])
        w = widths[a["type"]]
        stride = v.get("byteStride", dt.itemsize * w)
        start = base + v.get("byteOffset", 0) + a.get("byteOffset", 0)
        raw = np.frombuffer(glb, np.uint8, a["count"] * stride, start).reshape(a["count"], stride)
        return raw[:, :dt.itemsize * w].copy().view(dt).reshape(a["count"], w)
    faces, uv, offset = [], [], 0
    for prim in doc["meshes"][0]["primitives"]:
        t = acc(prim["attributes"]["TEXCOORD_0"]).astype(np.float64)
        idx = acc(prim["indices"]).reshape(-1) + offset
        for k in range(0, len(idx), 3):
            faces.append([int(x) for x in idx[k:k + 3]])
            uv.extend(t[idx[k:k + 3] - offset].tolist())
        offset += len(t)
    json.dump({"faces": faces, "uv": uv, "v_down": True}, open(out, "w"))


def usd_mesh(path, prim_path, out):
    """Faces and per-corner st of a USD mesh, as usd-core reads them (faceVarying or vertex, indexed or not)."""
    from pxr import Usd, UsdGeom
    stage = Usd.Stage.Open(path)
    mesh = UsdGeom.Mesh(stage.GetPrimAtPath(prim_path))
    counts = mesh.GetFaceVertexCountsAttr().Get()
    idx = list(mesh.GetFaceVertexIndicesAttr().Get())
    pv = UsdGeom.PrimvarsAPI(mesh).GetPrimvar("st")
    flat = pv.ComputeFlattened()
    per_corner = pv.GetInterpolation() == "faceVarying"
    faces, uv, c = [], [], 0
    for k in counts:
        faces.append(idx[c:c + k])
        for j in range(c, c + k):
            p = flat[j] if per_corner else flat[idx[j]]
            uv.append([float(p[0]), float(p[1])])
        c += k
    json.dump({"faces": faces, "uv": uv, "v_down": False}, open(out, "w"))


def collada_mesh(path, out):
    """Faces and per-corner TEXCOORD (set 0) of a .dae's first <triangles>/<polylist>, read here
    from its XML; vertex ids by rigscope's documented rule for Collada (positions in order of
    first use by the faces, a position written twice counted once: Blender's export repeats the
    points of its seams), which this computes itself."""
    import xml.etree.ElementTree as ET
    ns = {"c": "http://www.collada.org/2005/11/COLLADASchema"}
    root = ET.parse(path).getroot()
    mesh = root.find(".//c:geometry/c:mesh", ns)
    prims = mesh.find("c:triangles", ns)
    if prims is None:
        prims = mesh.find("c:polylist", ns)
    inputs = prims.findall("c:input", ns)
    stride = max(int(i.get("offset")) for i in inputs) + 1
    pos_off = next(int(i.get("offset")) for i in inputs if i.get("semantic") == "VERTEX")
    tex = next(i for i in inputs if i.get("semantic") == "TEXCOORD" and i.get("set", "0") == "0")
    src = mesh.find(f"c:source[@id='{tex.get('source')[1:]}']", ns)
    floats = [float(x) for x in src.find("c:float_array", ns).text.split()]
    uvs = [(floats[2 * k], floats[2 * k + 1]) for k in range(len(floats) // 2)]
    vin = mesh.find("c:vertices/c:input[@semantic='POSITION']", ns)
    pf = mesh.find(f"c:source[@id='{vin.get('source')[1:]}']/c:float_array", ns).text.split()
    point = [tuple(pf[3 * k:3 * k + 3]) for k in range(len(pf) // 3)]  # as written: equal text, equal point
    p = [int(x) for x in prims.find("c:p", ns).text.split()]
    vcount = prims.find("c:vcount", ns)
    counts = [int(x) for x in vcount.text.split()] if vcount is not None else [3] * (len(p) // stride // 3)
    ids, faces, uv, c = {}, [], [], 0
    for k in counts:
        face = []
        for j in range(c, c + k):
            pos = p[j * stride + pos_off]
            face.append(ids.setdefault(point[pos], len(ids)))
            uv.append(list(uvs[p[j * stride + int(tex.get("offset"))]]))
        faces.append(face)
        c += k
    json.dump({"faces": faces, "uv": uv, "v_down": False}, open(out, "w"))


def obj_with_uvs(obj, glb, out):
    """OBJ (a neutral of GLB: vertex i is the glb's vertex i) with a `vt` per vertex, the glb's
    TEXCOORD_0 turned to the OBJ's v up (1 - v), and every face corner as v/vt."""
    gltf_mesh(glb, out + ".json")
    m = json.load(open(out + ".json"))
    uv = {}
    for face, k in zip(m["faces"], range(0, len(m["uv"]), 3)):
        for c, v in enumerate(face):
            uv[v] = m["uv"][k + c]
    lines = [l for l in open(obj).read().splitlines() if not l.startswith("f ")]
    lines += [f"vt {uv[v][0]!r} {1.0 - uv[v][1]!r}" for v in range(len(uv))]
    lines += ["f " + " ".join(f"{v + 1}/{v + 1}" for v in face) for face in m["faces"]]
    open(out, "w").write("\n".join(lines) + "\n")


def ply_with_uvs(obj, glb, out, where, fmt, out_json):
    """A PLY of the OBJ neutral (vertex i is the glb's vertex i) with the glb's TEXCOORD_0 in v up
    (1 - v): per vertex as float properties s, t, or per face corner as a texcoord list of 2 n
    floats; written here in ASCII or binary of either byte order."""
    gltf_mesh(glb, out_json)
    m = json.load(open(out_json))
    pos = [[float(x) for x in l.split()[1:4]] for l in open(obj) if l.startswith("v ")]
    uv_of = {}
    for face, k in zip(m["faces"], range(0, len(m["uv"]), 3)):
        for c, v in enumerate(face):
            uv_of[v] = [m["uv"][k + c][0], 1.0 - m["uv"][k + c][1]]
    faces = [list(f) for f in m["faces"]]
    head = ["ply", f"format {dict(ascii='ascii', little='binary_little_endian', big='binary_big_endian')[fmt]} 1.0",
            "comment written by tests/cli/bake/bake_oracle.py", f"element vertex {len(pos)}",
            "property float x", "property float y", "property float z"]
    if where == "vertex":
        head += ["property float s", "property float t"]
    head += [f"element face {len(faces)}", "property list uchar int vertex_indices"]
    if where == "texcoord":
        head += ["property list uchar float texcoord"]
    head += ["end_header"]
    e = ">" if fmt == "big" else "<"
    body = bytearray()
    lines = []
    for v, p in enumerate(pos):
        row = p + (uv_of[v] if where == "vertex" else [])
        if fmt == "ascii":
            lines.append(" ".join(repr(float(np.float32(x))) for x in row))
        else:
            body += struct.pack(f"{e}{len(row)}f", *row)
    for face in faces:
        tc = [x for v in face for x in uv_of[v]] if where == "texcoord" else []
        if fmt == "ascii":
            lines.append(" ".join([str(len(face))] + [str(v) for v in face] +
                                  ([str(len(tc))] + [repr(float(np.float32(x))) for x in tc] if tc else [])))
        else:
            body += struct.pack(f"{e}B{len(face)}i", len(face), *face)
            if tc:
                body += struct.pack(f"{e}B{len(tc)}f", len(tc), *tc)
    with open(out, "wb") as f:
        f.write(("\n".join(head) + "\n").encode())
        f.write(("\n".join(lines) + "\n").encode() if fmt == "ascii" else bytes(body))
    # What the oracle rasterises: the UVs as written (float32), per face corner.
    uv = [[float(np.float32(x)) for x in uv_of[v]] for face in faces for v in face]
    json.dump({"faces": faces, "uv": uv, "v_down": False}, open(out_json, "w"))


def obj_mesh(path, out):
    """Faces and per-corner UVs of an OBJ's v/vt faces, read here (v up: row 0 is v = 1)."""
    vt, faces, uv = [], [], []
    for line in open(path):
        w = line.split()
        if w and w[0] == "vt":
            vt.append([float(w[1]), float(w[2])])
        elif w and w[0] == "f":
            faces.append([int(c.split("/")[0]) - 1 for c in w[1:]])
            uv.extend(vt[int(c.split("/")[1]) - 1] for c in w[1:])
    json.dump({"faces": faces, "uv": uv, "v_down": False}, open(out, "w"))


if __name__ == "__main__":
    if sys.argv[1] == "obj_with_uvs":
        sys.exit(obj_with_uvs(*sys.argv[2:]))
    if sys.argv[1] == "ply_with_uvs":
        sys.exit(ply_with_uvs(*sys.argv[2:]))
    if sys.argv[1] == "obj_mesh":
        sys.exit(obj_mesh(*sys.argv[2:]))
    if sys.argv[1] == "collada_mesh":
        sys.exit(collada_mesh(*sys.argv[2:]))
    if sys.argv[1] == "gltf_mesh":
        sys.exit(gltf_mesh(*sys.argv[2:]))
    if sys.argv[1] == "usd_mesh":
        sys.exit(usd_mesh(*sys.argv[2:]))
    if sys.argv[1] == "check":
        sys.exit(0 if check(*sys.argv[2:]) else 1)
    sys.exit(f"unknown command {sys.argv[1]}")
