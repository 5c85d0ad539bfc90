#!/bin/bash
# regions (issue 60): per frame and region, the weighted mean of a map, checked against means
# worked out here from rigscope's own per-vertex values (`tension -o x.csv`) and the weights read
# from the file by the test (glTF JOINTS_0/WEIGHTS_0) or written by it (@regions.json).
source "$(dirname "$0")/../common.bash"
PY=build/usd-venv/bin/python
"$PY" -c 'import numpy' 2>/dev/null || skip "numpy missing in build/usd-venv (scripts/setup.sh installs it)"
CYL="$CORPUS/bend_cylinder/bend_cylinder.glb"
[ -f "$CYL" ] || skip "no corpus at $CORPUS"

expect 0 "tension CSV" -- "$RIGSCOPE" tension "$CYL" --frames 1,31,61,91 -o "$WORK/t.csv"
expect 0 "regions by joints, CSV" -- "$RIGSCOPE" regions "$CYL" --frames 1,31,61,91 --map compress -o "$WORK/r.csv"
expect 0 "regions by joints, T, JSON" -- "$RIGSCOPE" regions "$CYL" --frames 1,31,61,91 --map tension -o "$WORK/r.json"
# A region file: ids in a list (weight 1) and ids with weights (one zero: not counted).
printf '{"ring": [0, 1, 2, 3, 40, 41], "patch": {"100": 0.25, "101": 2, "102": 0, "350": 1}}' > "$WORK/regions.json"
expect 0 "regions from a file, stretch" -- "$RIGSCOPE" regions "$CYL" --frames 1,31,61,91 --map stretch --by "@$WORK/regions.json" -o "$WORK/f.csv"

cat > "$WORK/hand.py" <<'PYEOF'
import csv, json, struct, sys
import numpy as np
glb_path, tcsv, joints_csv, joints_json, file_csv, regions_json = sys.argv[1:7]
glb = open(glb_path, "rb").read()
n = struct.unpack_from("<I", glb, 12)[0]
doc = json.loads(glb[20:20 + n]); base = 20 + n + 8
def acc(i, dt, w):
    a = doc["accessors"][i]; v = doc["bufferViews"][a["bufferView"]]
    start = base + v.get("byteOffset", 0) + a.get("byteOffset", 0)
    stride = v.get("byteStride", np.dtype(dt).itemsize * w)
    raw = np.frombuffer(glb, np.uint8, a["count"] * stride, start).reshape(a["count"], stride)
    return raw[:, :np.dtype(dt).itemsize * w].copy().view(dt).reshape(a["count"], w)
prim = doc["meshes"][0]["primitives"][0]
jt = {5121: np.uint8, 5123: np.uint16}[doc["accessors"][prim["attributes"]["JOINTS_0"]]["componentType"]]
J = acc(prim["attributes"]["JOINTS_0"], jt, 4).astype(int)
W = acc(prim["attributes"]["WEIGHTS_0"], np.float32, 4).astype(np.float64)
W = W / W.sum(1, keepdims=True)   # as every reader normalises
names = [doc["nodes"][j]["name"] for j in doc["skins"][0]["joints"]]
vals = {}
for r in csv.DictReader(open(tcsv)):
    vals.setdefault(r["frame"], {})[int(r["vertex"])] = r
def column(frame, col):
    d = vals[frame]; out = np.zeros(max(d) + 1)
    for k, r in d.items(): out[k] = float(r[col])
    return out
bad = 0; checked = 0
def compare(frame, region, want, got):
    global bad, checked
    checked += 1
    if abs(want - got) > 1e-6 * max(1.0, abs(want)):
        bad += 1; print(f"frame {frame} region {region}: want {want}, got {got}")
# by joints, compress (CSV)
rows = list(csv.DictReader(open(joints_csv)))
assert list(rows[0].keys()) == ["frame", "mesh", "region", "value"], rows[0].keys()
seen = set()
for r in rows:
    j = names.index(r["region"]); seen.add(r["region"])
    w = (W * (J == j)).sum(1)
    c = column(r["frame"], "compress")
    compare(r["frame"], r["region"], (w * c).sum() / w.sum(), float(r["value"]))
