"""A GLB's JSON and accessors, with the standard library alone (the usd-core venv has no numpy):
what scripts/make_bench_tube.py and scripts/usd/bench_tube_usd.py read the bench tube with. Only
what those files hold: one buffer, tightly packed accessors (no byteStride, no sparse)."""
import array
import json
import struct


def read_glb(path):
    """(the JSON document, read) where read(i) gives accessor i as (flat array.array, numbers per element)."""
    glb = open(path, "rb").read()
    n = struct.unpack_from("<I", glb, 12)[0]
    doc = json.loads(glb[20:20 + n])
    base = 20 + n + 8

    def read(i):
        a = doc["accessors"][i]
        v = doc["bufferViews"][a["bufferView"]]
        out = array.array({5126: "f", 5121: "B", 5123: "H", 5125: "I"}[a["componentType"]])
        width = {"SCALAR": 1, "VEC3": 3, "VEC4": 4, "MAT4": 16}[a["type"]]
        start = base + v.get("byteOffset", 0) + a.get("byteOffset", 0)
        out.frombytes(glb[start:start + a["count"] * width * out.itemsize])
        return out, width
    return doc, read
