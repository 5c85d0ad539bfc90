#!/usr/bin/python3
"""Small glTF seeds for fuzz_gltf: a few hundred bytes each, so the fuzzer runs hundreds of
inputs a second instead of the corpus files' tens, and each seed exercises features the corpus
files do not all have (sparse accessors, strips and fans, byteStride, normalised weights, a
second JOINTS/WEIGHTS set, CUBICSPLINE and STEP keys, morph weights, node matrices, data URIs).

    make_seeds.py OUT_DIR
"""
import base64
import json
import os
import struct
import sys


class Builder:
    def __init__(self):
        self.bin = bytearray()
        self.doc = {"asset": {"version": "2.0"}, "buffers": [], "bufferViews": [], "accessors": []}

    def view(self, data, stride=None):
        while len(self.bin) % 4:
            self.bin.append(0)
        v = {"buffer": 0, "byteOffset": len(self.bin), "byteLength": len(data)}
        if stride:
            v["byteStride"] = stride
        self.bin += data
        self.doc["bufferViews"].append(v)
        return len(self.doc["bufferViews"]) - 1

    def accessor(self, fmt, ctype, atype, values, per, normalized=False, stride=None, minmax=False):
        element = struct.calcsize("<" + fmt * per)
        pad = b"\0" * ((stride or element) - element)
        data = b"".join(struct.pack("<" + fmt * per, *values[i:i + per]) + pad for i in range(0, len(values), per))
        a = {"bufferView": self.view(data, stride), "componentType": ctype, "count": len(values) // per, "type": atype}
        if normalized:
            a["normalized"] = True
        if minmax:
            a["min"] = [min(values[i::per]) for i in range(per)]
            a["max"] = [max(values[i::per]) for i in range(per)]
        self.doc["accessors"].append(a)
        return len(self.doc["accessors"]) - 1

    def floats(self, atype, values, per, **kw):
        return self.accessor("f", 5126, atype, values, per, **kw)

    def glb(self):
        self.doc["buffers"] = [{"byteLength": len(self.bin)}]
        text = json.dumps(self.doc, separators=(",", ":")).encode()
        text += b" " * (-len(text) % 4)
        binary = bytes(self.bin) + b"\0" * (-len(self.bin) % 4)
        body = struct.pack("<II", len(text), 0x4E4F534A) + text + struct.pack("<II", len(binary), 0x004E4942) + binary
        return struct.pack("<III", 0x46546C67, 2, 12 + len(body)) + body

    def gltf(self):
        self.doc["buffers"] = [{"byteLength": len(self.bin),
                                "uri": "data:application/octet-stream;base64," + base64.b64encode(bytes(self.bin)).decode()}]
        return json.dumps(self.doc, separators=(",", ":")).encode()


# A strip of 2 x 4 vertices along y, bent by two joints at y = 0 and y = 1.
POSITIONS = [v for i in range(8) for v in (float(i % 2), float(i // 2) * 0.5, 0.0)]
TRIANGLES = [i for q in range(3) for i in (2 * q, 2 * q + 1, 2 * q + 3, 2 * q, 2 * q + 3, 2 * q + 2)]
STRIP = [0, 1, 2, 3, 4, 5, 6, 7]
JOINTS = [j for i in range(8) for j in (0, 1, 0, 0)]
WEIGHTS = [w for i in range(8) for w in (1 - (i // 2) / 3, (i // 2) / 3, 0.0, 0.0)]
IDENTITY = [1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0]


def skinned(b, mode=4, stride=None, normalized=False, second_set=False, sparse=False, morph=False):
    attrs = {"POSITION": b.floats("VEC3", POSITIONS, 3, stride=stride, minmax=True)}
    if normalized:
        attrs["JOINTS_0"] = b.accessor("H", 5123, "VEC4", JOINTS, 4)
        attrs["WEIGHTS_0"] = b.accessor("B", 5121, "VEC4", [round(w * 255) for w in WEIGHTS], 4, normalized=True)
    else:
        attrs["JOINTS_0"] = b.accessor("B", 5121, "VEC4", JOINTS, 4)
        attrs["WEIGHTS_0"] = b.floats("VEC4", WEIGHTS, 4)
    if second_set:
        attrs["JOINTS_1"] = b.accessor("B", 5121, "VEC4", [1, 0, 0, 0] * 8, 4)
        attrs["WEIGHTS_1"] = b.floats("VEC4", [0.25, 0, 0, 0] * 8, 4)
    prim = {"attributes": attrs, "mode": mode}
    if mode == 4:
        prim["indices"] = b.accessor("H", 5123, "SCALAR", TRIANGLES, 1)
    elif mode in (5, 6):
        prim["indices"] = b.accessor("B", 5121, "SCALAR", STRIP, 1)
    if sparse:
        # POSITION of a target as a sparse accessor over zeros: two vertices move.
        idx = b.view(struct.pack("<HH", 6, 7))
        val = b.view(struct.pack("<6f", 0, 0, 0.3, 0, 0, 0.3))
        b.doc["accessors"].append({"componentType": 5126, "count": 8, "type": "VEC3",
                                   "sparse": {"count": 2, "indices": {"bufferView": idx, "componentType": 5123},
                                              "values": {"bufferView": val}}})
        prim["targets"] = [{"POSITION": len(b.doc["accessors"]) - 1}]
    elif morph:
        prim["targets"] = [{"POSITION": b.floats("VEC3", [0.0, 0.0, 0.2] * 8, 3)}]
    mesh = {"name": "strip", "primitives": [prim]}
    if "targets" in prim:
        mesh["weights"] = [0.5]
        mesh["extras"] = {"targetNames": ["lift"]}
    b.doc["meshes"] = [mesh]
    ibm = b.floats("MAT4", IDENTITY + [1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0, 0, 0, -1.0, 0, 1.0], 16)
    b.doc["nodes"] = [
        {"name": "root", "children": [1, 3]},
        {"name": "j0", "children": [2], "rotation": [0, 0, 0, 1]},
        {"name": "j1", "translation": [0, 1, 0]},
        {"name": "strip", "mesh": 0, "skin": 0},
    ]
    b.doc["skins"] = [{"joints": [1, 2], "inverseBindMatrices": ibm, "skeleton": 1}]
    b.doc["scenes"] = [{"nodes": [0]}]


def clip(b, interpolation="LINEAR", path="rotation", node=2, weights=False):
    times = b.floats("SCALAR", [1 / 24, 12 / 24, 24 / 24], 1, minmax=True)
    width = {"rotation": 4, "translation": 3, "scale": 3, "weights": 1}[path]
    key = {"rotation": [0, 0, 0, 1.0], "translation": [0, 1.0, 0], "scale": [1.0, 1, 1], "weights": [0.0]}[path]
    bent = {"rotation": [0, 0, 0.7071, 0.7071], "translation": [0.5, 1.0, 0], "scale": [1.0, 2, 1], "weights": [1.0]}[path]
    keys = [key, bent, key]
    if interpolation == "CUBICSPLINE":
        values = [v for k in keys for v in [0.0] * width + k + [0.0] * width]
    else:
        values = [v for k in keys for v in k]
    out = b.floats({1: "SCALAR", 3: "VEC3", 4: "VEC4"}[width], values, width)
    target = {"node": 3 if weights else node, "path": path}
    b.doc["animations"] = [{"name": "bend", "samplers": [{"input": times, "output": out, "interpolation": interpolation}],
                            "channels": [{"sampler": 0, "target": target}]}]


def seeds():
    out = {}
    b = Builder(); skinned(b); clip(b); out["skin_linear.glb"] = b.glb()
    b = Builder(); skinned(b, morph=True); clip(b, "CUBICSPLINE", "weights", weights=True); out["morph_cubic.glb"] = b.glb()
    b = Builder(); skinned(b, mode=5, sparse=True); clip(b, "STEP", "translation"); out["sparse_strip.glb"] = b.glb()
    b = Builder(); skinned(b, mode=6, stride=16); clip(b, "CUBICSPLINE", "rotation"); out["fan_stride.glb"] = b.glb()
    b = Builder(); skinned(b, normalized=True, second_set=True); clip(b, "LINEAR", "scale"); out["normalized_two_sets.glb"] = b.glb()
    b = Builder(); skinned(b, mode=0); out["points_no_clip.glb"] = b.glb()
    b = Builder(); skinned(b); clip(b)
    b.doc["nodes"][1]["matrix"] = [1.0, 0, 0, 0, 0, 0, 1.0, 0, 0, -1.0, 0, 0, 0, 0.5, 0, 1.0]
    del b.doc["nodes"][1]["rotation"]
    b.doc["nodes"].append({"name": "again", "mesh": 0})  # one mesh instanced twice, unskinned
    b.doc["nodes"][0]["children"].append(4)
    out["matrix_instanced.gltf"] = b.gltf()
    return out


def main():
    os.makedirs(sys.argv[1], exist_ok=True)
    for name, data in seeds().items():
        with open(os.path.join(sys.argv[1], name), "wb") as f:
            f.write(data)
        if name.endswith(".glb"):
            # The same as .gltf JSON with a data URI: plain mutations keep JSON text intact.
            length = struct.unpack_from("<I", data, 12)[0]
            doc = json.loads(data[20:20 + length])
            binary = data[20 + length + 8:]
            doc["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64.b64encode(binary).decode()
            with open(os.path.join(sys.argv[1], name[:-4] + ".gltf"), "w") as f:
                json.dump(doc, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