weighted = {names[j] for j in range(len(names)) if (W * (J == j)).sum() > 0}
assert seen == weighted, (seen, weighted)   # a joint that weights nothing has no row
# by joints, T (JSON)
js = json.load(open(joints_json))
for reg in js["regions"]:
    j = names.index(reg["region"]); w = (W * (J == j)).sum(1)
    for f, v in zip(js["frames"], reg["values"]):
        compare(f, reg["region"], (w * column(str(f), "t")).sum() / w.sum(), v)
# the region file, stretch
spec = json.load(open(regions_json))
for r in csv.DictReader(open(file_csv)):
    s = spec[r["region"]]; c = column(r["frame"], "stretch")
    pairs = [(i, 1.0) for i in s] if isinstance(s, list) else [(int(k), float(v)) for k, v in s.items()]
    want = sum(w * c[i] for i, w in pairs) / sum(w for _, w in pairs)
    compare(r["frame"], r["region"], want, float(r["value"]))
print(f"{checked} region means compared, {bad} off")
sys.exit(1 if bad or checked < 8 else 0)
PYEOF
expect 0 "region means by hand" -- "$PY" "$WORK/hand.py" "$CYL" "$WORK/t.csv" "$WORK/r.csv" "$WORK/r.json" "$WORK/f.csv" "$WORK/regions.json"
cat "$WORK/out"

# Mask images: a region per PNG the pattern matches, each vertex weighted by the mask at its UV
# (the nearest pixel; glTF rows from v = 0). The masks are made here with Pillow (8-bit grey and
# 16-bit grey), and the weights worked out from the glTF's own TEXCOORD_0 read by the test.
if "$PY" -c 'import PIL' 2>/dev/null; then
    mkdir -p "$WORK/masks"
    "$PY" - "$WORK/masks" <<'PYEOF'
import sys
import numpy as np
from PIL import Image
d = sys.argv[1]
y, x = np.mgrid[0:40, 0:50]
Image.fromarray(np.where(x < 25, 255, 0).astype(np.uint8), "L").save(f"{d}/left.png")          # u < 0.5: 1
Image.fromarray(((y * 1600) % 65536).astype(np.uint16)).save(f"{d}/ramp.png")                    # 16-bit, by row
Image.fromarray(np.zeros((8, 8), np.uint8), "L").save(f"{d}/none.png")                            # weights nothing: no row
open(f"{d}/notes.txt", "w").write("not a mask")
PYEOF
    expect 0 "regions from mask images" -- "$RIGSCOPE" regions "$CYL" --frames 1,61 --map compress --by "$WORK/masks/{region}.png" -o "$WORK/m.csv"
    expect 0 "mask region means by hand" -- "$PY" - "$CYL" "$WORK/t.csv" "$WORK/m.csv" "$WORK/masks" <<'PYEOF'
import csv, json, struct, sys
import numpy as np
from PIL import Image
glb = open(sys.argv[1], "rb").read()
n = struct.unpack_from("<I", glb, 12)[0]
doc = json.loads(glb[20:20 + n]); base = 20 + n + 8
def acc(i, dt, w):
    a = doc["accessors"][i]; v = doc["bufferViews"][a["bufferView"]]
    start = base + v.get("byteOffset", 0) + a.get("byteOffset", 0)
    stride = v.get("byteStride", np.dtype(dt).itemsize * w)
    raw = np.frombuffer(glb, np.uint8, a["count"] * stride, start).reshape(a["count"], stride)
    return raw[:, :np.dtype(dt).itemsize * w].copy().view(dt).reshape(a["count"], w)
uv = acc(doc["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_0"], np.float32, 2).astype(np.float64)
vals = {}
for r in csv.DictReader(open(sys.argv[2])):
    vals.setdefault(r["frame"], {})[int(r["vertex"])] = float(r["compress"])
rows = list(csv.DictReader(open(sys.argv[3])))
assert sorted({r["region"] for r in rows}) == ["left", "ramp"], {r["region"] for r in rows}
bad = 0
for r in rows:
    img = np.array(Image.open(f"{sys.argv[4]}/{r['region']}.png"), dtype=np.float64)
    img /= 65535.0 if img.max() > 255 else 255.0
    h, w = img.shape
    x, y = np.floor(uv[:, 0] * w), np.floor(uv[:, 1] * h)      # glTF: row 0 is v = 0
    inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)
    wt = np.zeros(len(uv))
    wt[inside] = img[y[inside].astype(int), x[inside].astype(int)]
    c = np.array([vals[r["frame"]][v] for v in range(len(uv))])
    want = (wt * c).sum() / wt.sum()
    if abs(want - float(r["value"])) > 1e-6 * max(1, abs(want)):
        bad += 1; print("region", r["region"], "frame", r["frame"], "want", want, "got", r["value"])
