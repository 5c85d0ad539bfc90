"""Reads a .glb's vertex attributes (float VEC3 / SCALAR accessors) for the CLI tests: per mesh
name, attribute name -> list of tuples or floats. Independent of rigscope's own reader."""
import json
import struct


def attributes(path):
    data = open(path, "rb").read()
    magic, _version, length = struct.unpack_from("<III", data, 0)
    assert magic == 0x46546C67 and length == len(data), "not a GLB"
    json_len, json_type = struct.unpack_from("<II", data, 12)
    assert json_type == 0x4E4F534A
    doc = json.loads(data[20:20 + json_len])
    off = 20 + json_len
    bin_len, bin_type = struct.unpack_from("<II", data, off)
    assert bin_type == 0x004E4942
    blob = data[off + 8:off + 8 + bin_len]

    def read(index):
        acc = doc["accessors"][index]
        assert acc["componentType"] == 5126, "float accessors only"
        width = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}[acc["type"]]
        view = doc["bufferViews"][acc["bufferView"]]
        stride = view.get("byteStride", 4 * width)
        base = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
        out = []
        for i in range(acc["count"]):
            v = struct.unpack_from("<%df" % width, blob, base + i * stride)
            out.append(v[0] if width == 1 else v)
        return out

    meshes = {}
    for mesh in doc["meshes"]:
        attrs = {}
        for prim in mesh["primitives"]:
            for name, index in prim["attributes"].items():
                attrs.setdefault(name, []).extend(read(index))
        meshes[mesh.get("name", "")] = attrs
    return meshes
