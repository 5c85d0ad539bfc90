"""A glTF edited in place with numpy, for the lint tests: a .glb, or a .gltf with one buffer; accessors are writable numpy views of the buffer, new accessors are appended to it."""
import base64, json, os, struct

import numpy as np

COMP = {5120: np.int8, 5121: np.uint8, 5122: np.int16, 5123: np.uint16, 5125: np.uint32, 5126: np.float32}
WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}

class Gltf:
    """A .glb, or a .gltf with one buffer; accessors as writable numpy views of the buffer."""

    def __init__(self, path):
        raw = open(path, "rb").read()
        self.glb = raw[:4] == b"glTF"
        if self.glb:
            jl = struct.unpack_from("<I", raw, 12)[0]
            self.j = json.loads(raw[20:20 + jl])
            bl = struct.unpack_from("<I", raw, 20 + jl)[0]
            self.bin = bytearray(raw[28 + jl:28 + jl + bl])
        else:
            self.j = json.loads(raw)
            (b,) = self.j["buffers"]
            if b["uri"].startswith("data:"):
                self.bin = bytearray(base64.b64decode(b["uri"].split(",", 1)[1]))
            else:  # an external .bin beside the file (saved back as a data URI)
                self.bin = bytearray(open(os.path.join(os.path.dirname(path), b["uri"]), "rb").read())

    def acc(self, index):
        a = self.j["accessors"][index]
        bv = self.j["bufferViews"][a["bufferView"]]
        dt = np.dtype(COMP[a["componentType"]]).newbyteorder("<")
        w = WIDTH[a["type"]]
        stride = bv.get("byteStride", dt.itemsize * w)
        off = bv.get("byteOffset", 0) + a.get("byteOffset", 0)
        return np.ndarray((a["count"], w), dtype=dt, buffer=self.bin, offset=off, strides=(stride, dt.itemsize))

    def attr(self, name, prim=0):
        return self.acc(self.j["meshes"][0]["primitives"][prim]["attributes"][name])

    def indices(self, prim=0):
        return self.acc(self.j["meshes"][0]["primitives"][prim]["indices"]).reshape(-1)

    def add(self, array, component, kind):
        """Appends an accessor holding `array` (count x width); returns its index."""
        while len(self.bin) % 4:
            self.bin.append(0)
        data = np.ascontiguousarray(array, dtype=np.dtype(COMP[component]).newbyteorder("<")).tobytes()
        self.j["bufferViews"].append({"buffer": 0, "byteOffset": len(self.bin), "byteLength": len(data), "target": 34962})
        self.bin += data
        self.j["accessors"].append({"bufferView": len(self.j["bufferViews"]) - 1, "componentType": component,
                                    "count": len(array), "type": kind})
        return len(self.j["accessors"]) - 1

    def save(self, path):
        while len(self.bin) % 4:
            self.bin.append(0)
        self.j["buffers"][0]["byteLength"] = len(self.bin)
        if self.glb:
            js = json.dumps(self.j).encode()
            js += b" " * (-len(js) % 4)
            out = struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(js) + 8 + len(self.bin))
            out += struct.pack("<II", len(js), 0x4E4F534A) + js + struct.pack("<II", len(self.bin), 0x004E4942) + bytes(self.bin)
            open(path, "wb").write(out)
        else:
            self.j["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64.b64encode(bytes(self.bin)).decode()
            open(path, "w").write(json.dumps(self.j))
        return path

    def joint_name(self, k):
        node = self.j["skins"][0]["joints"][k]
        return self.j["nodes"][node].get("name", "node_%d" % node)