print(len(rows), "mask region means compared,", bad, "off")
sys.exit(1 if bad or len(rows) != 4 else 0)
PYEOF
    cat "$WORK/out"
    printf 'not a png' > "$WORK/masks/broken.png"
    expect 3 "a mask that is not a PNG" -- "$RIGSCOPE" regions "$CYL" --frames 61 --by "$WORK/masks/{region}.png" -o "$WORK/y.csv"
    check "  ... one line naming it" -- one_line_naming "broken.png"
    check "  ... no file" -- test ! -e "$WORK/y.csv"
    # Hostile masks: cut short inside its image data, and an IHDR claiming 100000 x 100000
    # pixels (a valid header, CRC included), which the budget refuses before any row is made.
    rm -f "$WORK/masks/broken.png"
    head -c 60 "$WORK/masks/left.png" > "$WORK/masks/cut.png"
    expect 3 "a mask cut short" -- "$RIGSCOPE" regions "$CYL" --frames 61 --by "$WORK/masks/{region}.png" -o "$WORK/y.csv"
    check "  ... one line naming it" -- one_line_naming "cut.png"
    check "  ... no file" -- test ! -e "$WORK/y.csv"
    rm -f "$WORK/masks/cut.png"
    "$PY" - "$WORK/masks/huge.png" <<'PYEOF'
import struct, sys, zlib
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
ihdr = struct.pack(">IIBBBBB", 100000, 100000, 8, 0, 0, 0, 0)
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 16)) + chunk(b"IEND", b""))
PYEOF
    expect 3 "a mask past the memory budget" -- "$RIGSCOPE" regions "$CYL" --frames 61 --max-memory 64 --by "$WORK/masks/{region}.png" -o "$WORK/y.csv"
    check "  ... one line naming it and the budget" -- one_line_naming "huge.png: a mask image of 100000 x 100000 pixels is past the memory budget"
    check "  ... no file" -- test ! -e "$WORK/y.csv"
else
    skip_later "Pillow missing in build/usd-venv"
fi

# glTF: the curves as a morph-weight animation on zero-delta targets named by region, read here
# from the file's bytes and compared with the CSV.
expect 0 "regions into a glTF" -- "$RIGSCOPE" regions "$CYL" --frames 1,31,61,91 --map compress -o "$WORK/r.glb"
expect 0 "the glTF's weights are the CSV's curves" -- "$PY" - "$WORK/r.glb" "$WORK/r.csv" <<'PYEOF'
import csv, json, struct, sys
import numpy as np
glb = open(sys.argv[1], "rb").read()
n = struct.unpack_from("<I", glb, 12)[0]
doc = json.loads(glb[20:20 + n]); base = 20 + n + 8
def acc(i):
    a = doc["accessors"][i]
    w = {"SCALAR": 1, "VEC3": 3}[a["type"]]
    if "bufferView" not in a:
        return np.zeros((a["count"], w), np.float32)   # a zero accessor (what a zero-delta target is)
    v = doc["bufferViews"][a["bufferView"]]
    start = base + v.get("byteOffset", 0) + a.get("byteOffset", 0)
    return np.frombuffer(glb, np.float32, a["count"] * w, start).reshape(a["count"], w)
mesh = doc["meshes"][0]
names = mesh["extras"]["targetNames"]
targets = mesh["primitives"][0]["targets"]
for t in targets:
    assert not acc(t["POSITION"]).any(), "a region's target moves the shape"
anim = [a for a in doc["animations"] if a.get("name") == "rigscope_regions"]
assert len(anim) == 1, [a.get("name") for a in doc["animations"]]
ch = anim[0]["channels"][0]
assert ch["target"]["path"] == "weights"
smp = anim[0]["samplers"][ch["sampler"]]
times = acc(smp["input"]).reshape(-1)
values = acc(smp["output"]).reshape(len(times), len(names))
rows = list(csv.DictReader(open(sys.argv[2])))
checked = 0
for r in rows:
    k = names.index(r["region"])
    f = int(r["frame"])
    i = int(np.argmin(np.abs(times - f / 24.0)))
    assert abs(times[i] - f / 24.0) < 1e-6, (times, f)
    assert abs(values[i, k] - np.float32(float(r["value"]))) <= 1e-7, (r, values[i, k])
    checked += 1
print(f"{checked} curve keys match; targets {names}")
sys.exit(0 if checked >= 8 else 1)
PYEOF
cat "$WORK/out"

# USD: time-sampled floats rigscope:region:NAME on the mesh, read back by usd-core.
LBS="$CORPUS/usd/lbs.usda"
if [ -f "$LBS" ] && "$PY" -c 'import pxr' 2>/dev/null; then
    cp "$LBS" "$WORK/lbs.usda"
    expect 0 "regions into a USD layer" -- "$RIGSCOPE" regions "$WORK/lbs.usda" --mesh Mesh --map tension -o "$WORK/lbs_regions.usda"
    expect 0 "regions CSV of the same" -- "$RIGSCOPE" regions "$WORK/lbs.usda" --mesh Mesh --map tension -o "$WORK/lbs_regions.csv"
    expect 0 "usd-core reads the curves the CSV holds" -- "$PY" - "$WORK/lbs_regions.usda" "$WORK/lbs_regions.csv" <<'PYEOF'
import csv, sys
from pxr import Usd
stage = Usd.Stage.Open(sys.argv[1])
mesh = stage.GetPrimAtPath("/Root/Mesh")
rows = list(csv.DictReader(open(sys.argv[2])))
assert rows
for r in rows:
    a = mesh.GetAttribute("rigscope:region:" + r["region"])
    assert a and a.HasAuthoredValue(), r["region"]
    t = Usd.TimeCode.Default() if r["frame"] == "bind" else float(r["frame"])
    got = a.Get(t)
    assert abs(got - float(r["value"])) <= 1e-6 * max(1, abs(float(r["value"]))), (r, got)
print(len(rows), "samples match")
PYEOF
else
    skip_later "no usd/lbs.usda or usd-core"
fi

# The sums' AVX2 build and its SSE2 twin (RIGSCOPE_NO_AVX2), on 3 threads and on 1: the same
# bytes, for each map, a falloff that is not 1 (the remap's pow) and a region file whose ids
# come in no order, one of them twice.
printf '{"shuffled": [400, 3, 77, 3, 250, 12, 599, 1], "weighted": {"500": 0.5, "7": 3, "260": 1.25}}' > "$WORK/order.json"
for map in compress stretch tension; do
    for by in joints "@$WORK/order.json"; do
        expect 0 "regions --map $map --by ${by##*/}, 3 threads" -- "$RIGSCOPE" regions "$CYL" --map "$map" --by "$by" --falloff 2 --threads 3 -o "$WORK/simd_a.csv"
        expect 0 "  ... RIGSCOPE_NO_AVX2, 1 thread" -- env RIGSCOPE_NO_AVX2=1 "$RIGSCOPE" regions "$CYL" --map "$map" --by "$by" --falloff 2 --threads 1 -o "$WORK/simd_b.csv"
        check "  ... the same bytes" -- cmp -s "$WORK/simd_a.csv" "$WORK/simd_b.csv"
    done
done

# Refusals.
# (CSV and JSON chunks merge: regions_farm.sh.)
expect 2 "--chunk of the glTF curves (one animation over all frames)" -- "$RIGSCOPE" regions "$CYL" --chunk 0/2 -o "$WORK/c.glb"
check "  ... no file" -- test ! -e "$WORK/c.glb"
expect 2 "--clip all (one clip a run)" -- "$RIGSCOPE" regions "$CYL" --clip all -o "$WORK/c.csv"
expect 2 "an unknown --by" -- "$RIGSCOPE" regions "$CYL" --by bones -o "$WORK/x.csv"
printf '{"ring": [0, 99999]}' > "$WORK/bad.json"
expect 3 "a region naming a vertex the mesh lacks" -- "$RIGSCOPE" regions "$CYL" --by "@$WORK/bad.json" -o "$WORK/x.csv"
check "  ... one line naming the region" -- one_line_naming "region 'ring'"
check "  ... no file" -- test ! -e "$WORK/x.csv"
printf '{"empty": {"3": 0}}' > "$WORK/zero.json"
expect 3 "a region that weights nothing" -- "$RIGSCOPE" regions "$CYL" --by "@$WORK/zero.json" -o "$WORK/x.csv"
expect 2 "the output over the region file" -- "$RIGSCOPE" regions "$CYL" --by "@$WORK/regions.json" -o "$WORK/regions.json" --format json
finish
